//! Clients that send slowly cannot hold a connection: the client timeout cuts off slow headers
//! and answers a slow body `408 request_timeout`.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::on_both_backends;
use crate::support::{Backend, Server};

/// Sends `head` on a fresh connection, then `trickle` a byte every 300 ms; returns what the
/// server answered, and after how long it closed the connection (or gave up after 6 s).
fn trickled(server: &Server, head: &str, trickle: u8) -> (String, Duration) {
    use std::io::{Read, Write};
    let address = server.base.trim_start_matches("http://");
    let mut socket = std::net::TcpStream::connect(address).unwrap();
    socket.set_nonblocking(true).unwrap();
    let start = Instant::now();
    socket.write_all(head.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    while start.elapsed() < Duration::from_secs(6) {
        std::thread::sleep(Duration::from_millis(300));
        match socket.read(&mut buffer) {
            Ok(0) => {
                return (
                    String::from_utf8_lossy(&answer).into_owned(),
                    start.elapsed(),
                );
            }
            Ok(n) => answer.extend_from_slice(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(_) => {
                return (
                    String::from_utf8_lossy(&answer).into_owned(),
                    start.elapsed(),
                );
            }
        }
        if socket.write_all(&[trickle]).is_err() {
            return (
                String::from_utf8_lossy(&answer).into_owned(),
                start.elapsed(),
            );
        }
    }
    (
        String::from_utf8_lossy(&answer).into_owned(),
        start.elapsed(),
    )
}

/// A client that sends its headers or its body a byte at a time cannot hold a connection: with
/// a one-second client timeout, slow headers are cut off, and a slow body is answered `408
/// request_timeout`, both within a few seconds, while a brisk request is served.
fn slow_senders_are_cut_off_at_the_client_timeout(backend: Backend) {
    let server = Server::start_with(backend, &[("CARDROOM_CLIENT_TIMEOUT_SECS", "1")]);
    let amira = server.guest("amira");
    let (_, slow_head) = trickled(
        &server,
        "POST /api/v1/games HTTP/1.1\r\nHost: cardroom\r\nX-Slow: ",
        b'a',
    );
    assert!(
        slow_head < Duration::from_secs(4),
        "slow headers held the connection {slow_head:?}"
    );
    let head = format!(
        "POST /api/v1/games HTTP/1.1\r\nHost: cardroom\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{{\"kind\": \"",
        amira.token
    );
    let (answer, slow_body) = trickled(&server, &head, b'x');
    assert!(
        slow_body < Duration::from_secs(4),
        "a slow body held the connection {slow_body:?}"
    );
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"code\":\"request_timeout\""), "{answer}");
    // Nothing was made, and a request sent at once is served.
    let mine = server.get("/api/v1/games?mine=true", Some(&amira.token));
    assert_eq!(mine.body["total"], 0, "{mine:?}");
    let (made, _) = server.create(
        &amira,
        json!({"kind": "basra", "seats": [{}, {"bot": "easy"}]}),
    );
    assert!(made > 0);
}

on_both_backends!(slow_senders_are_cut_off_at_the_client_timeout);
