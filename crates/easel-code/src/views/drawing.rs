//! A view before it becomes a scene: frames that nest, text labels that belong to a frame,
//! images and arrows. Keeping the nesting lets the views be checked for what makes a picture
//! unreadable (a box outside its parent, overlapping boxes, a label over another label or over
//! a box it does not belong to), and lets edge labels be put where nothing else is.

use easel_render::{Anchor, Item, Scene, TextStyle};

/// How far above its baseline and below it a line of DejaVu Sans reaches, in ems.
const ASCENT: f32 = 0.93;
const DESCENT: f32 = 0.24;

/// An axis-aligned rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub fn new(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x, y, w, h }
    }

    pub fn right(&self) -> f32 {
        self.x + self.w
    }

    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }

    /// Whether the interiors meet; touching edges do not count.
    pub fn overlaps(&self, o: &Rect) -> bool {
        const E: f32 = 0.01;
        self.x + E < o.right()
            && o.x + E < self.right()
            && self.y + E < o.bottom()
            && o.y + E < self.bottom()
    }

    pub fn contains(&self, o: &Rect) -> bool {
        const E: f32 = 0.01;
        o.x + E >= self.x
            && o.y + E >= self.y
            && o.right() <= self.right() + E
            && o.bottom() <= self.bottom() + E
    }

    pub fn inflate(&self, by: f32) -> Rect {
        Rect::new(
            self.x - by,
            self.y - by,
            self.w + 2.0 * by,
            self.h + 2.0 * by,
        )
    }
}

/// How a frame looks.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Look {
    pub fill: &'static str,
    pub stroke: &'static str,
    pub stroke_width: f32,
    pub dashed: bool,
    pub radius: f32,
}

#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub rect: Rect,
    pub parent: Option<usize>,
    pub look: Look,
}

#[derive(Clone, Debug)]
pub(crate) struct Label {
    pub x: f32,
    pub baseline: f32,
    pub text: String,
    pub style: TextStyle,
    pub color: &'static str,
    pub anchor: Anchor,
    /// The frame the label is written in; `None` for labels on the background.
    pub owner: Option<usize>,
    /// Drawn on a white pill, for labels that sit on arrows.
    pub pill: bool,
}

impl Label {
    pub fn rect(&self) -> Rect {
        let w = self.style.width(&self.text);
        let x = match self.anchor {
            Anchor::Start => self.x,
            Anchor::Middle => self.x - w / 2.0,
            Anchor::End => self.x - w,
        };
        let top = self.baseline - ASCENT * self.style.size;
        Rect::new(x, top, w, (ASCENT + DESCENT) * self.style.size)
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Picture {
    pub rect: Rect,
    pub owner: Option<usize>,
    pub png: Vec<u8>,
}

#[derive(Clone, Debug)]
pub(crate) struct Arrow {
    pub points: Vec<(f32, f32)>,
    pub color: &'static str,
    pub width: f32,
}

/// Everything a view draws, in drawing order per kind: frames, then arrows, then pictures,
/// then labels.
#[derive(Clone, Debug, Default)]
pub(crate) struct Drawing {
    pub width: f32,
    pub height: f32,
    pub frames: Vec<Frame>,
    pub labels: Vec<Label>,
    pub pictures: Vec<Picture>,
    pub arrows: Vec<Arrow>,
}

/// The height of one line of `style` text.
pub(crate) fn line(style: TextStyle) -> f32 {
    style.line_height()
}

impl Drawing {
    pub fn frame(&mut self, rect: Rect, parent: Option<usize>, look: Look) -> usize {
        self.frames.push(Frame { rect, parent, look });
        self.frames.len() - 1
    }

    /// One line of text whose top is at `top`, cut with `…` to `max_width`; returns the top
    /// of the next line.
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        owner: Option<usize>,
        x: f32,
        top: f32,
        text: &str,
        style: TextStyle,
        color: &'static str,
        max_width: f32,
    ) -> f32 {
        let text = style.truncate(text, max_width.max(style.size));
        self.labels.push(Label {
            x,
            baseline: top + baseline_offset(style),
            text,
            style,
            color,
            anchor: Anchor::Start,
            owner,
            pill: false,
        });
        top + line(style)
    }

    pub fn arrow(&mut self, points: Vec<(f32, f32)>, color: &'static str, width: f32) {
        if points.len() >= 2 {
            self.arrows.push(Arrow {
                points,
                color,
                width,
            });
        }
    }

    /// Puts `text` on the route where it covers no frame and no other label: the middle of
    /// the route first, then further towards either end. Returns whether a place was found.
    pub fn edge_label(
        &mut self,
        route: &[(f32, f32)],
        text: &str,
        style: TextStyle,
        color: &'static str,
    ) -> bool {
        let lengths: Vec<f32> = route
            .windows(2)
            .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
            .collect();
        let total: f32 = lengths.iter().sum();
        if total <= 0.0 {
            return false;
        }
        for t in [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.12, 0.88] {
            let (mut x, mut y) = route[0];
            let mut left = total * t;
            for (w, len) in route.windows(2).zip(&lengths) {
                if left <= *len && *len > 0.0 {
                    let f = left / len;
                    x = w[0].0 + (w[1].0 - w[0].0) * f;
                    y = w[0].1 + (w[1].1 - w[0].1) * f;
                    break;
                }
                left -= len;
            }
            let label = Label {
                x,
                baseline: y + (ASCENT - DESCENT) * style.size / 2.0,
                text: text.to_owned(),
                style,
                color,
                anchor: Anchor::Middle,
                owner: None,
                pill: true,
            };
            let r = label.rect().inflate(3.0);
            let inside =
                r.x >= 0.0 && r.y >= 0.0 && r.right() <= self.width && r.bottom() <= self.height;
            let free = inside
                && !self.frames.iter().any(|f| f.rect.overlaps(&r))
                && !self.labels.iter().any(|l| l.rect().overlaps(&r));
            if free {
                self.labels.push(label);
                return true;
            }
        }
        false
    }

    pub fn to_scene(&self) -> Scene {
        let mut scene = Scene::new(self.width, self.height);
        scene.background = "#fbfbfd".into();
        for f in &self.frames {
            scene.push(Item::Rect {
                x: f.rect.x,
                y: f.rect.y,
                width: f.rect.w,
                height: f.rect.h,
                radius: f.look.radius,
                fill: Some(f.look.fill.to_owned()),
                stroke: Some(f.look.stroke.to_owned()),
                stroke_width: f.look.stroke_width,
                dashed: f.look.dashed,
            });
        }
        for a in &self.arrows {
            scene.push(Item::Path {
                points: a.points.clone(),
                curved: false,
                stroke: a.color.to_owned(),
                stroke_width: a.width,
                arrow_start: false,
                arrow_end: true,
            });
        }
        for p in &self.pictures {
            scene.push(Item::Rect {
                x: p.rect.x,
                y: p.rect.y,
                width: p.rect.w,
                height: p.rect.h,
                radius: 0.0,
                fill: Some("#ffffff".into()),
                stroke: Some("#c8c8d0".into()),
                stroke_width: 1.0,
                dashed: false,
            });
            scene.push(Item::Image {
                x: p.rect.x,
                y: p.rect.y,
                width: p.rect.w,
                height: p.rect.h,
                png: p.png.clone(),
            });
        }
        for l in &self.labels {
            if l.pill {
                let r = l.rect().inflate(2.0);
                scene.push(Item::Rect {
                    x: r.x,
                    y: r.y,
                    width: r.w,
                    height: r.h,
                    radius: 4.0,
                    fill: Some("#ffffff".into()),
                    stroke: None,
                    stroke_width: 0.0,
                    dashed: false,
                });
            }
            scene.push(Item::Text {
                x: l.x,
                y: l.baseline,
                text: l.text.clone(),
                style: l.style,
                color: l.color.to_owned(),
                anchor: l.anchor,
            });
        }
        scene
    }

    /// Whether `a` is `b` or one of its ancestors.
    fn is_self_or_ancestor(&self, a: usize, mut b: usize) -> bool {
        loop {
            if a == b {
                return true;
            }
            match self.frames.get(b).and_then(|f| f.parent) {
                Some(p) => b = p,
                None => return false,
            }
        }
    }

    /// What would make the picture unreadable, one sentence per problem; empty when none.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let page = Rect::new(0.0, 0.0, self.width, self.height);
        for (i, f) in self.frames.iter().enumerate() {
            if !page.contains(&f.rect) {
                out.push(format!("frame {i} {:?} is outside the picture", f.rect));
            }
            if let Some(p) = f.parent
                && !self.frames[p].rect.contains(&f.rect)
            {
                out.push(format!("frame {i} is outside its parent {p}"));
            }
            for (j, g) in self.frames.iter().enumerate().skip(i + 1) {
                if f.parent == g.parent && f.rect.overlaps(&g.rect) {
                    out.push(format!(
                        "frames {i} and {j} overlap: {:?} {:?}",
                        f.rect, g.rect
                    ));
                }
            }
        }
        let mut items: Vec<(String, Rect, Option<usize>)> = self
            .labels
            .iter()
            .map(|l| (format!("label {:?}", l.text), l.rect(), l.owner))
            .collect();
        items.extend(
            self.pictures
                .iter()
                .enumerate()
                .map(|(i, p)| (format!("picture {i}"), p.rect, p.owner)),
        );
        for (i, (name, r, owner)) in items.iter().enumerate() {
            if !page.contains(r) {
                out.push(format!("{name} is outside the picture"));
            }
            if let Some(o) = owner
                && !self.frames[*o].rect.contains(r)
            {
                out.push(format!("{name} is outside its frame {o}"));
            }
            for (k, f) in self.frames.iter().enumerate() {
                let own = owner.is_some_and(|o| self.is_self_or_ancestor(k, o));
                if !own && f.rect.overlaps(r) {
                    out.push(format!("{name} covers frame {k}"));
                }
            }
            for (other, q, _) in &items[i + 1..] {
                if r.overlaps(q) {
                    out.push(format!("{name} overlaps {other}"));
                }
            }
        }
        out
    }
}

/// Where the baseline sits below the top of a line box.
pub(crate) fn baseline_offset(style: TextStyle) -> f32 {
    (style.line_height() - (ASCENT + DESCENT) * style.size) / 2.0 + ASCENT * style.size
}

#[cfg(test)]
mod tests {
    use super::*;

    fn look() -> Look {
        Look {
            fill: "#fff",
            stroke: "#000",
            stroke_width: 1.0,
            dashed: false,
            radius: 0.0,
        }
    }

    #[test]
    fn problems_name_overlaps_and_escapes() {
        let mut d = Drawing {
            width: 300.0,
            height: 200.0,
            ..Drawing::default()
        };
        let a = d.frame(Rect::new(10.0, 10.0, 100.0, 100.0), None, look());
        d.text(
            Some(a),
            14.0,
            14.0,
            "inside",
            TextStyle::regular(12.0),
            "#000",
            90.0,
        );
        assert!(d.problems().is_empty(), "{:?}", d.problems());
        d.frame(Rect::new(50.0, 50.0, 100.0, 100.0), None, look());
        d.frame(Rect::new(5.0, 5.0, 20.0, 20.0), Some(a), look());
        d.text(
            None,
            20.0,
            40.0,
            "on top",
            TextStyle::regular(12.0),
            "#000",
            90.0,
        );
        let p = d.problems();
        assert!(
            p.iter().any(|p| p.contains("frames 0 and 1 overlap")),
            "{p:?}"
        );
        assert!(p.iter().any(|p| p.contains("outside its parent")), "{p:?}");
        assert!(
            p.iter().any(|p| p.contains("\"on top\" covers frame 0")),
            "{p:?}"
        );
    }

    #[test]
    fn edge_labels_avoid_frames_and_labels() {
        let mut d = Drawing {
            width: 300.0,
            height: 300.0,
            ..Drawing::default()
        };
        // A box over the middle of the route pushes the label towards an end.
        d.frame(Rect::new(0.0, 120.0, 300.0, 60.0), None, look());
        let route = [(150.0, 10.0), (150.0, 290.0)];
        assert!(d.edge_label(&route, "3", TextStyle::regular(11.0), "#000"));
        assert!(d.edge_label(&route, "4", TextStyle::regular(11.0), "#000"));
        assert!(d.problems().is_empty(), "{:?}", d.problems());
        let full = Rect::new(0.0, 0.0, 300.0, 300.0);
        d.frame(full, None, look());
        assert!(!d.edge_label(&route, "5", TextStyle::regular(11.0), "#000"));
    }
}
