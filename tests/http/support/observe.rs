//! What the HTTP suite saw, written down for the checks that run after it (scripts/test): every
//! request's status (`CARDROOM_OBSERVED_STATUSES`, read by `scripts/check-statuses`), and the
//! bodies and stream items it got (`CARDROOM_OBSERVED_BODIES`, read by `scripts/check-bodies`,
//! which holds each to its schema in the OpenAPI document). Bodies are many and mostly alike:
//! one is kept for each operation, status and set of `type`s and `kind`s it holds, so every
//! event of every game is checked in every body that carries it.

use std::collections::HashSet;
use std::io::Write;
use std::sync::Mutex;

use serde_json::{Value, json};

/// The shapes already written down, by this test process.
static SEEN: Mutex<Option<HashSet<String>>> = Mutex::new(None);

/// Appends one line to the file `variable` names, if it names one.
fn append(variable: &str, line: &str) {
    let Some(file) = std::env::var_os(variable) else {
        return;
    };
    // One line per write, appended: lines from many test threads do not interleave.
    if let Ok(mut out) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
    {
        let _ = out.write_all(format!("{line}\n").as_bytes());
    }
}

/// Notes a request's method, path and answer's status.
pub fn status(method: &str, path: &str, status: u16) {
    let path = path.split('?').next().unwrap_or(path);
    append(
        "CARDROOM_OBSERVED_STATUSES",
        &format!("{method} {path} {status}"),
    );
}

/// The path with its numbers as `{n}`: one operation, whatever the ids.
fn shape_of_path(path: &str) -> String {
    let path = path.split('?').next().unwrap_or(path);
    path.split('/')
        .map(|part| {
            if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
                "{n}"
            } else {
                part
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Every `type` and `kind` word in `value`, sorted.
fn words(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            for (key, value) in object {
                if let ("type" | "kind" | "call" | "reason" | "item", Value::String(word)) =
                    (key.as_str(), value)
                {
                    out.push(format!("{key}={word}"));
                }
                words(value, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|item| words(item, out)),
        _ => {}
    }
}

/// Whether a body of this shape is new (then it is remembered): new to this process, and to
/// every test process writing to the same file (each test is a process of its own under
/// cargo-nextest). Across processes a shape is claimed by creating a file named by its hash
/// beside the bodies' file, which only one process can do.
fn first_of(key: String) -> bool {
    let Ok(mut seen) = SEEN.lock() else {
        return false;
    };
    if !seen.get_or_insert_with(HashSet::new).insert(key.clone()) {
        return false;
    }
    let Some(file) = std::env::var_os("CARDROOM_OBSERVED_BODIES") else {
        return true;
    };
    let mut claims = std::path::PathBuf::from(file);
    claims.as_mut_os_string().push(".seen");
    if std::fs::create_dir_all(&claims).is_err() {
        return true;
    }
    let mut hasher = std::hash::DefaultHasher::new();
    std::hash::Hash::hash(&key, &mut hasher);
    let claim = claims.join(format!("{:016x}", std::hash::Hasher::finish(&hasher)));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(claim)
    {
        Ok(_) => true,
        Err(error) => error.kind() != std::io::ErrorKind::AlreadyExists,
    }
}

/// Notes an answer's JSON body, the first of its shape.
pub fn body(method: &str, path: &str, status: u16, content_type: &str, body: &Value) {
    if std::env::var_os("CARDROOM_OBSERVED_BODIES").is_none() || !content_type.contains("json") {
        return;
    }
    let mut found = Vec::new();
    words(body, &mut found);
    found.sort_unstable();
    found.dedup();
    let key = format!(
        "{method} {} {status} {}",
        shape_of_path(path),
        found.join(",")
    );
    if first_of(key) {
        let path = path.split('?').next().unwrap_or(path);
        let line = json!({"method": method, "path": path, "status": status,
                          "content_type": content_type, "body": body});
        append("CARDROOM_OBSERVED_BODIES", &line.to_string());
    }
}

/// Notes an item of a stream (`media`: `text/event-stream` or `application/x-ndjson`), the
/// first of its shape.
pub fn item(path: &str, media: &str, data: &Value) {
    if std::env::var_os("CARDROOM_OBSERVED_BODIES").is_none() {
        return;
    }
    let mut found = Vec::new();
    words(data, &mut found);
    found.sort_unstable();
    found.dedup();
    let key = format!("STREAM {} {media} {}", shape_of_path(path), found.join(","));
    if first_of(key) {
        let path = path.split('?').next().unwrap_or(path);
        let line = json!({"method": "GET", "path": path, "stream": media, "item": data});
        append("CARDROOM_OBSERVED_BODIES", &line.to_string());
    }
}
