//! Duplicate scoring: every table plays the same boards (deals from the tournament's seed and
//! the board's number), and a result is scored only against the results of the same board
//! from the same seat.
//!
//! - **Matchpoints** (pairs and individuals): on a board, a result earns 2 for each result of the
//!   same seat it beats and 1 for each it ties; its score is that as a percentage of the top
//!   (2 for each other result). A board played once is worth 50%. A session's score is the
//!   average over the boards played.
//! - **Team match** (Tarneeb's partnerships): a team's pair sits North–South at one table and
//!   its other pair East–West at the other, on the same boards; a board's result for the team is
//!   the sum of its two pairs' scores on it minus the other team's, in game points — raw, since
//!   Tarneeb's scores are a few tricks, not bridge's hundreds (no IMP scale).

/// The matchpoint percentage of each result of one board from one seat (higher scores better).
pub fn matchpoints(results: &[i64]) -> Vec<f64> {
    let n = results.len();
    if n <= 1 {
        return vec![50.0; n];
    }
    let top = 2.0 * (n - 1) as f64;
    results
        .iter()
        .map(|&mine| {
            let earned: usize = results
                .iter()
                .map(|&other| match mine.cmp(&other) {
                    std::cmp::Ordering::Greater => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 0,
                })
                .sum::<usize>()
                // (Not against itself: a tie with itself earned 1.)
                - 1;
            100.0 * earned as f64 / top
        })
        .collect()
}

/// A session's score: the average of its boards' percentages (none played: 0).
pub fn session(percentages: &[f64]) -> f64 {
    if percentages.is_empty() {
        0.0
    } else {
        percentages.iter().sum::<f64>() / percentages.len() as f64
    }
}

/// A team match's board: team A's score at the table where it sits North–South plus its score
/// at the other, minus team B's two scores, in game points.
pub fn team_board(
    a_north_south: i64,
    a_east_west: i64,
    b_north_south: i64,
    b_east_west: i64,
) -> i64 {
    a_north_south + a_east_west - b_north_south - b_east_west
}
