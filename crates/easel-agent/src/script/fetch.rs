//! `ctx.fetch(url, {method, body, headers})`: one HTTP request, only to the hosts configured for
//! the tool (`[tools.<name>] allow_net`), redirects included; answers `{status, text}`.

use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::Duration;

/// The longest a request may take, whatever is left of the deadline.
const MAX_TIMEOUT: Duration = Duration::from_secs(30);
/// The largest answer a script gets.
pub const MAX_BODY: usize = 1024 * 1024;
const MAX_REDIRECTS: usize = 5;

#[derive(Deserialize)]
struct FetchArgs {
    url: Option<String>,
    #[serde(default)]
    options: FetchOptions,
}

#[derive(Default, Deserialize)]
struct FetchOptions {
    method: Option<String>,
    body: Option<Value>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
}

/// Whether `url`'s host (or `host:port`) is in `allow_net`.
pub(crate) fn allowed(url: &reqwest::Url, allow_net: &[String]) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase();
    let with_port = url.port_or_known_default().map(|p| format!("{host}:{p}"));
    allow_net.iter().any(|entry| {
        let entry = entry.trim().to_ascii_lowercase();
        entry == host || Some(&entry) == with_port.as_ref()
    })
}

pub(crate) fn fetch(
    payload: &str,
    allow_net: &[String],
    remaining: Duration,
) -> Result<Value, String> {
    let args: FetchArgs =
        serde_json::from_str(payload).map_err(|e| format!("bad arguments for ctx.fetch: {e}"))?;
    let url = args
        .url
        .ok_or("ctx.fetch needs a URL, e.g. ctx.fetch('https://api.example.com/x')")?;
    let url = reqwest::Url::parse(&url).map_err(|e| format!("'{url}' is not a URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!(
            "ctx.fetch only speaks http and https, not '{}'",
            url.scheme()
        ));
    }
    if !allowed(&url, allow_net) {
        let host = url.host_str().unwrap_or_default();
        return Err(if allow_net.is_empty() {
            format!(
                "this tool may not reach the network ('{host}' refused); list the hosts it may reach under allow_net in its [tools.<name>] table of .easel/config.toml"
            )
        } else {
            format!(
                "'{host}' is not among the hosts this tool may reach ({})",
                allow_net.join(", ")
            )
        });
    }
    let method = match args
        .options
        .method
        .as_deref()
        .map(str::to_ascii_uppercase)
        .as_deref()
    {
        None | Some("GET") => reqwest::Method::GET,
        Some("POST") => reqwest::Method::POST,
        Some(other) => return Err(format!("ctx.fetch sends GET or POST, not {other}")),
    };
    let timeout = remaining.min(MAX_TIMEOUT);
    if timeout.is_zero() {
        return Err("no time is left for ctx.fetch before the tool's deadline".into());
    }
    let allow = allow_net.to_vec();
    // reqwest is built without a crypto provider (to avoid aws-lc's C build); ring is ours.
    // Installing twice is harmless: the second attempt reports the first one won.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .user_agent(concat!("easel-script/", env!("CARGO_PKG_VERSION")))
        .timeout(timeout)
        .redirect(reqwest::redirect::Policy::custom(move |attempt| {
            if attempt.previous().len() >= MAX_REDIRECTS || !allowed(attempt.url(), &allow) {
                attempt.stop()
            } else {
                attempt.follow()
            }
        }))
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
    let mut request = client.request(method, url.clone());
    for (name, value) in &args.options.headers {
        request = request.header(name.as_str(), value.as_str());
    }
    match args.options.body {
        None | Some(Value::Null) => {}
        Some(Value::String(text)) => request = request.body(text),
        Some(other) => {
            request = request
                .header("content-type", "application/json")
                .body(other.to_string());
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the HTTP runtime: {e}"))?;
    runtime.block_on(async move {
        let mut response = request
            .send()
            .await
            .map_err(|e| format!("cannot fetch {url}: {}", describe(&e)))?;
        let status = response.status().as_u16();
        let mut body = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| format!("cannot read the answer of {url}: {}", describe(&e)))?
        {
            if body.len() + chunk.len() > MAX_BODY {
                return Err(format!("the answer of {url} is larger than 1 MiB"));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(json!({ "status": status, "text": String::from_utf8_lossy(&body) }))
    })
}

fn describe(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        "it timed out".into()
    } else if e.is_connect() {
        "the connection failed".into()
    } else {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> reqwest::Url {
        reqwest::Url::parse(s).unwrap()
    }

    #[test]
    fn hosts_match_exactly_or_with_their_port() {
        let allow = vec!["api.example.com".to_string(), "127.0.0.1:8080".to_string()];
        assert!(allowed(&url("https://API.example.com/x"), &allow));
        assert!(!allowed(&url("https://evil.example.com/x"), &allow));
        assert!(!allowed(&url("https://api.example.com.evil.net/"), &allow));
        assert!(allowed(&url("http://127.0.0.1:8080/"), &allow));
        assert!(!allowed(&url("http://127.0.0.1:9090/"), &allow));
        assert!(!allowed(&url("https://api.example.com@evil.net/"), &allow));
    }

    #[test]
    fn other_methods_and_schemes_are_refused() {
        let allow = vec!["127.0.0.1".to_string()];
        let err = fetch(
            r#"{"url":"file:///etc/passwd"}"#,
            &allow,
            Duration::from_secs(1),
        )
        .unwrap_err();
        assert!(err.contains("http"), "{err}");
        let err = fetch(
            r#"{"url":"http://127.0.0.1/","options":{"method":"DELETE"}}"#,
            &allow,
            Duration::from_secs(1),
        )
        .unwrap_err();
        assert!(err.contains("GET or POST"), "{err}");
    }
}
