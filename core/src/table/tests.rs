//! The table's bookkeeping: seats, deals and their seeds, hands, totals and the end.

use super::*;
use crate::card::parse_cards;

fn spec() -> TableSpec {
    TableSpec {
        seats: 2,
        sides: Sides::individual(2),
        deck: Deck::Standard52,
        move_cap: 100,
        first_dealer: FirstDealer::Drawn,
        initial_total: 0,
    }
}

#[test]
fn a_practice_deck_must_be_whole_decks_of_the_games_cards() {
    let seed = Seed::from_bytes([1; 32]);
    let mut deck = Deck::Standard52.canonical_order();
    assert!(Table::new(spec(), &Setup::with_deck(seed, deck.clone())).is_ok());
    deck.pop();
    let err = Table::new(spec(), &Setup::with_deck(seed, deck.clone())).unwrap_err();
    assert!(err.to_string().contains("it lists 51 cards"), "{err}");
    deck.push(deck[0]);
    let err = Table::new(spec(), &Setup::with_deck(seed, deck)).unwrap_err();
    assert!(err.to_string().contains("lists AC twice"), "{err}");

    let mut short = spec();
    short.deck = Deck::NoCourts44;
    let mut order = Deck::NoCourts44.canonical_order();
    order[0] = parse_cards("KS").unwrap()[0];
    let err = Table::new(short, &Setup::with_deck(seed, order)).unwrap_err();
    assert!(err.to_string().contains("KS, which is not"), "{err}");
}

#[test]
fn the_first_dealer_of_a_practice_deck_is_the_last_seat() {
    let seed = Seed::from_bytes([1; 32]);
    let mut four = spec();
    four.seats = 4;
    four.sides = Sides::individual(4);
    let table = Table::new(
        four,
        &Setup::with_deck(seed, Deck::Standard52.canonical_order()),
    )
    .unwrap();
    assert_eq!(table.dealer(), Seat::new(3));
}

#[test]
fn the_first_dealer_is_drawn_from_the_seed_and_every_seat_can_deal() {
    let mut dealers = std::collections::BTreeSet::new();
    for b in 0..64u8 {
        let table = Table::new(spec(), &Setup::seeded(Seed::from_bytes([b; 32]))).unwrap();
        let again = Table::new(spec(), &Setup::seeded(Seed::from_bytes([b; 32]))).unwrap();
        assert_eq!(table.dealer(), again.dealer());
        dealers.insert(table.dealer());
    }
    assert_eq!(dealers.len(), 2);
}

#[test]
fn seeds_are_revealed_only_after_their_hand() {
    let mut table = Table::new(spec(), &Setup::seeded(Seed::from_bytes([3; 32]))).unwrap();
    assert_eq!(table.commitment(0), None);
    table.next_deck();
    table.begin_hand(Seat::new(0));
    assert!(table.commitment(0).is_some());
    assert_eq!(table.revealed_seed(0), None);
    table.end_hand(Vec::new(), 0);
    let seed = table.revealed_seed(0).unwrap();
    assert_eq!(Some(seed.commitment()), table.commitment(0));
    table.next_deck();
    table.begin_hand(Seat::new(1));
    assert!(table.revealed_seed(0).is_some());
    assert_eq!(table.revealed_seed(1), None);
}

#[test]
fn a_replay_deals_from_the_revealed_seeds_and_its_first_dealer() {
    let seed = Seed::from_bytes([3; 32]);
    let mut real = Table::new(spec(), &Setup::seeded(seed)).unwrap();
    let decks: Vec<Vec<Card>> = (0..2).map(|_| real.next_deck().0).collect();
    let replay = Replay {
        first_dealer: Seat::new(1),
        deal_seeds: (0..2).map(|i| real.deal_seed(i)).collect(),
    };
    let mut again = Table::new(
        spec(),
        &Setup {
            seed: Seed::from_bytes([0; 32]),
            deck: None,
            replay: Some(replay),
        },
    )
    .unwrap();
    assert_eq!(again.dealer(), Seat::new(1));
    for deck in &decks {
        assert_eq!(&again.next_deck().0, deck);
    }
    assert_eq!(again.commitment(1), real.commitment(1));
    // Past the revealed seeds, the replay falls back to its own seed.
    assert_ne!(again.next_deck().0, real.next_deck().0);
}

#[test]
fn end_reasons_are_named_as_serialised() {
    for reason in [
        EndReason::Target,
        EndReason::FinalHand,
        EndReason::LastStanding,
        EndReason::Resignation { seat: Seat::new(1) },
        EndReason::MoveCap,
    ] {
        let json = serde_json::to_value(reason).unwrap();
        assert_eq!(json["reason"], reason.name());
    }
}

#[test]
fn score_lines_serialise_flat() {
    let line = ScoreLine {
        side: 1,
        points: 10,
        item: ScoreItem::Basra {
            card: "5C".parse().unwrap(),
        },
    };
    let json = serde_json::to_string(&line).unwrap();
    assert_eq!(json, r#"{"side":1,"points":10,"item":"basra","card":"5C"}"#);
    assert_eq!(serde_json::from_str::<ScoreLine>(&json).unwrap(), line);
}
