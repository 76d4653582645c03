//! Rummy's computer players, levels 1–10 and `greedy`. They see only a [`RummyView`].
//!
//! Every level plays the same plan — meld and lay off what it can, take the face-up card when
//! it joins a meld, throw the loose card that costs most — and the levels differ in how well
//! they plan and what they remember, as the original design had it:
//! - **planning**: from level 4 the best split of the hand into melds is searched exactly
//!   (fewest points left loose); below, melds are taken greedily, largest first;
//! - **memory**: level n remembers the last 4·n cards of the face-up pile (all of them from 8):
//!   a loose card whose partners have all gone past is thrown first, and a card is not waited
//!   for once it is gone;
//! - **watching**: from level 7 it avoids throwing cards the next player has shown interest in
//!   (cards near the ones they took face up);
//! - **blunders**: level n plays a random legal move with probability 0.04·(10 − n).
//!
//! `greedy` is the plan with greedy meld-taking and no memory, blunders or watching.

use crate::bots::ComputerPlayer;
use crate::card::{Card, Rank};
use crate::cardset::CardSet;
use crate::level::BotLevel;
use crate::rng::CardRng;

use super::meld::{self, Meld};
use super::moves::RummyMove;
use super::state::Rummy;
use super::value::hand_value;
use super::view::RummyView;

/// How a level plays.
#[derive(Clone, Copy, Debug)]
struct Skill {
    exact: bool,
    /// How many of the most recent face-up cards it remembers.
    memory: usize,
    watches: bool,
    blunder: f64,
}

impl Skill {
    fn of(level: BotLevel) -> Skill {
        match level {
            BotLevel::Level(n) => {
                let n = n.clamp(1, 10);
                Skill {
                    exact: n >= 4,
                    memory: if n >= 8 {
                        usize::MAX
                    } else {
                        4 * usize::from(n)
                    },
                    watches: n >= 7,
                    blunder: 0.04 * f64::from(10 - n),
                }
            }
            // The named levels sit on the numbered scale; `strong` is its top.
            BotLevel::Strong | BotLevel::Hard => Skill::of(BotLevel::Level(10)),
            BotLevel::Medium => Skill::of(BotLevel::Level(6)),
            BotLevel::Easy => Skill::of(BotLevel::Level(3)),
            BotLevel::Greedy | BotLevel::Random => Skill {
                exact: false,
                memory: 0,
                watches: false,
                blunder: 0.0,
            },
        }
    }
}

impl ComputerPlayer for Rummy {
    fn bot_move(view: &RummyView, level: BotLevel, rng: &mut CardRng) -> Option<RummyMove> {
        choose(view, level, rng)
    }
}

/// A computer player's move.
pub fn choose(view: &RummyView, level: BotLevel, rng: &mut CardRng) -> Option<RummyMove> {
    if level == BotLevel::Random {
        return rng.choose(&view.legal_moves).cloned();
    }
    let skill = Skill::of(level);
    if skill.blunder > 0.0 && f64::from(rng.below(10_000)) < skill.blunder * 10_000.0 {
        return rng.choose(&view.legal_moves).cloned();
    }
    let mv = plan(view, skill);
    mv.filter(|m| view.legal_moves.contains(m))
        .or_else(|| view.legal_moves.first().cloned())
}

/// The best split of `hand` into melds: the melds, and the points left loose.
fn split(view: &RummyView, hand: CardSet, exact: bool) -> (Vec<CardSet>, i32) {
    let options = meld::melds_in(hand, view.config.ace());
    // Which cards lay off depends on the table alone: asked once, not at every node.
    let playable = layable(view, hand);
    let loose = |cards: CardSet| hand_value(&view.config, cards - playable);
    if !exact {
        let mut left = hand;
        let mut chosen = Vec::new();
        let mut sorted = options;
        sorted.sort_by_key(|m| std::cmp::Reverse(m.len()));
        for m in sorted {
            if m.is_subset(left) {
                left -= m;
                chosen.push(m);
            }
        }
        return (chosen, loose(left));
    }
    let mut best = (Vec::new(), loose(hand));
    let mut current = Vec::new();
    search(view, hand, playable, &options, 0, &mut current, &mut best);
    best
}

fn search(
    view: &RummyView,
    left: CardSet,
    playable: CardSet,
    options: &[CardSet],
    from: usize,
    current: &mut Vec<CardSet>,
    best: &mut (Vec<CardSet>, i32),
) {
    let value = hand_value(&view.config, left - playable);
    if value < best.1 {
        *best = (current.clone(), value);
    }
    for (i, m) in options.iter().enumerate().skip(from) {
        if m.is_subset(left) {
            current.push(*m);
            search(view, left - *m, playable, options, i + 1, current, best);
            current.pop();
        }
    }
}

/// The cards of `cards` that lay off onto the table.
fn layable(view: &RummyView, cards: CardSet) -> CardSet {
    if view.melds.is_empty() {
        return CardSet::EMPTY;
    }
    cards
        .iter()
        .filter(|&c| lays_off(view, c).is_some())
        .collect()
}

/// A table meld `card` can be laid off on, alone.
fn lays_off(view: &RummyView, card: Card) -> Option<&Meld> {
    view.melds
        .iter()
        .find(|m| meld::extend(m, CardSet::single(card), view.config.ace()).is_ok())
}

/// Cards this player remembers having gone past (its memory of the face-up pile), plus what is
/// on the table now.
fn gone(view: &RummyView, skill: Skill) -> CardSet {
    let remembered = view.discards.len().min(skill.memory);
    let recent: CardSet = view.discards[view.discards.len() - remembered..]
        .iter()
        .collect();
    let melded: CardSet = view.melds.iter().flat_map(|m| m.cards.iter()).collect();
    recent | melded
}

/// How much a loose card could still become: partners of the same rank or neighbours in its
/// suit, held or not yet gone. Higher is more worth keeping.
fn promise(card: Card, hand: CardSet, gone: CardSet) -> i32 {
    let rank = card.rank().number();
    let mut score = 0;
    for other in CardSet::rank(card.rank()) - CardSet::single(card) {
        score += if hand.contains(other) {
            3
        } else if gone.contains(other) {
            0
        } else {
            1
        };
    }
    for delta in [-2i8, -1, 1, 2] {
        let n = i16::from(rank) + i16::from(delta);
        let Some(r) = u8::try_from(n).ok().and_then(Rank::from_number) else {
            continue;
        };
        let other = Card::new(r, card.suit());
        let weight = if delta.abs() == 1 { 2 } else { 1 };
        score += weight
            * if hand.contains(other) {
                2
            } else if gone.contains(other) {
                0
            } else {
                1
            };
    }
    score
}

/// Cards the next player has shown interest in: the ranks and near neighbours of the cards
/// they took face up.
fn wanted_by_next(view: &RummyView) -> CardSet {
    let Some(me) = view.seat else {
        return CardSet::EMPTY;
    };
    let n = view.players.len();
    let next = (me.index() + 1) % n.max(1);
    let Some(player) = view.players.get(next) else {
        return CardSet::EMPTY;
    };
    let mut wanted = CardSet::EMPTY;
    for card in player.known {
        wanted |= CardSet::rank(card.rank());
        for delta in [-2i16, -1, 1, 2] {
            if let Some(r) = u8::try_from(i16::from(card.rank().number()) + delta)
                .ok()
                .and_then(Rank::from_number)
            {
                wanted.insert(Card::new(r, card.suit()));
            }
        }
    }
    wanted
}

/// The loose card to part with: not in a planned meld, not `keep`; the most points, least
/// promise, and (when watching) not one the next player wants.
fn worst_card(view: &RummyView, hand: CardSet, keep: Option<Card>, skill: Skill) -> Option<Card> {
    let (melds, _) = split(view, hand, skill.exact);
    let melded: CardSet = melds.iter().fold(CardSet::EMPTY, |a, m| a | *m);
    let gone = gone(view, skill);
    let wanted = if skill.watches {
        wanted_by_next(view)
    } else {
        CardSet::EMPTY
    };
    let kept = keep.map(CardSet::single).unwrap_or_default();
    let loose = hand - melded - kept;
    let candidates = if loose.is_empty() { hand - kept } else { loose };
    candidates.iter().max_by_key(|&c| {
        let value = hand_value(&view.config, CardSet::single(c));
        (
            !wanted.contains(c),
            lays_off(view, c).is_none(),
            value * 4 - promise(c, hand, gone),
        )
    })
}

fn plan(view: &RummyView, skill: Skill) -> Option<RummyMove> {
    let hand = view.hand;
    match view.step.as_str() {
        "draw" => Some(draw_or_take(view, skill)),
        "play" => Some(next_meld(view, skill, view.taken).or_else(|| {
            worst_card(view, hand, view.taken, skill).map(|card| RummyMove::Discard { card })
        })?),
        "meld_or_exchange" => next_meld(view, skill, None).or_else(|| Some(exchange(view, skill))),
        "keep_or_pass" => {
            let card = view.turned?;
            let (_, now) = split(view, hand, skill.exact);
            let with = hand | CardSet::single(card);
            let drop = worst_card(view, with, Some(card), skill)?;
            let (_, after) = split(view, with - CardSet::single(drop), skill.exact);
            if after < now {
                Some(RummyMove::Keep { drop })
            } else {
                Some(RummyMove::PassDrawn {})
            }
        }
        "meld_or_end" => next_meld(view, skill, None).or(Some(RummyMove::EndTurn {})),
        _ => None,
    }
}

/// The next meld or lay-off of the plan, if it leaves a playable hand.
fn next_meld(view: &RummyView, skill: Skill, taken: Option<Card>) -> Option<RummyMove> {
    let hand = view.hand;
    let (melds, _) = split(view, hand, skill.exact);
    let allowed = |cards: CardSet| {
        let left = hand - cards;
        !(taken.is_some() && left == taken.map(CardSet::single).unwrap_or_default())
    };
    if let Some(cards) = melds.into_iter().find(|m| allowed(*m)) {
        return Some(RummyMove::Meld { cards });
    }
    hand.iter()
        .filter(|&c| allowed(CardSet::single(c)))
        .find_map(|c| {
            lays_off(view, c).map(|m| RummyMove::LayOff {
                meld: m.id,
                cards: CardSet::single(c),
            })
        })
}

/// `standard`: take the face-up card when it joins a meld (or lays off), otherwise draw.
fn draw_or_take(view: &RummyView, skill: Skill) -> RummyMove {
    let Some(top) = view.discard_top else {
        return RummyMove::DrawStock {};
    };
    if view.stock == 0 || joins_a_meld(view, view.hand, top, skill) {
        RummyMove::TakeDiscard { drop: None }
    } else {
        RummyMove::DrawStock {}
    }
}

/// Whether `card` would be part of a meld (or lay off onto the table) with `hand`.
fn joins_a_meld(view: &RummyView, hand: CardSet, card: Card, skill: Skill) -> bool {
    let (melds, _) = split(view, hand | CardSet::single(card), skill.exact);
    melds.iter().any(|m| m.contains(card)) || lays_off(view, card).is_some()
}

/// `classic` step 2: exchange with the face-up card when that improves the hand at least as much
/// as the face-down card would on average; otherwise turn one over.
fn exchange(view: &RummyView, skill: Skill) -> RummyMove {
    let hand = view.hand;
    let (_, now) = split(view, hand, skill.exact);
    let take = view.discard_top.and_then(|top| {
        let with = hand | CardSet::single(top);
        let drop = worst_card(view, with, Some(top), skill)?;
        let (_, after) = split(view, with - CardSet::single(drop), skill.exact);
        Some((drop, after))
    });
    let unseen =
        !(hand | gone(view, skill) | view.players.iter().fold(CardSet::EMPTY, |a, p| a | p.known));
    let expected = if unseen.is_empty() || view.stock == 0 {
        f64::from(now)
    } else {
        let total: i32 = unseen
            .iter()
            .map(|card| {
                let with = hand | CardSet::single(card);
                worst_card(view, with, Some(card), skill)
                    .map(|drop| {
                        split(view, with - CardSet::single(drop), skill.exact)
                            .1
                            .min(now)
                    })
                    .unwrap_or(now)
            })
            .sum();
        f64::from(total) / unseen.len() as f64
    };
    // Only a real improvement: swapping cards back and forth through the face-up pile would
    // never end the round (only turning cards over uses up the stock).
    match take {
        Some((drop, after)) if view.stock == 0 || (after < now && f64::from(after) <= expected) => {
            RummyMove::TakeDiscard { drop: Some(drop) }
        }
        _ => RummyMove::DrawStock {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_levels_get_stronger_in_every_respect() {
        let skills: Vec<Skill> = (1..=10).map(|n| Skill::of(BotLevel::Level(n))).collect();
        for pair in skills.windows(2) {
            assert!(pair[1].blunder < pair[0].blunder);
            assert!(pair[1].memory >= pair[0].memory);
            assert!(pair[1].exact >= pair[0].exact);
        }
        assert_eq!(skills[9].blunder, 0.0);
        assert!(skills[9].watches && !skills[0].watches);
    }
}
