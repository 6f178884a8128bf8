//! The bulk edits: find and replace, and redaction of every match.

use std::collections::BTreeSet;
use std::ops::Range;

use super::Html;
use super::redact::{self, scrub, scrub_text};
use super::text::{self, escape_text};
use super::tokens::Kind;
use crate::edit::Applied;
use crate::error::DocError;
use crate::splice::Splices;

/// The visible text nodes: text of the body, not head, title, script or style.
fn visible<'a>(h: &'a Html<'_>) -> impl Iterator<Item = (usize, Range<usize>)> + 'a {
    h.tree
        .tokens
        .iter()
        .enumerate()
        .filter(|(i, t)| matches!(t.kind, Kind::Text { decoded: true }) && !h.tree.hidden(*i))
        .map(|(i, t)| (i, t.span.clone()))
}

pub(crate) fn find_and_replace_all(
    h: &Html<'_>,
    find: &str,
    replace: &str,
    case_sensitive: bool,
) -> Result<Applied, DocError> {
    let re = crate::pattern::literal(find, case_sensitive)?;
    let mut s = Splices::new();
    let mut touched = BTreeSet::new();
    let mut changed: Vec<Range<usize>> = Vec::new();
    for (tok, span) in visible(h) {
        let d = text::decode(h.text, span, true);
        let mut last_end = 0;
        for m in re.find_iter(&d.text) {
            if m.start() < last_end || m.is_empty() {
                continue;
            }
            let (src, wide) = d.source(m.range());
            let before = d.text.get(wide.start..m.start()).unwrap_or_default();
            let after = d.text.get(m.end()..wide.end).unwrap_or_default();
            s.push(
                src.clone(),
                format!(
                    "{}{}{}",
                    escape_text(before),
                    escape_text(replace),
                    escape_text(after)
                ),
            );
            last_end = wide.end;
            changed.push(src);
            note(h, tok, &mut touched);
        }
    }
    if s.is_empty() {
        return Err(DocError::NoMatch {
            what: find.to_string(),
        });
    }
    let n = touched.len();
    let summary = format!(
        "find_and_replace_all '{find}' → '{replace}' ({n} element{})",
        if n == 1 { "" } else { "s" }
    );
    finish(h, s, touched, changed, Vec::new(), summary)
}

pub(crate) fn redact_all_matching(h: &Html<'_>, pattern: &str) -> Result<Applied, DocError> {
    let re = crate::pattern::redaction(pattern)?;
    let mut matched = Vec::new();
    let mut s = Splices::new();
    let mut touched = BTreeSet::new();
    let mut changed = Vec::new();
    for (tok, span) in visible(h) {
        let d = text::decode(h.text, span.clone(), true);
        let matches: Vec<String> = re
            .find_iter(&d.text)
            .map(|m| m.as_str().to_string())
            .collect();
        if matches.is_empty() {
            continue;
        }
        matched.extend(matches);
        if scrub_text(h, span.clone(), true, std::slice::from_ref(&re), &mut s) > 0 {
            changed.push(span);
            note(h, tok, &mut touched);
        }
    }
    let mut found = Vec::new();
    redact::with_pieces_all(&mut found, &matched);
    let mut res = redact::scrubbers(&found)?;
    res.push(re);
    scrub(h, &res, &(0..0), &mut s);
    if s.is_empty() {
        return Err(DocError::NoMatch {
            what: pattern.to_string(),
        });
    }
    let n = touched.len();
    let summary = format!(
        "redact_all_matching '{pattern}' ({n} element{})",
        if n == 1 { "" } else { "s" }
    );
    finish(h, s, touched, changed, found, summary)
}

/// Remembers the element (with an id) that holds text token `tok`.
fn note(h: &Html<'_>, tok: usize, touched: &mut BTreeSet<usize>) {
    if let Some(owner) = h.tree.owner.get(tok).copied().flatten()
        && let Some(el) = h.owner_id(owner)
    {
        touched.insert(el);
    }
}

fn finish(
    h: &Html<'_>,
    s: Splices,
    touched: BTreeSet<usize>,
    changed: Vec<Range<usize>>,
    redacted: Vec<String>,
    summary: String,
) -> Result<Applied, DocError> {
    let spans = touched
        .iter()
        .map(|&n| h.tree.nodes[n].span())
        .chain(changed);
    let (mut lo, mut hi) = (usize::MAX, 0);
    for r in spans {
        lo = lo.min(r.start);
        hi = hi.max(r.end);
    }
    let range = if lo <= hi { lo..hi } else { 0..0 };
    let (text, span) = s.apply(h.text, range)?;
    let mut ids: Vec<(usize, String)> = touched
        .iter()
        .map(|&n| (h.tree.nodes[n].tag.start, h.id_of(n).to_string()))
        .collect();
    ids.sort();
    Ok(Applied {
        text,
        touched: ids.into_iter().map(|(_, id)| id).collect(),
        span,
        redacted,
        summary,
    })
}
