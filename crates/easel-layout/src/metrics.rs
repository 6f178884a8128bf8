//! How good a drawing is, measured the way JSON Canvas draws it: every edge a straight line
//! from the middle of one side of a box to the middle of a side of another.

use easel_canvas::{Rect, Side};
use serde::Serialize;

/// Layout quality. Lower is better for all of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub struct Metrics {
    /// Pairs of edges that cross (edges sharing a box do not count).
    pub crossings: usize,
    /// Edges whose line passes through a box that is not one of its ends (groups excluded).
    pub edge_node_overlaps: usize,
    /// Pairs of boxes that overlap, other than a group and what lies inside it.
    pub node_overlaps: usize,
    /// Total length of the edge lines, in pixels.
    pub edge_length: f64,
    /// Area of the bounding box of all boxes, in square pixels.
    pub area: f64,
}

/// A box as metrics see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MBox {
    pub rect: Rect,
    pub group: bool,
}

/// An edge between two boxes, by index, leaving and entering at the given sides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MEdge {
    pub from: usize,
    pub to: usize,
    pub from_side: Side,
    pub to_side: Side,
}

/// The middle of one side of a rectangle, where JSON Canvas attaches an edge.
pub fn anchor(r: &Rect, side: Side) -> (f64, f64) {
    let (cx, cy) = r.center();
    match side {
        Side::Top => (cx, r.y),
        Side::Bottom => (cx, r.bottom()),
        Side::Left => (r.x, cy),
        Side::Right => (r.right(), cy),
    }
}

pub(crate) type Seg = ((f64, f64), (f64, f64));

fn orient(a: (f64, f64), b: (f64, f64), c: (f64, f64)) -> f64 {
    (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
}

/// True when two segments cross at a point inside both (touching ends do not count).
pub(crate) fn cross(s: Seg, t: Seg) -> bool {
    let d1 = orient(t.0, t.1, s.0);
    let d2 = orient(t.0, t.1, s.1);
    let d3 = orient(s.0, s.1, t.0);
    let d4 = orient(s.0, s.1, t.1);
    ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
}

/// True when the segment passes through the inside of `r` (Liang–Barsky clipping against the
/// rectangle shrunk by a pixel, so grazing a border does not count).
pub fn segment_hits(s: Seg, r: &Rect) -> bool {
    let (x0, y0, x1, y1) = (r.x + 1.0, r.y + 1.0, r.right() - 1.0, r.bottom() - 1.0);
    if x1 <= x0 || y1 <= y0 {
        return false;
    }
    let (dx, dy) = (s.1.0 - s.0.0, s.1.1 - s.0.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, s.0.0 - x0),
        (dx, x1 - s.0.0),
        (-dy, s.0.1 - y0),
        (dy, y1 - s.0.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    t1 - t0 > 1e-9
}

/// Measures a drawing.
pub fn measure(boxes: &[MBox], edges: &[MEdge]) -> Metrics {
    let segs: Vec<(usize, usize, Seg)> = edges
        .iter()
        .filter(|e| e.from < boxes.len() && e.to < boxes.len() && e.from != e.to)
        .map(|e| {
            let s = (
                anchor(&boxes[e.from].rect, e.from_side),
                anchor(&boxes[e.to].rect, e.to_side),
            );
            (e.from, e.to, s)
        })
        .collect();
    let mut m = Metrics::default();
    for (i, a) in segs.iter().enumerate() {
        for b in &segs[i + 1..] {
            let shared = a.0 == b.0 || a.0 == b.1 || a.1 == b.0 || a.1 == b.1;
            if !shared && cross(a.2, b.2) {
                m.crossings += 1;
            }
        }
    }
    for &(f, t, s) in &segs {
        m.edge_length += (s.1.0 - s.0.0).hypot(s.1.1 - s.0.1);
        let through = boxes
            .iter()
            .enumerate()
            .any(|(k, b)| k != f && k != t && !b.group && segment_hits(s, &b.rect));
        if through {
            m.edge_node_overlaps += 1;
        }
    }
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let nested =
                (a.group && a.rect.contains(&b.rect)) || (b.group && b.rect.contains(&a.rect));
            if !nested && a.rect.overlaps(&b.rect) {
                m.node_overlaps += 1;
            }
        }
    }
    if let Some(all) = boxes.iter().map(|b| b.rect).reduce(|a, b| a.union(&b)) {
        m.area = all.area();
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(x: f64, y: f64) -> MBox {
        MBox {
            rect: Rect::new(x, y, 100.0, 50.0),
            group: false,
        }
    }

    #[test]
    fn counts_what_it_says() {
        // 0 above 2, 1 above 3; 0→3 and 1→2 cross; 0→2 passes through 4 in between.
        let boxes = [
            b(0.0, 0.0),
            b(300.0, 0.0),
            b(0.0, 400.0),
            b(300.0, 400.0),
            b(0.0, 200.0),
            b(320.0, 410.0),
        ];
        let e = |from, to| MEdge {
            from,
            to,
            from_side: Side::Bottom,
            to_side: Side::Top,
        };
        let m = measure(&boxes, &[e(0, 3), e(1, 2), e(0, 2)]);
        assert_eq!(m.crossings, 1);
        assert_eq!(m.edge_node_overlaps, 1);
        assert_eq!(m.node_overlaps, 1);
        assert_eq!(m.area, 420.0 * 460.0);
    }
}
