//! What the API tests share: one operation call over real HTTP.
#![allow(clippy::unwrap_used)]

use reqwest::StatusCode;
use serde_json::Value;

/// `POST {base}/api/ops/{name}` with the bearer token: the status and the JSON answer.
pub async fn call_op(
    client: &reqwest::Client,
    base: &str,
    token: &str,
    name: &str,
    args: Value,
) -> (StatusCode, Value) {
    let r = client
        .post(format!("{base}/api/ops/{name}"))
        .bearer_auth(token)
        .json(&args)
        .send()
        .await
        .unwrap();
    let status = r.status();
    (status, r.json().await.unwrap())
}
