//! What every game has in common: seats and sides, the seed and the deals made from it, hands,
//! running totals, the score history, the move count and cap, and the result.
//!
//! Each game embeds one [`Table`]. Games change it only through the crate-private methods
//! below, so a hand always ends with a score record and a game with an outcome.

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::deck::Deck;
use crate::options::SetupError;
use crate::rng::{CardRng, Seed, Stream, shuffled_deck};
use crate::seat::{Seat, Sides};

/// Where a game's cards come from: the secret game seed, and optionally a practice deck order
/// (several decks' worth, one deal after another, top card first; later deals are shuffled).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    pub seed: Seed,
    pub deck: Option<Vec<Card>>,
    /// Recreate a past game from its public log (to verify its deals), instead of drawing
    /// the first dealer and deriving deal seeds from `seed`.
    pub replay: Option<Replay>,
}

/// What a game's public log tells about its randomness: who dealt first and the deal seeds
/// revealed so far, in deal order. Deals past the last revealed seed fall back to `seed`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Replay {
    pub first_dealer: Seat,
    pub deal_seeds: Vec<Seed>,
}

impl Setup {
    /// A game shuffled from `seed`.
    pub fn seeded(seed: Seed) -> Setup {
        Setup {
            seed,
            deck: None,
            replay: None,
        }
    }

    /// A game from a practice deck (and `seed` for anything after it).
    pub fn with_deck(seed: Seed, deck: Vec<Card>) -> Setup {
        Setup {
            seed,
            deck: Some(deck),
            replay: None,
        }
    }
}

/// Where a game stands.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A hand is being played.
    Active,
    /// A hand has been scored; the next deal waits for a seated player (docs/rules.md#every-game).
    HandOver,
    /// The game is decided.
    Finished,
}

/// Why a game ended.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum EndReason {
    /// A side reached the target.
    Target,
    /// The last hand or round was played.
    FinalHand,
    /// Only one side is left in.
    LastStanding,
    /// A seat resigned a two-sided game.
    Resignation { seat: Seat },
    /// The move cap was reached: the game ends with no winner.
    MoveCap,
}

impl EndReason {
    /// The reason's name, as serialised.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Target => "target",
            EndReason::FinalHand => "final_hand",
            EndReason::LastStanding => "last_standing",
            EndReason::Resignation { .. } => "resignation",
            EndReason::MoveCap => "move_cap",
        }
    }
}

/// The result of a finished game.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning sides; several share the win (or draw); none after the move cap.
    pub winners: Vec<u8>,
    #[serde(flatten)]
    pub reason: EndReason,
}

/// One scoring item of a hand.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "item", rename_all = "snake_case")]
pub enum ScoreItem {
    /// A basra made with `card` (Basra).
    Basra { card: Card },
    /// The most cards (Basra), with any bonus carried over from tied hands.
    Majority { cards: u8 },
    /// The named point cards captured (Basra: jacks, aces, 2♣, 10♦).
    CardPoints { cards: Vec<Card> },
    /// Lives (tokens) lost (31).
    LifeLost { cause: LifeLoss },
    /// The cards left in a seat's hand (Rummy: scored by the winner in `standard`, against the
    /// holder in `classic`).
    CardsLeft { seat: Seat, cards: Vec<Card> },
    /// Going out in one turn without having melded before doubles the score (Rummy).
    Rummy,
    /// A Tarneeb contract: the declarer, the tricks bid and the tricks the bidders took.
    Contract {
        declarer: Seat,
        bid: u8,
        tricks: u8,
        made: bool,
    },
}

/// Why a life was lost in 31.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LifeLoss {
    /// The lowest hand at a showdown.
    LowestHand,
    /// The knocker, alone with the lowest hand, loses two.
    KnockerAloneLowest,
    /// Someone else held 31.
    ThirtyOne,
}

/// Points scored by one side for one item.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ScoreLine {
    pub side: u8,
    pub points: i32,
    #[serde(flatten)]
    pub item: ScoreItem,
}

/// The score breakdown of one hand.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct HandRecord {
    pub hand: u32,
    pub dealer: Seat,
    pub lines: Vec<ScoreLine>,
    /// Every side's total after the hand.
    pub totals: Vec<i32>,
    /// Points left undecided by this hand and carried into the next (Basra's tied majority).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub carried: i32,
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// The score sheet: every hand's lines, the running totals and the result.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ScoreSheet {
    /// The seats of each side, side 0 first.
    pub sides: Vec<Vec<Seat>>,
    pub hands: Vec<HandRecord>,
    /// Every side's total before the first hand.
    pub initial: i32,
    pub totals: Vec<i32>,
    pub outcome: Option<Outcome>,
}

/// Events every game emits through its table.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TableEvent {
    /// A hand begins; `deal` is the index of its deck (its seed commitment is published).
    HandStarted { hand: u32, deal: u32, dealer: Seat },
    /// A hand is scored.
    HandScored {
        hand: u32,
        lines: Vec<ScoreLine>,
        totals: Vec<i32>,
        #[serde(default, skip_serializing_if = "is_zero")]
        carried: i32,
    },
    /// A seat resigned.
    Resigned { seat: Seat },
    /// The game is over.
    GameOver {
        #[serde(flatten)]
        outcome: Outcome,
    },
}

/// The state every game shares.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Table {
    seats: u8,
    sides: Sides,
    seed: Seed,
    deck: Deck,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    practice_deck: Vec<Card>,
    deals: u32,
    hand: u32,
    dealer: Seat,
    moves: u32,
    move_cap: u32,
    status: Status,
    /// Deal seeds given by a replay (see [`Replay`]); empty in a real game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    replayed_seeds: Vec<Seed>,
    /// Every side's total before the first hand.
    initial_total: i32,
    totals: Vec<i32>,
    history: Vec<HandRecord>,
    outcome: Option<Outcome>,
}

/// How the first dealer is chosen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FirstDealer {
    /// Drawn from the seed; the last seat in a game from a practice deck (docs/rules.md#every-game).
    Drawn,
    /// Fixed by the variant.
    Fixed(Seat),
}

/// What a game needs to lay out its table.
#[derive(Clone, Debug)]
pub struct TableSpec {
    pub seats: u8,
    pub sides: Sides,
    pub deck: Deck,
    pub move_cap: u32,
    pub first_dealer: FirstDealer,
    /// Every side's total before the first hand.
    pub initial_total: i32,
}

impl Table {
    /// A table before its first deal. Checks the practice deck: whole decks of the game's cards.
    pub(crate) fn new(spec: TableSpec, setup: &Setup) -> Result<Table, SetupError> {
        let practice_deck = setup.deck.clone().unwrap_or_default();
        if setup.deck.is_some() {
            check_practice_deck(&practice_deck, spec.deck)?;
        }
        let dealer = match spec.first_dealer {
            _ if setup.replay.is_some() => setup
                .replay
                .as_ref()
                .map_or(Seat::new(0), |r| r.first_dealer),
            FirstDealer::Fixed(seat) => seat,
            FirstDealer::Drawn if setup.deck.is_some() => Seat::new(spec.seats - 1),
            FirstDealer::Drawn => {
                let mut rng = CardRng::for_stream(&setup.seed, Stream::FirstDealer);
                Seat::new(rng.below(u32::from(spec.seats)) as u8)
            }
        };
        Ok(Table {
            seats: spec.seats,
            totals: vec![spec.initial_total; spec.sides.count()],
            initial_total: spec.initial_total,
            sides: spec.sides,
            seed: setup.seed,
            deck: spec.deck,
            practice_deck,
            deals: 0,
            hand: 0,
            dealer,
            moves: 0,
            move_cap: spec.move_cap,
            status: Status::Active,
            replayed_seeds: setup
                .replay
                .as_ref()
                .map(|r| r.deal_seeds.clone())
                .unwrap_or_default(),
            history: Vec::new(),
            outcome: None,
        })
    }

    /// How many seats.
    pub fn seats(&self) -> u8 {
        self.seats
    }

    /// The sides.
    pub fn sides(&self) -> &Sides {
        &self.sides
    }

    /// The side a seat plays for.
    pub fn side_of(&self, seat: Seat) -> u8 {
        self.sides.side_of(seat)
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The current hand's number, from 1.
    pub fn hand_number(&self) -> u32 {
        self.hand
    }

    /// The current hand's dealer (before the first deal: the first dealer).
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// Moves played so far in the whole game.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// The move cap.
    pub fn move_cap(&self) -> u32 {
        self.move_cap
    }

    /// Every side's total before the first hand (31's lives; 0 elsewhere).
    pub fn initial_total(&self) -> i32 {
        self.initial_total
    }

    /// Every side's running total.
    pub fn totals(&self) -> &[i32] {
        &self.totals
    }

    /// The scored hands.
    pub fn history(&self) -> &[HandRecord] {
        &self.history
    }

    /// The result, once finished.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// How many decks have been dealt (deal indices `0..deals`).
    pub fn deals(&self) -> u32 {
        self.deals
    }

    /// The deck the game uses.
    pub fn deck(&self) -> Deck {
        self.deck
    }

    /// Whether the game was created from a practice deck.
    pub fn is_practice_deck(&self) -> bool {
        !self.practice_deck.is_empty()
    }

    /// The practice deck order of deal `i`, if that deal came from the practice deck.
    pub fn practice_deal(&self, i: u32) -> Option<&[Card]> {
        let size = self.deck.size();
        let start = (i as usize).checked_mul(size)?;
        self.practice_deck.get(start..start + size)
    }

    /// `sha256` of deal `i`'s seed, published when the deal is made.
    pub fn commitment(&self, i: u32) -> Option<[u8; 32]> {
        (i < self.deals).then(|| self.deal_seed(i).commitment())
    }

    /// Deal `i`'s seed, once its hand is over (API.md, "Fairness").
    pub fn revealed_seed(&self, i: u32) -> Option<Seed> {
        let over = i + 1 < self.deals || (i + 1 == self.deals && self.status != Status::Active);
        over.then(|| self.deal_seed(i))
    }

    /// The stream for a computer player's decision at the current move: the game seed's
    /// `Decision(moves)` stream. Bots get this generator, never the seed.
    pub(crate) fn decision_rng(&self) -> CardRng {
        CardRng::for_stream(&self.seed, Stream::Decision(u64::from(self.moves)))
    }

    /// The generator of the analysis of the move about to be made (`Stream::Analysis`).
    pub(crate) fn analysis_rng(&self) -> CardRng {
        CardRng::for_stream(&self.seed, Stream::Analysis(u64::from(self.moves)))
    }

    fn deal_seed(&self, i: u32) -> Seed {
        match self.replayed_seeds.get(i as usize) {
            Some(seed) => *seed,
            None => self.seed.derive(Stream::Deal(i)),
        }
    }

    /// The next deal's deck, top card first, and its generator for the rest of the deal's
    /// randomness (stream 0, after the shuffle; a practice deck is not shuffled).
    pub(crate) fn next_deck(&mut self) -> (Vec<Card>, CardRng) {
        let index = self.deals;
        self.deals += 1;
        let seed = self.deal_seed(index);
        match self.practice_deal(index) {
            Some(order) => (order.to_vec(), CardRng::new(&seed, 0)),
            None => shuffled_deck(self.deck, &seed),
        }
    }

    /// A generator for extra randomness later in the current deal: stream `n` ≥ 1 of its seed.
    pub(crate) fn deal_rng(&self, n: u64) -> CardRng {
        CardRng::new(&self.deal_seed(self.deals.saturating_sub(1)), n)
    }

    /// Starts a hand dealt by `dealer`.
    pub(crate) fn begin_hand(&mut self, dealer: Seat) -> TableEvent {
        self.hand += 1;
        self.dealer = dealer;
        self.status = Status::Active;
        TableEvent::HandStarted {
            hand: self.hand,
            deal: self.deals,
            dealer,
        }
    }

    /// Deals the current hand again (Tarneeb's all-pass): the hand keeps its number; the next
    /// deck comes from the next deal seed.
    pub(crate) fn restart_hand(&mut self) -> TableEvent {
        TableEvent::HandStarted {
            hand: self.hand,
            deal: self.deals,
            dealer: self.dealer,
        }
    }

    /// Scores the current hand: adds every line to its side's total.
    pub(crate) fn end_hand(&mut self, lines: Vec<ScoreLine>, carried: i32) -> TableEvent {
        for line in &lines {
            if let Some(total) = self.totals.get_mut(line.side as usize) {
                *total += line.points;
            }
        }
        self.history.push(HandRecord {
            hand: self.hand,
            dealer: self.dealer,
            lines: lines.clone(),
            totals: self.totals.clone(),
            carried,
        });
        self.status = Status::HandOver;
        TableEvent::HandScored {
            hand: self.hand,
            lines,
            totals: self.totals.clone(),
            carried,
        }
    }

    /// Ends the game.
    pub(crate) fn finish(&mut self, winners: Vec<u8>, reason: EndReason) -> TableEvent {
        let outcome = Outcome { winners, reason };
        self.outcome = Some(outcome.clone());
        self.status = Status::Finished;
        TableEvent::GameOver { outcome }
    }

    /// Sets the running totals of a position set up by hand.
    pub(crate) fn set_totals(&mut self, totals: &[i32]) {
        for (total, &given) in self.totals.iter_mut().zip(totals) {
            *total = given;
        }
    }

    /// Sets the hand's number of a position dealt out for a search (a view says which hand it is).
    pub(crate) fn set_hand_number(&mut self, hand: u32) {
        self.hand = hand;
    }

    /// Counts one move; returns whether the cap is now reached.
    pub(crate) fn count_move(&mut self) -> bool {
        self.moves += 1;
        self.moves >= self.move_cap
    }

    /// The sides whose total is highest among those at or above `target`, if any reached it.
    pub fn leaders_at_target(&self, target: i32) -> Option<Vec<u8>> {
        let best = self.totals.iter().copied().filter(|&t| t >= target).max()?;
        Some(
            self.totals
                .iter()
                .enumerate()
                .filter(|&(_, &t)| t == best)
                .map(|(side, _)| side as u8)
                .collect(),
        )
    }
}

fn check_practice_deck(order: &[Card], deck: Deck) -> Result<(), SetupError> {
    let size = deck.size();
    if order.is_empty() || !order.len().is_multiple_of(size) {
        return Err(SetupError::Deck(format!(
            "must list whole decks of {size} cards, one deal after another; it lists {} cards",
            order.len()
        )));
    }
    for (i, chunk) in order.chunks(size).enumerate() {
        let mut seen = CardSet::EMPTY;
        for &card in chunk {
            if !deck.cards().contains(card) {
                return Err(SetupError::Deck(format!(
                    "lists {card}, which is not in this game's {size}-card deck"
                )));
            }
            if !seen.insert(card) {
                return Err(SetupError::Deck(format!(
                    "lists {card} twice in deal {}",
                    i + 1
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
