//! The score `layered` judges its drawings by: the straight lines JSON Canvas draws, counted
//! as [`crate::metrics::measure`] counts them, but only pairs whose extents meet are tested,
//! because the layout scores many drawings of one graph.

use crate::flat::Axes;
use crate::metrics::{Seg, anchor, cross, segment_hits};
use easel_canvas::{Rect, Side};

struct Line {
    ends: (usize, usize),
    seg: Seg,
    /// Extents along x and y.
    x: (f64, f64),
    y: (f64, f64),
}

/// Crossings of the lines and lines through boxes; every edge runs from a lower rank to a
/// higher one, so it leaves its source's far side and enters its target's near side.
pub(crate) fn lines(
    positions: &[(f64, f64)],
    sizes: &[(f64, f64)],
    edges: &[(usize, usize)],
    axes: Axes,
) -> (usize, usize) {
    bounded(positions, sizes, edges, axes, 1, usize::MAX).unwrap_or((usize::MAX, usize::MAX))
}

/// [`lines`], or `None` as soon as crossings + `weight` × lines through boxes exceeds `limit`:
/// most drawings a layout tries are worse than the best so far, and need not be counted out.
pub(crate) fn bounded(
    positions: &[(f64, f64)],
    sizes: &[(f64, f64)],
    edges: &[(usize, usize)],
    axes: Axes,
    weight: usize,
    limit: usize,
) -> Option<(usize, usize)> {
    // Mirrored across the diagonal when the edges run down, so x is always the direction of
    // the edges: lines and boxes are then sorted along it, where they spread out most.
    // Crossings and hits do not change under the mirror.
    let rects: Vec<Rect> = positions
        .iter()
        .zip(sizes)
        .map(|(&(x, y), &(w, h))| {
            if axes.right {
                Rect::new(x, y, w, h)
            } else {
                Rect::new(y, x, h, w)
            }
        })
        .collect();
    let (from_side, to_side) = (Side::Right, Side::Left);
    let mut segs: Vec<Line> = edges
        .iter()
        .filter(|&&(a, b)| a < rects.len() && b < rects.len() && a != b)
        .map(|&(a, b)| {
            let s = (anchor(&rects[a], from_side), anchor(&rects[b], to_side));
            Line {
                ends: (a, b),
                seg: s,
                x: (s.0.0.min(s.1.0), s.0.0.max(s.1.0)),
                y: (s.0.1.min(s.1.1), s.0.1.max(s.1.1)),
            }
        })
        .collect();
    segs.sort_unstable_by(|p, q| p.x.0.total_cmp(&q.x.0));
    let mut order: Vec<usize> = (0..rects.len()).collect();
    order.sort_unstable_by(|&p, &q| rects[p].x.total_cmp(&rects[q].x));
    let widest = rects.iter().map(|r| r.width).fold(0.0, f64::max);
    let xs: Vec<f64> = order.iter().map(|&k| rects[k].x).collect();
    let mut through = 0;
    // Lines come sorted by where they start, so the first box that may reach one only moves
    // on.
    let mut start = 0;
    for l in &segs {
        let (a, b) = l.ends;
        while start < xs.len() && xs[start] < l.x.0 - widest {
            start += 1;
        }
        let hit = order[start..]
            .iter()
            .take_while(|&&k| rects[k].x < l.x.1)
            .any(|&k| {
                let r = &rects[k];
                k != a
                    && k != b
                    && r.right() > l.x.0
                    && r.y < l.y.1
                    && r.bottom() > l.y.0
                    && segment_hits(l.seg, r)
            });
        if hit {
            through += 1;
            if weight.saturating_mul(through) > limit {
                return None;
            }
        }
    }
    let hit_cost = weight.saturating_mul(through);
    let mut crossings = 0;
    for (i, l) in segs.iter().enumerate() {
        let (a, b) = l.ends;
        for m in &segs[i + 1..] {
            if m.x.0 > l.x.1 {
                break;
            }
            if m.y.0 > l.y.1 || m.y.1 < l.y.0 {
                continue;
            }
            let (c, d) = m.ends;
            let shared = a == c || a == d || b == c || b == d;
            if !shared && cross(l.seg, m.seg) {
                crossings += 1;
                if crossings + hit_cost > limit {
                    return None;
                }
            }
        }
    }
    Some((crossings, through))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{MBox, MEdge, measure};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn counts_what_measure_counts(
            boxes in prop::collection::vec((0.0..600.0f64, 0.0..600.0f64, 10.0..120.0f64, 10.0..80.0f64), 2..14),
            raw in prop::collection::vec((0usize..14, 0usize..14), 0..24),
            right in any::<bool>(),
        ) {
            let n = boxes.len();
            let positions: Vec<(f64, f64)> = boxes.iter().map(|b| (b.0, b.1)).collect();
            let sizes: Vec<(f64, f64)> = boxes.iter().map(|b| (b.2, b.3)).collect();
            let mut edges: Vec<(usize, usize)> = raw.into_iter().map(|(a, b)| (a % n, b % n)).filter(|(a, b)| a != b).collect();
            edges.sort_unstable();
            edges.dedup();
            let axes = Axes { right };
            let (from_side, to_side) = if right { (Side::Right, Side::Left) } else { (Side::Bottom, Side::Top) };
            let mboxes: Vec<MBox> = positions.iter().zip(&sizes).map(|(&(x, y), &(w, h))| MBox { rect: Rect::new(x, y, w, h), group: false }).collect();
            let medges: Vec<MEdge> = edges.iter().map(|&(from, to)| MEdge { from, to, from_side, to_side }).collect();
            let m = measure(&mboxes, &medges);
            prop_assert_eq!(lines(&positions, &sizes, &edges, axes), (m.crossings, m.edge_node_overlaps));
            // Bounded: the same count up to the limit, nothing past it.
            let cost = m.crossings + 3 * m.edge_node_overlaps;
            prop_assert_eq!(
                bounded(&positions, &sizes, &edges, axes, 3, cost),
                Some((m.crossings, m.edge_node_overlaps))
            );
            if cost > 0 {
                prop_assert_eq!(bounded(&positions, &sizes, &edges, axes, 3, cost - 1), None);
            }
        }

    }
}
