//! Ranking for `layered`: cycles broken by reversing depth-first back edges, then ranks by
//! network simplex (Gansner, Koutsofios, North and Vo, "A technique for drawing directed
//! graphs", 1993), which minimises the total rank span of the edges. Every rank an edge skips
//! is a dummy box and a longer line, so the shortest total span is the fewest of both.

use std::collections::HashSet;

/// The edges with every depth-first back edge reversed, so the graph has no cycle. Duplicates
/// (including an edge and the reversal of its opposite) are kept once.
pub(crate) fn acyclic(n: usize, edges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        out[a].push(b);
    }
    // 0 unseen, 1 on the stack, 2 done.
    let mut state = vec![0u8; n];
    let mut back = HashSet::new();
    for s in 0..n {
        if state[s] != 0 {
            continue;
        }
        let mut stack = vec![(s, 0usize)];
        state[s] = 1;
        while let Some(&mut (u, ref mut i)) = stack.last_mut() {
            if let Some(&v) = out[u].get(*i) {
                *i += 1;
                match state[v] {
                    0 => {
                        state[v] = 1;
                        stack.push((v, 0));
                    }
                    1 => {
                        back.insert((u, v));
                    }
                    _ => {}
                }
            } else {
                state[u] = 2;
                stack.pop();
            }
        }
    }
    let mut seen = HashSet::new();
    edges
        .iter()
        .map(|&(a, b)| {
            if back.contains(&(a, b)) {
                (b, a)
            } else {
                (a, b)
            }
        })
        .filter(|e| seen.insert(*e))
        .collect()
}

/// Ranks of an acyclic graph with every edge at least one rank long and the smallest total
/// span, the lowest rank 0.
pub(crate) fn ranks(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut rank = longest_path(n, edges);
    network_simplex(n, edges, &mut rank);
    let min = rank.iter().copied().min().unwrap_or(0);
    rank.iter().map(|&r| (r - min) as usize).collect()
}

/// A feasible first ranking: each box one below its lowest predecessor.
fn longest_path(n: usize, edges: &[(usize, usize)]) -> Vec<i64> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut indeg = vec![0usize; n];
    for &(a, b) in edges {
        out[a].push(b);
        indeg[b] += 1;
    }
    let mut rank = vec![0i64; n];
    let mut queue: Vec<usize> = (0..n).filter(|&i| indeg[i] == 0).collect();
    while let Some(u) = queue.pop() {
        for &v in &out[u] {
            rank[v] = rank[v].max(rank[u] + 1);
            indeg[v] -= 1;
            if indeg[v] == 0 {
                queue.push(v);
            }
        }
    }
    rank
}

/// How many ranks an edge could lose and still be one rank long.
fn slack(rank: &[i64], (a, b): (usize, usize)) -> i64 {
    rank[b] - rank[a] - 1
}

/// Improves a feasible ranking to an optimal one. The spanning forest of tight edges is
/// re-rooted after every exchange; cut values are subtree sums of each box's net out-degree,
/// because the edges inside a subtree cancel out of that sum and what is left is exactly the
/// flow across the cut.
fn network_simplex(n: usize, edges: &[(usize, usize)], rank: &mut [i64]) {
    if edges.is_empty() {
        return;
    }
    let mut incident: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, &(a, b)) in edges.iter().enumerate() {
        incident[a].push(i);
        incident[b].push(i);
    }
    let mut in_tree = feasible_tree(n, edges, &incident, rank);
    let mut net = vec![0i64; n];
    for &(a, b) in edges {
        net[a] += 1;
        net[b] -= 1;
    }
    // Degenerate exchanges can cycle; the bound keeps the time linear in practice and a
    // stopped search still leaves a feasible ranking.
    for _ in 0..(4 * edges.len() + 50) {
        let forest = Forest::root(n, edges, &incident, &in_tree);
        let sums = forest.subtree_sums(&net);
        // A tree edge with a negative cut value: moving it out of the tree shortens the edges.
        let leave = (0..n).find_map(|v| {
            let e = forest.parent_edge[v]?;
            let cut = if edges[e].0 == v { sums[v] } else { -sums[v] };
            (cut < 0).then_some((e, v))
        });
        let Some((leave, child)) = leave else {
            return;
        };
        let inside = |x: usize| forest.contains(child, x);
        // The edge `leave` goes out of the subtree when its tail is the child; the entering
        // edge must cross the cut the other way.
        let tail_inside = edges[leave].0 == child;
        let enter = edges
            .iter()
            .enumerate()
            .filter(|&(i, &(a, b))| {
                !in_tree[i] && inside(a) != inside(b) && inside(b) == tail_inside
            })
            .min_by_key(|&(_, &e)| slack(rank, e))
            .map(|(i, _)| i);
        let Some(enter) = enter else {
            return;
        };
        let s = slack(rank, edges[enter]);
        let delta = if inside(edges[enter].1) { -s } else { s };
        for (x, r) in rank.iter_mut().enumerate() {
            if inside(x) {
                *r += delta;
            }
        }
        in_tree[leave] = false;
        in_tree[enter] = true;
    }
}

/// A spanning forest of tight edges (one tree per connected part), shifting the ranks of the
/// tree grown so far until the nearest edge out of it is tight.
fn feasible_tree(
    n: usize,
    edges: &[(usize, usize)],
    incident: &[Vec<usize>],
    rank: &mut [i64],
) -> Vec<bool> {
    let mut in_tree = vec![false; edges.len()];
    let mut member = vec![false; n];
    for start in 0..n {
        if member[start] {
            continue;
        }
        member[start] = true;
        let mut tree = vec![start];
        loop {
            // Grow along tight edges.
            let mut i = 0;
            while i < tree.len() {
                let u = tree[i];
                for &e in &incident[u] {
                    let (a, b) = edges[e];
                    let other = if a == u { b } else { a };
                    if !member[other] && slack(rank, edges[e]) == 0 {
                        member[other] = true;
                        in_tree[e] = true;
                        tree.push(other);
                    }
                }
                i += 1;
            }
            let nearest = tree
                .iter()
                .flat_map(|&u| incident[u].iter().copied())
                .filter(|&e| member[edges[e].0] != member[edges[e].1])
                .min_by_key(|&e| slack(rank, edges[e]));
            let Some(e) = nearest else {
                break;
            };
            let s = slack(rank, edges[e]);
            let delta = if member[edges[e].0] { s } else { -s };
            for &u in &tree {
                rank[u] += delta;
            }
        }
    }
    in_tree
}

/// A rooted spanning forest: parents, and postorder numbers so that `x` lies in the subtree of
/// `v` exactly when `low[v] <= lim[x] <= lim[v]`.
struct Forest {
    parent: Vec<Option<usize>>,
    parent_edge: Vec<Option<usize>>,
    order: Vec<usize>,
    lim: Vec<usize>,
    low: Vec<usize>,
}

impl Forest {
    fn root(n: usize, edges: &[(usize, usize)], incident: &[Vec<usize>], tree: &[bool]) -> Forest {
        let mut parent = vec![None; n];
        let mut parent_edge = vec![None; n];
        let mut lim = vec![0usize; n];
        let mut low = vec![usize::MAX; n];
        let mut seen = vec![false; n];
        let mut order = Vec::with_capacity(n);
        for root in 0..n {
            if seen[root] {
                continue;
            }
            seen[root] = true;
            let mut stack = vec![(root, 0usize)];
            while let Some(&mut (u, ref mut i)) = stack.last_mut() {
                if let Some(&e) = incident[u].get(*i) {
                    *i += 1;
                    let (a, b) = edges[e];
                    let v = if a == u { b } else { a };
                    if tree[e] && !seen[v] {
                        seen[v] = true;
                        parent[v] = Some(u);
                        parent_edge[v] = Some(e);
                        stack.push((v, 0));
                    }
                } else {
                    stack.pop();
                    lim[u] = order.len();
                    low[u] = low[u].min(lim[u]);
                    if let Some(&(p, _)) = stack.last() {
                        low[p] = low[p].min(low[u]);
                    }
                    order.push(u);
                }
            }
        }
        Forest {
            parent,
            parent_edge,
            order,
            lim,
            low,
        }
    }

    fn contains(&self, v: usize, x: usize) -> bool {
        self.low[v] <= self.lim[x] && self.lim[x] <= self.lim[v]
    }

    /// Sum of `value` over each box's subtree.
    fn subtree_sums(&self, value: &[i64]) -> Vec<i64> {
        let mut sum = value.to_vec();
        // Postorder: every child is added to its parent before the parent is read.
        for &u in &self.order {
            if let Some(p) = self.parent[u] {
                sum[p] += sum[u];
            }
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn span(rank: &[usize], edges: &[(usize, usize)]) -> usize {
        edges.iter().map(|&(a, b)| rank[b] - rank[a]).sum()
    }

    /// The smallest total span by trying every ranking with ranks below `n`.
    fn brute_force(n: usize, edges: &[(usize, usize)]) -> usize {
        let mut best = usize::MAX;
        let mut rank = vec![0usize; n];
        loop {
            if edges.iter().all(|&(a, b)| rank[a] < rank[b]) {
                best = best.min(span(&rank, edges));
            }
            let mut i = 0;
            while i < n && rank[i] + 1 == n {
                rank[i] = 0;
                i += 1;
            }
            if i == n {
                return best;
            }
            rank[i] += 1;
        }
    }

    #[test]
    fn a_source_joins_its_successor() {
        // Longest path puts 3 on rank 0, three ranks above 2; the optimum puts it on rank 1.
        let edges = [(0, 1), (1, 2), (2, 4), (3, 4)];
        let r = ranks(5, &edges);
        assert_eq!(r, [0, 1, 2, 2, 3]);
        assert_eq!(span(&r, &edges), 4);
    }

    #[test]
    fn known_optimum_of_gansners_example() {
        // Figure 2-1 of Gansner et al.: a..h; the optimal ranking has total span 10, which
        // longest path misses (it puts e and f on rank 1, making e→g and f→g long).
        let (a, b, c, d, e, f, g, h) = (0, 1, 2, 3, 4, 5, 6, 7);
        let edges = [
            (a, b),
            (b, c),
            (c, d),
            (d, h),
            (a, e),
            (a, f),
            (e, g),
            (f, g),
            (g, h),
        ];
        let r = ranks(8, &edges);
        assert!(edges.iter().all(|&(x, y)| r[x] < r[y]), "{r:?}");
        assert_eq!(span(&r, &edges), 10, "{r:?}");
        assert_eq!(span(&r, &edges), brute_force(8, &edges));
    }

    #[test]
    fn disconnected_parts_are_each_ranked_from_zero_or_more() {
        let edges = [(0, 1), (2, 3), (3, 4)];
        let r = ranks(6, &edges);
        assert_eq!(span(&r, &edges), 3);
        assert!(r.contains(&0));
    }

    proptest! {
        #[test]
        fn network_simplex_finds_the_smallest_total_span(
            n in 1usize..7,
            raw in prop::collection::vec((0usize..7, 0usize..7), 0..12),
        ) {
            let edges: Vec<(usize, usize)> = raw
                .into_iter()
                .map(|(a, b)| (a % n, b % n))
                .filter(|(a, b)| a != b)
                .collect();
            let dag = acyclic(n, &edges);
            let r = ranks(n, &dag);
            prop_assert!(dag.iter().all(|&(a, b)| r[a] < r[b]), "{dag:?} {r:?}");
            prop_assert_eq!(span(&r, &dag), brute_force(n, &dag), "{:?} {:?}", dag, r);
        }
    }
}
