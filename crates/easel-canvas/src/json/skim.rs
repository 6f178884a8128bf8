//! Reading a node or edge object without building it: the syntax is checked as strictly as
//! [`Parser::value`] does, and the known keys are recorded in a [`Summary`].
//!
//! Anything unusual (invalid JSON, an escaped key) makes the skim give up; the caller then
//! reads the object again with [`Parser::value`], which builds it or reports the error with
//! the parser's own message and position. So this path never decides what is an error.

use super::parse::{Parser, number_len};
use super::scan::{find_special, short_integer_len};
use crate::object::{
    Slot, Summary, Tag, edge_slot, edge_slot_by_word, node_slot, node_slot_by_word,
};

impl Parser<'_> {
    /// Skims the object at `self.pos` (on its `{`), numbering keys as edges do when `EDGE`,
    /// else as nodes do. `None`: rewind and parse it properly.
    pub(super) fn skim_object<const EDGE: bool>(&mut self) -> Option<Summary> {
        let object_start = self.pos;
        self.enter().ok()?;
        self.pos += 1; // '{'
        let mut summary = Summary::default();
        let mut unknown = 0usize;
        if self.take(b'}') {
            self.depth -= 1;
            return Some(summary);
        }
        loop {
            if !self.take(b'"') {
                return None;
            }
            let slot = self.skim_key::<EDGE>()?;
            if !self.take(b':') {
                return None;
            }
            self.skip_ws();
            let (tag, start) = self.skim_member_value()?;
            match slot.and_then(|s| summary.slots.get_mut(s).zip(summary.tags.get_mut(s))) {
                Some((at, at_tag)) => {
                    summary.maybe_duplicates |= *at_tag != Tag::Absent;
                    *at_tag = tag;
                    // A string's content, without the quotes; other values whole.
                    let (start, end) = if tag == Tag::Str {
                        (start + 1, self.pos - 1)
                    } else {
                        (start, self.pos)
                    };
                    // An object too long for 16-bit offsets is built instead.
                    *at = Slot {
                        start: u16::try_from(start - object_start).ok()?,
                        len: u16::try_from(end - start).ok()?,
                    };
                }
                None => {
                    unknown += 1;
                    summary.maybe_duplicates |= unknown > 1;
                }
            }
            if self.take(b',') {
                continue;
            }
            if self.take(b'}') {
                break;
            }
            return None;
        }
        self.depth -= 1;
        Some(summary)
    }

    /// Reads a key from just after its opening quote to just after its closing one, and
    /// numbers it. `None` (give up) on an escape, which may spell a known key and is the
    /// parser's to decode, and on a raw control character, which is its to report.
    #[inline(always)]
    fn skim_key<const EDGE: bool>(&mut self) -> Option<Option<usize>> {
        let rest = self.bytes.get(self.pos..)?;
        let len = find_special(rest)?;
        if rest.get(len) != Some(&b'"') {
            return None;
        }
        self.pos += len + 1;
        // Known keys are short: compare one number, not byte strings.
        Some(match rest.get(..8) {
            Some(head) if len <= 8 => {
                let word = u64::from_le_bytes(head.try_into().ok()?);
                let word = word & u64::MAX.checked_shr(8 * (8 - len as u32)).unwrap_or(0);
                if EDGE {
                    edge_slot_by_word(word)
                } else {
                    node_slot_by_word(word)
                }
            }
            _ => {
                let key = rest.get(..len)?;
                if EDGE { edge_slot(key) } else { node_slot(key) }
            }
        })
    }

    /// Steps over `b`, and any whitespace before it; false when something else comes first.
    /// Compact text, the common case, costs one comparison.
    #[inline(always)]
    fn take(&mut self, b: u8) -> bool {
        if self.bytes.get(self.pos) != Some(&b) {
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b) {
                return false;
            }
        }
        self.pos += 1;
        true
    }

    /// Skims a value in an object, returning its type and where it starts.
    #[inline(always)]
    fn skim_member_value(&mut self) -> Option<(Tag, usize)> {
        let start = self.pos;
        let tag = match self.peek()? {
            b'"' => {
                self.pos += 1;
                if self.skim_string()? {
                    Tag::EscStr
                } else {
                    Tag::Str
                }
            }
            b'-' | b'0'..=b'9' => {
                let rest = self.bytes.get(self.pos..)?;
                self.pos += match short_integer_len(rest) {
                    Some(len) => len,
                    None => number_len(rest)?,
                };
                Tag::Num
            }
            b'{' => {
                self.skip_value()?;
                Tag::Object
            }
            b'[' => {
                self.skip_value()?;
                Tag::Array
            }
            b't' => self.skim_literal(b"true", Tag::True)?,
            b'f' => self.skim_literal(b"false", Tag::False)?,
            b'n' => self.skim_literal(b"null", Tag::Null)?,
            _ => return None,
        };
        Some((tag, start))
    }

    fn skim_literal(&mut self, lit: &[u8], tag: Tag) -> Option<Tag> {
        if self.bytes.get(self.pos..)?.starts_with(lit) {
            self.pos += lit.len();
            Some(tag)
        } else {
            None
        }
    }

    /// Checks any JSON value without building it.
    #[inline(never)]
    fn skip_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'{' | b'[' => {
                let close = if self.peek() == Some(b'{') {
                    b'}'
                } else {
                    b']'
                };
                self.enter().ok()?;
                self.pos += 1;
                self.skip_ws();
                if self.peek() == Some(close) {
                    self.pos += 1;
                    self.depth -= 1;
                    return Some(());
                }
                loop {
                    self.skip_ws();
                    if close == b'}' {
                        if self.peek() != Some(b'"') {
                            return None;
                        }
                        self.pos += 1;
                        self.skim_string()?;
                        self.skip_ws();
                        if self.peek() != Some(b':') {
                            return None;
                        }
                        self.pos += 1;
                        self.skip_ws();
                    }
                    self.skip_value()?;
                    self.skip_ws();
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(c) if c == close => {
                            self.pos += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
                self.depth -= 1;
                Some(())
            }
            _ => self.skim_member_value().map(|_| ()),
        }
    }

    /// Reads a string's content from just after its opening quote to just after its closing
    /// one, checking escapes and rejecting raw control characters. `Some(true)` when it holds
    /// escapes. Clears `canonical` on escapes the writer does not use (`\/`, `\u`).
    #[inline(always)]
    fn skim_string(&mut self) -> Option<bool> {
        // Most strings hold no escape: the first special byte is the closing quote.
        let stop = self.pos + find_special(self.bytes.get(self.pos..)?)?;
        if self.bytes.get(stop) == Some(&b'"') {
            self.pos = stop + 1;
            return Some(false);
        }
        self.pos = stop;
        self.skim_escaped_string()
    }

    /// [`Parser::skim_string`] from the first backslash or control character on.
    #[inline(never)]
    fn skim_escaped_string(&mut self) -> Option<bool> {
        loop {
            let stop = self.pos;
            match self.bytes.get(stop)? {
                b'"' => {
                    self.pos = stop + 1;
                    return Some(true);
                }
                b'\\' => {
                    self.pos = stop + 2;
                    match self.bytes.get(stop + 1)? {
                        b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                        b'/' => self.canonical = false,
                        b'u' => {
                            self.canonical = false;
                            let hex = self.bytes.get(self.pos..self.pos + 4)?;
                            if !hex.iter().all(u8::is_ascii_hexdigit) {
                                return None;
                            }
                            // Surrogates, paired or lone, are the parser's business when the
                            // string is decoded; here they are four hex digits like any other.
                            self.pos += 4;
                        }
                        _ => return None,
                    }
                }
                // A raw control character.
                _ => return None,
            }
            self.pos += find_special(self.bytes.get(self.pos..)?)?;
        }
    }
}
