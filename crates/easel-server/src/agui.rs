//! Easel's events in the AG-UI vocabulary (`RUN_STARTED`, `TEXT_MESSAGE_CONTENT`,
//! `TOOL_CALL_START`, …), so agent front ends written for AG-UI can follow Easel's runs.
//!
//! AG-UI brackets text in `TEXT_MESSAGE_START`/`END` and each tool call in `TOOL_CALL_START`/
//! `ARGS`/`END`; Easel's stream has deltas and whole calls, so the translator remembers, per
//! run, whether a text message is open.

use serde_json::{Value as Json, json};
use std::collections::HashMap;

#[derive(Debug, Default)]
struct RunState {
    /// The id of the text message being streamed, if one is open.
    open: Option<String>,
    /// How many text messages the run has had (for fresh message ids).
    messages: u32,
}

/// Turns Easel events into AG-UI events, one subscriber's stream at a time.
#[derive(Debug, Default)]
pub(crate) struct Translator {
    runs: HashMap<String, RunState>,
}

fn field<'a>(e: &'a Json, key: &str) -> &'a str {
    e.get(key).and_then(Json::as_str).unwrap_or("")
}

impl Translator {
    fn close(&mut self, call: &str, out: &mut Vec<Json>) {
        if let Some(st) = self.runs.get_mut(call)
            && let Some(id) = st.open.take()
        {
            out.push(json!({"type": "TEXT_MESSAGE_END", "messageId": id}));
        }
    }

    /// The AG-UI events for one Easel event (none, one or several).
    pub(crate) fn translate(&mut self, e: &Json) -> Vec<Json> {
        let kind = field(e, "type");
        let call = field(e, "call").to_owned();
        let mut out = Vec::new();
        match kind {
            "run_started" => {
                self.runs.insert(call.clone(), RunState::default());
                out.push(
                    json!({"type": "RUN_STARTED", "threadId": call, "runId": call,
                                "input": {"operation": field(e, "op")}}),
                );
            }
            "text_delta" => {
                let st = self.runs.entry(call.clone()).or_default();
                let id = match &st.open {
                    Some(id) => id.clone(),
                    None => {
                        st.messages += 1;
                        let id = format!("{call}-m{}", st.messages);
                        st.open = Some(id.clone());
                        out.push(json!({"type": "TEXT_MESSAGE_START", "messageId": id,
                                        "role": "assistant"}));
                        id
                    }
                };
                out.push(json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": id,
                                "delta": field(e, "delta")}));
            }
            "tool_call" => {
                self.close(&call, &mut out);
                let id = field(e, "id");
                let args = e.get("arguments").map(Json::to_string).unwrap_or_default();
                out.push(json!({"type": "TOOL_CALL_START", "toolCallId": id,
                                "toolCallName": field(e, "name")}));
                out.push(json!({"type": "TOOL_CALL_ARGS", "toolCallId": id, "delta": args}));
                out.push(json!({"type": "TOOL_CALL_END", "toolCallId": id}));
            }
            "tool_output" => {
                let id = field(e, "id");
                out.push(
                    json!({"type": "TOOL_CALL_RESULT", "messageId": format!("{id}-result"),
                                "toolCallId": id, "content": field(e, "output"), "role": "tool"}),
                );
            }
            "handoff" => {
                self.close(&call, &mut out);
                out.push(json!({"type": "STEP_FINISHED", "stepName": field(e, "from")}));
                out.push(json!({"type": "STEP_STARTED", "stepName": field(e, "to")}));
            }
            "run_finished" => {
                self.close(&call, &mut out);
                self.runs.remove(&call);
                if e.get("ok").and_then(Json::as_bool).unwrap_or(false) {
                    out.push(
                        json!({"type": "RUN_FINISHED", "threadId": call, "runId": call,
                                    "result": e.get("output").cloned().unwrap_or(Json::Null)}),
                    );
                } else {
                    let err = e.get("error").cloned().unwrap_or(Json::Null);
                    out.push(json!({"type": "RUN_ERROR",
                                    "message": err.get("message").and_then(Json::as_str).unwrap_or("the run failed"),
                                    "code": err.get("kind").and_then(Json::as_str).unwrap_or("failure")}));
                }
            }
            "done" => self.close(&call, &mut out),
            // Everything else (approvals, progress, file changes) has no AG-UI event of its own.
            _ => {
                if kind == "error" {
                    self.close(&call, &mut out);
                }
                out.push(json!({"type": "CUSTOM", "name": kind, "value": e}));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(v: &[Json]) -> Vec<&str> {
        v.iter().map(|e| field(e, "type")).collect()
    }

    #[test]
    fn a_run_with_text_a_tool_call_and_more_text_is_bracketed() {
        let mut t = Translator::default();
        let mut all = Vec::new();
        for e in [
            json!({"type": "run_started", "call": "r1", "op": "agent_run"}),
            json!({"type": "text_delta", "call": "r1", "delta": "Hel"}),
            json!({"type": "text_delta", "call": "r1", "delta": "lo"}),
            json!({"type": "tool_call", "call": "r1", "id": "c1", "name": "canvas_read", "arguments": {"path": "a"}}),
            json!({"type": "tool_output", "call": "r1", "id": "c1", "name": "canvas_read", "output": "{}", "is_error": false}),
            json!({"type": "handoff", "call": "r1", "from": "triage", "to": "writer"}),
            json!({"type": "text_delta", "call": "r1", "delta": "Done"}),
            json!({"type": "run_finished", "call": "r1", "ok": true, "output": {"output": "Done"}}),
        ] {
            all.extend(t.translate(&e));
        }
        assert_eq!(
            types(&all),
            [
                "RUN_STARTED",
                "TEXT_MESSAGE_START",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_END",
                "TOOL_CALL_START",
                "TOOL_CALL_ARGS",
                "TOOL_CALL_END",
                "TOOL_CALL_RESULT",
                "STEP_FINISHED",
                "STEP_STARTED",
                "TEXT_MESSAGE_START",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_END",
                "RUN_FINISHED",
            ]
        );
        assert_eq!(all[6]["delta"], "{\"path\":\"a\"}");
        assert_ne!(all[1]["messageId"], all[11]["messageId"]);
        assert!(t.runs.is_empty(), "a finished run is forgotten");
    }

    #[test]
    fn a_failed_run_is_a_run_error_with_its_kind() {
        let mut t = Translator::default();
        let out = t.translate(&json!({"type": "run_finished", "call": "r", "ok": false,
            "error": {"kind": "not_found", "message": "no agent 'x'", "hint": "h"}}));
        assert_eq!(types(&out), ["RUN_ERROR"]);
        assert_eq!(out[0]["code"], "not_found");
        assert_eq!(out[0]["message"], "no agent 'x'");
    }
}
