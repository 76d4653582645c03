//! A finished hand reviewed card by card: for every card played, the tricks its side could
//! still take with best play by everyone, before the card and after it. A card that costs
//! tricks is a mistake, and the cards that would have kept them are named.

use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::seat::Seat;

use super::bits::bits_of;
use super::{Position, PositionError, Solver};

/// One card of a reviewed hand.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlayReview {
    pub seat: Seat,
    pub card: Card,
    /// The tricks of the seat's side in the whole hand (those already won included) with best
    /// play by everyone from just before the card.
    pub best: u8,
    /// The same after the card: `best` less the tricks the card cost.
    pub played: u8,
    /// The cards that keep `best` (the card played among them when it cost nothing).
    pub keeping: Vec<Card>,
}

impl PlayReview {
    /// The tricks the card cost its side.
    pub fn cost(&self) -> u8 {
        self.best - self.played
    }
}

/// Why a hand cannot be reviewed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum ReviewError {
    #[error("the hands: {0}")]
    Position(#[from] PositionError),
    /// The card at this index of the plays is not one the seat to act could play.
    #[error("play {0} is not a card the seat to act could play")]
    IllegalPlay(usize),
}

/// Reviews `plays`, the cards played in order from `hands` (four hands of equal size, the
/// first trick led by `leader`), with `trump` as the trump suit if any. The plays may stop
/// before the hands are empty. Every position is solved exactly, so a hand of thirteen cards
/// takes some fifty solves, most of them small.
pub fn review(
    solver: &mut Solver,
    hands: [CardSet; 4],
    leader: Seat,
    trump: Option<Suit>,
    plays: &[Card],
) -> Result<Vec<PlayReview>, ReviewError> {
    let mut hands = hands;
    let mut trick: Vec<(Seat, Card)> = Vec::with_capacity(4);
    let mut to_act = leader;
    let mut won = [0u8; 2];
    let mut reviews = Vec::with_capacity(plays.len());
    for (index, &card) in plays.iter().enumerate() {
        // The solver checks the position first (a seat beyond the four is refused there).
        let position = Position {
            hands,
            trick: trick.clone(),
            to_act,
            trump,
        };
        let values = solver.card_tricks(&position)?;
        let side = to_act.index() % 2;
        let Some(&(_, played)) = values.iter().find(|&&(c, _)| c == card) else {
            return Err(ReviewError::IllegalPlay(index));
        };
        let top = values.iter().map(|&(_, v)| v).max().unwrap_or(played);
        reviews.push(PlayReview {
            seat: to_act,
            card,
            best: won[side] + top,
            played: won[side] + played,
            keeping: values
                .iter()
                .filter(|&&(_, v)| v == top)
                .map(|&(c, _)| c)
                .collect(),
        });
        hands[to_act.index()].remove(card);
        trick.push((to_act, card));
        if trick.len() == 4 {
            let winner = winner(&trick, trump);
            won[winner.index() % 2] += 1;
            to_act = winner;
            trick.clear();
        } else {
            to_act = to_act.next(4);
        }
    }
    Ok(reviews)
}

/// The seat whose card wins a full trick: the highest trump, else the highest card of the suit
/// led.
fn winner(trick: &[(Seat, Card)], trump: Option<Suit>) -> Seat {
    let led = trick.first().map(|(_, c)| c.suit());
    let strength = |card: Card| {
        let class = if Some(card.suit()) == trump {
            2
        } else {
            u8::from(Some(card.suit()) == led)
        };
        (class, bits_of(card).1)
    };
    trick
        .iter()
        .max_by_key(|&&(_, card)| strength(card))
        .map_or(Seat::new(0), |&(seat, _)| seat)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &str) -> CardSet {
        crate::card::parse_cards(text)
            .unwrap()
            .into_iter()
            .collect()
    }

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    /// North holds the ace of hearts and a small spade to South's ace. Leading the ace of hearts
    /// first, then the spade to South, takes both tricks; leading the spade first strands the
    /// ace of hearts, as South must then lead a diamond that West wins.
    fn stranded() -> [CardSet; 4] {
        [
            cards("2S AH"),
            cards("3D 4D"),
            cards("AS 5D"),
            cards("6D 7D"),
        ]
    }

    #[test]
    fn a_card_that_throws_a_trick_is_marked_with_the_card_that_kept_it() {
        let mut solver = Solver::new();
        let plays = [
            "2S", "3D", "AS", "6D", // South wins with the ace of spades...
            "5D", "7D", "AH", "4D", // ...and must lead a diamond: West wins.
        ]
        .map(card);
        let reviews = review(&mut solver, stranded(), Seat::new(0), None, &plays).unwrap();
        assert_eq!(reviews.len(), 8);
        let first = &reviews[0];
        assert_eq!((first.seat, first.card), (Seat::new(0), card("2S")));
        assert_eq!((first.best, first.played, first.cost()), (2, 1, 1));
        assert_eq!(first.keeping, vec![card("AH")]);
        // Nothing after it costs a trick: every other card was forced or as good.
        for later in &reviews[1..] {
            assert_eq!(later.cost(), 0, "{later:?}");
            assert!(later.keeping.contains(&later.card));
        }
        // East-West's count: they take one trick whatever they do once North has erred.
        assert_eq!((reviews[1].best, reviews[1].played), (1, 1));
        // By the last trick, West has won its diamond: East-West's count includes it.
        assert_eq!(reviews[7].seat, Seat::new(1));
        assert_eq!((reviews[7].best, reviews[7].played), (1, 1));
    }

    /// Random hands of 4 to 9 cards, played out by random legal cards: every review's counts
    /// chain. A side's error lowers its count by the cost, which the other side gains; a card
    /// from `keeping` costs nothing; and the count after the last card is the tricks won.
    #[test]
    fn the_counts_chain_from_the_first_card_to_the_tricks_won() {
        use crate::rng::{CardRng, Seed};
        let mut rng = CardRng::new(&Seed::from_bytes([31; 32]), 0);
        let mut solver = Solver::new();
        for case in 0..60 {
            let each = 4 + case % 6;
            let mut deck = CardSet::ALL.to_vec();
            rng.shuffle(&mut deck);
            let mut hands = [CardSet::EMPTY; 4];
            for (seat, hand) in hands.iter_mut().enumerate() {
                *hand = deck[seat * each..(seat + 1) * each]
                    .iter()
                    .copied()
                    .collect();
            }
            let trump = Suit::ALL.get(case % 5).copied();
            let leader = Seat::new((case % 4) as u8);
            // Random legal plays; every third case plays only cards that keep the count.
            let (mut left, mut trick, mut to_act) = (hands, Vec::new(), leader);
            let mut plays = Vec::new();
            let mut won = [0u8; 2];
            while !left[to_act.index()].is_empty() {
                let position = Position {
                    hands: left,
                    trick: trick.clone(),
                    to_act,
                    trump,
                };
                let values = solver.card_tricks(&position).unwrap();
                let top = values.iter().map(|&(_, v)| v).max().unwrap();
                let choices: Vec<Card> = values
                    .iter()
                    .filter(|&&(_, v)| case % 3 != 0 || v == top)
                    .map(|&(c, _)| c)
                    .collect();
                let card = choices[rng.below(choices.len() as u32) as usize];
                plays.push(card);
                left[to_act.index()].remove(card);
                trick.push((to_act, card));
                if trick.len() == 4 {
                    to_act = winner(&trick, trump);
                    won[to_act.index() % 2] += 1;
                    trick.clear();
                } else {
                    to_act = to_act.next(4);
                }
            }
            let reviews = review(&mut solver, hands, leader, trump, &plays).unwrap();
            assert_eq!(reviews.len(), 4 * each);
            let total = each as u8;
            // North-South's count before each card, then after the last.
            let ns = |r: &PlayReview, v: u8| {
                if r.seat.index().is_multiple_of(2) {
                    v
                } else {
                    total - v
                }
            };
            for pair in reviews.windows(2) {
                assert_eq!(
                    ns(&pair[0], pair[0].played),
                    ns(&pair[1], pair[1].best),
                    "case {case}"
                );
            }
            for r in &reviews {
                assert!(r.played <= r.best && r.keeping.contains(&r.card) == (r.cost() == 0));
                if case % 3 == 0 {
                    assert_eq!(r.cost(), 0, "case {case}");
                }
            }
            let last = reviews.last().unwrap();
            assert_eq!(ns(last, last.played), won[0], "case {case}");
        }
    }

    #[test]
    fn the_right_line_costs_nothing_and_plays_that_are_not_legal_are_refused() {
        let mut solver = Solver::new();
        let right = ["AH", "3D", "5D", "6D", "2S", "4D", "AS", "7D"].map(card);
        let reviews = review(&mut solver, stranded(), Seat::new(0), None, &right).unwrap();
        assert!(reviews.iter().all(|r| r.cost() == 0), "{reviews:?}");
        assert_eq!(reviews[0].best, 2);
        // North-South's count after the first trick: one won, one to come.
        assert_eq!((reviews[4].seat, reviews[4].best), (Seat::new(0), 2));
        // A card not in the hand, and a revoke (East holds no spade; South must follow with
        // its spade, not discard the diamond).
        let not_held = ["KH"].map(card);
        assert_eq!(
            review(&mut solver, stranded(), Seat::new(0), None, &not_held),
            Err(ReviewError::IllegalPlay(0))
        );
        let revoke = ["2S", "3D", "5D"].map(card);
        assert_eq!(
            review(&mut solver, stranded(), Seat::new(0), None, &revoke),
            Err(ReviewError::IllegalPlay(2))
        );
        assert_eq!(
            review(&mut solver, stranded(), Seat::new(5), None, &right),
            Err(ReviewError::Position(PositionError::TrickOrder))
        );
        let mut uneven = stranded();
        uneven[1].remove(card("3D"));
        assert!(matches!(
            review(&mut solver, uneven, Seat::new(0), None, &right),
            Err(ReviewError::Position(_))
        ));
    }
}
