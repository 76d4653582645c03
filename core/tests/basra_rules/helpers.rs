//! Positions from compact card strings, and the other helpers every part uses.

use cardroom_core::game::{Event, Game};
use cardroom_core::games::basra::{Basra, BasraConfig, BasraEvent, BasraMove, BasraPosition};
use cardroom_core::table::{ScoreItem, Setup, TableEvent};
use cardroom_core::{Card, CardSet, Options, Seat, Seed, parse_cards};

pub fn card(code: &str) -> Card {
    code.parse().unwrap()
}

pub fn set(codes: &str) -> CardSet {
    parse_cards(codes).unwrap().into_iter().collect()
}

pub fn seat(n: u8) -> Seat {
    Seat::new(n)
}

pub fn config(variant: &str, seats: usize, options: &str) -> BasraConfig {
    let options: Options = serde_json::from_str(options).unwrap();
    BasraConfig::new(Some(variant), seats, &options).unwrap()
}

/// A position builder: hands, floor, stock and piles by card strings; every card not placed goes
/// to the pile of `rest_to`.
pub(crate) struct Table {
    config: BasraConfig,
    position: BasraPosition,
    rest_to: usize,
}

pub fn table(variant: &str) -> Table {
    table_with(variant, 2, "{}")
}

pub fn table_with(variant: &str, seats: usize, options: &str) -> Table {
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
    pub fn hand(mut self, s: u8, codes: &str) -> Table {
        self.position.hands[usize::from(s)] = set(codes);
        self
    }
    pub fn floor(mut self, codes: &str) -> Table {
        self.position.floor = set(codes);
        self
    }
    pub fn stock(mut self, codes: &str) -> Table {
        self.position.stock = parse_cards(codes).unwrap();
        self
    }
    pub fn pile(mut self, side: usize, codes: &str) -> Table {
        self.position.piles[side] = set(codes);
        self
    }
    pub fn rest_to(mut self, side: usize) -> Table {
        self.rest_to = side;
        self
    }
    pub fn dealer(mut self, s: u8) -> Table {
        self.position.dealer = seat(s);
        self
    }
    pub fn last_capture(mut self, s: u8) -> Table {
        self.position.last_capture = Some(seat(s));
        self
    }
    pub fn totals(mut self, totals: &[i32]) -> Table {
        self.position.totals = totals.to_vec();
        self
    }
    pub fn carried(mut self, points: i32) -> Table {
        self.position.carried = points;
        self
    }
    pub fn build(mut self) -> Basra {
        let p = &self.position;
        let placed = p.hands.iter().chain(&p.piles).fold(p.floor, |a, b| a | *b)
            | p.stock.iter().collect::<CardSet>();
        let rest = self.config.deck().cards() - placed;
        self.position.piles[self.rest_to] |= rest;
        Basra::from_position(self.config, self.position, Seed::from_bytes([7; 32])).unwrap()
    }
}

pub(crate) type Events = cardroom_core::Events<BasraEvent>;

pub fn play(game: &mut Basra, s: u8, code: &str) -> Events {
    game.play(
        seat(s),
        &BasraMove::Play {
            card: card(code),
            capture: None,
        },
    )
    .unwrap()
}

pub fn play_taking(game: &mut Basra, s: u8, code: &str, capture: &str) -> Result<Events, String> {
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
pub fn played(events: &Events) -> (CardSet, Option<i32>) {
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

pub fn captured(events: &Events) -> CardSet {
    played(events).0
}

pub fn basra(events: &Events) -> Option<i32> {
    played(events).1
}

/// The score lines of the hand scored in `events`, as (side, item, points).
pub fn score_lines(events: &Events) -> Vec<(u8, ScoreItem, i32)> {
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

pub fn majority_points(events: &Events) -> Vec<(u8, i32)> {
    score_lines(events)
        .into_iter()
        .filter(|(_, item, _)| matches!(item, ScoreItem::Majority { .. }))
        .map(|(side, _, points)| (side, points))
        .collect()
}

pub fn practice(variant: &str, seats: usize, top: &str) -> Basra {
    practice_with(variant, seats, "{}", top)
}

/// A game from a practice deck: `top` first, then the rest of the deck in canonical order.
pub fn practice_with(variant: &str, seats: usize, options: &str, top: &str) -> Basra {
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

pub fn stock_of(game: &Basra) -> CardSet {
    game.zones()
        .into_iter()
        .find(|z| z.name == "stock")
        .unwrap()
        .cards
        .into_iter()
        .collect()
}
