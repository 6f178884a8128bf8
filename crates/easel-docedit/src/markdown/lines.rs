//! The content of each line of a block: what is left without indentation, `>`, list markers,
//! `#`, a trailing `^id` or closing `#`s, table pipes and code fences.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::blocks::{Block, Kind};

static PREFIX: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"^[ \t]*(?:>[ \t]?)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)(?:\[[ xX]\][ \t]+)?|#{1,6}(?:[ \t]+|$))?",
    )
    .ok()
});
static BLOCK_ID: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"[ \t]+\^[A-Za-z0-9][A-Za-z0-9-]*[ \t]*$").ok());
static CLOSING_HASHES: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"[ \t]+#+[ \t]*$").ok());
static SETEXT: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^[ \t]*(?:=+|-+)[ \t]*$").ok());
static FENCE: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"^[ \t>]*(?:```|~~~)").ok());
/// A table's delimiter row.
pub(crate) static DELIMITER: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$").ok()
});

fn found(re: &LazyLock<Option<Regex>>, s: &str) -> Option<Range<usize>> {
    re.as_ref().and_then(|r| r.find(s)).map(|m| m.range())
}

/// The lines of `text[range]` as absolute ranges without their line breaks.
pub(crate) fn split(text: &str, range: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut at = range.start;
    let body = text.get(range.clone()).unwrap_or_default();
    for line in body.split('\n') {
        let end = at + line.len();
        let trimmed = line.strip_suffix('\r').map_or(end, |l| at + l.len());
        out.push(at..trimmed);
        at = end + 1;
    }
    out
}

/// The content ranges of a block, in order (a table row has one per cell).
pub(crate) fn content(text: &str, b: &Block) -> Vec<Range<usize>> {
    let lines = split(text, b.span.clone());
    let last = lines.len().saturating_sub(1);
    let mut out = Vec::new();
    for (i, r) in lines.into_iter().enumerate() {
        let line = text.get(r.clone()).unwrap_or_default();
        let (mut from, mut to) = (0, line.len());
        match b.kind {
            Kind::Code(fenced) => {
                if fenced && found(&FENCE, line).is_some() {
                    continue;
                }
                if !fenced {
                    from = line.len() - line.trim_start().len();
                    from = from.min(4);
                }
            }
            Kind::Row => {
                cells(line, r.start, &mut out);
                continue;
            }
            _ => {
                if matches!(b.kind, Kind::Heading(_)) && i > 0 && found(&SETEXT, line).is_some() {
                    continue;
                }
                from = found(&PREFIX, line).map_or(0, |m| m.end);
                if i == last {
                    if let Some(m) = found(&BLOCK_ID, line) {
                        to = m.start;
                    }
                    if matches!(b.kind, Kind::Heading(_))
                        && let Some(m) = found(&CLOSING_HASHES, line.get(..to).unwrap_or_default())
                    {
                        to = m.start;
                    }
                }
            }
        }
        let piece = line.get(from..to.max(from)).unwrap_or_default();
        let lead = piece.len() - piece.trim_start().len();
        let inner = piece.trim();
        if !inner.is_empty() {
            let start = r.start + from + lead;
            out.push(start..start + inner.len());
        }
    }
    out
}

/// The contents of the cells of a table row.
fn cells(line: &str, base: usize, out: &mut Vec<Range<usize>>) {
    let bytes = line.as_bytes();
    let mut start = 0;
    let mut i = 0;
    let mut push = |from: usize, to: usize| {
        let piece = line.get(from..to).unwrap_or_default();
        let lead = piece.len() - piece.trim_start().len();
        let inner = piece.trim();
        if !inner.is_empty() {
            out.push(base + from + lead..base + from + lead + inner.len());
        }
    };
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'|' => {
                push(start, i);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    push(start, bytes.len());
}
