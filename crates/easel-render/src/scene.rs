//! A scene: what to draw, in drawing order, and its SVG text.

use crate::font::{FAMILY, TextStyle};
use base64::Engine as _;
use std::fmt::Write;

/// A colour as `#rrggbb` or `#rrggbbaa`, or any SVG colour keyword.
pub type Color = String;

/// How a text line sits on its `x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    fn as_svg(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// One thing to draw.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Rect {
        x: f32,
        y: f32,
        width: f32,
        height: f32,
        radius: f32,
        fill: Option<Color>,
        stroke: Option<Color>,
        stroke_width: f32,
        /// Dashed outline, for groups and other frames.
        dashed: bool,
    },
    /// One line of text; `y` is the baseline.
    Text {
        x: f32,
        y: f32,
        text: String,
        style: TextStyle,
        color: Color,
        anchor: Anchor,
    },
    /// A polyline or, with `curved`, a smooth curve through the points; arrowheads at either end.
    Path {
        points: Vec<(f32, f32)>,
        curved: bool,
        stroke: Color,
        stroke_width: f32,
        arrow_start: bool,
        arrow_end: bool,
    },
    /// A raster image (for thumbnails), as PNG bytes.
    Image {
        x: f32,
        y: f32,
        width: f32,
        height: f32,
        png: Vec<u8>,
    },
}

/// A picture of a given size on a background.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub width: f32,
    pub height: f32,
    pub background: Color,
    pub items: Vec<Item>,
}

impl Scene {
    pub fn new(width: f32, height: f32) -> Scene {
        Scene {
            width,
            height,
            background: "#ffffff".into(),
            items: Vec::new(),
        }
    }

    pub fn push(&mut self, item: Item) {
        self.items.push(item);
    }

    /// A rounded, outlined box.
    pub fn boxed(&mut self, x: f32, y: f32, width: f32, height: f32, fill: &str, stroke: &str) {
        self.push(Item::Rect {
            x,
            y,
            width,
            height,
            radius: 6.0,
            fill: Some(fill.to_owned()),
            stroke: Some(stroke.to_owned()),
            stroke_width: 1.5,
            dashed: false,
        });
    }

    /// One line of text.
    pub fn text(&mut self, x: f32, y: f32, text: &str, style: TextStyle, color: &str) {
        self.push(Item::Text {
            x,
            y,
            text: text.to_owned(),
            style,
            color: color.to_owned(),
            anchor: Anchor::Start,
        });
    }

    /// Lines of text from a top-left corner; returns the y below the last line.
    pub fn lines(
        &mut self,
        x: f32,
        top: f32,
        lines: &[String],
        style: TextStyle,
        color: &str,
    ) -> f32 {
        let mut baseline = top + style.size;
        for line in lines {
            self.text(x, baseline, line, style, color);
            baseline += style.line_height();
        }
        baseline - style.size
    }

    /// An arrow along `points`.
    pub fn arrow(&mut self, points: Vec<(f32, f32)>, stroke: &str, curved: bool) {
        self.push(Item::Path {
            points,
            curved,
            stroke: stroke.to_owned(),
            stroke_width: 1.5,
            arrow_start: false,
            arrow_end: true,
        });
    }

    /// The scene as an SVG document. Numbers are rounded to 0.1 px so that the output is
    /// stable across platforms and small enough to diff.
    pub fn to_svg(&self) -> String {
        let mut out = String::with_capacity(256 + self.items.len() * 160);
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FAMILY}">"#,
            w = n(self.width),
            h = n(self.height),
        );
        out.push('\n');
        let mut markers = Vec::new();
        for item in &self.items {
            if let Item::Path { stroke, .. } = item
                && !markers.contains(stroke)
            {
                markers.push(stroke.clone());
            }
        }
        if !markers.is_empty() {
            out.push_str("<defs>");
            for (i, color) in markers.iter().enumerate() {
                let _ = write!(
                    out,
                    r#"<marker id="a{i}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="{}"/></marker>"#,
                    attr(color)
                );
            }
            out.push_str("</defs>\n");
        }
        let _ = writeln!(
            out,
            r#"<rect width="100%" height="100%" fill="{}"/>"#,
            attr(&self.background)
        );
        for item in &self.items {
            write_item(&mut out, item, &markers);
        }
        out.push_str("</svg>\n");
        out
    }
}

fn write_item(out: &mut String, item: &Item, markers: &[Color]) {
    match item {
        Item::Rect {
            x,
            y,
            width,
            height,
            radius,
            fill,
            stroke,
            stroke_width,
            dashed,
        } => {
            let _ = write!(
                out,
                r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{}""#,
                n(*x),
                n(*y),
                n(width.max(0.0)),
                n(height.max(0.0)),
                n(*radius),
                fill.as_deref().map_or("none".into(), attr),
            );
            if let Some(stroke) = stroke {
                let _ = write!(
                    out,
                    r#" stroke="{}" stroke-width="{}""#,
                    attr(stroke),
                    n(*stroke_width)
                );
                if *dashed {
                    out.push_str(r#" stroke-dasharray="6 4""#);
                }
            }
            out.push_str("/>\n");
        }
        Item::Text {
            x,
            y,
            text,
            style,
            color,
            anchor,
        } => {
            let _ = write!(
                out,
                r#"<text x="{}" y="{}" font-size="{}" fill="{}""#,
                n(*x),
                n(*y),
                n(style.size),
                attr(color)
            );
            if style.bold {
                out.push_str(r#" font-weight="bold""#);
            }
            if *anchor != Anchor::Start {
                let _ = write!(out, r#" text-anchor="{}""#, anchor.as_svg());
            }
            // Keep runs of spaces, which SVG would otherwise collapse.
            let _ = writeln!(out, r#" xml:space="preserve">{}</text>"#, escape(text));
        }
        Item::Path {
            points,
            curved,
            stroke,
            stroke_width,
            arrow_start,
            arrow_end,
        } => {
            let Some(((x0, y0), rest)) = points.split_first() else {
                return;
            };
            let mut d = format!("M{},{}", n(*x0), n(*y0));
            if *curved && points.len() == 4 {
                let _ = write!(
                    d,
                    "C{},{} {},{} {},{}",
                    n(rest[0].0),
                    n(rest[0].1),
                    n(rest[1].0),
                    n(rest[1].1),
                    n(rest[2].0),
                    n(rest[2].1)
                );
            } else {
                for (x, y) in rest {
                    let _ = write!(d, "L{},{}", n(*x), n(*y));
                }
            }
            let marker = markers.iter().position(|m| m == stroke).unwrap_or(0);
            let _ = write!(
                out,
                r#"<path d="{d}" fill="none" stroke="{}" stroke-width="{}""#,
                attr(stroke),
                n(*stroke_width)
            );
            if *arrow_start {
                let _ = write!(out, r#" marker-start="url(#a{marker})""#);
            }
            if *arrow_end {
                let _ = write!(out, r#" marker-end="url(#a{marker})""#);
            }
            out.push_str("/>\n");
        }
        Item::Image {
            x,
            y,
            width,
            height,
            png,
        } => {
            let _ = writeln!(
                out,
                r#"<image x="{}" y="{}" width="{}" height="{}" href="data:image/png;base64,{}"/>"#,
                n(*x),
                n(*y),
                n(*width),
                n(*height),
                base64::engine::general_purpose::STANDARD.encode(png)
            );
        }
    }
}

/// A number with at most one decimal, without a trailing `.0`.
fn n(v: f32) -> String {
    let v = if v.is_finite() { v } else { 0.0 };
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn attr(value: &str) -> String {
    escape(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(n(10.0), "10");
        assert_eq!(n(10.04), "10");
        assert_eq!(n(10.06), "10.1");
        assert_eq!(n(-3.5), "-3.5");
        assert_eq!(n(f32::NAN), "0");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot; ");
    }

    #[test]
    fn arrows_share_one_marker_per_colour() {
        let mut s = Scene::new(100.0, 50.0);
        s.arrow(vec![(0.0, 0.0), (10.0, 10.0)], "#333333", false);
        s.arrow(vec![(0.0, 0.0), (20.0, 10.0)], "#333333", false);
        s.arrow(vec![(0.0, 0.0), (30.0, 10.0)], "#ff0000", false);
        let svg = s.to_svg();
        assert_eq!(svg.matches("<marker ").count(), 2);
        assert_eq!(svg.matches(r##"marker-end="url(#a1)""##).count(), 1);
    }
}
