//! docs/rules.md#tarneeb, sentence by sentence: Tarneeb `standard` (#tarneeb-standard) and `classic` (#tarneeb-classic).
#![allow(clippy::unwrap_used, reason = "tests")]

use cardroom_core::game::{Event, Game, MoveError};
use cardroom_core::games::tarneeb::auction::{Bid, Contract, Denomination};
use cardroom_core::games::tarneeb::{
    Tarneeb, TarneebConfig, TarneebEvent, TarneebMove, TarneebPosition, TarneebRejection,
};
use cardroom_core::table::{EndReason, ScoreItem, Setup, Status, TableEvent};
use cardroom_core::{Card, CardSet, Deck, Options, Seat, Seed, Suit, Viewer, parse_cards};

fn card(code: &str) -> Card {
    code.parse().unwrap()
}

fn set(codes: &str) -> CardSet {
    parse_cards(codes).unwrap().into_iter().collect()
}

fn seat(n: u8) -> Seat {
    Seat::new(n)
}

fn config(variant: &str) -> TarneebConfig {
    TarneebConfig::new(Some(variant), 4, &Options::new()).unwrap()
}

type Events = cardroom_core::Events<TarneebEvent>;

/// Each seat holds one whole suit: seat 0 clubs, 1 diamonds, 2 hearts, 3 spades (unless given).
fn suits() -> Vec<CardSet> {
    Suit::ALL.iter().map(|&s| CardSet::suit(s)).collect()
}

fn auction(variant: &str, dealer: u8) -> Tarneeb {
    let position = TarneebPosition {
        dealer: seat(dealer),
        hands: suits(),
        ..TarneebPosition::default()
    };
    Tarneeb::from_position(config(variant), position, Seed::from_bytes([1; 32])).unwrap()
}

fn playing(
    variant: &str,
    hands: Vec<CardSet>,
    declarer: u8,
    tricks: u8,
    trump: Option<Suit>,
) -> Tarneeb {
    let suit = match variant {
        "classic" => Some(
            trump
                .map(Denomination::Trump)
                .unwrap_or(Denomination::NoTrump),
        ),
        _ => None,
    };
    let position = TarneebPosition {
        dealer: seat((declarer + 3) % 4),
        hands,
        contract: Some(Contract {
            declarer: seat(declarer),
            bid: Bid { tricks, suit },
        }),
        trump,
        ..TarneebPosition::default()
    };
    Tarneeb::from_position(config(variant), position, Seed::from_bytes([1; 32])).unwrap()
}

fn act(game: &mut Tarneeb, s: u8, mv: TarneebMove) -> Events {
    match game.play(seat(s), &mv) {
        Ok(events) => events,
        Err(e) => panic!("{mv:?} refused: {e}"),
    }
}

fn bid(tricks: u8) -> TarneebMove {
    TarneebMove::Bid { tricks, suit: None }
}

fn bid_in(tricks: u8, suit: &str) -> TarneebMove {
    TarneebMove::Bid {
        tricks,
        suit: Some(serde_json::from_str(&format!("\"{suit}\"")).unwrap()),
    }
}

fn pass() -> TarneebMove {
    TarneebMove::Pass {}
}

fn play(code: &str) -> TarneebMove {
    TarneebMove::Play { card: card(code) }
}

fn refused(game: &Tarneeb, s: u8, mv: TarneebMove) -> String {
    let mut copy = game.clone();
    let err = copy.play(seat(s), &mv).unwrap_err();
    assert_eq!(&copy, game);
    err.to_string()
}

fn phase(game: &Tarneeb) -> String {
    game.view(Viewer::Spectator).phase.to_string()
}

// ---------------------------------------------------------------------------------------------
// #tarneeb The deal.

#[test]
fn thirteen_cards_each_dealt_from_the_seat_after_the_dealer() {
    let deck = Deck::Standard52.canonical_order();
    let setup = Setup::with_deck(Seed::from_bytes([5; 32]), deck.clone());
    let (game, _) = Tarneeb::start(config("standard"), &setup).unwrap();
    // A practice deck makes seat 3 the dealer: seat 0 receives the first card.
    assert_eq!(game.table().dealer(), seat(3));
    for s in 0..4u8 {
        let expected: CardSet = deck
            .iter()
            .skip(usize::from(s))
            .step_by(4)
            .copied()
            .collect();
        assert_eq!(game.hand(seat(s)), expected);
    }
}

#[test]
fn the_first_dealer_is_drawn_and_the_deal_passes_on() {
    let mut dealers = std::collections::BTreeSet::new();
    for b in 0..40u8 {
        let (game, _) = Tarneeb::start(
            config("standard"),
            &Setup::seeded(Seed::from_bytes([b; 32])),
        )
        .unwrap();
        dealers.insert(game.table().dealer());
    }
    assert_eq!(dealers.len(), 4);
}

// #tarneeb-standard standard auction.

#[test]
fn standard_bidding_starts_after_the_dealer_with_7_to_13_each_higher() {
    let mut game = auction("standard", 3);
    assert_eq!(game.to_act(), Some(seat(0)));
    assert_eq!(refused(&game, 0, bid(6)), "a bid is 7 to 13 tricks, not 6");
    assert_eq!(
        refused(&game, 0, bid(14)),
        "a bid is 7 to 13 tricks, not 14"
    );
    assert_eq!(
        refused(&game, 0, bid_in(7, "H")),
        "a standard bid is a number of tricks; the trump is named after the auction"
    );
    act(&mut game, 0, bid(8));
    assert_eq!(
        refused(&game, 1, bid(8)),
        "a bid of 8 does not beat the bid of 8"
    );
    act(&mut game, 1, bid(9));
    // Overcalling a partner is allowed.
    act(&mut game, 2, bid(10));
    assert_eq!(
        game.view(Viewer::Spectator).contract.unwrap().bid.tricks,
        10
    );
}

#[test]
fn a_pass_is_final_and_the_auction_ends_when_the_three_others_have_passed() {
    let mut game = auction("standard", 3);
    act(&mut game, 0, bid(7));
    act(&mut game, 1, pass());
    act(&mut game, 2, bid(8));
    act(&mut game, 3, pass());
    // Seat 1 passed: it is skipped; seat 0 may still bid.
    assert_eq!(game.to_act(), Some(seat(0)));
    act(&mut game, 0, pass());
    assert_eq!(phase(&game), "trump");
    assert_eq!(game.to_act(), Some(seat(2)));
}

#[test]
fn a_bid_of_13_ends_the_auction_at_once() {
    let mut game = auction("standard", 3);
    act(&mut game, 0, bid(13));
    assert_eq!(phase(&game), "trump");
    assert_eq!(game.to_act(), Some(seat(0)));
}

#[test]
fn if_all_four_pass_the_same_dealer_deals_again() {
    let mut game = auction("standard", 3);
    let before = game.hand(seat(0));
    act(&mut game, 0, pass());
    act(&mut game, 1, pass());
    act(&mut game, 2, pass());
    let events = act(&mut game, 3, pass());
    assert!(
        events
            .iter()
            .any(|e| e.event == Event::Game(TarneebEvent::AllPassed))
    );
    assert_eq!(game.table().dealer(), seat(3));
    assert_eq!(game.table().hand_number(), 1);
    assert_ne!(game.hand(seat(0)), before);
    assert_eq!(phase(&game), "bidding");
    assert_eq!(game.to_act(), Some(seat(0)));
    // The first deal's seed is revealed now that it is done with.
    assert!(game.table().revealed_seed(0).is_some());
}

#[test]
fn the_highest_bidder_names_any_suit_as_trump_and_leads() {
    let mut game = auction("standard", 3);
    act(&mut game, 0, bid(7));
    act(&mut game, 1, pass());
    act(&mut game, 2, pass());
    act(&mut game, 3, pass());
    assert_eq!(
        refused(&game, 0, play("AC")),
        "the declarer names the trump first"
    );
    act(&mut game, 0, TarneebMove::Trump { suit: Suit::Hearts });
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.trump, Some(Suit::Hearts));
    assert_eq!(view.leader, Some(seat(0)));
    assert_eq!(game.to_act(), Some(seat(0)));
}

// #tarneeb-classic classic auction.

#[test]
fn classic_the_dealer_bids_first_with_a_level_and_a_denomination() {
    let mut game = auction("classic", 2);
    assert_eq!(game.to_act(), Some(seat(2)));
    assert_eq!(
        refused(&game, 2, bid(7)),
        "a classic bid names a suit (C, D, H, S) or NT"
    );
    act(&mut game, 2, bid_in(7, "S"));
    assert_eq!(
        refused(&game, 3, bid_in(7, "H")),
        "a bid of 7 ♥ does not beat the bid of 7 ♠"
    );
    act(&mut game, 3, bid_in(7, "NT"));
    act(&mut game, 0, bid_in(8, "C"));
}

#[test]
fn classic_a_pass_is_not_final_and_three_passes_after_a_bid_end_it() {
    let mut game = auction("classic", 0);
    act(&mut game, 0, bid_in(7, "C"));
    act(&mut game, 1, pass());
    act(&mut game, 2, pass());
    act(&mut game, 3, bid_in(7, "D"));
    act(&mut game, 0, pass());
    // Seat 1 passed before and bids now.
    act(&mut game, 1, bid_in(8, "H"));
    act(&mut game, 2, pass());
    act(&mut game, 3, pass());
    let events = act(&mut game, 0, pass());
    assert!(
        events
            .iter()
            .any(|e| matches!(e.event, Event::Game(TarneebEvent::Contracted { .. })))
    );
    let view = game.view(Viewer::Spectator);
    assert_eq!(view.phase.to_string(), "play");
    assert_eq!(view.trump, Some(Suit::Hearts));
    assert_eq!(game.to_act(), Some(seat(1)));
}

#[test]
fn classic_no_trump_means_no_trump_suit() {
    let mut game = auction("classic", 0);
    act(&mut game, 0, bid_in(7, "NT"));
    for s in [1, 2, 3] {
        act(&mut game, s, pass());
    }
    assert_eq!(game.view(Viewer::Spectator).trump, None);
    assert_eq!(phase(&game), "play");
}

#[test]
fn classic_four_passes_with_no_bid_redeal_by_the_same_dealer() {
    let mut game = auction("classic", 1);
    for s in [1, 2, 3, 0] {
        act(&mut game, s, pass());
    }
    assert_eq!(game.table().dealer(), seat(1));
    assert_eq!(game.to_act(), Some(seat(1)));
}

// #tarneeb-standard play.

#[test]
fn you_must_follow_suit_while_you_hold_one() {
    let hands = vec![
        set("AH 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"),
        set("KH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"),
        set("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH AD AC"),
        CardSet::suit(Suit::Spades),
    ];
    let mut game = playing("standard", hands, 0, 7, Some(Suit::Spades));
    act(&mut game, 0, play("AH"));
    assert_eq!(
        refused(&game, 1, play("2D")),
        "you must follow hearts while you hold one"
    );
    let err = game.validate(seat(1), &play("2D")).unwrap_err();
    assert_eq!(
        err,
        MoveError::Illegal(TarneebRejection::MustFollow(Suit::Hearts))
    );
    assert_eq!(game.legal_moves(seat(1)), vec![play("KH")]);
    act(&mut game, 1, play("KH"));
    act(&mut game, 2, play("2H"));
    // Seat 3 holds no heart: any card, trumping is not compulsory.
    assert_eq!(game.legal_moves(seat(3)).len(), 13);
    let events = act(&mut game, 3, play("2S"));
    assert!(events.iter().any(|e| matches!(e.event, Event::Game(TarneebEvent::TrickWon { winner, .. }) if winner == seat(3))));
    assert_eq!(
        game.to_act(),
        Some(seat(3)),
        "the winner leads the next trick"
    );
    assert_eq!(
        game.view(Viewer::Spectator).shown_out[3],
        vec![Suit::Hearts]
    );
}

#[test]
fn without_a_trump_in_the_trick_the_highest_card_of_the_suit_led_wins() {
    let hands = vec![
        set("5H 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"),
        set("KH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"),
        set("2H 3H 4H AH 6H 7H 8H 9H TH JH QH AD AC"),
        CardSet::suit(Suit::Spades),
    ];
    let mut game = playing("standard", hands, 0, 7, Some(Suit::Clubs));
    act(&mut game, 0, play("5H"));
    act(&mut game, 1, play("KH"));
    act(&mut game, 2, play("AH"));
    // An ace of spades, off suit and not trump, cannot win.
    act(&mut game, 3, play("AS"));
    assert_eq!(game.to_act(), Some(seat(2)));
    assert_eq!(game.view(Viewer::Spectator).tricks_won, vec![1, 0]);
}

/// Plays a whole hand with each seat playing its first legal card; returns the final events.
fn play_out(game: &mut Tarneeb) -> Events {
    let mut events = Vec::new();
    while game.status() == Status::Active {
        let s = game.to_act().unwrap();
        let mv = game.legal_moves(s)[0];
        events = game.play(s, &mv).unwrap();
    }
    events
}

fn scored(events: &Events) -> Vec<(u8, i32, bool, u8)> {
    events
        .iter()
        .find_map(|e| match &e.event {
            Event::Table(TableEvent::HandScored { lines, .. }) => Some(
                lines
                    .iter()
                    .map(|l| match l.item {
                        ScoreItem::Contract { made, tricks, .. } => {
                            (l.side, l.points, made, tricks)
                        }
                        _ => panic!("{l:?}"),
                    })
                    .collect(),
            ),
            _ => None,
        })
        .unwrap()
}

#[test]
fn all_thirteen_tricks_are_played_and_the_contract_scored() {
    // Each seat holds one suit and clubs are trumps: seat 0 (clubs) wins every trick it leads…
    // and leads them all: the declarers (0+2) take 13.
    let mut game = playing("standard", suits(), 0, 9, Some(Suit::Clubs));
    let events = play_out(&mut game);
    assert_eq!(game.view(Viewer::Spectator).tricks_won, vec![13, 0]);
    assert_eq!(scored(&events), vec![(0, 16, true, 13), (1, 0, true, 13)]);
}

#[test]
fn a_failed_contract_costs_the_bid_and_pays_the_defenders_their_tricks() {
    // Seat 1 (all the diamonds) declares 8 with clubs as trump: seat 0, a defender holding every
    // club, trumps the first trick and then leads clubs to the end.
    let mut game = playing("standard", suits(), 1, 8, Some(Suit::Clubs));
    let events = play_out(&mut game);
    assert_eq!(game.view(Viewer::Spectator).tricks_won, vec![13, 0]);
    assert_eq!(scored(&events), vec![(1, -8, false, 0), (0, 13, false, 0)]);
}

#[test]
fn the_first_team_to_41_wins_and_scores_may_be_negative() {
    let position = TarneebPosition {
        dealer: seat(3),
        hands: suits(),
        contract: Some(Contract {
            declarer: seat(0),
            bid: Bid {
                tricks: 13,
                suit: None,
            },
        }),
        trump: Some(Suit::Clubs),
        totals: vec![20, -5],
    };
    let mut game =
        Tarneeb::from_position(config("standard"), position, Seed::from_bytes([1; 32])).unwrap();
    play_out(&mut game);
    assert_eq!(game.table().totals(), &[46, -5]);
    assert_eq!(game.status(), Status::Finished);
    let outcome = game.table().outcome().unwrap();
    assert_eq!(
        (outcome.winners.clone(), outcome.reason),
        (vec![0], EndReason::Target)
    );
}

#[test]
fn an_exact_tie_above_the_target_plays_another_hand() {
    let position = TarneebPosition {
        dealer: seat(3),
        hands: suits(),
        contract: Some(Contract {
            declarer: seat(0),
            bid: Bid {
                tricks: 7,
                suit: None,
            },
        }),
        trump: Some(Suit::Clubs),
        totals: vec![25, 41],
    };
    let mut game =
        Tarneeb::from_position(config("standard"), position, Seed::from_bytes([1; 32])).unwrap();
    play_out(&mut game);
    assert_eq!(game.table().totals(), &[41, 41]);
    assert_eq!(game.status(), Status::HandOver);
    game.deal_next().unwrap();
    assert_eq!(game.table().dealer(), seat(0));
}

#[test]
fn classic_scores_its_own_table_and_plays_to_61() {
    let position = TarneebPosition {
        dealer: seat(0),
        hands: suits(),
        contract: Some(Contract {
            declarer: seat(1),
            bid: Bid {
                tricks: 13,
                suit: Some(Denomination::Trump(Suit::Diamonds)),
            },
        }),
        trump: Some(Suit::Diamonds),
        totals: vec![40, 0],
    };
    let mut game =
        Tarneeb::from_position(config("classic"), position, Seed::from_bytes([1; 32])).unwrap();
    let events = play_out(&mut game);
    // Diamonds are trumps and seat 1 holds them all: 13 tricks, bid 13 made.
    assert_eq!(scored(&events), vec![(1, 26, true, 13), (0, 0, true, 13)]);
    assert_eq!(game.status(), Status::HandOver, "26 is short of 61");
}

#[test]
fn moves_with_unknown_fields_or_values_do_not_parse() {
    for good in [
        r#"{"type":"bid","tricks":8}"#,
        r#"{"type":"bid","tricks":8,"suit":"H"}"#,
        r#"{"type":"bid","tricks":7,"suit":"nt"}"#,
        r#"{"type":"pass"}"#,
        r#"{"type":"trump","suit":"S"}"#,
        r#"{"type":"play","card":"QS"}"#,
    ] {
        assert!(serde_json::from_str::<TarneebMove>(good).is_ok(), "{good}");
    }
    for bad in [
        r#"{"type":"bid","tricks":-1}"#,
        r#"{"type":"bid","tricks":300}"#,
        r#"{"type":"bid","tricks":8,"suit":"X"}"#,
        r#"{"type":"pass","now":1}"#,
        r#"{"type":"trump","suit":"NT"}"#,
        r#"{"type":"play","card":"QQ"}"#,
        r#"{"type":"double"}"#,
    ] {
        assert!(serde_json::from_str::<TarneebMove>(bad).is_err(), "{bad}");
    }
}
