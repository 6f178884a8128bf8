//! A lossless JSON tree.
//!
//! `serde_json::Value` forgets how numbers were written (`1.50` becomes `1.5`) unless the
//! crate-wide `arbitrary_precision` feature is on, and that feature breaks untagged enums in
//! every other crate of the build (the MCP SDK among them). Canvases must round-trip byte for
//! byte, so this module keeps its own tree: objects are ordered lists of pairs (order is
//! meaning in a canvas, and duplicate keys survive), numbers keep their source text.

pub(crate) mod parse;
mod scan;
mod skim;
mod write;

pub use parse::{ParseError, parse};
pub use write::{write_compact, write_compact_map, write_string};

use std::fmt;

/// Keys, short strings and number text live inline: canvas ids (16 bytes), types, sides,
/// colours and most numbers never touch the heap, which is most of the parse cost.
pub type Str = compact_str::CompactString;

/// A JSON value that remembers key order and the exact text of numbers.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(Number),
    String(Str),
    /// A string with lone surrogates (`"\ud800"`), which JavaScript allows and UTF-8 cannot
    /// hold; see [`Utf16String`]. Rare, hence boxed.
    Utf16(Box<Utf16String>),
    Array(Vec<Value>),
    Object(Map),
}

impl Value {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            Value::Utf16(s) => Some(&s.text),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(n.as_f64()),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The JSON type name, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) | Value::Utf16(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }

    /// Compact JSON text, escaped the way `JSON.stringify` does.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        write_compact(&mut out, self);
        out
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json())
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.into())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(s.into())
    }
}

impl From<f64> for Value {
    fn from(n: f64) -> Self {
        Number::from_f64(n).map_or(Value::Null, Value::Number)
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Self {
        Value::Number(Number::from_i64(n))
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<Map> for Value {
    fn from(m: Map) -> Self {
        Value::Object(m)
    }
}

/// A string value that held lone surrogates: `text` is what Rust code reads (each lone
/// surrogate as U+FFFD), `units` the exact UTF-16 code units, which is what is written back, so
/// a canvas keeps such a string byte for byte when other nodes change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Utf16String {
    pub(crate) text: Str,
    pub(crate) units: Box<[u16]>,
}

impl Utf16String {
    /// The text, with U+FFFD for each lone surrogate.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The exact UTF-16 code units.
    pub fn units(&self) -> &[u16] {
        &self.units
    }
}

/// A JSON number kept as the text it was written with.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Number(Str);

impl Number {
    /// Wraps text that is already a valid JSON number. Returns `None` otherwise.
    pub fn from_text(text: &str) -> Option<Number> {
        parse::is_json_number(text.as_bytes()).then(|| Number(text.into()))
    }

    /// Formats like JavaScript does for the values canvases hold: integers without a
    /// fraction, everything else in the shortest form that reads back the same.
    /// `None` for NaN and infinities, which JSON cannot hold.
    pub fn from_f64(n: f64) -> Option<Number> {
        if !n.is_finite() {
            return None;
        }
        if n == n.trunc() && n.abs() < 1e15 {
            // `as` is exact here: the value is integral and far inside i64's range.
            return Some(Number::from_i64(n as i64));
        }
        Some(Number(compact_str::format_compact!("{n}")))
    }

    pub fn from_i64(n: i64) -> Number {
        Number(compact_str::ToCompactString::to_compact_string(&n))
    }

    pub fn as_f64(&self) -> f64 {
        number_as_f64(&self.0)
    }

    /// True when the value is a whole number (`120`, `1e2`, `3.0`).
    pub fn is_integer(&self) -> bool {
        number_is_integer(&self.0)
    }

    /// True when the value is below zero (`-0` is not).
    pub fn is_negative(&self) -> bool {
        number_is_negative(&self.0)
    }

    pub fn as_text(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The value of the text of a valid JSON number.
pub(crate) fn number_as_f64(text: &str) -> f64 {
    // Canvas numbers are almost all short integers, which need no float parsing.
    if let Some(v) = small_integer(text.as_bytes()) {
        return v;
    }
    // The text is a valid JSON number, which is always a valid Rust float literal.
    text.parse().unwrap_or(f64::NAN)
}

/// [`Number::is_integer`] on the text of a valid JSON number.
pub(crate) fn number_is_integer(text: &str) -> bool {
    // Almost every canvas number is plain digits; only parse the rest.
    if !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        return true;
    }
    let v = number_as_f64(text);
    v.is_finite() && v == v.trunc()
}

/// [`Number::is_negative`] on the text of a valid JSON number.
pub(crate) fn number_is_negative(text: &str) -> bool {
    text.starts_with('-') && number_as_f64(text) < 0.0
}

/// The value of an optionally negative run of at most 15 digits, exact in an `f64`.
fn small_integer(b: &[u8]) -> Option<f64> {
    let (negative, digits) = match b.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, b),
    };
    if digits.is_empty() || digits.len() > 15 {
        return None;
    }
    let mut v: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        v = v * 10 + i64::from(d - b'0');
    }
    // Below 10^15 < 2^53, so the conversion is exact.
    let v = v as f64;
    Some(if negative { -v } else { v })
}

/// A JSON object as an ordered list of pairs.
///
/// Canvas objects have a handful of keys, so a linear scan beats hashing. Duplicate keys are
/// kept as read; lookups see the last one, as `JSON.parse` does.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map(Vec<(Str, Value)>);

impl Map {
    pub fn new() -> Map {
        Map(Vec::new())
    }

    pub fn with_capacity(n: usize) -> Map {
        Map(Vec::with_capacity(n))
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.0
            .iter_mut()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets `key`, in place when present (keeping the key's position), else appended.
    pub fn insert(&mut self, key: impl Into<Str>, value: Value) {
        let key = key.into();
        match self.get_mut(&key) {
            Some(slot) => *slot = value,
            None => self.0.push((key, value)),
        }
    }

    /// Removes every pair with this key; returns the last value.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let mut removed = None;
        self.0.retain_mut(|(k, v)| {
            if k == key {
                removed = Some(std::mem::replace(v, Value::Null));
                false
            } else {
                true
            }
        });
        removed
    }

    /// Appends a pair without looking for an existing key (used by the parser).
    pub fn push(&mut self, key: impl Into<Str>, value: Value) {
        let key = key.into();
        self.0.push((key, value));
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_str())
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Keys that occur more than once, in first-seen order.
    pub fn duplicate_keys(&self) -> Vec<&str> {
        let mut dups: Vec<&str> = Vec::new();
        for (i, (k, _)) in self.0.iter().enumerate() {
            if self.0[..i].iter().any(|(p, _)| p == k) && !dups.contains(&k.as_str()) {
                dups.push(k);
            }
        }
        dups
    }

    /// Reorders pairs so that `order` keys come first, in that order; the rest keep their
    /// relative order after them.
    pub fn reorder(&mut self, order: &[&str]) {
        let rank = |k: &str| order.iter().position(|o| *o == k).unwrap_or(order.len());
        self.0.sort_by_key(|(k, _)| rank(k));
    }

    /// Applies an RFC 7396 JSON merge patch.
    pub fn merge_patch(&mut self, patch: &Map) {
        for (k, v) in patch.iter() {
            match v {
                Value::Null => {
                    self.remove(k);
                }
                Value::Object(p) => match self.get_mut(k) {
                    Some(Value::Object(target)) => target.merge_patch(p),
                    _ => {
                        let mut fresh = Map::new();
                        fresh.merge_patch(p);
                        self.insert(k, Value::Object(fresh));
                    }
                },
                other => self.insert(k, other.clone()),
            }
        }
    }
}

impl Map {
    pub(crate) fn from_pairs(pairs: Vec<(Str, Value)>) -> Map {
        Map(pairs)
    }
}

impl<K: Into<Str>> FromIterator<(K, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Self {
        Map(iter.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

impl IntoIterator for Map {
    type Item = (Str, Value);
    type IntoIter = std::vec::IntoIter<(Str, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

mod serde_impls;

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(text: &str) -> Map {
        match parse(text).unwrap() {
            Value::Object(m) => m,
            other => panic!("not an object: {other:?}"),
        }
    }

    #[test]
    fn merge_patch_follows_rfc_7396() {
        // The example from RFC 7396 section 3.
        let mut target = obj(
            r#"{"title":"Goodbye!","author":{"givenName":"John","familyName":"Doe"},"tags":["example","sample"],"content":"This will be unchanged"}"#,
        );
        let patch = obj(
            r#"{"title":"Hello!","phoneNumber":"+01-234-567-8910","author":{"familyName":null},"tags":["example"]}"#,
        );
        target.merge_patch(&patch);
        assert_eq!(
            Value::Object(target).to_json(),
            r#"{"title":"Hello!","author":{"givenName":"John"},"tags":["example"],"content":"This will be unchanged","phoneNumber":"+01-234-567-8910"}"#
        );
    }

    #[test]
    fn duplicate_keys_are_kept_and_last_wins() {
        let m = obj(r#"{"a":1,"b":2,"a":3}"#);
        assert_eq!(m.get("a").and_then(Value::as_f64), Some(3.0));
        assert_eq!(m.duplicate_keys(), vec!["a"]);
        assert_eq!(Value::Object(m).to_json(), r#"{"a":1,"b":2,"a":3}"#);
    }

    #[test]
    fn numbers_format_like_javascript() {
        assert_eq!(Number::from_f64(120.0).unwrap().as_text(), "120");
        assert_eq!(Number::from_f64(-0.5).unwrap().as_text(), "-0.5");
        assert_eq!(Number::from_f64(10.25).unwrap().as_text(), "10.25");
        assert!(Number::from_f64(f64::NAN).is_none());
        assert!(!Number::from_text("1.50").unwrap().is_integer());
        assert!(Number::from_text("1e2").unwrap().is_integer());
        assert!(Number::from_text("01").is_none());
    }

    #[test]
    fn integers_read_exactly_without_float_parsing() {
        for text in [
            "0",
            "-0",
            "7",
            "-120",
            "999999999999999",
            "9999999999999999",
            "1.5",
            "1e3",
        ] {
            let n = Number::from_text(text).unwrap();
            let want: f64 = text.parse().unwrap();
            assert_eq!(n.as_f64().to_bits(), want.to_bits(), "{text}");
        }
    }

    #[test]
    fn reorder_puts_named_keys_first() {
        let mut m = obj(r#"{"x":1,"text":"t","id":"a","zz":0,"type":"text"}"#);
        m.reorder(&["id", "type", "text", "x"]);
        assert_eq!(
            Value::Object(m).to_json(),
            r#"{"id":"a","type":"text","text":"t","x":1,"zz":0}"#
        );
    }
}
