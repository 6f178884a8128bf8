//! Ollama's native `/api/chat` (newline-delimited JSON). We use it rather than Ollama's OpenAI
//! layer because only the native API lets us set `num_ctx`: Ollama's default window is small
//! and it silently drops the start of longer prompts.

use crate::error::{LlmError, Result};
use crate::http::WireDecoder;
use crate::types::{Event, FinishReason, Part, Request, Role, ToolCall, Usage};
use base64::Engine;
use serde_json::{Map, Value, json};

/// Ollama's default window; we never ask for less.
const MIN_NUM_CTX: u64 = 4096;

/// A context window big enough for the prompt and the answer: a rough token count (3 bytes a
/// token errs on the large side for English and code) rounded up to a multiple of 1024.
pub fn num_ctx(req: &Request) -> u64 {
    let mut bytes: u64 = 0;
    for m in &req.messages {
        bytes += 16;
        for p in &m.parts {
            bytes += match p {
                Part::Text { text } => text.len() as u64,
                // Vision models spend a few hundred tokens an image.
                Part::Image { .. } => 3 * 768,
            };
        }
        for c in &m.tool_calls {
            bytes += (c.name.len() + c.arguments.len()) as u64;
        }
    }
    for t in &req.tools {
        bytes += (t.name.len() + t.description.len() + t.parameters.to_string().len()) as u64;
    }
    let want = bytes / 3 + u64::from(req.max_tokens.unwrap_or(1024)) + 256;
    want.div_ceil(1024).saturating_mul(1024).max(MIN_NUM_CTX)
}

pub fn request_body(model: &str, req: &Request) -> Value {
    let messages: Vec<Value> = req
        .messages
        .iter()
        .map(|m| {
            let mut o = Map::new();
            o.insert("role".into(), json!(m.role.as_str()));
            o.insert("content".into(), json!(m.text()));
            let images: Vec<Value> = m
                .parts
                .iter()
                .filter_map(|p| match p {
                    Part::Image { data, .. } => Some(json!(base64::engine::general_purpose::STANDARD.encode(data))),
                    Part::Text { .. } => None,
                })
                .collect();
            if !images.is_empty() {
                o.insert("images".into(), Value::Array(images));
            }
            if m.role == Role::Assistant && !m.tool_calls.is_empty() {
                o.insert(
                    "tool_calls".into(),
                    m.tool_calls
                        .iter()
                        .map(|c| json!({"function": {"name": c.name, "arguments": c.arguments_json().unwrap_or(json!({}))}}))
                        .collect(),
                );
            }
            Value::Object(o)
        })
        .collect();
    let mut options = Map::new();
    options.insert("num_ctx".into(), json!(num_ctx(req)));
    let s = &req.sampling;
    if let Some(t) = s.temperature {
        options.insert("temperature".into(), json!(t));
    }
    if let Some(p) = s.top_p {
        options.insert("top_p".into(), json!(p));
    }
    if let Some(seed) = s.seed {
        options.insert("seed".into(), json!(seed));
    }
    if let Some(rp) = s.repetition_penalty {
        options.insert("repeat_penalty".into(), json!(rp));
    }
    if let Some(n) = req.max_tokens {
        options.insert("num_predict".into(), json!(n));
    }
    if !req.stop.is_empty() {
        options.insert("stop".into(), json!(req.stop));
    }
    let mut body = Map::new();
    body.insert("model".into(), json!(model));
    body.insert("messages".into(), Value::Array(messages));
    body.insert("stream".into(), json!(true));
    body.insert("options".into(), Value::Object(options));
    // Ollama has no tool_choice; with ToolChoice::None we simply offer no tools.
    if !req.tools.is_empty() && req.tool_choice != crate::types::ToolChoice::None {
        body.insert(
            "tools".into(),
            req.tools
                .iter()
                .map(|t| json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}))
                .collect(),
        );
    }
    Value::Object(body)
}

/// Decodes `/api/chat` lines. Ollama sends each tool call whole, arguments as an object.
#[derive(Debug)]
pub struct Decoder {
    provider: String,
    calls: usize,
    finished: bool,
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder {
            provider: "ollama".into(),
            calls: 0,
            finished: false,
        }
    }
}

impl Default for Decoder {
    fn default() -> Self {
        Decoder::new()
    }
}

impl WireDecoder for Decoder {
    fn feed(&mut self, data: &str, out: &mut Vec<Event>) -> Result<()> {
        let v: Value = serde_json::from_str(data).map_err(|e| LlmError::Protocol {
            provider: self.provider.clone(),
            message: format!("{e} in {data:.200}"),
        })?;
        if let Some(err) = v.get("error") {
            let body = err
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| err.to_string());
            return Err(LlmError::Status {
                provider: self.provider.clone(),
                status: 500,
                body,
            });
        }
        let msg = v.get("message").unwrap_or(&Value::Null);
        if let Some(t) = msg
            .get("thinking")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
        {
            out.push(Event::ReasoningDelta {
                text: t.to_string(),
            });
        }
        if let Some(t) = msg
            .get("content")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
        {
            out.push(Event::TextDelta {
                text: t.to_string(),
            });
        }
        for c in msg
            .get("tool_calls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let f = c.get("function").unwrap_or(&Value::Null);
            let name = f
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let arguments = match f.get("arguments") {
                Some(Value::String(s)) => s.clone(),
                Some(v) if !v.is_null() => v.to_string(),
                _ => "{}".into(),
            };
            let index = self.calls;
            self.calls += 1;
            let id = c
                .get("id")
                .and_then(Value::as_str)
                .map(str::to_string)
                .unwrap_or_else(|| format!("call_{index}"));
            out.push(Event::ToolCallStart {
                index,
                id: id.clone(),
                name: name.clone(),
            });
            out.push(Event::ToolCallDelta {
                index,
                arguments: arguments.clone(),
            });
            out.push(Event::ToolCallEnd {
                index,
                call: ToolCall {
                    id,
                    name,
                    arguments,
                },
            });
        }
        if v.get("done").and_then(Value::as_bool) == Some(true) {
            let n = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
            out.push(Event::Usage {
                usage: Usage {
                    prompt_tokens: n("prompt_eval_count"),
                    completion_tokens: n("eval_count"),
                },
            });
            let reason = match v.get("done_reason").and_then(Value::as_str) {
                _ if self.calls > 0 => FinishReason::ToolCalls,
                Some(r) => FinishReason::from_wire(r),
                None => FinishReason::Stop,
            };
            out.push(Event::Finish { reason });
            self.finished = true;
        }
        Ok(())
    }

    fn finish(&mut self, _out: &mut Vec<Event>) -> Result<()> {
        if self.finished {
            Ok(())
        } else {
            Err(LlmError::Protocol {
                provider: self.provider.clone(),
                message: "the stream ended before \"done\": true".into(),
            })
        }
    }
}

/// The context window of an `/api/show` answer: the model's own length
/// (`model_info["<arch>.context_length"]`), else the `num_ctx` of its parameters.
pub fn context_length(v: &Value) -> Option<u64> {
    let from_info = v
        .get("model_info")
        .and_then(Value::as_object)
        .and_then(|info| {
            info.iter()
                .filter(|(k, _)| k.ends_with(".context_length"))
                .find_map(|(_, n)| n.as_u64())
        });
    let from_parameters = || {
        v.get("parameters")
            .and_then(Value::as_str)?
            .lines()
            .find_map(|line| {
                let mut words = line.split_whitespace();
                (words.next() == Some("num_ctx"))
                    .then(|| words.next()?.parse::<u64>().ok())
                    .flatten()
            })
    };
    from_info.or_else(from_parameters).filter(|n| *n > 0)
}

/// The model names of an `/api/tags` answer.
pub fn tag_names(v: &Value) -> Vec<String> {
    v.get("models")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|m| {
            m.get("name")
                .or_else(|| m.get("model"))
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::types::Message;

    #[test]
    fn num_ctx_grows_with_the_prompt() {
        let small = Request::prompt("hi");
        assert_eq!(num_ctx(&small), MIN_NUM_CTX);
        let big = Request::prompt("word ".repeat(30_000));
        let n = num_ctx(&big);
        assert!(n >= 50_000 + 1024 && n.is_multiple_of(1024), "{n}");
    }

    #[test]
    fn body_puts_options_and_images() {
        let mut req = Request::prompt("what is this");
        req.messages[0].parts.push(Part::Image {
            media_type: "image/png".into(),
            data: vec![1, 2, 3],
        });
        req.messages.insert(0, Message::system("s"));
        req.max_tokens = Some(7);
        req.sampling.temperature = Some(0.0);
        let b = request_body("llama3.1", &req);
        assert_eq!(b["messages"][1]["images"][0], "AQID");
        assert_eq!(b["options"]["num_predict"], 7);
        assert_eq!(b["options"]["temperature"], 0.0);
        assert_eq!(b["options"]["num_ctx"], 4096);
    }

    #[test]
    fn context_length_from_model_info_else_num_ctx() {
        let v = json!({"model_info": {"general.architecture": "llama", "llama.context_length": 131072},
                       "parameters": "num_ctx 8192\nstop \"<|eot_id|>\""});
        assert_eq!(context_length(&v), Some(131_072));
        let v = json!({"parameters": "stop \"x\"\nnum_ctx     8192"});
        assert_eq!(context_length(&v), Some(8192));
        assert_eq!(context_length(&json!({"model_info": {}})), None);
        assert_eq!(context_length(&json!({"parameters": "num_ctx lots"})), None);
    }

    #[test]
    fn tags() {
        let v = json!({"models": [{"name": "llama3.1:8b"}, {"model": "qwen"}]});
        assert_eq!(tag_names(&v), vec!["llama3.1:8b", "qwen"]);
    }
}
