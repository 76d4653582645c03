//! §1.1 `standard`: the end of a deal, its scoring, the end of the game; §5 resigning; a
//! practice deck of several decks' worth.

use super::helpers::{
    Events, card, config, majority_points, play, practice, score_lines, seat, set, table,
    table_with,
};
use cardroom_core::game::{Event, Game, MoveError, Resignation};
use cardroom_core::games::basra::{Basra, BasraEvent, BasraMove};
use cardroom_core::table::{EndReason, ScoreItem, Setup, Status, TableEvent};
use cardroom_core::{Deck, Seed, Viewer};

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
pub(crate) fn last_play_scores(variant: &str, options: &str, pile0: &str, carried: i32) -> Events {
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

pub(crate) const TWENTY_FOUR_PLAIN: &str =
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

pub(crate) fn twenty_three_plain() -> String {
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
pub(crate) fn cards_avoiding(n: usize, avoid: &str) -> String {
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
pub(crate) fn three_way_majority(a: usize, b: usize, c: usize) -> Events {
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
