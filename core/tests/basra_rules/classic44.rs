//! §1.2 `classic44`.

use super::helpers::{
    basra, captured, card, majority_points, play, play_taking, practice, score_lines, seat, set,
    stock_of, table,
};
use super::standard_scoring::{TWENTY_FOUR_PLAIN, last_play_scores};
use cardroom_core::CardSet;
use cardroom_core::game::Game;
use cardroom_core::games::basra::Basra;
use cardroom_core::table::{ScoreItem, Status};

// §1.2 classic44.

#[test]
fn classic44_deals_five_each_and_four_to_the_floor_only_in_the_first_round() {
    let game = practice("classic44", 2, "AC 2C 3C 4C 5C 6C 7C 8C 9C TC AD 2D 3D 4D");
    assert_eq!(game.hand(seat(0)), set("AC 3C 5C 7C 9C"));
    assert_eq!(game.hand(seat(1)), set("2C 4C 6C 8C TC"));
    assert_eq!(game.floor(), set("AD 2D 3D 4D"));
    assert_eq!(stock_of(&game).len(), 30);
    let total: usize = game.zones().iter().map(|z| z.cards.len()).sum();
    assert_eq!(total, 44);
}

#[test]
fn classic44_returns_jacks_from_the_floor_but_not_the_seven_of_diamonds() {
    let game = practice(
        "classic44",
        2,
        "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JH 7D 2D 3D 4D",
    );
    assert_eq!(game.floor(), set("7D 2D 3D 4D"));
    assert!(stock_of(&game).contains(card("JH")));
}

#[test]
fn in_classic44_the_seven_of_diamonds_is_an_ordinary_seven() {
    let mut game = table("classic44")
        .hand(0, "7D")
        .hand(1, "9S")
        .floor("5C 9H 2S")
        .build();
    assert_eq!(captured(&play(&mut game, 0, "7D")), set("5C 2S"));
}

#[test]
fn in_classic44_the_dealer_plays_last_and_the_deal_alternates() {
    let mut game = table("classic44")
        .hand(0, "9C")
        .hand(1, "8D")
        .floor("AS")
        .dealer(1)
        .build();
    assert_eq!(game.to_act(), Some(seat(0)));
    play(&mut game, 0, "9C");
    play(&mut game, 1, "8D");
    game.deal_next().unwrap();
    assert_eq!(game.table().dealer(), seat(0));
    assert_eq!(game.to_act(), Some(seat(1)));
}

pub(crate) fn choice_table() -> Basra {
    // 7 on A♣ 6♦ 2♥ 5♠ 4♣ 3♦: A+6, 2+5, 4+3 are disjoint, but A+2+4 and 6 / 5 … overlap.
    table("classic44")
        .hand(0, "7C")
        .hand(1, "9S")
        .floor("AC 6D 2H 4C 3D")
        .build()
}

#[test]
fn when_sums_overlap_classic44_lets_the_player_choose() {
    // 7 on A 6 2 4 3: {A+6, 4+3} (four cards), {A+2+4} leaves 6 3 (no group: maximal),
    // {2+4+A} = same; {6+A} {3+4} … the maximal captures are listed as separate legal moves.
    let game = choice_table();
    let captures: Vec<CardSet> = game
        .legal_moves(seat(0))
        .into_iter()
        .filter_map(|m| m.capture())
        .collect();
    assert!(captures.contains(&set("AC 6D 4C 3D")));
    assert!(captures.contains(&set("AC 2H 4C")));
    assert!(captures.len() >= 2);
    let mut chosen = game.clone();
    let events = play_taking(&mut chosen, 0, "7C", "AC 2H 4C").unwrap();
    assert_eq!(captured(&events), set("AC 2H 4C"));
    assert_eq!(chosen.floor(), set("6D 3D"));
}

#[test]
fn without_a_choice_classic44_takes_the_standard_preference() {
    let mut game = choice_table();
    assert_eq!(captured(&play(&mut game, 0, "7C")), set("AC 6D 4C 3D"));
}

#[test]
fn a_classic44_choice_must_hold_every_same_rank_card() {
    let mut game = table("classic44")
        .hand(0, "7C")
        .hand(1, "9S")
        .floor("7H 4C 3D")
        .build();
    assert_eq!(
        play_taking(&mut game, 0, "7C", "4C 3D").unwrap_err(),
        "a capture with 7♣ must take every 7 on the floor; missing 7♥"
    );
}

#[test]
fn a_classic44_choice_must_split_into_groups_adding_up_to_the_card() {
    let mut game = choice_table();
    assert_eq!(
        play_taking(&mut game, 0, "7C", "AC 2H").unwrap_err(),
        "A♣ 2♥ do not split into groups of two or more numerals that each add up to 7"
    );
}

#[test]
fn a_classic44_choice_must_not_be_extendable_by_another_group() {
    let mut game = choice_table();
    let before = game.clone();
    assert_eq!(
        play_taking(&mut game, 0, "7C", "AC 6D").unwrap_err(),
        "the capture must take as much as it can: 4♣ 3♦ also add up to 7"
    );
    assert_eq!(game, before);
}

#[test]
fn a_classic44_basra_is_worth_twice_the_card() {
    for (hand, floor, points) in [("9C", "4D 5H", 18), ("AC", "AH", 2), ("TC", "TH", 20)] {
        let mut game = table("classic44")
            .hand(0, hand)
            .hand(1, "8S")
            .floor(floor)
            .build();
        assert_eq!(basra(&play(&mut game, 0, hand)), Some(points), "{hand}");
    }
}

#[test]
fn in_classic44_jacks_never_make_a_basra() {
    let mut game = table("classic44")
        .hand(0, "JC")
        .hand(1, "8S")
        .floor("JH")
        .build();
    assert_eq!(basra(&play(&mut game, 0, "JC")), None);
}

#[test]
fn classic44_scores_the_named_cards_and_no_majority() {
    let events = last_play_scores("classic44", "{}", TWENTY_FOUR_PLAIN, 0);
    let lines = score_lines(&events);
    assert!(majority_points(&events).is_empty());
    let card_points: i32 = lines
        .iter()
        .filter(|(_, item, _)| matches!(item, ScoreItem::CardPoints { .. }))
        .map(|(_, _, p)| p)
        .sum();
    assert_eq!(card_points, 13);
}

#[test]
fn classic44_is_played_to_151() {
    let mut game = table("classic44")
        .hand(0, "9C")
        .hand(1, "8D")
        .floor("2S")
        .last_capture(1)
        .totals(&[10, 140])
        .build();
    play(&mut game, 0, "9C");
    play(&mut game, 1, "8D");
    assert_eq!(game.status(), Status::Finished);
    assert_eq!(game.table().outcome().unwrap().winners, vec![1]);
}
