//! Clearing the lines that straightening could not: a box in a line's way is tried
//! elsewhere in its rank, a line's end one place along, or more room after a rank, and a try
//! is kept when the drawing scores better.

use super::{HIT_WEIGHT, Layers, MAX_EXTRA, RETRY_ROUNDS, TRIES};

impl Layers {
    /// Boxes that a long edge's straight line passes through: (box, the edge's dummy in the
    /// box's rank).
    fn hits(&self, spacing: f64) -> Vec<(usize, usize)> {
        let (band_at, depth) = self.bands(spacing);
        let main = |v: usize| band_at[self.rank[v]] + (depth[self.rank[v]] - self.lens[v].0) / 2.0;
        let mut out = Vec::new();
        for d in self.real..self.rank.len() {
            let Some((a, b, _)) = self.chain[d] else {
                continue;
            };
            let r = self.rank[d];
            let (y0, y1) = (main(a) + self.lens[a].0, main(b));
            if y1 <= y0 {
                continue;
            }
            let at =
                |y: f64| self.centre[a] + (self.centre[b] - self.centre[a]) * (y - y0) / (y1 - y0);
            for &u in &self.layers[r] {
                if u >= self.real {
                    continue;
                }
                let (top, bottom) = (main(u), main(u) + self.lens[u].0);
                let (xa, xb) = (at(top), at(bottom));
                let (lo, hi) = (
                    self.centre[u] - self.lens[u].1 / 2.0,
                    self.centre[u] + self.lens[u].1 / 2.0,
                );
                if xa.max(xb) > lo + 1.0 && xa.min(xb) < hi - 1.0 {
                    out.push((u, d));
                }
            }
        }
        out
    }

    /// Where straightening could not clear a line (a box sits between edges that meet at one
    /// node, or in a crowded rank), tries the box on the other side of the edge, or of the
    /// whole run of edges next to it, or the line's ends one place along, straightens again,
    /// and keeps the move when the drawing scores better. Every line through a box gets its
    /// tries, not only the first through each box. The number of tries is bounded, which
    /// bounds the time; a try stops being counted once it is worse than the best.
    pub(super) fn clear_lines(&mut self, spacing: f64) {
        let weigh = |(c, t): (usize, usize)| (c + HIT_WEIGHT * t, t);
        let mut best = weigh(crate::judge::lines(
            &self.judged_positions(spacing),
            &self.sizes,
            &self.edges,
            self.axes,
        ));
        let mut budget = TRIES;
        for _ in 0..4 {
            if best.1 == 0 || budget == 0 {
                return;
            }
            let mut improved = false;
            let mut tried = std::collections::HashSet::new();
            for (u, d) in self.hits(spacing) {
                if !tried.insert((u, d)) {
                    continue;
                }
                for change in self.moves(u, d, spacing) {
                    if budget == 0 {
                        return;
                    }
                    budget -= 1;
                    let r = match &change {
                        Change::Order(r, _) => *r,
                        Change::Gap(..) => self.rank[u],
                    };
                    let saved = (
                        self.layers[r].clone(),
                        self.extra.clone(),
                        self.centre.clone(),
                        self.lens.clone(),
                        self.target.clone(),
                        self.stale.clone(),
                    );
                    match change {
                        Change::Order(_, mut order) => {
                            self.blocks.group(&mut order);
                            if order == saved.0 {
                                // Nothing moved (a block holds the box in place): no try.
                                budget += 1;
                                continue;
                            }
                            self.layers[r] = order;
                            self.stale[r] = true;
                        }
                        Change::Gap(g, by) => self.extra[g] += by,
                    }
                    self.straighten(spacing, RETRY_ROUNDS);
                    let now_at = self.judged_positions(spacing);
                    let now = crate::judge::bounded(
                        &now_at,
                        &self.sizes,
                        &self.edges,
                        self.axes,
                        HIT_WEIGHT,
                        best.0,
                    );
                    if let Some(now) = now
                        && weigh(now) < best
                    {
                        best = weigh(now);
                        improved = true;
                        break;
                    }
                    (
                        self.layers[r],
                        self.extra,
                        self.centre,
                        self.lens,
                        self.target,
                        self.stale,
                    ) = saved;
                }
            }
            if !improved {
                return;
            }
        }
    }

    /// Orders of `u`'s rank with `u` moved past dummy `d`, past the run of dummies `d` is part
    /// of, and past every dummy whose edge shares an end with `d`'s: lines that meet at one
    /// box close in on each other near it, and a box between them is hit however it moves.
    fn moves(&self, u: usize, d: usize, spacing: f64) -> Vec<Change> {
        let r = self.rank[u];
        let layer = &self.layers[r];
        let (Some(iu), Some(id)) = (
            layer.iter().position(|&x| x == u),
            layer.iter().position(|&x| x == d),
        ) else {
            return Vec::new();
        };
        let Some((a, b, _)) = self.chain[d] else {
            return Vec::new();
        };
        let mut ends = vec![id];
        let mut run = id;
        while iu < id && run + 1 < layer.len() && layer[run + 1] >= self.real {
            run += 1;
        }
        while iu > id && run > 0 && layer[run - 1] >= self.real {
            run -= 1;
        }
        ends.push(run);
        let shares =
            |x: usize| self.chain[x].is_some_and(|(p, q, _)| p == a || q == b || p == b || q == a);
        let wedge = if iu < id {
            (id..layer.len()).rev().find(|&i| shares(layer[i]))
        } else {
            (0..=id).find(|&i| shares(layer[i]))
        };
        ends.extend(wedge);
        ends.sort_unstable();
        ends.dedup();
        // More room between u's rank and the line's nearer end spreads the lines that meet
        // there, so the box may fit between them without moving across any.
        let gap = if r - self.rank[a] <= self.rank[b] - r {
            r - 1
        } else {
            r
        };
        let mut out = Vec::new();
        if self.extra[gap] < MAX_EXTRA * spacing {
            out.push(Change::Gap(gap, 2.0 * spacing));
        }
        out.extend(ends.into_iter().map(|end| {
            let mut order = layer.clone();
            order.remove(iu);
            // Index `end` of the shortened rank is just past the old `end`, on the side away
            // from where u was, whichever side that was.
            order.insert(end, u);
            Change::Order(r, order)
        }));
        // The line may also clear the box when one of its ends moves a place the same way.
        let rightwards = iu < id;
        for end in [a, b] {
            let row = &self.layers[self.rank[end]];
            let Some(i) = row.iter().position(|&x| x == end) else {
                continue;
            };
            let j = if rightwards { i + 1 } else { i.wrapping_sub(1) };
            if j < row.len() {
                let mut order = row.clone();
                order.swap(i, j);
                out.push(Change::Order(self.rank[end], order));
            }
        }
        out
    }
}

/// A change `clear_lines` tries: a new order of one rank, or more room after a rank.
enum Change {
    Order(usize, Vec<usize>),
    Gap(usize, f64),
}
