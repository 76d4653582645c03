//! The calibration set: positions built by hand whose best move the rules settle, in Basra, 31
//! and Rummy. The sampled analysis must name the known best in every one, grade the position's
//! worst move a mistake or a blunder, and value the best move alike from ten different seeds
//! (a spread of at most a tenth of the mistake threshold).
//!
//! Every position puts the cards that play no part where the seat to act can see them (capture
//! piles, the discard pile), so its known best does not rest on guesses about hidden cards.

mod basra;
mod rummy;
mod thirty_one;

use super::sampled;
use super::*;
use crate::card::{Card, parse_cards};
use crate::cardset::CardSet;

pub(super) fn list(text: &str) -> Vec<Card> {
    parse_cards(text).expect("cards")
}

pub(super) fn set(text: &str) -> CardSet {
    list(text).into_iter().collect()
}

/// One calibration position: the game (from a seed, which only the analysis reads), the seat to
/// act, its known best move and its worst.
pub(super) struct Case {
    pub name: &'static str,
    pub game: fn(u8) -> AnyGame,
    pub best: AnyMove,
    pub worst: AnyMove,
}

fn all_cases() -> Vec<Case> {
    let mut cases = basra::cases();
    cases.extend(thirty_one::cases());
    cases.extend(rummy::cases());
    cases
}

fn judge(case: &Case, game: &AnyGame, mv: &AnyMove) -> Decision {
    match sampled::judge(game, 1, Seat::new(0), mv) {
        Ok(Some(decision)) => decision,
        other => panic!("{}: {mv:?} is no decision: {other:?}", case.name),
    }
}

/// The set is large enough and spans the three games.
#[test]
fn the_calibration_set_holds_thirty_positions_across_the_three_games() {
    let cases = all_cases();
    assert!(cases.len() >= 30, "{}", cases.len());
    for kind in [GameKind::Basra, GameKind::ThirtyOne, GameKind::Rummy] {
        assert!(
            cases.iter().filter(|c| (c.game)(0).kind() == kind).count() >= 9,
            "{kind}"
        );
    }
}

/// The known best is named and loses nothing; the worst move is a mistake or a blunder, with
/// the known best named against it.
#[test]
fn the_analysis_names_the_known_best_and_grades_the_worst_move_a_mistake() {
    for case in all_cases() {
        let game = (case.game)(1);
        let scale = GradeScale::of(game.kind());
        let best = judge(&case, &game, &case.best);
        assert!(
            best.best.contains(&best.played) && best.loss == 0.0 && best.grade == Grade::Good,
            "{}: {best:?}",
            case.name
        );
        let worst = judge(&case, &game, &case.worst);
        assert!(
            worst.best.contains(&best.played),
            "{}: the best against the worst: {worst:?}",
            case.name
        );
        assert!(
            worst.grade >= Grade::Mistake && worst.loss >= scale.mistake,
            "{}: {worst:?}",
            case.name
        );
    }
}

/// The same position from ten seeds: the known best's value spreads (as a standard deviation)
/// by at most a tenth of the mistake threshold.
#[test]
fn the_known_best_is_valued_alike_from_ten_seeds() {
    for case in all_cases() {
        let values: Vec<f64> = (10..20)
            .map(|seed| judge(&case, &(case.game)(seed), &case.best).best_value)
            .collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>()
            / (values.len() - 1) as f64)
            .sqrt();
        let limit = GradeScale::of((case.game)(0).kind()).mistake / 10.0;
        assert!(
            sd <= limit,
            "{}: {values:?} spread {sd:.3} > {limit}",
            case.name
        );
    }
}
