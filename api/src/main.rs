//! `cardroom`: serves the API, the docs and the page (`cardroom` or `cardroom serve`), prints
//! the OpenAPI document (`cardroom openapi`), or checks a game's deals against its log
//! (`cardroom verify-deal FILE`), imports an exported game (`cardroom import FILE`), copies an
//! SQLite database while it serves (`cardroom backup FILE`), checks every stored game against
//! its log (`cardroom check`), or
//! measures computer players against each other (`cardroom arena ...`), or solves deals double
//! dummy (`cardroom dd-table`).

use std::io::Write;
use std::process::ExitCode;

use cardroom_api::document::openapi_json;
use cardroom_api::settings::Settings;
use cardroom_api::startup::Application;

const USAGE: &str = "usage: cardroom [serve | openapi | verify-deal FILE | import FILE | backup FILE | check | arena ... | dd-table]\n\
  serve             run the service (the default); configured by environment variables, see docs/configuration.md\n\
  openapi           print the OpenAPI document\n\
  verify-deal FILE  check a game's log (the JSON of GET /games/{id}/log; `-` reads standard\n\
                    input): every revealed seed against its commitment, and every card dealt\n\
                    against the revealed seeds. Exits 0 when all match, 1 when not, 2 on bad input\n\
  import [--dry-run] FILE
                    replay an exported game (GET /games/{id}/export, JSON or text; `-` reads
                    standard input) with the rules, check every deal's seed against its
                    commitment and the final state against the export's digest, and store it in
                    DATABASE_URL as a practice game. Exits 0 when it replays exactly, 1 when
                    not, 2 on bad input
  backup FILE       copy the SQLite database of DATABASE_URL into the new FILE while it serves
                    (one consistent moment; PostgreSQL has its own tools). Exits 0 when copied,
                    1 when the copy failed, 2 on a wrong call
  check             replay every game of DATABASE_URL from its log and compare it with the stored
                    snapshot, its deals' commitments, its results and what tournaments recorded
                    of it; follow every rating's history to the stored rating; prints each
                    difference. Exits 0 when all is consistent, 1 when something differs, 2 when
                    the database cannot be read
  arena ...         duplicate matches between two computer-player levels (`cardroom arena --help`)
  dd-table          the double-dummy table of each deal on standard input (`cardroom dd-table --help`)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None | Some("serve") => serve(),
        Some("openapi") => match serde_json::to_string_pretty(&openapi_json()) {
            Ok(json) => {
                println!("{json}");
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("cardroom: {error}");
                ExitCode::FAILURE
            }
        },
        Some("verify-deal") => match args.get(1..) {
            Some([file]) => verify_deal(file),
            _ => {
                eprintln!("cardroom: verify-deal takes one file\n{USAGE}");
                ExitCode::from(2)
            }
        },
        Some("import") => match args.get(1..) {
            Some([file]) => import(file, false),
            Some([flag, file]) if flag == "--dry-run" => import(file, true),
            _ => {
                eprintln!("cardroom: import takes [--dry-run] FILE\n{USAGE}");
                ExitCode::from(2)
            }
        },
        Some("backup") => match args.get(1..) {
            Some([dest]) => backup(dest),
            _ => {
                eprintln!("cardroom: backup takes one file\n{USAGE}");
                ExitCode::from(2)
            }
        },
        Some("check") => match args.get(1..) {
            Some([]) => check(),
            _ => {
                eprintln!("cardroom: check takes no arguments\n{USAGE}");
                ExitCode::from(2)
            }
        },
        Some("arena") => arena(args.get(1..).unwrap_or_default()),
        Some("dd-table") => match args.get(1).map(String::as_str) {
            Some("-h" | "--help") => {
                println!("{}", cardroom_api::dd_table::USAGE);
                ExitCode::SUCCESS
            }
            None => ExitCode::from(cardroom_api::dd_table::run()),
            Some(_) => {
                eprintln!(
                    "cardroom: dd-table takes no arguments\n{}",
                    cardroom_api::dd_table::USAGE
                );
                ExitCode::from(2)
            }
        },
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("cardroom: unknown command `{other}`\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// `cardroom backup DEST`: the SQLite database copied into the new file DEST while it serves.
fn backup(dest: &str) -> ExitCode {
    let settings = match Settings::from_env() {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("cardroom backup: {error}");
            return ExitCode::from(2);
        }
    };
    match cardroom_db::connection::DatabaseUrl::parse(&settings.database_url) {
        Ok(url) if url.backend == cardroom_db::Backend::Sqlite => {}
        Ok(_) => {
            eprintln!(
                "cardroom backup: DATABASE_URL is a PostgreSQL database; back it up with \
                 pgBackRest or pg_dump (docs/operations.md)"
            );
            return ExitCode::from(2);
        }
        Err(error) => {
            eprintln!("cardroom backup: {error}");
            return ExitCode::from(2);
        }
    }
    if std::path::Path::new(dest).exists() {
        eprintln!("cardroom backup: {dest} is already there; name a new file");
        return ExitCode::from(2);
    }
    let started = std::time::Instant::now();
    let copied = cardroom_db::connect(
        &settings.database_url,
        1,
        std::time::Duration::from_secs(10),
    )
    .map_err(|e| e.to_string())
    .and_then(|pool| pool.get().map_err(|e| e.to_string()))
    .and_then(|mut conn| {
        cardroom_db::maintenance::backup_sqlite(&mut conn, dest).map_err(|e| e.to_string())
    });
    match copied {
        Ok(()) => {
            let bytes = std::fs::metadata(dest).map(|m| m.len()).unwrap_or(0);
            println!(
                "backed up {} to {dest}: {bytes} bytes in {} ms",
                settings.database_url,
                started.elapsed().as_millis()
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("cardroom backup: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `cardroom check`: every game of `DATABASE_URL` held against its own log.
fn check() -> ExitCode {
    let settings = match Settings::from_env() {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("cardroom check: {error}");
            return ExitCode::from(2);
        }
    };
    let mut conn = match cardroom_db::connect(
        &settings.database_url,
        1,
        std::time::Duration::from_secs(10),
    )
    .map_err(|e| e.to_string())
    .and_then(|pool| pool.get().map_err(|e| e.to_string()))
    {
        Ok(conn) => conn,
        Err(error) => {
            eprintln!("cardroom check: the database: {error}");
            return ExitCode::from(2);
        }
    };
    let found = cardroom_api::maintenance::check(&mut conn, |problem| println!("{problem}"));
    match found {
        Ok(report) => {
            println!("{}", report.summary());
            if report.problems.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(error) => {
            eprintln!("cardroom check: stopped: {error}");
            ExitCode::from(2)
        }
    }
}

fn arena(args: &[String]) -> ExitCode {
    use cardroom_api::arena;
    if matches!(args.first().map(String::as_str), Some("-h" | "--help")) {
        println!("{}", arena::USAGE);
        return ExitCode::SUCCESS;
    }
    let parsed = match arena::parse(args) {
        Ok(parsed) => parsed,
        Err(error) => {
            eprintln!("cardroom arena: {error}\n{}", arena::USAGE);
            return ExitCode::from(2);
        }
    };
    match arena::run(&parsed) {
        Ok(report) => {
            print!("{}", arena::render(&parsed, &report));
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("cardroom arena: {error}");
            ExitCode::from(2)
        }
    }
}

fn verify_deal(file: &str) -> ExitCode {
    let text = if file == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(file)
    };
    let report = match text
        .map_err(|e| format!("{file}: {e}"))
        .and_then(|text| cardroom_api::verify::verify_text(&text))
    {
        Ok(report) => report,
        Err(error) => {
            eprintln!("cardroom: {error}");
            return ExitCode::from(2);
        }
    };
    for line in &report.lines {
        println!("{line}");
    }
    if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn import(file: &str, dry_run: bool) -> ExitCode {
    use cardroom_api::play::export;
    let text = if file == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(file)
    };
    let parsed = match text
        .map_err(|e| format!("{file}: {e}"))
        .and_then(|text| export::parse(&text))
    {
        Ok(parsed) => parsed,
        Err(error) => {
            eprintln!("cardroom import: {error}");
            return ExitCode::from(2);
        }
    };
    let result = if dry_run {
        export::check(&parsed)
    } else {
        stored(&parsed)
    };
    match result {
        Ok(report) => {
            let what = format!(
                "{} {} with {} seats: {} moves and {} deals replayed, final state identical (sha256 {})",
                parsed.kind,
                parsed.variant,
                parsed.seats.len(),
                report.moves,
                report.deals,
                report.state_sha256
            );
            if dry_run {
                println!("checked {what}");
            } else {
                println!("imported game {}: {what}", report.id);
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("cardroom import: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Imports into `DATABASE_URL`.
fn stored(
    parsed: &cardroom_api::play::export::Export,
) -> Result<cardroom_api::play::export::ImportReport, String> {
    let settings = Settings::from_env().map_err(|e| e.to_string())?;
    let pool = cardroom_db::connect(
        &settings.database_url,
        1,
        std::time::Duration::from_secs(10),
    )
    .map_err(|e| format!("the database: {e}"))?;
    let mut conn = pool.get().map_err(|e| format!("the database: {e}"))?;
    cardroom_api::play::export::import(&mut conn, parsed)
}

fn serve() -> ExitCode {
    cardroom_api::telemetry::init();
    let settings = match Settings::from_env() {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("cardroom: {error}");
            return ExitCode::FAILURE;
        }
    };
    if settings.jwt_secret == cardroom_api::settings::DEVELOPMENT_SECRET {
        tracing::warn!(
            "CARDROOM_JWT_SECRET is not set: using the development secret (never in production)"
        );
    }
    let result = actix_web::rt::System::new().block_on(async move {
        let host = settings
            .addr
            .rsplit_once(':')
            .map(|(h, _)| h.to_owned())
            .unwrap_or_default();
        let app = Application::build(settings)
            .await
            .map_err(|e| e.to_string())?;
        // The first line on standard output says where to connect (tests read it).
        println!("listening on http://{host}:{}", app.port());
        let _ = std::io::stdout().flush();
        tracing::info!(port = app.port(), "cardroom is serving");
        app.run_until_stopped().await.map_err(|e| e.to_string())
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("cardroom: {error}");
            ExitCode::FAILURE
        }
    }
}
