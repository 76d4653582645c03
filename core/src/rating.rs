//! Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012): a rating, its
//! deviation (how unsure it is) and its volatility (how erratic the player is), updated once a
//! rating period from that period's results.
//!
//! Pure arithmetic: who counts as whose opponent in a game of several seats or partnerships,
//! and how long a period is, are the service's choice.

/// A player's rating on the familiar scale (a new player: 1500 ± 350, volatility 0.06).
#[derive(Clone, Copy, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct Rating {
    pub rating: f64,
    /// The rating deviation: about 95% sure the strength is within twice this of `rating`.
    pub deviation: f64,
    pub volatility: f64,
}

/// The deviation of a new player, and the most any rating's deviation may grow to.
pub const NEW_DEVIATION: f64 = 350.0;

/// The system constant τ: how much volatility may change in a period (Glickman suggests 0.3 to
/// 1.2; smaller for games where luck weighs more, as at cards).
pub const TAU: f64 = 0.5;

/// The Glicko-2 scale factor between the familiar scale and the internal one.
const SCALE: f64 = 173.7178;

/// When the volatility iteration stops.
const EPSILON: f64 = 0.000_001;

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: 1500.0,
            deviation: NEW_DEVIATION,
            volatility: 0.06,
        }
    }
}

/// One result of a rating period: the opponent's rating before the period, and the score
/// (1 a win, 0.5 a draw, 0 a loss).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Played {
    pub opponent: Rating,
    pub score: f64,
}

impl Rating {
    /// The rating after a period with `results` (none: only the deviation grows, as the player
    /// was not seen), with the system constant `tau`.
    pub fn after(self, results: &[Played], tau: f64) -> Rating {
        // Step 2: to the internal scale.
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if results.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return Rating {
                deviation: (phi_star * SCALE).min(NEW_DEVIATION),
                ..self
            };
        }
        // Steps 3 and 4: the estimated variance from the results, and the improvement.
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for result in results {
            let mu_j = (result.opponent.rating - 1500.0) / SCALE;
            let phi_j = result.opponent.deviation / SCALE;
            let g = g(phi_j);
            let e = expected(mu, mu_j, phi_j);
            inverse_v += g * g * e * (1.0 - e);
            sum += g * (result.score.clamp(0.0, 1.0) - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        // Step 5: the new volatility (the Illinois algorithm).
        let sigma = new_volatility(phi, sigma, v, delta, tau);
        // Steps 6 to 8: the new deviation and rating, back on the familiar scale.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = mu + phi * phi * sum;
        Rating {
            rating: SCALE * mu + 1500.0,
            deviation: (SCALE * phi).min(NEW_DEVIATION),
            volatility: sigma,
        }
    }
}

/// The score of one side against an opposing side in a finished game, from which of them won:
/// a win 1, a loss 0, both among the winners (a shared win) 0.5; `None` when neither won, as
/// the game does not rank the sides it did not crown.
pub fn pair_score(won: bool, opponent_won: bool) -> Option<f64> {
    match (won, opponent_won) {
        (true, false) => Some(1.0),
        (false, true) => Some(0.0),
        (true, true) => Some(0.5),
        (false, false) => None,
    }
}

/// The fixed rating a computer-player level stands for on the scale of ratings against
/// computers: anchors, not estimates, so the scale does not drift. `easy` is 1200, `medium`
/// 1500, `hard` 1800 (their kin `greedy` and `strong` as `easy` and `medium`), `random` 800,
/// numbered levels 1000 + 100 a step; each ±50.
pub fn computer_rating(level: crate::BotLevel) -> Rating {
    use crate::level::BotLevel;
    let rating = match level {
        BotLevel::Random => 800.0,
        BotLevel::Easy | BotLevel::Greedy => 1200.0,
        BotLevel::Medium | BotLevel::Strong => 1500.0,
        BotLevel::Hard => 1800.0,
        BotLevel::Level(n) => 1000.0 + 100.0 * f64::from(n.clamp(1, 10)),
    };
    Rating {
        rating,
        deviation: 50.0,
        volatility: 0.06,
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < 1000.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    for _ in 0..100 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    fn close(a: f64, b: f64, within: f64) -> bool {
        (a - b).abs() <= within
    }

    /// Glickman's worked example, to the decimals the paper gives.
    #[test]
    fn the_worked_example_of_the_glicko2_paper() {
        let player = rating(1500.0, 200.0);
        let results = [
            Played {
                opponent: rating(1400.0, 30.0),
                score: 1.0,
            },
            Played {
                opponent: rating(1550.0, 100.0),
                score: 0.0,
            },
            Played {
                opponent: rating(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let after = player.after(&results, 0.5);
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation_up_to_a_new_players() {
        let player = rating(1500.0, 200.0);
        let after = player.after(&[], TAU);
        // φ* = √(φ² + σ²) on the internal scale.
        assert!(close(after.deviation, 200.27, 0.01), "{after:?}");
        assert_eq!(after.rating, player.rating);
        assert_eq!(after.volatility, player.volatility);
        assert_eq!(Rating::default().after(&[], TAU).deviation, NEW_DEVIATION);
    }

    #[test]
    fn equal_players_move_apart_by_the_same_amount_and_a_draw_moves_neither() {
        let a = Rating::default();
        let b = Rating::default();
        let winner = a.after(
            &[Played {
                opponent: b,
                score: 1.0,
            }],
            TAU,
        );
        let loser = b.after(
            &[Played {
                opponent: a,
                score: 0.0,
            }],
            TAU,
        );
        assert!(winner.rating > 1500.0 && loser.rating < 1500.0);
        assert!(close(winner.rating - 1500.0, 1500.0 - loser.rating, 1e-9));
        assert!(winner.deviation < NEW_DEVIATION);
        let drawn = a.after(
            &[Played {
                opponent: b,
                score: 0.5,
            }],
            TAU,
        );
        assert!(close(drawn.rating, 1500.0, 1e-9));
    }

    #[test]
    fn sides_score_by_who_won_and_uncrowned_pairs_do_not_count() {
        assert_eq!(pair_score(true, false), Some(1.0));
        assert_eq!(pair_score(false, true), Some(0.0));
        assert_eq!(pair_score(true, true), Some(0.5));
        assert_eq!(pair_score(false, false), None);
    }

    #[test]
    fn computer_levels_are_anchored_in_order_of_strength() {
        use crate::level::BotLevel;
        let r = |l| computer_rating(l).rating;
        assert!(r(BotLevel::Random) < r(BotLevel::Easy));
        assert!(r(BotLevel::Easy) < r(BotLevel::Medium));
        assert!(r(BotLevel::Medium) < r(BotLevel::Hard));
        assert!(r(BotLevel::Level(1)) < r(BotLevel::Level(10)));
        assert_eq!(r(BotLevel::Level(5)), 1500.0);
    }

    #[test]
    fn beating_a_stronger_player_gains_more_than_beating_a_weaker_one() {
        let player = rating(1500.0, 100.0);
        let up = player.after(
            &[Played {
                opponent: rating(1700.0, 100.0),
                score: 1.0,
            }],
            TAU,
        );
        let down = player.after(
            &[Played {
                opponent: rating(1300.0, 100.0),
                score: 1.0,
            }],
            TAU,
        );
        assert!(up.rating - 1500.0 > down.rating - 1500.0, "{up:?} {down:?}");
        assert!(down.rating > 1500.0);
    }
}
