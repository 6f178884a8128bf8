//! `tree`: each root with its descendants below it (or to its right), siblings in edge order,
//! a parent centred over its children. Edges that would make the graph something other than a
//! forest (a second parent, a cycle) are left out and reported.

use crate::flat::{Axes, Graph, Ignored, Placement};

/// A spanning forest of a directed graph: who hangs under whom.
pub(crate) struct Forest {
    pub(crate) roots: Vec<usize>,
    pub(crate) children: Vec<Vec<usize>>,
    pub(crate) ignored: Vec<Ignored>,
}

/// Roots are the boxes nothing points at, in index order; a cycle with no way in is entered
/// at its first box. Children follow the order of the edges.
pub(crate) fn forest(graph: &Graph) -> Forest {
    let n = graph.sizes.len();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut indegree = vec![0usize; n];
    for &(a, b) in &graph.edges {
        out[a].push(b);
        indegree[b] += 1;
    }
    let mut parent: Vec<Option<usize>> = vec![None; n];
    let mut visited = vec![false; n];
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut roots = Vec::new();
    let mut tree_edges = std::collections::HashSet::new();
    let starts: Vec<usize> = (0..n).filter(|&i| indegree[i] == 0).chain(0..n).collect();
    for start in starts {
        if visited[start] {
            continue;
        }
        visited[start] = true;
        roots.push(start);
        // Breadth first, so that a node hangs under the nearest of its parents.
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(u) = queue.pop_front() {
            for &v in &out[u] {
                if !visited[v] {
                    visited[v] = true;
                    parent[v] = Some(u);
                    children[u].push(v);
                    tree_edges.insert((u, v));
                    queue.push_back(v);
                }
            }
        }
    }
    let is_ancestor = |a: usize, mut b: usize| -> bool {
        loop {
            if a == b {
                return true;
            }
            match parent[b] {
                Some(p) => b = p,
                None => return false,
            }
        }
    };
    let ignored = graph
        .edges
        .iter()
        .filter(|e| !tree_edges.contains(e))
        .map(|&(from, to)| Ignored {
            from,
            to,
            cycle: is_ancestor(to, from),
        })
        .collect();
    Forest {
        roots,
        children,
        ignored,
    }
}

/// Depth of every box in the forest, and the boxes in depth-first order.
pub(crate) fn depths(forest: &Forest, n: usize) -> (Vec<usize>, Vec<usize>) {
    let mut depth = vec![0usize; n];
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<usize> = forest.roots.iter().rev().copied().collect();
    while let Some(u) = stack.pop() {
        order.push(u);
        for &c in forest.children[u].iter().rev() {
            depth[c] = depth[u] + 1;
            stack.push(c);
        }
    }
    (depth, order)
}

pub(crate) fn place(graph: &Graph, axes: Axes, spacing: f64) -> Placement {
    let n = graph.sizes.len();
    let forest = forest(graph);
    let (depth, order) = depths(&forest, n);
    let lens: Vec<(f64, f64)> = graph.sizes.iter().map(|&s| axes.lens(s)).collect();
    // Every generation shares a band along the main axis, so siblings line up.
    let levels = depth.iter().copied().max().map_or(0, |d| d + 1);
    let mut band = vec![0.0f64; levels];
    for i in 0..n {
        band[depth[i]] = band[depth[i]].max(lens[i].0);
    }
    let mut band_at = vec![0.0f64; levels];
    let mut at = 0.0;
    for (d, len) in band.iter().enumerate() {
        band_at[d] = at;
        at += len + spacing * 1.5;
    }
    // Width of each subtree along the cross axis, children before parents.
    let mut extent = vec![0.0f64; n];
    for &u in order.iter().rev() {
        let kids = &forest.children[u];
        let sum: f64 = kids.iter().map(|&c| extent[c]).sum::<f64>()
            + spacing * kids.len().saturating_sub(1) as f64;
        extent[u] = lens[u].1.max(sum);
    }
    let mut cross = vec![0.0f64; n];
    let mut start = 0.0;
    for &r in &forest.roots {
        cross[r] = start;
        start += extent[r] + spacing;
    }
    // `cross[u]` is where u's subtree starts; the box sits centred over its children.
    let mut pos = vec![(0.0, 0.0); n];
    for &u in &order {
        let kids = &forest.children[u];
        let sum: f64 = kids.iter().map(|&c| extent[c]).sum::<f64>()
            + spacing * kids.len().saturating_sub(1) as f64;
        let mut child_at = cross[u] + (extent[u] - sum) / 2.0;
        for &c in kids {
            cross[c] = child_at;
            child_at += extent[c] + spacing;
        }
        let centre = cross[u] + extent[u] / 2.0;
        let main = band_at[depth[u]] + (band[depth[u]] - lens[u].0) / 2.0;
        pos[u] = axes.xy(main, centre - lens[u].1 / 2.0);
    }
    Placement {
        positions: pos,
        ignored: forest.ignored,
    }
}
