//! Assembling the application: the database, the routes, the OpenAPI document, the error
//! handlers, and the background recovery of games left on a computer player's turn.

use std::net::TcpListener;

use actix_web::dev::Server;
use actix_web::error::{JsonPayloadError, PathError, QueryPayloadError};
use actix_web::http::header;
use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use tracing_actix_web::TracingLogger;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::service_config::ServiceConfig;
use utoipa_actix_web::{AppExt, scope};
use utoipa_swagger_ui::SwaggerUi;

use crate::auth::Keys;
use crate::error::{ApiError, Problem};
use crate::live::Hub;
use crate::metrics::Metrics;
use crate::passwords::Passwords;
use crate::routes;
use crate::settings::Settings;
use crate::state::AppState;

/// The OpenAPI document's fixed parts; the paths are collected from the routes.
#[derive(OpenApi, Debug)]
#[openapi(
    info(
        title = "Cardroom",
        description = "Basra, 31, Rummy and Tarneeb for people and programs. Errors are \
                       `application/problem+json` with a stable `code`. Send the token from \
                       `/auth/*` as `Authorization: Bearer <token>`.",
        license(name = "MIT OR Apache-2.0"),
    ),
    modifiers(&BearerAuth),
    components(schemas(Problem)),
    tags(
        (name = "auth", description = "Accounts and tokens"),
        (name = "catalogue", description = "The games on offer"),
        (name = "games", description = "Playing"),
        (name = "chat", description = "Table chat and mutes"),
        (name = "account", description = "Personal API tokens, bot accounts, and the account's event stream"),
        (name = "challenges", description = "Challenging a person or a bot to a game"),
        (name = "players", description = "Profiles and leaderboards: public"),
        (name = "operations", description = "Health, readiness, metrics"),
        (name = "admin", description = "History, replays, statistics and roles: admins only"),
    )
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
    }
}

/// Every documented route.
fn api_routes(config: &mut ServiceConfig) {
    config
        .service(
            scope::scope("/api/v1")
                .service(routes::guest)
                .service(routes::register)
                .service(routes::login)
                .service(routes::kinds)
                .service(routes::create_game)
                .service(routes::list_games)
                .service(routes::lobby)
                .service(routes::create_seek)
                .service(routes::get_seek)
                .service(routes::cancel_seek)
                .service(routes::join_game)
                .service(routes::get_game)
                .service(routes::make_move)
                .service(routes::deal)
                .service(routes::resign)
                .service(routes::reclaim)
                .service(routes::score)
                .service(routes::game_log)
                .service(routes::export_game)
                .service(routes::events)
                .service(routes::player)
                .service(routes::leaderboard)
                .service(routes::admin_games)
                .service(routes::admin_game)
                .service(routes::admin_replay)
                .service(routes::admin_stats)
                .service(routes::admin_set_role)
                .service(routes::table::presets)
                .service(routes::table::post_chat)
                .service(routes::table::get_chat)
                .service(routes::table::post_rematch)
                .service(routes::table::mutes)
                .service(routes::table::mute)
                .service(routes::table::unmute)
                .service(routes::table::admin_chat)
                .service(routes::table::admin_hide)
                .service(routes::table::admin_mute)
                .service(routes::account::create_token)
                .service(routes::account::list_tokens)
                .service(routes::account::revoke_token)
                .service(routes::account::become_bot)
                .service(routes::challenges::create)
                .service(routes::challenges::list)
                .service(routes::challenges::get_one)
                .service(routes::challenges::accept)
                .service(routes::challenges::decline)
                .service(routes::challenges::cancel)
                .service(routes::challenges::account_stream),
        )
        .service(routes::healthz)
        .service(routes::readyz)
        .service(routes::metrics);
}

/// The OpenAPI document of the routes, as utoipa derives it (see [`openapi_json`] for the one
/// served).
pub fn openapi_document() -> utoipa::openapi::OpenApi {
    let (_, mut doc) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(api_routes)
        .split_for_parts();
    doc.info.version = env!("CARGO_PKG_VERSION").to_owned();
    add_common_responses(&mut doc);
    describe_every_response(&mut doc);
    state_header_rules(&mut doc);
    doc
}

/// The document as the service serves it at `/openapi.json` (committed as
/// `openapi/openapi.json`): [`openapi_document`], its schemas reshaped for client generators
/// ([`crate::document`]).
pub fn openapi_json() -> serde_json::Value {
    let mut value = serde_json::to_value(openapi_document()).unwrap_or_default();
    crate::document::for_generators(&mut value);
    value
}

/// OpenAPI requires a description on every response: where a route gave none, the status's
/// meaning here (and, for errors, its codes).
fn describe_every_response(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::RefOr;
    for item in doc.paths.paths.values_mut() {
        for operation in [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.delete,
        ]
        .into_iter()
        .flatten()
        {
            for (status, response) in operation.responses.responses.iter_mut() {
                if let RefOr::T(response) = response
                    && response.description.trim().is_empty()
                {
                    response.description = default_description(status).to_owned();
                }
            }
        }
    }
}

fn default_description(status: &str) -> &'static str {
    match status {
        "200" => "Success",
        "201" => "Created",
        "400" => "`validation_failed`: the body, query or path could not be read",
        "401" => "`unauthorized`: no token, or an invalid one",
        "403" => "`forbidden`: the caller may not do this",
        "404" => "`not_found`: no such game, player or game kind",
        "409" => "A conflict with the game's state: see the problem's `code`",
        "422" => "`validation_failed`: a value the rules do not allow",
        "429" => "Too many requests: see the problem's `code` and Retry-After",
        "503" => "`unavailable`: try again shortly; see Retry-After",
        _ => "See the problem's `code`",
    }
}

/// Rules on parameters that the route macros cannot state: an Idempotency-Key's spelling, and
/// `mine`'s one value.
fn state_header_rules(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    use utoipa::openapi::{RefOr, Schema};
    for item in doc.paths.paths.values_mut() {
        for operation in [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.delete,
        ]
        .into_iter()
        .flatten()
        {
            for parameter in operation.parameters.iter_mut().flatten() {
                let RefOr::T(parameter) = parameter else {
                    continue;
                };
                if parameter.name == "Idempotency-Key" {
                    parameter.schema = Some(RefOr::T(Schema::Object(
                        ObjectBuilder::new()
                            .schema_type(Type::String)
                            .pattern(Some(routes::IDEMPOTENCY_KEY_PATTERN))
                            .build(),
                    )));
                }
                // `GET /games` lists only the caller's games: `mine` may only be true.
                if parameter.name == "mine" {
                    parameter.schema = Some(RefOr::T(Schema::Object(
                        ObjectBuilder::new()
                            .schema_type(Type::Boolean)
                            .enum_values(Some([true]))
                            .build(),
                    )));
                }
            }
        }
    }
}

/// The answers every operation can give for what it reads, written once instead of on every
/// route: 400 `validation_failed` where a body, a query or a path is parsed (malformed JSON, a
/// query that is no query), 401 `unauthorized` where a token is required, 429 `rate_limited`
/// on every write but signing in, and 404 `not_found` where the path names a game, a player or
/// a game kind.
fn add_common_responses(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};
    let problem = |description: &str| {
        RefOr::T(
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/problem+json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("Problem")))
                        .build(),
                )
                .build(),
        )
    };
    for (path, item) in doc.paths.paths.iter_mut() {
        let names_something = path.contains('{');
        for (item_writes, operation) in [
            (false, &mut item.get),
            (true, &mut item.post),
            (true, &mut item.put),
            (true, &mut item.delete),
        ] {
            let Some(operation) = operation else {
                continue;
            };
            let reads_input = operation.request_body.is_some()
                || operation.parameters.as_ref().is_some_and(|p| !p.is_empty());
            let responses = &mut operation.responses.responses;
            if reads_input && !responses.contains_key("400") {
                responses.insert(
                    "400".to_owned(),
                    problem("`validation_failed`: the body, query or path could not be read"),
                );
            }
            let needs_token = operation.security.as_ref().is_some_and(|s| !s.is_empty());
            if needs_token && !responses.contains_key("401") {
                responses.insert(
                    "401".to_owned(),
                    problem("`unauthorized`: no token, or an invalid one"),
                );
            }
            // Every write but signing in counts against the `writes` limit.
            let writes = item_writes && !path.starts_with("/api/v1/auth/");
            if writes && !responses.contains_key("429") {
                responses.insert(
                    "429".to_owned(),
                    problem(
                        "`rate_limited` (the `writes` limit, named in the problem's `limit`): see \
                         Retry-After, and RateLimit-Policy and RateLimit on every write",
                    ),
                );
            }
            if names_something && !responses.contains_key("404") {
                responses.insert(
                    "404".to_owned(),
                    problem("`not_found`: no such game, player or game kind"),
                );
            }
        }
    }
}

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

async fn fallback(
    req: HttpRequest,
    routes: web::Data<KnownRoutes>,
) -> Result<HttpResponse, ApiError> {
    match routes.methods_for(req.path()) {
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
        let state = web::Data::new(AppState {
            pool,
            db_health,
            keys: Keys::new(&settings.jwt_secret, settings.token_ttl),
            metrics: Metrics::default(),
            hub: Hub::default(),
            feeds: crate::feeds::Feeds::default(),
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
            passwords: std::sync::Arc::new(Passwords::for_this_machine()),
            presence: std::sync::Arc::default(),
            settings: settings.clone(),
        });
        crate::presence::set_window(settings.presence_window);
        let listening = state.clone();
        cardroom_db::notify::listen(&settings.database_url, move |notice| {
            listening.hub.hear(notice)
        })?;
        let document = openapi_document();
        let served = web::Data::new(ServedDocument(
            serde_json::to_string(&openapi_json()).unwrap_or_default(),
        ));
        let known = web::Data::new(KnownRoutes::from_document(&document));
        let max_body = settings.max_body;
        let cors_origins = settings.cors_origins.clone();
        let app_state = state.clone();
        let mut server = HttpServer::new(move || {
            let (app, _) = App::new()
                .into_utoipa_app()
                .openapi(ApiDoc::openapi())
                .configure(api_routes)
                .split_for_parts();
            let counted = app_state.clone();
            app.app_data(app_state.clone())
                .app_data(known.clone())
                .app_data(served.clone())
                .app_data(
                    web::JsonConfig::default()
                        .limit(max_body)
                        .error_handler(json_error),
                )
                .app_data(web::PayloadConfig::default().limit(max_body))
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
                .wrap(actix_web::middleware::from_fn(
                    crate::auth::check_api_tokens,
                ))
                .wrap(actix_web::middleware::from_fn(crate::limit::limit_writes))
                .wrap_fn(move |req, srv| {
                    let metrics = counted.clone();
                    // The route's template, not the path: `/api/v1/games/{id}`, never one per id.
                    let route = req
                        .match_pattern()
                        .unwrap_or_else(|| "unmatched".to_owned());
                    let method = req.method().as_str().to_owned();
                    let request_id = actix_web::HttpMessage::extensions(&req)
                        .get::<tracing_actix_web::RequestId>()
                        .map(|id| id.to_string());
                    let started = std::time::Instant::now();
                    let response = actix_web::dev::Service::call(srv, req);
                    async move {
                        let mut response = response.await?;
                        // The id of this request in the logs, for a client's bug report.
                        if let Some(value) = request_id
                            .and_then(|id: String| header::HeaderValue::from_str(&id).ok())
                        {
                            response
                                .headers_mut()
                                .insert(header::HeaderName::from_static("x-request-id"), value);
                        }
                        metrics.metrics.observe_request(
                            &method,
                            &route,
                            response.status().as_u16(),
                            started.elapsed(),
                        );
                        Ok(response)
                    }
                })
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
        .h1_allow_half_closed(false)
        .listen(listener)
        .map_err(|source| StartupError::Bind {
            addr: settings.addr.clone(),
            source,
        })?
        .disable_signals()
        .shutdown_timeout(10);
        if settings.workers > 0 {
            server = server.workers(settings.workers);
        }
        let server = server.run();
        actix_web::rt::spawn(stop_on_signal(server.handle(), state.clone()));
        actix_web::rt::spawn(crate::presence::keep_writing(state.clone()));
        actix_web::rt::spawn(recovery_sweep(state));
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

/// The OpenAPI document, as text, made once at start.
#[derive(Debug)]
struct ServedDocument(String);

async fn served_document(document: web::Data<ServedDocument>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(document.0.clone())
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
    if preflight && response.status().is_client_error() && !problem {
        let refusal = ApiError::Denied {
            code: "cors_refused",
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

/// How many days an account's events are kept for its stream to resume from.
pub const ACCOUNT_EVENTS_DAYS: i64 = 7;

/// Every few seconds, lets computer players finish the turns of games left on their turn, and
/// plays for the people whose turn timer ran out.
async fn recovery_sweep(state: web::Data<AppState>) {
    let every = state.settings.sweep_every;
    let mut forgot: Option<std::time::Instant> = None;
    loop {
        actix_web::rt::time::sleep(every).await;
        // Once an hour: account events older than the stream keeps them.
        if forgot.is_none_or(|at| at.elapsed() >= std::time::Duration::from_secs(3600)) {
            forgot = Some(std::time::Instant::now());
            let forgotten = routes::run(&state, |conn, _| {
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
        let result = routes::run(&state, |conn, state| {
            Ok((
                crate::play::recover(conn, &state.metrics)?,
                crate::play::enforce_timers(conn, &state.metrics)?,
                crate::play::expire_open_tables(conn, state.settings.open_table_expiry)?,
                crate::play::seeks::sweep(conn, state.settings.seek_timeout, &state.metrics)?,
                crate::play::challenges::expire(conn)?,
            ))
        })
        .await;
        match result {
            Ok((recovered, timed_out, expired, matched, challenges)) => {
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
                    .chain(matched)
                {
                    state.hub.publish(Some(id));
                }
            }
            Err(ApiError::Unavailable) => {}
            Err(error) => tracing::warn!(%error, "recovery sweep failed"),
        }
    }
}
