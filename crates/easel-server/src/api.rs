//! The catalogue over HTTP: `GET /api/ops`, `POST /api/ops/{name}` and
//! `POST /api/runs/{run}/cancel`.

use crate::AppState;
use crate::queue;
use crate::runs::valid_id;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use easel_core::{ErrorKind, is_operation_name, spell_hint};
use easel_ops::{Cancel, Ctx, EventSink, OpError, OpEvent, RunId};
use serde_json::{Value as Json, json};
use std::sync::Arc;

/// A run's output goes on the event stream too (for AG-UI's `RUN_FINISHED`) when it is no
/// bigger than this; a whole canvas read is not worth sending to every subscriber.
const MAX_OUTPUT_ON_STREAM: usize = 64 * 1024;

/// The header a client names its run with.
pub(crate) const RUN_HEADER: &str = "x-easel-run";

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/ops", get(list))
        .route("/api/ops/{name}", post(call))
        .route("/api/runs/{run}/cancel", post(cancel))
}

/// Hints name operations in backticks; over HTTP an operation is its endpoint.
fn spell_for_http(hint: &str) -> String {
    spell_hint(hint, |op| {
        is_operation_name(op).then(|| format!("`POST /api/ops/{op}`"))
    })
}

fn json_response(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn error_json(kind: ErrorKind, message: &str, hint: &str) -> Json {
    json!({"error": {"kind": kind.as_str(), "message": message, "hint": spell_for_http(hint)}})
}

/// An operation's error as DESIGN.md section 15 shapes it, with the status of its kind.
pub(crate) fn error_response(kind: ErrorKind, message: &str, hint: &str) -> Response {
    let status =
        StatusCode::from_u16(kind.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    json_response(status, error_json(kind, message, hint).to_string())
}

async fn list(State(state): State<AppState>) -> Response {
    let ops: Vec<_> = state.registry.infos().collect();
    json_response(StatusCode::OK, json!({ "operations": ops }).to_string())
}

/// A streaming event of the operation, tagged with the client's run (`call`), the operation
/// and, unless the event names its own (an agent's run), the run.
fn tag(event: OpEvent, call: &str, op: &str) -> Json {
    let mut v = match event {
        OpEvent::Data(v) => v,
        OpEvent::Progress {
            done,
            total,
            message,
        } => json!({"type": "progress", "done": done, "total": total, "message": message}),
    };
    if let Json::Object(m) = &mut v {
        m.insert("call".into(), json!(call));
        m.insert("op".into(), json!(op));
        m.entry("run").or_insert_with(|| json!(call));
    }
    v
}

async fn call(
    State(state): State<AppState>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let args: Json = if body.iter().all(u8::is_ascii_whitespace) {
        json!({})
    } else {
        match serde_json::from_slice(&body) {
            Ok(v) => v,
            Err(e) => {
                return error_response(
                    ErrorKind::Usage,
                    &format!("the request body is not JSON: {e}"),
                    "send the operation's arguments as one JSON object, e.g. {\"path\": \"Board.canvas\"}",
                );
            }
        }
    };
    if !args.is_object() {
        return error_response(
            ErrorKind::Usage,
            "the request body must be a JSON object of arguments",
            "send {} for an operation without arguments",
        );
    }
    let Some(effect) = state.registry.get(&name).map(|op| op.info().effect) else {
        let e = state.registry.unknown(&name);
        return error_response(e.kind, &e.message, &e.hint);
    };
    let named = headers.get(RUN_HEADER).and_then(|v| v.to_str().ok());
    if let Some(id) = named
        && !valid_id(id)
    {
        return error_response(
            ErrorKind::Usage,
            &format!("'{RUN_HEADER}' must be 1 to 64 letters, digits, '-' or '_'"),
            "leave the header out, or send an id such as 0193a4b5c6d7e8f9a0b1",
        );
    }
    let cancel = Cancel::new();
    let mut ctx = Ctx::new(state.vault.clone(), state.actor.clone()).with_cancel(cancel.clone());
    // Only a client that named its run follows it on the stream: a board's reads and small
    // edits would otherwise flood every subscriber.
    let mut running = None;
    if let Some(id) = named {
        let Some(r) = state.runs.start(id, cancel) else {
            return error_response(
                ErrorKind::Conflict,
                &format!("run '{id}' is already running"),
                "give every request its own run id",
            );
        };
        running = Some(r);
        let (hub, call, op) = (state.hub.clone(), id.to_owned(), name.clone());
        let sink: EventSink = Arc::new(move |e| hub.publish(tag(e, &call, &op)));
        ctx = ctx.with_run(RunId::from_string(id)).with_events(sink);
        state
            .hub
            .publish(json!({"type": "run_started", "call": id, "run": id, "op": name}));
    }
    // Held until the operation ends, even when its client has gone: the next writer of the
    // file starts after it, not alongside.
    let turn = match queue::queue_key(effect, &args) {
        Some(key) => Some(state.writes.turn(key).await),
        None => None,
    };
    let registry = state.registry.clone();
    let op = name.clone();
    let result = tokio::task::spawn_blocking(move || {
        let result = registry.call(&ctx, &op, args);
        drop(turn);
        result
    })
    .await;
    let result = result.unwrap_or_else(|e| {
        tracing::error!(operation = %name, error = %e, "operation panicked");
        Err(OpError::failure(format!(
            "operation '{name}' stopped unexpectedly"
        )))
    });
    if let Some(id) = named {
        let finished = match &result {
            Ok(out) => {
                let output = if out.json.len() <= MAX_OUTPUT_ON_STREAM {
                    serde_json::from_str(&out.json).unwrap_or(Json::Null)
                } else {
                    Json::Null
                };
                json!({"type": "run_finished", "call": id, "run": id, "op": name, "ok": true,
                       "output": output})
            }
            Err(e) => {
                json!({"type": "run_finished", "call": id, "run": id, "op": name, "ok": false,
                       "error": error_json(e.kind, &e.message, &e.hint)["error"]})
            }
        };
        state.hub.publish(finished);
    }
    drop(running);
    match result {
        Ok(out) => json_response(StatusCode::OK, out.json),
        Err(e) => error_response(e.kind, &e.message, &e.hint),
    }
}

async fn cancel(State(state): State<AppState>, Path(run): Path<String>) -> Response {
    if state.runs.cancel(&run) {
        json_response(StatusCode::OK, json!({"cancelled": run}).to_string())
    } else {
        error_response(
            ErrorKind::NotFound,
            &format!("no run '{run}' is going"),
            "it may have finished already; a run can be cancelled only while its request is open",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_name_endpoints() {
        assert_eq!(
            spell_for_http("call `canvas_list`, then pass `--json`"),
            "call `POST /api/ops/canvas_list`, then pass `--json`"
        );
    }

    #[test]
    fn events_carry_the_call_and_keep_their_own_run() {
        let e = tag(
            OpEvent::Data(json!({"type": "done", "run": "agent-run"})),
            "c1",
            "agent_run",
        );
        assert_eq!(e["call"], "c1");
        assert_eq!(e["run"], "agent-run");
        let e = tag(
            OpEvent::Data(json!({"type": "text_delta", "delta": "x"})),
            "c1",
            "thread_send",
        );
        assert_eq!(e["run"], "c1");
        assert_eq!(e["op"], "thread_send");
    }
}
