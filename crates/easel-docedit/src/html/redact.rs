//! True redaction: the element's text becomes █, and the redacted strings are scrubbed from
//! every attribute, comment and hidden text (head, title, script, style) of the document.

use std::ops::Range;

use regex::Regex;

use super::edit::before_close;
use super::text::{self, escape_attr};
use super::tokens::Kind;
use super::{Html, ID_ATTR};
use crate::edit::Applied;
use crate::error::DocError;
use crate::splice::Splices;

/// The most █ a redaction writes for one text.
pub(crate) const CAP: usize = 40;
/// Shorter strings are redacted where they are but not scrubbed elsewhere: two letters or
/// digits occur in unrelated attribute values (sizes, colours, class names) everywhere.
pub(crate) const MIN_SCRUB: usize = 3;

/// Attributes a redacted element loses: they hold text or point at what it shows.
const DROPPED: &[&str] = &[
    "title",
    "alt",
    "href",
    "src",
    "srcset",
    "value",
    "content",
    "placeholder",
    "label",
    "aria-label",
    "aria-description",
    "aria-valuetext",
    "cite",
    "longdesc",
    "poster",
    "action",
    "formaction",
    "download",
    "data",
];

/// `n` █, at most [`CAP`].
pub(crate) fn blocks(n: usize) -> String {
    "█".repeat(n.min(CAP))
}

fn dropped(name: &str) -> bool {
    DROPPED.contains(&name) || (name.starts_with("data-") && !name.starts_with("data-canon-"))
}

/// The redacted strings worth remembering: the text, and each structured piece of it.
pub(crate) fn with_pieces(found: &mut Vec<String>, s: &str) {
    let s = text::collapse(s);
    if s.is_empty() {
        return;
    }
    for hit in crate::scan::structured(&s) {
        if let Some(piece) = s.get(hit.range) {
            remember(found, piece);
        }
    }
    remember(found, &s);
}

/// [`with_pieces`] for many texts at once: the scanner runs once over all of them (a bulk
/// redaction can match thousands of times).
pub(crate) fn with_pieces_all(found: &mut Vec<String>, texts: &[String]) {
    let all: Vec<String> = texts.iter().map(|t| text::collapse(t)).collect();
    let joined = all.join("\n\n");
    for hit in crate::scan::structured(&joined) {
        if let Some(piece) = joined.get(hit.range)
            && !piece.contains('\n')
        {
            remember(found, piece);
        }
    }
    for t in &all {
        remember(found, t);
    }
}

fn remember(found: &mut Vec<String>, s: &str) {
    let s = s.trim();
    // Text redacted before is no secret; the latest are the likeliest repeats (a bulk
    // redaction meets the same text in a row).
    let blotted = s.chars().all(|c| c == '█' || c.is_whitespace());
    if !blotted && !found.iter().rev().take(64).any(|f| f == s) {
        found.push(s.to_string());
    }
}

/// Regexes that find each string long enough to scrub.
pub(crate) fn scrubbers(strings: &[String]) -> Result<Vec<Regex>, DocError> {
    let long: Vec<String> = strings
        .iter()
        .filter(|s| s.chars().count() >= MIN_SCRUB)
        .cloned()
        .collect();
    Ok(crate::pattern::any_of(&long)?.into_iter().collect())
}

/// `s` with every match of `res` replaced by █, if any matched.
pub(crate) fn blot(s: &str, res: &[Regex]) -> Option<String> {
    let mut out = s.to_string();
    let mut hit = false;
    for re in res {
        if re.is_match(&out) {
            hit = true;
            out = re
                .replace_all(&out, |c: &regex::Captures<'_>| {
                    blocks(c.get(0).map_or(0, |m| m.as_str().chars().count()))
                })
                .into_owned();
        }
    }
    hit.then_some(out)
}

pub(crate) fn redact_element(h: &Html<'_>, node: usize) -> Result<Applied, DocError> {
    let n = h.tree.nodes[node].clone();
    let et = h.element_text(node);
    let mut found = Vec::new();
    with_pieces(&mut found, &et.text);
    for a in h.tree.attrs(node) {
        if dropped(&a.name) {
            with_pieces(&mut found, &a.value);
        }
    }
    let inside = h.tree.inside(node);
    // A link's text names what it points at (a person behind a mailto:): it goes too.
    for (child, c) in h.tree.nodes.iter().enumerate().skip(node + 1) {
        if c.tag.start >= n.content.end {
            break;
        }
        if c.name == "a" {
            with_pieces(&mut found, &h.element_text(child).text);
        }
    }
    for tok in inside.clone() {
        if let Some(Kind::Start { attrs, .. }) = h.tree.tokens.get(tok).map(|t| &t.kind) {
            for a in attrs.iter().filter(|a| dropped(&a.name)) {
                with_pieces(&mut found, &a.value);
            }
        }
    }
    let res = scrubbers(&found)?;

    let mut s = Splices::new();
    s.push(n.tag.clone(), redacted_tag(h, node, &res));
    let mut budget = et.text.chars().count().min(CAP);
    // Each text node gets as many █ as it gives characters to the element's text (the spaces
    // between nodes included), so that the total is the text's length.
    let mut counts = vec![0usize; et.pieces.len()];
    for (at, _) in et.text.char_indices() {
        if let Some(&(piece, _)) = et.origin.get(at)
            && let Some(c) = counts.get_mut(piece)
        {
            *c += 1;
        }
    }
    let mut at = n.content.start;
    let mut content = String::new();
    for tok in inside {
        let Some(t) = h.tree.tokens.get(tok) else {
            continue;
        };
        if t.span.start < at {
            continue;
        }
        content.push_str(h.text.get(at..t.span.start).unwrap_or_default());
        at = t.span.end.min(n.content.end.max(t.span.start));
        let raw = h.text.get(t.span.clone()).unwrap_or_default();
        match &t.kind {
            Kind::Start { name, .. } => {
                content.push('<');
                content.push_str(name);
                content.push_str(if raw.ends_with("/>") { "/>" } else { ">" });
            }
            Kind::End { .. } => content.push_str(raw),
            Kind::Text { decoded: true } => {
                let chars = et
                    .pieces
                    .iter()
                    .position(|(tok_of, _)| *tok_of == tok)
                    .and_then(|p| counts.get(p).copied())
                    .unwrap_or(0);
                if chars == 0 && raw.trim_ascii().is_empty() {
                    content.push_str(raw);
                } else {
                    let n = chars.min(budget);
                    budget -= n;
                    content.push_str(&"█".repeat(n));
                }
            }
            Kind::Text { decoded: false } | Kind::Comment => {}
        }
    }
    content.push_str(h.text.get(at..n.content.end).unwrap_or_default());
    if !n.content.is_empty() {
        s.push(n.content.clone(), content);
    }
    let span = n.span();
    let before = s.len();
    scrub(h, &res, &span, &mut s);
    tracing::debug!(
        strings = found.len(),
        scrubbed = s.len() - before,
        "redacted element and scrubbed its strings elsewhere"
    );
    let (text, new_span) = s.apply(h.text, span)?;
    Ok(Applied {
        text,
        touched: h.ids_within(node),
        span: new_span,
        redacted: found,
        summary: h.summary("redact_element", node),
    })
}

/// The element's start tag without the dropped attributes, its other values scrubbed, and
/// marked `data-canon-redacted`.
fn redacted_tag(h: &Html<'_>, node: usize, res: &[Regex]) -> String {
    let n = &h.tree.nodes[node];
    let mut s = Splices::new();
    let base = n.tag.start;
    let tag = h.text.get(n.tag.clone()).unwrap_or_default();
    let attrs = h.tree.attrs(node);
    for a in attrs {
        let local = a.span.start - base..a.span.end - base;
        if dropped(&a.name) {
            let lead = tag
                .get(..local.start)
                .map_or(0, |t| t.len() - t.trim_end().len());
            s.push(local.start - lead..local.end, "");
        } else if a.name != ID_ATTR
            && let Some(v) = &a.value_span
            && let Some(clean) = blot(&a.value, res)
        {
            s.push(v.start - base..v.end - base, quoted(h.text, v, &clean));
        }
    }
    if !attrs.iter().any(|a| a.name == "data-canon-redacted") {
        let at = before_close(h, node) - base;
        s.push(at..at, " data-canon-redacted=\"\"");
    }
    s.apply(tag, 0..0)
        .map(|(t, _)| t)
        .unwrap_or_else(|_| tag.to_string())
}

/// The escaped value to put at `value`'s bytes: quoted values keep their quotes, an unquoted
/// one gains double quotes.
fn quoted(doc: &str, value: &Range<usize>, clean: &str) -> String {
    let before = value
        .start
        .checked_sub(1)
        .and_then(|i| doc.as_bytes().get(i));
    if matches!(before, Some(b'"' | b'\'')) {
        escape_attr(clean)
    } else {
        format!("\"{}\"", escape_attr(clean))
    }
}

/// Scrubs every match of `res` from attribute values, comments and hidden text outside
/// `except` (the redacted element, rewritten already) and the bytes `s` already changes.
pub(crate) fn scrub(h: &Html<'_>, res: &[Regex], except: &Range<usize>, s: &mut Splices) {
    if res.is_empty() {
        return;
    }
    for (i, t) in h.tree.tokens.iter().enumerate() {
        let outside = t.span.end <= except.start || t.span.start >= except.end;
        if !outside || s.overlaps(&t.span) {
            continue;
        }
        match &t.kind {
            Kind::Start { attrs, .. } => {
                for a in attrs {
                    if a.name == ID_ATTR || a.name == "data-canon-redacted" {
                        continue;
                    }
                    if let Some(v) = &a.value_span
                        && let Some(clean) = blot(&a.value, res)
                    {
                        s.push(v.clone(), quoted(h.text, v, &clean));
                    }
                }
            }
            Kind::Comment => {
                let raw = h.text.get(t.span.clone()).unwrap_or_default();
                let inner = raw
                    .strip_prefix("<!--")
                    .map(|r| r.strip_suffix("-->").unwrap_or(r))
                    .unwrap_or(raw);
                let decoded = text::decode(inner, 0..inner.len(), true).text;
                if res
                    .iter()
                    .any(|r| r.is_match(inner) || r.is_match(&decoded))
                {
                    let mut clean = blot(inner, res).unwrap_or_else(|| inner.to_string());
                    let again = text::decode(&clean, 0..clean.len(), true).text;
                    if res.iter().any(|r| r.is_match(&again)) {
                        clean = blocks(again.chars().count());
                    }
                    s.push(t.span.clone(), format!("<!--{clean}-->"));
                }
            }
            Kind::Text { decoded } if !decoded || h.tree.hidden(i) => {
                scrub_text(h, t.span.clone(), *decoded, res, s);
            }
            _ => {}
        }
    }
}

/// Replaces each match of `res` in one text node by █.
pub(crate) fn scrub_text(
    h: &Html<'_>,
    span: Range<usize>,
    entities: bool,
    res: &[Regex],
    s: &mut Splices,
) -> usize {
    let d = text::decode(h.text, span, entities);
    let mut ranges: Vec<Range<usize>> = res
        .iter()
        .flat_map(|r| r.find_iter(&d.text).map(|m| m.range()))
        .filter(|r| !r.is_empty())
        .collect();
    ranges.sort_by_key(|r| r.start);
    let mut count = 0;
    let mut last_end = 0;
    for r in ranges {
        if r.start < last_end {
            continue;
        }
        let (src, wide) = d.source(r.clone());
        if s.overlaps(&src) {
            continue;
        }
        let piece = d.text.get(r.clone()).unwrap_or_default();
        let before = d.text.get(wide.start..r.start).unwrap_or_default();
        let after = d.text.get(r.end..wide.end).unwrap_or_default();
        let esc = |x: &str| {
            if entities {
                text::escape_text(x)
            } else {
                x.to_string()
            }
        };
        s.push(
            src,
            format!(
                "{}{}{}",
                esc(before),
                blocks(piece.chars().count()),
                esc(after)
            ),
        );
        last_end = wide.end;
        count += 1;
    }
    count
}
