//! The play page: static files from `web/`, embedded in the binary at compile time.
//!
//! The page is plain HTML, CSS and ES modules with no build step; it talks only to the public
//! API. Every file is listed here (a test checks the list against the folder), served with its
//! content type, a strong ETag and a Content-Security-Policy that allows nothing from
//! elsewhere.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};

/// One embedded file: its name under `/assets/`, its content type and its bytes.
struct Asset {
    name: &'static str,
    content_type: &'static str,
    body: &'static str,
}

macro_rules! assets {
    ($($name:literal => $content_type:expr),* $(,)?) => {
        &[$(Asset {
            name: $name,
            content_type: $content_type,
            body: include_str!(concat!("../../web/", $name)),
        }),*]
    };
}

const JS: &str = "text/javascript; charset=utf-8";

static ASSETS: &[Asset] = assets![
    "app.css" => "text/css; charset=utf-8",
    "main.js" => JS,
    "ui.js" => JS,
    "api.js" => JS,
    "i18n.js" => JS,
    "cards.js" => JS,
    "glyphs.js" => JS,
    "lobby.js" => JS,
    "table.js" => JS,
    "table_view.js" => JS,
    "help.js" => JS,
    "players.js" => JS,
    "chat.js" => JS,
    "analysis.js" => JS,
    "account.js" => JS,
    "tournaments.js" => JS,
    "tournament_views.js" => JS,
    "tournament_form.js" => JS,
    "seating.js" => JS,
    "sound.js" => JS,
    "identity.js" => JS,
    "invitation.js" => JS,
    "house_rules.js" => JS,
    "names.js" => JS,
    "narrate.js" => JS,
    "problems.js" => JS,
    "strings/en.js" => JS,
    "strings/ar.js" => JS,
    "games/basra.js" => JS,
    "games/thirty_one.js" => JS,
    "games/rummy.js" => JS,
    "games/tarneeb.js" => JS,
    "games/renderer.js" => JS,
    "favicon.svg" => "image/svg+xml",
    "admin.js" => JS,
    "admin_replay.js" => JS,
    "admin.css" => "text/css; charset=utf-8",
];

const INDEX: &str = include_str!("../../web/index.html");
const ADMIN: &str = include_str!("../../web/admin.html");

/// Scripts, styles, images and requests only from this origin; no frames, no plugins.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; \
                   script-src 'self'; connect-src 'self'; object-src 'none'; \
                   frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// An ETag from the build: the files change only with the binary.
fn etag(body: &str) -> String {
    // FNV-1a: stable across builds and platforms, and enough to tell two versions apart.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in body.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("\"{hash:016x}\"")
}

fn serve(req: &HttpRequest, content_type: &str, body: &'static str) -> HttpResponse {
    let tag = etag(body);
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag));
    let mut response = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, tag))
        // Revalidate every time: a new binary must never run against a cached old module.
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::CONTENT_SECURITY_POLICY, CSP))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "no-referrer"));
    if fresh {
        response.finish()
    } else {
        response.content_type(content_type).body(body)
    }
}

/// `GET /`: the page.
pub async fn index(req: HttpRequest) -> HttpResponse {
    serve(&req, "text/html; charset=utf-8", INDEX)
}

/// `GET /admin`: the admin pages (they sign in and call the admin API themselves).
pub async fn admin(req: HttpRequest) -> HttpResponse {
    serve(&req, "text/html; charset=utf-8", ADMIN)
}

/// `GET /assets/{name}`: one of the page's files, or a problem+json 404.
pub async fn asset(req: HttpRequest, name: web::Path<String>) -> HttpResponse {
    match ASSETS.iter().find(|a| a.name == name.as_str()) {
        Some(asset) => serve(&req, asset.content_type, asset.body),
        None => {
            actix_web::ResponseError::error_response(&crate::error::ApiError::NotFound(format!(
                "there is no page file {:?}",
                name.chars().take(80).collect::<String>()
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn files_under(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            if path.is_dir() {
                files_under(&path, &format!("{prefix}{name}/"), out);
            } else if name != "index.html" && name != "admin.html" {
                out.push(format!("{prefix}{name}"));
            }
        }
    }

    #[test]
    fn every_file_of_the_page_is_embedded_and_nothing_else() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web");
        let mut on_disk = Vec::new();
        files_under(&dir, "", &mut on_disk);
        on_disk.sort();
        let mut listed: Vec<String> = ASSETS.iter().map(|a| a.name.to_owned()).collect();
        listed.sort();
        assert_eq!(listed, on_disk);
        assert!(
            ASSETS
                .iter()
                .all(|a| a.name.ends_with(".js") == (a.content_type == JS))
        );
    }

    #[test]
    fn the_page_loads_only_what_is_embedded() {
        for src in INDEX
            .split("/assets/")
            .chain(ADMIN.split("/assets/").skip(1))
            .skip(1)
        {
            let name = src.split('"').next().unwrap_or_default();
            assert!(
                ASSETS.iter().any(|a| a.name == name),
                "{name} is not embedded"
            );
        }
        for asset in ASSETS.iter().filter(|a| a.name.ends_with(".js")) {
            // (A statement, not a line: an import may run over several lines.)
            for line in asset
                .body
                .split(';')
                .map(str::trim_start)
                .filter(|l| l.starts_with("import "))
            {
                let target = line.rsplit(" from ").next().unwrap_or(line);
                assert!(
                    target.contains("'./") || target.contains("'../"),
                    "{}: {line} imports from elsewhere",
                    asset.name
                );
            }
        }
    }

    #[test]
    fn etags_tell_versions_apart() {
        assert_ne!(etag("a"), etag("b"));
        assert_eq!(etag("a"), etag("a"));
    }
}
