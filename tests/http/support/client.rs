//! A small HTTP client for a test server (or a load balancer in front of several): requests,
//! replies, players and event streams.

use std::io::{BufRead, BufReader};
use std::time::Duration;

use serde_json::{Value, json};

use super::stream::SseEvent;

/// Talks HTTP to a Cardroom server, or to a load balancer in front of several. Each request on
/// a new connection, unless made through [`Client::keep_alive`].
pub struct Client {
    pub base: String,
    pub persistent: Option<ureq::Agent>,
}

impl Client {
    /// A client on the same address that keeps its connections open between requests, as a
    /// browser or an SDK does (the load benchmark's clients).
    #[allow(
        dead_code,
        reason = "used by the load benchmark, which shares this file"
    )]
    pub fn keep_alive(&self) -> Client {
        Client {
            base: self.base.clone(),
            persistent: Some(agent()),
        }
    }

    fn agent(&self) -> ureq::Agent {
        self.persistent.clone().unwrap_or_else(agent)
    }

    /// Opens an event stream; every event of the game arrives on the returned channel with the
    /// moment it was read: `(version, event)`, where the version is the event's own.
    pub fn stream(
        &self,
        path: &str,
        token: &str,
        last_event_id: Option<i64>,
    ) -> Result<std::sync::mpsc::Receiver<(std::time::Instant, Value)>, Reply> {
        self.stream_with_headers(path, token, last_event_id)
            .map(|(events, _)| events)
    }

    /// [`Client::stream`] opened by a stranger: no `Authorization` header at all.
    pub fn stranger_stream(
        &self,
        path: &str,
    ) -> Result<std::sync::mpsc::Receiver<(std::time::Instant, Value)>, Reply> {
        self.open_stream(path, None, None).map(|(events, _)| events)
    }

    /// [`Client::stream`], with the response's headers (names in lower case).
    #[allow(clippy::type_complexity, reason = "a test helper")]
    pub fn stream_with_headers(
        &self,
        path: &str,
        token: &str,
        last_event_id: Option<i64>,
    ) -> Result<
        (
            std::sync::mpsc::Receiver<(std::time::Instant, Value)>,
            Vec<(String, String)>,
        ),
        Reply,
    > {
        self.open_stream(path, Some(token), last_event_id)
    }

    #[allow(clippy::type_complexity, reason = "a test helper")]
    fn open_stream(
        &self,
        path: &str,
        token: Option<&str>,
        last_event_id: Option<i64>,
    ) -> Result<
        (
            std::sync::mpsc::Receiver<(std::time::Instant, Value)>,
            Vec<(String, String)>,
        ),
        Reply,
    > {
        let agent = stream_agent();
        let mut request = agent
            .get(self.url(path))
            .header("Accept", "text/event-stream");
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        if let Some(id) = last_event_id {
            request = request.header("Last-Event-ID", id.to_string());
        }
        let response = request.call().expect("the server answered");
        observe("GET", path, response.status().as_u16());
        if response.status() != 200 {
            return Err(Reply::from(Ok(response)));
        }
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .filter_map(|(name, value)| {
                Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
            })
            .collect();
        assert!(
            headers
                .iter()
                .any(|(name, value)| name == "content-type" && value == "text/event-stream"),
            "{headers:?}"
        );
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = BufReader::new(response.into_body().into_reader());
        let path = path.to_owned();
        std::thread::spawn(move || {
            for line in reader.lines() {
                let line = match line {
                    Ok(line) => line,
                    Err(error) => {
                        // The connection broke off rather than ended: say so with the reason.
                        let _ = tx.send((
                            std::time::Instant::now(),
                            Value::String(format!("stream error: {error}")),
                        ));
                        return;
                    }
                };
                // (Who is at the table is told whenever it changes: not news of the game, which
                // is what this helper's callers follow; `Client::sse` hands over everything.)
                let Some(data) = line.strip_prefix("data: ") else {
                    continue;
                };
                let Ok(value) = serde_json::from_str::<Value>(data) else {
                    continue;
                };
                super::observe::item(&path, "text/event-stream", &value);
                if value["event"]["type"] != "presence"
                    && tx.send((std::time::Instant::now(), value)).is_err()
                {
                    return;
                }
            }
            // The stream ended: say so with a null.
            let _ = tx.send((std::time::Instant::now(), Value::Null));
        });
        Ok((rx, headers))
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// A guest account.
    pub fn guest(&self, name: &str) -> Player {
        let response = self.post("/api/v1/auth/guest", None, &json!({ "name": name }));
        assert_eq!(response.status, 201, "{response:?}");
        Player {
            token: response.body["token"].as_str().expect("a token").to_owned(),
            id: response.body["user"]["id"].as_i64().expect("an id"),
        }
    }

    /// A registered account (rated, unlike a guest).
    pub fn register(&self, name: &str) -> Player {
        let response = self.post(
            "/api/v1/auth/register",
            None,
            &json!({ "name": name, "password": "a long passphrase" }),
        );
        assert_eq!(response.status, 201, "{response:?}");
        Player {
            token: response.body["token"].as_str().expect("a token").to_owned(),
            id: response.body["user"]["id"].as_i64().expect("an id"),
        }
    }

    pub fn get(&self, path: &str, token: Option<&str>) -> Reply {
        let mut request = self.agent().get(self.url(path));
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        observed("GET", path, Reply::from(request.call()))
    }

    /// The value of the unlabelled series `name` (a counter or gauge) on `/metrics`.
    pub fn metric(&self, name: &str) -> f64 {
        let text = self
            .get("/metrics", None)
            .body
            .as_str()
            .unwrap_or_default()
            .to_owned();
        text.lines()
            .find_map(|line| {
                line.strip_prefix(name)?
                    .strip_prefix(' ')?
                    .trim()
                    .parse()
                    .ok()
            })
            .unwrap_or_else(|| panic!("no {name} in\n{text}"))
    }

    /// A GET with extra headers.
    pub fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> Reply {
        let mut request = self.agent().get(self.url(path));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        observed("GET", path, Reply::from(request.call()))
    }

    pub fn post(&self, path: &str, token: Option<&str>, body: &Value) -> Reply {
        self.post_with(path, token, &[], body)
    }

    pub fn post_with(
        &self,
        path: &str,
        token: Option<&str>,
        headers: &[(&str, &str)],
        body: &Value,
    ) -> Reply {
        self.post_raw(
            path,
            token,
            headers,
            "application/json",
            body.to_string().into_bytes(),
        )
    }

    pub fn post_raw(
        &self,
        path: &str,
        token: Option<&str>,
        headers: &[(&str, &str)],
        content_type: &str,
        body: Vec<u8>,
    ) -> Reply {
        let mut request = self.agent().post(self.url(path)).content_type(content_type);
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        observed("POST", path, Reply::from(request.send(&body[..])))
    }

    /// An `OPTIONS` request (a browser's CORS preflight) with these headers.
    pub fn options(&self, path: &str, headers: &[(&str, &str)]) -> Reply {
        let mut request = self.agent().options(self.url(path));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        Reply::from(request.call())
    }

    /// A `PUT` of a JSON body.
    pub fn put_json(&self, path: &str, token: Option<&str>, body: &Value) -> Reply {
        let mut request = self
            .agent()
            .put(self.url(path))
            .content_type("application/json");
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        observed(
            "PUT",
            path,
            Reply::from(request.send(body.to_string().as_bytes())),
        )
    }

    /// A `PUT` without a body.
    pub fn put(&self, path: &str, token: Option<&str>) -> Reply {
        let mut request = self.agent().put(self.url(path));
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        observed("PUT", path, Reply::from(request.send(&b""[..])))
    }

    /// A `DELETE`.
    pub fn delete(&self, path: &str, token: Option<&str>) -> Reply {
        let mut request = self.agent().delete(self.url(path));
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        observed("DELETE", path, Reply::from(request.call()))
    }

    /// Opens an event stream and hands over every event whole: its `event:` name, its `id:`
    /// (if it had one) and its data. The stream's end arrives as `None`.
    pub fn sse(
        &self,
        path: &str,
        token: &str,
        last_event_id: Option<&str>,
    ) -> std::sync::mpsc::Receiver<Option<SseEvent>> {
        let agent = stream_agent();
        let mut request = agent
            .get(self.url(path))
            .header("Authorization", format!("Bearer {token}"))
            .header("Accept", "text/event-stream");
        if let Some(id) = last_event_id {
            request = request.header("Last-Event-ID", id);
        }
        let response = request.call().expect("the server answered");
        observe("GET", path, response.status().as_u16());
        assert_eq!(response.status(), 200, "the stream opened");
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = BufReader::new(response.into_body().into_reader());
        let path = path.to_owned();
        std::thread::spawn(move || {
            let mut event = SseEvent::default();
            for line in reader.lines() {
                let Ok(line) = line else { break };
                if line.is_empty() {
                    if !event.data.is_null() && tx.send(Some(std::mem::take(&mut event))).is_err() {
                        return;
                    }
                    event = SseEvent::default();
                } else if let Some(name) = line.strip_prefix("event: ") {
                    event.event = name.to_owned();
                } else if let Some(id) = line.strip_prefix("id: ") {
                    event.id = Some(id.to_owned());
                } else if let Some(data) = line.strip_prefix("data: ") {
                    event.data = serde_json::from_str(data).unwrap_or(Value::Null);
                    super::observe::item(&path, "text/event-stream", &event.data);
                }
            }
            let _ = tx.send(None);
        });
        rx
    }

    /// Opens a newline-delimited JSON stream (the account's events without SSE): every line
    /// that holds JSON arrives on the channel; the stream's end as `None`.
    pub fn ndjson(&self, path: &str, token: &str) -> std::sync::mpsc::Receiver<Option<Value>> {
        let agent = stream_agent();
        let response = agent
            .get(self.url(path))
            .header("Authorization", format!("Bearer {token}"))
            .header("Accept", "application/x-ndjson")
            .call()
            .expect("the server answered");
        assert_eq!(response.status(), 200, "the stream opened");
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        assert_eq!(content_type, "application/x-ndjson");
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = BufReader::new(response.into_body().into_reader());
        let path = path.to_owned();
        std::thread::spawn(move || {
            for line in reader.lines() {
                let Ok(line) = line else { break };
                let Ok(value) = serde_json::from_str::<Value>(&line) else {
                    continue;
                };
                super::observe::item(&path, "application/x-ndjson", &value);
                if tx.send(Some(value)).is_err() {
                    return;
                }
            }
            let _ = tx.send(None);
        });
        rx
    }

    /// Creates a game as `player`; returns its id and the creator's view.
    pub fn create(&self, player: &Player, body: Value) -> (i64, Value) {
        let reply = self.post("/api/v1/games", Some(&player.token), &body);
        assert_eq!(reply.status, 201, "{reply:?}");
        (
            reply.body["id"].as_i64().expect("an id"),
            reply.body["view"].clone(),
        )
    }

    pub fn view(&self, player: &Player, id: i64) -> Value {
        let reply = self.get(&format!("/api/v1/games/{id}"), Some(&player.token));
        assert_eq!(reply.status, 200, "{reply:?}");
        reply.body
    }

    /// Makes a move as `player` from `view`; returns the reply.
    pub fn play(&self, player: &Player, view: &Value, mv: &Value) -> Reply {
        let id = view["id"].as_i64().expect("an id");
        self.post(
            &format!("/api/v1/games/{id}/moves"),
            Some(&player.token),
            &json!({"expected_version": view["version"], "move": mv}),
        )
    }
}

fn observe(method: &str, path: &str, status: u16) {
    super::observe::status(method, path, status);
}

fn observed(method: &str, path: &str, reply: Reply) -> Reply {
    observe(method, path, reply.status);
    super::observe::body(method, path, reply.status, &reply.content_type, &reply.body);
    reply
}

/// An agent for a stream: no timeout, however long the stream stays open.
fn stream_agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(None)
        .timeout_recv_body(None)
        .build()
        .into()
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

/// A player's token.
#[derive(Clone, Debug)]
pub struct Player {
    pub token: String,
    pub id: i64,
}

/// A response: status, content type and JSON body (or the text, as a JSON string).
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub body: Value,
    pub headers: Vec<(String, String)>,
}

impl Reply {
    /// The reply, or status 0 with the error when the server could not be reached.
    pub fn from(result: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Reply {
        let mut response = match result {
            Ok(response) => response,
            Err(error) => {
                return Reply {
                    status: 0,
                    content_type: String::new(),
                    body: Value::String(error.to_string()),
                    headers: Vec::new(),
                };
            }
        };
        let status = response.status().as_u16();
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or_default().to_owned()))
            .collect();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let text = response.body_mut().read_to_string().unwrap_or_default();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Reply {
            status,
            content_type,
            body,
            headers,
        }
    }

    /// Asserts a problem+json error with this status and code.
    pub fn assert_problem(&self, status: u16, code: &str) {
        assert_eq!(self.status, status, "{self:?}");
        assert_eq!(self.content_type, "application/problem+json", "{self:?}");
        assert_eq!(self.body["code"], code, "{self:?}");
        assert_eq!(self.body["status"], status, "{self:?}");
        assert!(
            self.body["detail"].is_string() && self.body["title"].is_string(),
            "{self:?}"
        );
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}
