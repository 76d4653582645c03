//! `cardroom arena`: duplicate matches between two computer-player levels, from the command
//! line. The measuring is done by [`cardroom_core::arena`]; this parses the arguments and
//! prints the report.

use std::fmt::Write as _;
use std::str::FromStr;

use cardroom_core::arena::{self, ArenaReport, ArenaSpec, ThinkTime};
use cardroom_core::games::basra::Basra;
use cardroom_core::games::rummy::Rummy;
use cardroom_core::games::tarneeb::Tarneeb;
use cardroom_core::games::thirty_one::ThirtyOne;
use cardroom_core::{BotLevel, ComputerPlayer, GameKind, Options, Seed};

pub const USAGE: &str = "usage: cardroom arena --game KIND --a LEVEL --b LEVEL [--variant NAME] \
[--seats N] [--options JSON] [--matches N] [--threads N] [--seed HEX]\n\
  plays N duplicate matches (each seed twice, seats swapped) of level A against level B and\n\
  prints A's match win rate and point margin with 95% intervals, games per second and think\n\
  times. Defaults: 100 matches, one thread per core, the game's default variant and seats";

/// The arena's arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaArgs {
    pub kind: GameKind,
    pub variant: Option<String>,
    pub seats: Option<usize>,
    pub options: Options,
    pub a: BotLevel,
    pub b: BotLevel,
    pub matches: usize,
    pub threads: usize,
    pub seed: Seed,
}

/// Parses `--name value` pairs; every error is a sentence for the user.
pub fn parse(args: &[String]) -> Result<ArenaArgs, String> {
    let mut kind = None;
    let mut variant = None;
    let mut seats = None;
    let mut options = Options::new();
    let (mut a, mut b) = (None, None);
    let mut matches = 100;
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut seed = Seed::from_bytes([0x5a; 32]);
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let value = rest
            .next()
            .ok_or_else(|| format!("`{flag}` needs a value"))?;
        let number = |what: &str| {
            usize::from_str(value)
                .ok()
                .filter(|n| (1..=1_000_000).contains(n))
                .ok_or_else(|| format!("{what} must be a whole number from 1 to 1000000"))
        };
        match flag.as_str() {
            "--game" => kind = Some(GameKind::from_str(value).map_err(|e| e.to_string())?),
            "--variant" => variant = Some(value.clone()),
            "--seats" => seats = Some(number("--seats")?),
            "--options" => {
                options = serde_json::from_str(value)
                    .map_err(|e| format!("--options must be a JSON object of options: {e}"))?;
            }
            "--a" => a = Some(BotLevel::from_str(value).map_err(|e| e.to_string())?),
            "--b" => b = Some(BotLevel::from_str(value).map_err(|e| e.to_string())?),
            "--matches" => matches = number("--matches")?,
            "--threads" => threads = number("--threads")?.min(256),
            "--seed" => {
                seed = Seed::from_hex(value).map_err(|_| "--seed must be 64 hex digits")?;
            }
            other => return Err(format!("unknown flag `{other}`")),
        }
    }
    Ok(ArenaArgs {
        kind: kind.ok_or("--game is required")?,
        variant,
        seats,
        options,
        a: a.ok_or("--a is required")?,
        b: b.ok_or("--b is required")?,
        matches,
        threads,
        seed,
    })
}

/// Runs the matches the arguments ask for.
pub fn run(args: &ArenaArgs) -> Result<ArenaReport, String> {
    match args.kind {
        GameKind::Basra => run_kind::<Basra>(args),
        GameKind::ThirtyOne => run_kind::<ThirtyOne>(args),
        GameKind::Rummy => run_kind::<Rummy>(args),
        GameKind::Tarneeb => run_kind::<Tarneeb>(args),
    }
}

fn run_kind<G: ComputerPlayer>(args: &ArenaArgs) -> Result<ArenaReport, String> {
    let info = G::describe();
    for level in [args.a, args.b] {
        if !info.levels.iter().any(|l| l.name == level.name()) {
            let names: Vec<&str> = info.levels.iter().map(|l| l.name).collect();
            return Err(format!(
                "`{level}` is not a level of {}; the levels are {}",
                args.kind,
                names.join(", ")
            ));
        }
    }
    let seats = args
        .seats
        .unwrap_or(if args.kind == GameKind::Tarneeb { 4 } else { 2 });
    let config =
        G::configure(args.variant.as_deref(), seats, &args.options).map_err(|e| e.to_string())?;
    let spec = ArenaSpec {
        matches: args.matches,
        threads: args.threads,
        seed: args.seed,
    };
    arena::run::<G>(&config, &args.a, &args.b, &spec).map_err(|e| e.to_string())
}

fn ms(t: std::time::Duration) -> String {
    format!("{:.2} ms", t.as_secs_f64() * 1000.0)
}

fn think_line(name: &str, t: &ThinkTime) -> String {
    format!(
        "think time {name:>8}: p50 {}  p90 {}  p99 {}  max {}  ({} decisions)",
        ms(t.p50),
        ms(t.p90),
        ms(t.p99),
        ms(t.max),
        t.decisions
    )
}

/// The report as the command prints it.
pub fn render(args: &ArenaArgs, report: &ArenaReport) -> String {
    let mut out = String::new();
    let variant = args.variant.as_deref().unwrap_or("default variant");
    let _ = writeln!(
        out,
        "{} ({variant}): {} (A) against {} (B), {} duplicate matches, {} games",
        args.kind,
        report.a,
        report.b,
        report.matches,
        2 * report.matches
    );
    let pct = |x: f64| 100.0 * x;
    let _ = writeln!(
        out,
        "A's match score: {:.1}%  95% interval {:.1}% to {:.1}%  (won {}, split {}, lost {})",
        pct(report.match_score.mean),
        pct(report.match_score.low),
        pct(report.match_score.high),
        report.won,
        report.split,
        report.lost
    );
    let _ = writeln!(
        out,
        "A's game score:  {:.1}%  (indicative interval {:.1}% to {:.1}%)",
        pct(report.game_score.mean),
        pct(report.game_score.low),
        pct(report.game_score.high)
    );
    let _ = writeln!(
        out,
        "A's point margin per game: {:+.2}  95% interval {:+.2} to {:+.2}",
        report.margin.mean, report.margin.low, report.margin.high
    );
    let _ = writeln!(
        out,
        "speed: {:.1} games/s over {:.1} s on {} threads",
        report.games_per_second,
        report.elapsed.as_secs_f64(),
        args.threads
    );
    let _ = writeln!(out, "{}", think_line(&report.a, &report.think_a));
    let _ = writeln!(out, "{}", think_line(&report.b, &report.think_b));
    if report.illegal_a + report.illegal_b > 0 {
        let _ = writeln!(
            out,
            "moves replaced because no legal move was given: A {}, B {}",
            report.illegal_a, report.illegal_b
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn arguments_parse_and_errors_are_sentences() {
        let parsed = parse(&args(
            "--game basra --a hard --b easy --matches 7 --threads 1 --options {\"target\":31}",
        ))
        .unwrap();
        assert_eq!(parsed.kind, GameKind::Basra);
        assert_eq!((parsed.a, parsed.b), (BotLevel::Hard, BotLevel::Easy));
        assert_eq!((parsed.matches, parsed.threads), (7, 1));
        assert_eq!(parsed.options.len(), 1);
        for (bad, says) in [
            ("--a hard --b easy", "--game is required"),
            ("--game chess --a hard --b easy", "chess"),
            ("--game basra --a genius --b easy", "genius"),
            ("--game basra --a hard --b easy --matches 0", "--matches"),
            ("--game basra --a hard --b easy --matches", "needs a value"),
            ("--game basra --a hard --b easy --seed xyz", "--seed"),
            (
                "--game basra --a hard --b easy --colour red",
                "unknown flag",
            ),
        ] {
            let error = parse(&args(bad)).unwrap_err();
            assert!(error.contains(says), "{bad}: {error}");
        }
    }

    #[test]
    fn a_level_the_game_does_not_offer_is_refused() {
        let parsed = parse(&args("--game basra --a 7 --b easy --matches 1")).unwrap();
        let error = run(&parsed).unwrap_err();
        assert!(error.contains("not a level of basra"), "{error}");
    }

    #[test]
    fn a_short_arena_reports_every_match() {
        let parsed = parse(&args(
            "--game thirty_one --a medium --b random --matches 4 --threads 2",
        ))
        .unwrap();
        let report = run(&parsed).unwrap();
        assert_eq!(report.won + report.split + report.lost, 4);
        assert_eq!(report.illegal_a + report.illegal_b, 0);
        assert!(report.think_a.decisions > 0 && report.think_b.decisions > 0);
        let text = render(&parsed, &report);
        assert!(text.contains("4 duplicate matches, 8 games"), "{text}");
        // The same seed gives the same matches, whatever the number of threads.
        let again = run(&ArenaArgs {
            threads: 1,
            ..parsed.clone()
        })
        .unwrap();
        assert_eq!(again.match_score, report.match_score);
        assert_eq!(again.margin, report.margin);
    }
}
