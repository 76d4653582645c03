//! Noticing at once that the client of a long response went away.
//!
//! While a response streams, the HTTP server learns that its client left only when a write
//! fails, which for a quiet event stream means the second heartbeat after the client left
//! (half a minute). An event stream holds a slot (the process's and its account's stream
//! limits), so it should let go as soon as the connection closes. When a connection is
//! accepted, [`remember`] keeps a duplicate handle of its socket with the connection; an event
//! stream then [`PeerSocket::watch`]es it and wakes the moment the peer closes its side (an
//! end-of-file or a reset), without reading anything the server has not read.

use actix_web::dev::Extensions;
use std::any::Any;

/// A duplicate handle of a connection's socket, kept with the connection.
#[derive(Debug)]
pub struct PeerSocket(socket2::Socket);

/// The `on_connect` hook: keeps a duplicate of a plain TCP connection's socket among the
/// connection's data. (It is closed with the connection: the server drops the connection's data
/// when it drops the connection.)
pub fn remember(connection: &dyn Any, data: &mut Extensions) {
    if let Some(stream) = connection.downcast_ref::<tokio::net::TcpStream>() {
        match socket2::SockRef::from(stream).try_clone() {
            Ok(socket) => {
                data.insert(PeerSocket(socket));
            }
            Err(error) => tracing::debug!(%error, "cannot watch a connection"),
        }
    }
}

impl PeerSocket {
    /// A watch on the peer, registered with the current runtime; `None` if the socket cannot be
    /// watched (then the stream ends when a write fails, as before).
    pub fn watch(&self) -> Option<PeerWatch> {
        let socket = self.0.try_clone().ok()?;
        let stream: std::net::TcpStream = socket.into();
        stream.set_nonblocking(true).ok()?;
        tokio::net::TcpStream::from_std(stream).ok().map(PeerWatch)
    }
}

/// Wakes when the peer closes the connection.
#[derive(Debug)]
pub struct PeerWatch(tokio::net::TcpStream);

impl PeerWatch {
    /// Resolves when the peer has closed its side of the connection or reset it. Never resolves
    /// while the connection is open, nor if the peer sends more data (a client that pipelines a
    /// request after an event stream: the server reads it in its turn).
    pub async fn closed(&self) {
        let mut byte = [0u8; 1];
        match self.0.peek(&mut byte).await {
            Ok(0) | Err(_) => {}
            Ok(_) => std::future::pending::<()>().await,
        }
    }
}
