//! The structure of a Markdown body as byte ranges: its headings and its blocks, found by a
//! CommonMark parser (`pulldown-cmark`, with GitHub tables), so that setext headings
//! (`Title\n=====`), closing hashes (`## Title ##`), block quotes, and `#` lines inside code
//! blocks are all read the way Obsidian reads them.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// A heading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heading {
    /// 1 to 6.
    pub level: u8,
    /// The heading's text as displayed: markup and closing hashes removed, trimmed.
    pub text: String,
    /// Where the heading starts (its first line's first byte).
    pub start: usize,
    /// Where it ends (after its last line's text).
    pub end: usize,
}

/// What kind of block a [`Block`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// A paragraph that is not part of a list item or a quote.
    Paragraph,
    /// A heading.
    Heading,
    /// A list item (items of nested lists are blocks of their own too).
    ListItem,
    /// A block quote, as a whole.
    Quote,
    /// A fenced or indented code block.
    Code,
    /// A table, as a whole.
    Table,
    /// Raw HTML.
    Html,
}

/// A block of the body: the unit a `#^id` link or a document edit points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// What it is.
    pub kind: BlockKind,
    /// Its first byte.
    pub start: usize,
    /// After its last byte of text (trailing blank lines excluded).
    pub end: usize,
}

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH
}

fn level(l: HeadingLevel) -> u8 {
    match l {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// End of `range` with trailing whitespace left out.
fn trimmed_end(body: &str, start: usize, end: usize) -> usize {
    start + body[start..end.min(body.len())].trim_end().len()
}

/// The headings of `body`, in order.
pub fn headings(body: &str) -> Vec<Heading> {
    let mut out = Vec::new();
    let mut current: Option<Heading> = None;
    for (event, range) in Parser::new_ext(body, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level: l, .. }) => {
                current = Some(Heading {
                    level: level(l),
                    text: String::new(),
                    start: range.start,
                    end: trimmed_end(body, range.start, range.end),
                });
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some(mut h) = current.take() {
                    h.text = h.text.trim().to_string();
                    out.push(h);
                }
            }
            Event::Text(t) | Event::Code(t) | Event::InlineMath(t) => {
                if let Some(h) = current.as_mut() {
                    h.text.push_str(&t);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some(h) = current.as_mut() {
                    h.text.push(' ');
                }
            }
            _ => {}
        }
    }
    out
}

/// The blocks of `body`, in document order (a list item comes before the items nested in it).
pub fn blocks(body: &str) -> Vec<Block> {
    let mut out = Vec::new();
    // Containers open around the current event: quotes and items hide the paragraphs inside them.
    let mut quotes = 0usize;
    let mut items = 0usize;
    for (event, range) in Parser::new_ext(body, options()).into_offset_iter() {
        let block = |kind| Block {
            kind,
            start: range.start,
            end: trimmed_end(body, range.start, range.end),
        };
        match event {
            Event::Start(Tag::BlockQuote(_)) => {
                if quotes == 0 && items == 0 {
                    out.push(block(BlockKind::Quote));
                }
                quotes += 1;
            }
            Event::End(TagEnd::BlockQuote(_)) => quotes = quotes.saturating_sub(1),
            Event::Start(Tag::Item) => {
                if quotes == 0 {
                    out.push(block(BlockKind::ListItem));
                }
                items += 1;
            }
            Event::End(TagEnd::Item) => items = items.saturating_sub(1),
            _ if quotes > 0 => {}
            Event::Start(Tag::Paragraph) if items == 0 => out.push(block(BlockKind::Paragraph)),
            Event::Start(Tag::Heading { .. }) => out.push(block(BlockKind::Heading)),
            Event::Start(Tag::CodeBlock(_)) if items == 0 => out.push(block(BlockKind::Code)),
            Event::Start(Tag::Table(_)) if items == 0 => out.push(block(BlockKind::Table)),
            Event::Start(Tag::HtmlBlock) if items == 0 => out.push(block(BlockKind::Html)),
            _ => {}
        }
    }
    out
}

/// The section under the heading path `path` (`Heading`, `#Heading`, or `A#B` for heading `B`
/// inside section `A`, as in Obsidian links): from the heading up to the next heading of the
/// same or a higher level, or the end. `None` when there is no such heading.
pub fn section_range(body: &str, path: &str) -> Option<(usize, usize)> {
    let headings = headings(body);
    let (mut from, mut to) = (0, body.len());
    let mut level_floor = 0;
    let mut found = false;
    for part in path
        .trim_start_matches('#')
        .split('#')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let (index, h) = headings.iter().enumerate().find(|(_, h)| {
            h.start >= from && h.start < to && h.level > level_floor && h.text == part
        })?;
        let end = headings[index + 1..]
            .iter()
            .find(|n| n.level <= h.level)
            .map_or(body.len(), |n| n.start);
        from = h.start;
        to = end.min(to);
        level_floor = h.level;
        found = true;
    }
    found.then_some((from, to))
}

/// The block marked `^id` (a leading `^` in `id` is ignored), without its marker: the smallest
/// block whose text ends with ` ^id`, or, for a marker alone in its own paragraph (how Obsidian
/// marks tables and quotes), the block before it. Markers inside code blocks do not count.
pub fn block_range(body: &str, id: &str) -> Option<(usize, usize)> {
    let id = id.trim_start_matches('^');
    if id.is_empty() || id.contains(char::is_whitespace) {
        return None;
    }
    let marker = format!("^{id}");
    let blocks = blocks(body);
    let mut best: Option<(usize, usize)> = None;
    for (i, b) in blocks.iter().enumerate() {
        if b.kind == BlockKind::Code {
            continue;
        }
        let text = &body[b.start..b.end];
        let Some(before) = text.strip_suffix(marker.as_str()) else {
            continue;
        };
        let found = if before.trim().is_empty() {
            // The marker alone: the block before it (not one that contains it).
            blocks[..i]
                .iter()
                .rev()
                .find(|p| p.end <= b.start)
                .map(|p| (p.start, p.end))
        } else if before.ends_with(char::is_whitespace) {
            Some((b.start, b.start + before.trim_end().len()))
        } else {
            None
        };
        if let Some(r) = found
            && best.is_none_or(|(s, e)| r.1 - r.0 < e - s)
        {
            best = Some(r);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn setext_headings_and_closing_hashes_are_headings() {
        let body = "Title\n=====\n\ntext\n\n## Sub ##\nmore\n\nNot a heading\n";
        let hs = headings(body);
        let names: Vec<(u8, &str)> = hs.iter().map(|h| (h.level, h.text.as_str())).collect();
        assert_eq!(names, [(1, "Title"), (2, "Sub")]);
        assert_eq!(&body[hs[0].start..hs[0].end], "Title\n=====");
        assert_eq!(
            section_range(body, "Sub").map(|(s, e)| &body[s..e]),
            Some("## Sub ##\nmore\n\nNot a heading\n")
        );
    }

    #[test]
    fn hashes_in_code_and_quotes_are_not_headings() {
        let body = "```\n# code\n```\n\n    # indented code\n\n> # quoted\n\n# Real\n";
        let names: Vec<String> = headings(body).into_iter().map(|h| h.text).collect();
        // A heading inside a quote is still a heading of the note, as Obsidian links it.
        assert_eq!(names, ["quoted", "Real"]);
    }

    #[test]
    fn quotes_and_nested_items_are_blocks() {
        let body = "> quoted line\n> more ^q\n\n- outer\n  - inner ^in\n";
        assert_eq!(
            block_range(body, "q").map(|(s, e)| &body[s..e]),
            Some("> quoted line\n> more")
        );
        assert_eq!(
            block_range(body, "in").map(|(s, e)| &body[s..e]),
            Some("- inner")
        );
        let kinds: Vec<BlockKind> = blocks(body).iter().map(|b| b.kind).collect();
        assert_eq!(
            kinds,
            [BlockKind::Quote, BlockKind::ListItem, BlockKind::ListItem]
        );
    }
}
