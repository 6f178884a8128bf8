//! Edges within one rank, between boxes a rank constraint put side by side. JSON Canvas draws
//! such an edge straight from one box's side to the other's, so any box between the two is in
//! its way: the boxes an edge within a rank joins are kept together, in a block, in the order
//! of their edges.

use std::collections::HashSet;

/// The blocks of boxes joined by edges within their rank.
#[derive(Debug, Default)]
pub(super) struct Blocks {
    /// The block of each real box, if it has one.
    of: Vec<Option<usize>>,
    /// Each block's boxes, left to right: an edge's source before its target where the edges
    /// allow it.
    members: Vec<Vec<usize>>,
}

impl Blocks {
    /// Blocks of `n` boxes from edges whose ends share a rank (others must not be given).
    pub(super) fn new(n: usize, flat: &[(usize, usize)]) -> Blocks {
        let flat: Vec<(usize, usize)> = flat
            .iter()
            .copied()
            .filter(|&(a, b)| a < n && b < n && a != b)
            .collect();
        if flat.is_empty() {
            return Blocks::default();
        }
        let mut parent: Vec<usize> = (0..n).collect();
        let find = |parent: &mut Vec<usize>, mut x: usize| {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        };
        for &(a, b) in &flat {
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            parent[rb] = ra;
        }
        let mut of = vec![None; n];
        let mut members: Vec<Vec<usize>> = Vec::new();
        let mut index = vec![usize::MAX; n];
        let joined: HashSet<usize> = flat.iter().flat_map(|&(a, b)| [a, b]).collect();
        for (u, slot) in of.iter_mut().enumerate() {
            if !joined.contains(&u) {
                continue;
            }
            let r = find(&mut parent, u);
            if index[r] == usize::MAX {
                index[r] = members.len();
                members.push(Vec::new());
            }
            *slot = Some(index[r]);
            members[index[r]].push(u);
        }
        // Kahn's order over the block's edges, lowest box first among the ready ones; boxes
        // on a cycle follow in index order.
        let mut indeg = vec![0usize; n];
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(a, b) in &flat {
            out[a].push(b);
            indeg[b] += 1;
        }
        for block in &mut members {
            let mut ready: std::collections::BTreeSet<usize> =
                block.iter().copied().filter(|&u| indeg[u] == 0).collect();
            let mut placed = Vec::with_capacity(block.len());
            let mut done = HashSet::new();
            while let Some(u) = ready.pop_first() {
                placed.push(u);
                done.insert(u);
                for &v in &out[u] {
                    indeg[v] -= 1;
                    if indeg[v] == 0 {
                        ready.insert(v);
                    }
                }
            }
            placed.extend(block.iter().copied().filter(|u| !done.contains(u)));
            *block = placed;
        }
        Blocks { of, members }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// `order` (one rank) with each block's boxes together, in the block's order, where the
    /// mean of their places was; everything else keeps its order.
    pub(super) fn group(&self, order: &mut Vec<usize>) {
        if self.is_empty() {
            return;
        }
        let block = |u: usize| self.of.get(u).copied().flatten();
        if !order.iter().any(|&u| block(u).is_some()) {
            return;
        }
        let mut sum: std::collections::HashMap<usize, (f64, f64)> = Default::default();
        for (i, &u) in order.iter().enumerate() {
            if let Some(b) = block(u) {
                let e = sum.entry(b).or_insert((0.0, 0.0));
                e.0 += i as f64;
                e.1 += 1.0;
            }
        }
        let mut items: Vec<(f64, Result<usize, usize>)> = Vec::with_capacity(order.len());
        let mut seen = HashSet::new();
        for (i, &u) in order.iter().enumerate() {
            match block(u) {
                None => items.push((i as f64, Ok(u))),
                Some(b) => {
                    if seen.insert(b) {
                        let (s, c) = sum[&b];
                        items.push((s / c, Err(b)));
                    }
                }
            }
        }
        items.sort_by(|p, q| p.0.total_cmp(&q.0));
        let present: HashSet<usize> = order.iter().copied().collect();
        let mut grouped = Vec::with_capacity(order.len());
        for (_, item) in items {
            match item {
                Ok(u) => grouped.push(u),
                Err(b) => grouped.extend(
                    self.members[b]
                        .iter()
                        .copied()
                        .filter(|u| present.contains(u)),
                ),
            }
        }
        *order = grouped;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_comes_together_in_its_edges_order() {
        // 4 -> 1 -> 3 within a rank: wherever they were, they end up side by side in that
        // order, at the mean of their places; 0, 2 and 5 keep their order.
        let blocks = Blocks::new(6, &[(4, 1), (1, 3)]);
        let mut order = vec![1, 0, 2, 3, 5, 4];
        blocks.group(&mut order);
        assert_eq!(order, [0, 2, 4, 1, 3, 5]);
        let mut none = vec![0, 2, 5];
        blocks.group(&mut none);
        assert_eq!(none, [0, 2, 5]);
    }

    #[test]
    fn a_cycle_in_a_block_still_keeps_it_together() {
        let blocks = Blocks::new(4, &[(0, 2), (2, 0), (3, 0)]);
        let mut order = vec![0, 1, 2, 3];
        blocks.group(&mut order);
        assert_eq!(order.len(), 4);
        let at = |u: usize| order.iter().position(|&x| x == u).unwrap_or(9);
        let mut places = [at(0), at(2), at(3)];
        places.sort_unstable();
        assert_eq!(places[2] - places[0], 2, "{order:?}");
        assert!(at(3) < at(0), "{order:?}");
    }
}
