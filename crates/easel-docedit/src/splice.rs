//! Byte-exact rewriting: a set of replacements of byte ranges, applied at once.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::error::DocError;

/// Replacements of disjoint byte ranges of one text. Bytes outside them are copied unchanged,
/// which is how every edit keeps the rest of a document byte-identical.
#[derive(Debug, Default)]
pub(crate) struct Splices {
    /// By (start, order of arrival): the replaced range's end and the new bytes.
    items: BTreeMap<(usize, usize), (usize, String)>,
}

impl Splices {
    pub(crate) fn new() -> Splices {
        Splices::default()
    }

    pub(crate) fn push(&mut self, range: Range<usize>, with: impl Into<String>) {
        let seq = self.items.len();
        self.items
            .insert((range.start, seq), (range.end, with.into()));
    }

    /// Whether a replacement already covers part of `range` (an insertion at its edge does not).
    /// The ranges are disjoint, so the last one starting before `range` ends is the only one
    /// that can reach into it.
    pub(crate) fn overlaps(&self, range: &Range<usize>) -> bool {
        self.items
            .range(..(range.end, 0))
            .next_back()
            .is_some_and(|(&(start, _), &(end, _))| start < range.end && range.start < end)
    }

    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The new text, and the new position of `touched` (an old range holding every edited
    /// element): replacements before it shift it, those inside it (or inserted at its end)
    /// stretch it.
    pub(crate) fn apply(
        mut self,
        text: &str,
        touched: Range<usize>,
    ) -> Result<(String, Range<usize>), DocError> {
        let mut items: Vec<(Range<usize>, String)> = std::mem::take(&mut self.items)
            .into_iter()
            .map(|((start, _), (end, with))| (start..end, with))
            .collect();
        items.sort_by_key(|(r, _)| (r.start, r.end));
        let mut out = String::with_capacity(text.len() + 64);
        let mut at = 0;
        let (mut before, mut inside) = (0isize, 0isize);
        for (range, with) in &items {
            if range.start < at || range.end > text.len() || range.start > range.end {
                return Err(internal("two changes of one edit overlap"));
            }
            let (Some(kept), Some(_)) = (text.get(at..range.start), text.get(range.clone())) else {
                return Err(internal("a change does not fall on a character boundary"));
            };
            out.push_str(kept);
            out.push_str(with);
            at = range.end;
            let delta = with.len() as isize - range.len() as isize;
            // An insertion at the very start of the touched range is part of the edit.
            if range.start < touched.start {
                before += delta;
            } else if range.start <= touched.end && range.end <= touched.end {
                inside += delta;
            }
        }
        out.push_str(text.get(at..).unwrap_or_default());
        let start = shift(touched.start, before);
        let end = shift(touched.end, before + inside).max(start);
        Ok((out, start..end))
    }
}

fn shift(at: usize, by: isize) -> usize {
    at.saturating_add_signed(by)
}

/// An inconsistency of this crate, reported rather than panicking.
pub(crate) fn internal(what: &str) -> DocError {
    DocError::Malformed {
        message: format!("internal error: {what}; nothing was changed"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_untouched_bytes_and_maps_the_span() {
        let mut s = Splices::new();
        s.push(0..1, "XX");
        s.push(4..6, "");
        s.push(8..8, "!");
        let (text, span) = s.apply("abcdefgh", 3..8).unwrap();
        assert_eq!(text, "XXbcdgh!");
        assert_eq!(span, 4..8);
    }

    #[test]
    fn overlap_ignores_insertions_at_the_edges() {
        let mut s = Splices::new();
        s.push(10..20, "x");
        s.push(30..30, "y");
        assert!(s.overlaps(&(15..16)));
        assert!(s.overlaps(&(5..11)));
        assert!(s.overlaps(&(19..40)));
        assert!(!s.overlaps(&(20..30)));
        assert!(!s.overlaps(&(0..10)));
        assert!(s.overlaps(&(29..31)));
    }

    #[test]
    fn refuses_overlapping_changes() {
        let mut s = Splices::new();
        s.push(0..3, "x");
        s.push(2..4, "y");
        assert!(s.apply("abcdef", 0..6).is_err());
    }
}
