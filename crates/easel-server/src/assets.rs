//! The web UI, built by `build.rs` and embedded: the bundle under `/assets/`, and the page
//! shell for every other `GET` (`/`, `/canvas/{path}`, `/doc/{path}`, `/agent/{name}`, …).

use crate::AppState;
use crate::api::error_response;
use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use easel_core::ErrorKind;

struct Asset {
    name: &'static str,
    raw: &'static [u8],
    gz: &'static [u8],
    mime: &'static str,
}

/// Every file of the bundle: `app.js`, the page chunks it loads, `app.css`, `index.html`.
static ASSETS: &[Asset] = include!(concat!(env!("OUT_DIR"), "/web/assets.rs"));

fn find(name: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.name == name)
}

/// What the page may load and run: only this server's own script and styles, so a Markdown
/// node that slipped a `<script>` or an `onerror=` past sanitising still runs nothing.
const PAGE_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data: blob:; media-src 'self'; connect-src 'self'; object-src 'none'; \
frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/assets/{file}", get(asset))
        .fallback(page)
}

/// The bundle's total size in bytes, compressed as browsers get it (for the size aim).
pub fn bundle_gzipped_bytes() -> usize {
    ASSETS.iter().map(|a| a.gz.len()).sum()
}

/// `EASEL_WEB_DIR=DIR` serves the bundle from `DIR` (what `node build.mjs --outdir DIR` wrote)
/// instead of the embedded one, read on every request: front-end work without rebuilding the
/// binary.
fn from_dir(name: &str) -> Option<Vec<u8>> {
    let dir = std::env::var_os("EASEL_WEB_DIR")?;
    std::fs::read(std::path::Path::new(&dir).join(name)).ok()
}

fn mime_of(name: &str) -> &'static str {
    if name.ends_with(".js") {
        "text/javascript; charset=utf-8"
    } else if name.ends_with(".css") {
        "text/css; charset=utf-8"
    } else {
        "text/html; charset=utf-8"
    }
}

/// A file of `EASEL_WEB_DIR`, when that is set and holds it.
fn dev_file(name: &str) -> Option<Response> {
    let plain = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'_');
    if !plain || name.starts_with('.') {
        return None;
    }
    let body = from_dir(name)?;
    let mut resp = (StatusCode::OK, body).into_response();
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(mime_of(name)),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Some(resp)
}

fn send(a: &Asset, headers: &HeaderMap, cache: &'static str) -> Response {
    if let Some(resp) = dev_file(a.name) {
        return resp;
    }
    let gzip = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|e| e.trim().starts_with("gzip")));
    let body = if gzip { a.gz } else { a.raw };
    let mut resp = (StatusCode::OK, body).into_response();
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(a.mime));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if gzip {
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    resp
}

async fn asset(Path(file): Path<String>, headers: HeaderMap) -> Response {
    // index.html is a page, not an asset.
    if file != "index.html"
        && let Some(resp) = dev_file(&file)
    {
        return resp;
    }
    let Some(a) = find(&file).filter(|a| a.name != "index.html") else {
        return error_response(
            ErrorKind::NotFound,
            &format!("no asset '{file}'"),
            "reload the page: a newer `easel serve` may have replaced the bundle",
        );
    };
    // A new binary may bring a new bundle under the same name: revalidate, never trust a cache.
    send(a, &headers, "no-cache")
}

async fn page(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    if uri.path().starts_with("/api/") {
        return error_response(
            ErrorKind::NotFound,
            &format!("no endpoint {} {}", method, uri.path()),
            "the API is `GET /api/ops`, `POST /api/ops/{name}`, `GET /api/events`, `GET /api/files/{path}` and `POST /api/runs/{run}/cancel`",
        );
    }
    if method != Method::GET && method != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, "pages are read with GET").into_response();
    }
    let Some(index) = find("index.html") else {
        return error_response(
            ErrorKind::Failure,
            "this build of easel has no web UI bundle",
            "rebuild easel with Node.js and npm installed",
        );
    };
    let mut resp = send(index, &headers, "no-store");
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(PAGE_POLICY),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    resp
}
