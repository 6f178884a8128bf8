//! Ranking for `layered`: cycles broken by reversing depth-first back edges, then ranks by
//! network simplex (Gansner, Koutsofios, North and Vo, "A technique for drawing directed
//! graphs", 1993), which minimises the total rank span of the edges. Every rank an edge skips
//! is a dummy box and a longer line, so the shortest total span is the fewest of both.

use crate::flat::{RankKind, RankSet};
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

/// Ranks under rank constraints, and the acyclic edges between different ranks (each pointing
/// to the later one). Boxes of one `Same` set are ranked as one box; every `Min`/`Source` set
/// is one box that edges only leave (an edge into it is turned round), every `Max`/`Sink`
/// set one that edges only enter; then that box goes to the first (last) rank, and for
/// `Source` (`Sink`) everything else moves one rank away so it is alone there. Edges between
/// boxes of one rank are left out: they run side to side and do not shape the ranking.
pub(crate) fn constrained(
    n: usize,
    edges: &[(usize, usize)],
    sets: &[RankSet<usize>],
) -> (Vec<usize>, Vec<(usize, usize)>) {
    let valid: Vec<(usize, usize)> = edges
        .iter()
        .copied()
        .filter(|&(a, b)| a < n && b < n && a != b)
        .collect();
    let inert = |s: &RankSet<usize>| {
        s.kind == RankKind::Same && s.members.iter().filter(|&&m| m < n).count() < 2
    };
    if sets.iter().all(inert) {
        let dag = acyclic(n, &valid);
        return (ranks(n, &dag), dag);
    }
    // Union-find over the boxes; all first-rank sets form one class, all last-rank sets another.
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut first: Option<(usize, bool)> = None;
    let mut last: Option<(usize, bool)> = None;
    for set in sets {
        let mut members = set.members.iter().copied().filter(|&m| m < n);
        let Some(head) = members.next() else {
            continue;
        };
        for m in members {
            let (ra, rb) = (find(&mut parent, head), find(&mut parent, m));
            parent[rb] = ra;
        }
        let slot = match set.kind {
            RankKind::Same => continue,
            RankKind::Min | RankKind::Source => &mut first,
            RankKind::Max | RankKind::Sink => &mut last,
        };
        let alone = matches!(set.kind, RankKind::Source | RankKind::Sink);
        *slot = Some(match *slot {
            None => (head, alone),
            Some((h, was)) => {
                let (ra, rb) = (find(&mut parent, h), find(&mut parent, head));
                parent[rb] = ra;
                (h, was || alone)
            }
        });
    }
    // A box in both the first- and the last-rank class: the first one wins.
    let mut class_of = vec![0usize; n];
    let mut classes = 0;
    let mut index = vec![usize::MAX; n];
    for (i, class) in class_of.iter_mut().enumerate() {
        let r = find(&mut parent, i);
        if index[r] == usize::MAX {
            index[r] = classes;
            classes += 1;
        }
        *class = index[r];
    }
    let first = first.map(|(h, alone)| (class_of[h], alone));
    let last = last
        .map(|(h, alone)| (class_of[h], alone))
        .filter(|&(c, _)| first.is_none_or(|(f, _)| f != c));
    let is = |slot: Option<(usize, bool)>, c: usize| slot.is_some_and(|(s, _)| s == c);
    let class_edges: Vec<(usize, usize)> = valid
        .iter()
        .map(|&(a, b)| (class_of[a], class_of[b]))
        .filter(|(a, b)| a != b)
        .map(|(a, b)| {
            if is(first, b) || is(last, a) {
                (b, a)
            } else {
                (a, b)
            }
        })
        .collect();
    let dag = acyclic(classes, &class_edges);
    let mut rank = ranks(classes, &dag);
    if let Some((f, alone)) = first {
        rank[f] = 0;
        if alone && (0..classes).any(|c| c != f && rank[c] == 0) {
            for (c, r) in rank.iter_mut().enumerate() {
                if c != f {
                    *r += 1;
                }
            }
        }
    }
    if let Some((l, alone)) = last {
        let top = (0..classes)
            .filter(|&c| c != l)
            .map(|c| rank[c])
            .max()
            .unwrap_or(0);
        let crowded = (0..classes).any(|c| c != l && rank[c] == top);
        rank[l] = if alone && crowded {
            top + 1
        } else {
            top.max(rank[l])
        };
    }
    // Moving a class to the first or last rank may have emptied the rank it left.
    let mut used = rank.clone();
    used.sort_unstable();
    used.dedup();
    let box_rank: Vec<usize> = class_of
        .iter()
        .map(|&c| used.partition_point(|&u| u < rank[c]))
        .collect();
    let mut seen = HashSet::new();
    let box_edges = valid
        .iter()
        .filter(|&&(a, b)| box_rank[a] != box_rank[b])
        .map(|&(a, b)| {
            if box_rank[a] < box_rank[b] {
                (a, b)
            } else {
                (b, a)
            }
        })
        .filter(|e| seen.insert(*e))
        .collect();
    (box_rank, box_edges)
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

    fn set(kind: RankKind, members: &[usize]) -> RankSet<usize> {
        RankSet {
            kind,
            members: members.to_vec(),
        }
    }

    #[test]
    fn same_rank_boxes_land_on_one_rank() {
        // 0 -> 1 -> 2 and 0 -> 3: 3 would sit beside 1; asked to share 2's rank, it does.
        let edges = [(0, 1), (1, 2), (0, 3)];
        let (free, _) = constrained(4, &edges, &[]);
        assert_eq!(free, [0, 1, 2, 1]);
        let (rank, dag) = constrained(4, &edges, &[set(RankKind::Same, &[2, 3])]);
        assert_eq!(rank, [0, 1, 2, 2]);
        assert!(dag.iter().all(|&(a, b)| rank[a] < rank[b]), "{dag:?}");
        // An edge between two boxes of one rank shapes nothing and is left out.
        let (rank, dag) = constrained(3, &[(0, 1), (1, 2)], &[set(RankKind::Same, &[0, 2])]);
        assert_eq!(rank[0], rank[2]);
        assert_eq!(dag.len(), 2);
        assert!(dag.iter().all(|&(a, b)| rank[a] < rank[b]), "{dag:?}");
    }

    #[test]
    fn first_and_last_rank_sets() {
        // A chain 0 -> 1 -> 2 -> 3 and a loose box 4, which would sit on rank 0.
        let edges = [(0, 1), (1, 2), (2, 3)];
        let (rank, _) = constrained(5, &edges, &[set(RankKind::Max, &[4])]);
        assert_eq!(rank[4], 3);
        let (rank, _) = constrained(5, &edges, &[set(RankKind::Sink, &[4])]);
        assert_eq!(rank[4], 4);
        let (rank, _) = constrained(5, &edges, &[set(RankKind::Source, &[4])]);
        assert_eq!(rank, [1, 2, 3, 4, 0]);
        // An edge into a first-rank box is turned round.
        let (rank, dag) = constrained(5, &edges, &[set(RankKind::Min, &[2])]);
        assert_eq!(rank[2], 0);
        assert!(dag.contains(&(2, 1)) && dag.iter().all(|&(a, b)| rank[a] < rank[b]));
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
