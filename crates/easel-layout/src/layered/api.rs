//! `layered` for callers that draw the edges themselves (the code views): ranks of their own
//! choosing, a fixed gap between ranks, and each edge's route through the ranks it crosses.

use super::{Layers, best_drawing, within_ranks};
use crate::flat::{Axes, Direction, Graph, Options, finite_size};
use crate::rank::{acyclic, ranks};

/// How [`layered`] lays out.
#[derive(Clone, Debug, PartialEq)]
pub struct LayeredOptions {
    pub direction: Direction,
    /// The smallest gap between two boxes of a rank, in pixels.
    pub spacing: f64,
    /// The gap between two ranks; `None` lets it grow with the number of edges between them.
    /// Either way a rank may get more room where that clears a line of a box.
    pub rank_gap: Option<f64>,
    /// The rank of each box (lower first; missing entries are 0); `None` ranks the boxes
    /// along the edges. Given ranks keep their order but not their gaps: empty ranks close
    /// up. An edge within one rank is drawn side to side and does not shape the layout.
    pub ranks: Option<Vec<usize>>,
    /// Whether edges will be drawn as straight lines from box to box (JSON Canvas), so that
    /// boxes are moved out of their way; `false` for drawings that follow [`Layered::routes`],
    /// which go around boxes anyway, and where moving boxes off dense lines only widens the
    /// picture.
    pub straight_edges: bool,
}

impl Default for LayeredOptions {
    fn default() -> LayeredOptions {
        LayeredOptions {
            direction: Direction::Down,
            spacing: Options::default().spacing,
            rank_gap: None,
            ranks: None,
            straight_edges: true,
        }
    }
}

/// Where [`layered`] put the boxes and how their edges run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layered {
    /// Top-left corners, index for index; nothing lies left of x = 0 or above y = 0.
    pub positions: Vec<(f64, f64)>,
    /// The rank of each box, 0 first.
    pub ranks: Vec<usize>,
    /// Each input edge, index for index, as points from the middle of its source's side to
    /// the middle of its target's side through every rank in between; empty for a self-loop
    /// or an edge whose ends are out of range.
    pub routes: Vec<Vec<(f64, f64)>>,
}

/// Lays out `graph` in ranks (see the module `layered` for how) and routes its edges.
pub fn layered(graph: &Graph, options: &LayeredOptions) -> Layered {
    let n = graph.sizes.len();
    let spacing = if options.spacing.is_finite() {
        options.spacing.max(0.0)
    } else {
        Options::default().spacing
    };
    let rank_gap = options
        .rank_gap
        .filter(|g| g.is_finite())
        .map(|g| g.max(0.0));
    let sizes: Vec<(f64, f64)> = graph
        .sizes
        .iter()
        .map(|&(w, h)| (finite_size(w), finite_size(h)))
        .collect();
    let valid = |&(a, b): &(usize, usize)| a < n && b < n && a != b;
    let pairs: Vec<(usize, usize)> = graph.edges.iter().copied().filter(valid).collect();
    let (rank, dag) = match &options.ranks {
        Some(given) => given_ranks(n, given, &pairs),
        None => {
            let dag = acyclic(n, &pairs);
            (ranks(n, &dag), dag)
        }
    };
    let axes = Axes::new(options.direction);
    let clean = Graph {
        sizes,
        edges: dag.clone(),
    };
    let g = best_drawing(
        Layers::build(
            n,
            &dag,
            &within_ranks(&pairs, &rank),
            &rank,
            &clean,
            axes,
            rank_gap,
        ),
        spacing,
        options.straight_edges,
    );
    let positions = g.positions(n, axes, spacing);
    let routes = graph
        .edges
        .iter()
        .map(|e| {
            if valid(e) {
                g.route(*e, &positions, spacing)
            } else {
                Vec::new()
            }
        })
        .collect();
    Layered {
        positions,
        ranks: rank,
        routes,
    }
}

/// The caller's ranks with empty ones closed up, and the edges between different ranks
/// pointing to the later one, each once.
fn given_ranks(
    n: usize,
    given: &[usize],
    pairs: &[(usize, usize)],
) -> (Vec<usize>, Vec<(usize, usize)>) {
    let raw: Vec<usize> = (0..n).map(|i| given.get(i).copied().unwrap_or(0)).collect();
    let mut used = raw.clone();
    used.sort_unstable();
    used.dedup();
    let rank: Vec<usize> = raw
        .iter()
        .map(|r| used.partition_point(|u| u < r))
        .collect();
    let mut seen = std::collections::HashSet::new();
    let dag = pairs
        .iter()
        .filter(|&&(a, b)| rank[a] != rank[b])
        .map(|&(a, b)| if rank[a] < rank[b] { (a, b) } else { (b, a) })
        .filter(|e| seen.insert(*e))
        .collect();
    (rank, dag)
}

impl Layers {
    /// The route of edge `(a, b)`: side to side within a rank, else from the far side of the
    /// earlier box through its dummies (entering and leaving each rank's band) to the near
    /// side of the later one, turned round when the edge points back.
    fn route(
        &self,
        (a, b): (usize, usize),
        positions: &[(f64, f64)],
        spacing: f64,
    ) -> Vec<(f64, f64)> {
        let axes = self.axes;
        // (main start, cross start, main length, cross length) of a real box.
        let frame = |u: usize| {
            let (x, y) = positions[u];
            let (main, cross) = if axes.right { (x, y) } else { (y, x) };
            (main, cross, self.lens[u].0, self.lens[u].1)
        };
        let (fa, fb) = (frame(a), frame(b));
        if self.rank[a] == self.rank[b] {
            let (left, right) = if fa.1 <= fb.1 { (fa, fb) } else { (fb, fa) };
            let mut points = vec![
                axes.xy(left.0 + left.2 / 2.0, left.1 + left.3),
                axes.xy(right.0 + right.2 / 2.0, right.1),
            ];
            if fa.1 > fb.1 {
                points.reverse();
            }
            return points;
        }
        let (first, last) = if self.rank[a] < self.rank[b] {
            (a, b)
        } else {
            (b, a)
        };
        let (ff, fl) = (frame(first), frame(last));
        let (band_at, depth) = self.bands(spacing);
        let min_cross = self.min_cross();
        let mut points = vec![axes.xy(ff.0 + ff.2, ff.1 + ff.3 / 2.0)];
        let dummies = self
            .edges
            .iter()
            .position(|&e| e == (first, last))
            .map_or(&[][..], |i| &self.chains[i][..]);
        for &d in dummies {
            let r = self.rank[d];
            let cross = self.centre[d] - min_cross;
            points.push(axes.xy(band_at[r], cross));
            points.push(axes.xy(band_at[r] + depth[r], cross));
        }
        points.push(axes.xy(fl.0, fl.1 + fl.3 / 2.0));
        if first != a {
            points.reverse();
        }
        points
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxes(n: usize) -> Vec<(f64, f64)> {
        (0..n)
            .map(|i| (60.0 + (i % 3) as f64 * 40.0, 30.0 + (i % 2) as f64 * 20.0))
            .collect()
    }

    #[test]
    fn given_ranks_are_kept_and_closed_up() {
        let graph = Graph {
            sizes: boxes(5),
            edges: vec![(1, 0), (2, 0), (0, 3), (0, 4)],
        };
        let options = LayeredOptions {
            ranks: Some(vec![3, 1, 1, 7, 7]),
            rank_gap: Some(72.0),
            ..LayeredOptions::default()
        };
        let out = layered(&graph, &options);
        assert_eq!(out.ranks, [1, 0, 0, 2, 2]);
        let y = |i: usize| out.positions[i].1;
        assert!(y(1) < y(0) && y(0) < y(3), "{:?}", out.positions);
        // Rank 0 is 50 deep (its deepest box), then comes the caller's gap.
        assert_eq!(y(0), 50.0 + 72.0, "{:?}", out.positions);
    }

    #[test]
    fn routes_run_from_source_to_target_through_the_ranks_between() {
        let graph = Graph {
            sizes: boxes(4),
            edges: vec![(0, 1), (1, 2), (0, 2), (2, 3), (3, 0), (2, 2), (9, 1)],
        };
        let out = layered(&graph, &LayeredOptions::default());
        let (p, s) = (&out.positions, &graph.sizes);
        let bottom = |i: usize| (p[i].0 + s[i].0 / 2.0, p[i].1 + s[i].1);
        let top = |i: usize| (p[i].0 + s[i].0 / 2.0, p[i].1);
        let long = &out.routes[2];
        assert_eq!(long.first(), Some(&bottom(0)));
        assert_eq!(long.last(), Some(&top(2)));
        assert_eq!(long.len(), 4, "one rank between: {long:?}");
        // 3 -> 0 closes the cycle: it runs up, from 3's top to 0's bottom.
        let back = &out.routes[4];
        assert_eq!(back.first(), Some(&top(3)));
        assert_eq!(back.last(), Some(&bottom(0)));
        assert!(out.routes[5].is_empty() && out.routes[6].is_empty());
    }

    #[test]
    fn an_edge_within_a_rank_runs_side_to_side() {
        let graph = Graph {
            sizes: boxes(2),
            edges: vec![(1, 0)],
        };
        let options = LayeredOptions {
            ranks: Some(vec![0, 0]),
            ..LayeredOptions::default()
        };
        let out = layered(&graph, &options);
        let route = &out.routes[0];
        let (p, s) = (&out.positions, &graph.sizes);
        let (l, r) = if p[0].0 < p[1].0 { (0, 1) } else { (1, 0) };
        let right_of_l = (p[l].0 + s[l].0, p[l].1 + s[l].1 / 2.0);
        let left_of_r = (p[r].0, p[r].1 + s[r].1 / 2.0);
        let want = if l == 1 {
            vec![right_of_l, left_of_r]
        } else {
            vec![left_of_r, right_of_l]
        };
        assert_eq!(route, &want);
    }

    proptest::proptest! {
        #[test]
        fn nothing_overlaps_and_routes_start_and_end_on_their_boxes(
            n in 1usize..30,
            raw in proptest::collection::vec((0usize..30, 0usize..30), 0..60),
            given in proptest::option::of(proptest::collection::vec(0usize..5, 0..30)),
            right in proptest::bool::ANY,
        ) {
            let edges: Vec<(usize, usize)> = raw.into_iter().map(|(a, b)| (a % n, b % n)).collect();
            let graph = Graph { sizes: boxes(n), edges: edges.clone() };
            let direction = if right { Direction::Right } else { Direction::Down };
            let options = LayeredOptions { direction, ranks: given, spacing: 24.0, rank_gap: Some(56.0), straight_edges: true };
            let out = layered(&graph, &options);
            let rect = |i: usize| {
                let (x, y) = out.positions[i];
                let (w, h) = graph.sizes[i];
                (x, y, x + w, y + h)
            };
            for i in 0..n {
                let a = rect(i);
                proptest::prop_assert!(a.0 >= -1e-6 && a.1 >= -1e-6, "{:?}", a);
                for j in i + 1..n {
                    let b = rect(j);
                    let apart = a.2 <= b.0 + 1e-6 || b.2 <= a.0 + 1e-6 || a.3 <= b.1 + 1e-6 || b.3 <= a.1 + 1e-6;
                    proptest::prop_assert!(apart, "{:?} overlaps {:?}", a, b);
                }
            }
            let on = |p: (f64, f64), r: (f64, f64, f64, f64)| {
                p.0 >= r.0 - 1e-6 && p.0 <= r.2 + 1e-6 && p.1 >= r.1 - 1e-6 && p.1 <= r.3 + 1e-6
            };
            for (&(a, b), route) in edges.iter().zip(&out.routes) {
                if a == b {
                    proptest::prop_assert!(route.is_empty());
                    continue;
                }
                proptest::prop_assert!(route.len() >= 2);
                proptest::prop_assert!(on(route[0], rect(a)) && on(route[route.len() - 1], rect(b)));
                proptest::prop_assert!(route.iter().all(|p| p.0 >= -1e-6 && p.1 >= -1e-6), "{:?}", route);
            }
        }
    }
}
