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
    Bid, Contract, Denomination, PlayedCard, playable, score, trick_winner,
};
use crate::games::tarneeb::{Tarneeb, TarneebMove, Variant};
use crate::kind::GameKind;
use crate::seat::Seat;

use super::decision::{AnalysisError, Decision, GradeScale};

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
    pub bid: Bid,
    /// The trump (none at no-trump): in `standard` the first, ♣ ♦ ♥ ♠, with which the
    /// declarer makes the most.
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
        let choices = playable(hands[r.seat.index()], &trick).len();
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
            grade: GradeScale::of(GameKind::Tarneeb).grade(f64::from(cost)),
            samples: 0,
            best_error: 0.0,
            played_error: 0.0,
            loss_low: f64::from(cost),
            loss_high: f64::from(cost),
            within_noise: false,
        });
    }
    let par = par(solver, &play).map_err(broken)?;
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

/// The hand's par: for each side its highest makeable bid, found by asking, seat by seat and
/// denomination by denomination, only whether the side makes more than its best so far (one
/// zero-window search each; an exact count only when it does).
fn par(solver: &mut Solver, play: &PlayRecord) -> Result<Option<Par>, String> {
    let classic = play.variant == Variant::Classic;
    let mut best: [Option<(Bid, Seat, Denomination)>; 2] = [None, None];
    // Denomination by denomination: the solver keeps its table while the trump is the same.
    for &denom in denominations(play.variant) {
        for seat in Seat::all(4) {
            let side = seat.index() % 2;
            // The fewest tricks that make a bid above the side's best (denominations come
            // lowest first, so in `classic` as many tricks in this one are higher).
            let target = match best[side] {
                None => 7,
                Some((bid, _, _)) if classic && bid.suit.is_some_and(|d| denom > d) => bid.tricks,
                Some((bid, _, _)) => bid.tricks + 1,
            };
            if target > 13 {
                continue;
            }
            let position = Position {
                hands: play.hands,
                trick: Vec::new(),
                to_act: seat,
                trump: denom.trump(),
            };
            if !solver
                .reaches(&position, target)
                .map_err(|e| e.to_string())?
            {
                continue;
            }
            let tricks = solver
                .tricks_near(&position, target)
                .map_err(|e| e.to_string())?;
            let suit = classic.then_some(denom);
            best[side] = Some((Bid { tricks, suit }, seat, denom));
        }
    }
    // `standard`: the seat after the dealer bids first; `classic`: the dealer.
    let first = match play.variant {
        Variant::Standard => play.dealer.next(4),
        Variant::Classic => play.dealer,
    }
    .index()
        % 2;
    let winner = match (best[first], best[1 - first]) {
        (Some(a), Some(b)) => Some(if b.0.beats(a.0) { b } else { a }),
        (a, b) => a.or(b),
    };
    Ok(winner.map(|(bid, declarer, denom)| Par {
        declarer,
        bid,
        trump: denom.trump(),
        score: score(play.variant, bid, bid.tricks).0,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{CardRng, Seed};

    /// The par from the whole double-dummy table, as the rules say it: each side's highest
    /// makeable bid over its seats and denominations, the higher one, the first bidder's on a
    /// tie; the trump the first denomination that makes it.
    fn par_from_the_whole_table(solver: &mut Solver, play: &PlayRecord) -> Option<Par> {
        let classic = play.variant == Variant::Classic;
        let mut best: [Option<(Bid, Seat, Denomination)>; 2] = [None, None];
        for &denom in denominations(play.variant) {
            for seat in Seat::all(4) {
                let position = Position {
                    hands: play.hands,
                    trick: Vec::new(),
                    to_act: seat,
                    trump: denom.trump(),
                };
                let tricks = solver.tricks(&position).expect("solves");
                let bid = Bid {
                    tricks,
                    suit: classic.then_some(denom),
                };
                let side = seat.index() % 2;
                if tricks >= 7 && best[side].is_none_or(|(b, _, _)| bid.beats(b)) {
                    best[side] = Some((bid, seat, denom));
                }
            }
        }
        let first = if classic {
            play.dealer
        } else {
            play.dealer.next(4)
        }
        .index()
            % 2;
        let winner = match (best[first], best[1 - first]) {
            (Some(a), Some(b)) => Some(if b.0.beats(a.0) { b } else { a }),
            (a, b) => a.or(b),
        };
        winner.map(|(bid, declarer, denom)| Par {
            declarer,
            bid,
            trump: denom.trump(),
            score: score(play.variant, bid, bid.tricks).0,
        })
    }

    /// A deal as dealt, before any bid or card: all a par looks at.
    fn unplayed(hands: [CardSet; 4], dealer: Seat, variant: Variant) -> PlayRecord {
        PlayRecord {
            hand: 1,
            dealer,
            variant,
            hands,
            contract: None,
            trump: None,
            leader: Seat::new(0),
            plays: Vec::new(),
        }
    }

    /// Each seat holds one whole suit, so each side takes all thirteen tricks at no-trump (its
    /// declarer's suit runs) and at its partner's suit (♦ for north-south, ♣ for east-west:
    /// partner ruffs every lead). The bids tie at 13 (`standard`) and at 13 no-trump
    /// (`classic`): the side that bids first has the par, next to the dealer in `standard`, the
    /// dealer's in `classic`.
    #[test]
    fn on_equal_bids_the_side_that_bids_first_has_the_par() {
        let hands = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs].map(CardSet::suit);
        let mut solver = Solver::new();
        let par_of = |solver: &mut Solver, variant, dealer: u8| {
            let play = unplayed(hands, Seat::new(dealer), variant);
            par(solver, &play).expect("solves").expect("a par")
        };
        for dealer in 0..4u8 {
            let first_side = usize::from((dealer + 1) % 2);
            let standard = par_of(&mut solver, Variant::Standard, dealer);
            assert_eq!(standard.declarer.index() % 2, first_side, "dealer {dealer}");
            assert_eq!((standard.bid.tricks, standard.score), (13, 26));
            let expected_trump = [Suit::Diamonds, Suit::Clubs][first_side];
            assert_eq!(standard.trump, Some(expected_trump), "dealer {dealer}");

            let classic = par_of(&mut solver, Variant::Classic, dealer);
            assert_eq!(
                classic.declarer.index() % 2,
                usize::from(dealer % 2),
                "dealer {dealer}"
            );
            assert_eq!(classic.bid.suit, Some(Denomination::NoTrump));
            assert_eq!(
                (classic.bid.tricks, classic.trump, classic.score),
                (13, None, 26)
            );
        }
    }

    /// The par found by threshold searches is the par of the whole table, on random deals
    /// (half of them with one hand's long suit), in both variants, every dealer.
    #[test]
    fn the_par_is_the_whole_tables() {
        let mut rng = CardRng::new(&Seed::from_bytes([31; 32]), 0);
        let mut solver = Solver::new();
        for case in 0..16u8 {
            let mut deck = CardSet::ALL.to_vec();
            rng.shuffle(&mut deck);
            if case % 2 == 1 {
                // Seven spades first: the first hand holds them.
                deck.sort_by_key(|c| u8::from(c.suit() != Suit::Spades));
                deck[7..].sort_by_key(|c| c.index());
                rng.shuffle(&mut deck[7..]);
            }
            let mut hands = [CardSet::EMPTY; 4];
            for (i, card) in deck.into_iter().enumerate() {
                hands[(i / 13).min(3)].insert(card);
            }
            let variant = if case % 4 < 2 {
                Variant::Standard
            } else {
                Variant::Classic
            };
            let play = unplayed(hands, Seat::new(case % 4), variant);
            assert_eq!(
                par(&mut solver, &play),
                Ok(par_from_the_whole_table(&mut solver, &play)),
                "case {case}"
            );
        }
    }
}
