//! A layered (Sugiyama-style) layout for directed graphs of boxes of any size: cycles broken,
//! nodes put on layers, long edges routed through the layers they cross, crossings reduced by
//! barycenter sweeps, and x positions that pull each node towards its neighbours without ever
//! letting two boxes of a layer overlap.
//!
//! Written here rather than taken from a crate because the views need boxes of different
//! widths (labels), caller-chosen layers (callers above, callees below) and guaranteed
//! non-overlap, which point-based layout crates do not give.

/// The size of a box to place.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Size {
    pub width: f32,
    pub height: f32,
}

/// Spacing of a layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayoutOptions {
    /// Horizontal space between boxes of one layer.
    pub node_gap: f32,
    /// Vertical space between layers.
    pub layer_gap: f32,
    /// Space around the whole drawing.
    pub margin: f32,
}

impl Default for LayoutOptions {
    fn default() -> LayoutOptions {
        LayoutOptions {
            node_gap: 24.0,
            layer_gap: 56.0,
            margin: 16.0,
        }
    }
}

/// Where a box went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
    pub layer: usize,
}

impl Placed {
    pub fn overlaps(&self, other: &Placed) -> bool {
        self.x < other.x + other.width
            && other.x < self.x + self.width
            && self.y < other.y + other.height
            && other.y < self.y + self.height
    }

    pub fn center_x(&self) -> f32 {
        self.x + self.width / 2.0
    }
}

/// The result: one box per input node, one route per input edge (from the source's border to
/// the target's border, through the layers in between), and the drawing's size.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub nodes: Vec<Placed>,
    pub routes: Vec<Vec<(f32, f32)>>,
    pub width: f32,
    pub height: f32,
}

/// Lays out `nodes` with `edges` (pairs of indexes into `nodes`; out-of-range pairs and
/// self-loops get an empty route), choosing layers from the edges.
pub fn layered(nodes: &[Size], edges: &[(usize, usize)], options: &LayoutOptions) -> Layout {
    let layers = assign_layers(nodes.len(), edges);
    layered_with_layers(nodes, edges, &layers, options)
}

/// Like [`layered`] with the caller's layer for each node (layer 0 on top). Edges may go
/// up, down or within a layer.
pub fn layered_with_layers(
    nodes: &[Size],
    edges: &[(usize, usize)],
    layers: &[usize],
    options: &LayoutOptions,
) -> Layout {
    let n = nodes.len();
    let layer_count = layers.iter().copied().max().map_or(0, |m| m + 1);
    // Vertices: the real nodes, then dummies for edges that skip layers.
    let mut v_layer: Vec<usize> = (0..n)
        .map(|i| layers.get(i).copied().unwrap_or(0))
        .collect();
    let mut v_width: Vec<f32> = nodes.iter().map(|s| s.width.max(0.0)).collect();
    // Each edge's chain of vertices from its upper end to its lower end.
    let mut chains: Vec<Vec<usize>> = Vec::with_capacity(edges.len());
    let mut links: Vec<(usize, usize)> = Vec::new();
    for &(a, b) in edges {
        if a >= n || b >= n || a == b {
            chains.push(Vec::new());
            continue;
        }
        let (top, bottom) = if v_layer[a] <= v_layer[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut chain = vec![top];
        for layer in v_layer[top] + 1..v_layer[bottom] {
            v_layer.push(layer);
            v_width.push(0.0);
            chain.push(v_layer.len() - 1);
        }
        chain.push(bottom);
        for w in chain.windows(2) {
            if v_layer[w[0]] != v_layer[w[1]] {
                links.push((w[0], w[1]));
            }
        }
        chains.push(chain);
    }

    let mut order: Vec<Vec<usize>> = vec![Vec::new(); layer_count];
    for (v, &l) in v_layer.iter().enumerate() {
        order[l].push(v);
    }
    let mut up: Vec<Vec<usize>> = vec![Vec::new(); v_layer.len()];
    let mut down: Vec<Vec<usize>> = vec![Vec::new(); v_layer.len()];
    for &(a, b) in &links {
        down[a].push(b);
        up[b].push(a);
    }
    reduce_crossings(&mut order, &up, &down);

    let x = assign_x(&order, &v_width, &up, &down, options.node_gap);

    // Rows: each layer as tall as its tallest box, boxes centred in their row.
    let mut row_top = vec![0.0f32; layer_count];
    let mut row_height = vec![0.0f32; layer_count];
    for (i, s) in nodes.iter().enumerate() {
        row_height[v_layer[i]] = row_height[v_layer[i]].max(s.height.max(0.0));
    }
    let mut y = options.margin;
    for l in 0..layer_count {
        row_top[l] = y;
        y += row_height[l] + options.layer_gap;
    }
    let height = if layer_count == 0 {
        2.0 * options.margin
    } else {
        y - options.layer_gap + options.margin
    };

    let min_x = x
        .iter()
        .enumerate()
        .map(|(v, &x)| x - v_width[v] / 2.0)
        .fold(f32::INFINITY, f32::min);
    let shift = if min_x.is_finite() {
        options.margin - min_x
    } else {
        0.0
    };
    let placed: Vec<Placed> = nodes
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let l = v_layer[i];
            Placed {
                x: x[i] + shift - s.width.max(0.0) / 2.0,
                y: row_top[l] + (row_height[l] - s.height.max(0.0)) / 2.0,
                width: s.width.max(0.0),
                height: s.height.max(0.0),
                layer: l,
            }
        })
        .collect();
    let width = x
        .iter()
        .enumerate()
        .map(|(v, &x)| x + shift + v_width[v] / 2.0)
        .fold(0.0f32, f32::max)
        + options.margin;

    let routes = edges
        .iter()
        .zip(&chains)
        .map(|(&(a, _), chain)| {
            let Some((&first, _)) = chain.split_first() else {
                return Vec::new();
            };
            let last = chain[chain.len() - 1];
            let mut points = Vec::with_capacity(chain.len());
            if placed[first].layer == placed[last].layer {
                // Same row: from the facing sides.
                let (l, r) = if placed[first].x <= placed[last].x {
                    (first, last)
                } else {
                    (last, first)
                };
                let (lp, rp) = (&placed[l], &placed[r]);
                points.push((lp.x + lp.width, lp.y + lp.height / 2.0));
                points.push((rp.x, rp.y + rp.height / 2.0));
                if l != first {
                    points.reverse();
                }
            } else {
                let p = &placed[first];
                points.push((p.center_x(), p.y + p.height));
                for &d in &chain[1..chain.len() - 1] {
                    let l = v_layer[d];
                    points.push((x[d] + shift, row_top[l]));
                    points.push((x[d] + shift, row_top[l] + row_height[l]));
                }
                let q = &placed[last];
                points.push((q.center_x(), q.y));
            }
            // Routes run from the edge's source to its target.
            if first != a {
                points.reverse();
            }
            points
        })
        .collect();

    Layout {
        nodes: placed,
        routes,
        width: width.max(2.0 * options.margin),
        height,
    }
}

/// Longest-path layering after reversing the edges that close cycles (found by depth-first
/// search), so every edge points down and each node sits one layer below its lowest parent.
pub fn assign_layers(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        if a < n && b < n && a != b {
            out[a].push(b);
        }
    }
    // Iterative DFS; an edge into a node still on the stack closes a cycle and is dropped.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Active,
        Done,
    }
    let mut mark = vec![Mark::New; n];
    let mut dag: Vec<Vec<usize>> = vec![Vec::new(); n];
    for root in 0..n {
        if mark[root] != Mark::New {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        mark[root] = Mark::Active;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&w) = out[v].get(*next) {
                *next += 1;
                match mark[w] {
                    Mark::New => {
                        dag[v].push(w);
                        mark[w] = Mark::Active;
                        stack.push((w, 0));
                    }
                    Mark::Done => dag[v].push(w),
                    // A back edge: reversing it keeps the two nodes on different layers.
                    Mark::Active => dag[w].push(v),
                }
            } else {
                mark[v] = Mark::Done;
                stack.pop();
            }
        }
    }
    let mut indegree = vec![0usize; n];
    for targets in &dag {
        for &w in targets {
            indegree[w] += 1;
        }
    }
    let mut layer = vec![0usize; n];
    let mut ready: Vec<usize> = (0..n).filter(|&v| indegree[v] == 0).collect();
    while let Some(v) = ready.pop() {
        for &w in &dag[v] {
            layer[w] = layer[w].max(layer[v] + 1);
            indegree[w] -= 1;
            if indegree[w] == 0 {
                ready.push(w);
            }
        }
    }
    layer
}

/// Barycenter sweeps, down then up, keeping the order with the fewest crossings.
fn reduce_crossings(order: &mut [Vec<usize>], up: &[Vec<usize>], down: &[Vec<usize>]) {
    let vertex_count = up.len();
    let mut pos = vec![0usize; vertex_count];
    let index = |order: &[Vec<usize>], pos: &mut [usize]| {
        for layer in order {
            for (i, &v) in layer.iter().enumerate() {
                pos[v] = i;
            }
        }
    };
    index(order, &mut pos);
    let mut best = order.to_vec();
    let mut best_crossings = crossings(order, down, &pos);
    for round in 0..12 {
        if best_crossings == 0 {
            break;
        }
        let downward = round % 2 == 0;
        let layers: Vec<usize> = if downward {
            (1..order.len()).collect()
        } else {
            (0..order.len().saturating_sub(1)).rev().collect()
        };
        for l in layers {
            let neighbours = if downward { up } else { down };
            let mut keyed: Vec<(f32, usize, usize)> = order[l]
                .iter()
                .enumerate()
                .map(|(i, &v)| {
                    let ns = &neighbours[v];
                    let key = if ns.is_empty() {
                        i as f32
                    } else {
                        ns.iter().map(|&w| pos[w] as f32).sum::<f32>() / ns.len() as f32
                    };
                    (key, i, v)
                })
                .collect();
            // Ties keep their current order, so sweeps converge.
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            order[l] = keyed.into_iter().map(|(_, _, v)| v).collect();
            for (i, &v) in order[l].iter().enumerate() {
                pos[v] = i;
            }
        }
        let c = crossings(order, down, &pos);
        if c < best_crossings {
            best_crossings = c;
            best = order.to_vec();
        }
    }
    order.clone_from_slice(&best);
}

/// Edge crossings between consecutive layers, counted as inversions with a Fenwick tree.
fn crossings(order: &[Vec<usize>], down: &[Vec<usize>], pos: &[usize]) -> usize {
    let mut total = 0;
    for pair in order.windows(2) {
        let mut ends: Vec<(usize, usize)> = pair[0]
            .iter()
            .flat_map(|&v| down[v].iter().map(move |&w| (pos[v], pos[w])))
            .collect();
        ends.sort_unstable();
        let width = pair[1].len() + 1;
        let mut tree = vec![0usize; width + 1];
        for (seen, &(_, b)) in ends.iter().enumerate() {
            // Earlier edges that end to the right of this one cross it.
            let mut i = b + 1;
            let mut not_greater = 0;
            while i > 0 {
                not_greater += tree[i];
                i -= i & i.wrapping_neg();
            }
            total += seen - not_greater;
            let mut i = b + 1;
            while i <= width {
                tree[i] += 1;
                i += i & i.wrapping_neg();
            }
        }
    }
    total
}

/// Centre x of every vertex: packed, then pulled towards the mean of its neighbours a few
/// times. Each pull computes a left-to-right and a right-to-left placement that respect the
/// order and the gaps, and takes their average, which respects them too.
fn assign_x(
    order: &[Vec<usize>],
    width: &[f32],
    up: &[Vec<usize>],
    down: &[Vec<usize>],
    gap: f32,
) -> Vec<f32> {
    let mut x = vec![0.0f32; width.len()];
    // Dummies need a little room too, so long edges do not run through boxes.
    let room = |v: usize| width[v].max(gap / 2.0);
    for layer in order {
        let mut right = 0.0f32;
        for &v in layer {
            x[v] = right + room(v) / 2.0;
            right += room(v) + gap;
        }
    }
    // Centre every layer on the widest one before pulling.
    let extent = |layer: &Vec<usize>, x: &[f32]| match (layer.first(), layer.last()) {
        (Some(&a), Some(&b)) => (x[a] - room(a) / 2.0, x[b] + room(b) / 2.0),
        _ => (0.0, 0.0),
    };
    let widest = order
        .iter()
        .map(|l| {
            let (a, b) = extent(l, &x);
            b - a
        })
        .fold(0.0f32, f32::max);
    for layer in order {
        let (a, b) = extent(layer, &x);
        let shift = (widest - (b - a)) / 2.0;
        for &v in layer {
            x[v] += shift;
        }
    }
    for round in 0..8 {
        let layers: Vec<&Vec<usize>> = if round % 2 == 0 {
            order.iter().collect()
        } else {
            order.iter().rev().collect()
        };
        for layer in layers {
            let desired: Vec<f32> = layer
                .iter()
                .map(|&v| {
                    let ns: Vec<usize> = up[v].iter().chain(&down[v]).copied().collect();
                    if ns.is_empty() {
                        x[v]
                    } else {
                        ns.iter().map(|&w| x[w]).sum::<f32>() / ns.len() as f32
                    }
                })
                .collect();
            let k = layer.len();
            let mut left = vec![0.0f32; k];
            for i in 0..k {
                left[i] = desired[i];
                if i > 0 {
                    let min = left[i - 1] + (room(layer[i - 1]) + room(layer[i])) / 2.0 + gap;
                    left[i] = left[i].max(min);
                }
            }
            let mut right = vec![0.0f32; k];
            for i in (0..k).rev() {
                right[i] = desired[i];
                if i + 1 < k {
                    let max = right[i + 1] - (room(layer[i + 1]) + room(layer[i])) / 2.0 - gap;
                    right[i] = right[i].min(max);
                }
            }
            for (i, &v) in layer.iter().enumerate() {
                x[v] = (left[i] + right[i]) / 2.0;
            }
        }
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxes(n: usize) -> Vec<Size> {
        (0..n)
            .map(|i| Size {
                width: 60.0 + (i % 3) as f32 * 40.0,
                height: 30.0 + (i % 2) as f32 * 20.0,
            })
            .collect()
    }

    #[test]
    fn layers_follow_edges_and_cycles_are_broken() {
        assert_eq!(
            assign_layers(4, &[(0, 1), (1, 2), (0, 2), (2, 3)]),
            [0, 1, 2, 3]
        );
        let l = assign_layers(3, &[(0, 1), (1, 2), (2, 0)]);
        assert_eq!(l, [0, 1, 2]);
        assert_eq!(assign_layers(2, &[(0, 0), (5, 1)]), [0, 0]);
    }

    #[test]
    fn crossings_are_counted_and_removed() {
        // Two parents whose children are listed crosswise.
        let order = vec![vec![0, 1], vec![2, 3]];
        let down = vec![vec![3], vec![2], vec![], vec![]];
        let pos = [0, 1, 0, 1];
        assert_eq!(crossings(&order, &down, &pos), 1);
        let sizes = boxes(4);
        let layout = layered(&sizes, &[(0, 3), (1, 2)], &LayoutOptions::default());
        let (a, b) = (&layout.nodes[0], &layout.nodes[1]);
        let (c, d) = (&layout.nodes[3], &layout.nodes[2]);
        assert_eq!(a.x < b.x, c.x < d.x, "children follow their parents' order");
    }

    #[test]
    fn long_edges_route_through_the_layers_between() {
        let layout = layered(
            &boxes(4),
            &[(0, 1), (1, 2), (0, 2), (2, 3), (3, 0)],
            &LayoutOptions::default(),
        );
        let route = &layout.routes[2];
        assert_eq!(route.len(), 4, "{route:?}");
        let (s, t) = (&layout.nodes[0], &layout.nodes[2]);
        assert_eq!(route[0], (s.center_x(), s.y + s.height));
        assert_eq!(route[3], (t.center_x(), t.y));
        // The edge that closes the cycle runs upwards, from 3 to 0.
        let back = &layout.routes[4];
        let (s, t) = (&layout.nodes[3], &layout.nodes[0]);
        assert_eq!(
            back.first(),
            Some(&(s.center_x(), s.y)),
            "leaves 3 at its top"
        );
        assert_eq!(
            back.last(),
            Some(&(t.center_x(), t.y + t.height)),
            "enters 0 at its bottom"
        );
    }

    #[test]
    fn caller_chosen_layers_are_kept() {
        let sizes = boxes(5);
        let layers = [1, 0, 0, 2, 2];
        let edges = [(1, 0), (2, 0), (0, 3), (0, 4)];
        let layout = layered_with_layers(&sizes, &edges, &layers, &LayoutOptions::default());
        for (p, &l) in layout.nodes.iter().zip(&layers) {
            assert_eq!(p.layer, l);
        }
        assert!(layout.nodes[1].y < layout.nodes[0].y && layout.nodes[0].y < layout.nodes[3].y);
    }

    proptest::proptest! {
        #[test]
        fn boxes_never_overlap_and_fit_the_drawing(
            n in 1usize..40,
            raw in proptest::collection::vec((0usize..40, 0usize..40), 0..80),
        ) {
            let edges: Vec<(usize, usize)> = raw.into_iter().map(|(a, b)| (a % n, b % n)).collect();
            let layout = layered(&boxes(n), &edges, &LayoutOptions::default());
            for (i, a) in layout.nodes.iter().enumerate() {
                proptest::prop_assert!(a.x >= 0.0 && a.y >= 0.0);
                proptest::prop_assert!(a.x + a.width <= layout.width + 0.01);
                proptest::prop_assert!(a.y + a.height <= layout.height + 0.01);
                for b in &layout.nodes[i + 1..] {
                    proptest::prop_assert!(!a.overlaps(b), "{a:?} overlaps {b:?}");
                }
            }
            for (&(a, b), route) in edges.iter().zip(&layout.routes) {
                if a == b {
                    proptest::prop_assert!(route.is_empty());
                } else {
                    proptest::prop_assert!(route.len() >= 2);
                }
            }
        }
    }
}
