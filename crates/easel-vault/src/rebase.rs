//! Undoing one change after later changes to other parts of the same file.
//!
//! A change that records its [`crate::Change::span`] (the bytes it is about, such as one
//! element of a document) can be taken back alone: its own edit is the region in which the
//! file before and after it differ; each later change is followed through the file's history
//! the same way, moving that region when a later change grew or shrank the file before it, and
//! refusing when a later change touched it or the span. What the later changes did stays.

use std::ops::Range;

/// Where two versions of a file differ: `before[start..end_before]` became
/// `after[start..end_after]`, everything else is equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Diff {
    start: usize,
    end_before: usize,
    end_after: usize,
}

fn diff(before: &[u8], after: &[u8]) -> Diff {
    let prefix = before.iter().zip(after).take_while(|(a, b)| a == b).count();
    let room = before.len().min(after.len()) - prefix;
    let suffix = before
        .iter()
        .rev()
        .zip(after.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    Diff {
        start: prefix,
        end_before: before.len() - suffix,
        end_after: after.len() - suffix,
    }
}

/// Why a change could not be taken back alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Blocked {
    /// The later step with this index (0: the first step after the change) touched its bytes.
    Touched(usize),
    /// The span does not lie in the file the change left.
    BadSpan,
}

/// The file `versions.last()` with the change from `versions[0]` to `versions[1]` taken back,
/// when no later step (`versions[1]` → `versions[2]`, …) touched `span` (bytes of
/// `versions[1]`) or the change's own bytes.
pub(crate) fn revert(versions: &[&[u8]], span: Range<usize>) -> Result<Vec<u8>, Blocked> {
    let (Some(before), Some(after)) = (versions.first(), versions.get(1)) else {
        return Err(Blocked::BadSpan);
    };
    if span.start > span.end || span.end > after.len() {
        return Err(Blocked::BadSpan);
    }
    let own = diff(before, after);
    let current = versions.last().copied().unwrap_or_default();
    if own.start == own.end_before && own.start == own.end_after {
        // The change changed no byte: taking it back changes none either.
        return Ok(current.to_vec());
    }
    let mut hunk = own.start..own.end_after;
    let mut guard = span.start.min(hunk.start)..span.end.max(hunk.end);
    for (step, pair) in versions[1..].windows(2).enumerate() {
        let d = diff(pair[0], pair[1]);
        if d.start == d.end_before && d.start == d.end_after {
            // A step that changed no byte (a rewrite with the same content).
            continue;
        }
        // Touching counts: an insertion right at the element's edge is about that element.
        if d.start <= guard.end && guard.start <= d.end_before {
            return Err(Blocked::Touched(step));
        }
        if d.end_before <= guard.start {
            let moved = |at: usize| at - d.end_before + d.end_after;
            hunk = moved(hunk.start)..moved(hunk.end);
            guard = moved(guard.start)..moved(guard.end);
        }
    }
    if current.get(hunk.clone()) != after.get(own.start..own.end_after) {
        return Err(Blocked::BadSpan);
    }
    let mut out = Vec::with_capacity(current.len() + own.end_before - own.start);
    out.extend_from_slice(&current[..hunk.start]);
    out.extend_from_slice(&before[own.start..own.end_before]);
    out.extend_from_slice(&current[hunk.end..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn span_of(doc: &str, part: &str) -> Range<usize> {
        let start = doc.find(part).unwrap();
        start..start + part.len()
    }

    #[test]
    fn a_change_is_taken_back_after_later_changes_elsewhere() {
        let v0 = "<p>one</p>\n<p>two</p>\n<p>three</p>";
        let v1 = "<p>ONE!</p>\n<p>two</p>\n<p>three</p>";
        let v2 = "<p>ONE!</p>\n<p>two</p>\n<p>3</p>";
        let v3 = "<p>ONE!</p>\n<p>two</p><h1>t</h1>\n<p>3</p>";
        let span = span_of(v1, "<p>ONE!</p>");
        let out = revert(
            &[v0.as_bytes(), v1.as_bytes(), v2.as_bytes(), v3.as_bytes()],
            span,
        );
        assert_eq!(
            String::from_utf8(out.unwrap()).unwrap(),
            "<p>one</p>\n<p>two</p><h1>t</h1>\n<p>3</p>"
        );
    }

    #[test]
    fn a_later_change_to_the_same_element_blocks_it() {
        let v0 = "<p>one</p>\n<p>two</p>";
        let v1 = "<p>ONE</p>\n<p>two</p>";
        let v2 = "<p>two</p>";
        let v3 = "<p>ONE</p>\n<p>2</p>";
        let span = span_of(v1, "<p>ONE</p>");
        let v2b = "<p>ONE</p> x\n<p>two</p>";
        assert_eq!(
            revert(&[v0.as_bytes(), v1.as_bytes(), v2.as_bytes()], span.clone()),
            Err(Blocked::Touched(0))
        );
        assert_eq!(
            revert(
                &[v0.as_bytes(), v1.as_bytes(), v2b.as_bytes()],
                span.clone()
            ),
            Err(Blocked::Touched(0))
        );
        // A change to another element is fine.
        assert!(revert(&[v0.as_bytes(), v1.as_bytes(), v3.as_bytes()], span).is_ok());
    }

    #[test]
    fn a_span_outside_the_file_is_refused() {
        assert_eq!(revert(&[b"a", b"b"], 0..5), Err(Blocked::BadSpan));
        assert_eq!(revert(&[b"a"], 0..1), Err(Blocked::BadSpan));
    }

    proptest! {
        /// Two edits of disjoint parts commute: undoing the first after the second gives the
        /// file with only the second.
        #[test]
        fn undo_of_disjoint_edits_commutes(
            parts in proptest::collection::vec("[a-c]{0,6}", 3),
            first in "[a-d]{0,6}",
            second in "[a-d]{0,6}",
        ) {
            let sep = "|";
            let doc = |a: &str, c: &str| format!("{a}{sep}{}{sep}{c}", parts[1]);
            let v0 = doc(&parts[0], &parts[2]);
            let v1 = doc(&first, &parts[2]);
            let v2 = doc(&first, &second);
            let span = 0..first.len();
            let out = revert(&[v0.as_bytes(), v1.as_bytes(), v2.as_bytes()], span).unwrap();
            prop_assert_eq!(String::from_utf8(out).unwrap(), doc(&parts[0], &second));
        }
    }
}
