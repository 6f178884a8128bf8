//! The bundled font and text measurement.
//!
//! Layout needs to know how wide a label is before anything is drawn, and the rasterizer must
//! draw with the very font that was measured, or labels overflow their boxes. So both use the
//! DejaVu Sans faces compiled into this crate, never a system font.

use std::sync::OnceLock;

/// The family name every scene uses; the rasterizer maps any other name to it too.
pub const FAMILY: &str = "DejaVu Sans";

pub(crate) static REGULAR: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
pub(crate) static BOLD: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");

/// Horizontal advances of one face, in em units, with a fast path for ASCII.
struct Metrics {
    ascii: [f32; 128],
    face: ttf_parser::Face<'static>,
    fallback: f32,
}

impl Metrics {
    fn load(data: &'static [u8]) -> Metrics {
        // The font is part of the binary, so failing to parse it is a build defect.
        let face = match ttf_parser::Face::parse(data, 0) {
            Ok(face) => face,
            Err(e) => unreachable!("bundled font does not parse: {e}"),
        };
        let upem = f32::from(face.units_per_em());
        let advance = |c: char| {
            face.glyph_index(c)
                .and_then(|g| face.glyph_hor_advance(g))
                .map(|a| f32::from(a) / upem)
        };
        let fallback = advance('M').unwrap_or(0.6);
        let mut ascii = [fallback; 128];
        for (i, slot) in ascii.iter_mut().enumerate() {
            if let Some(a) = char::from_u32(i as u32).and_then(advance) {
                *slot = a;
            }
        }
        Metrics {
            ascii,
            face,
            fallback,
        }
    }

    fn advance(&self, c: char) -> f32 {
        if let Some(a) = self.ascii.get(c as usize) {
            return *a;
        }
        let upem = f32::from(self.face.units_per_em());
        self.face
            .glyph_index(c)
            .and_then(|g| self.face.glyph_hor_advance(g))
            .map_or(self.fallback, |a| f32::from(a) / upem)
    }
}

fn metrics(bold: bool) -> &'static Metrics {
    static REG: OnceLock<Metrics> = OnceLock::new();
    static BLD: OnceLock<Metrics> = OnceLock::new();
    if bold {
        BLD.get_or_init(|| Metrics::load(BOLD))
    } else {
        REG.get_or_init(|| Metrics::load(REGULAR))
    }
}

/// A font size and weight, the unit of measurement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextStyle {
    pub size: f32,
    pub bold: bool,
}

impl TextStyle {
    pub const fn regular(size: f32) -> TextStyle {
        TextStyle { size, bold: false }
    }

    pub const fn bold(size: f32) -> TextStyle {
        TextStyle { size, bold: true }
    }

    /// The width of `text` on one line, in pixels.
    pub fn width(self, text: &str) -> f32 {
        let m = metrics(self.bold);
        text.chars().map(|c| m.advance(c)).sum::<f32>() * self.size
    }

    /// The distance between baselines.
    pub fn line_height(self) -> f32 {
        (self.size * 1.3).ceil()
    }

    /// `text` cut to fit `max_width`, ending in `…` when something was cut.
    pub fn truncate(self, text: &str, max_width: f32) -> String {
        if self.width(text) <= max_width {
            return text.to_owned();
        }
        let m = metrics(self.bold);
        let budget = max_width / self.size - m.advance('…');
        let mut used = 0.0;
        let mut out = String::new();
        for c in text.chars() {
            used += m.advance(c);
            if used > budget {
                break;
            }
            out.push(c);
        }
        let kept = out.trim_end().len();
        out.truncate(kept);
        out.push('…');
        out
    }

    /// `text` broken into lines no wider than `max_width`, at spaces where possible and
    /// inside long words otherwise; at most `max_lines`, the last one cut with `…` when text
    /// remains. Newlines in `text` are kept.
    pub fn wrap(self, text: &str, max_width: f32, max_lines: usize) -> Vec<String> {
        let mut lines = Vec::new();
        'paragraphs: for paragraph in text.lines() {
            let mut line = String::new();
            for word in paragraph.split(' ') {
                let candidate = if line.is_empty() {
                    word.to_owned()
                } else {
                    format!("{line} {word}")
                };
                if self.width(&candidate) <= max_width {
                    line = candidate;
                    continue;
                }
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                    if lines.len() > max_lines {
                        break 'paragraphs;
                    }
                }
                // A word wider than the line is split where it overflows.
                let mut rest = word;
                while self.width(rest) > max_width {
                    let cut = self.fit_prefix(rest, max_width);
                    lines.push(rest[..cut].to_owned());
                    rest = &rest[cut..];
                    if lines.len() > max_lines {
                        break 'paragraphs;
                    }
                }
                line = rest.to_owned();
            }
            lines.push(line);
            if lines.len() > max_lines {
                break;
            }
        }
        if lines.len() > max_lines {
            lines.truncate(max_lines);
            if let Some(last) = lines.last_mut() {
                *last = self.truncate(&format!("{last}…"), max_width);
            }
        }
        lines
    }

    /// The byte length of the longest prefix of `text` that fits `max_width` (at least one
    /// character, so wrapping always advances).
    fn fit_prefix(self, text: &str, max_width: f32) -> usize {
        let m = metrics(self.bold);
        let budget = max_width / self.size;
        let mut used = 0.0;
        for (i, c) in text.char_indices() {
            used += m.advance(c);
            if used > budget {
                return if i == 0 { c.len_utf8() } else { i };
            }
        }
        text.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_grow_with_text_size_and_weight() {
        let s = TextStyle::regular(12.0);
        assert_eq!(s.width(""), 0.0);
        assert!(s.width("iii") < s.width("MMM"));
        assert!((TextStyle::regular(24.0).width("abc") - 2.0 * s.width("abc")).abs() < 0.01);
        assert!(TextStyle::bold(12.0).width("abc") > s.width("abc"));
        assert!(
            s.width("日本") > 0.0,
            "characters outside ASCII are measured"
        );
    }

    #[test]
    fn truncation_fits_and_marks_the_cut() {
        let s = TextStyle::regular(12.0);
        let long = "process_incoming_request_with_retries";
        let cut = s.truncate(long, 100.0);
        assert!(cut.ends_with('…'), "{cut}");
        assert!(s.width(&cut) <= 100.0, "{cut}");
        assert_eq!(s.truncate("short", 100.0), "short");
    }

    #[test]
    fn wrapping_keeps_every_word_within_the_width() {
        let s = TextStyle::regular(12.0);
        let text = "The quick brown fox jumps over the lazy dog and a_very_long_identifier_that_cannot_fit_on_one_line";
        let lines = s.wrap(text, 120.0, 20);
        assert!(lines.len() > 3, "{lines:?}");
        for l in &lines {
            assert!(s.width(l) <= 120.0, "{l}");
        }
        assert_eq!(lines.concat().replace(' ', ""), text.replace(' ', ""));
        let capped = s.wrap(text, 120.0, 2);
        assert_eq!(capped.len(), 2);
        assert!(capped[1].ends_with('…'));
        assert_eq!(s.wrap("a\nb", 120.0, 5), ["a", "b"]);
    }
}
