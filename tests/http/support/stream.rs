//! Event streams as a test reads them: parsed Server-Sent Events, and a raw socket a test can
//! hang up.

use std::time::Duration;

use serde_json::Value;

use super::server::Server;

/// An event stream on a plain socket, so that the test can hang up as a client that goes away
/// does.
pub struct RawStream {
    _socket: std::net::TcpStream,
}

impl RawStream {
    pub fn open(server: &Server, path: &str, token: &str) -> RawStream {
        use std::io::{Read, Write};
        let address = server.base.trim_start_matches("http://");
        let mut socket = std::net::TcpStream::connect(address).unwrap();
        write!(
            socket,
            "GET {path} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {token}\r\n\
             Accept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut head = [0u8; 12];
        socket.read_exact(&mut head).unwrap();
        assert_eq!(&head, b"HTTP/1.1 200", "the stream was not opened");
        // Read everything sent so far, as a client that has kept up does: closing then sends a
        // plain FIN (closing with unread data would reset the connection, which any server
        // notices at once).
        socket
            .set_read_timeout(Some(Duration::from_millis(300)))
            .unwrap();
        let mut sink = [0u8; 4096];
        while socket.read(&mut sink).is_ok_and(|n| n > 0) {}
        RawStream { _socket: socket }
    }
}

/// One Server-Sent Event: its name, id and data.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SseEvent {
    pub event: String,
    pub id: Option<String>,
    pub data: Value,
}
