//! `GET /api/files/{path}`: a vault file as it is on disk (images and other files a board shows).

use crate::AppState;
use crate::api::error_response;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use easel_ops::OpError;

pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/files/{*path}", get(file))
}

/// The type a browser gets. Anything that could run script in this origin (HTML, XML, unknown
/// types) is sent as plain text or bytes; SVG only ever loads as an image.
pub(crate) fn content_type(path: &str) -> &'static str {
    let ext = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "bmp" => "image/bmp",
        "ico" => "image/x-icon",
        "svg" => "image/svg+xml",
        "pdf" => "application/pdf",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "ogg" => "audio/ogg",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        "json" | "canvas" => "application/json",
        "md" | "txt" | "csv" | "html" | "htm" | "xml" | "js" | "css" | "toml" | "yaml" | "yml" => {
            "text/plain; charset=utf-8"
        }
        _ => "application/octet-stream",
    }
}

async fn file(
    State(state): State<AppState>,
    Path(path): Path<String>,
    headers: HeaderMap,
) -> Response {
    let vault = state.vault.clone();
    let p = path.clone();
    let read = tokio::task::spawn_blocking(move || {
        let vp = vault.resolve(&p)?;
        vault.read(&vp)
    })
    .await;
    let (bytes, rev) = match read {
        Ok(Ok(pair)) => pair,
        Ok(Err(e)) => {
            let e = OpError::from(e);
            return error_response(e.kind, &e.message, &e.hint);
        }
        Err(_) => {
            return error_response(
                easel_core::ErrorKind::Failure,
                "the file could not be read",
                "try again",
            );
        }
    };
    let etag = format!("\"{rev}\"");
    if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag))
    {
        return StatusCode::NOT_MODIFIED.into_response();
    }
    let mut resp = (StatusCode::OK, bytes).into_response();
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(&path)),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // Opened on its own (not as an image), an SVG's scripts must not run in this origin.
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'",
        ),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_that_runs_script_is_sent_as_itself() {
        assert_eq!(content_type("a/b.PNG"), "image/png");
        assert!(content_type("x.html").starts_with("text/plain"));
        assert!(content_type("x.xhtml").starts_with("application/octet-stream"));
        assert_eq!(content_type("noext"), "application/octet-stream");
    }
}
