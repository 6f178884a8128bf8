//! OpenAI Chat Completions, streamed: `openai`, `openai-compat` (LM Studio, llama.cpp server,
//! vLLM) and `openrouter` all speak it. The decoder copes with what real servers send:
//! tool-call deltas without `index`, whole tool calls in one chunk, `arguments` as an object,
//! reasoning in `reasoning_content` or `reasoning`, usage in a last chunk, errors in the stream.

use crate::error::{LlmError, Result};
use crate::http::WireDecoder;
use crate::types::{Event, FinishReason, Part, Request, Role, ToolCall, ToolChoice, Usage};
use serde_json::{Map, Value, json};

/// Which flavour of the wire to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    OpenAi,
    Compat,
    OpenRouter,
}

fn content(parts: &[Part]) -> Value {
    if parts.iter().all(|p| matches!(p, Part::Text { .. })) {
        let mut s = String::new();
        for p in parts {
            if let Part::Text { text } = p {
                s.push_str(text);
            }
        }
        return Value::String(s);
    }
    Value::Array(
        parts
            .iter()
            .map(|p| match p {
                Part::Text { text } => json!({"type": "text", "text": text}),
                Part::Image { media_type, data } => {
                    json!({"type": "image_url", "image_url": {"url": Part::data_url(media_type, data)}})
                }
            })
            .collect(),
    )
}

/// The JSON body of a streaming chat completion.
pub fn request_body(model: &str, req: &Request, flavor: Flavor) -> Value {
    let messages: Vec<Value> = req
        .messages
        .iter()
        .map(|m| {
            let mut o = Map::new();
            o.insert("role".into(), json!(m.role.as_str()));
            if m.role == Role::Assistant && !m.tool_calls.is_empty() {
                let text = m.text();
                o.insert("content".into(), if text.is_empty() { Value::Null } else { json!(text) });
                o.insert(
                    "tool_calls".into(),
                    m.tool_calls
                        .iter()
                        .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}))
                        .collect(),
                );
            } else {
                o.insert("content".into(), content(&m.parts));
            }
            if let Some(id) = &m.tool_call_id {
                o.insert("tool_call_id".into(), json!(id));
            }
            Value::Object(o)
        })
        .collect();
    let mut body = Map::new();
    body.insert("model".into(), json!(model));
    body.insert("messages".into(), Value::Array(messages));
    body.insert("stream".into(), json!(true));
    body.insert("stream_options".into(), json!({"include_usage": true}));
    if !req.tools.is_empty() {
        body.insert(
            "tools".into(),
            req.tools
                .iter()
                .map(|t| json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}))
                .collect(),
        );
        body.insert(
            "tool_choice".into(),
            match &req.tool_choice {
                ToolChoice::Auto => json!("auto"),
                ToolChoice::None => json!("none"),
                ToolChoice::Required => json!("required"),
                ToolChoice::Tool(name) => json!({"type": "function", "function": {"name": name}}),
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
    if let Some(seed) = s.seed {
        body.insert("seed".into(), json!(seed));
    }
    // OpenAI itself has no repetition penalty; OpenRouter, vLLM and llama.cpp's server take it.
    if let (Some(rp), false) = (s.repetition_penalty, flavor == Flavor::OpenAi) {
        body.insert("repetition_penalty".into(), json!(rp));
    }
    if let Some(n) = req.max_tokens {
        // Newer OpenAI models refuse `max_tokens`; other servers mostly know only that.
        let key = if flavor == Flavor::OpenAi {
            "max_completion_tokens"
        } else {
            "max_tokens"
        };
        body.insert(key.into(), json!(n));
    }
    if !req.stop.is_empty() {
        body.insert("stop".into(), json!(req.stop));
    }
    Value::Object(body)
}

/// The most tool calls one answer may carry; real models make a handful.
pub const MAX_TOOL_CALLS: usize = 128;

#[derive(Debug, Default)]
struct CallState {
    id: String,
    name: String,
    arguments: String,
    started: bool,
}

/// Decodes `chat.completion.chunk` events.
#[derive(Debug)]
pub struct Decoder {
    provider: String,
    calls: Vec<CallState>,
    /// The index of the call the last index-less delta went to.
    current: Option<usize>,
    finish: Option<FinishReason>,
    closed: bool,
    finished: bool,
}

impl Decoder {
    pub fn new(provider: &str) -> Decoder {
        Decoder {
            provider: provider.into(),
            calls: Vec::new(),
            current: None,
            finish: None,
            closed: false,
            finished: false,
        }
    }

    fn protocol(&self, message: String) -> LlmError {
        LlmError::Protocol {
            provider: self.provider.clone(),
            message,
        }
    }

    /// Which call a tool-call delta belongs to. With `index` that is it; without, a new `id`
    /// opens a new call and no `id` continues the current one. The calls live in a list indexed
    /// by the server's number, so a number past [`MAX_TOOL_CALLS`] is refused rather than
    /// allocated: one bad `index` must not be able to exhaust memory.
    fn slot(&mut self, delta: &Value) -> Result<usize> {
        let id = delta
            .get("id")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty());
        let idx = match delta.get("index").and_then(Value::as_u64) {
            Some(i) => i as usize,
            None => match id {
                Some(id) => self
                    .calls
                    .iter()
                    .position(|c| c.id == id)
                    .unwrap_or(self.calls.len()),
                None => self.current.unwrap_or(0),
            },
        };
        if idx >= MAX_TOOL_CALLS {
            return Err(self.protocol(format!(
                "tool call number {idx} in one answer; at most {MAX_TOOL_CALLS} are accepted"
            )));
        }
        while self.calls.len() <= idx {
            self.calls.push(CallState::default());
        }
        self.current = Some(idx);
        Ok(idx)
    }

    fn tool_delta(&mut self, d: &Value, out: &mut Vec<Event>) -> Result<()> {
        let i = self.slot(d)?;
        let f = d.get("function").unwrap_or(&Value::Null);
        let call = &mut self.calls[i];
        if let Some(id) = d
            .get("id")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            && call.id.is_empty()
        {
            call.id = id.to_string();
        }
        if let Some(name) = f
            .get("name")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
        {
            if call.name.is_empty() {
                call.name = name.to_string();
            } else if !call.started {
                call.name.push_str(name);
            }
        }
        if !call.started && !call.name.is_empty() {
            call.started = true;
            if call.id.is_empty() {
                call.id = format!("call_{i}");
            }
            out.push(Event::ToolCallStart {
                index: i,
                id: call.id.clone(),
                name: call.name.clone(),
            });
        }
        let args = match f.get("arguments") {
            Some(Value::String(s)) => s.clone(),
            // Some servers (Ollama's OpenAI layer, some vLLM versions) send the object itself.
            Some(v @ Value::Object(_)) => v.to_string(),
            _ => String::new(),
        };
        if !args.is_empty() {
            call.arguments.push_str(&args);
            if call.started {
                out.push(Event::ToolCallDelta {
                    index: i,
                    arguments: args,
                });
            }
        }
        Ok(())
    }

    fn close_calls(&mut self, out: &mut Vec<Event>) {
        if self.closed {
            return;
        }
        self.closed = true;
        for (i, c) in self.calls.iter_mut().enumerate() {
            if c.name.is_empty() {
                continue;
            }
            if !c.started {
                c.started = true;
                out.push(Event::ToolCallStart {
                    index: i,
                    id: c.id.clone(),
                    name: c.name.clone(),
                });
                if !c.arguments.is_empty() {
                    out.push(Event::ToolCallDelta {
                        index: i,
                        arguments: c.arguments.clone(),
                    });
                }
            }
            out.push(Event::ToolCallEnd {
                index: i,
                call: ToolCall {
                    id: c.id.clone(),
                    name: c.name.clone(),
                    arguments: c.arguments.clone(),
                },
            });
        }
    }
}

impl WireDecoder for Decoder {
    fn feed(&mut self, data: &str, out: &mut Vec<Event>) -> Result<()> {
        let data = data.trim();
        if data.is_empty() {
            return Ok(());
        }
        if data == "[DONE]" {
            return self.finish(out);
        }
        let v: Value =
            serde_json::from_str(data).map_err(|e| self.protocol(format!("{e} in {data:.200}")))?;
        if let Some(err) = v.get("error") {
            let message = err
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| err.to_string());
            let status = err.get("code").and_then(Value::as_u64).unwrap_or(500) as u16;
            return Err(LlmError::Status {
                provider: self.provider.clone(),
                status,
                body: message,
            });
        }
        if let Some(choice) = v.get("choices").and_then(|c| c.get(0)) {
            let delta = choice
                .get("delta")
                .or_else(|| choice.get("message"))
                .unwrap_or(&Value::Null);
            for key in ["reasoning_content", "reasoning"] {
                if let Some(t) = delta
                    .get(key)
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty())
                {
                    out.push(Event::ReasoningDelta {
                        text: t.to_string(),
                    });
                }
            }
            if let Some(t) = delta
                .get("content")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
            {
                out.push(Event::TextDelta {
                    text: t.to_string(),
                });
            }
            if let Some(calls) = delta.get("tool_calls").and_then(Value::as_array) {
                for d in calls {
                    self.tool_delta(d, out)?;
                }
            }
            if let Some(r) = choice.get("finish_reason").and_then(Value::as_str) {
                self.finish = Some(FinishReason::from_wire(r));
                self.close_calls(out);
            }
        }
        if let Some(u) = v.get("usage").filter(|u| u.is_object()) {
            let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
            out.push(Event::Usage {
                usage: Usage {
                    prompt_tokens: n("prompt_tokens"),
                    completion_tokens: n("completion_tokens"),
                },
            });
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut Vec<Event>) -> Result<()> {
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        self.close_calls(out);
        let has_calls = self.calls.iter().any(|c| !c.name.is_empty());
        let reason = match self.finish {
            // Some servers say "stop" after tool calls; the calls are what matters.
            Some(FinishReason::Stop) | None if has_calls => FinishReason::ToolCalls,
            Some(r) => r,
            None => {
                return Err(self.protocol("the stream ended before the answer was finished".into()));
            }
        };
        out.push(Event::Finish { reason });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::types::{Message, Tool};

    #[test]
    fn body_has_tools_images_and_flavoured_limits() {
        let mut req = Request::prompt("hi");
        req.messages[0].parts.push(Part::Image {
            media_type: "image/png".into(),
            data: vec![1, 2, 3],
        });
        req.tools.push(Tool {
            name: "f".into(),
            description: "d".into(),
            parameters: json!({"type": "object"}),
        });
        req.tool_choice = ToolChoice::Tool("f".into());
        req.max_tokens = Some(10);
        req.sampling.repetition_penalty = Some(1.1);
        let b = request_body("gpt", &req, Flavor::OpenAi);
        assert_eq!(
            b["messages"][0]["content"][1]["image_url"]["url"],
            "data:image/png;base64,AQID"
        );
        assert_eq!(b["tool_choice"]["function"]["name"], "f");
        assert_eq!(b["max_completion_tokens"], 10);
        assert!(b.get("repetition_penalty").is_none());
        let b = request_body("m", &req, Flavor::Compat);
        assert_eq!(b["max_tokens"], 10);
        assert!(b.get("repetition_penalty").is_some());
    }

    #[test]
    fn tool_history_round_trips() {
        let mut a = Message::assistant("");
        a.tool_calls.push(ToolCall {
            id: "c1".into(),
            name: "f".into(),
            arguments: "{}".into(),
        });
        let req = Request {
            messages: vec![Message::user("q"), a, Message::tool_result("c1", "42")],
            ..Request::default()
        };
        let b = request_body("m", &req, Flavor::Compat);
        assert_eq!(b["messages"][1]["content"], Value::Null);
        assert_eq!(b["messages"][1]["tool_calls"][0]["id"], "c1");
        assert_eq!(b["messages"][2]["role"], "tool");
        assert_eq!(b["messages"][2]["tool_call_id"], "c1");
    }

    #[test]
    fn ended_without_finish_is_an_error() {
        let mut d = Decoder::new("openai");
        let mut out = Vec::new();
        d.feed(r#"{"choices":[{"delta":{"content":"Hi"}}]}"#, &mut out)
            .unwrap();
        assert!(d.finish(&mut out).is_err());
    }

    #[test]
    fn a_huge_tool_call_index_is_an_error_not_an_allocation() {
        let mut d = Decoder::new("openai");
        let mut out = Vec::new();
        let chunk = r#"{"choices":[{"delta":{"tool_calls":[{"index":18446744073709551615,"id":"c","function":{"name":"f","arguments":"{}"}}]}}]}"#;
        let e = d.feed(chunk, &mut out).unwrap_err();
        assert!(matches!(e, LlmError::Protocol { .. }), "{e}");
        assert!(e.to_string().contains("at most 128"), "{e}");
        assert!(d.calls.is_empty());
        // Calls without an index, each with a new id, are held to the same bound.
        let mut d = Decoder::new("openai");
        for n in 0..MAX_TOOL_CALLS {
            let c = format!(
                r#"{{"choices":[{{"delta":{{"tool_calls":[{{"id":"c{n}","function":{{"name":"f"}}}}]}}}}]}}"#
            );
            d.feed(&c, &mut out).unwrap();
        }
        let c =
            r#"{"choices":[{"delta":{"tool_calls":[{"id":"one-more","function":{"name":"f"}}]}}]}"#;
        assert!(d.feed(c, &mut out).is_err());
        // The largest index that fits still works.
        let mut d = Decoder::new("openai");
        let last = format!(
            r#"{{"choices":[{{"delta":{{"tool_calls":[{{"index":{},"id":"c","function":{{"name":"f","arguments":"{{}}"}}}}]}}}}]}}"#,
            MAX_TOOL_CALLS - 1
        );
        d.feed(&last, &mut out).unwrap();
    }
}
