//! Redaction of a block and the bulk edits of a note.
//!
//! A redacted block keeps its markers (`- `, `# `, `> `, pipes, fences) and its `^id`; its text
//! becomes █. The redacted strings are then scrubbed from what a reader does not see anywhere in
//! the note: link targets and titles, image alts, HTML and its comments, `%%…%%` comments and
//! the frontmatter.

use std::collections::BTreeSet;
use std::ops::Range;

use regex::Regex;

use super::blocks::{Block, Note};
use super::lines;
use crate::edit::Applied;
use crate::error::DocError;
use crate::html::redact::{blocks as blots, blot, scrubbers, with_pieces, with_pieces_all};
use crate::splice::Splices;

pub(crate) fn redact_element(text: &str, note: &Note, b: &Block) -> Result<Applied, DocError> {
    let mut found = Vec::new();
    with_pieces(&mut found, &b.text);
    for h in note.hidden.iter().filter(|h| within(&h.range, &b.span)) {
        let raw = text.get(h.range.clone()).unwrap_or_default();
        with_pieces(&mut found, unsyntax(raw));
    }
    // A link's text names what it points at (a person behind a mailto:): it goes too.
    for (_, label) in note.links.iter().filter(|(r, _)| within(r, &b.span)) {
        with_pieces(&mut found, label);
    }
    let res = scrubbers(&found)?;
    let mut s = Splices::new();
    let mut budget = b.text.chars().count().min(crate::html::redact::CAP);
    for r in lines::content(text, b) {
        let piece = text.get(r.clone()).unwrap_or_default();
        // Every line keeps one █ at least: an emptied line would split the block in two.
        let n = piece.chars().count().min(budget).max(1);
        budget = budget.saturating_sub(n);
        s.push(r, "█".repeat(n));
    }
    scrub(text, note, &res, &b.span, &mut s);
    let (new, span) = s.apply(text, b.span.clone())?;
    Ok(Applied {
        text: new,
        touched: vec![b.id.clone()],
        span,
        redacted: found,
        summary: format!("redact_element {}", b.id),
    })
}

/// The text of a link target or an image without its brackets and quotes.
fn unsyntax(raw: &str) -> &str {
    raw.trim_matches(|c: char| "[]()<>!\"' \t\n:".contains(c))
}

fn within(inner: &Range<usize>, outer: &Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// Percent-decoding of a URL, for comparing what it names.
fn percent_decoded(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(hex) = s.get(i + 1..i + 3)
            && let Ok(v) = u8::from_str_radix(hex, 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Scrubs every match of `res` from the hidden parts of the note outside `except`.
fn scrub(text: &str, note: &Note, res: &[Regex], except: &Range<usize>, s: &mut Splices) {
    if res.is_empty() {
        return;
    }
    let mut ranges: Vec<Range<usize>> = note.hidden.iter().map(|h| h.range.clone()).collect();
    ranges.sort_by_key(|r| (r.start, std::cmp::Reverse(r.end)));
    let mut last_end = 0;
    for r in ranges {
        // Nested hidden parts (a comment in the frontmatter) are handled by the outer one.
        if r.start < last_end || r.is_empty() {
            continue;
        }
        let outside = r.end <= except.start || r.start >= except.end;
        if !outside || s.overlaps(&r) {
            continue;
        }
        last_end = r.end;
        let raw = text.get(r.clone()).unwrap_or_default();
        let clean = if r.start == 0 && raw.starts_with("---") {
            frontmatter_values(raw, res)
        } else {
            scrub_part(raw, res)
        };
        if clean != raw {
            s.push(r, clean);
        }
    }
}

/// One hidden part with every match blotted, also matches only an encoded form shows.
fn scrub_part(raw: &str, res: &[Regex]) -> String {
    let clean = blot(raw, res).unwrap_or_else(|| raw.to_string());
    let decoded = percent_decoded(&htmlize::unescape(clean.as_str()));
    if res.iter().any(|re| re.is_match(&decoded)) {
        mask_encoded(&clean, res)
    } else {
        clean
    }
}

/// The frontmatter with redacted strings blotted in its values only: a key that happens to
/// equal a redacted word (`title:` after redacting a heading "Title") stays, so the YAML keeps
/// its meaning.
fn frontmatter_values(raw: &str, res: &[Regex]) -> String {
    let mut out = String::with_capacity(raw.len());
    for line in raw.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let ending = &line[body.len()..];
        let key_end = body
            .find(": ")
            .map(|i| i + 2)
            .or_else(|| body.ends_with(':').then_some(body.len()))
            .filter(|&i| !body[..i].trim_start().starts_with('-'));
        let (key, value) = match key_end {
            Some(i) => body.split_at(i),
            None => {
                // A list item or a continuation: its marker stays.
                let marker = body.len() - body.trim_start_matches([' ', '-']).len();
                body.split_at(marker)
            }
        };
        out.push_str(key);
        out.push_str(&scrub_part(value, res));
        out.push_str(ending);
    }
    out
}

/// Blots each whitespace-separated word that holds a match only in an encoded form
/// (`%40`, `&#64;`), keeping brackets and quotes so that links still parse.
fn mask_encoded(s: &str, res: &[Regex]) -> String {
    let mut out = String::with_capacity(s.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let decoded = percent_decoded(&htmlize::unescape(word.as_str()));
        if res.iter().any(|re| re.is_match(&decoded)) {
            out.extend(
                word.chars()
                    .map(|c| if "[]()<>\"'".contains(c) { c } else { '█' }),
            );
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in s.chars() {
        if c.is_whitespace() {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The text runs of the note a bulk edit works on, with how to write them back.
fn runs(text: &str, note: &Note, code: bool) -> Vec<(Range<usize>, String)> {
    let mut out = Vec::new();
    for (range, t, is_code) in &note.texts {
        if *is_code && !code {
            continue;
        }
        let raw = text.get(range.clone()).unwrap_or_default();
        // Inline code: the text sits between the backticks.
        let range = match raw.find(t.as_str()) {
            Some(at) if *is_code => range.start + at..range.start + at + t.len(),
            _ => range.clone(),
        };
        out.push((range, t.clone()));
    }
    out
}

/// Backslash-escapes what Markdown could read as syntax, for text written back in place of
/// a run that had escapes or entities.
fn escape_md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\`*_[]<>#&|~=%".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Replaces each match of `re` in the runs by `with(match)`; returns the changed ranges.
fn replace_runs(
    text: &str,
    runs: &[(Range<usize>, String)],
    re: &Regex,
    with: &dyn Fn(&str) -> String,
    s: &mut Splices,
) -> Vec<Range<usize>> {
    let mut changed = Vec::new();
    for (range, t) in runs {
        if !re.is_match(t) || s.overlaps(range) {
            continue;
        }
        let raw = text.get(range.clone()).unwrap_or_default();
        if raw == t {
            for m in re.find_iter(t).filter(|m| !m.is_empty()) {
                let r = range.start + m.start()..range.start + m.end();
                s.push(r.clone(), with(m.as_str()));
                changed.push(r);
            }
        } else {
            let mut out = String::new();
            let mut at = 0;
            for m in re.find_iter(t).filter(|m| !m.is_empty()) {
                out.push_str(&escape_md(t.get(at..m.start()).unwrap_or_default()));
                out.push_str(&with(m.as_str()));
                at = m.end();
            }
            out.push_str(&escape_md(t.get(at..).unwrap_or_default()));
            s.push(range.clone(), out);
            changed.push(range.clone());
        }
    }
    changed
}

pub(crate) fn find_and_replace_all(
    text: &str,
    note: &Note,
    find: &str,
    replace: &str,
    case_sensitive: bool,
) -> Result<Applied, DocError> {
    let re = crate::pattern::literal(find, case_sensitive)?;
    let mut s = Splices::new();
    let changed = replace_runs(
        text,
        &runs(text, note, false),
        &re,
        &|_| replace.into(),
        &mut s,
    );
    if changed.is_empty() {
        return Err(DocError::NoMatch {
            what: find.to_string(),
        });
    }
    let what = format!("find_and_replace_all '{find}' → '{replace}'");
    bulk_applied(text, note, s, &changed, &what, Vec::new())
}

/// What a bulk edit gives: its splices applied, the elements it changed, and a summary that
/// counts them after `what`.
fn bulk_applied(
    text: &str,
    note: &Note,
    s: Splices,
    changed: &[Range<usize>],
    what: &str,
    redacted: Vec<String>,
) -> Result<Applied, DocError> {
    let (touched, range) = touched(note, changed);
    let n = touched.len();
    let summary = format!("{what} ({n} element{})", if n == 1 { "" } else { "s" });
    let (new, span) = s.apply(text, range)?;
    Ok(Applied {
        text: new,
        touched,
        span,
        redacted,
        summary,
    })
}

pub(crate) fn redact_all_matching(
    text: &str,
    note: &Note,
    pattern: &str,
) -> Result<Applied, DocError> {
    let re = crate::pattern::redaction(pattern)?;
    let runs = runs(text, note, true);
    let matched: Vec<String> = runs
        .iter()
        .flat_map(|(_, t)| re.find_iter(t).map(|m| m.as_str().to_string()))
        .collect();
    let mut found = Vec::new();
    with_pieces_all(&mut found, &matched);
    let mut s = Splices::new();
    let changed = replace_runs(text, &runs, &re, &|m| blots(m.chars().count()), &mut s);
    let mut res = scrubbers(&found)?;
    res.push(re);
    scrub(text, note, &res, &(0..0), &mut s);
    if s.is_empty() {
        return Err(DocError::NoMatch {
            what: pattern.to_string(),
        });
    }
    let what = format!("redact_all_matching '{pattern}'");
    bulk_applied(text, note, s, &changed, &what, found)
}

/// The blocks holding the changed ranges (the innermost one for each), and the range from the
/// first to the last.
fn touched(note: &Note, changed: &[Range<usize>]) -> (Vec<String>, Range<usize>) {
    let mut set = BTreeSet::new();
    let (mut lo, mut hi) = (usize::MAX, 0);
    for r in changed {
        lo = lo.min(r.start);
        hi = hi.max(r.end);
        let holder = note
            .blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.whole.start <= r.start && r.end <= b.whole.end)
            .min_by_key(|(_, b)| b.whole.len());
        if let Some((i, b)) = holder {
            set.insert(i);
            lo = lo.min(b.span.start);
            hi = hi.max(b.span.end);
        }
    }
    let ids = set
        .into_iter()
        .filter_map(|i| note.blocks.get(i))
        .map(|b| b.id.clone())
        .collect();
    (ids, if lo <= hi { lo..hi } else { 0..0 })
}
