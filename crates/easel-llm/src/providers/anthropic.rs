//! Anthropic's Messages API, streamed. The system text goes apart, tool results travel in user
//! messages, and consecutive messages of one role are merged (the API refuses two in a row).

use crate::error::{LlmError, Result};
use crate::http::WireDecoder;
use crate::types::{Event, FinishReason, Part, Request, Role, ToolCall, ToolChoice, Usage};
use base64::Engine;
use serde_json::{Map, Value, json};
use std::collections::HashMap;

/// The Messages API needs `max_tokens`; this is ours when the request sets none.
const DEFAULT_MAX_TOKENS: u32 = 4096;

pub fn request_body(model: &str, req: &Request) -> Value {
    let mut system = Vec::new();
    // (role, blocks), merged as we go.
    let mut messages: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for m in &req.messages {
        let mut blocks: Vec<Value> = Vec::new();
        if m.role == Role::Tool {
            blocks.push(json!({
                "type": "tool_result",
                "tool_use_id": m.tool_call_id.clone().unwrap_or_default(),
                "content": m.text(),
            }));
        } else {
            for p in &m.parts {
                match p {
                    Part::Text { text } if !text.is_empty() => blocks.push(json!({"type": "text", "text": text})),
                    Part::Text { .. } => {}
                    Part::Image { media_type, data } => blocks.push(json!({
                        "type": "image",
                        "source": {"type": "base64", "media_type": media_type, "data": base64::engine::general_purpose::STANDARD.encode(data)},
                    })),
                }
            }
            for c in &m.tool_calls {
                blocks.push(json!({"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments_json().unwrap_or(json!({}))}));
            }
        }
        let role = match m.role {
            Role::System => {
                system.push(m.text());
                continue;
            }
            Role::User | Role::Tool => "user",
            Role::Assistant => "assistant",
        };
        if blocks.is_empty() {
            continue;
        }
        match messages.last_mut() {
            Some((r, b)) if *r == role => b.extend(blocks),
            _ => messages.push((role, blocks)),
        }
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(model));
    body.insert(
        "max_tokens".into(),
        json!(req.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS)),
    );
    body.insert("stream".into(), json!(true));
    if !system.is_empty() {
        body.insert("system".into(), json!(system.join("\n\n")));
    }
    body.insert(
        "messages".into(),
        messages
            .into_iter()
            .map(|(role, content)| json!({"role": role, "content": content}))
            .collect(),
    );
    if !req.tools.is_empty() {
        body.insert(
            "tools".into(),
            req.tools
                .iter()
                .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}))
                .collect(),
        );
        body.insert(
            "tool_choice".into(),
            match &req.tool_choice {
                ToolChoice::Auto => json!({"type": "auto"}),
                ToolChoice::None => json!({"type": "none"}),
                ToolChoice::Required => json!({"type": "any"}),
                ToolChoice::Tool(name) => json!({"type": "tool", "name": name}),
            },
        );
    }
    let s = &req.sampling;
    if let Some(t) = s.temperature {
        body.insert("temperature".into(), json!(t));
    }
    if let Some(p) = s.top_p {
        body.insert("top_p".into(), json!(p));
    }
    if !req.stop.is_empty() {
        body.insert("stop_sequences".into(), json!(req.stop));
    }
    Value::Object(body)
}

#[derive(Debug)]
struct Block {
    call_index: usize,
    id: String,
    name: String,
    json: String,
}

/// Decodes Messages API stream events.
#[derive(Debug, Default)]
pub struct Decoder {
    tools: HashMap<u64, Block>,
    calls: usize,
    usage: Usage,
    stop: Option<FinishReason>,
    finished: bool,
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::default()
    }
    fn protocol(message: String) -> LlmError {
        LlmError::Protocol {
            provider: "anthropic".into(),
            message,
        }
    }
}

impl WireDecoder for Decoder {
    fn feed(&mut self, data: &str, out: &mut Vec<Event>) -> Result<()> {
        let v: Value = serde_json::from_str(data)
            .map_err(|e| Decoder::protocol(format!("{e} in {data:.200}")))?;
        let index = v.get("index").and_then(Value::as_u64).unwrap_or(0);
        match v.get("type").and_then(Value::as_str).unwrap_or_default() {
            "message_start" => {
                let u = v.pointer("/message/usage").unwrap_or(&Value::Null);
                self.usage.prompt_tokens =
                    u.get("input_tokens").and_then(Value::as_u64).unwrap_or(0)
                        + u.get("cache_read_input_tokens")
                            .and_then(Value::as_u64)
                            .unwrap_or(0)
                        + u.get("cache_creation_input_tokens")
                            .and_then(Value::as_u64)
                            .unwrap_or(0);
            }
            "content_block_start" => {
                let b = v.get("content_block").unwrap_or(&Value::Null);
                match b.get("type").and_then(Value::as_str) {
                    Some("tool_use") => {
                        let id = b
                            .get("id")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string();
                        let name = b
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string();
                        let call_index = self.calls;
                        self.calls += 1;
                        out.push(Event::ToolCallStart {
                            index: call_index,
                            id: id.clone(),
                            name: name.clone(),
                        });
                        self.tools.insert(
                            index,
                            Block {
                                call_index,
                                id,
                                name,
                                json: String::new(),
                            },
                        );
                    }
                    Some("text") => {
                        if let Some(t) = b
                            .get("text")
                            .and_then(Value::as_str)
                            .filter(|s| !s.is_empty())
                        {
                            out.push(Event::TextDelta {
                                text: t.to_string(),
                            });
                        }
                    }
                    _ => {}
                }
            }
            "content_block_delta" => {
                let d = v.get("delta").unwrap_or(&Value::Null);
                match d.get("type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        if let Some(t) = d.get("text").and_then(Value::as_str) {
                            out.push(Event::TextDelta {
                                text: t.to_string(),
                            });
                        }
                    }
                    Some("thinking_delta") => {
                        if let Some(t) = d.get("thinking").and_then(Value::as_str) {
                            out.push(Event::ReasoningDelta {
                                text: t.to_string(),
                            });
                        }
                    }
                    Some("input_json_delta") => {
                        let piece = d
                            .get("partial_json")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        let b = self.tools.get_mut(&index).ok_or_else(|| {
                            Decoder::protocol(format!("input_json_delta for unknown block {index}"))
                        })?;
                        if !piece.is_empty() {
                            b.json.push_str(piece);
                            out.push(Event::ToolCallDelta {
                                index: b.call_index,
                                arguments: piece.to_string(),
                            });
                        }
                    }
                    _ => {}
                }
            }
            "content_block_stop" => {
                if let Some(b) = self.tools.remove(&index) {
                    let arguments = if b.json.trim().is_empty() {
                        "{}".to_string()
                    } else {
                        b.json
                    };
                    out.push(Event::ToolCallEnd {
                        index: b.call_index,
                        call: ToolCall {
                            id: b.id,
                            name: b.name,
                            arguments,
                        },
                    });
                }
            }
            "message_delta" => {
                if let Some(r) = v.pointer("/delta/stop_reason").and_then(Value::as_str) {
                    self.stop = Some(FinishReason::from_wire(r));
                }
                if let Some(n) = v.pointer("/usage/output_tokens").and_then(Value::as_u64) {
                    self.usage.completion_tokens = n;
                }
            }
            "message_stop" => self.finish(out)?,
            "error" => {
                let e = v.get("error").unwrap_or(&Value::Null);
                let kind = e.get("type").and_then(Value::as_str).unwrap_or_default();
                let status = match kind {
                    "overloaded_error" => 529,
                    "rate_limit_error" => 429,
                    "invalid_request_error" => 400,
                    _ => 500,
                };
                let body = e
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or(kind)
                    .to_string();
                return Err(LlmError::Status {
                    provider: "anthropic".into(),
                    status,
                    body,
                });
            }
            _ => {} // ping and future event types
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut Vec<Event>) -> Result<()> {
        if self.finished {
            return Ok(());
        }
        let Some(reason) = self.stop else {
            return Err(Decoder::protocol(
                "the stream ended before message_stop".into(),
            ));
        };
        self.finished = true;
        out.push(Event::Usage { usage: self.usage });
        out.push(Event::Finish { reason });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::types::Message;

    #[test]
    fn same_role_messages_are_merged_and_system_split_off() {
        let mut a = Message::assistant("let me look");
        a.tool_calls.push(ToolCall {
            id: "t1".into(),
            name: "f".into(),
            arguments: r#"{"x":1}"#.into(),
        });
        let req = Request {
            messages: vec![
                Message::system("be brief"),
                Message::user("one"),
                Message::user("two"),
                a,
                Message::tool_result("t1", "42"),
                Message::user("and?"),
            ],
            ..Request::default()
        };
        let b = request_body("claude", &req);
        assert_eq!(b["system"], "be brief");
        let msgs = b["messages"].as_array().unwrap();
        assert_eq!(msgs.len(), 3, "{b:#}");
        assert_eq!(msgs[0]["content"].as_array().unwrap().len(), 2);
        assert_eq!(msgs[1]["content"][1]["input"]["x"], 1);
        assert_eq!(msgs[2]["content"][0]["type"], "tool_result");
        assert_eq!(msgs[2]["content"][1]["text"], "and?");
        assert_eq!(b["max_tokens"], 4096);
    }
}
