//! `easel llm serve`: an OpenAI-compatible endpoint (`/v1/chat/completions`, `/v1/models`) over
//! the embedded model, so any OpenAI client can use it.
//!
//! It runs behind the HTTP guard every Easel server shares (`easel_http`, DESIGN.md section 12):
//! without it any web page the user opens could post to `localhost` and make the model run.
//! Refusals keep OpenAI's error shape so clients show them.

use crate::client::Llm;
use crate::error::LlmError;
use crate::types::{
    Event, FinishReason, Message, Part, Request, Role, Sampling, Tool, ToolCall, ToolChoice,
};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event as SseEvent, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine;
use easel_http::{ErrorStyle, GuardError, GuardOptions};
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::sync::Arc;

/// The model id the endpoint serves.
pub const SERVED_MODEL: &str = "smollm2";

/// The router behind the guard of `opts`; serve it with [`serve`] (or `easel_http::serve`).
pub fn router(llm: Arc<Llm>, opts: &GuardOptions) -> axum::Router {
    let api = axum::Router::new()
        .route("/v1/chat/completions", post(chat))
        .route("/v1/models", get(models))
        .with_state(llm);
    easel_http::guard_with_style(api, opts, ErrorStyle::OpenAi)
}

/// Checks `opts`, binds, calls `on_listening` with the bound address and serves until
/// `shutdown` completes.
pub async fn serve(
    llm: Arc<Llm>,
    opts: GuardOptions,
    on_listening: impl FnOnce(std::net::SocketAddr),
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), GuardError> {
    let listener = easel_http::bind(&opts).await?;
    on_listening(listener.local_addr()?);
    easel_http::serve(listener, router(llm, &opts), &opts, shutdown).await
}

fn api_error(status: StatusCode, message: impl Into<String>, kind: &str) -> Response {
    (
        status,
        Json(json!({"error": {"message": message.into(), "type": kind, "code": status.as_u16()}})),
    )
        .into_response()
}

fn llm_error(e: &LlmError) -> Response {
    let status = match e.kind() {
        crate::ErrorKind::Invalid | crate::ErrorKind::Usage => StatusCode::BAD_REQUEST,
        crate::ErrorKind::NotFound => StatusCode::NOT_FOUND,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    api_error(status, format!("{e} (hint: {})", e.hint()), "easel_error")
}

async fn models() -> Json<Value> {
    Json(
        json!({"object": "list", "data": [{"id": SERVED_MODEL, "object": "model", "created": 0, "owned_by": "easel"}]}),
    )
}

fn bad(message: impl Into<String>) -> Response {
    api_error(StatusCode::BAD_REQUEST, message, "invalid_request_error")
}

// The error is the HTTP answer itself, made once per bad request: its size does not matter.
#[allow(clippy::result_large_err)]
fn parse_parts(content: &Value) -> Result<Vec<Part>, Response> {
    match content {
        Value::Null => Ok(Vec::new()),
        Value::String(s) => Ok(vec![Part::text(s.clone())]),
        Value::Array(items) => items
            .iter()
            .map(|p| match p.get("type").and_then(Value::as_str) {
                Some("text") => Ok(Part::text(
                    p.get("text").and_then(Value::as_str).unwrap_or_default(),
                )),
                Some("image_url") => {
                    let url = p
                        .pointer("/image_url/url")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    let (head, data) = url
                        .strip_prefix("data:")
                        .and_then(|r| r.split_once(";base64,"))
                        .ok_or_else(|| bad("only data: URLs are taken for images"))?;
                    let bytes = base64::engine::general_purpose::STANDARD
                        .decode(data.as_bytes())
                        .map_err(|e| bad(format!("image data is not base64: {e}")))?;
                    Ok(Part::Image {
                        media_type: head.to_string(),
                        data: bytes,
                    })
                }
                other => Err(bad(format!("unknown content part type {other:?}"))),
            })
            .collect(),
        _ => Err(bad("message content must be a string or an array of parts")),
    }
}

/// Reads an OpenAI chat completion request into ours; also returns `stream` and `include_usage`.
#[allow(clippy::result_large_err)]
pub fn parse_request(body: &Value) -> Result<(Request, bool, bool), Response> {
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or(SERVED_MODEL);
    if model != SERVED_MODEL && model != "local:smollm2" {
        return Err(api_error(
            StatusCode::NOT_FOUND,
            format!("model '{model}' is not served here; this endpoint serves '{SERVED_MODEL}'"),
            "model_not_found",
        ));
    }
    let msgs = body
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("'messages' must be an array"))?;
    let mut messages = Vec::with_capacity(msgs.len());
    for m in msgs {
        let role = match m.get("role").and_then(Value::as_str) {
            Some("system") | Some("developer") => Role::System,
            Some("user") => Role::User,
            Some("assistant") => Role::Assistant,
            Some("tool") => Role::Tool,
            other => return Err(bad(format!("unknown message role {other:?}"))),
        };
        let parts = parse_parts(m.get("content").unwrap_or(&Value::Null))?;
        let tool_calls = m
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|c| ToolCall {
                id: c
                    .get("id")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                name: c
                    .pointer("/function/name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                arguments: match c.pointer("/function/arguments") {
                    Some(Value::String(s)) => s.clone(),
                    Some(v) => v.to_string(),
                    None => "{}".into(),
                },
            })
            .collect();
        let tool_call_id = m
            .get("tool_call_id")
            .and_then(Value::as_str)
            .map(str::to_string);
        messages.push(Message {
            role,
            parts,
            tool_calls,
            tool_call_id,
        });
    }
    let tools = body
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|t| {
            let f = t.get("function").unwrap_or(t);
            Tool {
                name: f
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                description: f
                    .get("description")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                parameters: f
                    .get("parameters")
                    .cloned()
                    .unwrap_or(json!({"type": "object"})),
            }
        })
        .collect();
    let tool_choice = match body.get("tool_choice") {
        None | Some(Value::Null) => ToolChoice::Auto,
        Some(Value::String(s)) => match s.as_str() {
            "none" => ToolChoice::None,
            "required" => ToolChoice::Required,
            _ => ToolChoice::Auto,
        },
        Some(v) => match v.pointer("/function/name").and_then(Value::as_str) {
            Some(n) => ToolChoice::Tool(n.to_string()),
            None => return Err(bad("tool_choice object needs function.name")),
        },
    };
    let sampling = Sampling {
        temperature: number(body, "temperature", 0.0, 2.0)?,
        top_p: number(body, "top_p", f32::MIN_POSITIVE, 1.0)?,
        repetition_penalty: number(body, "repetition_penalty", f32::MIN_POSITIVE, 10.0)?,
        seed: seed(body)?,
    };
    // Accepted for compatibility; the local model does not use them, but a wrong value is
    // still the client's mistake to hear about.
    number(body, "frequency_penalty", -2.0, 2.0)?;
    number(body, "presence_penalty", -2.0, 2.0)?;
    if let Some(n) = count(body, "n")?
        && n != 1
    {
        return Err(bad(format!(
            "'n' is {n}; this endpoint returns one choice, so 'n' must be 1"
        )));
    }
    let max_tokens = match count(body, "max_completion_tokens")? {
        Some(n) => Some(n),
        None => count(body, "max_tokens")?,
    };
    let stop = match body.get("stop") {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    };
    let stream = body.get("stream").and_then(Value::as_bool).unwrap_or(false);
    let include_usage = body
        .pointer("/stream_options/include_usage")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    Ok((
        Request {
            messages,
            tools,
            tool_choice,
            sampling,
            max_tokens,
            stop,
        },
        stream,
        include_usage,
    ))
}

/// A number in `min..=max`, or absent (`null` is absent, as OpenAI's API treats it).
#[allow(clippy::result_large_err)]
fn number(body: &Value, key: &str, min: f32, max: f32) -> Result<Option<f32>, Response> {
    let v = match body.get(key) {
        None | Some(Value::Null) => return Ok(None),
        Some(v) => v,
    };
    let x = v
        .as_f64()
        .ok_or_else(|| bad(format!("'{key}' must be a number, it is {v}")))?;
    if !(f64::from(min)..=f64::from(max)).contains(&x) {
        let low = if min == f32::MIN_POSITIVE {
            "above 0".to_string()
        } else {
            format!("from {min}")
        };
        return Err(bad(format!("'{key}' is {x}; it must be {low} to {max}")));
    }
    Ok(Some(x as f32))
}

/// A whole number of at least 1 that fits in 32 bits (token counts, choices), or absent.
#[allow(clippy::result_large_err)]
fn count(body: &Value, key: &str) -> Result<Option<u32>, Response> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if n >= 1 => u32::try_from(n)
                .map(Some)
                .map_err(|_| bad(format!("'{key}' is {n}; it must be at most {}", u32::MAX))),
            _ => Err(bad(format!(
                "'{key}' is {v}; it must be a whole number of at least 1 (leave it out for no limit)"
            ))),
        },
    }
}

/// Any whole number; a negative seed is as good a seed as any other.
#[allow(clippy::result_large_err)]
fn seed(body: &Value) -> Result<Option<u64>, Response> {
    match body.get("seed") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .or_else(|| v.as_i64().map(|i| i as u64))
            .map(Some)
            .ok_or_else(|| bad(format!("'seed' is {v}; it must be a whole number"))),
    }
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

async fn chat(State(llm): State<Arc<Llm>>, body: axum::body::Bytes) -> Response {
    let body: Value = match serde_json::from_slice(&body) {
        Ok(v) => v,
        Err(e) => return bad(format!("the body is not JSON: {e}")),
    };
    let (req, stream, include_usage) = match parse_request(&body) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let id = format!("chatcmpl-{:016x}", fastrand::u64(..));
    let created = now();
    let events = match llm.stream(Some("local:smollm2"), req).await {
        Ok(s) => s,
        Err(e) => return llm_error(&e),
    };
    if !stream {
        let r = match events.collect().await {
            Ok(r) => r,
            Err(e) => return llm_error(&e),
        };
        let tool_calls: Vec<Value> = r
            .tool_calls
            .iter()
            .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}))
            .collect();
        let mut message = json!({"role": "assistant", "content": if r.text.is_empty() && !tool_calls.is_empty() { Value::Null } else { json!(r.text) }});
        if !tool_calls.is_empty() {
            message["tool_calls"] = Value::Array(tool_calls);
        }
        return Json(json!({
            "id": id, "object": "chat.completion", "created": created, "model": SERVED_MODEL,
            "choices": [{"index": 0, "message": message, "finish_reason": r.finish_reason.unwrap_or(FinishReason::Stop).as_str()}],
            "usage": {"prompt_tokens": r.usage.prompt_tokens, "completion_tokens": r.usage.completion_tokens,
                      "total_tokens": r.usage.prompt_tokens + r.usage.completion_tokens},
        }))
        .into_response();
    }
    let chunk = move |delta: Value, finish: Option<&str>| {
        json!({"id": id, "object": "chat.completion.chunk", "created": created, "model": SERVED_MODEL,
               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let first = chunk(json!({"role": "assistant", "content": ""}), None);
    let chunk2 = chunk.clone();
    let head = futures_util::stream::iter([Ok::<_, std::convert::Infallible>(
        SseEvent::default().data(first.to_string()),
    )]);
    // The SSE stream owns `events`: when the client goes away axum drops it, which stops the model.
    let body = events.filter_map(move |ev| {
        let chunk = chunk2.clone();
        async move {
            let data = match ev {
                Ok(Event::TextDelta { text }) => chunk(json!({"content": text}), None),
                Ok(Event::ToolCallStart { index, id, name }) => chunk(
                    json!({"tool_calls": [{"index": index, "id": id, "type": "function", "function": {"name": name, "arguments": ""}}]}),
                    None,
                ),
                Ok(Event::ToolCallDelta { index, arguments }) => {
                    chunk(json!({"tool_calls": [{"index": index, "function": {"arguments": arguments}}]}), None)
                }
                Ok(Event::Finish { reason }) => chunk(json!({}), Some(reason.as_str())),
                Ok(Event::Usage { usage }) if include_usage => {
                    let mut c = chunk(json!({}), None);
                    c["choices"] = json!([]);
                    c["usage"] = json!({"prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens,
                                        "total_tokens": usage.prompt_tokens + usage.completion_tokens});
                    c
                }
                Ok(_) => return None,
                Err(e) => json!({"error": {"message": e.to_string(), "type": "easel_error", "code": 500}}),
            };
            Some(Ok(SseEvent::default().data(data.to_string())))
        }
    });
    let done = futures_util::stream::iter([Ok(SseEvent::default().data("[DONE]"))]);
    Sse::new(head.chain(body).chain(done)).into_response()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn with(extra: Value) -> Value {
        let mut body = json!({"messages": [{"role": "user", "content": "hi"}]});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    }

    async fn message(r: Response) -> String {
        assert_eq!(r.status(), StatusCode::BAD_REQUEST);
        let bytes = axum::body::to_bytes(r.into_body(), usize::MAX)
            .await
            .unwrap();
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        v["error"]["message"].as_str().unwrap().to_string()
    }

    #[tokio::test]
    async fn every_numeric_sampling_parameter_is_checked() {
        for (bad, says) in [
            (json!({"max_tokens": -5}), "'max_tokens' is -5"),
            (json!({"max_tokens": 0}), "at least 1"),
            (json!({"max_tokens": 1.5}), "whole number"),
            (json!({"max_tokens": "10"}), "whole number"),
            (json!({"max_tokens": 5_000_000_000u64}), "at most"),
            (
                json!({"max_completion_tokens": -1}),
                "'max_completion_tokens'",
            ),
            (json!({"temperature": -0.1}), "'temperature' is -0.1"),
            (json!({"temperature": 2.5}), "from 0 to 2"),
            (json!({"temperature": "hot"}), "must be a number"),
            (json!({"top_p": 0}), "above 0"),
            (json!({"top_p": 1.1}), "'top_p'"),
            (json!({"repetition_penalty": -1}), "'repetition_penalty'"),
            (json!({"frequency_penalty": 3}), "'frequency_penalty'"),
            (json!({"presence_penalty": -2.5}), "'presence_penalty'"),
            (json!({"seed": 1.5}), "'seed'"),
            (json!({"n": 2}), "'n' is 2"),
        ] {
            let err = parse_request(&with(bad.clone())).unwrap_err();
            let m = message(err).await;
            assert!(m.contains(says), "{bad}: {m}");
        }
    }

    #[test]
    fn good_and_absent_values_pass() {
        let (r, _, _) = parse_request(&with(json!({
            "max_tokens": 7, "temperature": 0, "top_p": 1, "seed": -3, "n": 1,
            "frequency_penalty": null, "repetition_penalty": 1.1
        })))
        .unwrap();
        assert_eq!(r.max_tokens, Some(7));
        assert_eq!(r.sampling.temperature, Some(0.0));
        assert_eq!(r.sampling.seed, Some((-3i64) as u64));
        let (r, _, _) = parse_request(&with(json!({"max_tokens": null}))).unwrap();
        assert_eq!(r.max_tokens, None);
        let (r, _, _) =
            parse_request(&with(json!({"max_tokens": 9, "max_completion_tokens": 4}))).unwrap();
        assert_eq!(r.max_tokens, Some(4));
    }
}
