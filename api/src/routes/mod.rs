//! The HTTP handlers, by resource. Each does four things: extract, authorise, make one call,
//! map the result.

pub mod account;
pub mod actions;
pub mod admin;
pub mod auth;
pub mod challenges;
pub mod games;
pub mod lobby;
pub mod operations;
mod params;
pub mod players;
pub mod table;
pub mod tournaments;

/// Every documented route, in the order the OpenAPI document lists them: `$config` is an
/// actix `ServiceConfig` or utoipa's (which also collects each route's documentation), `$scope`
/// the matching scope constructor. One list, so the routes served and the routes documented
/// cannot differ.
macro_rules! every_route {
    ($config:expr, $scope:path) => {
        $config
            .service(
                $scope("/api/v1")
                    .service(auth::guest)
                    .service(auth::register)
                    .service(auth::login)
                    .service(games::kinds)
                    .service(games::create_game)
                    .service(games::list_games)
                    .service(lobby::lobby)
                    .service(lobby::create_seek)
                    .service(lobby::get_seek)
                    .service(lobby::cancel_seek)
                    .service(games::join_game)
                    .service(games::get_game)
                    .service(games::invitation)
                    .service(actions::make_move)
                    .service(actions::deal)
                    .service(actions::resign)
                    .service(actions::reclaim)
                    .service(games::score)
                    .service(games::game_log)
                    .service(games::export_game)
                    .service(games::game_analysis)
                    .service(games::events)
                    .service(players::player)
                    .service(players::leaderboard)
                    .service(admin::admin_games)
                    .service(admin::admin_game)
                    .service(admin::admin_replay)
                    .service(admin::admin_stats)
                    .service(admin::admin_set_role)
                    .service(table::presets)
                    .service(table::post_chat)
                    .service(table::get_chat)
                    .service(table::post_rematch)
                    .service(table::mutes)
                    .service(table::mute)
                    .service(table::unmute)
                    .service(table::admin_chat)
                    .service(table::admin_hide)
                    .service(table::admin_mute)
                    .service(account::create_token)
                    .service(account::list_tokens)
                    .service(account::revoke_token)
                    .service(account::become_bot)
                    .service(challenges::create)
                    .service(challenges::list)
                    .service(challenges::get_one)
                    .service(challenges::accept)
                    .service(challenges::decline)
                    .service(challenges::cancel)
                    .service(challenges::account_stream)
                    .service(tournaments::create)
                    .service(tournaments::list)
                    .service(tournaments::get_one)
                    .service(tournaments::update)
                    .service(tournaments::cancel)
                    .service(tournaments::join)
                    .service(tournaments::withdraw),
            )
            .service(operations::healthz)
            .service(operations::readyz)
            .service(operations::metrics)
    };
}

/// The routes with their documentation, for the OpenAPI document (`crate::document`).
pub fn configure(config: &mut utoipa_actix_web::service_config::ServiceConfig) {
    every_route!(config, utoipa_actix_web::scope::scope);
}

/// The same routes for serving them, without building each one's documentation: utoipa's
/// configuration composes every operation's schemas as it registers it, which in a debug build
/// was a third of a worker's start (and the server starts one worker a core).
pub fn serve(config: &mut actix_web::web::ServiceConfig) {
    every_route!(config, actix_web::web::scope);
}
