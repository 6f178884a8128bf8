//! Who may use the server: the per-launch token, taken once from the URL into a cookie, or sent
//! by API clients as `Authorization: Bearer TOKEN`.

use crate::AppState;
use crate::error::ServerError;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};

/// 32 hex digits from the system's random source.
pub(crate) fn fresh_token() -> Result<String, ServerError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| ServerError::Random(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Cookies are not kept apart by port: two servers on one machine need two names.
pub(crate) fn cookie_name(port: u16) -> String {
    format!("easel_token_{port}")
}

/// Compares without stopping at the first difference, so timing tells nothing about the token.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// `token` from a query string, and the query without it.
fn take_token(query: &str) -> (Option<&str>, String) {
    let mut token = None;
    let rest: Vec<&str> = query
        .split('&')
        .filter(|pair| match pair.strip_prefix("token=") {
            Some(t) => {
                token = Some(t);
                false
            }
            None => !pair.is_empty(),
        })
        .collect();
    (token, rest.join("&"))
}

fn is_public(path: &str) -> bool {
    // The bundle holds no vault data; a page that loads it still needs the token for the API.
    path.starts_with("/assets/") || path == "/favicon.ico"
}

/// The middleware: lets a request through when it carries the token (cookie or bearer); turns
/// `?token=` on a page into the cookie; refuses everything else with 401 and what to do.
pub(crate) async fn check(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    let authorised = bearer(headers).is_some_and(|t| same(t, &state.token))
        || cookie(headers, &state.cookie).is_some_and(|t| same(t, &state.token));
    let path = req.uri().path().to_owned();
    if authorised || is_public(&path) {
        return next.run(req).await;
    }
    let query = req.uri().query().unwrap_or("");
    let (token, rest) = take_token(query);
    let is_api = path.starts_with("/api/");
    if let Some(t) = token
        && same(t, &state.token)
        && !is_api
    {
        // The token leaves the address bar (and the history) at once.
        let location = if rest.is_empty() {
            path
        } else {
            format!("{path}?{rest}")
        };
        let cookie = format!(
            "{}={}; Path=/; HttpOnly; SameSite=Strict",
            state.cookie, state.token
        );
        let mut resp = StatusCode::SEE_OTHER.into_response();
        let h = resp.headers_mut();
        if let (Ok(loc), Ok(c)) = (
            HeaderValue::from_str(&location),
            HeaderValue::from_str(&cookie),
        ) {
            h.insert(header::LOCATION, loc);
            h.insert(header::SET_COOKIE, c);
            h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        }
        return resp;
    }
    if is_api {
        let body = serde_json::json!({"error": {
            "kind": "unauthorized",
            "message": "this request has no valid access token",
            "hint": "send 'Authorization: Bearer TOKEN' with the token 'easel serve' printed, or open the URL it printed",
        }});
        return (
            StatusCode::UNAUTHORIZED,
            [(header::CONTENT_TYPE, "application/json")],
            body.to_string(),
        )
            .into_response();
    }
    (
        StatusCode::UNAUTHORIZED,
        Html(
            "<!doctype html><meta charset=utf-8><title>Easel</title>\
             <p>This page needs the access token. Open the address <code>easel serve</code> \
             printed when it started (it ends in <code>?token=…</code>).</p>",
        ),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn tokens_are_fresh_and_long() {
        let a = fresh_token().unwrap();
        let b = fresh_token().unwrap();
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
    }

    #[test]
    fn the_token_leaves_the_query_and_the_rest_stays() {
        assert_eq!(take_token("token=abc"), (Some("abc"), String::new()));
        assert_eq!(
            take_token("x=1&token=abc&y=2"),
            (Some("abc"), "x=1&y=2".to_string())
        );
        assert_eq!(take_token("x=1"), (None, "x=1".to_string()));
    }

    #[test]
    fn cookies_are_found_by_name_among_others() {
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; easel_token_80=t0k; b=2"),
        );
        assert_eq!(cookie(&h, "easel_token_80"), Some("t0k"));
        assert_eq!(cookie(&h, "easel_token_81"), None);
        assert!(same("abc", "abc"));
        assert!(!same("abc", "abd"));
        assert!(!same("abc", "ab"));
    }
}
