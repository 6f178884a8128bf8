//! The edits of one block: replace text, highlight, comment, delete.

use super::blocks::{Block, Kind, Note};
use super::{finish, lines};
use crate::edit::Applied;
use crate::error::DocError;
use crate::splice::Splices;

pub(crate) fn replace_text(
    text: &str,
    b: &Block,
    old: &str,
    new: &str,
) -> Result<Applied, DocError> {
    if old.trim().is_empty() {
        return Err(DocError::Invalid {
            message: "oldText is empty".into(),
            hint: "give the exact text to replace, copied from the block's text".into(),
        });
    }
    let source = text.get(b.span.clone()).unwrap_or_default();
    let found = match source.find(old) {
        Some(at) => Some(at..at + old.len()),
        None => crate::pattern::literal(old, true)?
            .find(source)
            .map(|m| m.range()),
    };
    let Some(range) = found else {
        if crate::pattern::literal(old, true)?.is_match(&b.text) {
            return Err(DocError::Invalid {
                message: format!(
                    "the text '{old}' of block '{}' is split by Markdown syntax (emphasis, a \
                     link or code) in the note",
                    b.id
                ),
                hint: "pick text that lies within one run of the block's text, or replace each \
                       part separately"
                    .into(),
            });
        }
        return Err(DocError::TextNotInElement {
            id: b.id.clone(),
            old_text: old.to_string(),
        });
    };
    let mut s = Splices::new();
    s.push(b.span.start + range.start..b.span.start + range.end, new);
    finish(text, b, s, "replace_text")
}

pub(crate) fn add_highlight(text: &str, b: &Block) -> Result<Applied, DocError> {
    if matches!(b.kind, Kind::Code(_)) {
        return Err(DocError::Invalid {
            message: format!(
                "block '{}' is a code block, which cannot hold a highlight",
                b.id
            ),
            hint: "add a comment to it instead, or highlight another block".into(),
        });
    }
    let parts = lines::content(text, b);
    if parts.is_empty() {
        return Err(DocError::Invalid {
            message: format!("block '{}' has no text to highlight", b.id),
            hint: "pick a block with text (`doc_show` lists them)".into(),
        });
    }
    let done = parts.iter().all(|r| {
        let p = text.get(r.clone()).unwrap_or_default();
        p.len() >= 4 && p.starts_with("==") && p.ends_with("==")
    });
    if done {
        return Err(DocError::Invalid {
            message: format!("block '{}' is highlighted already", b.id),
            hint: "nothing to do; pick another block".into(),
        });
    }
    // Each line (or cell) on its own: a highlight does not cross a line of a quote or a cell.
    let mut s = Splices::new();
    for r in parts {
        s.push(r.start..r.start, "==");
        s.push(r.end..r.end, "==");
    }
    finish(text, b, s, "add_highlight")
}

pub(crate) fn add_comment(text: &str, b: &Block, comment: &str) -> Result<Applied, DocError> {
    // `%%` would end the comment early; a comment lives on one line.
    let comment = comment
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("%%", "% %");
    if comment.is_empty() {
        return Err(DocError::Invalid {
            message: "the comment is empty".into(),
            hint: "give the comment's text".into(),
        });
    }
    let mut s = Splices::new();
    if matches!(b.kind, Kind::Code(_)) {
        // Nothing can be added inside a code block: the comment becomes a paragraph of its
        // own after it, which is not a block of the note (comment-only paragraphs never are).
        let rest = text.get(b.span.end..).unwrap_or_default();
        let spaced = rest.is_empty() || rest.starts_with("\n\n") || rest.starts_with("\r\n\r\n");
        let tail = if spaced || rest.trim().is_empty() {
            ""
        } else {
            "\n"
        };
        s.push(b.span.end..b.span.end, format!("\n\n%%{comment}%%{tail}"));
    } else {
        let at = lines::content(text, b).last().map_or(b.span.end, |r| r.end);
        s.push(at..at, format!(" %%{comment}%%"));
    }
    finish(text, b, s, "add_comment")
}

pub(crate) fn delete_element(text: &str, note: &Note, b: &Block) -> Result<Applied, DocError> {
    let bytes = text.as_bytes();
    let whole = b.whole.clone();
    let line_end = bytes[whole.end..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(text.len(), |p| whole.end + p + 1);
    if b.kind == Kind::Row {
        let next = lines::split(text, line_end..text.len());
        let is_head = next.first().is_some_and(|r| {
            let line = text.get(r.clone()).unwrap_or_default();
            lines::DELIMITER
                .as_ref()
                .is_some_and(|re| re.is_match(line))
                && line.contains('-')
        });
        if is_head {
            return Err(DocError::Invalid {
                message: format!("block '{}' is the header row of a table", b.id),
                hint: "delete the table's other rows, or edit the header's text".into(),
            });
        }
    }
    let line_start = bytes[..whole.start]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    let start = if bytes[line_start..whole.start]
        .iter()
        .all(|c| *c == b' ' || *c == b'\t')
    {
        line_start
    } else {
        whole.start
    };
    let mut end = line_end;
    // And the blank line after it when one comes before it too, so that the blocks around it
    // stay apart by one (the last item of a list keeps it: it parts the list from what follows).
    let blank_before = start == 0
        || text
            .get(..start.saturating_sub(1))
            .and_then(|t| t.rsplit('\n').next())
            .is_some_and(|l| l.trim().is_empty());
    if blank_before
        && let Some(next) = lines::split(text, end..text.len()).first()
        && end < text.len()
        && text.get(next.clone()).is_some_and(|l| l.trim().is_empty())
        && next.end < text.len()
    {
        end = next.end + 1;
    }
    let mut s = Splices::new();
    s.push(start..end, "");
    let (new, span) = s.apply(text, start..end)?;
    Ok(Applied {
        text: new,
        // A list item goes with its nested items.
        touched: note
            .blocks
            .iter()
            .filter(|x| b.whole.start <= x.span.start && x.span.end <= b.whole.end)
            .map(|x| x.id.clone())
            .collect(),
        span: span.start..span.start,
        redacted: Vec::new(),
        summary: format!("delete_element {}", b.id),
    })
}
