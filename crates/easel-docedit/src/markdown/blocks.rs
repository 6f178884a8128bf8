//! The blocks of a note, read with pulldown-cmark's offset iterator.

use std::ops::Range;
use std::sync::LazyLock;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use regex::Regex;

/// What kind of block an element is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Paragraph,
    Heading(u8),
    Item,
    Row,
    Quote,
    /// A fenced (`true`) or indented code block.
    Code(bool),
}

impl Kind {
    pub fn tag(self) -> String {
        match self {
            Kind::Paragraph => "p".into(),
            Kind::Heading(n) => format!("h{n}"),
            Kind::Item => "li".into(),
            Kind::Row => "tr".into(),
            Kind::Quote => "blockquote".into(),
            Kind::Code(_) => "pre".into(),
        }
    }
}

/// One block.
#[derive(Clone, Debug)]
pub(crate) struct Block {
    pub id: String,
    pub kind: Kind,
    pub text: String,
    /// The block's own bytes (a list item's own lines, without its nested list), trimmed.
    pub span: Range<usize>,
    /// Everything it holds (a list item with its nested items).
    pub whole: Range<usize>,
    /// Whether it ends in an Obsidian `^id`.
    pub named: bool,
}

/// A part of the note that a reader does not see as text: link targets, image alts, HTML,
/// comments, the frontmatter. A redaction scrubs these everywhere.
#[derive(Clone, Debug)]
pub(crate) struct Hidden {
    pub range: Range<usize>,
}

/// The note read: blocks, the hidden parts, and the source ranges of its plain text runs.
pub(crate) struct Note {
    pub blocks: Vec<Block>,
    pub hidden: Vec<Hidden>,
    /// (source range, text as read, whether it is code) of each run of text.
    pub texts: Vec<(Range<usize>, String, bool)>,
    /// (whole link, its text) of each link.
    pub links: Vec<(Range<usize>, String)>,
}

static BLOCK_ID: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?:^|\s)\^([A-Za-z0-9][A-Za-z0-9-]*)$").ok());
static COMMENT: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"(?s)%%.*?%%").ok());
/// An Obsidian highlight, `==text==`: a reader sees the text.
static HIGHLIGHT: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"==(\S(?:[^=]*?\S)?)==").ok());

/// The options the notes are read with (GitHub tables, task lists, YAML frontmatter).
pub(crate) fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
}

/// The `%%…%%` comments of `text`.
pub(crate) fn comments(text: &str) -> Vec<Range<usize>> {
    COMMENT
        .as_ref()
        .map(|re| re.find_iter(text).map(|m| m.range()).collect())
        .unwrap_or_default()
}

struct Open {
    block: usize,
    kind: Kind,
    raw: String,
}

pub(crate) fn read(text: &str) -> Note {
    let parser = Parser::new_ext(text, options());
    let mut hidden: Vec<Hidden> = Vec::new();
    let mut texts: Vec<(Range<usize>, String, bool)> = Vec::new();
    let mut blocks: Vec<Block> = Vec::new();
    let mut raws: Vec<String> = Vec::new();
    let mut open: Vec<Open> = Vec::new();
    // Depth of blocks that belong to an open element (a quote's paragraphs, an item's).
    let mut in_quote = 0usize;
    let mut in_image = 0usize;
    let mut in_code = false;
    let mut link_texts: Vec<(Range<usize>, Vec<Range<usize>>)> = Vec::new();
    let mut links = Vec::new();
    for (def_label, def) in parser.reference_definitions().iter() {
        let _ = def_label;
        hidden.push(Hidden {
            range: def.span.clone(),
        });
    }
    for (event, range) in parser.into_offset_iter() {
        let push_text = |open: &mut Vec<Open>, s: &str| {
            if let Some(o) = open.last_mut() {
                o.raw.push_str(s);
            }
        };
        // Text after an item's nested list is not on its own lines.
        let own = |open: &Vec<Open>, blocks: &Vec<Block>| {
            open.last()
                .and_then(|o| blocks.get(o.block))
                .is_none_or(|b| b.span.end == usize::MAX)
        };
        match event {
            Event::Start(tag) => {
                let kind = match &tag {
                    Tag::BlockQuote(_) if in_quote == 0 => Some(Kind::Quote),
                    Tag::Item if in_quote == 0 => Some(Kind::Item),
                    Tag::Paragraph
                    | Tag::Heading { .. }
                    | Tag::CodeBlock(_)
                    | Tag::TableHead
                    | Tag::TableRow
                        if in_quote == 0 && open.iter().all(|o| o.kind != Kind::Item) =>
                    {
                        Some(match &tag {
                            Tag::Heading { level, .. } => Kind::Heading(*level as u8),
                            Tag::CodeBlock(k) => Kind::Code(matches!(k, CodeBlockKind::Fenced(_))),
                            Tag::TableHead | Tag::TableRow => Kind::Row,
                            _ => Kind::Paragraph,
                        })
                    }
                    _ => None,
                };
                match &tag {
                    Tag::BlockQuote(_) => in_quote += 1,
                    Tag::Image { .. } => {
                        in_image += 1;
                        hidden.push(Hidden {
                            range: range.clone(),
                        });
                    }
                    Tag::Link { .. } => link_texts.push((range.clone(), Vec::new())),
                    Tag::CodeBlock(_) => in_code = true,
                    Tag::MetadataBlock(_) | Tag::HtmlBlock => hidden.push(Hidden {
                        range: range.clone(),
                    }),
                    Tag::List(_) => {
                        // A nested list ends its parent item's own lines.
                        if let Some(o) = open.last()
                            && o.kind == Kind::Item
                            && let Some(b) = blocks.get_mut(o.block)
                            && b.span.end == usize::MAX
                        {
                            b.span.end = range.start;
                        }
                    }
                    Tag::Paragraph | Tag::Heading { .. } | Tag::TableCell => {
                        push_text(&mut open, " ");
                    }
                    _ => {}
                }
                if let Some(kind) = kind {
                    open.push(Open {
                        block: blocks.len(),
                        kind,
                        raw: String::new(),
                    });
                    blocks.push(Block {
                        id: String::new(),
                        kind,
                        text: String::new(),
                        span: range.start..usize::MAX,
                        whole: range.clone(),
                        named: false,
                    });
                    raws.push(String::new());
                }
            }
            Event::End(end) => {
                match end {
                    TagEnd::BlockQuote(_) => in_quote = in_quote.saturating_sub(1),
                    TagEnd::Image => in_image = in_image.saturating_sub(1),
                    TagEnd::CodeBlock => in_code = false,
                    TagEnd::Link => {
                        if let Some((whole, inner)) = link_texts.pop() {
                            let label: Vec<&str> =
                                inner.iter().filter_map(|r| text.get(r.clone())).collect();
                            links.push((whole.clone(), label.join(" ")));
                            hidden.extend(
                                outside(&whole, &inner)
                                    .into_iter()
                                    .map(|range| Hidden { range }),
                            );
                        }
                    }
                    TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::TableCell => {
                        push_text(&mut open, " ");
                    }
                    _ => {}
                }
                let closes = open.last().is_some_and(|o| {
                    blocks
                        .get(o.block)
                        .is_some_and(|b| b.whole.start == range.start)
                        && matches!(
                            (o.kind, end),
                            (Kind::Quote, TagEnd::BlockQuote(_))
                                | (Kind::Item, TagEnd::Item)
                                | (Kind::Paragraph, TagEnd::Paragraph)
                                | (Kind::Heading(_), TagEnd::Heading(_))
                                | (Kind::Code(_), TagEnd::CodeBlock)
                                | (Kind::Row, TagEnd::TableHead | TagEnd::TableRow)
                        )
                });
                if closes && let Some(o) = open.pop() {
                    if let Some(b) = blocks.get_mut(o.block) {
                        b.whole = b.whole.start..range.end;
                        if b.span.end == usize::MAX {
                            b.span.end = range.end;
                        }
                    }
                    if let Some(r) = raws.get_mut(o.block) {
                        *r = o.raw;
                    }
                }
            }
            Event::Text(ref t)
            | Event::Code(ref t)
            | Event::InlineMath(ref t)
            | Event::DisplayMath(ref t) => {
                if in_image > 0 {
                    continue;
                }
                if let Some((_, inner)) = link_texts.last_mut() {
                    inner.push(range.clone());
                }
                let code = in_code || matches!(event, Event::Code(_));
                match texts.last_mut() {
                    Some(last) if last.0.end == range.start && !last.2 && !code => {
                        last.0.end = range.end;
                        last.1.push_str(t);
                    }
                    _ => texts.push((range.clone(), t.to_string(), code)),
                }
                if own(&open, &blocks) {
                    push_text(&mut open, t);
                }
            }
            Event::SoftBreak | Event::HardBreak => push_text(&mut open, " "),
            Event::Html(_) | Event::InlineHtml(_) => hidden.push(Hidden { range }),
            _ => {}
        }
    }
    for c in comments(text) {
        hidden.push(Hidden { range: c });
    }
    let mut out = Vec::with_capacity(blocks.len());
    for (mut b, raw) in blocks.into_iter().zip(raws) {
        b.span.end = b.span.end.min(b.whole.end);
        b.span = trim(text, b.span);
        b.whole = trim(text, b.whole);
        let had_comment = raw.contains("%%");
        let visible = COMMENT
            .as_ref()
            .map_or(raw.clone(), |re| re.replace_all(&raw, " ").into_owned());
        let visible = HIGHLIGHT.as_ref().map_or(visible.clone(), |re| {
            re.replace_all(&visible, "$1").into_owned()
        });
        let mut t = crate::html::text::collapse(&visible);
        if let Some(re) = BLOCK_ID.as_ref()
            && let Some(c) = re.captures(&t)
            && let (Some(all), Some(id)) = (c.get(0), c.get(1))
        {
            b.id = id.as_str().to_string();
            b.named = true;
            t = t[..all.start()].trim_end().to_string();
        }
        // A paragraph of comments only is an Obsidian comment, not a block a reader sees.
        if b.kind == Kind::Paragraph && t.is_empty() && had_comment && !b.named {
            continue;
        }
        b.text = t;
        out.push(b);
    }
    for (i, b) in out.iter_mut().enumerate() {
        if !b.named {
            b.id = format!("b{}", i + 1);
        }
    }
    Note {
        blocks: out,
        hidden,
        texts,
        links,
    }
}

/// `whole` without the `inner` ranges.
fn outside(whole: &Range<usize>, inner: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut at = whole.start;
    for r in inner {
        if r.start > at {
            out.push(at..r.start);
        }
        at = at.max(r.end);
    }
    if at < whole.end {
        out.push(at..whole.end);
    }
    out
}

fn trim(text: &str, r: Range<usize>) -> Range<usize> {
    let s = text.get(r.clone()).unwrap_or_default();
    r.start..r.start + s.trim_end().len()
}
