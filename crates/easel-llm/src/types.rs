//! The one request type and the one event type every provider speaks.

use serde::{Deserialize, Serialize};

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    /// The result of a tool call, answering an assistant message's tool call.
    Tool,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }
}

/// A piece of a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Part {
    Text {
        text: String,
    },
    /// An image, sent to providers that take images (as base64 data).
    Image {
        media_type: String,
        #[serde(with = "b64")]
        data: Vec<u8>,
    },
}

mod b64 {
    use base64::Engine;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(data: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&base64::engine::general_purpose::STANDARD.encode(data))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let s = String::deserialize(d)?;
        base64::engine::general_purpose::STANDARD
            .decode(s.as_bytes())
            .map_err(serde::de::Error::custom)
    }
}

impl Part {
    pub fn text(text: impl Into<String>) -> Part {
        Part::Text { text: text.into() }
    }

    /// The image as a `data:` URL, the form OpenAI-style APIs take.
    pub fn data_url(media_type: &str, data: &[u8]) -> String {
        use base64::Engine;
        format!(
            "data:{media_type};base64,{}",
            base64::engine::general_purpose::STANDARD.encode(data)
        )
    }
}

/// A tool call the model made: `arguments` is the JSON text of the arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: String,
}

impl ToolCall {
    /// The arguments parsed as JSON (an empty text counts as `{}`).
    pub fn arguments_json(&self) -> Result<serde_json::Value, serde_json::Error> {
        if self.arguments.trim().is_empty() {
            return Ok(serde_json::Value::Object(Default::default()));
        }
        serde_json::from_str(&self.arguments)
    }
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    #[serde(default)]
    pub parts: Vec<Part>,
    /// The tool calls of an assistant message.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For a `Tool` message: the id of the call it answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl Message {
    fn with_text(role: Role, text: impl Into<String>) -> Message {
        Message {
            role,
            parts: vec![Part::text(text)],
            tool_calls: Vec::new(),
            tool_call_id: None,
        }
    }
    pub fn system(text: impl Into<String>) -> Message {
        Message::with_text(Role::System, text)
    }
    pub fn user(text: impl Into<String>) -> Message {
        Message::with_text(Role::User, text)
    }
    pub fn assistant(text: impl Into<String>) -> Message {
        Message::with_text(Role::Assistant, text)
    }
    /// The result of the tool call `call_id`.
    pub fn tool_result(call_id: impl Into<String>, text: impl Into<String>) -> Message {
        Message {
            tool_call_id: Some(call_id.into()),
            ..Message::with_text(Role::Tool, text)
        }
    }

    /// The text parts joined (images left out).
    pub fn text(&self) -> String {
        let mut out = String::new();
        for p in &self.parts {
            if let Part::Text { text } = p {
                out.push_str(text);
            }
        }
        out
    }
}

/// A tool the model may call; `parameters` is a JSON Schema for its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub parameters: serde_json::Value,
}

/// Whether and which tool the model must call.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolChoice {
    /// The model decides between answering and calling a tool.
    #[default]
    Auto,
    /// No tool call.
    None,
    /// Some tool call.
    Required,
    /// This tool.
    Tool(String),
}

/// Sampling settings; `None` leaves the provider's default.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Sampling {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_p: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repetition_penalty: Option<f32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

/// One request to any model.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub messages: Vec<Message>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<Tool>,
    #[serde(default)]
    pub tool_choice: ToolChoice,
    #[serde(default)]
    pub sampling: Sampling,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stop: Vec<String>,
}

impl Request {
    /// A request of one user message.
    pub fn prompt(text: impl Into<String>) -> Request {
        Request {
            messages: vec![Message::user(text)],
            ..Request::default()
        }
    }
}

/// Token counts of one call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

/// Why the model stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    /// The model ended its answer (or hit a stop sequence).
    Stop,
    /// `max_tokens` (or the context window) ran out.
    Length,
    /// The model called tools.
    ToolCalls,
    /// The provider filtered the answer.
    ContentFilter,
}

impl FinishReason {
    pub fn as_str(self) -> &'static str {
        match self {
            FinishReason::Stop => "stop",
            FinishReason::Length => "length",
            FinishReason::ToolCalls => "tool_calls",
            FinishReason::ContentFilter => "content_filter",
        }
    }

    /// Reads the OpenAI / Ollama / Anthropic spellings.
    pub fn from_wire(s: &str) -> FinishReason {
        match s {
            "length" | "max_tokens" => FinishReason::Length,
            "tool_calls" | "tool_use" | "function_call" => FinishReason::ToolCalls,
            "content_filter" | "refusal" => FinishReason::ContentFilter,
            _ => FinishReason::Stop,
        }
    }
}

/// One event of a streamed answer. Tool calls come as start, argument pieces, end; `index` tells
/// parallel calls apart. A stream ends with `Finish`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    TextDelta {
        text: String,
    },
    /// Reasoning text of models that think aloud (kept apart from the answer).
    ReasoningDelta {
        text: String,
    },
    ToolCallStart {
        index: usize,
        id: String,
        name: String,
    },
    ToolCallDelta {
        index: usize,
        arguments: String,
    },
    ToolCallEnd {
        index: usize,
        call: ToolCall,
    },
    Usage {
        usage: Usage,
    },
    Finish {
        reason: FinishReason,
    },
}

/// A whole answer, gathered from the events.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Response {
    pub text: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reasoning: String,
    pub tool_calls: Vec<ToolCall>,
    pub usage: Usage,
    pub finish_reason: Option<FinishReason>,
}

impl Response {
    /// Folds one event into the answer.
    pub fn apply(&mut self, event: &Event) {
        match event {
            Event::TextDelta { text } => self.text.push_str(text),
            Event::ReasoningDelta { text } => self.reasoning.push_str(text),
            Event::ToolCallEnd { call, .. } => self.tool_calls.push(call.clone()),
            Event::Usage { usage } => self.usage = *usage,
            Event::Finish { reason } => self.finish_reason = Some(*reason),
            Event::ToolCallStart { .. } | Event::ToolCallDelta { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn response_folds_events() {
        let mut r = Response::default();
        for e in [
            Event::TextDelta { text: "Hel".into() },
            Event::TextDelta { text: "lo".into() },
            Event::ToolCallStart {
                index: 0,
                id: "a".into(),
                name: "f".into(),
            },
            Event::ToolCallDelta {
                index: 0,
                arguments: "{}".into(),
            },
            Event::ToolCallEnd {
                index: 0,
                call: ToolCall {
                    id: "a".into(),
                    name: "f".into(),
                    arguments: "{}".into(),
                },
            },
            Event::Usage {
                usage: Usage {
                    prompt_tokens: 3,
                    completion_tokens: 2,
                },
            },
            Event::Finish {
                reason: FinishReason::ToolCalls,
            },
        ] {
            r.apply(&e);
        }
        assert_eq!(r.text, "Hello");
        assert_eq!(r.tool_calls.len(), 1);
        assert_eq!(r.usage.completion_tokens, 2);
        assert_eq!(r.finish_reason, Some(FinishReason::ToolCalls));
    }

    #[test]
    fn image_parts_round_trip_as_base64() {
        let p = Part::Image {
            media_type: "image/png".into(),
            data: vec![0, 1, 2, 255],
        };
        let j = serde_json::to_string(&p).unwrap();
        assert!(j.contains("AAEC/w=="), "{j}");
        assert_eq!(serde_json::from_str::<Part>(&j).unwrap(), p);
    }

    #[test]
    fn empty_arguments_are_an_empty_object() {
        let c = ToolCall {
            id: "x".into(),
            name: "f".into(),
            arguments: " ".into(),
        };
        assert_eq!(c.arguments_json().unwrap(), serde_json::json!({}));
    }
}
