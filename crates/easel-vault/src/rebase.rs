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

/// A later step that touched the guarded bytes: where its new bytes start, and what it
/// replaced with what.
struct Pending {
    step: usize,
    at: usize,
    before: Vec<u8>,
    after: Vec<u8>,
    /// The change's own bytes and the guard as they were before the step.
    hunk: Range<usize>,
    guard: Range<usize>,
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
    let guarded = guard.clone();
    // Later steps that touched the guard, waiting to be taken back by an exact inverse (an
    // undo of that step): a change made and undone since leaves the element as it was.
    let mut pending: Vec<Pending> = Vec::new();
    for (step, pair) in versions[1..].windows(2).enumerate() {
        let d = diff(pair[0], pair[1]);
        if d.start == d.end_before && d.start == d.end_after {
            // A step that changed no byte (a rewrite with the same content).
            continue;
        }
        let removed = &pair[0][d.start..d.end_before];
        let added = &pair[1][d.start..d.end_after];
        // Positions after the changed bytes move with them; positions before stay.
        let moved = |at: usize| {
            if at >= d.end_before {
                at - d.end_before + d.end_after
            } else {
                at
            }
        };
        let shift = |r: &Range<usize>| moved(r.start)..moved(r.end).max(moved(r.start));
        if let Some(i) = pending.iter().position(|p| {
            p.at == d.start && p.after.as_slice() == removed && p.before.as_slice() == added
        }) {
            // The exact inverse: the bytes are as before that step, and so are the positions.
            let p = pending.remove(i);
            hunk = p.hunk;
            guard = p.guard;
            for q in &mut pending {
                q.hunk = shift(&q.hunk);
                q.guard = shift(&q.guard);
            }
            continue;
        }
        if d.start <= guard.end && guard.start <= d.end_before {
            // Touching counts: an insertion right at the element's edge is about that element.
            pending.push(Pending {
                step,
                at: d.start,
                before: removed.to_vec(),
                after: added.to_vec(),
                hunk: hunk.clone(),
                guard: guard.clone(),
            });
            // Until its inverse comes, the guard covers what the step wrote.
            let start = guard.start.min(d.start);
            let end = moved(guard.end.max(d.end_before));
            guard = start..end.max(start);
            continue;
        }
        hunk = shift(&hunk);
        guard = shift(&guard);
        for p in &mut pending {
            if p.at >= d.end_before {
                p.at = moved(p.at);
            }
            p.hunk = shift(&p.hunk);
            p.guard = shift(&p.guard);
        }
    }
    if let Some(p) = pending.first() {
        return Err(Blocked::Touched(p.step));
    }
    // Every later step either left the guarded bytes alone or was taken back exactly, so they
    // must read as the change left them; anything else means the positions were lost.
    if current.get(guard.clone()) != after.get(guarded) {
        return Err(Blocked::BadSpan);
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

    #[test]
    fn a_later_change_made_and_undone_since_does_not_block() {
        let v0 = "<p>one</p>\n<p>two</p>\n<p>three</p>";
        let v1 = "<p>ONE</p>\n<p>two</p>\n<p>three</p>";
        let v2 = "<p><mark>ONE</mark></p>\n<p>two</p>\n<p>three</p>";
        let v3 = "<p><mark>ONE</mark></p>\n<p>two</p>\n<p>3</p>";
        let v4 = "<p>ONE</p>\n<p>two</p>\n<p>3</p>";
        let span = span_of(v1, "<p>ONE</p>");
        let all = [v0, v1, v2, v3, v4].map(str::as_bytes);
        let out = revert(&all, span.clone()).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "<p>one</p>\n<p>two</p>\n<p>3</p>"
        );
        // Not undone: still blocked.
        assert_eq!(revert(&all[..4], span), Err(Blocked::Touched(0)));
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
