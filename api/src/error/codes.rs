//! The closed list of problem codes.

use serde::Serialize;
use utoipa::ToSchema;

/// Every problem `code` the API answers: a closed list, so a client can match on them all (the
/// document lists them as `Problem.code`'s enum).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProblemCode {
    AlreadySeated,
    AlreadySeeking,
    BoardInPlay,
    BotNeedsToken,
    ChallengeClosed,
    CorsRefused,
    CursorAhead,
    Forbidden,
    GameFull,
    GameNotFinished,
    GameOver,
    HandNotOver,
    HandOver,
    HasGames,
    IdempotencyKeyReused,
    IllegalMove,
    InsufficientScope,
    Internal,
    InvalidCursor,
    LastAdminGuard,
    MethodNotAllowed,
    Muted,
    NameTaken,
    NoRematchOffered,
    NotAway,
    NotEntered,
    NotFound,
    NotYourTurn,
    PayloadTooLarge,
    PrivateTournament,
    RateLimited,
    RegisteredOnly,
    RematchStarted,
    RequestTimeout,
    SeatTaken,
    SeekClosed,
    SelfChallenge,
    SelfMute,
    SessionRequired,
    SignInBusy,
    TooManyStreams,
    TooManyTokens,
    TooManyTournaments,
    TournamentClosed,
    Unauthorized,
    Unavailable,
    ValidationFailed,
    VersionConflict,
    WaitingForPlayers,
}

impl ProblemCode {
    /// Every code, in the document's order.
    pub const ALL: [ProblemCode; 49] = [
        ProblemCode::AlreadySeated,
        ProblemCode::AlreadySeeking,
        ProblemCode::BoardInPlay,
        ProblemCode::BotNeedsToken,
        ProblemCode::ChallengeClosed,
        ProblemCode::CorsRefused,
        ProblemCode::CursorAhead,
        ProblemCode::Forbidden,
        ProblemCode::GameFull,
        ProblemCode::GameNotFinished,
        ProblemCode::GameOver,
        ProblemCode::HandNotOver,
        ProblemCode::HandOver,
        ProblemCode::HasGames,
        ProblemCode::IdempotencyKeyReused,
        ProblemCode::IllegalMove,
        ProblemCode::InsufficientScope,
        ProblemCode::Internal,
        ProblemCode::InvalidCursor,
        ProblemCode::LastAdminGuard,
        ProblemCode::MethodNotAllowed,
        ProblemCode::Muted,
        ProblemCode::NameTaken,
        ProblemCode::NoRematchOffered,
        ProblemCode::NotAway,
        ProblemCode::NotEntered,
        ProblemCode::NotFound,
        ProblemCode::NotYourTurn,
        ProblemCode::PayloadTooLarge,
        ProblemCode::PrivateTournament,
        ProblemCode::RateLimited,
        ProblemCode::RegisteredOnly,
        ProblemCode::RematchStarted,
        ProblemCode::RequestTimeout,
        ProblemCode::SeatTaken,
        ProblemCode::SeekClosed,
        ProblemCode::SelfChallenge,
        ProblemCode::SelfMute,
        ProblemCode::SessionRequired,
        ProblemCode::SignInBusy,
        ProblemCode::TooManyStreams,
        ProblemCode::TooManyTokens,
        ProblemCode::TooManyTournaments,
        ProblemCode::TournamentClosed,
        ProblemCode::Unauthorized,
        ProblemCode::Unavailable,
        ProblemCode::ValidationFailed,
        ProblemCode::VersionConflict,
        ProblemCode::WaitingForPlayers,
    ];

    /// The code as the problem says it.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemCode::AlreadySeated => "already_seated",
            ProblemCode::AlreadySeeking => "already_seeking",
            ProblemCode::BoardInPlay => "board_in_play",
            ProblemCode::BotNeedsToken => "bot_needs_token",
            ProblemCode::ChallengeClosed => "challenge_closed",
            ProblemCode::CorsRefused => "cors_refused",
            ProblemCode::CursorAhead => "cursor_ahead",
            ProblemCode::Forbidden => "forbidden",
            ProblemCode::GameFull => "game_full",
            ProblemCode::GameNotFinished => "game_not_finished",
            ProblemCode::GameOver => "game_over",
            ProblemCode::HandNotOver => "hand_not_over",
            ProblemCode::HandOver => "hand_over",
            ProblemCode::HasGames => "has_games",
            ProblemCode::IdempotencyKeyReused => "idempotency_key_reused",
            ProblemCode::IllegalMove => "illegal_move",
            ProblemCode::InsufficientScope => "insufficient_scope",
            ProblemCode::Internal => "internal",
            ProblemCode::InvalidCursor => "invalid_cursor",
            ProblemCode::LastAdminGuard => "last_admin_guard",
            ProblemCode::MethodNotAllowed => "method_not_allowed",
            ProblemCode::Muted => "muted",
            ProblemCode::NameTaken => "name_taken",
            ProblemCode::NoRematchOffered => "no_rematch_offered",
            ProblemCode::NotAway => "not_away",
            ProblemCode::NotEntered => "not_entered",
            ProblemCode::NotFound => "not_found",
            ProblemCode::NotYourTurn => "not_your_turn",
            ProblemCode::PayloadTooLarge => "payload_too_large",
            ProblemCode::PrivateTournament => "private_tournament",
            ProblemCode::RateLimited => "rate_limited",
            ProblemCode::RegisteredOnly => "registered_only",
            ProblemCode::RematchStarted => "rematch_started",
            ProblemCode::RequestTimeout => "request_timeout",
            ProblemCode::SeatTaken => "seat_taken",
            ProblemCode::SeekClosed => "seek_closed",
            ProblemCode::SelfChallenge => "self_challenge",
            ProblemCode::SelfMute => "self_mute",
            ProblemCode::SessionRequired => "session_required",
            ProblemCode::SignInBusy => "sign_in_busy",
            ProblemCode::TooManyStreams => "too_many_streams",
            ProblemCode::TooManyTokens => "too_many_tokens",
            ProblemCode::TooManyTournaments => "too_many_tournaments",
            ProblemCode::TournamentClosed => "tournament_closed",
            ProblemCode::Unauthorized => "unauthorized",
            ProblemCode::Unavailable => "unavailable",
            ProblemCode::ValidationFailed => "validation_failed",
            ProblemCode::VersionConflict => "version_conflict",
            ProblemCode::WaitingForPlayers => "waiting_for_players",
        }
    }
}

impl std::fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    /// The codes the crate's source uses (`ProblemCode::…` outside this enum's own items).
    fn used() -> BTreeSet<String> {
        let mut found = BTreeSet::new();
        let mut dirs = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src"
        ))];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let mut text = std::fs::read_to_string(&path).unwrap_or_default();
                if path.ends_with("error/codes.rs") {
                    // (Not the enum and its `as_str`, which name every code.)
                    let start = text.find("pub enum ProblemCode").unwrap_or(0);
                    let end = text
                        .find("impl std::fmt::Display for ProblemCode")
                        .unwrap_or(0);
                    text.replace_range(start..end.max(start), "");
                }
                for (i, _) in text.match_indices("ProblemCode::") {
                    let rest = &text[i + 13..];
                    let end = rest
                        .find(|c: char| !c.is_ascii_alphanumeric())
                        .unwrap_or(rest.len());
                    found.insert(rest[..end].to_owned());
                }
            }
        }
        found
    }

    #[test]
    fn every_code_the_document_lists_is_one_the_service_answers() {
        let listed: Vec<String> = super::ProblemCode::ALL
            .iter()
            .map(|c| format!("{c:?}"))
            .collect();
        let used = used();
        let unused: Vec<&String> = listed.iter().filter(|c| !used.contains(*c)).collect();
        assert!(unused.is_empty(), "codes nothing answers: {unused:?}");
        for code in super::ProblemCode::ALL {
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                serde_json::json!(code.as_str()),
                "{code:?}"
            );
        }
    }
}
