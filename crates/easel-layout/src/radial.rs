//! `radial`: the root in the middle, each generation on a ring around it. A node's share of
//! its ring is its parent's share split by the number of leaves below each child, so subtrees
//! stay in their own sector and tree edges do not cross.

use crate::flat::{Graph, Placement};
use crate::tree::{depths, forest};
use std::f64::consts::TAU;

pub(crate) fn place(graph: &Graph, spacing: f64) -> Placement {
    let n = graph.sizes.len();
    let forest = forest(graph);
    let (depth, order) = depths(&forest, n);
    let diag: Vec<f64> = graph.sizes.iter().map(|&(w, h)| w.hypot(h)).collect();
    let mut leaves = vec![1.0f64; n];
    for &u in order.iter().rev() {
        let kids = &forest.children[u];
        if !kids.is_empty() {
            leaves[u] = kids.iter().map(|&c| leaves[c]).sum();
        }
    }
    // Several roots share the centre's ring as the first generation around an empty middle.
    let single = forest.roots.len() == 1;
    let ring_of = |u: usize| if single { depth[u] } else { depth[u] + 1 };
    let mut span = vec![(0.0f64, 0.0f64); n];
    let total: f64 = forest
        .roots
        .iter()
        .map(|&r| leaves[r])
        .sum::<f64>()
        .max(1.0);
    let mut at = 0.0;
    for &r in &forest.roots {
        let share = TAU * leaves[r] / total;
        span[r] = (at, at + share);
        at += share;
    }
    for &u in &order {
        let (lo, hi) = span[u];
        let mut a = lo;
        let kids = &forest.children[u];
        let sum: f64 = kids.iter().map(|&c| leaves[c]).sum::<f64>().max(1.0);
        for &c in kids {
            let share = (hi - lo) * leaves[c] / sum;
            span[c] = (a, a + share);
            a += share;
        }
    }
    let rings = order.iter().map(|&u| ring_of(u)).max().map_or(0, |r| r + 1);
    let mut on_ring: Vec<Vec<usize>> = vec![Vec::new(); rings];
    for &u in &order {
        on_ring[ring_of(u)].push(u);
    }
    let angle = |u: usize| (span[u].0 + span[u].1) / 2.0;
    let mut radius = vec![0.0f64; rings];
    for k in 1..rings {
        let prev_diag = on_ring[k - 1].iter().map(|&u| diag[u]).fold(0.0, f64::max);
        let diag_k = on_ring[k].iter().map(|&u| diag[u]).fold(0.0, f64::max);
        let mut r = radius[k - 1] + (prev_diag + diag_k) / 2.0 + spacing;
        // Neighbours on a ring must be a chord apart that clears both their circles.
        let ring = &on_ring[k];
        if ring.len() > 1 {
            for (i, &u) in ring.iter().enumerate() {
                let v = ring[(i + 1) % ring.len()];
                let mut gap = (angle(v) - angle(u)).rem_euclid(TAU);
                if gap > TAU / 2.0 {
                    gap = TAU - gap;
                }
                let need = (diag[u] + diag[v]) / 2.0 + spacing;
                let half = (gap / 2.0).sin();
                if half > 1e-9 {
                    r = r.max(need / (2.0 * half));
                } else {
                    r = r.max(need * ring.len() as f64);
                }
            }
        }
        radius[k] = r;
    }
    let positions = (0..n)
        .map(|u| {
            let r = radius[ring_of(u)];
            let a = angle(u);
            let (w, h) = graph.sizes[u];
            (r * a.cos() - w / 2.0, r * a.sin() - h / 2.0)
        })
        .collect();
    Placement {
        positions,
        ignored: forest.ignored,
    }
}
