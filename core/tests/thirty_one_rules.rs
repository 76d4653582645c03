//! docs/rules.md#thirty-one, sentence by sentence: 31 `standard` (#thirty-one-standard) and `classic` (#thirty-one-classic).
//!
//! Over 600 lines: one test per sentence of the rules of 31, in the rules' order, so that they can be
//! read side by side; the two variants share the helpers at the top.
#![allow(clippy::unwrap_used, reason = "tests")]

use cardroom_core::game::{Event, Game, MoveError};
use cardroom_core::games::thirty_one::{
    HandValue, Pile, ThirtyOne, ThirtyOneConfig, ThirtyOneEvent, ThirtyOneMove, ThirtyOnePosition,
    ThirtyOneRejection, hand_value,
};
use cardroom_core::table::{EndReason, LifeLoss, ScoreItem, Setup, Status, TableEvent};
use cardroom_core::{Card, CardSet, Deck, Options, Seat, Seed, Viewer, parse_cards};

fn card(code: &str) -> Card {
    code.parse().unwrap()
}

fn set(codes: &str) -> CardSet {
    parse_cards(codes).unwrap().into_iter().collect()
}

fn seat(n: u8) -> Seat {
    Seat::new(n)
}

fn config(variant: &str, seats: usize, options: &str) -> ThirtyOneConfig {
    let options: Options = serde_json::from_str(options).unwrap();
    ThirtyOneConfig::new(Some(variant), seats, &options).unwrap()
}

type Events = cardroom_core::Events<ThirtyOneEvent>;

/// A position: hands by card strings, the discard pile's top card (2♠ unless given), the stock's
/// top cards, and every other card in the stock in canonical order (or, with
/// `build_with_stock_of`, under the discard pile).
struct Table {
    config: ThirtyOneConfig,
    position: ThirtyOnePosition,
    discard_top: Card,
}

fn table(variant: &str, seats: usize) -> Table {
    table_with(variant, seats, "{}")
}

fn table_with(variant: &str, seats: usize, options: &str) -> Table {
    let config = config(variant, seats, options);
    Table {
        position: ThirtyOnePosition {
            dealer: seat(seats as u8 - 1),
            to_act: seat(0),
            hands: vec![CardSet::EMPTY; seats],
            ..ThirtyOnePosition::default()
        },
        discard_top: card("2S"),
        config,
    }
}

impl Table {
    fn hand(mut self, s: u8, codes: &str) -> Table {
        self.position.hands[usize::from(s)] = set(codes);
        self
    }
    fn discard(mut self, code: &str) -> Table {
        self.discard_top = card(code);
        self
    }
    fn stock(mut self, codes: &str) -> Table {
        self.position.stock = parse_cards(codes).unwrap();
        self
    }
    fn lives(mut self, lives: &[i32]) -> Table {
        self.position.lives = lives.to_vec();
        self
    }
    fn dealer(mut self, s: u8) -> Table {
        self.position.dealer = seat(s);
        self
    }
    fn acting(mut self, s: u8) -> Table {
        self.position.to_act = seat(s);
        self
    }
    fn reshuffled(mut self) -> Table {
        self.position.reshuffled = true;
        self
    }
    fn unplaced(&self) -> Vec<Card> {
        let placed = self
            .position
            .hands
            .iter()
            .fold(CardSet::single(self.discard_top), |a, b| a | *b)
            | self.position.stock.iter().collect::<CardSet>();
        Deck::Standard52
            .canonical_order()
            .into_iter()
            .filter(|c| !placed.contains(*c))
            .collect()
    }
    fn build(mut self) -> ThirtyOne {
        let rest = self.unplaced();
        self.position.stock.extend(rest);
        self.position.discards = vec![self.discard_top];
        ThirtyOne::from_position(self.config, self.position, Seed::from_bytes([7; 32])).unwrap()
    }
    /// The stock holds only its first `n` unplaced cards; the rest lie under the discard top.
    fn build_with_stock_of(mut self, n: usize) -> ThirtyOne {
        let rest = self.unplaced();
        self.position.stock.extend(rest[..n].iter().copied());
        self.position.discards = rest[n..].to_vec();
        self.position.discards.push(self.discard_top);
        ThirtyOne::from_position(self.config, self.position, Seed::from_bytes([7; 32])).unwrap()
    }
}

fn act(game: &mut ThirtyOne, s: u8, mv: ThirtyOneMove) -> Events {
    game.play(seat(s), &mv).unwrap()
}

fn knock(game: &mut ThirtyOne, s: u8) -> Events {
    act(game, s, ThirtyOneMove::Knock {})
}

/// Draws from `from` and discards `code`.
fn turn(game: &mut ThirtyOne, s: u8, from: Pile, code: &str) -> Events {
    let mut events = act(game, s, ThirtyOneMove::Draw { from });
    events.extend(act(game, s, ThirtyOneMove::Discard { card: card(code) }));
    events
}

fn lives(game: &ThirtyOne) -> Vec<i32> {
    game.table().totals().to_vec()
}

fn losses(events: &Events) -> Vec<(u8, LifeLoss, i32)> {
    events
        .iter()
        .find_map(|e| match &e.event {
            Event::Table(TableEvent::HandScored { lines, .. }) => Some(
                lines
                    .iter()
                    .map(|l| match l.item {
                        ScoreItem::LifeLost { cause } => (l.side, cause, l.points),
                        _ => panic!("not a life: {l:?}"),
                    })
                    .collect(),
            ),
            _ => None,
        })
        .unwrap()
}

fn practice(variant: &str, seats: usize, top: &str) -> (ThirtyOne, Events) {
    let first = parse_cards(top).unwrap();
    let mut deck = first.clone();
    deck.extend(
        Deck::Standard52
            .canonical_order()
            .into_iter()
            .filter(|c| !first.contains(c)),
    );
    let setup = Setup::with_deck(Seed::from_bytes([5; 32]), deck);
    ThirtyOne::start(config(variant, seats, "{}"), &setup).unwrap()
}

// ---------------------------------------------------------------------------------------------
// #thirty-one-standard Hand values.

#[test]
fn a_hand_is_worth_its_best_suit_with_ace_eleven_and_faces_ten() {
    let v = |codes: &str| hand_value(set(codes), false);
    assert_eq!(v("AH KH QH"), HandValue::points(31));
    assert_eq!(v("AS KS QH"), HandValue::points(21));
    assert_eq!(v("7C 7D 7H"), HandValue::points(7));
    assert_eq!(v("2C 3C 4D"), HandValue::points(5));
    assert_eq!(
        hand_value(set("7C 7D 7H"), true),
        HandValue::THIRTY_AND_A_HALF
    );
}

// #thirty-one-standard Deal.

#[test]
fn three_cards_each_one_at_a_time_from_the_next_seat_then_the_discard_pile_starts() {
    let (game, events) = practice("standard", 3, "2C 3C 4C 5C 6C 7C 8C 9C TC JC");
    // A practice deck makes the last seat (2) the dealer: seat 0 receives first.
    assert_eq!(game.table().dealer(), seat(2));
    assert_eq!(game.hand(seat(0)), set("2C 5C 8C"));
    assert_eq!(game.hand(seat(1)), set("3C 6C 9C"));
    assert_eq!(game.hand(seat(2)), set("4C 7C TC"));
    let view = game.view(Viewer::Seat(seat(0)));
    assert_eq!(view.discard_top, Some(card("JC")));
    assert_eq!(view.stock, 52 - 9 - 1);
    assert_eq!(game.to_act(), Some(seat(0)));
    assert!(events.iter().any(|e| matches!(
        e.event,
        Event::Game(ThirtyOneEvent::HandDealt { stock: 42, .. })
    )));
}

#[test]
fn the_deal_passes_to_the_next_seat_still_in() {
    let mut game = table("standard", 3)
        .hand(0, "2C 3D 4H")
        .hand(2, "8C 9D TH")
        .dealer(2)
        .lives(&[3, -1, 3])
        .build();
    knock(&mut game, 0);
    turn(&mut game, 2, Pile::Stock, "8C");
    assert_eq!(game.status(), Status::HandOver);
    game.deal_next().unwrap();
    assert_eq!(
        game.table().dealer(),
        seat(0),
        "seat 2 dealt; seat 0 is next"
    );
    game.deal_next().unwrap_err();
    assert_eq!(
        game.to_act(),
        Some(seat(2)),
        "seat 1 is out: seat 2 plays first"
    );
}

// #thirty-one-standard A turn.

#[test]
fn a_turn_is_a_knock_or_a_draw_then_a_discard() {
    let mut game = table("standard", 2)
        .hand(0, "2C 3D 4H")
        .hand(1, "5C 6D 7H")
        .discard("KS")
        .build();
    assert_eq!(
        game.legal_moves(seat(0)),
        vec![
            ThirtyOneMove::Knock {},
            ThirtyOneMove::Draw { from: Pile::Stock },
            ThirtyOneMove::Draw {
                from: Pile::Discard
            }
        ]
    );
    let err = game
        .play(seat(0), &ThirtyOneMove::Discard { card: card("2C") })
        .unwrap_err();
    assert_eq!(err, MoveError::Illegal(ThirtyOneRejection::DrawFirst));
    act(&mut game, 0, ThirtyOneMove::Draw { from: Pile::Stock });
    assert_eq!(game.hand(seat(0)).len(), 4);
    let err = game.play(seat(0), &ThirtyOneMove::Knock {}).unwrap_err();
    assert_eq!(
        err.to_string(),
        "you can knock only at the start of your turn, before drawing"
    );
    let err = game
        .play(
            seat(0),
            &ThirtyOneMove::Draw {
                from: Pile::Discard,
            },
        )
        .unwrap_err();
    assert_eq!(err.to_string(), "you have drawn: now discard a card");
    act(&mut game, 0, ThirtyOneMove::Discard { card: card("2C") });
    assert_eq!(game.hand(seat(0)).len(), 3);
    assert_eq!(game.to_act(), Some(seat(1)));
}

#[test]
fn the_card_just_taken_from_the_discard_pile_cannot_be_discarded() {
    let mut game = table("standard", 2)
        .hand(0, "2C 3D 4H")
        .hand(1, "5C 6D 7H")
        .discard("KS")
        .build();
    act(
        &mut game,
        0,
        ThirtyOneMove::Draw {
            from: Pile::Discard,
        },
    );
    let before = game.clone();
    let err = game
        .play(seat(0), &ThirtyOneMove::Discard { card: card("KS") })
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "you cannot discard K♠: you just took it from the discard pile"
    );
    assert_eq!(game, before);
    assert!(
        !game
            .legal_moves(seat(0))
            .contains(&ThirtyOneMove::Discard { card: card("KS") })
    );
    // Everyone saw the K♠ taken.
    assert_eq!(game.view(Viewer::Seat(seat(1))).players[0].known, set("KS"));
}

#[test]
fn a_player_may_knock_on_the_very_first_turn_but_only_once_a_hand() {
    let mut game = table("standard", 3)
        .hand(0, "2C 3D 4H")
        .hand(1, "5C 6D 7H")
        .hand(2, "8C 9D TH")
        .build();
    knock(&mut game, 0);
    let err = game.play(seat(1), &ThirtyOneMove::Knock {}).unwrap_err();
    assert_eq!(err.to_string(), "seat 0 has already knocked this hand");
    assert!(!game.legal_moves(seat(1)).contains(&ThirtyOneMove::Knock {}));
}

#[test]
fn after_a_knock_every_other_player_has_exactly_one_more_turn_then_hands_are_shown() {
    let mut game = table("standard", 3)
        .hand(0, "KC QC 4H")
        .hand(1, "5C 6D 7H")
        .hand(2, "8C 9D TH")
        .acting(1)
        .dealer(0)
        .build();
    knock(&mut game, 1);
    assert_eq!(game.to_act(), Some(seat(2)));
    turn(&mut game, 2, Pile::Stock, "8C");
    assert_eq!(game.to_act(), Some(seat(0)));
    let events = turn(&mut game, 0, Pile::Stock, "4H");
    assert_eq!(game.status(), Status::HandOver);
    let shown = events
        .iter()
        .find_map(|e| match &e.event {
            Event::Game(ThirtyOneEvent::Showdown { hands, knocker, .. }) => {
                Some((hands.len(), *knocker))
            }
            _ => None,
        })
        .unwrap();
    assert_eq!(shown, (3, Some(seat(1))));
    // Every hand is now visible to everyone.
    assert_eq!(game.view(Viewer::Seat(seat(2))).shown.len(), 3);
}

// #thirty-one-standard 31.

#[test]
fn holding_31_at_the_deal_ends_the_hand_and_everyone_else_loses_a_life() {
    // Three players, seat 2 deals: seat 0 gets A♥ K♥ Q♥.
    let (game, events) = practice("standard", 3, "AH 2C 3C KH 4C 5C QH 6C 7C");
    assert_eq!(game.status(), Status::HandOver);
    assert_eq!(
        losses(&events),
        vec![(1, LifeLoss::ThirtyOne, -1), (2, LifeLoss::ThirtyOne, -1)]
    );
    assert_eq!(lives(&game), vec![3, 2, 2]);
}

#[test]
fn holding_31_after_a_discard_ends_the_hand_at_once() {
    let mut game = table("standard", 3)
        .hand(0, "AH KH 2C")
        .hand(1, "5C 6D 7H")
        .hand(2, "8C 9D TH")
        .discard("QH")
        .build();
    let events = turn(&mut game, 0, Pile::Discard, "2C");
    assert_eq!(game.status(), Status::HandOver);
    assert_eq!(
        losses(&events),
        vec![(1, LifeLoss::ThirtyOne, -1), (2, LifeLoss::ThirtyOne, -1)]
    );
}

#[test]
fn a_31_during_the_final_turns_costs_the_knocker_too() {
    let mut game = table("standard", 2)
        .hand(0, "KC QC JC")
        .hand(1, "AH KH 2C")
        .discard("QH")
        .build();
    knock(&mut game, 0);
    let events = turn(&mut game, 1, Pile::Discard, "2C");
    assert_eq!(losses(&events), vec![(0, LifeLoss::ThirtyOne, -1)]);
}

// #thirty-one-standard Showdown.

fn showdown(hands: [&str; 3], knocker: u8) -> (ThirtyOne, Events) {
    // The knocker knocks; the others draw the stock's 2♠ 3♠ and throw them back.
    let mut game = table("standard", 3)
        .hand(0, hands[0])
        .hand(1, hands[1])
        .hand(2, hands[2])
        .stock("2S 3S")
        .discard("4S")
        .acting(knocker)
        .dealer((knocker + 2) % 3)
        .build();
    knock(&mut game, knocker);
    let mut events = Vec::new();
    for i in 1..3 {
        let s = (knocker + i) % 3;
        let drawn = if i == 1 { "2S" } else { "3S" };
        events = turn(&mut game, s, Pile::Stock, drawn);
    }
    (game, events)
}

#[test]
fn the_lowest_hand_loses_one_life() {
    let (game, events) = showdown(["KC QC 4H", "5C 6D 7H", "8C 9C TH"], 0);
    assert_eq!(losses(&events), vec![(1, LifeLoss::LowestHand, -1)]);
    assert_eq!(lives(&game), vec![3, 2, 3]);
}

#[test]
fn everyone_tied_for_lowest_loses_one() {
    let (_, events) = showdown(["KC QC 4H", "5C 4D 7H", "7D 2C 3H"], 0);
    assert_eq!(
        losses(&events),
        vec![(1, LifeLoss::LowestHand, -1), (2, LifeLoss::LowestHand, -1)]
    );
}

#[test]
fn the_knocker_is_safe_in_a_tie_for_lowest() {
    let (_, events) = showdown(["7C 2D 3H", "7D 2H 5S", "KC QC 4H"], 0);
    assert_eq!(losses(&events), vec![(1, LifeLoss::LowestHand, -1)]);
}

#[test]
fn a_knocker_alone_lowest_loses_two() {
    let (game, events) = showdown(["5C 2D 3H", "KC QC 4H", "8C 9C TH"], 0);
    assert_eq!(losses(&events), vec![(0, LifeLoss::KnockerAloneLowest, -2)]);
    assert_eq!(lives(&game), vec![1, 3, 3]);
}

// #thirty-one-standard Lives and the bus.

#[test]
fn with_no_life_left_a_player_rides_the_bus_and_is_out_at_the_next_loss() {
    let (game, events) = {
        let mut game = table("standard", 3)
            .hand(0, "KC QC 4H")
            .hand(1, "5C 6D 7H")
            .hand(2, "8C 9C TH")
            .stock("2S 3S")
            .discard("4S")
            .lives(&[3, 0, 2])
            .build();
        knock(&mut game, 0);
        turn(&mut game, 1, Pile::Stock, "2S");
        let events = turn(&mut game, 2, Pile::Stock, "3S");
        (game, events)
    };
    assert_eq!(lives(&game), vec![3, -1, 2]);
    assert!(
        events
            .iter()
            .any(|e| e.event == Event::Game(ThirtyOneEvent::PlayerOut { seat: seat(1) }))
    );
    assert_eq!(game.status(), Status::HandOver);
    let view = game.view(Viewer::Spectator);
    assert!(view.players[1].out && !view.players[0].out);
}

#[test]
fn the_last_player_in_wins() {
    let mut game = table("standard", 2)
        .hand(0, "KC QC 4H")
        .hand(1, "5C 6D 7H")
        .stock("3S")
        .lives(&[1, 0])
        .build();
    knock(&mut game, 0);
    turn(&mut game, 1, Pile::Stock, "3S");
    assert_eq!(game.status(), Status::Finished);
    let outcome = game.table().outcome().unwrap();
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.reason, EndReason::LastStanding);
}

// #thirty-one-standard Empty stock.

#[test]
fn an_empty_stock_is_refilled_once_from_the_discard_pile_keeping_its_top() {
    let mut game = table("standard", 2)
        .hand(0, "2C 3D 4H")
        .hand(1, "5C 6D 7H")
        .discard("KS")
        .build_with_stock_of(1);
    turn(&mut game, 0, Pile::Stock, "2C");
    // The stock ran out: everything but the top (2♣) became the new stock.
    let view = game.view(Viewer::Seat(seat(1)));
    assert!(view.reshuffled);
    assert_eq!(view.discards, vec![card("2C")]);
    assert_eq!(usize::from(view.stock), 52 - 6 - 1);
}

#[test]
fn when_the_refilled_stock_runs_out_too_the_hand_is_a_draw() {
    let mut game = table("standard", 2)
        .hand(0, "2C 3D 4H")
        .hand(1, "5C 6D 7H")
        .discard("KS")
        .reshuffled()
        .build_with_stock_of(1);
    let events = turn(&mut game, 0, Pile::Stock, "2C");
    assert!(
        events
            .iter()
            .any(|e| e.event == Event::Game(ThirtyOneEvent::StockExhausted))
    );
    assert_eq!(game.status(), Status::HandOver);
    assert_eq!(lives(&game), vec![3, 3]);
    game.deal_next().unwrap();
    assert_eq!(game.table().dealer(), seat(0), "the next dealer deals");
}

// #thirty-one-standard option: 30½.

#[test]
fn as_a_house_rule_three_of_a_kind_beats_thirty() {
    let mut game = table_with("standard", 2, r#"{"three_of_a_kind": true}"#)
        .hand(0, "7C 7D 7H")
        .hand(1, "KS QS JS")
        .stock("3S")
        .build();
    knock(&mut game, 0);
    let events = turn(&mut game, 1, Pile::Stock, "3S");
    assert_eq!(losses(&events), vec![(1, LifeLoss::LowestHand, -1)]);
}

// #thirty-one-classic classic.

#[test]
fn classic_seat_1_always_deals_and_seat_0_always_starts() {
    for b in 0..8u8 {
        let (game, _) = ThirtyOne::start(
            config("classic", 2, "{}"),
            &Setup::seeded(Seed::from_bytes([b; 32])),
        )
        .unwrap();
        assert_eq!(game.table().dealer(), seat(1));
        if game.status() == Status::Active {
            assert_eq!(game.to_act(), Some(seat(0)));
        }
    }
    let mut game = table("classic", 2)
        .hand(0, "KC QC 4H")
        .hand(1, "5C 6D 7H")
        .stock("3S")
        .build();
    knock(&mut game, 0);
    turn(&mut game, 1, Pile::Stock, "3S");
    game.deal_next().unwrap();
    assert_eq!(game.table().dealer(), seat(1));
}

#[test]
fn classic_the_lower_hand_loses_one_token_and_the_knocker_never_more() {
    let mut game = table("classic", 2)
        .hand(0, "5C 2D 3H")
        .hand(1, "KC QC 4H")
        .stock("3S")
        .build();
    knock(&mut game, 0);
    let events = turn(&mut game, 1, Pile::Stock, "3S");
    assert_eq!(losses(&events), vec![(0, LifeLoss::LowestHand, -1)]);
}

#[test]
fn classic_a_tie_costs_nobody_anything() {
    let mut game = table("classic", 2)
        .hand(0, "KC QC 4H")
        .hand(1, "KD QD 4S")
        .stock("3S")
        .build();
    knock(&mut game, 0);
    let events = turn(&mut game, 1, Pile::Stock, "3S");
    assert_eq!(losses(&events), vec![]);
}

#[test]
fn classic_if_both_hold_31_nobody_loses() {
    // Seat 1 deals: seat 0 gets AH KH QH, seat 1 AS KS QS.
    let (game, events) = practice("classic", 2, "AH AS KH KS QH QS");
    assert_eq!(game.status(), Status::HandOver);
    assert_eq!(losses(&events), vec![]);
}

#[test]
fn classic_three_tokens_then_the_last_chance_token() {
    let mut game = table("classic", 2)
        .hand(0, "5C 2D 3H")
        .hand(1, "KC QC 4H")
        .stock("3S")
        .lives(&[0, 3])
        .build();
    knock(&mut game, 0);
    turn(&mut game, 1, Pile::Stock, "3S");
    assert_eq!(game.status(), Status::Finished);
    assert_eq!(game.table().outcome().unwrap().winners, vec![1]);
}

// Hostile input.

#[test]
fn moves_with_unknown_fields_or_values_do_not_parse() {
    for good in [
        r#"{"type":"knock"}"#,
        r#"{"type":"draw","from":"stock"}"#,
        r#"{"type":"draw","from":"discard"}"#,
        r#"{"type":"discard","card":"10h"}"#,
    ] {
        assert!(
            serde_json::from_str::<ThirtyOneMove>(good).is_ok(),
            "{good}"
        );
    }
    for bad in [
        r#"{"type":"knock","extra":1}"#,
        r#"{"type":"draw","from":"sky"}"#,
        r#"{"type":"draw"}"#,
        r#"{"type":"discard"}"#,
        r#"{"type":"discard","card":"1X"}"#,
        r#"{"type":"pass"}"#,
        r#""knock""#,
    ] {
        assert!(serde_json::from_str::<ThirtyOneMove>(bad).is_err(), "{bad}");
    }
    assert_eq!(
        serde_json::to_string(&ThirtyOneMove::Knock {}).unwrap(),
        r#"{"type":"knock"}"#
    );
}

// The move cap.

#[test]
fn the_move_cap_ends_an_endless_game_with_no_winner() {
    let (mut game, _) = ThirtyOne::start(
        config("standard", 2, r#"{"move_cap": 100}"#),
        &Setup::seeded(Seed::from_bytes([4; 32])),
    )
    .unwrap();
    // Nobody ever knocks: draw and throw the drawn card back, deal after draws.
    let mut moves = 0;
    while game.status() != Status::Finished {
        match game.to_act() {
            None => {
                game.deal_next().unwrap();
            }
            Some(s) => {
                let mv = game
                    .legal_moves(s)
                    .into_iter()
                    .find(|m| !matches!(m, ThirtyOneMove::Knock {}))
                    .unwrap();
                game.play(s, &mv).unwrap();
                moves += 1;
            }
        }
    }
    assert_eq!(moves, 100);
    assert_eq!(game.table().outcome().unwrap().reason, EndReason::MoveCap);
}
