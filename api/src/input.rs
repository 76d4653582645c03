//! Client input parsed where it arrives: text every backend can store or compare, days, game
//! statuses, `Idempotency-Key`s and moves ([`ParsedMove`]), so that what reaches `play` is typed.
//!
//! PostgreSQL's text cannot hold a NUL character (SQLite's can): a NUL that reached a query
//! would fail there as a database error. Every text a client sends that reaches a query passes
//! [`text`] first, so both backends answer `422 validation_failed` alike.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use chrono::{Datelike, NaiveDate};
use serde::de::DeserializeOwned;
use serde_json::Value;
use sha2::{Digest, Sha256};

use cardroom_core::{AnyMove, GameKind};
use cardroom_db::GameStatus;

use crate::error::ApiError;

/// A JSON request body, read as `actix_web`'s `Json` reads it (its limit and error handler),
/// with two differences: a whole number written with a fraction (`87.0`, `1e2`) is that number,
/// and the body must be an object (serde alone would read a struct from an array).
/// JSON Schema, and so the OpenAPI document, calls `87.0` an integer, and generated clients
/// and some languages' encoders send integers so.
#[derive(Debug)]
pub struct Json<T>(pub T);

impl<T> Json<T> {
    /// The body.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for Json<T> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Json<T>, actix_web::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let value = web::Json::<Value>::from_request(req, payload);
        // A body sent slower than the client timeout is refused: it cannot hold a connection.
        let limit = req
            .app_data::<BodyTimeout>()
            .map_or(std::time::Duration::from_secs(10), |t| t.0);
        Box::pin(async move {
            let value = actix_web::rt::time::timeout(limit, value)
                .await
                .map_err(|_| ApiError::TimedOut {
                    seconds: limit.as_secs(),
                })?;
            let value = whole_numbers(value?.into_inner());
            // Every body of this API is an object (serde would read a struct from an array too).
            if !value.is_object() {
                return Err(ApiError::Invalid("the body must be a JSON object".to_owned()).into());
            }
            serde_json::from_value(value)
                .map(Json)
                .map_err(|e| ApiError::Invalid(e.to_string()).into())
        })
    }
}

/// How long a request's JSON body may take to arrive (the client timeout), as the app has it.
#[derive(Clone, Copy, Debug)]
pub struct BodyTimeout(pub std::time::Duration);

/// `value` with every whole number written with a fraction turned into an integer.
fn whole_numbers(value: Value) -> Value {
    match value {
        Value::Number(number) if !number.is_i64() && !number.is_u64() => match number.as_f64() {
            Some(x) if x.fract() == 0.0 && x.abs() < 9.007_199_254_740_992e15 => {
                Value::from(x as i64)
            }
            _ => Value::Number(number),
        },
        Value::Array(items) => Value::Array(items.into_iter().map(whole_numbers).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(key, value)| (key, whole_numbers(value)))
                .collect(),
        ),
        other => other,
    }
}

/// `value` of the field `field`, refused if it holds a NUL character.
pub fn text<'a>(field: &str, value: &'a str) -> Result<&'a str, ApiError> {
    if value.contains('\0') {
        return Err(ApiError::Invalid(format!(
            "{field} must not contain a NUL character"
        )));
    }
    Ok(value)
}

/// The first character of `text` that could make it show other than it reads: a bidirectional
/// control (an override such as U+202E reverses what follows it, an isolate or mark moves it),
/// a line or paragraph separator, an invisible character (zero-width space, word joiner, byte
/// order mark, soft hyphen), or a zero-width joiner or non-joiner anywhere but between two
/// visible characters (between letters they shape Arabic and Persian words and join emoji;
/// alone at an end, or beside a space, they only hide).
pub fn spoofing_char(text: &str) -> Option<char> {
    const ALWAYS: &[char] = &[
        '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}',
        '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', '\u{2028}', '\u{2029}',
        '\u{200B}', '\u{2060}', '\u{2061}', '\u{2062}', '\u{2063}', '\u{2064}', '\u{FEFF}',
        '\u{00AD}', '\u{180E}',
    ];
    let chars: Vec<char> = text.chars().collect();
    let visible = |c: Option<&char>| {
        c.is_some_and(|c| {
            !c.is_whitespace() && !ALWAYS.contains(c) && !matches!(c, '\u{200C}' | '\u{200D}')
        })
    };
    chars.iter().enumerate().find_map(|(i, &c)| {
        if ALWAYS.contains(&c) {
            return Some(c);
        }
        let joiner = matches!(c, '\u{200C}' | '\u{200D}');
        let between = i > 0 && visible(chars.get(i - 1)) && visible(chars.get(i + 1));
        (joiner && !between).then_some(c)
    })
}

/// `value` of the free-text field `field`, refused if it holds a character that could make it
/// show other than it reads (see [`spoofing_char`]).
pub fn plain_text<'a>(field: &str, value: &'a str) -> Result<&'a str, ApiError> {
    match spoofing_char(value) {
        None => Ok(value),
        Some(c) => Err(ApiError::Invalid(format!(
            "{field} may not hold bidirectional or invisible formatting characters (U+{:04X})",
            u32::from(c)
        ))),
    }
}

/// The years a date may name: PostgreSQL's dates and timestamps reach further back and forward
/// than chrono's in some directions and less in others, so dates are held to the common
/// calendar years of RFC 3339's full-date (0000 to 9999), which both hold.
pub const YEARS: std::ops::RangeInclusive<i32> = 0..=9999;

/// A day written `YYYY-MM-DD` (RFC 3339's full-date), from year 0 to 9999.
pub fn day(field: &str, value: &str) -> Result<NaiveDate, ApiError> {
    let refuse = || {
        ApiError::Invalid(format!(
            "{field} must be a day as YYYY-MM-DD from 0000-01-01 to 9999-12-31, not {:?}",
            value.chars().take(32).collect::<String>()
        ))
    };
    let strict = value.len() == 10 && value.bytes().all(|b| b.is_ascii_digit() || b == b'-');
    if !strict {
        return Err(refuse());
    }
    let date = NaiveDate::parse_from_str(value, "%Y-%m-%d").map_err(|_| refuse())?;
    if YEARS.contains(&date.year()) {
        Ok(date)
    } else {
        Err(refuse())
    }
}

/// A move as a request sent it, parsed into the move of every game it was sent for: the one its
/// `kind` names, or each game when it names none (a move of one game can look like another's).
/// The game it reaches picks its own; nothing downstream reads the request's JSON again.
#[derive(Clone, Debug)]
pub struct ParsedMove {
    said: Option<GameKind>,
    parsed: Vec<(GameKind, Result<AnyMove, String>)>,
}

impl ParsedMove {
    /// Parses `value` as a move of `said` (or of every game).
    pub fn parse(said: Option<GameKind>, value: &Value) -> ParsedMove {
        let kinds = match said {
            Some(kind) => vec![kind],
            None => GameKind::ALL.to_vec(),
        };
        let parsed = kinds
            .into_iter()
            .map(|kind| (kind, kind.parse_move(value).map_err(|e| e.to_string())))
            .collect();
        ParsedMove { said, parsed }
    }

    /// The move as a move of a game of `kind`.
    pub fn of(&self, kind: GameKind) -> MoveFor {
        match (self.said, self.parsed.iter().find(|(k, _)| *k == kind)) {
            (_, Some((_, Ok(mv)))) => MoveFor::Game(mv.clone()),
            (_, Some((_, Err(e)))) => MoveFor::Unreadable(ApiError::Invalid(format!("move: {e}"))),
            (Some(said), None) => MoveFor::Another(said),
            // Parsed for every game when it named none.
            (None, None) => {
                MoveFor::Unreadable(ApiError::Invalid(format!("move: not a move of {kind}")))
            }
        }
    }
}

/// What a [`ParsedMove`] is for a game.
#[derive(Debug)]
pub enum MoveFor {
    /// One of the game's moves (legal or not: the rules decide).
    Game(AnyMove),
    /// Not the shape of any of the game's moves.
    Unreadable(ApiError),
    /// Sent for a game of this other kind.
    Another(GameKind),
}

/// A game status named in a query (`status=finished`).
pub fn status(word: &str) -> Result<GameStatus, ApiError> {
    GameStatus::parse(word.trim()).ok_or_else(|| {
        let all: Vec<&str> = GameStatus::ALL.iter().map(|s| s.as_str()).collect();
        ApiError::Invalid(format!(
            "`{}` is not a status; the statuses are {}",
            word.chars().take(32).collect::<String>(),
            all.join(", ")
        ))
    })
}

/// Statuses named in a query, comma-separated (`status=waiting,active`); empty names none.
pub fn statuses(list: &str) -> Result<Vec<GameStatus>, ApiError> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(status)
        .collect()
}

/// An `Idempotency-Key` as a request sent it, with the hash of the request it came with: a
/// retry with the same key and request gets the first answer, and the same key with another
/// request is refused. Only [`IdempotencyKey::parse`] makes one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdempotencyKey {
    key: String,
    request_hash: String,
}

impl IdempotencyKey {
    /// The pattern of a key, as the OpenAPI document states it.
    pub const PATTERN: &'static str = "^[!-~]{1,200}$";

    /// The key in the header `value`, for the request whose canonical JSON is `request`:
    /// 1 to 200 visible ASCII characters, or `400 validation_failed`.
    pub fn parse(value: &[u8], request: &Value) -> Result<IdempotencyKey, ApiError> {
        let fits =
            (1..=200).contains(&value.len()) && value.iter().all(|b| (b'!'..=b'~').contains(b));
        let key = std::str::from_utf8(value)
            .ok()
            .filter(|_| fits)
            .ok_or_else(|| {
                ApiError::BadRequest(
                    "an Idempotency-Key is 1 to 200 visible ASCII characters, without spaces"
                        .to_owned(),
                )
            })?;
        let hash = Sha256::digest(request.to_string().as_bytes());
        Ok(IdempotencyKey {
            key: key.to_owned(),
            request_hash: hash.iter().map(|b| format!("{b:02x}")).collect(),
        })
    }

    /// The key.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The `sha256` of the request it came with, in hex.
    pub fn request_hash(&self) -> &str {
        &self.request_hash
    }
}

#[cfg(test)]
mod tests {
    use super::IdempotencyKey;

    #[test]
    fn an_idempotency_key_is_parsed_once_with_its_request() {
        let request = serde_json::json!({"expected_version": 3, "move": {"type": "knock"}});
        for bad in [
            &b""[..],
            b"has space",
            "é".as_bytes(),
            &[b'a'; 201][..],
            b"tab\there",
        ] {
            let refused = IdempotencyKey::parse(bad, &request).unwrap_err();
            assert_eq!(refused.code(), crate::error::ProblemCode::ValidationFailed);
        }
        let key = IdempotencyKey::parse(&[b'~'; 200], &request).unwrap();
        assert_eq!(key.key().len(), 200);
        let same = IdempotencyKey::parse(&[b'~'; 200], &request).unwrap();
        assert_eq!(key, same);
        let other = serde_json::json!({"expected_version": 4, "move": {"type": "knock"}});
        let moved = IdempotencyKey::parse(&[b'~'; 200], &other).unwrap();
        assert_ne!(key.request_hash(), moved.request_hash());
        assert_eq!(key.request_hash().len(), 64);
    }

    use super::*;

    #[test]
    fn text_that_would_show_other_than_it_reads_is_found() {
        for fine in [
            "good luck",
            "بالتوفيق يا صديقي",
            "می\u{200C}خواهم",
            "👩\u{200D}💻 thinking",
            "10♣ wins",
        ] {
            assert_eq!(spoofing_char(fine), None, "{fine:?}");
        }
        for (bad, c) in [
            ("gg \u{202E}won I", '\u{202E}'),
            ("\u{2066}isolated\u{2069}", '\u{2066}'),
            ("two\u{2028}lines", '\u{2028}'),
            ("amira\u{200B}", '\u{200B}'),
            ("\u{200D}hidden", '\u{200D}'),
            ("end\u{200C}", '\u{200C}'),
            ("a \u{200D} b", '\u{200D}'),
            ("mark\u{200F}ed", '\u{200F}'),
            ("\u{FEFF}bom", '\u{FEFF}'),
        ] {
            assert_eq!(spoofing_char(bad), Some(c), "{bad:?}");
        }
        assert!(plain_text("text", "fine").is_ok());
        assert!(plain_text("text", "x\u{202E}y").is_err());
    }

    #[test]
    fn days_are_held_to_years_one_to_9999_in_one_spelling() {
        assert!(day("from", "2026-11-24").is_ok());
        assert!(day("from", "0000-01-01").is_ok());
        assert!(day("from", "9999-12-31").is_ok());
        for bad in [
            "-99999-01-01",
            "-4714-01-01",
            "-0001-12-31",
            "+12026-01-01",
            "12026-01-01",
            "2026-1-1",
            "2026-02-30",
            "",
        ] {
            let error = day("from", bad).unwrap_err();
            assert_eq!(
                error.code(),
                crate::error::ProblemCode::ValidationFailed,
                "{bad}"
            );
        }
    }

    #[test]
    fn whole_numbers_with_a_fraction_are_integers_and_others_stay() {
        let read = |text: &str| whole_numbers(serde_json::from_str(text).unwrap());
        assert_eq!(
            read(r#"{"a": 87.0, "b": [1e2, 2.5, -3.0], "c": "4.0"}"#),
            serde_json::json!({"a": 87, "b": [100, 2.5, -3], "c": "4.0"})
        );
        assert_eq!(read("1e300"), serde_json::json!(1e300));
    }

    #[test]
    fn text_with_a_nul_is_refused() {
        assert_eq!(text("name", "amira").unwrap(), "amira");
        assert_eq!(
            text("name", "ab\0c").unwrap_err().code(),
            crate::error::ProblemCode::ValidationFailed
        );
    }
}

#[cfg(test)]
mod moves {
    use cardroom_core::{AnyMove, GameKind};
    use serde_json::json;

    use super::{MoveFor, ParsedMove};

    #[test]
    fn a_move_is_parsed_once_for_the_games_it_was_sent_for() {
        let play = json!({"type": "play", "card": "7D"});
        // Without a kind, a play is Basra's at a Basra table and Tarneeb's at a Tarneeb one.
        let any = ParsedMove::parse(None, &play);
        assert!(matches!(
            any.of(GameKind::Basra),
            MoveFor::Game(AnyMove::Basra(_))
        ));
        assert!(matches!(
            any.of(GameKind::Tarneeb),
            MoveFor::Game(AnyMove::Tarneeb(_))
        ));
        // ... and no move of 31 or Rummy.
        for kind in [GameKind::ThirtyOne, GameKind::Rummy] {
            let MoveFor::Unreadable(refused) = any.of(kind) else {
                panic!("{kind}: a play is no move of this game");
            };
            assert_eq!(refused.problem().status, 422);
        }
        // With a kind, it is that game's move only.
        let tarneeb = ParsedMove::parse(Some(GameKind::Tarneeb), &play);
        assert!(matches!(
            tarneeb.of(GameKind::Tarneeb),
            MoveFor::Game(AnyMove::Tarneeb(_))
        ));
        assert!(matches!(
            tarneeb.of(GameKind::Basra),
            MoveFor::Another(GameKind::Tarneeb)
        ));
        // Hostile shapes are unreadable for every game, never a panic.
        for hostile in [
            json!(null),
            json!([1, 2]),
            json!({"type": "play", "card": "ZZ"}),
            json!({"type": "play", "card": "7D", "extra": 1}),
            json!({"type": "bid", "tricks": 300}),
        ] {
            let parsed = ParsedMove::parse(None, &hostile);
            for kind in GameKind::ALL {
                assert!(
                    matches!(parsed.of(kind), MoveFor::Unreadable(_)),
                    "{kind}: {hostile}"
                );
            }
        }
    }
}

/// Tournament statuses named in a query, comma-separated (exactly, as the document's pattern
/// says); empty names none.
pub fn tournament_stages(
    list: &str,
) -> Result<Vec<cardroom_db::tournaments::TournamentStatus>, ApiError> {
    use cardroom_db::tournaments::TournamentStatus;
    list.split(',')
        .filter(|s| !s.is_empty())
        .map(|word| {
            TournamentStatus::try_from(word.to_owned()).map_err(|_| {
                let all: Vec<&str> = TournamentStatus::ALL.iter().map(|s| s.as_str()).collect();
                ApiError::Invalid(format!(
                    "`{}` is not a tournament status; the statuses are {}",
                    word.chars().take(32).collect::<String>(),
                    all.join(", ")
                ))
            })
        })
        .collect()
}

/// The code of a link (an open challenge's, a private tournament's) as a request gave it: 1 to
/// 32 lowercase letters and digits, or `422 validation_failed`.
pub fn link_code(code: Option<&str>) -> Result<Option<&str>, ApiError> {
    let spelled = |c: &str| {
        (1..=32).contains(&c.len())
            && c.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    };
    match code {
        Some(c) if !spelled(c) => Err(ApiError::Invalid(
            "code is 1 to 32 lowercase letters and digits".to_owned(),
        )),
        other => Ok(other),
    }
}

/// Whether `name` is spelled as a player's name may be: letters, digits, `_`, `-` and `.`, its
/// letters all Latin (ASCII) or all Arabic — the letters U+0621 to U+064A, hamza forms
/// included, the tatweel not — never both, so that no name can pass for another drawn in
/// look-alike letters of a second script. (Its length is the caller's rule.)
pub fn spelled_as_name(name: &str) -> bool {
    let arabic = |c: char| matches!(c, '\u{0621}'..='\u{063A}' | '\u{0641}'..='\u{064A}');
    let mark = |c: char| c.is_ascii_digit() || matches!(c, '_' | '-' | '.');
    let latin = name.chars().all(|c| c.is_ascii_alphabetic() || mark(c));
    let in_arabic = name.chars().all(|c| arabic(c) || mark(c));
    latin || in_arabic
}

#[cfg(test)]
mod name_tests {
    use super::spelled_as_name;

    #[test]
    fn a_name_is_latin_or_arabic_never_both() {
        for name in ["amira", "Layla_2", "ليلى", "سارة-2", "a.b-c_1"] {
            assert!(spelled_as_name(name), "{name}");
        }
        // Mixed scripts, look-alike letters of another script, spaces, the tatweel, Persian
        // letters that look like Arabic ones, marks and controls.
        for name in [
            "laylaليلى",
            "\u{0430}dmin",
            "Mary Ann",
            "لـيلى",
            "\u{06CC}سارة",
            "ليلَى",
            "ab\u{202E}c",
            "José",
        ] {
            assert!(!spelled_as_name(name), "{name:?}");
        }
    }
}
