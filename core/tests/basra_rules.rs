//! RULES.md §1, sentence by sentence: Basra `standard` (§1.1), `classic44` (§1.2) and
//! `cse231` (§1.3).
#![allow(clippy::unwrap_used, reason = "tests")]

use cardroom_core::game::{Event, Game, MoveError, Resignation};
use cardroom_core::games::basra::{
    Basra, BasraConfig, BasraEvent, BasraMove, BasraPosition, BasraRejection,
};
use cardroom_core::table::{EndReason, ScoreItem, Setup, Status, TableEvent};
use cardroom_core::{Card, CardSet, Deck, Options, Seat, Seed, Viewer, parse_cards};

// ---------------------------------------------------------------------------------------------
// Helpers: positions from compact card strings.

fn card(code: &str) -> Card {
    code.parse().unwrap()
}

fn set(codes: &str) -> CardSet {
    parse_cards(codes).unwrap().into_iter().collect()
}

fn seat(n: u8) -> Seat {
    Seat::new(n)
}

fn config(variant: &str, seats: usize, options: &str) -> BasraConfig {
    let options: Options = serde_json::from_str(options).unwrap();
    BasraConfig::new(Some(variant), seats, &options).unwrap()
}

/// A position builder: hands, floor, stock and piles by card strings; every card not placed goes
/// to the pile of `rest_to`.
struct Table {
    config: BasraConfig,
    position: BasraPosition,
    rest_to: usize,
}

fn table(variant: &str) -> Table {
    table_with(variant, 2, "{}")
}

fn table_with(variant: &str, seats: usize, options: &str) -> Table {
    let config = config(variant, seats, options);
    let sides = config.sides().count();
    Table {
        position: BasraPosition {
            dealer: seat(seats as u8 - 1),
            to_act: seat(0),
            hands: vec![CardSet::EMPTY; seats],
            piles: vec![CardSet::EMPTY; sides],
            totals: vec![0; sides],
            round: 1,
            ..BasraPosition::default()
        },
        rest_to: sides - 1,
        config,
    }
}

impl Table {
    fn hand(mut self, s: u8, codes: &str) -> Table {
        self.position.hands[usize::from(s)] = set(codes);
        self
    }
    fn floor(mut self, codes: &str) -> Table {
        self.position.floor = set(codes);
        self
    }
    fn stock(mut self, codes: &str) -> Table {
        self.position.stock = parse_cards(codes).unwrap();
        self
    }
    fn pile(mut self, side: usize, codes: &str) -> Table {
        self.position.piles[side] = set(codes);
        self
    }
    fn rest_to(mut self, side: usize) -> Table {
        self.rest_to = side;
        self
    }
    fn dealer(mut self, s: u8) -> Table {
        self.position.dealer = seat(s);
        self
    }
    fn last_capture(mut self, s: u8) -> Table {
        self.position.last_capture = Some(seat(s));
        self
    }
    fn totals(mut self, totals: &[i32]) -> Table {
        self.position.totals = totals.to_vec();
        self
    }
    fn carried(mut self, points: i32) -> Table {
        self.position.carried = points;
        self
    }
    fn build(mut self) -> Basra {
        let p = &self.position;
        let placed = p.hands.iter().chain(&p.piles).fold(p.floor, |a, b| a | *b)
            | p.stock.iter().collect::<CardSet>();
        let rest = self.config.deck().cards() - placed;
        self.position.piles[self.rest_to] |= rest;
        Basra::from_position(self.config, self.position, Seed::from_bytes([7; 32])).unwrap()
    }
}

type Events = cardroom_core::Events<BasraEvent>;

fn play(game: &mut Basra, s: u8, code: &str) -> Events {
    game.play(
        seat(s),
        &BasraMove::Play {
            card: card(code),
            capture: None,
        },
    )
    .unwrap()
}

fn play_taking(game: &mut Basra, s: u8, code: &str, capture: &str) -> Result<Events, String> {
    game.play(
        seat(s),
        &BasraMove::Play {
            card: card(code),
            capture: Some(set(capture)),
        },
    )
    .map_err(|e| e.to_string())
}

/// What the play in `events` captured, and its basra points.
fn played(events: &Events) -> (CardSet, Option<i32>) {
    events
        .iter()
        .find_map(|e| match &e.event {
            Event::Game(BasraEvent::Played {
                captured, basra, ..
            }) => Some((*captured, *basra)),
            _ => None,
        })
        .unwrap()
}

fn captured(events: &Events) -> CardSet {
    played(events).0
}

fn basra(events: &Events) -> Option<i32> {
    played(events).1
}

/// The score lines of the hand scored in `events`, as (side, item, points).
fn score_lines(events: &Events) -> Vec<(u8, ScoreItem, i32)> {
    events
        .iter()
        .find_map(|e| match &e.event {
            Event::Table(TableEvent::HandScored { lines, .. }) => Some(
                lines
                    .iter()
                    .map(|l| (l.side, l.item.clone(), l.points))
                    .collect(),
            ),
            _ => None,
        })
        .unwrap()
}

fn majority_points(events: &Events) -> Vec<(u8, i32)> {
    score_lines(events)
        .into_iter()
        .filter(|(_, item, _)| matches!(item, ScoreItem::Majority { .. }))
        .map(|(side, _, points)| (side, points))
        .collect()
}

fn practice(variant: &str, seats: usize, top: &str) -> Basra {
    practice_with(variant, seats, "{}", top)
}

/// A game from a practice deck: `top` first, then the rest of the deck in canonical order.
fn practice_with(variant: &str, seats: usize, options: &str, top: &str) -> Basra {
    let config = config(variant, seats, options);
    let first = parse_cards(top).unwrap();
    let mut deck = first.clone();
    deck.extend(
        config
            .deck()
            .canonical_order()
            .into_iter()
            .filter(|c| !first.contains(c)),
    );
    let setup = Setup::with_deck(Seed::from_bytes([5; 32]), deck);
    Basra::start(config, &setup).unwrap().0
}

fn stock_of(game: &Basra) -> CardSet {
    game.zones()
        .into_iter()
        .find(|z| z.name == "stock")
        .unwrap()
        .cards
        .into_iter()
        .collect()
}

// ---------------------------------------------------------------------------------------------
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

fn rounds_dealt(variant: &str, seats: usize, options: &str) -> usize {
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

// §1.1 End of a deal.

#[test]
fn after_the_last_card_the_floor_goes_to_the_last_capturer_and_is_no_basra() {
    let mut game = table("standard")
        .hand(0, "5C")
        .hand(1, "9S")
        .floor("5D KH")
        .rest_to(1)
        .build();
    play(&mut game, 0, "5C");
    let events = play(&mut game, 1, "9S");
    assert!(events.iter().any(|e| e.event
        == Event::Game(BasraEvent::FloorCollected {
            seat: seat(0),
            side: 0,
            cards: set("KH 9S"),
        })));
    assert!(
        !score_lines(&events)
            .iter()
            .any(|(_, item, _)| matches!(item, ScoreItem::Basra { .. }))
    );
    assert_eq!(
        game.view(Viewer::Spectator).sides[0].captured,
        set("5C 5D KH 9S")
    );
}

#[test]
fn if_nobody_captured_in_the_deal_the_floor_goes_to_the_dealer() {
    let mut game = table("standard")
        .hand(0, "8C")
        .hand(1, "9S")
        .floor("KH")
        .dealer(1)
        .rest_to(0)
        .build();
    play(&mut game, 0, "8C");
    let events = play(&mut game, 1, "9S");
    assert!(events.iter().any(|e| matches!(
        e.event,
        Event::Game(BasraEvent::FloorCollected { seat: s, side: 1, .. }) if s == seat(1)
    )));
}

// §1.1 Scoring per deal.

/// The last play of a deal: seat 0 throws 9♣ on 2♠, seat 1 throws 8♦; the floor goes to seat 0
/// (the last capturer). Piles: side 0 holds `pile0` plus those three cards; side 1 the rest.
fn last_play_scores(variant: &str, options: &str, pile0: &str, carried: i32) -> Events {
    let mut game = table_with(variant, 2, options)
        .hand(0, "9C")
        .hand(1, "8D")
        .floor("2S")
        .pile(0, pile0)
        .last_capture(0)
        .carried(carried)
        .rest_to(1)
        .build();
    play(&mut game, 0, "9C");
    play(&mut game, 1, "8D")
}

const TWENTY_FOUR_PLAIN: &str =
    "3C 4C 5C 6C 7C 8C 3D 4D 5D 6D 7D 9D 3H 4H 5H 6H 7H 8H 3S 4S 5S 6S 7S 8S";

#[test]
fn the_most_cards_score_thirty() {
    // Side 0: 24 + 3 = 27 cards.
    let events = last_play_scores("standard", "{}", TWENTY_FOUR_PLAIN, 0);
    assert_eq!(majority_points(&events), vec![(0, 30)]);
}

#[test]
fn named_cards_score_jacks_and_aces_one_two_of_clubs_two_ten_of_diamonds_three() {
    let events = last_play_scores("standard", "{}", "JC AH 2C TD", 0);
    let lines = score_lines(&events);
    let side0 = lines
        .iter()
        .find(|(side, item, _)| *side == 0 && matches!(item, ScoreItem::CardPoints { .. }))
        .unwrap();
    assert_eq!(side0.2, 1 + 1 + 2 + 3);
    let side1 = lines
        .iter()
        .find(|(side, item, _)| *side == 1 && matches!(item, ScoreItem::CardPoints { .. }))
        .unwrap();
    // The other three jacks and three aces.
    assert_eq!(side1.2, 6);
}

fn twenty_three_plain() -> String {
    TWENTY_FOUR_PLAIN.rsplit_once(' ').unwrap().0.to_owned()
}

#[test]
fn a_tied_majority_is_carried_over_to_the_next_deal() {
    // 23 + 3 = 26 each.
    let events = last_play_scores("standard", "{}", &twenty_three_plain(), 0);
    assert_eq!(majority_points(&events), vec![]);
    assert!(events.iter().any(|e| matches!(
        e.event,
        Event::Table(TableEvent::HandScored { carried: 30, .. })
    )));
}

#[test]
fn a_carried_majority_grows_until_someone_wins_it() {
    let events = last_play_scores("standard", "{}", &twenty_three_plain(), 30);
    assert!(events.iter().any(|e| matches!(
        e.event,
        Event::Table(TableEvent::HandScored { carried: 60, .. })
    )));
    let events = last_play_scores("standard", "{}", TWENTY_FOUR_PLAIN, 60);
    assert_eq!(majority_points(&events), vec![(0, 90)]);
}

#[test]
fn as_a_house_rule_a_tied_majority_is_void() {
    let events = last_play_scores(
        "standard",
        r#"{"majority_tie": "void"}"#,
        &twenty_three_plain(),
        0,
    );
    assert_eq!(majority_points(&events), vec![]);
    assert!(events.iter().any(|e| matches!(
        e.event,
        Event::Table(TableEvent::HandScored { carried: 0, .. })
    )));
}

/// `n` cards of the canonical deck that are not among `avoid`, as a card string.
fn cards_avoiding(n: usize, avoid: &str) -> String {
    let avoid = set(avoid);
    Deck::Standard52
        .canonical_order()
        .into_iter()
        .filter(|c| !avoid.contains(*c))
        .take(n)
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Three players end a deal with piles of `a`, `b` and `c` cards; side 0 collects the floor.
fn three_way_majority(a: usize, b: usize, c: usize) -> Events {
    let table_cards = "9C 8D 7H KS";
    let pile0 = cards_avoiding(a - 4, table_cards);
    let pile1 = cards_avoiding(b, &format!("{table_cards} {pile0}"));
    assert_eq!(a + b + c, 52);
    let mut game = table_with("standard", 3, "{}")
        .hand(0, "9C")
        .hand(1, "8D")
        .hand(2, "7H")
        .floor("KS")
        .dealer(2)
        .pile(0, &pile0)
        .pile(1, &pile1)
        .last_capture(0)
        .rest_to(2)
        .build();
    play(&mut game, 0, "9C");
    play(&mut game, 1, "8D");
    play(&mut game, 2, "7H")
}

#[test]
fn the_majority_goes_to_the_side_with_strictly_more_cards_than_every_other() {
    assert_eq!(
        majority_points(&three_way_majority(18, 17, 17)),
        vec![(0, 30)]
    );
    assert_eq!(
        majority_points(&three_way_majority(16, 17, 19)),
        vec![(2, 30)]
    );
    let tied = three_way_majority(18, 18, 16);
    assert_eq!(majority_points(&tied), vec![]);
    assert!(tied.iter().any(|e| matches!(
        e.event,
        Event::Table(TableEvent::HandScored { carried: 30, .. })
    )));
}

// §1.1 End of game.

#[test]
fn the_first_side_at_the_target_after_a_deal_wins() {
    let mut game = table("standard")
        .hand(0, "9C")
        .hand(1, "8D")
        .floor("KS")
        .pile(0, TWENTY_FOUR_PLAIN)
        .last_capture(0)
        .totals(&[80, 90])
        .build();
    play(&mut game, 0, "9C");
    play(&mut game, 1, "8D");
    assert_eq!(game.status(), Status::Finished);
    let outcome = game.table().outcome().unwrap();
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.reason, EndReason::Target);
}

#[test]
fn a_win_is_checked_only_at_the_end_of_a_deal() {
    let mut game = table("standard")
        .hand(0, "5C 9H")
        .hand(1, "8D 9S")
        .floor("2C 3D")
        .totals(&[100, 0])
        .build();
    play(&mut game, 0, "5C");
    assert_eq!(game.status(), Status::Active);
}

#[test]
fn if_both_sides_pass_the_target_the_higher_total_wins() {
    let mut game = table("standard")
        .hand(0, "9C")
        .hand(1, "8D")
        .floor("KS")
        .pile(0, TWENTY_FOUR_PLAIN)
        .last_capture(0)
        .totals(&[95, 100])
        .build();
    play(&mut game, 0, "9C");
    play(&mut game, 1, "8D");
    // Side 0 gets 30 (majority), side 1 gets the 13 card points less nothing: 125 vs 113.
    assert_eq!(game.table().outcome().unwrap().winners, vec![0]);
}

#[test]
fn an_exact_tie_at_the_target_plays_another_deal_and_the_deal_passes_on() {
    // Side 0 scores 30 (majority); side 1 scores 13 (every named card): 100 + 30 = 117 + 13.
    let mut game = table("standard")
        .hand(0, "9C")
        .hand(1, "8D")
        .floor("KS")
        .pile(0, TWENTY_FOUR_PLAIN)
        .last_capture(0)
        .totals(&[100, 117])
        .dealer(1)
        .build();
    play(&mut game, 0, "9C");
    play(&mut game, 1, "8D");
    assert_eq!(game.table().totals(), &[130, 130]);
    assert_eq!(game.status(), Status::HandOver);
    assert_eq!(game.to_act(), None);
    game.deal_next().unwrap();
    assert_eq!(game.status(), Status::Active);
    assert_eq!(game.table().hand_number(), 2);
    assert_eq!(game.table().dealer(), seat(0));
    assert_eq!(game.to_act(), Some(seat(1)));
}

#[test]
fn the_target_is_a_house_rule() {
    let mut game = table_with("standard", 2, r#"{"target": 31}"#)
        .hand(0, "9C")
        .hand(1, "8D")
        .floor("KS")
        .pile(0, TWENTY_FOUR_PLAIN)
        .last_capture(0)
        .build();
    play(&mut game, 0, "9C");
    play(&mut game, 1, "8D");
    assert_eq!(game.status(), Status::HandOver, "30 is short of 31");
    let mut game = table_with("standard", 2, r#"{"target": 31}"#)
        .hand(0, "9C")
        .hand(1, "8D")
        .floor("KS")
        .pile(0, &format!("{TWENTY_FOUR_PLAIN} AC"))
        .last_capture(0)
        .build();
    play(&mut game, 0, "9C");
    play(&mut game, 1, "8D");
    assert_eq!(game.status(), Status::Finished);
}

#[test]
fn nothing_can_be_played_while_the_hand_is_over_or_after_the_game() {
    let mut game = table("standard")
        .hand(0, "9C")
        .hand(1, "8D")
        .floor("KS")
        .build();
    play(&mut game, 0, "9C");
    play(&mut game, 1, "8D");
    assert_eq!(game.status(), Status::HandOver);
    let err = game
        .play(
            seat(0),
            &BasraMove::Play {
                card: card("9C"),
                capture: None,
            },
        )
        .unwrap_err();
    assert_eq!(err, MoveError::HandOver);
    game.resign(seat(1)).unwrap();
    assert_eq!(game.deal_next().unwrap_err(), MoveError::GameOver);
}

// §5 Resigning.

#[test]
fn resigning_a_two_sided_game_loses_it() {
    let mut game = practice("standard", 2, "");
    let (effect, _) = game.resign(seat(0)).unwrap();
    assert_eq!(effect, Resignation::GameLost);
    let outcome = game.table().outcome().unwrap();
    assert_eq!(outcome.winners, vec![1]);
    assert_eq!(outcome.reason, EndReason::Resignation { seat: seat(0) });
}

#[test]
fn resigning_a_game_of_more_sides_hands_the_seat_to_a_computer_player() {
    let mut game = practice("standard", 3, "");
    let before = game.clone();
    let (effect, _) = game.resign(seat(1)).unwrap();
    assert_eq!(effect, Resignation::SeatToComputer);
    assert_eq!(game.status(), Status::Active);
    assert_eq!(game, before);
}

#[test]
fn the_move_cap_ends_the_game_with_no_winner() {
    let options = r#"{"move_cap": 100}"#;
    let config = config("standard", 2, options);
    let (mut game, _) = Basra::start(config, &Setup::seeded(Seed::from_bytes([4; 32]))).unwrap();
    let mut moves = 0;
    while game.status() != Status::Finished {
        match game.to_act() {
            Some(s) => {
                let mv = game.legal_moves(s)[0].clone();
                game.play(s, &mv).unwrap();
                moves += 1;
            }
            None => {
                game.deal_next().unwrap();
            }
        }
    }
    // Two deals are 96 plays and leave both sides short of 101 here; the cap stops the third.
    let outcome = game.table().outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::MoveCap);
    assert_eq!(moves, 100);
    assert!(outcome.winners.is_empty());
}

// API.md: a practice deck of several decks' worth.

#[test]
fn a_practice_deck_of_two_decks_deals_the_second_deck_next() {
    let config = config("standard", 2, "{}");
    let first = Deck::Standard52.canonical_order();
    let mut second = first.clone();
    second.reverse();
    let mut both = first;
    both.extend(second.iter().copied());
    let setup = Setup::with_deck(Seed::from_bytes([2; 32]), both);
    let (mut game, _) = Basra::start(config, &setup).unwrap();
    while game.status() == Status::Active {
        let s = game.to_act().unwrap();
        let mv = game.legal_moves(s)[0].clone();
        game.play(s, &mv).unwrap();
    }
    game.deal_next().unwrap();
    // Dealer is now seat 0, so seat 1 receives first: KS, QS? No — the second deck is reversed:
    // KS QS JS TS … seat 1 gets KS JS 9S 7S, seat 0 QS TS 8S 6S.
    assert_eq!(game.hand(seat(1)), set("KS JS 9S 7S"));
    assert_eq!(game.hand(seat(0)), set("QS TS 8S 6S"));
    assert_eq!(game.table().practice_deal(1), Some(second.as_slice()));
}

// ---------------------------------------------------------------------------------------------
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

fn choice_table() -> Basra {
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

// ---------------------------------------------------------------------------------------------
// §1.3 cse231.

#[test]
fn cse231_deals_in_blocks_keeps_jacks_on_the_floor_and_seat_0_leads() {
    let game = practice("cse231", 2, "AC 2C 3C 4C 5C 6C 7C 8C JH 7D 9C TC");
    assert_eq!(game.hand(seat(0)), set("AC 2C 3C 4C"));
    assert_eq!(game.hand(seat(1)), set("5C 6C 7C 8C"));
    assert_eq!(game.floor(), set("JH 7D 9C TC"));
    assert_eq!(game.to_act(), Some(seat(0)));
    // Even without a practice deck, seat 0 leads.
    for b in 0..10u8 {
        let (game, _) = Basra::start(
            config("cse231", 2, "{}"),
            &Setup::seeded(Seed::from_bytes([b; 32])),
        )
        .unwrap();
        assert_eq!(game.to_act(), Some(seat(0)));
    }
}

#[test]
fn cse231_seat_0_leads_every_round() {
    let mut game = table("cse231")
        .hand(0, "9C")
        .hand(1, "8D")
        .floor("KS")
        .stock("AC AD AH AS 2C 2D 2H 2S")
        .build();
    play(&mut game, 0, "9C");
    play(&mut game, 1, "8D");
    assert_eq!(game.hand(seat(0)), set("AC AD AH AS"));
    assert_eq!(game.to_act(), Some(seat(0)));
}

#[test]
fn cse231_sums_are_pairs_only() {
    let mut game = table("cse231")
        .hand(0, "9C")
        .hand(1, "8D")
        .floor("2C 3D 4H")
        .build();
    assert_eq!(captured(&play(&mut game, 0, "9C")), CardSet::EMPTY);
}

#[test]
fn cse231_takes_every_disjoint_pair_and_same_rank_cards() {
    let mut game = table("cse231")
        .hand(0, "8C")
        .hand(1, "9D")
        .floor("3C 5D 2H 6S 8H KS")
        .build();
    assert_eq!(captured(&play(&mut game, 0, "8C")), set("3C 5D 2H 6S 8H"));
}

#[test]
fn cse231_the_seven_of_diamonds_sweeps_as_in_standard() {
    let mut game = table("cse231")
        .hand(0, "7D")
        .hand(1, "9D")
        .floor("4C 6H")
        .build();
    assert_eq!(basra(&play(&mut game, 0, "7D")), Some(10));
    let mut game = table("cse231")
        .hand(0, "7D")
        .hand(1, "9D")
        .floor("4C KH")
        .build();
    let events = play(&mut game, 0, "7D");
    assert_eq!(captured(&events), set("4C KH"));
    assert_eq!(basra(&events), None);
}

#[test]
fn cse231_a_jack_sweep_is_a_basra_only_when_every_floor_card_was_a_jack() {
    let mut game = table("cse231")
        .hand(0, "JC")
        .hand(1, "9D")
        .floor("JH JS")
        .build();
    assert_eq!(basra(&play(&mut game, 0, "JC")), Some(30));
    let mut game = table("cse231")
        .hand(0, "JC")
        .hand(1, "9D")
        .floor("JH 5S")
        .build();
    assert_eq!(basra(&play(&mut game, 0, "JC")), None);
}

#[test]
fn cse231_basras_are_worth_ten_for_a_numeral_and_twenty_for_a_queen_or_king() {
    let mut game = table("cse231")
        .hand(0, "5C")
        .hand(1, "9D")
        .floor("2C 3D")
        .build();
    assert_eq!(basra(&play(&mut game, 0, "5C")), Some(10));
    let mut game = table("cse231")
        .hand(0, "KC")
        .hand(1, "9D")
        .floor("KD")
        .build();
    assert_eq!(basra(&play(&mut game, 0, "KC")), Some(20));
}

#[test]
fn cse231_keeps_the_basra_card_in_the_basra_list_not_the_pile() {
    let mut game = table("cse231")
        .hand(0, "KC")
        .hand(1, "9D")
        .floor("KD")
        .rest_to(1)
        .build();
    play(&mut game, 0, "KC");
    let side = &game.view(Viewer::Spectator).sides[0];
    assert_eq!(side.captured, set("KD"));
    assert_eq!(side.basras.len(), 1);
    assert_eq!(side.basras[0].card, card("KC"));
}

/// The last play of a `cse231` deal: seat 0 makes a basra with 5♣ on 5♠ (the 5♣ goes to the
/// basra list), seat 1 throws 8♦. Side 0's pile holds `pile0` and the 5♠.
fn cse231_last_basra(pile0: &str) -> Events {
    let mut game = table("cse231")
        .hand(0, "5C")
        .hand(1, "8D")
        .floor("5S")
        .pile(0, pile0)
        .build();
    play(&mut game, 0, "5C");
    play(&mut game, 1, "8D")
}

#[test]
fn cse231_scores_thirty_for_27_cards_and_no_named_cards() {
    let events = cse231_last_basra(&cards_avoiding(26, "5C 5S 8D"));
    assert_eq!(majority_points(&events), vec![(0, 30)]);
    assert!(
        !score_lines(&events)
            .iter()
            .any(|(_, item, _)| matches!(item, ScoreItem::CardPoints { .. }))
    );
}

#[test]
fn cse231_basra_cards_do_not_count_towards_the_27() {
    // 25 + 5♠ = 26 in the pile; the 5♣ in the basra list would have made 27.
    let events = cse231_last_basra(&cards_avoiding(25, "5C 5S 8D"));
    assert_eq!(majority_points(&events), vec![]);
}

#[test]
fn cse231_leftover_floor_cards_go_to_the_player_who_played_last() {
    let mut game = table("cse231")
        .hand(0, "5C")
        .hand(1, "9S")
        .floor("5D KH")
        .rest_to(0)
        .build();
    play(&mut game, 0, "5C");
    let events = play(&mut game, 1, "9S");
    assert!(events.iter().any(|e| matches!(
        e.event,
        Event::Game(BasraEvent::FloorCollected { side: 1, .. })
    )));
}

#[test]
fn cse231_is_one_deal_and_the_higher_score_wins() {
    let mut game = table("cse231")
        .hand(0, "9C")
        .hand(1, "8D")
        .floor("KS")
        .pile(0, TWENTY_FOUR_PLAIN)
        .build();
    play(&mut game, 0, "9C");
    play(&mut game, 1, "8D");
    assert_eq!(game.status(), Status::Finished);
    let outcome = game.table().outcome().unwrap();
    // The floor went to seat 1 (played last): 24 vs 28 cards.
    assert_eq!(outcome.winners, vec![1]);
    assert_eq!(outcome.reason, EndReason::FinalHand);
}

#[test]
fn cse231_equal_scores_are_a_draw() {
    // 26 cards each: nobody reaches 27, both score 0.
    let mut game = table("cse231")
        .hand(0, "9C")
        .hand(1, "8D")
        .floor("KS")
        .pile(0, &cards_avoiding(26, "9C 8D KS"))
        .build();
    play(&mut game, 0, "9C");
    play(&mut game, 1, "8D");
    let outcome = game.table().outcome().unwrap();
    assert_eq!(game.table().totals(), &[0, 0]);
    assert_eq!(outcome.winners, vec![0, 1]);
}

// ---------------------------------------------------------------------------------------------
// Positions and hostile moves.

#[test]
fn a_position_must_place_every_card_exactly_once() {
    let config = config("standard", 2, "{}");
    let position = BasraPosition {
        hands: vec![set("5C"), set("5C")],
        piles: vec![CardSet::EMPTY; 2],
        ..BasraPosition::default()
    };
    let err = Basra::from_position(config, position, Seed::from_bytes([0; 32])).unwrap_err();
    assert_eq!(err.to_string(), "the position puts 5C in two places");
}

#[test]
fn moves_with_unknown_fields_or_types_do_not_parse() {
    assert!(serde_json::from_str::<BasraMove>(r#"{"type":"play","card":"7D"}"#).is_ok());
    assert!(
        serde_json::from_str::<BasraMove>(r#"{"type":"play","card":"10d","capture":["2H"]}"#)
            .is_ok()
    );
    for bad in [
        r#"{"type":"play"}"#,
        r#"{"type":"pass"}"#,
        r#"{"type":"play","card":"7D","extra":1}"#,
        r#"{"type":"play","card":"7X"}"#,
        r#"{"type":"play","card":"7D","capture":["2H","2H"]}"#,
        r#"{"type":"play","card":"7D","capture":"2H"}"#,
        r#"{"card":"7D"}"#,
        r#"[]"#,
    ] {
        assert!(serde_json::from_str::<BasraMove>(bad).is_err(), "{bad}");
    }
}

#[test]
fn rejections_name_the_rule() {
    let game = table("standard")
        .hand(0, "JC")
        .hand(1, "9D")
        .floor("5C")
        .build();
    let err = game
        .validate(
            seat(0),
            &BasraMove::Play {
                card: card("JC"),
                capture: Some(CardSet::EMPTY),
            },
        )
        .unwrap_err();
    assert_eq!(
        err,
        MoveError::Illegal(BasraRejection::Automatic {
            card: card("JC"),
            takes: set("5C")
        })
    );
    let game = table("standard")
        .hand(0, "9C")
        .hand(1, "9D")
        .floor("KS")
        .build();
    let err = game
        .validate(
            seat(0),
            &BasraMove::Play {
                card: card("9C"),
                capture: Some(set("KS")),
            },
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "9♣ captures nothing here: leave out `capture` or send an empty list"
    );
}
