use super::*;
use crate::bots::{Automatic, Controller};
use crate::card::{Card, Suit, parse_cards};
use crate::cardset::CardSet;
use crate::game::Game;
use crate::games::tarneeb::auction::{Bid, Contract};
use crate::games::tarneeb::{Tarneeb, TarneebMove, TarneebPosition};
use crate::level::BotLevel;
use crate::options::Options;
use crate::rng::{CardRng, Seed};
use crate::seat::Viewer;
use crate::table::{Setup, Status};

fn cards(text: &str) -> CardSet {
    parse_cards(text)
        .expect("cards")
        .into_iter()
        .collect::<CardSet>()
}

/// Plays `game` with `controllers` for at most `moves` moves (dealing as needed), showing the
/// analyst each move before it is made. Returns the analysis and the game where it stopped.
fn play_and_analyse(mut game: AnyGame, controllers: &[Controller], moves: usize) -> Analysis {
    let mut analyst = Analyst::new(&game);
    let mut version = 0i64;
    while game.status() != Status::Finished && version < moves as i64 {
        version += 1;
        if game.status() == Status::HandOver {
            game.deal_next().expect("deal");
            continue;
        }
        let Some(Automatic::Move(seat, mv)) = game.next_automatic(controllers) else {
            panic!("a computer seat gave no move");
        };
        analyst.observe(&game, version, seat, &mv).expect("observe");
        game.play(seat, &mv).expect("a legal move");
    }
    analyst.finish().expect("finish")
}

/// The declarer holds twelve top trumps and the ♥A; the only other trump, the ♠2, sits with a
/// seat void in hearts. Any spade first takes all thirteen tricks; the ♥A first is ruffed.
fn heart_into_a_ruff() -> AnyGame {
    let hands = vec![
        cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AH"),
        cards("2S AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C"),
        cards("KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H 2C"),
        cards("AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D"),
    ];
    let config = Tarneeb::configure(None, 4, &Options::new()).expect("config");
    let position = TarneebPosition {
        dealer: Seat::new(3),
        hands,
        contract: Some(Contract {
            declarer: Seat::new(0),
            bid: Bid {
                tricks: 13,
                suit: None,
            },
        }),
        trump: Some(Suit::Spades),
        totals: Vec::new(),
    };
    let game = Tarneeb::from_position(config, position, Seed::from_bytes([7; 32])).expect("game");
    AnyGame::Tarneeb(game)
}

#[test]
fn a_heart_led_into_a_ruff_costs_a_trick_that_any_spade_kept() {
    let mut game = heart_into_a_ruff();
    let mut analyst = Analyst::new(&game);
    let mut version = 0usize;
    while game.status() == Status::Active {
        let seat = game.to_act().expect("a seat to act");
        // The mistake first, and the ruff; then every seat plays its first legal card.
        let mv = match version {
            0 | 1 => AnyMove::Tarneeb(TarneebMove::Play {
                card: ["AH", "2S"][version].parse::<Card>().expect("card"),
            }),
            _ => game.legal_moves(seat)[0].clone(),
        };
        version += 1;
        analyst
            .observe(&game, version as i64, seat, &mv)
            .expect("observe");
        game.play(seat, &mv).expect("legal");
    }
    let analysis = analyst.finish().expect("analysis");
    assert_eq!(analysis.method, Method::DoubleDummy);
    let bad: Vec<&Decision> = analysis
        .decisions
        .iter()
        .filter(|d| d.grade != Grade::Good)
        .collect();
    assert_eq!(bad.len(), 1, "{bad:?}");
    let first = bad[0];
    assert_eq!(
        (first.version, first.seat, first.loss),
        (1, Seat::new(0), 1.0)
    );
    assert_eq!((first.best_value, first.played_value), (13.0, 12.0));
    assert_eq!(first.grade, Grade::Mistake);
    let spades: Vec<AnyMove> = cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S")
        .iter()
        .map(|card| AnyMove::Tarneeb(TarneebMove::Play { card }))
        .collect();
    assert_eq!(first.best.len(), spades.len());
    assert!(
        first.best.iter().all(|m| spades.contains(m)),
        "{:?}",
        first.best
    );

    let [hand] = analysis.hands.as_slice() else {
        panic!("one hand: {:?}", analysis.hands);
    };
    assert_eq!((hand.makeable, hand.taken, hand.cards), (13, 12, 52));
    assert_eq!(hand.tricks_lost, vec![1, 0, 0, 0]);
    let par = hand.par.as_ref().expect("a par");
    assert_eq!((par.declarer, par.bid.tricks), (Seat::new(0), 13));
    // The first trump with which seat 0 takes all thirteen: hearts (at clubs seat 1 ruffs the
    // ♥A; at diamonds seat 3 ruffs everything).
    assert_eq!(par.trump, Some(Suit::Hearts));
    assert_eq!(par.score, 26);

    let declarer = &analysis.players[0];
    assert_eq!((declarer.mistakes, declarer.loss), (1, 1.0));
    assert!(declarer.decisions > 1 && declarer.accuracy < 100.0);
    assert!(analysis.players[1..].iter().all(|p| p.loss == 0.0));
}

/// Whole Tarneeb hands played by computer players of two strengths, in both variants: the
/// tricks each side lost by play account exactly for the difference between what the
/// declaring side could make and what it took.
#[test]
fn tarneeb_losses_account_for_every_trick_between_makeable_and_taken() {
    for variant in ["standard", "classic"] {
        for g in 0..3u8 {
            let setup = Setup::seeded(Seed::from_bytes([g * 17 + 3; 32]));
            let (game, _) =
                AnyGame::create(GameKind::Tarneeb, Some(variant), 4, &Options::new(), &setup)
                    .expect("game");
            let controllers = [
                Controller::Computer(BotLevel::Easy),
                Controller::Computer(BotLevel::Random),
                Controller::Computer(BotLevel::Easy),
                Controller::Computer(BotLevel::Random),
            ];
            let analysis = play_and_analyse(game, &controllers, 60);
            assert!(!analysis.hands.is_empty(), "{variant} {g}: no hand played");
            for hand in &analysis.hands {
                let declaring = hand.contract.expect("a contract").declarer.index() % 2;
                let lost = |side: usize| -> i32 {
                    hand.tricks_lost
                        .iter()
                        .enumerate()
                        .filter(|&(s, _)| s % 2 == side)
                        .map(|(_, &l)| i32::from(l))
                        .sum()
                };
                if hand.cards == 52 {
                    assert_eq!(
                        i32::from(hand.makeable) - lost(declaring) + lost(1 - declaring),
                        i32::from(hand.taken),
                        "{variant} {g}: {hand:?}"
                    );
                }
                if let Some(par) = &hand.par {
                    assert!(par.bid.tricks >= 7);
                    assert_eq!(par.bid.suit.is_some(), variant == "classic");
                }
            }
            for decision in &analysis.decisions {
                assert_eq!(decision.loss, decision.best_value - decision.played_value);
                assert_eq!(decision.loss == 0.0, decision.grade == Grade::Good);
            }
        }
    }
}

/// Every kind but Tarneeb, in every variant: each decision is judged from the seat's view
/// alone (the same judgement from a state whose hidden cards were dealt again), the same on a
/// second run, and its grade follows its loss.
#[test]
fn hidden_card_decisions_are_judged_from_the_seats_view_alone() {
    let kinds = [
        (GameKind::Basra, vec!["standard", "classic44", "cse231"], 2),
        (GameKind::ThirtyOne, vec!["standard", "classic"], 2),
        (GameKind::Rummy, vec!["standard", "classic"], 2),
    ];
    let mut judged = 0;
    for (kind, variants, seats) in kinds {
        for variant in variants {
            let setup = Setup::seeded(Seed::from_bytes([kind as u8 + 40; 32]));
            let (mut game, _) =
                AnyGame::create(kind, Some(variant), seats, &Options::new(), &setup).expect("game");
            let controllers = vec![Controller::Computer(BotLevel::Random); seats];
            let mut rng = CardRng::new(&Seed::from_bytes([5; 32]), 1);
            let scale = GradeScale::of(kind);
            let mut seen = 0;
            while game.status() == Status::Active && seen < 12 {
                let Some(Automatic::Move(seat, mv)) = game.next_automatic(&controllers) else {
                    panic!("no move");
                };
                let decision = sampled::judge(&game, 1, seat, &mv).expect("judge");
                if let Some(decision) = &decision {
                    seen += 1;
                    let mut redealt = game.clone();
                    redealt.shuffle_hidden(Viewer::Seat(seat), &mut rng);
                    let again = sampled::judge(&redealt, 1, seat, &mv).expect("judge");
                    assert_eq!(again.as_ref(), Some(decision), "{kind} {variant}");
                    assert_eq!(
                        sampled::judge(&game, 1, seat, &mv).expect("judge").as_ref(),
                        Some(decision)
                    );
                    holds_together(decision, scale);
                } else {
                    assert!(game.legal_moves(seat).len() < 2, "{kind} {variant}: {mv:?}");
                }
                game.play(seat, &mv).expect("legal");
            }
            assert!(seen > 0, "{kind} {variant}: no decision judged");
            judged += seen;
        }
    }
    assert!(judged >= 40, "{judged}");
}

/// What every sampled decision says of itself: the best is valued at least as high as the move
/// played, the loss is their difference and lies in its interval, the deals are whole batches
/// within the most allowed, and the grade follows from the interval and the loss.
fn holds_together(d: &Decision, scale: GradeScale) {
    assert!(d.best_value >= d.played_value, "{d:?}");
    assert!(d.loss >= 0.0, "{d:?}");
    assert!(
        (d.loss - (d.best_value - d.played_value)).abs() < 0.011,
        "{d:?}"
    );
    assert!(
        (d.samples as usize).is_multiple_of(BATCH) && (d.samples as usize) <= MAX_SAMPLES,
        "{d:?}"
    );
    assert!(
        d.samples > 0 && d.best_error >= 0.0 && d.played_error >= 0.0,
        "{d:?}"
    );
    assert!(!d.best.is_empty(), "{d:?}");
    if d.best.contains(&d.played) {
        assert_eq!(
            (d.loss, d.grade, d.within_noise),
            (0.0, Grade::Good, false),
            "{d:?}"
        );
    } else {
        assert!(
            d.loss_low <= d.loss + 0.011 && d.loss <= d.loss_high + 0.011,
            "{d:?}"
        );
        assert_eq!(d.within_noise, d.loss_low == 0.0, "{d:?}");
        let expected = if d.within_noise {
            Grade::Good
        } else {
            scale.grade(d.loss)
        };
        assert_eq!(d.grade, expected, "{d:?}");
    }
}

/// Over whole games of every hidden-card variant, at every seat and level: no decision names a
/// best that its own numbers rank below the move played, and a value stays on its game's scale
/// (31: a hand moves a seat's lives, less another's, by at most two).
#[test]
fn the_best_is_never_valued_below_the_move_played() {
    let variants = [
        (GameKind::Basra, "standard", 2),
        (GameKind::Basra, "classic44", 2),
        (GameKind::Basra, "cse231", 2),
        (GameKind::Basra, "standard", 4),
        (GameKind::ThirtyOne, "standard", 4),
        (GameKind::ThirtyOne, "classic", 2),
        (GameKind::Rummy, "standard", 3),
        (GameKind::Rummy, "classic", 2),
    ];
    for (i, (kind, variant, seats)) in variants.into_iter().enumerate() {
        let setup = Setup::seeded(Seed::from_bytes([i as u8 + 60; 32]));
        let (game, _) =
            AnyGame::create(kind, Some(variant), seats, &Options::new(), &setup).expect("game");
        let levels = [
            BotLevel::Random,
            BotLevel::Easy,
            BotLevel::Medium,
            BotLevel::Hard,
        ];
        let controllers: Vec<Controller> = (0..seats)
            .map(|s| Controller::Computer(levels[(s + i) % levels.len()]))
            .collect();
        let analysis = play_and_analyse(game, &controllers, 60);
        assert!(!analysis.decisions.is_empty(), "{kind} {variant}");
        let scale = GradeScale::of(kind);
        for d in &analysis.decisions {
            holds_together(d, scale);
            if kind == GameKind::ThirtyOne {
                assert!(
                    d.best_value.abs() <= 2.0 && d.played_value.abs() <= 2.0,
                    "{d:?}"
                );
            }
        }
        let unit = match (kind, variant) {
            (GameKind::ThirtyOne, "classic") => Unit::Tokens,
            (GameKind::ThirtyOne, _) => Unit::Lives,
            _ => Unit::Points,
        };
        assert_eq!((analysis.unit, analysis.confidence), (unit, CONFIDENCE));
        let total: u32 = analysis.players.iter().map(|p| p.decisions).sum();
        assert_eq!(total as usize, analysis.decisions.len());
    }
}

/// The deals the analysis samples are consistent with everything the seat has seen: the seat's
/// view of a dealt world is its view of the real game, field for field (its hand, the floor or
/// the piles, every card known to be in another hand, the melds, the counts), over random games
/// of every hidden-card variant, at every decision of every seat. And every legal move of the
/// view can be played in the dealt world.
#[test]
fn sampled_deals_agree_with_everything_the_seat_has_seen() {
    fn check<G: crate::search::Determinize>(game: &G, seat: Seat, rng: &mut CardRng) -> usize {
        let view = game.view(Viewer::Seat(seat));
        let expected = serde_json::to_value(&view).expect("view");
        let mut dealt = 0;
        for _ in 0..3 {
            let seed = crate::search::drawn_seed(rng);
            let Some(world) = G::determinize(&view, seed, rng) else {
                panic!("no deal from {expected}");
            };
            let seen = serde_json::to_value(world.view(Viewer::Seat(seat))).expect("view");
            assert_eq!(seen, expected);
            for mv in crate::game::PlayerView::legal_moves(&view) {
                assert!(world.clone().play(seat, mv).is_ok(), "{mv:?} in {expected}");
            }
            dealt += 1;
        }
        dealt
    }
    let variants = [
        (GameKind::Basra, "standard", 2),
        (GameKind::Basra, "standard", 4),
        (GameKind::Basra, "classic44", 2),
        (GameKind::Basra, "cse231", 2),
        (GameKind::ThirtyOne, "standard", 3),
        (GameKind::ThirtyOne, "classic", 2),
        (GameKind::Rummy, "standard", 2),
        (GameKind::Rummy, "standard", 4),
        (GameKind::Rummy, "classic", 3),
    ];
    let mut rng = CardRng::new(&Seed::from_bytes([77; 32]), 0);
    for (i, (kind, variant, seats)) in variants.into_iter().enumerate() {
        for g in 0..4u8 {
            let setup = Setup::seeded(Seed::from_bytes([i as u8 * 8 + g + 100; 32]));
            let (mut game, _) =
                AnyGame::create(kind, Some(variant), seats, &Options::new(), &setup).expect("game");
            let controllers = vec![Controller::Computer(BotLevel::Easy); seats];
            let mut checked = 0;
            for _ in 0..400 {
                match game.status() {
                    Status::Finished => break,
                    Status::HandOver => {
                        game.deal_next().expect("deal");
                        continue;
                    }
                    _ => {}
                }
                let Some(Automatic::Move(seat, mv)) = game.next_automatic(&controllers) else {
                    panic!("no move");
                };
                checked += match &game {
                    AnyGame::Basra(g) => check(g, seat, &mut rng),
                    AnyGame::ThirtyOne(g) => check(g, seat, &mut rng),
                    AnyGame::Rummy(g) => check(g, seat, &mut rng),
                    AnyGame::Tarneeb(_) => 0,
                };
                game.play(seat, &mv).expect("legal");
            }
            assert!(checked > 30, "{kind} {variant}: {checked}");
        }
    }
}
