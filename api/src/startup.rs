//! Assembling the application: the database, the routes, the OpenAPI document, the error
//! handlers, and the background recovery of games left on a computer player's turn.

use std::net::TcpListener;
use std::sync::LazyLock;

use actix_web::dev::Server;
use actix_web::error::{JsonPayloadError, PathError, QueryPayloadError};
use actix_web::http::header;
use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use tracing_actix_web::TracingLogger;
use utoipa_swagger_ui::SwaggerUi;

use crate::auth::Keys;
use crate::document::{openapi_document, served_json};
use crate::error::{ApiError, ProblemCode};
use crate::hub::Hub;
use crate::metrics::Metrics;
use crate::passwords::Passwords;
use crate::routes;
use crate::settings::Settings;
use crate::state::AppState;

/// The documented paths and their methods, to tell a wrong method (405) from a wrong path (404).
#[derive(Clone, Debug)]
struct KnownRoutes(Vec<(Vec<String>, Vec<String>)>);

impl KnownRoutes {
    fn from_document(doc: &utoipa::openapi::OpenApi) -> KnownRoutes {
        let routes = doc
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let segments = path.split('/').map(str::to_owned).collect();
                let methods = [
                    ("GET", &item.get),
                    ("POST", &item.post),
                    ("PUT", &item.put),
                    ("PATCH", &item.patch),
                    ("DELETE", &item.delete),
                ]
                .into_iter()
                .filter(|(_, operation)| operation.is_some())
                .map(|(method, _)| method.to_owned())
                .collect();
                (segments, methods)
            })
            .collect();
        KnownRoutes(routes)
    }

    fn methods_for(&self, path: &str) -> Option<Vec<String>> {
        let segments: Vec<&str> = path.split('/').collect();
        let mut found: Option<Vec<String>> = None;
        for (pattern, methods) in &self.0 {
            let matches = pattern.len() == segments.len()
                && pattern
                    .iter()
                    .zip(&segments)
                    .all(|(p, s)| p == s || (p.starts_with('{') && !s.is_empty()));
            if matches {
                found
                    .get_or_insert_with(Vec::new)
                    .extend(methods.iter().cloned());
            }
        }
        found
    }
}

async fn fallback(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    match DOCUMENT.routes.methods_for(req.path()) {
        Some(mut methods) if !methods.is_empty() => {
            methods.sort();
            methods.dedup();
            let allowed = methods.join(", ");
            let problem = ApiError::MethodNotAllowed(format!(
                "{} is not allowed here; use {allowed}",
                req.method()
            ));
            let mut response = actix_web::ResponseError::error_response(&problem);
            if let Ok(value) = header::HeaderValue::from_str(&allowed) {
                response.headers_mut().insert(header::ALLOW, value);
            }
            Ok(response)
        }
        _ => Err(ApiError::NotFound(format!(
            "there is nothing at {}",
            truncate(req.path())
        ))),
    }
}

fn truncate(text: &str) -> String {
    text.chars().take(80).collect()
}

fn json_error(error: JsonPayloadError, _: &HttpRequest) -> actix_web::Error {
    let api = match &error {
        JsonPayloadError::OverflowKnownLength { limit, .. }
        | JsonPayloadError::Overflow { limit } => ApiError::PayloadTooLarge { limit: *limit },
        JsonPayloadError::ContentType => {
            ApiError::BadRequest("send a JSON body with Content-Type: application/json".to_owned())
        }
        JsonPayloadError::Deserialize(e) if e.is_data() => ApiError::Invalid(e.to_string()),
        JsonPayloadError::Deserialize(e) => {
            ApiError::BadRequest(format!("the body is not valid JSON: {e}"))
        }
        other => ApiError::BadRequest(other.to_string()),
    };
    api.into()
}

fn query_error(error: QueryPayloadError, _: &HttpRequest) -> actix_web::Error {
    ApiError::BadRequest(format!("bad query: {error}")).into()
}

fn path_error(_: PathError, req: &HttpRequest) -> actix_web::Error {
    ApiError::NotFound(format!("there is nothing at {}", truncate(req.path()))).into()
}

async fn docs_redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, "/docs/"))
        .finish()
}

/// The state every worker shares: the pool, the keys, the limits, the hub and the metrics.
fn app_state(
    pool: cardroom_db::Pool,
    db_health: std::sync::Arc<cardroom_db::Health>,
    settings: &Settings,
) -> web::Data<AppState> {
    web::Data::new(AppState {
        pool,
        db_health,
        keys: Keys::new(&settings.jwt_secret, settings.token_ttl),
        metrics: Metrics::default(),
        hub: Hub::with_recheck(settings.recheck),
        feeds: crate::shared::Feeds::default(),
        auth_limiter: crate::limit::AuthLimiter::new(
            settings.auth_per_minute,
            settings.auth_burst,
            settings.client_ip_header.clone(),
        ),
        write_limiter: crate::limit::Limiter::named(
            "writes",
            settings.writes_per_minute,
            settings.writes_burst,
            settings.client_ip_header.clone(),
        ),
        bot_write_limiter: crate::limit::Limiter::named(
            "bot_writes",
            settings.bot_writes_per_minute,
            settings.bot_writes_burst,
            settings.client_ip_header.clone(),
        ),
        bot_credentials: crate::state::BotCredentials::default(),
        passwords: std::sync::Arc::new(Passwords::for_this_machine()),
        presence: std::sync::Arc::default(),
        known_accounts: crate::state::KnownAccounts::default(),
        settings: settings.clone(),
    })
}

/// Counts and times every request by its route's template (`/api/v1/games/{id}`, never one per
/// id), and answers with the request's id in the logs (`x-request-id`) for a client's bug report.
async fn observe_requests(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>, actix_web::Error> {
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let route = req
        .match_pattern()
        .unwrap_or_else(|| "unmatched".to_owned());
    let method = req.method().as_str().to_owned();
    let request_id = actix_web::HttpMessage::extensions(&req)
        .get::<tracing_actix_web::RequestId>()
        .map(|id| id.to_string());
    let started = std::time::Instant::now();
    let mut response = next.call(req).await?;
    if let Some(value) = request_id.and_then(|id| header::HeaderValue::from_str(&id).ok()) {
        response
            .headers_mut()
            .insert(header::HeaderName::from_static("x-request-id"), value);
    }
    if let Some(state) = state {
        state.metrics.observe_request(
            &method,
            &route,
            response.status().as_u16(),
            started.elapsed(),
        );
    }
    Ok(response)
}

/// The running service.
pub struct Application {
    port: u16,
    server: Server,
}

impl std::fmt::Debug for Application {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Application")
            .field("port", &self.port)
            .finish_non_exhaustive()
    }
}

/// Why the service could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: String,
        source: std::io::Error,
    },
    #[error("database: {0}")]
    Database(#[from] cardroom_db::DbError),
    #[error("{0}")]
    Admin(String),
}

impl Application {
    /// Connects to the database (running migrations), makes the configured admin, binds, and
    /// starts the recovery sweep. Call inside an actix runtime.
    pub async fn build(settings: Settings) -> Result<Application, StartupError> {
        let url = settings.database_url.clone();
        let (size, timeout) = (settings.db_pool, settings.db_timeout);
        let (pool, db_health) =
            web::block(move || cardroom_db::connect_with_health(&url, size, timeout))
                .await
                .map_err(|e| {
                    StartupError::Database(cardroom_db::DbError::Other(e.to_string()))
                })??;
        if let Some((name, password)) = settings.admin.clone() {
            let pool = pool.clone();
            web::block(move || ensure_admin(&pool, &name, &password))
                .await
                .map_err(|e| StartupError::Admin(e.to_string()))??;
        }
        let listener = TcpListener::bind(&settings.addr).map_err(|source| StartupError::Bind {
            addr: settings.addr.clone(),
            source,
        })?;
        let port = listener
            .local_addr()
            .map_err(|source| StartupError::Bind {
                addr: settings.addr.clone(),
                source,
            })?
            .port();
        db_health.set_hold(settings.db_hold);
        let state = app_state(pool, db_health, &settings);
        crate::presence::set_window(settings.presence_window);
        let listening = state.clone();
        cardroom_db::notify::listen(&settings.database_url, move |notice| {
            listening.hub.hear(notice)
        })?;
        let max_body = settings.max_body;
        let client_timeout = settings.client_timeout;
        let cors_origins = settings.cors_origins.clone();
        let app_state = state.clone();
        let server = HttpServer::new(move || {
            App::new()
                .configure(routes::serve)
                .app_data(app_state.clone())
                .app_data(
                    web::JsonConfig::default()
                        .limit(max_body)
                        .error_handler(json_error),
                )
                .app_data(web::PayloadConfig::default().limit(max_body))
                .app_data(crate::input::BodyTimeout(client_timeout))
                .app_data(web::QueryConfig::default().error_handler(query_error))
                .app_data(web::PathConfig::default().error_handler(path_error))
                .service(
                    SwaggerUi::new("/docs/{_:.*}")
                        .config(utoipa_swagger_ui::Config::from("/openapi.json")),
                )
                .service(
                    web::resource("/openapi.json")
                        .route(web::get().to(served_document))
                        .route(web::head().to(served_document)),
                )
                .route("/docs", web::get().to(docs_redirect))
                .service(
                    web::resource("/")
                        .route(web::get().to(crate::web::index))
                        .route(web::head().to(crate::web::index)),
                )
                .service(
                    web::resource("/admin")
                        .route(web::get().to(crate::web::admin))
                        .route(web::head().to(crate::web::admin)),
                )
                .service(
                    web::resource("/assets/{name:.*}")
                        .route(web::get().to(crate::web::asset))
                        .route(web::head().to(crate::web::asset)),
                )
                .default_service(web::to(fallback))
                // (The credentials are checked first: a write counts against its account.)
                .wrap(actix_web::middleware::from_fn(crate::guards::limit_writes))
                .wrap(actix_web::middleware::from_fn(
                    crate::guards::check_credentials,
                ))
                .wrap(actix_web::middleware::from_fn(observe_requests))
                .wrap(actix_web::middleware::Condition::new(
                    !cors_origins.is_empty(),
                    cors(&cors_origins),
                ))
                .wrap(actix_web::middleware::from_fn(cors_refusals))
                .wrap(TracingLogger::default())
        })
        // A client that closes its side of the connection has gone: end its request (an event
        // stream gives its slot back at once) rather than wait for a write to fail, which for
        // a quiet stream is the second heartbeat after it left. No client of this API sends a
        // request and then waits for the answer with its side shut.
        .h1_allow_half_closed(false);
        // With h2c on, the first bytes of each connection tell HTTP/2's preface from HTTP/1.1.
        let server = if settings.h2c {
            server.listen_auto_h2c(listener)
        } else {
            server.listen(listener)
        };
        let mut server = server
            .map_err(|source| StartupError::Bind {
                addr: settings.addr.clone(),
                source,
            })?
            .disable_signals()
            // A request's headers must come within the client timeout (its body too: see
            // `input::Json`), so slow senders cannot hold connections open.
            .client_request_timeout(settings.client_timeout)
            .shutdown_timeout(10);
        if settings.workers > 0 {
            server = server.workers(settings.workers);
        }
        let server = server.run();
        actix_web::rt::spawn(stop_on_signal(server.handle(), state.clone()));
        actix_web::rt::spawn(crate::jobs::write_presence(state.clone()));
        actix_web::rt::spawn(crate::sentinel::watch(state.clone()));
        if state.settings.analysis {
            actix_web::rt::spawn(crate::jobs::analyse_finished(state.clone()));
        }
        actix_web::rt::spawn(crate::jobs::recovery_sweep(state));
        Ok(Application { port, server })
    }

    /// The port the service listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves until stopped.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}

/// The OpenAPI document as served, and the routes read from it, made once in a process on first
/// need (a request for the document, or one no route matches) rather than at start: making
/// them was most of a start's work in a debug build, and a server may never need them.
struct Document {
    text: String,
    routes: KnownRoutes,
}

static DOCUMENT: LazyLock<Document> = LazyLock::new(|| {
    let document = openapi_document();
    let routes = KnownRoutes::from_document(&document);
    let text = serde_json::to_string(&served_json(document)).unwrap_or_default();
    Document { text, routes }
});

async fn served_document() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(DOCUMENT.text.clone())
}

/// Cross-origin calls from the configured origins' pages (`*`: any): the API's methods and the
/// headers a client sends (the token, an idempotency key, a stream's last id) and reads (limits,
/// Retry-After, the request id). No cookies are involved: credentials are bearer tokens.
fn cors(origins: &[String]) -> actix_cors::Cors {
    let mut cors = actix_cors::Cors::default()
        .allowed_methods(["GET", "POST", "PUT", "DELETE"])
        .allowed_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::ACCEPT,
            header::HeaderName::from_static("idempotency-key"),
            header::HeaderName::from_static("last-event-id"),
        ])
        .expose_headers([
            header::RETRY_AFTER,
            header::HeaderName::from_static("ratelimit"),
            header::HeaderName::from_static("ratelimit-policy"),
            header::HeaderName::from_static("x-request-id"),
        ])
        .max_age(3600);
    if origins.iter().any(|o| o == "*") {
        cors = cors.allow_any_origin();
    } else {
        for origin in origins {
            cors = cors.allowed_origin(origin);
        }
    }
    cors
}

/// A CORS preflight the configuration does not allow is refused as every refusal is, in
/// problem+json (`403 cors_refused`), not as the CORS middleware's plain text.
async fn cors_refusals(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<actix_web::dev::ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    let preflight = req.method() == actix_web::http::Method::OPTIONS
        && req.headers().contains_key(header::ORIGIN)
        && req
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    let response = next.call(req).await?.map_into_boxed_body();
    let problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/problem+json"));
    // (Without any origin configured the preflight reaches no route, which would answer 405:
    // that is a refusal too, and said as one.)
    let refused_already = problem && response.status() == actix_web::http::StatusCode::FORBIDDEN;
    if preflight && response.status().is_client_error() && !refused_already {
        let refusal = ApiError::Denied {
            code: ProblemCode::CorsRefused,
            detail: "this cross-origin request is not allowed: its origin, method or headers are \
                     not among those CARDROOM_CORS_ORIGINS permits"
                .to_owned(),
        };
        let (request, _) = response.into_parts();
        let answer = actix_web::ResponseError::error_response(&refusal);
        return Ok(actix_web::dev::ServiceResponse::new(request, answer));
    }
    Ok(response)
}

fn ensure_admin(pool: &cardroom_db::Pool, name: &str, password: &str) -> Result<(), StartupError> {
    let fail = |e: &dyn std::fmt::Display| StartupError::Admin(format!("CARDROOM_ADMIN: {e}"));
    let mut conn = pool.get().map_err(|e| fail(&e))?;
    let hash = Passwords::new(1, crate::passwords::WAIT)
        .hash_now(password)
        .map_err(|e| fail(&e))?;
    // Under the setup lock: replicas starting together each find the account or make it once.
    cardroom_db::with_setup_lock(&mut conn, |conn| {
        let user = match cardroom_db::users::by_name(conn, name)? {
            Some(user) => user,
            None => cardroom_db::users::create(conn, name, Some(&hash), false)?,
        };
        cardroom_db::users::set_password(conn, user.id, &hash)?;
        cardroom_db::users::set_role(conn, user.id, "admin")?;
        Ok::<_, StartupError>(())
    })?;
    tracing::info!(name, "admin account ready");
    Ok(())
}

/// On SIGTERM or SIGINT: close event streams (clients reconnect elsewhere after the retry hint),
/// stop accepting, and let in-flight requests finish.
async fn stop_on_signal(handle: actix_web::dev::ServerHandle, state: web::Data<AppState>) {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = interrupt => {}
        () = terminate => {}
    }
    tracing::info!("stopping: closing event streams, finishing requests in flight");
    state.hub.shut_down();
    handle.stop(true).await;
}
