//! A strict RFC 8259 parser into [`Value`], with line and column on every error.

use super::{Map, Number, Str, Utf16String, Value};
use crate::object::{Obj, Raw};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Deep enough for any real canvas, shallow enough that hostile input cannot exhaust the stack.
const MAX_DEPTH: usize = 256;

/// Where and why JSON text could not be read. Line and column are 1-based; the column counts
/// characters, not bytes, so it matches what an editor shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {}, column {}",
            self.message, self.line, self.column
        )
    }
}

impl std::error::Error for ParseError {}

impl ParseError {
    pub(crate) fn at(text: &str, offset: usize, message: impl Into<String>) -> ParseError {
        let offset = offset.min(text.len());
        let before = &text.as_bytes()[..offset];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        // Count characters, stepping back to a char boundary if the offset is inside one.
        let mut end = offset;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let column = text[line_start..end].chars().count() + 1;
        ParseError {
            line,
            column,
            message: message.into(),
        }
    }
}

/// Parses one JSON document. A leading UTF-8 byte order mark is not accepted here; callers
/// that want to tolerate one strip it first.
pub fn parse(text: &str) -> Result<Value, ParseError> {
    let mut p = Parser::new(text);
    p.skip_ws();
    let v = p.value()?;
    p.skip_ws();
    if p.pos < p.bytes.len() {
        return Err(p.error("unexpected text after the end of the JSON document"));
    }
    Ok(v)
}

/// True when `b` is exactly one JSON number.
pub(crate) fn is_json_number(b: &[u8]) -> bool {
    number_len(b) == Some(b.len())
}

/// Length of the JSON number at the start of `b`, if one starts there.
pub(super) fn number_len(b: &[u8]) -> Option<usize> {
    let mut i = 0;
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        _ => return None,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while matches!(b.get(i), Some(b'0'..=b'9')) {
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let start = i;
        while matches!(b.get(i), Some(b'0'..=b'9')) {
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    Some(i)
}

/// Bytes that end a run of plain string content: quote, backslash, control characters.
/// Most strings in a canvas are short keys and ids, where one table lookup per byte is
/// cheaper than word-at-a-time scanning (measured with callgrind).
static STRING_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

pub(super) struct Parser<'a> {
    pub(super) text: &'a str,
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
    pub(super) depth: usize,
    // Scratch stacks: members are collected here and moved into exactly-sized vectors when
    // the object or array closes, instead of growing each vector by doubling.
    pairs: Vec<(Str, Value)>,
    items: Vec<Value>,
    // Byte offsets, in the string being decoded, of the U+FFFD that stand for lone surrogates,
    // with the surrogate each stands for.
    lone: Vec<(usize, u16)>,
    /// False once the value being read holds text that [`super::write_compact`] would write
    /// differently: whitespace between tokens, or an escape it does not use.
    pub(super) canonical: bool,
}

/// The top-level object of a canvas, with the elements of `nodes` and `edges` read as
/// [`Obj`]s that point into the source text.
pub(crate) struct CanvasDoc {
    pub members: Vec<(Str, TopValue)>,
}

/// A member of a canvas's top-level object.
pub(crate) enum TopValue {
    /// An array under `nodes` or `edges`.
    Items(Items),
    Other(Value),
}

/// The elements of `nodes` or `edges`.
pub(crate) struct Items {
    /// The elements that are objects, in order.
    pub objects: Vec<Obj>,
    /// The index and JSON type of the first element that is not an object.
    pub not_object: Option<(usize, &'static str)>,
}

/// Parses a canvas document. `Ok(Err(value))` when the document is JSON but not an object.
pub(crate) fn parse_canvas(src: &Arc<String>) -> Result<Result<CanvasDoc, Value>, ParseError> {
    let mut p = Parser::new(src);
    p.skip_ws();
    let doc = if p.peek() == Some(b'{') {
        Ok(p.canvas_object(src)?)
    } else {
        Err(p.value()?)
    };
    p.skip_ws();
    if p.pos < p.bytes.len() {
        return Err(p.error("unexpected text after the end of the JSON document"));
    }
    Ok(doc)
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        Parser {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            depth: 0,
            pairs: Vec::new(),
            items: Vec::new(),
            lone: Vec::new(),
            canonical: true,
        }
    }

    /// The top-level object, as [`Parser::object`] reads it, but with `nodes` and `edges`
    /// arrays read element by element with their source ranges.
    fn canvas_object(&mut self, src: &Arc<String>) -> Result<CanvasDoc, ParseError> {
        self.enter()?;
        self.pos += 1; // '{'
        let mut members = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(CanvasDoc { members });
        }
        loop {
            let key = self.key()?;
            let v = if matches!(key.as_str(), "nodes" | "edges") && self.peek() == Some(b'[') {
                TopValue::Items(self.items(src, key == "edges")?)
            } else {
                TopValue::Other(self.value()?)
            };
            members.push((key, v));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                None => return Err(self.error("unexpected end of input inside an object")),
                Some(_) => return Err(self.error("expected ',' or '}' in an object")),
            }
        }
        self.depth -= 1;
        Ok(CanvasDoc { members })
    }

    /// The elements of `nodes` or `edges`: objects are skimmed ([`Parser::skim_object`]) and
    /// built only when something asks; those the skim gives up on are built at once.
    fn items(&mut self, src: &Arc<String>, edges: bool) -> Result<Items, ParseError> {
        self.enter()?;
        self.pos += 1; // '['
        // A canvas line is rarely shorter than this; one reservation instead of many regrowths.
        let mut items = Items {
            objects: Vec::with_capacity((self.bytes.len() - self.pos) / 200),
            not_object: None,
        };
        // Offsets are kept as u32; a larger text is read the slow way, all objects built.
        let offsets_fit = u32::try_from(self.bytes.len()).is_ok();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(items);
        }
        let mut index = 0;
        loop {
            self.skip_ws();
            let start = self.pos;
            let depth = self.depth;
            self.canonical = true;
            let summary = if !(offsets_fit && self.peek() == Some(b'{')) {
                None
            } else if edges {
                self.skim_object::<true>()
            } else {
                self.skim_object::<false>()
            };
            let raw = |summary, end: usize, verbatim| Raw {
                src: Arc::clone(src),
                // Both fit: offsets_fit was checked.
                start: start as u32,
                end: end as u32,
                verbatim,
                summary,
            };
            match summary {
                Some(summary) => items.objects.push(Obj::Read {
                    raw: raw(Some(summary), self.pos, self.canonical),
                    map: OnceLock::new(),
                }),
                None => {
                    self.pos = start;
                    self.depth = depth;
                    self.canonical = true;
                    match self.value()? {
                        Value::Object(m) if offsets_fit && self.canonical => {
                            items.objects.push(Obj::Read {
                                raw: raw(None, self.pos, true),
                                map: OnceLock::from(Box::new(m)),
                            })
                        }
                        Value::Object(m) => items.objects.push(Obj::Owned(m)),
                        other => {
                            items.not_object.get_or_insert((index, other.type_name()));
                        }
                    }
                }
            }
            index += 1;
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                None => return Err(self.error("unexpected end of input inside an array")),
                Some(_) => return Err(self.error("expected ',' or ']' in an array")),
            }
        }
        self.depth -= 1;
        Ok(items)
    }

    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError::at(self.text, self.pos, message)
    }

    #[inline(always)]
    pub(super) fn skip_ws(&mut self) {
        // Compact text, the common case, has no whitespace between tokens.
        if !matches!(self.bytes.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            return;
        }
        let start = self.pos;
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
        if self.pos != start {
            self.canonical = false;
        }
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn expect_literal(&mut self, lit: &str, v: Value) -> Result<Value, ParseError> {
        if self.bytes[self.pos..].starts_with(lit.as_bytes()) {
            self.pos += lit.len();
            Ok(v)
        } else {
            Err(self.error("expected a JSON value"))
        }
    }

    pub(super) fn value(&mut self) -> Result<Value, ParseError> {
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string_value(),
            Some(b't') => self.expect_literal("true", Value::Bool(true)),
            Some(b'f') => self.expect_literal("false", Value::Bool(false)),
            Some(b'n') => self.expect_literal("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected a JSON value")),
            None => Err(self.error("unexpected end of input, expected a JSON value")),
        }
    }

    pub(super) fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    fn object(&mut self) -> Result<Value, ParseError> {
        self.enter()?;
        self.pos += 1; // '{'
        let base = self.pairs.len();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(Value::Object(Map::new()));
        }
        loop {
            let key = self.key()?;
            let v = self.value()?;
            self.pairs.push((key, v));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                None => return Err(self.error("unexpected end of input inside an object")),
                Some(_) => return Err(self.error("expected ',' or '}' in an object")),
            }
        }
        self.depth -= 1;
        Ok(Value::Object(Map::from_pairs(
            self.pairs.drain(base..).collect(),
        )))
    }

    fn array(&mut self) -> Result<Value, ParseError> {
        self.enter()?;
        self.pos += 1; // '['
        let base = self.items.len();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(Value::Array(Vec::new()));
        }
        loop {
            self.skip_ws();
            let v = self.value()?;
            self.items.push(v);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                None => return Err(self.error("unexpected end of input inside an array")),
                Some(_) => return Err(self.error("expected ',' or ']' in an array")),
            }
        }
        self.depth -= 1;
        Ok(Value::Array(self.items.drain(base..).collect()))
    }

    fn number(&mut self) -> Result<Value, ParseError> {
        match number_len(&self.bytes[self.pos..]) {
            Some(len) => {
                let text = &self.text[self.pos..self.pos + len];
                self.pos += len;
                Ok(Value::Number(Number(text.into())))
            }
            None => Err(self.error("invalid number")),
        }
    }

    /// A string in value position: like [`Parser::string`], but one holding lone surrogates
    /// keeps them ([`Value::Utf16`]). Keys are only ever compared, so they stay lossy.
    fn string_value(&mut self) -> Result<Value, ParseError> {
        self.lone.clear();
        let text = self.string()?;
        if self.lone.is_empty() {
            return Ok(Value::String(text));
        }
        let mut units = Vec::with_capacity(text.len());
        let mut lone = self.lone.iter().peekable();
        for (at, c) in text.char_indices() {
            match lone.peek() {
                Some(&&(pos, unit)) if pos == at => {
                    units.push(unit);
                    lone.next();
                }
                _ => units.extend_from_slice(c.encode_utf16(&mut [0; 2])),
            }
        }
        self.lone.clear();
        Ok(Value::Utf16(Box::new(Utf16String {
            text,
            units: units.into_boxed_slice(),
        })))
    }

    /// An object's key and the ':' after it, with the whitespace around them.
    fn key(&mut self) -> Result<Str, ParseError> {
        self.skip_ws();
        if self.peek() != Some(b'"') {
            return Err(self.error("expected a string key in double quotes"));
        }
        let key = self.string()?;
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.error("expected ':' after the key"));
        }
        self.pos += 1;
        self.skip_ws();
        Ok(key)
    }

    fn string(&mut self) -> Result<Str, ParseError> {
        self.pos += 1; // opening quote
        let mut out: Option<String> = None;
        loop {
            // Jump to the next quote or backslash, then check the run for raw control
            // characters, which JSON forbids inside strings.
            let rest = &self.bytes[self.pos..];
            let Some(stop) = rest.iter().position(|&b| STRING_STOP[b as usize]) else {
                self.pos = self.bytes.len();
                return Err(self.error("unterminated string"));
            };
            if rest[stop] < 0x20 {
                self.pos += stop;
                return Err(self.error("control character inside a string (escape it)"));
            }
            let run = &self.text[self.pos..self.pos + stop];
            self.pos += stop;
            if self.bytes[self.pos] == b'"' {
                self.pos += 1;
                return Ok(match out {
                    None => Str::from(run),
                    Some(mut s) => {
                        s.push_str(run);
                        s.into()
                    }
                });
            }
            // A backslash: switch to the owned buffer and decode the escape.
            let buf = out.get_or_insert_with(|| String::with_capacity(stop + 16));
            buf.push_str(run);
            self.pos += 1;
            self.escape(buf)?;
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), ParseError> {
        let c = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => {
                self.canonical = false;
                '/'
            }
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                // The writer escapes only control characters this way, and in lowercase;
                // rather than check, such text is written from the tree.
                self.canonical = false;
                self.pos += 1;
                let hi = self.hex4()?;
                let c = if (0xD800..0xDC00).contains(&hi) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    if self.bytes[self.pos..].starts_with(b"\\u") {
                        let save = self.pos;
                        self.pos += 2;
                        let lo = self.hex4()?;
                        if (0xDC00..0xE000).contains(&lo) {
                            char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                        } else {
                            self.pos = save;
                            None
                        }
                    } else {
                        None
                    }
                } else {
                    char::from_u32(hi)
                };
                // A lone surrogate has no UTF-8 form: the text holds U+FFFD, and the surrogate
                // is remembered so that a string value is written back as it was read
                // (JavaScript, and so Obsidian, keeps such strings).
                match c {
                    Some(c) => out.push(c),
                    None => {
                        self.lone.push((out.len(), hi as u16));
                        out.push('\u{FFFD}');
                    }
                }
                return Ok(());
            }
            Some(_) => return Err(self.error("invalid escape sequence in a string")),
            None => return Err(self.error("unterminated string")),
        };
        self.pos += 1;
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let digits = self
            .bytes
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| self.error("incomplete \\u escape"))?;
        let mut v = 0u32;
        for &d in digits {
            let n = (d as char)
                .to_digit(16)
                .ok_or_else(|| self.error("invalid \\u escape: expected 4 hex digits"))?;
            v = v * 16 + n;
        }
        self.pos += 4;
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_number_text() {
        let v = parse(r#"[1.50, -0, 1E+2, 0.1e-3]"#).unwrap();
        assert_eq!(v.to_json(), "[1.50,-0,1E+2,0.1e-3]");
    }

    #[test]
    fn decodes_escapes_and_surrogate_pairs() {
        let v = parse(r#""a\"b\\c\/d\n\u00e9\ud83d\ude00\ud800x""#).unwrap();
        assert_eq!(v.as_str(), Some("a\"b\\c/d\né😀\u{FFFD}x"));
    }

    #[test]
    fn errors_carry_line_and_column() {
        let err = parse("{\n\t\"nodes\":[\n\t\t{\"id\": tru}\n\t]\n}").unwrap_err();
        assert_eq!((err.line, err.column), (3, 10), "{err}");
        let err = parse("{\"a\":1,}").unwrap_err();
        assert_eq!((err.line, err.column), (1, 8), "{err}");
        let err = parse("\"é\u{1}\"").unwrap_err();
        assert_eq!((err.line, err.column), (1, 3));
    }

    #[test]
    fn rejects_what_json_rejects() {
        for bad in [
            "",
            "{",
            "[1,]",
            "01",
            "1.",
            "-",
            "1e",
            "+1",
            "'a'",
            "{a:1}",
            "nul",
            "[1] x",
            "\"\\x\"",
            "\"\\u12\"",
            "NaN",
            "\u{feff}{}",
        ] {
            assert!(parse(bad).is_err(), "accepted {bad:?}");
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000);
        let err = parse(&deep).unwrap_err();
        assert!(err.message.contains("nesting"), "{err}");
    }
}
