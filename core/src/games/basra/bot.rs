//! Basra's computer players. They see only a [`BasraView`].

use crate::bots::ComputerPlayer;
use crate::card::{Card, Rank};
use crate::cardset::CardSet;
use crate::level::BotLevel;
use crate::rng::{CardRng, Seed};
use crate::search::{self, Determinize};
use crate::seat::Seat;

use super::capture::POINT_CARDS;
use super::moves::BasraMove;
use super::rules;
use super::state::{Basra, BasraPosition};
use super::view::BasraView;

/// Sampled deals per decision for `medium`.
pub const MEDIUM_SAMPLES: usize = 10;
/// Sampled deals per decision for `hard`.
pub const HARD_SAMPLES: usize = 40;

impl ComputerPlayer for Basra {
    fn bot_move(view: &BasraView, level: BotLevel, rng: &mut CardRng) -> Option<BasraMove> {
        choose(view, level, rng)
    }
}

/// A computer player's move.
pub fn choose(view: &BasraView, level: BotLevel, rng: &mut CardRng) -> Option<BasraMove> {
    match level {
        BotLevel::Random => rng.choose(&view.legal_moves).cloned(),
        BotLevel::Medium => search::best_move::<Basra>(view, MEDIUM_SAMPLES, rng),
        BotLevel::Hard => search::best_move::<Basra>(view, HARD_SAMPLES, rng),
        // `easy` is the original heuristic; so are the names Basra does not list.
        BotLevel::Easy | BotLevel::Greedy | BotLevel::Strong | BotLevel::Level(_) => greedy(view),
    }
}

impl Determinize for Basra {
    /// The unseen cards dealt at random to the other hands and the stock (in Basra nothing
    /// public says where a card is: captures are face up, and hands are only counted).
    fn determinize(view: &BasraView, seed: Seed, rng: &mut CardRng) -> Option<Basra> {
        let me = view.seat?;
        let to_act = view.to_act?;
        let mut hidden = view.unseen().to_vec();
        rng.shuffle(&mut hidden);
        let mut pool = hidden.into_iter();
        let hands = view
            .hand_sizes
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                if i == me.index() {
                    view.hand
                } else {
                    pool.by_ref().take(usize::from(n)).collect()
                }
            })
            .collect();
        let position = BasraPosition {
            dealer: view.dealer,
            to_act,
            hands,
            floor: view.floor,
            stock: pool.collect(),
            // A basra card kept out of the pile (`cse231`) must still be placed somewhere.
            piles: view
                .sides
                .iter()
                .map(|s| s.captured | s.basras.iter().map(|b| b.card).collect::<CardSet>())
                .collect(),
            round: view.round,
            last_capture: view.last_capture,
            carried: view.carried,
            totals: view.sides.iter().map(|s| s.total).collect(),
        };
        let mut world = Basra::from_position(view.config.clone(), position, seed).ok()?;
        world.basras = view.sides.iter().map(|s| s.basras.clone()).collect();
        // Placed for the position's check, a basra card kept out of the pile leaves it again:
        // `cse231` counts the majority without it.
        world.piles = view.sides.iter().map(|s| s.captured).collect();
        world.table.set_hand_number(view.hand_number);
        Some(world)
    }

    fn value(&self, seat: Seat) -> f64 {
        search::lead_of(self, seat)
    }
}

/// One legal play and what it does.
#[derive(Clone, Copy, Debug)]
struct Play {
    card: Card,
    captured: CardSet,
    basra: i32,
}

impl Play {
    fn to_move(self) -> BasraMove {
        BasraMove::Play {
            card: self.card,
            capture: Some(self.captured),
        }
    }
}

/// The original design's heuristic: take a basra when possible, else a jack when the floor holds
/// points, else the capture worth most, else throw the lowest card that gives the opponent no
/// basra.
fn greedy(view: &BasraView) -> Option<BasraMove> {
    let plays: Vec<Play> = view
        .legal_moves
        .iter()
        .map(|mv| {
            let captured = mv.capture().unwrap_or_default();
            Play {
                card: mv.card(),
                captured,
                basra: rules::basra_points(&view.config, mv.card(), view.floor, captured),
            }
        })
        .collect();

    let best_basra = plays
        .iter()
        .filter(|p| p.basra > 0)
        .max_by_key(|p| (p.basra, std::cmp::Reverse(keep_value(view, p.card))));
    if let Some(play) = best_basra {
        return Some(play.to_move());
    }

    let jack_for_points = plays.iter().find(|p| {
        p.card.rank() == Rank::Jack
            && !p.captured.is_empty()
            && !(view.floor & POINT_CARDS).is_empty()
    });
    if let Some(play) = jack_for_points {
        return Some(play.to_move());
    }

    let best_capture = plays
        .iter()
        .filter(|p| !p.captured.is_empty() && p.card.rank() != Rank::Jack)
        .max_by_key(|p| {
            let won = p.captured | CardSet::single(p.card);
            (
                rules::card_points(won),
                won.len(),
                std::cmp::Reverse(keep_value(view, p.card)),
            )
        });
    if let Some(play) = best_capture {
        return Some(play.to_move());
    }

    let throws: Vec<&Play> = plays.iter().filter(|p| p.captured.is_empty()).collect();
    let unseen = view.unseen();
    let safe_throw = throws
        .iter()
        .filter(|p| !gives_basra(view, unseen, view.floor | CardSet::single(p.card)))
        .min_by_key(|p| keep_value(view, p.card));
    let throw = safe_throw.or_else(|| throws.iter().min_by_key(|p| keep_value(view, p.card)));
    throw
        .map(|p| p.to_move())
        .or_else(|| plays.first().map(|p| p.to_move()))
}

/// How much a card is worth keeping: numerals by value, then queen and king, then the cards
/// that sweep (jacks, and the 7♦ where it sweeps).
fn keep_value(view: &BasraView, card: Card) -> u8 {
    if rules::sweeps(&view.config, card) {
        20
    } else {
        card.rank().number()
    }
}

/// Whether some card the viewer has not seen would make a basra on `floor`.
fn gives_basra(view: &BasraView, unseen: CardSet, floor: CardSet) -> bool {
    unseen.iter().any(|card| {
        rules::outcomes(&view.config, card, floor)
            .iter()
            .any(|captured| rules::basra_points(&view.config, card, floor, captured) > 0)
    })
}
