//! `POST /api/ag-ui/agents/{name}`: an Easel agent as an AG-UI agent. An AG-UI client (an
//! `HttpAgent`) posts a `RunAgentInput` and reads the run back as a stream of AG-UI events, so
//! third-party agent front ends can drive Easel's agents, not only watch them.
//!
//! The run is `agent_run` of the Registry, as from any other front end: the last user message
//! is the input, a `threadId` naming an Easel session continues it, and the run's changes go to
//! the ledger. A call that needs approval ends the run with a `CUSTOM` `approval_needed` event
//! and `RUN_FINISHED` whose result says which session waits (`agent_approve` answers it).

use crate::AppState;
use crate::agui::Translator;
use crate::api::error_response;
use crate::runs::valid_id;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use easel_core::ErrorKind;
use easel_ops::{Cancel, Ctx, EventSink, OpEvent, RunId};
use futures_util::stream;
use serde_json::{Value as Json, json};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/ag-ui/agents/{name}", post(run_agent))
}

/// The text of the last user message of a `RunAgentInput` (content as a string, or as parts
/// of which the text ones count).
fn last_user_text(input: &Json) -> Option<String> {
    let messages = input.get("messages")?.as_array()?;
    let m = messages.iter().rev().find(|m| m["role"] == "user")?;
    match &m["content"] {
        Json::String(s) => Some(s.clone()),
        Json::Array(parts) => {
            let text: Vec<&str> = parts
                .iter()
                .filter(|p| p["type"] == "text")
                .filter_map(|p| p["text"].as_str())
                .collect();
            (!text.is_empty()).then(|| text.join("\n"))
        }
        _ => None,
    }
}

/// Cancels the run when the client stops reading (the stream is dropped).
struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

async fn run_agent(
    State(state): State<AppState>,
    Path(name): Path<String>,
    body: Bytes,
) -> Response {
    let input: Json = match serde_json::from_slice(&body) {
        Ok(v @ Json::Object(_)) => v,
        _ => {
            return error_response(
                ErrorKind::Usage,
                "the body must be an AG-UI RunAgentInput: a JSON object with 'messages'",
                "send {\"threadId\": \"…\", \"runId\": \"…\", \"messages\": [{\"id\": \"1\", \"role\": \"user\", \"content\": \"Hello\"}]}",
            );
        }
    };
    let Some(text) = last_user_text(&input) else {
        return error_response(
            ErrorKind::Usage,
            "the RunAgentInput has no user message to answer",
            "end 'messages' with {\"role\": \"user\", \"content\": \"…\"}",
        );
    };
    if state.registry.get("agent_run").is_none() {
        return error_response(
            ErrorKind::NotFound,
            "this server runs no agents",
            "start it with `easel serve`, whose catalogue has `agent_run`",
        );
    }
    let run = input["runId"]
        .as_str()
        .filter(|r| valid_id(r))
        .map_or_else(|| RunId::new().to_string(), str::to_owned);
    let thread = input["threadId"].as_str().unwrap_or_default().to_owned();
    // A thread that names an Easel session continues it; any other starts a new session.
    let session = Some(thread.as_str())
        .filter(|t| valid_id(t))
        .filter(|t| {
            state
                .vault
                .root()
                .join(format!(".easel/sessions/{t}.jsonl"))
                .is_file()
        })
        .map(str::to_owned);
    let mut args = json!({"agent": name, "input": text});
    if let Some(s) = &session {
        args["session"] = json!(s);
    }

    let (tx, rx) = mpsc::unbounded_channel::<Json>();
    let cancel = Cancel::new();
    let events_tx = tx.clone();
    let call = run.clone();
    let sink: EventSink = Arc::new(move |e: OpEvent| {
        let mut v = match e {
            OpEvent::Data(v) => v,
            OpEvent::Progress { .. } => return,
        };
        if let Json::Object(m) = &mut v {
            m.insert("call".into(), json!(call));
        }
        let _ = events_tx.send(v);
    });
    let ctx = Ctx::new(state.vault.clone(), state.actor.clone())
        .with_run(RunId::from_string(run.clone()))
        .with_cancel(cancel.clone())
        .with_events(sink);
    let _ = tx.send(json!({"type": "run_started", "call": run, "op": "agent_run"}));
    let registry = state.registry.clone();
    let finish_run = run.clone();
    tokio::task::spawn_blocking(move || {
        let finished = match registry.call(&ctx, "agent_run", args) {
            Ok(out) => {
                let output: Json = serde_json::from_str(&out.json).unwrap_or(Json::Null);
                json!({"type": "run_finished", "call": finish_run, "ok": true, "output": output})
            }
            // Waiting for approval is how such a run ends here, not a failure.
            Err(e) if e.kind == ErrorKind::Waiting => json!({
                "type": "run_finished", "call": finish_run, "ok": true,
                "output": {"waiting": true, "message": e.message, "hint": e.hint},
            }),
            Err(e) => json!({
                "type": "run_finished", "call": finish_run, "ok": false,
                "error": {"kind": e.kind.as_str(), "message": e.message, "hint": e.hint},
            }),
        };
        let _ = tx.send(finished);
    });

    let thread_id = if thread.is_empty() {
        run.clone()
    } else {
        thread
    };
    let state0 = (
        rx,
        Translator::default(),
        Vec::<Json>::new(),
        CancelOnDrop(cancel),
        false,
    );
    let events = stream::unfold(
        state0,
        move |(mut rx, mut tr, mut pending, guard, ended)| {
            let thread_id = thread_id.clone();
            async move {
                loop {
                    if let Some(next) = pending.pop() {
                        let ev = SseEvent::default().data(next.to_string());
                        return Some((Ok::<_, Infallible>(ev), (rx, tr, pending, guard, ended)));
                    }
                    if ended {
                        return None;
                    }
                    let e = rx.recv().await?;
                    let last = e["type"] == "run_finished";
                    let mut out = tr.translate(&e);
                    // AG-UI clients match runs by thread: name the client's thread, not the run.
                    for o in &mut out {
                        if o.get("threadId").is_some() {
                            o["threadId"] = json!(thread_id);
                        }
                    }
                    out.reverse();
                    pending = out;
                    if last {
                        return pending.pop().map(|next| {
                            let ev = SseEvent::default().data(next.to_string());
                            (Ok(ev), (rx, tr, pending, guard, true))
                        });
                    }
                }
            }
        },
    );
    Sse::new(events)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_input_is_the_last_user_message() {
        let input = json!({"messages": [
            {"id": "1", "role": "user", "content": "first"},
            {"id": "2", "role": "assistant", "content": "ok"},
            {"id": "3", "role": "user", "content": [{"type": "text", "text": "second"}, {"type": "binary", "mimeType": "image/png"}]},
        ]});
        assert_eq!(last_user_text(&input).as_deref(), Some("second"));
        assert_eq!(last_user_text(&json!({"messages": []})), None);
        assert_eq!(last_user_text(&json!({})), None);
    }
}
