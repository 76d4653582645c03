//! §1.1 `standard`: the deck and seats, the deal, the play, basras.

use super::helpers::{
    basra, captured, card, config, play, play_taking, practice, practice_with, score_lines, seat,
    set, stock_of, table, table_with,
};
use cardroom_core::game::{Event, Game, MoveError};
use cardroom_core::games::basra::{Basra, BasraConfig, BasraEvent, BasraMove};
use cardroom_core::table::{ScoreItem, Setup, Status};
use cardroom_core::{CardSet, Deck, Options, Seed, Viewer, parse_cards};

// §1.1 Deck and seats.

#[test]
fn standard_is_played_with_52_cards_by_two_three_or_four() {
    for seats in 2..=4 {
        let game = practice("standard", seats, "");
        let total: usize = game.zones().iter().map(|z| z.cards.len()).sum();
        assert_eq!(total, 52);
    }
    assert!(BasraConfig::new(None, 5, &Options::new()).is_err());
    assert!(BasraConfig::new(None, 1, &Options::new()).is_err());
}

#[test]
fn four_players_are_two_partnerships_sharing_one_capture_pile() {
    let mut game = table_with("standard", 4, "{}")
        .hand(0, "5C 9H")
        .hand(1, "KD 9D")
        .hand(2, "6S 9S")
        .hand(3, "QD 9C")
        .floor("5D 6D 2C")
        .dealer(3)
        .build();
    play(&mut game, 0, "5C");
    play(&mut game, 1, "KD");
    play(&mut game, 2, "6S");
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.sides.len(), 2);
    assert_eq!(view.sides[0].seats, vec![seat(0), seat(2)]);
    assert_eq!(view.sides[0].captured, set("5C 5D 6S 6D"));
}

#[test]
fn as_a_house_rule_four_players_play_each_for_themselves() {
    let game = practice_with("standard", 4, r#"{"partnerships": false}"#, "");
    assert_eq!(game.view(Viewer::Spectator).sides.len(), 4);
}

// §1.1 Deal.

#[test]
fn the_dealer_deals_four_each_one_at_a_time_from_the_next_seat_then_four_to_the_floor() {
    let game = practice("standard", 2, "AC 2C 3C 4C 5C 6C 7C 8C 9C TC QC KC");
    // A practice deck makes the last seat the dealer, so seat 0 receives first.
    assert_eq!(game.table().dealer(), seat(1));
    assert_eq!(game.hand(seat(0)), set("AC 3C 5C 7C"));
    assert_eq!(game.hand(seat(1)), set("2C 4C 6C 8C"));
    assert_eq!(game.floor(), set("9C TC QC KC"));
    assert_eq!(stock_of(&game).len(), 40);
}

#[test]
fn a_jack_or_the_seven_of_diamonds_dealt_to_the_floor_goes_back_into_the_stock() {
    let game = practice("standard", 2, "AC 2C 3C 4C 5C 6C 7C 8C JH 7D 9C TC QC KC");
    assert_eq!(game.floor(), set("9C TC QC KC"));
    let stock = stock_of(&game);
    assert!(stock.contains(card("JH")) && stock.contains(card("7D")));
    assert_eq!(stock.len(), 40);
}

#[test]
fn a_returned_card_is_never_put_straight_back_on_top() {
    // Over many seeds: the card after the floor is never the returned jack.
    for b in 0..50u8 {
        let top = parse_cards("AC 2C 3C 4C 5C 6C 7C 8C 9C TC QC JH KC").unwrap();
        let mut deck = top.clone();
        deck.extend(
            Deck::Standard52
                .canonical_order()
                .into_iter()
                .filter(|c| !top.contains(c)),
        );
        let setup = Setup::with_deck(Seed::from_bytes([b; 32]), deck);
        let game = Basra::start(config("standard", 2, "{}"), &setup).unwrap().0;
        assert_eq!(game.floor(), set("9C TC QC KC"));
        let top = game
            .zones()
            .into_iter()
            .find(|z| z.name == "stock")
            .unwrap()
            .cards[0];
        assert_ne!(top, card("JH"));
    }
}

#[test]
fn when_every_hand_is_empty_four_more_cards_go_to_each_player_and_none_to_the_floor() {
    let mut game = table("standard")
        .hand(0, "9C")
        .hand(1, "8D")
        .floor("KS")
        .stock("AC AD AH AS 2C 2D 2H 2S")
        .build();
    play(&mut game, 0, "9C");
    let events = play(&mut game, 1, "8D");
    assert_eq!(game.hand(seat(0)), set("AC AH 2C 2H"));
    assert_eq!(game.hand(seat(1)), set("AD AS 2D 2S"));
    assert_eq!(game.floor(), set("KS 9C 8D"));
    assert!(events.iter().any(|e| matches!(
        e.event,
        Event::Game(BasraEvent::RoundDealt {
            round: 2,
            cards_each: 4,
            stock: 0
        })
    )));
}

pub(crate) fn rounds_dealt(variant: &str, seats: usize, options: &str) -> usize {
    let config = config(variant, seats, options);
    let (mut game, mut events) =
        Basra::start(config, &Setup::seeded(Seed::from_bytes([9; 32]))).unwrap();
    while game.status() == Status::Active {
        let s = game.to_act().unwrap();
        let mv = game.legal_moves(s)[0].clone();
        events.extend(game.play(s, &mv).unwrap());
    }
    events
        .iter()
        .filter(|e| matches!(e.event, Event::Game(BasraEvent::RoundDealt { .. })))
        .count()
}

#[test]
fn a_deal_has_six_rounds_with_two_players_and_three_with_four() {
    assert_eq!(rounds_dealt("standard", 2, "{}"), 6);
    assert_eq!(rounds_dealt("standard", 4, "{}"), 3);
    assert_eq!(rounds_dealt("standard", 3, "{}"), 4);
    assert_eq!(rounds_dealt("classic44", 2, "{}"), 4);
    assert_eq!(rounds_dealt("cse231", 2, "{}"), 6);
}

#[test]
fn each_player_sees_only_their_own_dealt_cards() {
    let (_, events) = Basra::start(
        config("standard", 2, "{}"),
        &Setup::seeded(Seed::from_bytes([1; 32])),
    )
    .unwrap();
    for e in &events {
        if let Event::Game(BasraEvent::Dealt { seat: s, .. }) = e.event {
            assert_eq!(e.to, cardroom_core::Audience::Seat(s));
        }
    }
}

// §1.1 Play.

#[test]
fn the_seat_after_the_dealer_plays_first_and_turns_pass_in_order() {
    let mut game = practice("standard", 2, "AC 2C 3C 4C 5C 6C 7C 8C 9C TC QC KC");
    assert_eq!(game.to_act(), Some(seat(0)));
    play(&mut game, 0, "AC");
    assert_eq!(game.to_act(), Some(seat(1)));
}

#[test]
fn a_turn_is_exactly_one_card_from_your_hand_and_only_on_your_turn() {
    let mut game = table("standard")
        .hand(0, "5C")
        .hand(1, "9D")
        .floor("KS")
        .build();
    let before = game.clone();
    let err = game
        .play(
            seat(1),
            &BasraMove::Play {
                card: card("9D"),
                capture: None,
            },
        )
        .unwrap_err();
    assert_eq!(
        err,
        MoveError::NotYourTurn {
            to_act: Some(seat(0))
        }
    );
    let err = play_taking(&mut game, 0, "9D", "").unwrap_err();
    assert_eq!(err, "you do not hold 9♦");
    assert_eq!(game, before);
    assert_eq!(game.legal_moves(seat(0)).len(), 1);
}

#[test]
fn a_numeral_takes_every_floor_card_of_its_rank() {
    let mut game = table("standard")
        .hand(0, "5C")
        .hand(1, "9D")
        .floor("5D 5H 9C")
        .build();
    assert_eq!(captured(&play(&mut game, 0, "5C")), set("5D 5H"));
}

#[test]
fn a_numeral_also_takes_groups_adding_up_to_its_value() {
    let mut game = table("standard")
        .hand(0, "5C")
        .hand(1, "9D")
        .floor("5D 2C 3H KS")
        .build();
    assert_eq!(captured(&play(&mut game, 0, "5C")), set("5D 2C 3H"));
    assert_eq!(game.floor(), set("KS"));
}

#[test]
fn disjoint_groups_are_all_taken() {
    let mut game = table("standard")
        .hand(0, "9C")
        .hand(1, "9D")
        .floor("4C 5D 2H 7S 3C 6H")
        .build();
    assert_eq!(
        captured(&play(&mut game, 0, "9C")),
        set("4C 5D 2H 7S 3C 6H")
    );
}

#[test]
fn overlapping_sums_take_the_largest_family() {
    // 6: A+5 and 2+4 (four cards) beat A+2+3 (three cards).
    let mut game = table("standard")
        .hand(0, "6C")
        .hand(1, "9D")
        .floor("AC 5D 2H 4S 3C")
        .build();
    assert_eq!(captured(&play(&mut game, 0, "6C")), set("AC 5D 2H 4S"));
    assert_eq!(game.floor(), set("3C"));
}

#[test]
fn among_families_of_one_size_more_point_cards_win() {
    // 4♦ with 2♣ or with 2♥: the 2♣ scores.
    let mut game = table("standard")
        .hand(0, "6C")
        .hand(1, "9D")
        .floor("4D 2H 2C")
        .build();
    assert_eq!(captured(&play(&mut game, 0, "6C")), set("4D 2C"));
}

#[test]
fn then_the_family_whose_sorted_codes_come_first() {
    // A♥ with 6♣ or with 6♦: "6C" sorts before "6D".
    let mut game = table("standard")
        .hand(0, "7C")
        .hand(1, "9D")
        .floor("6D AH 6C")
        .build();
    assert_eq!(captured(&play(&mut game, 0, "7C")), set("6C AH"));
}

#[test]
fn faces_never_take_part_in_sums() {
    let mut game = table("standard")
        .hand(0, "TC")
        .hand(1, "9D")
        .floor("3C 7D JH QS")
        .build();
    assert_eq!(captured(&play(&mut game, 0, "TC")), set("3C 7D"));
}

#[test]
fn capture_is_compulsory_and_automatic() {
    let mut game = table("standard")
        .hand(0, "5C")
        .hand(1, "9D")
        .floor("5D KS")
        .build();
    let before = game.clone();
    let err = play_taking(&mut game, 0, "5C", "").unwrap_err();
    assert_eq!(
        err,
        "5♣ captures exactly 5♦ here: leave out `capture` or name those cards"
    );
    assert_eq!(game, before);
    assert!(play_taking(&mut game, 0, "5C", "5d").is_ok());
}

#[test]
fn naming_floor_cards_that_are_not_there_is_refused() {
    let mut game = table("standard")
        .hand(0, "5C")
        .hand(1, "9D")
        .floor("5D KS")
        .build();
    assert_eq!(
        play_taking(&mut game, 0, "5C", "5D 5H").unwrap_err(),
        "5♥ is not on the floor"
    );
}

#[test]
fn a_queen_or_king_captures_only_cards_of_its_rank() {
    let mut game = table("standard")
        .hand(0, "QH 9H")
        .hand(1, "KS 9S")
        .floor("QC 2D KH")
        .build();
    assert_eq!(captured(&play(&mut game, 0, "QH")), set("QC"));
    assert_eq!(captured(&play(&mut game, 1, "KS")), set("KH"));
    assert_eq!(game.floor(), set("2D"));
}

#[test]
fn a_jack_sweeps_the_whole_floor() {
    let mut game = table("standard")
        .hand(0, "JC")
        .hand(1, "9D")
        .floor("5C 2D KH")
        .build();
    let events = play(&mut game, 0, "JC");
    assert_eq!(captured(&events), set("5C 2D KH"));
    assert_eq!(basra(&events), None, "a jack sweep is no basra");
}

#[test]
fn a_jack_on_an_empty_floor_stays_there() {
    let mut game = table("standard").hand(0, "JC").hand(1, "9D").build();
    assert_eq!(captured(&play(&mut game, 0, "JC")), CardSet::EMPTY);
    assert_eq!(game.floor(), set("JC"));
}

#[test]
fn the_seven_of_diamonds_sweeps_the_whole_floor() {
    let mut game = table("standard")
        .hand(0, "7D")
        .hand(1, "9D")
        .floor("5C KH 3D")
        .build();
    let events = play(&mut game, 0, "7D");
    assert_eq!(captured(&events), set("5C KH 3D"));
    assert_eq!(basra(&events), None, "a face was on the floor");
}

#[test]
fn a_seven_of_diamonds_sweep_is_a_basra_only_of_numerals_adding_to_ten_or_less() {
    let mut game = table("standard")
        .hand(0, "7D")
        .hand(1, "9D")
        .floor("4C 6H")
        .build();
    assert_eq!(basra(&play(&mut game, 0, "7D")), Some(10));
    let mut game = table("standard")
        .hand(0, "7D")
        .hand(1, "9D")
        .floor("5C 6H")
        .build();
    assert_eq!(basra(&play(&mut game, 0, "7D")), None);
    // Even where a plain 7 would have cleared the same floor.
    let mut game = table("standard")
        .hand(0, "7D")
        .hand(1, "9D")
        .floor("5C 2H 3S 4D")
        .build();
    assert_eq!(basra(&play(&mut game, 0, "7D")), None);
}

#[test]
fn on_an_empty_floor_the_seven_of_diamonds_stays_and_is_then_an_ordinary_seven() {
    let mut game = table("standard")
        .hand(0, "7D 2S")
        .hand(1, "9C 8H")
        .stock("")
        .build();
    assert_eq!(captured(&play(&mut game, 0, "7D")), CardSet::EMPTY);
    assert_eq!(game.floor(), set("7D"));
    // 9 = 7♦ + 2: once on the floor it is an ordinary seven in sums.
    play(&mut game, 1, "8H");
    let events = play(&mut game, 0, "2S");
    assert_eq!(captured(&events), CardSet::EMPTY);
    assert_eq!(captured(&play(&mut game, 1, "9C")), set("7D 2S"));
}

#[test]
fn a_card_that_captures_nothing_stays_face_up_on_the_floor() {
    let mut game = table("standard")
        .hand(0, "9C")
        .hand(1, "9D")
        .floor("KS 2D")
        .build();
    assert_eq!(captured(&play(&mut game, 0, "9C")), CardSet::EMPTY);
    assert_eq!(game.floor(), set("KS 2D 9C"));
}

#[test]
fn the_played_card_goes_to_the_capturers_pile_with_what_it_took() {
    let mut game = table("standard")
        .hand(0, "5C")
        .hand(1, "9D")
        .floor("5D KS")
        .rest_to(1)
        .build();
    play(&mut game, 0, "5C");
    assert_eq!(game.view(Viewer::Spectator).sides[0].captured, set("5C 5D"));
}

// §1.1 Basra.

#[test]
fn clearing_the_floor_with_a_numeral_queen_or_king_is_a_basra_worth_ten() {
    for (floor, hand) in [("2C 3D", "5C"), ("QC", "QH"), ("KD", "KS"), ("9H", "9S")] {
        let mut game = table("standard")
            .hand(0, hand)
            .hand(1, "8D")
            .floor(floor)
            .build();
        assert_eq!(
            basra(&play(&mut game, 0, hand)),
            Some(10),
            "{hand} on {floor}"
        );
    }
}

#[test]
fn a_capture_that_leaves_cards_on_the_floor_is_no_basra() {
    let mut game = table("standard")
        .hand(0, "5C")
        .hand(1, "8D")
        .floor("5D KS")
        .build();
    assert_eq!(basra(&play(&mut game, 0, "5C")), None);
}

#[test]
fn a_jack_taking_a_lone_jack_is_a_double_basra_worth_twenty() {
    let mut game = table("standard")
        .hand(0, "JC")
        .hand(1, "8D")
        .floor("JH")
        .build();
    assert_eq!(basra(&play(&mut game, 0, "JC")), Some(20));
    // Two jacks on the floor are not a lone jack.
    let mut game = table("standard")
        .hand(0, "JC")
        .hand(1, "8D")
        .floor("JH JS")
        .build();
    assert_eq!(basra(&play(&mut game, 0, "JC")), None);
}

#[test]
fn as_a_house_rule_the_double_basra_is_worth_nothing() {
    let mut game = table_with("standard", 2, r#"{"double_basra": false}"#)
        .hand(0, "JC")
        .hand(1, "8D")
        .floor("JH")
        .build();
    assert_eq!(basra(&play(&mut game, 0, "JC")), None);
}

#[test]
fn a_basra_on_the_last_play_of_a_deal_counts() {
    let mut game = table("standard")
        .hand(0, "3H")
        .hand(1, "5S")
        .floor("2D")
        .rest_to(1)
        .build();
    play(&mut game, 0, "3H");
    let events = play(&mut game, 1, "5S");
    assert_eq!(basra(&events), Some(10));
    let lines = score_lines(&events);
    assert!(lines.contains(&(1, ScoreItem::Basra { card: card("5S") }, 10)));
}
