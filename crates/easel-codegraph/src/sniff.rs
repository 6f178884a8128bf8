//! What is not parsed, and why: files over the size cap, binary files that carry a source
//! extension (a video segment named `.ts`, random bytes named `.c`), and files whose parse or
//! query runs over its budget (thousands of nested brackets). Each is reported by `init`, and
//! a file that failed is remembered in the cache by its content key, so it is not tried again
//! on every run.
//!
//! Text that is not UTF-8 (a Latin-1 file) is read as Latin-1, byte for byte, so that its
//! identifiers keep their accented letters instead of being cut at the first one.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// How much of a file's start is looked at to tell text from binary.
const SNIFF_BYTES: usize = 8 * 1024;
/// Text in a legacy encoding has some bytes that are not UTF-8 (accented letters); binary data
/// has many. Above this share of the sniffed bytes, the file is binary.
const MAX_INVALID_SHARE: f64 = 0.10;

/// Why a file was not parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// Larger than the size cap: generated bundles and data, not code to read.
    TooLarge,
    /// NUL bytes, or mostly bytes that are not text, in its first kilobytes.
    Binary,
    /// Parsing it ran over its budget (deep nesting, pathological syntax).
    ParseBudget,
    /// Extracting its definitions and calls ran over its budget.
    QueryBudget,
}

impl SkipReason {
    /// Why, in a few words for people.
    pub fn describe(self) -> &'static str {
        match self {
            SkipReason::TooLarge => "larger than 2 MB",
            SkipReason::Binary => "binary, not text",
            SkipReason::ParseBudget => "too deeply nested or too complex to parse in budget",
            SkipReason::QueryBudget => "too complex to extract in budget",
        }
    }
}

/// A file `init` did not parse.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// Relative to the repository root, with `/`.
    pub path: String,
    pub reason: SkipReason,
}

/// Whether `bytes` are binary rather than text: a NUL byte in the first kilobytes, or too
/// many bytes there that are not UTF-8 for a text in a legacy encoding.
pub(crate) fn is_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
    head.contains(&0) || invalid_share(head) > MAX_INVALID_SHARE
}

/// UTF-8 sequences kept, and every byte that is not part of one read as Latin-1 (which maps
/// each byte to the code point of the same number): a Latin-1 file becomes its UTF-8 text, and
/// a UTF-8 file with one stray byte keeps the rest of its letters.
fn latin1_where_invalid(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 8);
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.extend_from_slice(s.as_bytes());
                return out;
            }
            Err(e) => {
                let (valid, tail) = rest.split_at(e.valid_up_to());
                out.extend_from_slice(valid);
                let bad = e.error_len().unwrap_or(tail.len());
                for &b in &tail[..bad] {
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(char::from(b).encode_utf8(&mut buf).as_bytes());
                }
                rest = &tail[bad..];
            }
        }
    }
}

/// The source as the parser reads it, whatever the bytes: UTF-8 as it is, anything else with
/// its invalid bytes read as Latin-1.
pub(crate) fn readable(bytes: &[u8]) -> Cow<'_, [u8]> {
    match std::str::from_utf8(bytes) {
        Ok(_) => Cow::Borrowed(bytes),
        Err(_) => Cow::Owned(latin1_where_invalid(bytes)),
    }
}

/// The share of `head`'s bytes that are in invalid UTF-8 sequences (a sequence cut at the end
/// of `head` is not counted).
fn invalid_share(head: &[u8]) -> f64 {
    if head.is_empty() {
        return 0.0;
    }
    let mut invalid = 0usize;
    let mut rest = head;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(_) => break,
            Err(e) => {
                let Some(bad) = e.error_len() else { break };
                invalid += bad;
                rest = &rest[e.valid_up_to() + bad..];
            }
        }
    }
    invalid as f64 / head.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_latin1_and_binary_are_told_apart() {
        assert!(matches!(
            readable(b"def f():\n    pass\n"),
            Cow::Borrowed(_)
        ));
        let latin1 = b"def caf\xe9():\n    pass\n";
        assert!(!is_binary(latin1));
        assert_eq!(&*readable(latin1), "def café():\n    pass\n".as_bytes());
        // UTF-8 with one stray byte keeps its other letters.
        let mut stray = "é = 1 # ".as_bytes().to_vec();
        stray.push(0xff);
        assert!(!is_binary(&stray));
        assert_eq!(&*readable(&stray), "é = 1 # ÿ".as_bytes());
        assert!(is_binary(b"int x;\0\0\0"));
        // Bytes from a generator: many invalid sequences, no NUL.
        let mut state = 0x2545_f491_u32;
        let noise: Vec<u8> = (0..4096)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state % 255) as u8 + 1
            })
            .collect();
        assert!(is_binary(&noise));
    }
}
