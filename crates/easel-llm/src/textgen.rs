//! The pure parts of running a local model: how tools are offered in the prompt, the JSON Schema
//! the grammar is built from, reading a tool call back from the output, stop sequences and UTF-8
//! pieces. No llama.cpp here, so all of it is tested without a model.

use crate::types::{Message, Part, Role, Tool, ToolCall, ToolChoice};
use serde_json::{Value, json};

/// The JSON Schema of "one call of one of these tools": `{"name": <tool>, "arguments": {...}}`.
pub fn tool_call_schema(tools: &[&Tool]) -> Value {
    let one = |t: &Tool| {
        let mut params = t.parameters.clone();
        if params.get("type").is_none() && params.get("properties").is_none() {
            params = json!({"type": "object"});
        }
        json!({
            "type": "object",
            "properties": {
                "name": {"const": t.name},
                "arguments": params,
            },
            "required": ["name", "arguments"],
            "additionalProperties": false,
        })
    };
    if tools.len() == 1 {
        one(tools[0])
    } else {
        json!({"oneOf": tools.iter().map(|t| one(t)).collect::<Vec<_>>()})
    }
}

/// The tools the choice allows, or `None` when no tool call may be made.
pub fn allowed_tools<'a>(tools: &'a [Tool], choice: &ToolChoice) -> Option<Vec<&'a Tool>> {
    if tools.is_empty() {
        return None;
    }
    match choice {
        ToolChoice::None => None,
        ToolChoice::Auto | ToolChoice::Required => Some(tools.iter().collect()),
        ToolChoice::Tool(name) => Some(tools.iter().filter(|t| &t.name == name).collect()),
    }
}

/// Renames the `root` rule of a llama.cpp grammar so it can become one branch of a bigger one.
pub fn rename_root(grammar: &str, new_name: &str) -> String {
    let mut out = String::with_capacity(grammar.len() + 16);
    for line in grammar.lines() {
        if let Some(rest) = line.strip_prefix("root ::=") {
            out.push_str(new_name);
            out.push_str(" ::=");
            out.push_str(rest);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The grammar for "a tool call or a plain answer": a plain answer is any text that does not open
/// with `{`, so the first character decides, and a call is always complete, valid JSON.
pub fn call_or_text_grammar(call_grammar: &str) -> String {
    let mut g = rename_root(call_grammar, "call");
    g.push_str("root ::= call | answer\n");
    g.push_str("answer ::= [^{ \\t\\n] [^\\x00]*\n");
    g
}

/// The system text that tells the model which tools it has and how to call one.
///
/// Each tool is one line, a signature and the first sentence of its description, because the
/// prompt is read on every turn and a small local model reads about 350 tokens a second on two
/// cores: the catalogue's full JSON Schemas for 20 tools are 5,300 tokens (15 s), these lines
/// about a fifth of that. The grammar, not the prompt, keeps the arguments to the schema.
pub fn tools_prompt(tools: &[&Tool], required: bool) -> String {
    let mut s = String::from("You can call these tools:\n");
    for t in tools {
        s.push_str(&signature(t));
        let summary = first_sentence(&t.description);
        if !summary.is_empty() {
            s.push_str(" - ");
            s.push_str(summary);
        }
        s.push('\n');
    }
    if required {
        s.push_str("Call one tool now. Reply with only a JSON object: {\"name\": <tool name>, \"arguments\": {...}}.");
    } else {
        s.push_str("To call a tool, reply with only a JSON object: {\"name\": <tool name>, \"arguments\": {...}}. Otherwise answer in plain text.");
    }
    s
}

/// `name(a: string, b?: number, kind?: "x"|"y")`: required parameters first, as in the schema.
fn signature(t: &Tool) -> String {
    let props = t.parameters.get("properties").and_then(Value::as_object);
    let required: Vec<&str> = t
        .parameters
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut params: Vec<String> = Vec::new();
    if let Some(props) = props {
        let mut names: Vec<&String> = props.keys().collect();
        // Required ones first, each group in the schema's order.
        names.sort_by_key(|n| !required.contains(&n.as_str()));
        for name in names {
            let optional = if required.contains(&name.as_str()) {
                ""
            } else {
                "?"
            };
            params.push(format!("{name}{optional}: {}", type_text(&props[name], 0)));
        }
    }
    format!("{}({})", t.name, params.join(", "))
}

/// A schema as a short type: `string`, `"a"|"b"`, `number[]`, `{x: number, y?: string}`.
fn type_text(schema: &Value, depth: usize) -> String {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join("|");
    }
    if let Some(c) = schema.get("const") {
        return c.to_string();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(alts) = schema.get(key).and_then(Value::as_array) {
            return alts
                .iter()
                .map(|a| type_text(a, depth + 1))
                .collect::<Vec<_>>()
                .join("|");
        }
    }
    let ty = match schema.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect::<Vec<_>>()
            .join("|"),
        _ => "any".into(),
    };
    match ty.as_str() {
        "array" => {
            let item = schema
                .get("items")
                .map(|i| type_text(i, depth + 1))
                .unwrap_or_else(|| "any".into());
            if item.contains('|') {
                format!("({item})[]")
            } else {
                format!("{item}[]")
            }
        }
        // One level of nested fields is worth its tokens; deeper ones the grammar spells out.
        "object" if depth < 2 => match schema.get("properties").and_then(Value::as_object) {
            Some(props) if !props.is_empty() => {
                let required: Vec<&str> = schema
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let fields: Vec<String> = props
                    .iter()
                    .map(|(k, v)| {
                        let opt = if required.contains(&k.as_str()) {
                            ""
                        } else {
                            "?"
                        };
                        format!("{k}{opt}: {}", type_text(v, depth + 1))
                    })
                    .collect();
                format!("{{{}}}", fields.join(", "))
            }
            _ => "object".into(),
        },
        "integer" => "number".into(),
        _ => ty,
    }
}

/// The description's first sentence (up to the first ". " or line break), at most 160 bytes.
fn first_sentence(description: &str) -> &str {
    let d = description.trim();
    let mut end = d.len();
    if let Some(i) = d.find('\n') {
        end = end.min(i);
    }
    if let Some(i) = d.find(". ") {
        end = end.min(i + 1);
    }
    if end > 160 {
        end = d.floor_char_boundary(160);
    }
    d[..end].trim_end()
}

/// Notices an answer stuck in a loop: the same piece (1 to 160 bytes) repeated back to back
/// until it spans at least 96 bytes, in at least 3 copies. Small models do this inside a tool
/// call's string arguments and in answers that echo an error, and without a check they repeat
/// until `max_tokens`, which on a local model is minutes; legitimate text rarely repeats one
/// piece that often.
#[derive(Debug, Default)]
pub struct RepeatGuard {
    tail: Vec<u8>,
}

impl RepeatGuard {
    const WINDOW: usize = 512;
    // A sentence said over and over is a loop too (the document agent's explanations did it
    // with a 92-byte one); three copies of 160 bytes still fit the window.
    const MAX_UNIT: usize = 160;
    const MIN_SPAN: usize = 96;
    const MIN_COPIES: usize = 3;

    /// Adds text; true when the text so far ends in a loop.
    pub fn push(&mut self, text: &str) -> bool {
        self.tail.extend_from_slice(text.as_bytes());
        if self.tail.len() > 2 * Self::WINDOW {
            self.tail.drain(..self.tail.len() - Self::WINDOW);
        }
        let t = &self.tail;
        let n = t.len();
        (1..=Self::MAX_UNIT.min(n / Self::MIN_COPIES)).any(|unit| {
            let last = &t[n - unit..];
            let mut copies = 1;
            while (copies + 1) * unit <= n && &t[n - (copies + 1) * unit..n - copies * unit] == last
            {
                copies += 1;
            }
            copies >= Self::MIN_COPIES && copies * unit >= Self::MIN_SPAN
        })
    }
}

/// A tool call cut off before its JSON closed: the tool's name, if it was written in full, and
/// the arguments' text so far. The call grammar writes `name` before `arguments`.
pub fn partial_tool_call(text: &str) -> Option<(String, String)> {
    let t = text.trim_start().strip_prefix('{')?;
    let after_key = t.trim_start().strip_prefix("\"name\"")?;
    let value = after_key.trim_start().strip_prefix(':')?;
    let mut names = serde_json::Deserializer::from_str(value).into_iter::<String>();
    let name = names.next()?.ok()?;
    let rest = value[names.byte_offset()..]
        .trim_start()
        .strip_prefix(',')?;
    let args = rest
        .trim_start()
        .strip_prefix("\"arguments\"")
        .and_then(|a| a.trim_start().strip_prefix(':'))
        .map(|a| a.trim().to_string())
        .unwrap_or_default();
    Some((name, args))
}

/// The messages as (role, text) pairs for a chat template: tools described in the system message,
/// earlier tool calls written as the JSON the model would produce, images named but not shown.
pub fn chat_turns(messages: &[Message], tools_text: Option<&str>) -> Vec<(String, String)> {
    let mut turns: Vec<(String, String)> = Vec::with_capacity(messages.len() + 1);
    let mut tools_placed = tools_text.is_none();
    for m in messages {
        let mut text = String::new();
        for p in &m.parts {
            match p {
                Part::Text { text: t } => text.push_str(t),
                Part::Image { media_type, .. } => {
                    text.push_str(&format!("[an image ({media_type}) this model cannot see]"))
                }
            }
        }
        for c in &m.tool_calls {
            let args = c
                .arguments_json()
                .unwrap_or(Value::String(c.arguments.clone()));
            text.push_str(&json!({"name": c.name, "arguments": args}).to_string());
        }
        if m.role == Role::System && !tools_placed {
            if let Some(t) = tools_text {
                text = format!("{text}\n\n{t}");
            }
            tools_placed = true;
        }
        turns.push((m.role.as_str().to_string(), text));
    }
    if let (false, Some(t)) = (tools_placed, tools_text) {
        turns.insert(0, ("system".into(), t.to_string()));
    }
    turns
}

/// Reads `{"name": ..., "arguments": {...}}` back into a tool call, if the text is one.
pub fn parse_tool_call(text: &str, id: String) -> Option<ToolCall> {
    let v: Value = serde_json::from_str(text.trim()).ok()?;
    let name = v.get("name")?.as_str()?.to_string();
    let arguments = match v.get("arguments") {
        Some(a) => a.to_string(),
        None => "{}".into(),
    };
    Some(ToolCall {
        id,
        name,
        arguments,
    })
}

/// Turns token pieces (bytes that may split a UTF-8 character) into text.
#[derive(Debug, Default)]
pub struct Utf8Pieces {
    pending: Vec<u8>,
}

impl Utf8Pieces {
    /// Adds bytes and returns the text that is complete so far.
    pub fn push(&mut self, bytes: &[u8]) -> String {
        self.pending.extend_from_slice(bytes);
        let mut out = String::new();
        loop {
            match std::str::from_utf8(&self.pending) {
                Ok(s) => {
                    out.push_str(s);
                    self.pending.clear();
                    return out;
                }
                Err(e) => {
                    let valid = e.valid_up_to();
                    // Safe: from_utf8 said these bytes are valid.
                    out.push_str(&String::from_utf8_lossy(&self.pending[..valid]));
                    match e.error_len() {
                        // A character cut at the end: wait for the rest.
                        None => {
                            self.pending.drain(..valid);
                            return out;
                        }
                        Some(bad) => {
                            out.push('\u{FFFD}');
                            self.pending.drain(..valid + bad);
                        }
                    }
                }
            }
        }
    }

    /// Whatever is left at the end (an incomplete character becomes U+FFFD).
    pub fn finish(&mut self) -> String {
        let s = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        s
    }
}

/// Holds back text that might be the start of a stop sequence, and cuts at the first full one.
#[derive(Debug)]
pub struct StopScanner {
    stops: Vec<String>,
    buf: String,
}

impl StopScanner {
    pub fn new(stops: &[String]) -> StopScanner {
        StopScanner {
            stops: stops.iter().filter(|s| !s.is_empty()).cloned().collect(),
            buf: String::new(),
        }
    }

    /// Adds text; returns the text safe to emit and whether a stop sequence was hit.
    pub fn push(&mut self, text: &str) -> (String, bool) {
        self.buf.push_str(text);
        if self.stops.is_empty() {
            return (std::mem::take(&mut self.buf), false);
        }
        let hit = self
            .stops
            .iter()
            .filter_map(|s| self.buf.find(s.as_str()))
            .min();
        if let Some(at) = hit {
            let out = self.buf[..at].to_string();
            self.buf.clear();
            return (out, true);
        }
        // Keep the longest tail that is a prefix of some stop sequence.
        let mut keep = 0;
        for s in &self.stops {
            for (i, _) in s.char_indices().skip(1) {
                if self.buf.ends_with(&s[..i]) {
                    keep = keep.max(i);
                }
            }
        }
        let cut = self.buf.len() - keep;
        let out = self.buf[..cut].to_string();
        self.buf.drain(..cut);
        (out, false)
    }

    /// The held-back text at the end of generation.
    pub fn finish(&mut self) -> String {
        std::mem::take(&mut self.buf)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use proptest::prelude::*;

    fn tool(name: &str) -> Tool {
        Tool {
            name: name.into(),
            description: "d".into(),
            parameters: json!({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}),
        }
    }

    #[test]
    fn schema_for_one_and_many_tools() {
        let a = tool("a");
        let b = tool("b");
        let s = tool_call_schema(&[&a]);
        assert_eq!(s["properties"]["name"]["const"], "a");
        let s = tool_call_schema(&[&a, &b]);
        assert_eq!(s["oneOf"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn tool_choice_filters() {
        let ts = vec![tool("a"), tool("b")];
        assert!(allowed_tools(&ts, &ToolChoice::None).is_none());
        assert!(allowed_tools(&[], &ToolChoice::Auto).is_none());
        assert_eq!(
            allowed_tools(&ts, &ToolChoice::Tool("b".into()))
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn root_rename() {
        let g = "root ::= \"{\" x \"}\"\nx ::= \"a\"\n";
        let r = call_or_text_grammar(g);
        assert!(r.contains("call ::= \"{\" x \"}\""));
        assert!(r.contains("root ::= call | answer"));
        assert!(!r.contains("root ::= \"{\""));
    }

    #[test]
    fn tools_are_listed_as_one_line_signatures() {
        let t = Tool {
            name: "canvas_add_node".into(),
            description:
                "Add one node to an existing canvas. type 'text' needs 'text'.\nExample: {}".into(),
            parameters: json!({"type": "object", "properties": {
                "text": {"type": "string", "description": "long words"},
                "path": {"type": "string"},
                "type": {"type": "string", "enum": ["text", "file"]},
                "x": {"type": "integer"},
                "ops": {"type": "array", "items": {"type": "object", "properties": {"op": {"type": "string"}}, "required": ["op"]}},
                "tags": {"type": ["array", "null"], "items": {"type": "string"}}
            }, "required": ["path", "type"]}),
        };
        let p = tools_prompt(&[&t], false);
        let line = p.lines().nth(1).unwrap();
        assert_eq!(
            line,
            "canvas_add_node(path: string, type: \"text\"|\"file\", text?: string, x?: number, ops?: {op: string}[], tags?: string[]) - Add one node to an existing canvas."
        );
        assert!(!p.contains("long words"));
        assert!(p.ends_with("Otherwise answer in plain text."));
        let bare = Tool {
            name: "now".into(),
            description: String::new(),
            parameters: json!({}),
        };
        assert_eq!(
            tools_prompt(&[&bare], true).lines().nth(1).unwrap(),
            "now()"
        );
    }

    #[test]
    fn the_first_sentence_is_cut_at_a_char_boundary() {
        assert_eq!(first_sentence("Reads a note. Then more."), "Reads a note.");
        assert_eq!(first_sentence("v1.2 works\nsecond"), "v1.2 works");
        let long = "é".repeat(200);
        assert!(first_sentence(&long).len() <= 160);
    }

    #[test]
    fn a_loop_is_noticed_and_ordinary_text_is_not() {
        let mut g = RepeatGuard::default();
        assert!(!g.push("{\"name\": \"note_write\", \"arguments\": {\"text\": \""));
        let mut looped = false;
        for _ in 0..20 {
            looped |= g.push("Buy milk. ");
        }
        assert!(looped);
        let mut g = RepeatGuard::default();
        let prose = "Easel keeps canvases, notes and agents on one board; a person and a model edit the same files, and every change is in the ledger. ";
        for w in prose.split_inclusive(' ') {
            assert!(!g.push(w));
        }
        // An error echoed back again and again (a 40-byte piece).
        let mut g = RepeatGuard::default();
        let echo = "\"cantabas_add_node\" is not a revision: ";
        assert!(!g.push(echo) && !g.push(echo));
        assert!(g.push(echo));
        // A short rule is fine; a hundred dashes are a loop.
        let mut g = RepeatGuard::default();
        assert!(!g.push(&"-".repeat(40)));
        assert!(g.push(&"-".repeat(60)));
        // A whole sentence said again and again.
        let mut g = RepeatGuard::default();
        let sentence = "The document is only able to call the tool, but the document is only able to call the tool. ";
        assert!(!g.push(sentence) && !g.push(sentence));
        assert!(g.push(sentence));
        // Two different long sentences in turn are not one piece repeated.
        let mut g = RepeatGuard::default();
        let other = "Rent is due on the first day of each month, paid to the account the landlord names in writing. ";
        for _ in 0..2 {
            assert!(!g.push(sentence) && !g.push(other));
        }
    }

    #[test]
    fn a_cut_call_gives_its_name_and_partial_arguments() {
        assert_eq!(
            partial_tool_call(
                r#"{"name": "note_write", "arguments": {"path": "a.md", "text": "Buy"#
            ),
            Some((
                "note_write".into(),
                r#"{"path": "a.md", "text": "Buy"#.into()
            ))
        );
        assert_eq!(
            partial_tool_call(r#" {"name":"a\"b","#),
            Some(("a\"b".into(), String::new()))
        );
        assert_eq!(partial_tool_call(r#"{"name": "note_wr"#), None);
        assert_eq!(partial_tool_call("Sure, here"), None);
    }

    #[test]
    fn turns_put_tools_in_the_system_message() {
        let msgs = vec![Message::system("Be brief."), Message::user("hi")];
        let t = chat_turns(&msgs, Some("TOOLS"));
        assert_eq!(t[0].0, "system");
        assert!(t[0].1.starts_with("Be brief.") && t[0].1.ends_with("TOOLS"));
        let t = chat_turns(&[Message::user("hi")], Some("TOOLS"));
        assert_eq!(t[0], ("system".to_string(), "TOOLS".to_string()));
        assert_eq!(t.len(), 2);
    }

    #[test]
    fn tool_calls_parse_back() {
        let c = parse_tool_call(
            r#" {"name":"weather","arguments":{"city":"Oslo"}} "#,
            "c1".into(),
        )
        .unwrap();
        assert_eq!(c.name, "weather");
        assert_eq!(c.arguments_json().unwrap()["city"], "Oslo");
        assert!(parse_tool_call("Four.", "c".into()).is_none());
    }

    #[test]
    fn utf8_split_across_pieces() {
        let mut u = Utf8Pieces::default();
        let bytes = "é!".as_bytes();
        assert_eq!(u.push(&bytes[..1]), "");
        assert_eq!(u.push(&bytes[1..]), "é!");
        assert_eq!(u.push(&[0xff, b'a']), "\u{FFFD}a");
        assert_eq!(u.push(&[0xe2]), "");
        assert_eq!(u.finish(), "\u{FFFD}");
    }

    #[test]
    fn stop_sequences_cut_and_hold_back() {
        let mut s = StopScanner::new(&["\nUser:".to_string()]);
        assert_eq!(s.push("Hello\nUs"), ("Hello".to_string(), false));
        assert_eq!(s.push("er: hi"), (String::new(), true));
        let mut s = StopScanner::new(&["END".to_string()]);
        assert_eq!(s.push("a E"), ("a ".to_string(), false));
        assert_eq!(s.push("x"), ("Ex".to_string(), false));
        assert_eq!(s.finish(), "");
    }

    proptest! {
        #[test]
        fn utf8_pieces_rebuild_any_text(text in "\\PC{0,40}", cuts in proptest::collection::vec(0usize..200, 0..8)) {
            let bytes = text.as_bytes();
            let mut points: Vec<usize> = cuts.into_iter().map(|c| c % (bytes.len() + 1)).collect();
            points.sort_unstable();
            let mut u = Utf8Pieces::default();
            let mut out = String::new();
            let mut last = 0;
            for p in points { out.push_str(&u.push(&bytes[last..p])); last = p; }
            out.push_str(&u.push(&bytes[last..]));
            out.push_str(&u.finish());
            prop_assert_eq!(out, text);
        }

        #[test]
        fn stop_scanner_emits_exactly_the_text_before_the_stop(text in "[ab\\n]{0,30}", pieces in 1usize..6) {
            let stop = "ab\n".to_string();
            let mut s = StopScanner::new(std::slice::from_ref(&stop));
            let chars: Vec<char> = text.chars().collect();
            let mut out = String::new();
            let mut stopped = false;
            for chunk in chars.chunks(pieces) {
                let piece: String = chunk.iter().collect();
                let (o, hit) = s.push(&piece);
                out.push_str(&o);
                if hit { stopped = true; break; }
            }
            if !stopped { out.push_str(&s.finish()); }
            let expected = match text.find(&stop) { Some(i) => &text[..i], None => &text[..] };
            prop_assert_eq!(out, expected);
            prop_assert_eq!(stopped, text.contains(&stop));
        }
    }
}
