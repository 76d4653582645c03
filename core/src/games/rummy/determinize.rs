//! Rummy's hidden cards dealt out from one seat's view, for the sampling that analyses a
//! decision (`analysis`): the other hands and the stock are invented, consistently with
//! everything public, and nothing else is read.

use crate::cardset::CardSet;
use crate::rng::{CardRng, Seed};
use crate::search::{self, Determinize};
use crate::seat::Seat;

use super::config::Variant;
use super::state::{Rummy, RummyPosition, Step};
use super::view::RummyView;

impl Determinize for Rummy {
    /// The unseen cards dealt at random to the hidden part of the other hands (what a player
    /// took face up and still holds is known to be there) and to the stock. A card turned over
    /// in `classic` is put back on the stock and turned again. Whether the seat to act melded in
    /// an earlier turn or in this one, its view does not say: an earlier one is assumed (no
    /// rummy bonus is counted on).
    fn determinize(view: &RummyView, seed: Seed, rng: &mut CardRng) -> Option<Rummy> {
        let me = view.seat?;
        if view.to_act != Some(me) {
            return None;
        }
        let on_table = view
            .melds
            .iter()
            .fold(CardSet::EMPTY, |all, m| all | m.cards);
        let mut seen = view.hand | on_table | view.discards.iter().copied().collect::<CardSet>();
        for player in &view.players {
            seen |= player.known;
        }
        if let Some(card) = view.turned {
            seen.insert(card);
        }
        let mut hidden = (CardSet::ALL - seen).to_vec();
        rng.shuffle(&mut hidden);
        let mut pool = hidden.into_iter();
        let mut hands = Vec::with_capacity(view.players.len());
        for player in &view.players {
            if player.seat == me {
                hands.push(view.hand);
                continue;
            }
            let unknown = usize::from(player.cards).checked_sub(player.known.len())?;
            hands.push(player.known | pool.by_ref().take(unknown).collect::<CardSet>());
        }
        let mut stock: Vec<_> = pool.collect();
        if stock.len() != usize::from(view.stock) {
            return None;
        }
        if let Some(card) = view.turned {
            stock.insert(0, card);
        }
        let position = RummyPosition {
            dealer: view.dealer,
            to_act: me,
            hands,
            stock,
            discards: view.discards.clone(),
            melds: view.melds.iter().map(|m| m.cards).collect(),
            totals: view.players.iter().map(|p| p.total).collect(),
            melded_before: view.players.iter().map(|p| p.melded).collect(),
            hand_number: view.hand_number,
            turned_over: view.turned_over,
        };
        let mut world = Rummy::from_position(view.config.clone(), position, seed).ok()?;
        world.melds = view.melds.clone();
        world.known = crate::seat::BySeat::new(view.players.iter().map(|p| p.known).collect());
        world.step = match (view.step.as_str(), view.turned) {
            ("draw", _) => Step::Draw,
            ("play", _) => Step::Play { taken: view.taken },
            ("meld_or_exchange", _) => Step::BeforeExchange,
            ("keep_or_pass", Some(card)) => {
                world.stock.pop();
                Step::Turned { card }
            }
            ("meld_or_end", _) => Step::AfterExchange,
            _ => return None,
        };
        Some(world)
    }

    /// The seat's lead: over the best other total, or in `classic` (lowest wins) under it.
    fn value(&self, seat: Seat) -> f64 {
        match self.config.variant {
            Variant::Standard => search::lead_of(self, seat),
            Variant::Classic => {
                let totals = self.table.totals();
                let own = totals.get(seat.index()).copied().unwrap_or(0);
                let best_other = totals
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != seat.index())
                    .map(|(_, &t)| t)
                    .min()
                    .unwrap_or(0);
                f64::from(best_other - own) + search::outcome_bonus(self, seat)
            }
        }
    }
}
