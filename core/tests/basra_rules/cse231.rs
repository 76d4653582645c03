//! §1.3 `cse231`.

use super::helpers::{
    Events, basra, captured, card, config, majority_points, play, practice, score_lines, seat, set,
    table,
};
use super::standard_scoring::{TWENTY_FOUR_PLAIN, cards_avoiding};
use cardroom_core::game::{Event, Game};
use cardroom_core::games::basra::{Basra, BasraEvent};
use cardroom_core::table::{EndReason, ScoreItem, Setup, Status};
use cardroom_core::{CardSet, Seed, Viewer};

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
pub(crate) fn cse231_last_basra(pile0: &str) -> Events {
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
