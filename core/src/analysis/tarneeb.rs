//! Tarneeb's review: every card against perfect play with all hands open, and each hand's par.
//!
//! The par contract is the best contract the auction could have reached with every hand known:
//! each side's highest makeable bid (the declarer leads, as Tarneeb's rules have it), the higher
//! of the two, and on equal bids the side that bids first. No sacrifice is ever worth bidding:
//! under both variants' scoring a failed contract costs the bidders at least what the defenders
//! would have scored by making theirs.

use serde::Serialize;

use crate::any::AnyMove;
use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::double_dummy::{self, Position, Solver};
use crate::game::Game;
use crate::games::tarneeb::auction::{
    Bid, Contract, Denomination, PlayedCard, score, trick_winner,
};
use crate::games::tarneeb::{Tarneeb, TarneebMove, Variant};
use crate::seat::Seat;

use super::decision::{AnalysisError, Decision, Grade};

/// A Tarneeb hand's play, collected card by card for its review.
#[derive(Clone, Debug)]
pub(super) struct PlayRecord {
    hand: u32,
    dealer: Seat,
    variant: Variant,
    hands: [CardSet; 4],
    contract: Option<Contract>,
    trump: Option<Suit>,
    leader: Seat,
    /// Each card with the log version it made.
    plays: Vec<(i64, Card)>,
}

/// The par of a hand: the contract the auction reaches with every hand known.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Par {
    pub declarer: Seat,
    /// The bid: the most tricks the declaring side makes, with its denomination in `classic`.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::games::tarneeb::auction::Bid))]
    pub bid: Bid,
    /// The trump the declarer names (none at no-trump).
    pub trump: Option<Suit>,
    /// What the declaring side scores by making it.
    pub score: i32,
}

/// One Tarneeb hand of a game, reviewed.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct HandReview {
    pub hand: u32,
    pub dealer: Seat,
    pub contract: Option<Contract>,
    pub trump: Option<Suit>,
    /// The tricks the declaring side could take with best play by everyone from the first lead.
    pub makeable: u8,
    /// The tricks it took (of the cards played: a game resigned mid-hand stops early).
    pub taken: u8,
    /// Cards played: 52 for a hand played out.
    pub cards: u32,
    /// `None` when neither side can make seven tricks.
    pub par: Option<Par>,
    /// Tricks each seat's cards cost its side.
    pub tricks_lost: Vec<u8>,
    /// The double-dummy table: for each seat as declarer (leading), the tricks its side takes
    /// at ♣, ♦, ♥, ♠ and, in `classic`, no-trump.
    pub table: Vec<Vec<u8>>,
}

/// Takes in a Tarneeb move: a card is added to the hand in play, and the first card of a new
/// hand hands back the previous hand's record, complete, for review.
pub(super) fn observe(
    play: &mut Option<PlayRecord>,
    before: &Tarneeb,
    version: i64,
    seat: Seat,
    mv: &TarneebMove,
) -> Option<PlayRecord> {
    let TarneebMove::Play { card } = *mv else {
        return None;
    };
    let mut done = None;
    // The first card of a hand: every hand still full.
    if (0..4).all(|s| before.hand(Seat::new(s)).len() == 13) {
        done = play.take();
        *play = Some(PlayRecord {
            hand: before.table().hand_number(),
            dealer: before.table().dealer(),
            variant: before.config().variant,
            hands: [0, 1, 2, 3].map(|s| before.hand(Seat::new(s))),
            contract: before.contract(),
            trump: before.trump(),
            leader: seat,
            plays: Vec::with_capacity(52),
        });
    }
    if let Some(record) = play {
        record.plays.push((version, card));
    }
    done
}

/// Reviews a hand: its summary and a decision for every card played where the seat had a choice.
pub(super) fn review(
    solver: &mut Solver,
    play: PlayRecord,
) -> Result<(HandReview, Vec<Decision>), AnalysisError> {
    let broken = |reason: String| AnalysisError::Review {
        hand: play.hand,
        reason,
    };
    let cards: Vec<Card> = play.plays.iter().map(|&(_, card)| card).collect();
    let reviews = double_dummy::review(solver, play.hands, play.leader, play.trump, &cards)
        .map_err(|e| broken(e.to_string()))?;
    let declaring = play.contract.map_or(play.leader, |c| c.declarer).index() % 2;
    let makeable = reviews.first().map_or(0, |r| {
        if r.seat.index() % 2 == declaring {
            r.best
        } else {
            13 - r.best
        }
    });
    let mut hands = play.hands;
    let mut tricks_lost = vec![0u8; 4];
    let mut decisions = Vec::with_capacity(reviews.len());
    let mut trick: Vec<PlayedCard> = Vec::with_capacity(4);
    let mut taken = 0u8;
    for (r, &(version, card)) in reviews.iter().zip(&play.plays) {
        let hand = hands[r.seat.index()];
        let following = trick
            .first()
            .map(|p| hand & CardSet::suit(p.card.suit()))
            .filter(|cards| !cards.is_empty());
        let choices = following.unwrap_or(hand).len();
        hands[r.seat.index()].remove(card);
        trick.push(PlayedCard { seat: r.seat, card });
        if trick.len() == 4 {
            if let Some(winner) = trick_winner(&trick, play.trump)
                && winner.seat.index() % 2 == declaring
            {
                taken += 1;
            }
            trick.clear();
        }
        let cost = r.cost();
        if let Some(lost) = tricks_lost.get_mut(r.seat.index()) {
            *lost += cost;
        }
        if choices < 2 {
            continue;
        }
        decisions.push(Decision {
            version,
            hand: play.hand,
            seat: r.seat,
            played: AnyMove::Tarneeb(TarneebMove::Play { card }),
            best: r
                .keeping
                .iter()
                .map(|&card| AnyMove::Tarneeb(TarneebMove::Play { card }))
                .collect(),
            best_value: f64::from(r.best),
            played_value: f64::from(r.played),
            loss: f64::from(cost),
            grade: match cost {
                0 => Grade::Good,
                1 => Grade::Mistake,
                _ => Grade::Blunder,
            },
        });
    }
    let (table, par) = par(solver, &play).map_err(broken)?;
    let summary = HandReview {
        hand: play.hand,
        dealer: play.dealer,
        contract: play.contract,
        trump: play.trump,
        makeable,
        taken,
        cards: cards.len() as u32,
        par,
        tricks_lost,
        table,
    };
    Ok((summary, decisions))
}

/// The denominations a variant's contracts may have, lowest first.
fn denominations(variant: Variant) -> &'static [Denomination] {
    match variant {
        Variant::Standard => &Denomination::ALL[..4],
        Variant::Classic => &Denomination::ALL,
    }
}

/// The hand's double-dummy table (`[seat][denomination]`) and its par.
fn par(solver: &mut Solver, play: &PlayRecord) -> Result<(Vec<Vec<u8>>, Option<Par>), String> {
    let denoms = denominations(play.variant);
    let mut table = vec![vec![0u8; denoms.len()]; 4];
    // Denomination by denomination: the solver keeps its table while the trump is the same.
    for (d, denom) in denoms.iter().enumerate() {
        let mut guess = 7;
        for seat in 0..4u8 {
            let position = Position {
                hands: play.hands,
                trick: Vec::new(),
                to_act: Seat::new(seat),
                trump: denom.trump(),
            };
            let tricks = solver
                .tricks_near(&position, guess)
                .map_err(|e| e.to_string())?;
            table[usize::from(seat)][d] = tricks;
            guess = 13 - tricks;
        }
    }
    // Each side's highest makeable bid.
    let best_of = |side: usize| -> Option<(Bid, Seat)> {
        let mut best: Option<(Bid, Seat)> = None;
        for seat in [side, side + 2] {
            for (d, denom) in denoms.iter().enumerate() {
                let tricks = table[seat][d];
                if tricks < 7 {
                    continue;
                }
                let bid = Bid {
                    tricks,
                    suit: (play.variant == Variant::Classic).then_some(*denom),
                };
                if best.is_none_or(|(b, _)| bid.beats(b)) {
                    best = Some((bid, Seat::new(seat as u8)));
                }
            }
        }
        best
    };
    // `standard`: the seat after the dealer bids first; `classic`: the dealer.
    let first = match play.variant {
        Variant::Standard => play.dealer.next(4),
        Variant::Classic => play.dealer,
    }
    .index()
        % 2;
    let winner = match (best_of(first), best_of(1 - first)) {
        (Some(a), Some(b)) => Some(if b.0.beats(a.0) { b } else { a }),
        (a, b) => a.or(b),
    };
    let par = winner.map(|(bid, declarer)| {
        // The trump with which the declarer makes the bid (the first such in `standard`).
        let trump = match bid.suit {
            Some(denom) => denom.trump(),
            None => denoms
                .iter()
                .enumerate()
                .find(|&(d, _)| table[declarer.index()][d] == bid.tricks)
                .and_then(|(_, denom)| denom.trump()),
        };
        Par {
            declarer,
            bid,
            trump,
            score: score(play.variant, bid, bid.tricks).0,
        }
    });
    Ok((table, par))
}
