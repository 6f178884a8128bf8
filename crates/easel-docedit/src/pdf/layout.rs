//! From positioned glyphs to lines, and from lines to paragraphs and headings.
//!
//! Works in PDF user space (y grows upwards). Lines are kept in the order the page's content
//! stream draws them: producers draw in reading order far more often than a geometric sort would
//! recover it (a geometric sort interleaves the lines of two columns).

/// One glyph as the PDF draws it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Glyph {
    /// Left end of the glyph's baseline.
    pub x: f64,
    /// The baseline's height.
    pub y: f64,
    /// How far the pen moves after it.
    pub advance: f64,
    /// The rendered font size (the `Tf` size scaled by the text matrix).
    pub size: f64,
    /// The text it stands for (usually one character, sometimes a ligature's several).
    pub text: String,
}

/// One line of text on the page.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Line {
    pub text: String,
    /// Where the line starts.
    pub x: f64,
    /// Where the last glyph ends.
    pub x_end: f64,
    pub y: f64,
    /// The largest font size on the line.
    pub size: f64,
}

/// A paragraph or heading, before ids and HTML.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Block {
    pub text: String,
    /// The font size of its first line (headings are told by it).
    pub size: f64,
    /// How many characters it holds (the weight of its size when finding the body size).
    pub chars: usize,
}

/// Glyphs closer to the baseline than this fraction of the font size share a line.
const SAME_LINE: f64 = 0.5;
/// A horizontal gap wider than this many font sizes starts a new line (another column).
const COLUMN_GAP: f64 = 3.0;
/// A gap wider than this fraction of the font size between glyphs is a word break.
const WORD_GAP: f64 = 0.15;

/// Groups glyphs into lines, in drawing order.
pub(crate) fn lines(glyphs: &[Glyph]) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let mut current: Option<Line> = None;
    for g in glyphs {
        if !(g.x.is_finite() && g.y.is_finite() && g.size.is_finite() && g.advance.is_finite()) {
            continue;
        }
        let size = g.size.abs().max(0.1);
        let text: String = g.text.chars().filter(|c| !c.is_control()).collect();
        if text.is_empty() {
            continue;
        }
        if let Some(line) = current.as_mut() {
            let tolerance = SAME_LINE * size.max(line.size);
            let gap = g.x - line.x_end;
            let continues = (g.y - line.y).abs() <= tolerance
                && gap > -size
                && gap < COLUMN_GAP * size.max(line.size);
            if continues {
                if gap > WORD_GAP * size && !line.text.ends_with(' ') && !text.starts_with(' ') {
                    line.text.push(' ');
                }
                line.text.push_str(&text);
                line.x_end = line.x_end.max(g.x + g.advance);
                line.size = line.size.max(size);
                continue;
            }
        }
        if let Some(done) = current.take() {
            push_line(&mut out, done);
        }
        current = Some(Line {
            text,
            x: g.x,
            x_end: g.x + g.advance,
            y: g.y,
            size,
        });
    }
    if let Some(done) = current {
        push_line(&mut out, done);
    }
    out
}

/// Keeps a line unless it is only blanks, with its whitespace runs collapsed.
fn push_line(out: &mut Vec<Line>, mut line: Line) {
    let collapsed = line.text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.is_empty() {
        return;
    }
    line.text = collapsed;
    out.push(line);
}

/// Groups lines into blocks: a new block starts where the vertical gap is wider than the
/// page's usual line spacing, where the text moves up or sideways (another column), where the
/// font size changes, or where a line is indented against the one before it.
pub(crate) fn blocks(lines: &[Line]) -> Vec<Block> {
    let leading = usual_leading(lines);
    let mut out: Vec<Block> = Vec::new();
    let mut prev: Option<&Line> = None;
    for line in lines {
        let joins = prev.is_some_and(|p| continues_paragraph(p, line, leading));
        match out.last_mut() {
            Some(block) if joins => {
                join_line(&mut block.text, &line.text);
                block.chars += line.text.chars().count();
            }
            _ => out.push(Block {
                text: line.text.clone(),
                size: line.size,
                chars: line.text.chars().count(),
            }),
        }
        prev = Some(line);
    }
    out
}

/// The page's ordinary distance between two lines of one paragraph: the median step down
/// between consecutive lines of one size, capped so that a page made only of one-line
/// paragraphs (whose every step is a paragraph gap) still shows its gaps.
fn usual_leading(lines: &[Line]) -> f64 {
    let mut steps: Vec<f64> = lines
        .windows(2)
        .filter(|w| (w[0].size - w[1].size).abs() < 0.5)
        .map(|w| (w[0].y - w[1].y) / w[1].size)
        .filter(|s| *s > 0.0 && s.is_finite())
        .collect();
    if steps.is_empty() {
        return 1.2;
    }
    steps.sort_by(f64::total_cmp);
    steps[steps.len() / 2].clamp(1.0, 1.6)
}

fn continues_paragraph(prev: &Line, line: &Line, leading: f64) -> bool {
    let size = line.size;
    let step = prev.y - line.y;
    let same_size = (prev.size - size).abs() <= 0.15 * size;
    let below = step > 0.0 && step <= leading * size * 1.3 + 0.5;
    // A first-line indent starts a paragraph; a line back at the margin after one does not.
    let indented = line.x > prev.x + 1.5 * size;
    let elsewhere = line.x < prev.x - 1.5 * size && line.x_end < prev.x;
    same_size && below && !indented && !elsewhere
}

/// Appends a line to a paragraph, undoing a hyphenation where it is safe: the first line ends
/// in a letter and a hyphen and the next begins with a lowercase letter ("impor-" + "tant").
/// A soft hyphen always goes. A hyphen before a capital or a digit is kept, without a space
/// ("Jean-" + "Paul"). A compound split at its hyphen before a lowercase word ("well-" +
/// "known") loses the hyphen: without a dictionary it cannot be told from a hyphenation.
fn join_line(text: &mut String, next: &str) {
    if text.ends_with('\u{ad}') {
        text.pop();
        text.push_str(next);
        return;
    }
    let mut tail = text.chars().rev();
    let hyphen = tail.next() == Some('-');
    let after_letter = tail.next().is_some_and(char::is_alphabetic);
    if hyphen && after_letter {
        if next.chars().next().is_some_and(char::is_lowercase) {
            text.pop();
        }
    } else {
        text.push(' ');
    }
    text.push_str(next);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glyphs(text: &str, x: f64, y: f64, size: f64) -> Vec<Glyph> {
        let w = size * 0.5;
        text.chars()
            .enumerate()
            .map(|(i, c)| Glyph {
                x: x + i as f64 * w,
                y,
                advance: w,
                size,
                text: c.to_string(),
            })
            .collect()
    }

    fn line(text: &str, x: f64, y: f64, size: f64) -> Line {
        Line {
            text: text.into(),
            x,
            x_end: x + text.len() as f64 * size * 0.5,
            y,
            size,
        }
    }

    #[test]
    fn glyphs_on_one_baseline_make_one_line_with_word_gaps_as_spaces() {
        let mut g = glyphs("Hello", 72.0, 700.0, 10.0);
        g.extend(glyphs("world", 72.0 + 5.0 * 5.0 + 3.0, 700.2, 10.0));
        let l = lines(&g);
        assert_eq!(l.len(), 1);
        assert_eq!(l[0].text, "Hello world");
    }

    #[test]
    fn a_far_glyph_on_the_same_baseline_starts_another_line() {
        let mut g = glyphs("left", 72.0, 700.0, 10.0);
        g.extend(glyphs("right", 300.0, 700.0, 10.0));
        let texts: Vec<_> = lines(&g).into_iter().map(|l| l.text).collect();
        assert_eq!(texts, ["left", "right"]);
    }

    #[test]
    fn non_finite_and_blank_glyphs_are_dropped() {
        let mut g = glyphs("ab", 72.0, 700.0, 10.0);
        g[1].x = f64::NAN;
        g.extend(glyphs("   ", 72.0, 600.0, 10.0));
        let texts: Vec<_> = lines(&g).into_iter().map(|l| l.text).collect();
        assert_eq!(texts, ["a"]);
    }

    #[test]
    fn a_wider_gap_separates_paragraphs_and_hyphens_are_undone() {
        let l = [
            line("It is an impor-", 72.0, 700.0, 10.0),
            line("tant letter.", 72.0, 688.0, 10.0),
            line("Jean-", 72.0, 676.0, 10.0),
            line("Paul came -", 72.0, 664.0, 10.0),
            line("late.", 72.0, 652.0, 10.0),
            line("Next one.", 72.0, 628.0, 10.0),
        ];
        let texts: Vec<_> = blocks(&l).into_iter().map(|b| b.text).collect();
        assert_eq!(
            texts,
            [
                "It is an important letter. Jean-Paul came - late.",
                "Next one."
            ]
        );
    }

    #[test]
    fn a_size_change_or_an_upward_jump_starts_a_block() {
        let l = [
            line("Title", 72.0, 760.0, 20.0),
            line("Body text here", 72.0, 735.0, 10.0),
            line("more body", 72.0, 723.0, 10.0),
            line("Right column", 300.0, 735.0, 10.0),
        ];
        let b = blocks(&l);
        let texts: Vec<_> = b.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(texts, ["Title", "Body text here more body", "Right column"]);
        assert_eq!(b[0].size, 20.0);
    }

    #[test]
    fn one_line_paragraphs_with_gaps_stay_apart() {
        let l = [
            line("One.", 72.0, 700.0, 10.0),
            line("Two.", 72.0, 676.0, 10.0),
            line("Three.", 72.0, 652.0, 10.0),
        ];
        assert_eq!(blocks(&l).len(), 3);
    }

    #[test]
    fn a_first_line_indent_starts_a_paragraph() {
        let l = [
            line("First paragraph", 72.0, 700.0, 10.0),
            line("ends here.", 72.0, 688.0, 10.0),
            line("Indented start", 92.0, 676.0, 10.0),
            line("of the second.", 72.0, 664.0, 10.0),
        ];
        let texts: Vec<_> = blocks(&l).into_iter().map(|b| b.text).collect();
        assert_eq!(
            texts,
            [
                "First paragraph ends here.",
                "Indented start of the second."
            ]
        );
    }

    #[test]
    fn a_soft_hyphen_is_always_removed() {
        let mut t = String::from("Ver\u{ad}");
        join_line(&mut t, "Kauf");
        assert_eq!(t, "VerKauf");
    }
}
