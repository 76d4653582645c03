//! HTTP/2 in cleartext with prior knowledge (h2c, `CARDROOM_H2C=on`): what a proxy that
//! carries many clients' streams over a few connections speaks to a replica. On, the one port
//! answers HTTP/2 and HTTP/1.1 alike, and many event streams share one connection; off (the
//! default), the port speaks HTTP/1.1 only. A stream its client resets is given back at its
//! next heartbeat at the latest.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::on_both_backends;
use crate::support::{Backend, Server};

type Body = h2::RecvStream;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// One HTTP/2 connection with prior knowledge to the server.
async fn connect(server: &Server) -> Result<h2::client::SendRequest<bytes::Bytes>, h2::Error> {
    let address = server.url("").trim_start_matches("http://").to_owned();
    let address = address.trim_end_matches('/');
    let tcp = tokio::net::TcpStream::connect(address)
        .await
        .expect("the server's port");
    let (client, connection) = h2::client::handshake(tcp).await?;
    tokio::spawn(async move {
        let _ = connection.await;
    });
    Ok(client)
}

/// A GET on the connection: the status and the body, still streaming.
async fn get(
    client: &h2::client::SendRequest<bytes::Bytes>,
    server: &Server,
    path: &str,
    token: &str,
) -> Result<(u16, Body), h2::Error> {
    let request = http::Request::get(server.url(path))
        .header("authorization", format!("Bearer {token}"))
        .header("accept", "text/event-stream")
        .body(())
        .unwrap();
    let mut client = client.clone().ready().await?;
    let (response, _) = client.send_request(request, true)?;
    let response = response.await?;
    Ok((response.status().as_u16(), response.into_body()))
}

/// Reads the body until `needle` appears in it, or `wait` passes: the text read.
async fn read_until(body: &mut Body, needle: &str, wait: Duration) -> String {
    let mut text = String::new();
    let deadline = tokio::time::Instant::now() + wait;
    while !text.contains(needle) {
        match tokio::time::timeout_at(deadline, body.data()).await {
            Ok(Some(Ok(chunk))) => {
                let _ = body.flow_control().release_capacity(chunk.len());
                text.push_str(&String::from_utf8_lossy(&chunk));
            }
            _ => break,
        }
    }
    text
}

fn h2c_answers_http2_and_http1_on_one_port_and_streams_share_a_connection(backend: Backend) {
    let server = Server::start_with(backend, &[("CARDROOM_H2C", "on")]);
    let host = server.guest("host");
    let watcher = server.guest("watcher");
    let (id, view) = server.create(
        &host,
        json!({"kind": "basra", "seats": [{}, {"bot": "greedy"}], "visibility": "public"}),
    );
    let version = view["version"].as_i64().unwrap();
    runtime().block_on(async {
        let client = connect(&server).await.expect("an HTTP/2 connection");
        // A plain request over HTTP/2: the host's own view, as over HTTP/1.1.
        let (status, mut body) = get(
            &client,
            &server,
            &format!("/api/v1/games/{id}"),
            &host.token,
        )
        .await
        .unwrap();
        assert_eq!(status, 200);
        let mut text = String::new();
        while let Some(chunk) = body.data().await {
            text.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
        }
        let over_h2: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(over_h2["version"], version, "{over_h2}");
        assert_eq!(over_h2["your_seat"], view["your_seat"], "{over_h2}");
        // Three streams on the one connection: two watch the game, one is the watcher's
        // account stream.
        let path = format!("/api/v1/games/{id}/events?after={version}");
        let mut watching = Vec::new();
        for _ in 0..2 {
            let (status, body) = get(&client, &server, &path, &watcher.token).await.unwrap();
            assert_eq!(status, 200);
            watching.push(body);
        }
        let (status, _account) = get(&client, &server, "/api/v1/stream/events", &watcher.token)
            .await
            .unwrap();
        assert_eq!(status, 200);
        // A move made over HTTP/1.1 reaches both watchers over HTTP/2.
        let reply = server.play(&host, &view, &view["legal_moves"][0]);
        assert_eq!(reply.status, 200, "{reply:?}");
        let marker = format!("\"version\":{}", version + 1);
        for body in &mut watching {
            let seen = read_until(body, &marker, Duration::from_secs(10)).await;
            assert!(seen.contains(&marker), "the move never arrived: {seen:?}");
        }
    });
}

fn h2c_off_speaks_http1_only(backend: Backend) {
    let server = Server::start(backend);
    let player = server.guest("plain");
    let refused = runtime().block_on(async {
        let client = connect(&server).await?;
        get(&client, &server, "/api/v1/stream/events", &player.token)
            .await
            .map(|(status, _)| status)
    });
    assert!(
        refused.is_err(),
        "HTTP/2 answered with h2c off: {refused:?}"
    );
    // The port still answers HTTP/1.1.
    assert_eq!(server.get("/healthz", None).status, 200);
}

fn a_reset_http2_stream_is_given_back_by_its_next_heartbeat(backend: Backend) {
    let server = Server::start_with(
        backend,
        &[
            ("CARDROOM_H2C", "on"),
            ("CARDROOM_MAX_STREAMS_PER_ACCOUNT", "1"),
            ("CARDROOM_HEARTBEAT_SECS", "1"),
        ],
    );
    let player = server.guest("leaver");
    runtime().block_on(async {
        let client = connect(&server).await.unwrap();
        let path = "/api/v1/stream/events";
        let (status, body) = get(&client, &server, path, &player.token).await.unwrap();
        assert_eq!(status, 200);
        // The account's one stream is taken while it is open.
        let (status, _) = get(&client, &server, path, &player.token).await.unwrap();
        assert_eq!(status, 429);
        // Dropping the body resets the stream (RST_STREAM, CANCEL); the connection stays.
        drop(body);
        let reset = Instant::now();
        let reopened = loop {
            let (status, body) = get(&client, &server, path, &player.token).await.unwrap();
            if status == 200 {
                break body;
            }
            assert_eq!(status, 429);
            assert!(
                reset.elapsed() < Duration::from_secs(5),
                "the reset stream was never given back"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        drop(reopened);
    });
}

on_both_backends!(
    h2c_answers_http2_and_http1_on_one_port_and_streams_share_a_connection,
    h2c_off_speaks_http1_only,
    a_reset_http2_stream_is_given_back_by_its_next_heartbeat,
);
