//! The HTML document made from a PDF's blocks.

use std::collections::HashSet;
use std::fmt::Write as _;

use super::layout::Block;

/// Headings must be at least this much larger than the body text.
const HEADING_RATIO: f64 = 1.2;
/// A block longer than this is a paragraph set large, not a heading.
const HEADING_MAX_CHARS: usize = 200;

/// Enough style that the file reads like pages in a browser. An empty section (a page without
/// text) says so through CSS, so that no element without an id is added to the document.
const STYLE: &str = "\
body{margin:0;padding:2em 0;background:#e8e8e8;font:16px/1.5 Georgia,serif;color:#222}
section{max-width:42em;margin:0 auto 2em;padding:3em 4em;background:#fff;box-shadow:0 1px 4px rgba(0,0,0,.25)}
section::before{content:\"Page \" attr(data-page);display:block;margin-bottom:1em;font:12px sans-serif;color:#888}
section:empty::after{content:\"(no text on this page)\";font-style:italic;color:#888}
h1,h2,h3,h4,h5,h6{font-family:sans-serif;line-height:1.25}
p{margin:0 0 1em}
";

/// The page's blocks, ready for HTML: its text and tag.
pub(crate) struct Rendered {
    pub html: String,
    pub elements: usize,
}

/// Writes the whole document. `pages` holds each page's blocks, in page order.
pub(crate) fn document(title: &str, pages: &[Vec<Block>]) -> Rendered {
    let levels = HeadingLevels::of(pages);
    let mut ids = Ids::default();
    let mut html = String::with_capacity(4096);
    html.push_str("<!doctype html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n");
    html.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(html, "<title>{}</title>", escape(title));
    let _ = write!(html, "<style>\n{STYLE}</style>\n</head>\n<body>\n");
    let mut elements = 0;
    for (index, blocks) in pages.iter().enumerate() {
        let _ = write!(html, "<section data-page=\"{}\">", index + 1);
        for block in blocks {
            let tag = levels.tag(block);
            let _ = write!(
                html,
                "\n<{tag} data-canon-id=\"{}\">{}</{tag}>",
                ids.fresh(),
                escape(&block.text)
            );
            elements += 1;
        }
        if !blocks.is_empty() {
            html.push('\n');
        }
        html.push_str("</section>\n");
    }
    html.push_str("</body>\n</html>\n");
    Rendered { html, elements }
}

/// Escapes text for element content and attribute values alike.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Controls other than whitespace are not allowed in HTML text.
            c if c.is_control() && !c.is_whitespace() => {}
            c => out.push(c),
        }
    }
    out
}

/// Element ids: `c` and 8 random lowercase hex digits, never twice in one document.
#[derive(Default)]
struct Ids {
    used: HashSet<u32>,
}

impl Ids {
    fn fresh(&mut self) -> String {
        loop {
            let n = fastrand::u32(..);
            if self.used.insert(n) {
                return format!("c{n:08x}");
            }
        }
    }
}

/// Which font sizes make headings, and of what level: the body size is the one most text is
/// set in; every size clearly above it is a heading, the largest `h1`, the next `h2`, ….
struct HeadingLevels {
    body: f64,
    /// Heading sizes (rounded to half points), largest first.
    sizes: Vec<i64>,
}

impl HeadingLevels {
    fn of(pages: &[Vec<Block>]) -> HeadingLevels {
        let mut weight: Vec<(i64, usize)> = Vec::new();
        for block in pages.iter().flatten() {
            let key = half_points(block.size);
            match weight.iter_mut().find(|(k, _)| *k == key) {
                Some((_, w)) => *w += block.chars,
                None => weight.push((key, block.chars)),
            }
        }
        // Ties go to the smaller size: body text is rarely the largest on the page.
        let body = weight
            .iter()
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
            .map_or(0.0, |(k, _)| *k as f64 / 2.0);
        let mut sizes: Vec<i64> = pages
            .iter()
            .flatten()
            .filter(|b| is_heading(b, body))
            .map(|b| half_points(b.size))
            .collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes.dedup();
        HeadingLevels { body, sizes }
    }

    fn tag(&self, block: &Block) -> &'static str {
        if !is_heading(block, self.body) {
            return "p";
        }
        let rank = self
            .sizes
            .iter()
            .position(|s| *s == half_points(block.size))
            .unwrap_or(0);
        ["h1", "h2", "h3", "h4", "h5", "h6"][rank.min(5)]
    }
}

fn is_heading(block: &Block, body: f64) -> bool {
    body > 0.0 && block.size >= body * HEADING_RATIO && block.chars <= HEADING_MAX_CHARS
}

fn half_points(size: f64) -> i64 {
    // Sizes come from the PDF: clamp before the cast so that a huge one cannot wrap.
    (size.clamp(0.0, 10_000.0) * 2.0).round() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(text: &str, size: f64) -> Block {
        Block {
            text: text.into(),
            size,
            chars: text.chars().count(),
        }
    }

    #[test]
    fn escaping_covers_markup_quotes_and_controls() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>\u{7}"),
            "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;"
        );
    }

    #[test]
    fn larger_sizes_become_headings_by_rank_and_the_body_stays_paragraphs() {
        let pages = vec![vec![
            block("Title", 20.0),
            block("A long paragraph of body text, longer than the rest.", 11.0),
            block("Section", 14.0),
            block("More body text.", 11.0),
            block("Slightly larger", 12.0),
        ]];
        let levels = HeadingLevels::of(&pages);
        let tags: Vec<_> = pages[0].iter().map(|b| levels.tag(b)).collect();
        assert_eq!(tags, ["h1", "p", "h2", "p", "p"]);
    }

    #[test]
    fn one_size_everywhere_gives_no_headings() {
        let pages = vec![vec![block("Short", 11.0), block("Also short", 11.0)]];
        let html = document("t", &pages).html;
        assert!(!html.contains("<h1"));
        assert_eq!(html.matches("<p data-canon-id=").count(), 2);
    }

    #[test]
    fn ids_are_unique_and_well_formed() {
        let mut ids = Ids::default();
        let all: HashSet<String> = (0..2000).map(|_| ids.fresh()).collect();
        assert_eq!(all.len(), 2000);
        assert!(all.iter().all(|id| {
            id.len() == 9
                && id.starts_with('c')
                && id[1..]
                    .chars()
                    .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
        }));
    }
}
