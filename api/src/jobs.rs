//! The background jobs each process runs beside its requests: the recovery sweep (computer
//! players finishing the turns of games left on their turn, timers run out, open tables and
//! seeks expired, challenges gone unanswered, tournaments' rounds paired, old account events
//! forgotten), the writer of who is connected, and the analysis of finished games.

use actix_web::web;
use cardroom_db::GameId;

use crate::blocking::run;
use crate::error::ApiError;
use crate::hub::Topic;
use crate::presence::{self, KEEP, SOONEST};
use crate::state::AppState;
use tokio::time::Instant;

/// How many days an account's events are kept for its stream to resume from.
pub const ACCOUNT_EVENTS_DAYS: i64 = 7;

/// Every few seconds, lets computer players finish the turns of games left on their turn, and
/// plays for the people whose turn timer ran out.
pub async fn recovery_sweep(state: web::Data<AppState>) {
    let every = state.settings.sweep_every;
    let mut forgot: Option<std::time::Instant> = None;
    loop {
        actix_web::rt::time::sleep(every).await;
        // Once an hour: account events older than the stream keeps them.
        if forgot.is_none_or(|at| at.elapsed() >= std::time::Duration::from_secs(3600)) {
            forgot = Some(std::time::Instant::now());
            let forgotten = run(&state, |conn, _| {
                let before = cardroom_db::now() - chrono::Duration::days(ACCOUNT_EVENTS_DAYS);
                Ok(cardroom_db::account_events::forget_before(conn, before)?)
            })
            .await;
            if let Err(error) = forgotten
                && !matches!(error, ApiError::Unavailable)
            {
                tracing::warn!(%error, "could not forget old account events");
            }
        }
        let result = run(&state, |conn, state| {
            Ok((
                crate::play::recover(conn, &state.metrics)?,
                crate::play::enforce_timers(conn, &state.metrics)?,
                crate::play::expire_open_tables(conn, state.settings.open_table_expiry)?,
                crate::play::seeks::sweep(conn, state.settings.seek_timeout, &state.metrics)?,
                crate::play::challenges::expire(conn)?,
                crate::play::tournaments::sweep(conn, &state.metrics, state.settings.arena_minute)?,
            ))
        })
        .await;
        match result {
            Ok((recovered, timed_out, expired, matched, challenges, tournaments)) => {
                for &id in &tournaments.changed {
                    state.hub.publish(Topic::Tournament(id));
                }
                if !tournaments.games.is_empty() {
                    tracing::info!(games = tournaments.games.len(), "seated tournament tables");
                }
                if challenges > 0 {
                    tracing::info!(challenges, "challenges expired unanswered");
                }
                if !recovered.is_empty() {
                    tracing::info!(
                        games = recovered.len(),
                        "recovered games left on a computer player's turn"
                    );
                }
                if !timed_out.is_empty() {
                    tracing::info!(games = timed_out.len(), "played for people out of time");
                }
                if !expired.is_empty() {
                    tracing::info!(games = expired.len(), "closed open tables nobody joined");
                }
                if !matched.is_empty() {
                    tracing::info!(games = matched.len(), "seated quick-match seekers");
                }
                for id in recovered
                    .into_iter()
                    .chain(timed_out)
                    .chain(expired)
                    .chain(matched.into_iter().map(GameId::new))
                    .chain(tournaments.games)
                {
                    state.hub.publish(Topic::Game(id));
                }
            }
            Err(ApiError::Unavailable) => {}
            Err(error) => tracing::warn!(%error, "recovery sweep failed"),
        }
    }
}

/// Analyses finished games, one at a time, as long as any is due; then looks again when this
/// process finishes a game, or every sweep (for games other replicas finished). The work runs
/// on the blocking pool: a game takes from milliseconds to some seconds.
pub async fn analyse_finished(state: web::Data<AppState>) {
    let mut queued_missing = false;
    let mut finished = crate::hub::finished_count();
    loop {
        if !queued_missing {
            let worker = state.clone();
            match web::block(move || crate::play::analysis::queue_missing(&worker)).await {
                Ok(Ok(queued)) => {
                    queued_missing = true;
                    if queued > 0 {
                        tracing::info!(games = queued, "queued finished games for analysis");
                    }
                }
                Ok(Err(ApiError::Unavailable)) => {}
                Ok(Err(error)) => tracing::warn!(%error, "could not queue games for analysis"),
                Err(error) => tracing::warn!(%error, "the analysis worker stopped"),
            }
        }
        if state.hub.is_shutting_down() {
            return;
        }
        let worker = state.clone();
        let result = web::block(move || crate::play::analysis::analyse_next(&worker)).await;
        match result {
            Ok(Ok(true)) => continue,
            Ok(Ok(false)) | Ok(Err(ApiError::Unavailable)) => {}
            Ok(Err(error)) => tracing::warn!(%error, "the analysis of finished games failed"),
            Err(error) => tracing::warn!(%error, "the analysis worker stopped"),
        }
        finished = crate::hub::finished_since(finished, state.settings.sweep_every).await;
    }
}

/// Writes what this process saw: news (arrivals, departures once due) within [`SOONEST`],
/// every held stream again each quarter window, with change notices for the tables that show
/// the news; and sweeps rows nobody refreshed for an hour.
pub async fn write_presence(state: web::Data<AppState>) {
    let mut swept = Instant::now();
    let mut refreshed = Instant::now();
    loop {
        let every = presence::refresh_every();
        let mut until = refreshed + every;
        if let Some(due) = state.presence.next_departure() {
            until = until.min(due);
        }
        tokio::select! {
            () = tokio::time::sleep_until(until) => {}
            () = state.presence.arrived() => {}
        }
        if state.hub.is_shutting_down() {
            return;
        }
        let now = Instant::now();
        let refresh = now >= refreshed + every;
        if refresh {
            refreshed = now;
        }
        let batch = state.presence.take(now, refresh);
        let sweep = swept.elapsed() >= KEEP / 4;
        if sweep {
            swept = now;
        }
        if batch.is_empty() && !sweep {
            continue;
        }
        let people = batch.people.clone();
        let result = run(&state, move |conn, _| {
            let now = cardroom_db::now();
            let mut games: Vec<GameId> = batch.games.into_iter().map(GameId::new).collect();
            games.extend(cardroom_db::talk::seated_at(conn, &people)?);
            games.sort_unstable();
            games.dedup();
            cardroom_db::talk::seen(conn, &batch.rows, now, &games)?;
            if sweep {
                let keep = chrono::Duration::from_std(KEEP).unwrap_or(chrono::Duration::hours(1));
                cardroom_db::talk::forget_before(conn, now - keep)?;
            }
            Ok(games)
        })
        .await;
        match result {
            // This process's followers hear at once (other replicas through the notices).
            Ok(games) => {
                for game in games {
                    state.hub.publish(Topic::Game(game));
                }
            }
            Err(ApiError::Unavailable) => {}
            Err(error) => tracing::warn!(%error, "could not write who is connected"),
        }
        tokio::time::sleep(SOONEST).await;
    }
}
