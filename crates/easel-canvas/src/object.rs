//! A node or edge object read lazily from its canvas's text.
//!
//! Building a [`Map`] of every node costs an allocation per object, one per long string and a
//! drop of the lot, which dominated reading large canvases. So the parser only checks the
//! object's syntax and records where the keys validation and the typed accessors read lie in
//! the text ([`Summary`]); the full `Map` is built the first time something asks for it, and an
//! edit turns the object into an owned `Map` for good.

use crate::json::{self, Map, Value};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// The JSON type of a recorded value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Tag {
    #[default]
    Absent,
    /// A string without escapes: its range is its content.
    Str,
    /// A string with escapes: its range is the literal, quotes included, to decode on demand.
    EscStr,
    /// A number: its range is its text.
    Num,
    True,
    False,
    Null,
    Array,
    Object,
}

impl Tag {
    pub(crate) fn type_name(self) -> &'static str {
        match self {
            Tag::Absent | Tag::Null => "null",
            Tag::Str | Tag::EscStr => "a string",
            Tag::Num => "a number",
            Tag::True | Tag::False => "a boolean",
            Tag::Array => "an array",
            Tag::Object => "an object",
        }
    }
}

/// Where one known key's value lies in its object's text, from the object's start. Sixteen
/// bits keep a node small (on large canvases its size is what reading costs); the parser
/// builds objects longer than 64 KiB at once instead of summarizing them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Slot {
    pub start: u16,
    pub len: u16,
}

/// How many keys a summary records: the node keys of [`node_slot`] (edges use fewer).
pub(crate) const SLOTS: usize = 14;

/// The known keys of one object, as [`node_slot`] or [`edge_slot`] numbers them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Summary {
    pub tags: [Tag; SLOTS],
    pub slots: [Slot; SLOTS],
    /// A known key appeared twice, or two unknown keys appeared (which might be equal): the
    /// slots alone cannot list the duplicates, so validation reads the whole object.
    pub maybe_duplicates: bool,
}

/// Index of a node key in a [`Summary`]. A `match` compiles to a switch on the length and a
/// compare or two, far cheaper than searching a list for every key.
#[inline]
pub(crate) fn node_slot(k: &[u8]) -> Option<usize> {
    Some(match k {
        b"id" => 0,
        b"type" => 1,
        b"x" => 2,
        b"y" => 3,
        b"width" => 4,
        b"height" => 5,
        b"color" => 6,
        b"text" => 7,
        b"file" => 8,
        b"subpath" => 9,
        b"url" => 10,
        b"label" => 11,
        b"background" => 12,
        b"backgroundStyle" => 13,
        _ => return None,
    })
}

/// A key of up to eight bytes as one number: its bytes, little-endian, zero-padded. Keys hold
/// no NUL (the parser stops at control characters), so each key has its own number.
pub(crate) const fn key_word(key: &[u8]) -> u64 {
    let mut word = 0u64;
    let mut i = 0;
    while i < key.len() && i < 8 {
        word |= (key[i] as u64) << (8 * i);
        i += 1;
    }
    word
}

/// [`node_slot`] for a key of at most eight bytes given as its [`key_word`]: a switch on one
/// number instead of comparing byte strings.
#[inline]
pub(crate) fn node_slot_by_word(word: u64) -> Option<usize> {
    const ID: u64 = key_word(b"id");
    const TYPE: u64 = key_word(b"type");
    const X: u64 = key_word(b"x");
    const Y: u64 = key_word(b"y");
    const WIDTH: u64 = key_word(b"width");
    const HEIGHT: u64 = key_word(b"height");
    const COLOR: u64 = key_word(b"color");
    const TEXT: u64 = key_word(b"text");
    const FILE: u64 = key_word(b"file");
    const SUBPATH: u64 = key_word(b"subpath");
    const URL: u64 = key_word(b"url");
    const LABEL: u64 = key_word(b"label");
    Some(match word {
        ID => 0,
        TYPE => 1,
        X => 2,
        Y => 3,
        WIDTH => 4,
        HEIGHT => 5,
        COLOR => 6,
        TEXT => 7,
        FILE => 8,
        SUBPATH => 9,
        URL => 10,
        LABEL => 11,
        // "background" and "backgroundStyle" are longer than eight bytes.
        _ => return None,
    })
}

/// [`edge_slot`] for a key of at most eight bytes given as its [`key_word`] (all edge keys are).
#[inline]
pub(crate) fn edge_slot_by_word(word: u64) -> Option<usize> {
    const ID: u64 = key_word(b"id");
    const FROM_NODE: u64 = key_word(b"fromNode");
    const TO_NODE: u64 = key_word(b"toNode");
    const FROM_SIDE: u64 = key_word(b"fromSide");
    const TO_SIDE: u64 = key_word(b"toSide");
    const FROM_END: u64 = key_word(b"fromEnd");
    const TO_END: u64 = key_word(b"toEnd");
    const LABEL: u64 = key_word(b"label");
    const COLOR: u64 = key_word(b"color");
    Some(match word {
        ID => 0,
        FROM_NODE => 1,
        TO_NODE => 2,
        FROM_SIDE => 3,
        TO_SIDE => 4,
        FROM_END => 5,
        TO_END => 6,
        LABEL => 7,
        COLOR => 8,
        _ => return None,
    })
}

/// Index of an edge key in a [`Summary`].
#[inline]
pub(crate) fn edge_slot(k: &[u8]) -> Option<usize> {
    Some(match k {
        b"id" => 0,
        b"fromNode" => 1,
        b"toNode" => 2,
        b"fromSide" => 3,
        b"toSide" => 4,
        b"fromEnd" => 5,
        b"toEnd" => 6,
        b"label" => 7,
        b"color" => 8,
        _ => return None,
    })
}

/// The source of an object read from a canvas.
#[derive(Clone)]
pub(crate) struct Raw {
    /// The whole canvas text, shared by all its objects.
    pub src: Arc<String>,
    /// The object's text, braces included.
    pub start: u32,
    pub end: u32,
    /// The text is exactly how the writer would write the object, so writing copies it.
    pub verbatim: bool,
    /// `None` when the parser built the `Map` at once (an object with an escaped key, or one
    /// longer than 16-bit offsets reach).
    pub summary: Option<Summary>,
}

impl Raw {
    fn text(&self) -> Option<&str> {
        self.src.get(self.start as usize..self.end as usize)
    }

    fn build(&self) -> Box<Map> {
        // The parser checked this text when it read the canvas, so it parses again; an
        // empty map is only a guard against a bug, never a user-visible state.
        Box::new(match self.text().map(json::parse) {
            Some(Ok(Value::Object(m))) => m,
            _ => Map::new(),
        })
    }

    /// The text of slot `i` and its type (see [`FieldRef::Raw`] for what the text is).
    #[inline]
    fn slot(&self, s: &Summary, i: usize) -> (Tag, &str) {
        let (Some(&tag), Some(at)) = (s.tags.get(i), s.slots.get(i)) else {
            return (Tag::Absent, "");
        };
        let start = self.start as usize + usize::from(at.start);
        let text = self
            .src
            .get(start..start + usize::from(at.len))
            .unwrap_or("");
        (tag, text)
    }
}

/// A value as validation sees it: from a built [`Map`], or straight from the text.
#[derive(Clone, Copy, Debug)]
pub(crate) enum FieldRef<'a> {
    Value(&'a Value),
    /// `text` is the string's content for [`Tag::Str`], the literal for [`Tag::EscStr`], the
    /// number's text for [`Tag::Num`] and empty otherwise.
    Raw {
        tag: Tag,
        text: &'a str,
    },
}

impl<'a> FieldRef<'a> {
    #[inline]
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            FieldRef::Value(v) => v.type_name(),
            FieldRef::Raw { tag, .. } => tag.type_name(),
        }
    }

    #[inline]
    pub(crate) fn is_string(&self) -> bool {
        match self {
            FieldRef::Value(v) => matches!(v, Value::String(_) | Value::Utf16(_)),
            FieldRef::Raw { tag, .. } => matches!(tag, Tag::Str | Tag::EscStr),
        }
    }

    /// The string's text, decoded; `None` when it is not a string.
    #[inline]
    pub(crate) fn as_text(&self) -> Option<std::borrow::Cow<'a, str>> {
        use std::borrow::Cow;
        match *self {
            FieldRef::Value(v) => v.as_str().map(Cow::Borrowed),
            FieldRef::Raw {
                tag: Tag::Str,
                text,
            } => Some(Cow::Borrowed(text)),
            FieldRef::Raw {
                tag: Tag::EscStr,
                text,
            } => match json::parse(text) {
                Ok(v) => v.as_str().map(|s| Cow::Owned(s.to_owned())),
                Err(_) => None,
            },
            FieldRef::Raw { .. } => None,
        }
    }

    /// The number's text; `None` when it is not a number.
    #[inline]
    pub(crate) fn number_text(&self) -> Option<&'a str> {
        match *self {
            FieldRef::Value(Value::Number(n)) => Some(n.as_text()),
            FieldRef::Raw {
                tag: Tag::Num,
                text,
            } => Some(text),
            _ => None,
        }
    }
}

/// A node's or edge's JSON object.
#[derive(Clone)]
pub(crate) enum Obj {
    /// Made or changed in memory.
    Owned(Map),
    /// As read from a canvas and not changed since; `map` is built on first use (boxed: most
    /// objects never need it, and every byte of a node counts on large canvases).
    Read { raw: Raw, map: OnceLock<Box<Map>> },
}

impl fmt::Debug for Obj {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The source is the whole canvas: show the object, not the text it came from.
        self.fields().fmt(f)
    }
}

impl Obj {
    pub(crate) fn fields(&self) -> &Map {
        match self {
            Obj::Owned(m) => m,
            Obj::Read { raw, map } => map.get_or_init(|| raw.build()),
        }
    }

    /// The text of a read object's known key `slot`, when the summary has it.
    #[inline]
    fn slot(&self, slot: usize) -> Option<(Tag, &str)> {
        match self {
            Obj::Read {
                raw: raw @ Raw {
                    summary: Some(s), ..
                },
                ..
            } => Some(raw.slot(s, slot)),
            _ => None,
        }
    }

    /// The object, to change: from now on it is written from the `Map`.
    pub(crate) fn fields_mut(&mut self) -> &mut Map {
        if let Obj::Read { raw, map } = self {
            let built = map.take().unwrap_or_else(|| raw.build());
            *self = Obj::Owned(*built);
        }
        match self {
            Obj::Owned(m) => m,
            // Replaced just above.
            Obj::Read { .. } => unreachable!("a read object was just made owned"),
        }
    }

    pub(crate) fn into_map(self) -> Map {
        match self {
            Obj::Owned(m) => m,
            Obj::Read { raw, map } => *map.into_inner().unwrap_or_else(|| raw.build()),
        }
    }

    /// The source text, when writing may copy it.
    pub(crate) fn verbatim(&self) -> Option<&str> {
        match self {
            Obj::Read { raw, .. } if raw.verbatim => raw.text(),
            _ => None,
        }
    }

    /// The value of the key numbered `slot` (named `key`), when it is a string.
    #[inline]
    pub(crate) fn str_field(&self, slot: usize, key: &str) -> Option<&str> {
        match self.slot(slot) {
            Some((Tag::Str, text)) => Some(text),
            // Decoding needs somewhere to keep the text: the built object.
            Some((Tag::EscStr, _)) | None => self.fields().get(key).and_then(Value::as_str),
            Some(_) => None,
        }
    }

    /// The value of the key numbered `slot` (named `key`), when it is a number.
    #[inline]
    pub(crate) fn num_field(&self, slot: usize, key: &str) -> Option<f64> {
        match self.slot(slot) {
            Some((Tag::Num, text)) => Some(json::number_as_f64(text)),
            Some(_) => None,
            None => self.fields().get(key).and_then(Value::as_f64),
        }
    }

    /// The summary of a read object whose keys all occur once, with its text: what
    /// validation's quick checks read.
    #[inline]
    pub(crate) fn quick(&self) -> Option<Quick<'_>> {
        match self {
            Obj::Read {
                raw: raw @ Raw {
                    summary: Some(s), ..
                },
                ..
            } if !s.maybe_duplicates => Some(Quick { raw, summary: s }),
            _ => None,
        }
    }

    /// The values of the keys `slot_of` numbers, for validation, and whether any key occurs
    /// twice. Read from the summary when it can tell, else from the built object.
    pub(crate) fn gather<const N: usize>(
        &self,
        slot_of: fn(&[u8]) -> Option<usize>,
    ) -> ([Option<FieldRef<'_>>; N], Vec<&str>) {
        if let Some(q) = self.quick() {
            let mut values = [None; N];
            for (i, value) in values.iter_mut().enumerate() {
                let (tag, text) = q.get(i);
                if tag != Tag::Absent {
                    *value = Some(FieldRef::Raw { tag, text });
                }
            }
            return (values, Vec::new());
        }
        gather_map(self.fields(), slot_of)
    }
}

/// A read object's summary and text, for reading its known keys without building it.
#[derive(Clone, Copy)]
pub(crate) struct Quick<'a> {
    raw: &'a Raw,
    summary: &'a Summary,
}

impl<'a> Quick<'a> {
    /// Slot `i`'s type and text (see [`FieldRef::Raw`] for what the text is).
    #[inline]
    pub(crate) fn get(&self, i: usize) -> (Tag, &'a str) {
        self.raw.slot(self.summary, i)
    }
}

/// [`Obj::gather`] over a built object: one pass, the last of duplicate keys wins (as in
/// `JSON.parse`), duplicates listed in the order their repeats appear.
fn gather_map<const N: usize>(
    m: &Map,
    slot_of: fn(&[u8]) -> Option<usize>,
) -> ([Option<FieldRef<'_>>; N], Vec<&str>) {
    let mut values = [None; N];
    let mut duplicates = Vec::new();
    for (i, (k, v)) in m.iter().enumerate() {
        let repeated = match slot_of(k.as_bytes()).and_then(|s| values.get_mut(s)) {
            Some(slot) => slot.replace(FieldRef::Value(v)).is_some(),
            // Other keys are rare and few: look back rather than keep a list of them.
            None => m.keys().take(i).any(|p| p == k),
        };
        if repeated && !duplicates.contains(&k) {
            duplicates.push(k);
        }
    }
    (values, duplicates)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_by_word_are_numbered_as_by_text() {
        let keys = [
            "id",
            "type",
            "x",
            "y",
            "width",
            "height",
            "color",
            "text",
            "file",
            "subpath",
            "url",
            "label",
            "fromNode",
            "toNode",
            "fromSide",
            "toSide",
            "fromEnd",
            "toEnd",
            "",
            "i",
            "ids",
            "Id",
            "xx",
            "colour",
            "subpaths",
            "fromNod",
            "toNodes",
            "styleAttributes",
        ];
        for key in keys.iter().filter(|k| k.len() <= 8) {
            let word = key_word(key.as_bytes());
            assert_eq!(node_slot_by_word(word), node_slot(key.as_bytes()), "{key}");
            assert_eq!(edge_slot_by_word(word), edge_slot(key.as_bytes()), "{key}");
        }
        // Every known key fits, except the two long node keys the caller looks up by text.
        for slot in 0..SLOTS {
            let found = keys
                .iter()
                .filter(|k| node_slot(k.as_bytes()) == Some(slot))
                .count();
            assert!(found == 1 || slot >= 12, "node slot {slot}");
        }
    }
}
