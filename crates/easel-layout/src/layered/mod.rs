//! `layered`: a Sugiyama layout. Cycles are broken by reversing depth-first back edges, boxes
//! are ranked by network simplex (see `rank`), long edges get a
//! chain of dummy boxes, barycentre sweeps with transposition reduce crossings, and positions
//! across the ranks come from weighted isotonic regression, which keeps the order and the gaps
//! while pulling each box towards its neighbours. Dummy chains weigh more and are finally
//! pulled onto the straight line between their ends: JSON Canvas draws an edge straight from
//! side to side, so a straight chain is what keeps that line clear of the boxes in between.

use crate::flat::{Axes, Graph, RankSet};
use crate::rank::constrained;
#[cfg(test)]
use crate::rank::{acyclic, ranks};
use blocks::Blocks;
use std::rc::Rc;

/// The cross-axis room a long edge keeps free in each rank it passes.
const DUMMY_WIDTH: f64 = 24.0;

/// How many moves of a box out of an edge's way are tried and judged on each drawing.
const TRIES: usize = 250;

/// How many of the candidate drawings get their lines cleared: all three, because which start
/// ends with the fewest lines through boxes varies from graph to graph; on graphs of more than
/// [`LARGE`] boxes, where a try costs more and finds less, the best two.
const CLEARED: usize = 3;

/// See [`CLEARED`].
const LARGE: usize = 200;

/// Straightening rounds after one change: the drawing was straight before it.
const RETRY_ROUNDS: usize = 3;

/// A line through a box is as bad as this many crossings: a reader can follow a line across
/// another, but not one that vanishes behind a box. (3 left a third more lines through boxes
/// on Graphviz's examples for 10% fewer crossings.)
const HIT_WEIGHT: usize = 8;

/// How far (in pixels) a line may move before straightening places its rank again: a rank
/// whose lines stay put would come out nearly where it is.
const STALE: f64 = 0.5;

/// The most room `clear_lines` adds after one rank, in multiples of the spacing.
const MAX_EXTRA: f64 = 8.0;

mod api;
mod blocks;
mod clear;

pub use api::{Layered, LayeredOptions, layered};

pub(crate) fn place(
    graph: &Graph,
    axes: Axes,
    spacing: f64,
    sets: &[RankSet<usize>],
) -> Vec<(f64, f64)> {
    let n = graph.sizes.len();
    if n == 0 {
        return Vec::new();
    }
    let (rank, edges) = constrained(n, &graph.edges, sets);
    let flat = within_ranks(&graph.edges, &rank);
    let g = Layers::build(n, &edges, &flat, &rank, graph, axes, None);
    best_drawing(g, spacing, true).positions(n, axes, spacing)
}

/// Orders, places and straightens `g` from each candidate order and keeps the drawing that
/// scores best. Fewest crossings between ranks is not fewest crossings of the straight lines
/// JSON Canvas draws, so each good order is drawn and the drawing itself is the judge.
fn best_drawing(g: Layers, spacing: f64, clear: bool) -> Layers {
    let mut drawn: Vec<(Score, Layers)> = g
        .candidate_orders()
        .into_iter()
        .map(|order| {
            let mut h = g.with_order(order);
            h.coordinates(spacing);
            h.straighten(spacing, 10);
            (h.score(spacing), h)
        })
        .collect();
    drawn.sort_by_key(|(score, _)| *score);
    if !clear {
        return drawn.into_iter().next().map_or(g, |(_, h)| h);
    }
    // Clearing lines is the costly step: only the most promising drawings get it.
    drawn.truncate(if g.real > LARGE { CLEARED - 1 } else { CLEARED });
    let mut best: Option<(Score, Layers)> = None;
    for (_, mut h) in drawn {
        h.clear_lines(spacing);
        let score = h.score(spacing);
        if best.as_ref().is_none_or(|(s, _)| score < *s) {
            best = Some((score, h));
        }
    }
    best.map_or(g, |(_, h)| h)
}

/// The edges between two boxes of one rank.
fn within_ranks(edges: &[(usize, usize)], rank: &[usize]) -> Vec<(usize, usize)> {
    edges
        .iter()
        .copied()
        .filter(|&(a, b)| a != b && rank.get(a).is_some_and(|r| rank.get(b) == Some(r)))
        .collect()
}

/// See [`drawn`].
type Score = (usize, usize);

/// How a drawing scores, lower is better: crossings of the straight lines plus the lines
/// through boxes, each of those weighing as much as [`HIT_WEIGHT`] crossings, then the lines
/// through boxes alone.
fn drawn(
    positions: &[(f64, f64)],
    sizes: &[(f64, f64)],
    edges: &[(usize, usize)],
    axes: Axes,
) -> (usize, usize) {
    let (crossings, through) = crate::judge::lines(positions, sizes, edges, axes);
    (crossings + HIT_WEIGHT * through, through)
}

/// The ranks with their boxes in order, dummies included.
#[derive(Clone)]
struct Layers {
    /// Boxes of each rank, in order.
    layers: Vec<Vec<usize>>,
    rank: Vec<usize>,
    /// Neighbours in the rank above and below.
    up: Vec<Vec<usize>>,
    down: Vec<Vec<usize>>,
    /// (main, cross) lengths.
    lens: Vec<(f64, f64)>,
    real: usize,
    /// For a dummy: the real ends of its edge and its place along it (0..1).
    chain: Vec<Option<(usize, usize, f64)>>,
    /// Cross-axis centre of each box.
    centre: Vec<f64>,
    /// Where a dummy should be to lie on its edge's straight line.
    target: Vec<f64>,
    /// The real boxes' sizes, the acyclic edges between them and the axes, to score a
    /// drawing.
    sizes: Vec<(f64, f64)>,
    edges: Vec<(usize, usize)>,
    /// The dummies of each edge, from its source's end.
    chains: Vec<Vec<usize>>,
    axes: Axes,
    /// Room added after each rank to clear a line.
    extra: Vec<f64>,
    /// The caller's gap between ranks, if any.
    rank_gap: Option<f64>,
    /// Boxes joined by edges within their rank, which every order keeps together.
    blocks: Rc<Blocks>,
    /// Ranks whose order, lines or room changed since straightening last placed them: the
    /// others would come out nearly where they are, so straightening skips them.
    stale: Vec<bool>,
    scratch: Scratch,
}

impl Layers {
    fn build(
        n: usize,
        edges: &[(usize, usize)],
        flat: &[(usize, usize)],
        rank: &[usize],
        graph: &Graph,
        axes: Axes,
        rank_gap: Option<f64>,
    ) -> Layers {
        let mut rank = rank.to_vec();
        let mut chains = Vec::with_capacity(edges.len());
        let mut lens: Vec<(f64, f64)> = graph.sizes.iter().map(|&s| axes.lens(s)).collect();
        let mut chain = vec![None; n];
        let mut up: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut down: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(a, b) in edges {
            let (ra, rb) = (rank[a], rank[b]);
            let mut prev = a;
            let mut dummies = Vec::new();
            for r in ra + 1..rb {
                let d = rank.len();
                dummies.push(d);
                rank.push(r);
                lens.push((0.0, DUMMY_WIDTH));
                chain.push(Some((a, b, (r - ra) as f64 / (rb - ra) as f64)));
                up.push(vec![prev]);
                down.push(Vec::new());
                down[prev].push(d);
                prev = d;
            }
            down[prev].push(b);
            up[b].push(prev);
            chains.push(dummies);
        }
        let ranks = rank.iter().copied().max().map_or(0, |r| r + 1);
        // First order: depth first from the sources, so connected boxes start out together.
        let total = rank.len();
        let mut layers: Vec<Vec<usize>> = vec![Vec::new(); ranks];
        let mut seen = vec![false; total];
        let starts: Vec<usize> = (0..n)
            .filter(|&i| up[i].is_empty())
            .chain(0..total)
            .collect();
        for s in starts {
            if seen[s] {
                continue;
            }
            let mut stack = vec![s];
            seen[s] = true;
            while let Some(u) = stack.pop() {
                layers[rank[u]].push(u);
                for &v in down[u].iter().rev() {
                    if !seen[v] {
                        seen[v] = true;
                        stack.push(v);
                    }
                }
            }
        }
        Layers {
            layers,
            rank,
            up,
            down,
            lens,
            real: n,
            chain,
            centre: vec![0.0; total],
            target: vec![0.0; total],
            sizes: graph.sizes.clone(),
            edges: edges.to_vec(),
            chains,
            axes,
            extra: vec![0.0; ranks],
            rank_gap,
            blocks: Rc::new(Blocks::new(n, flat)),
            stale: vec![true; ranks],
            scratch: Scratch::default(),
        }
    }

    fn positions_in_layers(&self) -> Vec<usize> {
        let mut pos = vec![0usize; self.rank.len()];
        for layer in &self.layers {
            for (i, &u) in layer.iter().enumerate() {
                pos[u] = i;
            }
        }
        pos
    }

    /// Crossings between rank `r` and rank `r + 1`.
    fn crossings_between(&self, r: usize, pos: &[usize]) -> usize {
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for &u in &self.layers[r] {
            for &v in &self.down[u] {
                pairs.push((pos[u], pos[v]));
            }
        }
        pairs.sort_unstable();
        // Inversions of the lower ends, counted with a Fenwick tree.
        let width = self.layers.get(r + 1).map_or(0, Vec::len) + 1;
        let mut tree = vec![0usize; width + 1];
        let mut count = 0;
        for (seen, &(_, b)) in pairs.iter().enumerate() {
            let mut i = b + 1;
            let mut le = 0;
            while i > 0 {
                le += tree[i];
                i -= i & i.wrapping_neg();
            }
            count += seen - le;
            let mut i = b + 1;
            while i <= width {
                tree[i] += 1;
                i += i & i.wrapping_neg();
            }
        }
        count
    }

    fn crossings(&self) -> usize {
        let pos = self.positions_in_layers();
        (0..self.layers.len().saturating_sub(1))
            .map(|r| self.crossings_between(r, &pos))
            .sum()
    }

    /// Orders with few crossings between ranks: sweeps from the depth-first order and from
    /// its mirror image (sweeps only find a local optimum; a second start often finds a
    /// lower one).
    fn candidate_orders(&self) -> Vec<Vec<Vec<usize>>> {
        let mut g = self.with_order(self.layers.clone());
        g.sweeps();
        let one = g.layers.clone();
        if g.crossings() == 0 {
            return vec![one];
        }
        g.layers = self
            .layers
            .iter()
            .map(|l| l.iter().rev().copied().collect())
            .collect();
        g.sweeps();
        let two = g.layers.clone();
        // A third start, shuffled by a fixed xorshift so that layouts stay reproducible.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        g.layers = self.layers.clone();
        for layer in &mut g.layers {
            for i in (1..layer.len()).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                layer.swap(i, (state % (i as u64 + 1)) as usize);
            }
        }
        g.sweeps();
        vec![one, two, g.layers]
    }

    fn with_order(&self, layers: Vec<Vec<usize>>) -> Layers {
        Layers {
            layers,
            ..self.clone()
        }
    }

    /// Barycentre sweeps down and up, keeping the best order seen, then transpositions.
    fn sweeps(&mut self) {
        self.group_blocks();
        let mut best = self.layers.clone();
        let mut best_count = self.crossings();
        for round in 0..24 {
            if best_count == 0 {
                break;
            }
            let downwards = round % 2 == 0;
            let ranks: Vec<usize> = if downwards {
                (1..self.layers.len()).collect()
            } else {
                (0..self.layers.len().saturating_sub(1)).rev().collect()
            };
            for r in ranks {
                let pos = self.positions_in_layers();
                let layer = &mut self.layers[r];
                let key = |u: usize| -> f64 {
                    let nb = if downwards {
                        &self.up[u]
                    } else {
                        &self.down[u]
                    };
                    if nb.is_empty() {
                        return pos[u] as f64;
                    }
                    // Alternate rounds use the median, which ignores a far-off neighbour that
                    // the mean would follow; the best order of either is kept.
                    if round % 4 >= 2 {
                        let mut p: Vec<f64> = nb.iter().map(|&v| pos[v] as f64).collect();
                        p.sort_by(f64::total_cmp);
                        let m = p.len() / 2;
                        if p.len() % 2 == 1 {
                            p[m]
                        } else {
                            (p[m - 1] + p[m]) / 2.0
                        }
                    } else {
                        nb.iter().map(|&v| pos[v] as f64).sum::<f64>() / nb.len() as f64
                    }
                };
                let mut keyed: Vec<(f64, usize)> = layer.iter().map(|&u| (key(u), u)).collect();
                keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
                *layer = keyed.into_iter().map(|(_, u)| u).collect();
                self.blocks.group(layer);
            }
            self.transpose();
            self.group_blocks();
            let count = self.crossings();
            if count < best_count {
                best_count = count;
                best = self.layers.clone();
            } else if round >= 8 && count > best_count {
                // Sweeps oscillate once they stop improving; restart from the best order.
                self.layers = best.clone();
            }
        }
        self.layers = best;
    }

    fn group_blocks(&mut self) {
        if !self.blocks.is_empty() {
            for layer in &mut self.layers {
                self.blocks.group(layer);
            }
        }
    }

    /// Swaps neighbours in a rank while that lowers the crossings with both adjacent ranks.
    fn transpose(&mut self) {
        for _ in 0..4 {
            let mut improved = false;
            for r in 0..self.layers.len() {
                let mut pos = self.positions_in_layers();
                for i in 0..self.layers[r].len().saturating_sub(1) {
                    let (u, v) = (self.layers[r][i], self.layers[r][i + 1]);
                    let before = self.pair_crossings(u, v, &pos);
                    let after = self.pair_crossings(v, u, &pos);
                    if after < before {
                        self.layers[r].swap(i, i + 1);
                        pos[u] = i + 1;
                        pos[v] = i;
                        improved = true;
                    }
                }
            }
            if !improved {
                break;
            }
        }
    }

    /// Crossings between the edges of `u` and those of `v` when `u` is left of `v`.
    fn pair_crossings(&self, u: usize, v: usize, pos: &[usize]) -> usize {
        let mut c = 0;
        for nb in [&self.up, &self.down] {
            for &a in &nb[u] {
                for &b in &nb[v] {
                    if pos[a] > pos[b] {
                        c += 1;
                    }
                }
            }
        }
        c
    }

    /// Cross-axis centres: packed first, then sweeps that pull each box towards its neighbours
    /// in the adjacent ranks without changing the order or closing a gap.
    fn coordinates(&mut self, spacing: f64) {
        for layer in &self.layers {
            let mut at = 0.0;
            for &u in layer {
                self.centre[u] = at + self.lens[u].1 / 2.0;
                at += self.lens[u].1 + spacing;
            }
        }
        let ranks = self.layers.len();
        for round in 0..9 {
            let straighten = false;
            let order: Vec<(usize, Pull)> = match round % 3 {
                0 => (1..ranks).map(|r| (r, Pull::Up)).collect(),
                1 => (0..ranks.saturating_sub(1))
                    .rev()
                    .map(|r| (r, Pull::Down))
                    .collect(),
                _ => (0..ranks).map(|r| (r, Pull::Both)).collect(),
            };
            for (r, pull) in order {
                self.settle(r, pull, straighten, spacing);
            }
        }
        self.stale.fill(true);
    }

    fn settle(&mut self, r: usize, pull: Pull, straighten: bool, spacing: f64) {
        // Called for every rank in every round of every try: the buffers are reused.
        let mut buf = std::mem::take(&mut self.scratch);
        buf.want.clear();
        buf.weight.clear();
        buf.gaps.clear();
        let layer = &self.layers[r];
        for &u in layer {
            let (above, below): (&[usize], &[usize]) = match pull {
                Pull::Up => (&self.up[u], &[]),
                Pull::Down => (&[], &self.down[u]),
                Pull::Both => (&self.up[u], &self.down[u]),
            };
            let count = above.len() + below.len();
            let mut w = if u >= self.real { 4.0 } else { 1.0 };
            let target = match self.chain[u] {
                Some(_) if straighten => {
                    w = 1000.0;
                    self.target[u]
                }
                // While edges are straightened, boxes stay unless a corridor pushes them.
                _ if count == 0 || straighten => self.centre[u],
                _ => {
                    above
                        .iter()
                        .chain(below)
                        .map(|&v| self.centre[v])
                        .sum::<f64>()
                        / count as f64
                }
            };
            buf.want.push(target);
            buf.weight.push(w);
        }
        buf.gaps.extend(layer.windows(2).map(|p| {
            let (a, b) = (self.lens[p[0]].1, self.lens[p[1]].1);
            if straighten && p.iter().all(|&u| u >= self.real) {
                // Lines may run as close as they like (even cross) but each sweep's
                // edges must stay in order, so a box beside the run clears all of them.
                (a - b).abs() / 2.0
            } else {
                (a + b) / 2.0 + gap(p, self.real, spacing)
            }
        }));
        isotonic_into(&mut buf);
        for (&u, &c) in layer.iter().zip(&buf.out) {
            self.centre[u] = c;
        }
        self.scratch = buf;
    }

    /// Where each rank's band starts along the main axis, and how deep it is: as deep as its
    /// deepest box.
    fn bands(&self, spacing: f64) -> (Vec<f64>, Vec<f64>) {
        let ranks = self.layers.len();
        let mut depth = vec![0.0f64; ranks];
        for u in 0..self.real {
            depth[self.rank[u]] = depth[self.rank[u]].max(self.lens[u].0);
        }
        let mut band_at = vec![0.0f64; ranks];
        let mut at = 0.0;
        for r in 0..ranks {
            band_at[r] = at;
            // Room for edges to fan out: more edges between two ranks, a little more gap.
            let fan = self.layers[r]
                .iter()
                .map(|&u| self.down[u].len())
                .sum::<usize>();
            let gap = self
                .rank_gap
                .unwrap_or(spacing * 1.5 + (fan as f64).sqrt() * 8.0);
            at += depth[r] + gap + self.extra[r];
        }
        (band_at, depth)
    }

    /// The drawing's score (see [`drawn`]).
    fn score(&self, spacing: f64) -> (usize, usize) {
        let positions = self.positions(self.real, self.axes, spacing);
        drawn(&positions, &self.sizes, &self.edges, self.axes)
    }

    /// Top-left corners of the real boxes, not shifted to start at 0 as in `positions`: the
    /// judge does not care where a drawing starts, and this is called for every try.
    fn judged_positions(&self, spacing: f64) -> Vec<(f64, f64)> {
        let (band_at, depth) = self.bands(spacing);
        (0..self.real)
            .map(|u| {
                let r = self.rank[u];
                let main = band_at[r] + (depth[r] - self.lens[u].0) / 2.0;
                self.axes.xy(main, self.centre[u] - self.lens[u].1 / 2.0)
            })
            .collect()
    }

    /// Pulls every long edge's dummies onto the straight line JSON Canvas will draw (from the
    /// middle of the source's far side to the middle of the target's near side), and widens
    /// each dummy to the room that line sweeps through its rank, so the isotonic placement
    /// pushes boxes out of its way.
    fn straighten(&mut self, spacing: f64, rounds: usize) {
        let (band_at, depth) = self.bands(spacing);
        for round in 0..rounds {
            for u in self.real..self.rank.len() {
                let Some((a, b, _)) = self.chain[u] else {
                    continue;
                };
                let main =
                    |v: usize| band_at[self.rank[v]] + (depth[self.rank[v]] - self.lens[v].0) / 2.0;
                let (y0, y1) = (main(a) + self.lens[a].0, main(b));
                let (x0, x1) = (self.centre[a], self.centre[b]);
                let r = self.rank[u];
                let slope = if y1 > y0 { (x1 - x0) / (y1 - y0) } else { 0.0 };
                let mid = band_at[r] + depth[r] / 2.0;
                let target = x0 + slope * (mid - y0);
                let width = DUMMY_WIDTH.max(slope.abs() * depth[r] + 4.0);
                if (target - self.target[u]).abs() > STALE || (width - self.lens[u].1).abs() > STALE
                {
                    self.stale[r] = true;
                }
                self.target[u] = target;
                self.lens[u].1 = width;
            }
            if !self.stale.iter().any(|&s| s) {
                break;
            }
            self.sort_dummies();
            let ranks = self.layers.len();
            let order: Vec<usize> = if round % 2 == 0 {
                (0..ranks).collect()
            } else {
                (0..ranks).rev().collect()
            };
            for r in order {
                if std::mem::take(&mut self.stale[r]) {
                    self.settle(r, Pull::Both, true, spacing);
                }
            }
        }
    }

    /// Puts the dummies of each rank in the order of their lines, in the places dummies
    /// already hold. Where two straight lines cross is fixed by their ends, so this costs no
    /// crossing, and it lets every dummy reach its line instead of being held off it by a
    /// dummy whose line it crosses elsewhere.
    fn sort_dummies(&mut self) {
        for (layer, _) in self.layers.iter_mut().zip(&self.stale).filter(|(_, s)| **s) {
            let mut dummies: Vec<usize> =
                layer.iter().copied().filter(|&u| u >= self.real).collect();
            dummies.sort_by(|&a, &b| self.target[a].total_cmp(&self.target[b]));
            let mut next = dummies.into_iter();
            for slot in layer.iter_mut() {
                if *slot >= self.real
                    && let Some(d) = next.next()
                {
                    *slot = d;
                }
            }
        }
    }

    /// Where the drawing starts across the ranks: the first box's edge or the first line.
    fn min_cross(&self) -> f64 {
        let boxes = (0..self.real).map(|u| self.centre[u] - self.lens[u].1 / 2.0);
        let lines = (self.real..self.rank.len()).map(|d| self.centre[d]);
        let min = boxes.chain(lines).fold(f64::INFINITY, f64::min);
        if min.is_finite() { min } else { 0.0 }
    }

    /// Top-left corners of the real boxes, centred in their rank's band.
    fn positions(&self, n: usize, axes: Axes, spacing: f64) -> Vec<(f64, f64)> {
        let (band_at, depth) = self.bands(spacing);
        let min_cross = self.min_cross();
        (0..n)
            .map(|u| {
                let r = self.rank[u];
                let main = band_at[r] + (depth[r] - self.lens[u].0) / 2.0;
                let cross = self.centre[u] - self.lens[u].1 / 2.0 - min_cross;
                axes.xy(main, cross)
            })
            .collect()
    }
}

#[derive(Clone, Copy)]
enum Pull {
    Up,
    Down,
    Both,
}

/// Gap between two neighbours: dummies may run closer to each other than boxes.
fn gap(pair: &[usize], real: usize, spacing: f64) -> f64 {
    if pair.iter().all(|&u| u >= real) {
        spacing / 4.0
    } else {
        spacing
    }
}

/// Buffers for [`isotonic_into`].
#[derive(Clone, Default)]
struct Scratch {
    want: Vec<f64>,
    weight: Vec<f64>,
    gaps: Vec<f64>,
    offset: Vec<f64>,
    /// (mean, weight, count) of each pooled block.
    blocks: Vec<(f64, f64, usize)>,
    out: Vec<f64>,
}

/// The positions closest to `want` (weighted least squares) with `x[i+1] - x[i] >= gaps[i]`:
/// pool-adjacent-violators on the positions shifted by the cumulative gaps.
#[cfg(test)]
pub(crate) fn isotonic(want: &[f64], weight: &[f64], gaps: &[f64]) -> Vec<f64> {
    let mut buf = Scratch {
        want: want.to_vec(),
        weight: weight.to_vec(),
        gaps: gaps.to_vec(),
        ..Scratch::default()
    };
    isotonic_into(&mut buf);
    buf.out
}

/// [`isotonic`] from and into `buf`.
fn isotonic_into(buf: &mut Scratch) {
    let n = buf.want.len();
    buf.offset.clear();
    buf.offset.resize(n, 0.0);
    for i in 1..n {
        buf.offset[i] = buf.offset[i - 1] + buf.gaps[i - 1];
    }
    buf.blocks.clear();
    for i in 0..n {
        let mut block = (buf.want[i] - buf.offset[i], buf.weight[i].max(1e-9), 1usize);
        while let Some(&last) = buf.blocks.last() {
            if last.0 <= block.0 {
                break;
            }
            buf.blocks.pop();
            let w = last.1 + block.1;
            block = (
                (last.0 * last.1 + block.0 * block.1) / w,
                w,
                last.2 + block.2,
            );
        }
        buf.blocks.push(block);
    }
    buf.out.clear();
    for &(mean, _, count) in &buf.blocks {
        for _ in 0..count {
            let i = buf.out.len();
            buf.out.push(mean + buf.offset[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isotonic_keeps_order_and_gaps() {
        let x = isotonic(&[10.0, 0.0, 5.0], &[1.0, 1.0, 1.0], &[10.0, 10.0]);
        assert!(x[1] - x[0] >= 10.0 - 1e-9 && x[2] - x[1] >= 10.0 - 1e-9);
        // Unconstrained wishes are met exactly.
        let y = isotonic(&[0.0, 50.0], &[1.0, 1.0], &[10.0]);
        assert_eq!(y, vec![0.0, 50.0]);
    }

    #[test]
    fn cycles_are_broken() {
        let e = acyclic(3, &[(0, 1), (1, 2), (2, 0)]);
        let r = ranks(3, &e);
        assert!(e.iter().all(|&(a, b)| r[a] < r[b]), "{e:?} {r:?}");
    }

    #[test]
    fn a_diamond_has_no_crossings() {
        let g = Graph {
            sizes: vec![(100.0, 50.0); 4],
            edges: vec![(0, 1), (0, 2), (1, 3), (2, 3)],
        };
        let mut l = Layers::build(
            4,
            &g.edges,
            &[],
            &ranks(4, &g.edges),
            &g,
            Axes { right: false },
            None,
        );
        l.sweeps();
        assert_eq!(l.crossings(), 0);
    }

    proptest::proptest! {
        #[test]
        fn boxes_never_overlap_and_edges_run_down_the_ranks(
            sizes in proptest::collection::vec((10.0..200.0f64, 10.0..120.0f64), 1..30),
            raw in proptest::collection::vec((0usize..30, 0usize..30), 0..60),
            right in proptest::bool::ANY,
        ) {
            let n = sizes.len();
            let edges: Vec<(usize, usize)> =
                raw.into_iter().map(|(a, b)| (a % n, b % n)).filter(|(a, b)| a != b).collect();
            let g = Graph { sizes: sizes.clone(), edges: edges.clone() };
            let axes = Axes { right };
            let at = place(&g, axes, 20.0, &[]);
            proptest::prop_assert_eq!(at.len(), n);
            let rect = |i: usize| {
                let (x, y) = at[i];
                let (w, h) = sizes[i];
                (x, y, x + w, y + h)
            };
            for i in 0..n {
                for j in i + 1..n {
                    let (a, b) = (rect(i), rect(j));
                    let apart = a.2 <= b.0 + 1e-6 || b.2 <= a.0 + 1e-6 || a.3 <= b.1 + 1e-6 || b.3 <= a.1 + 1e-6;
                    proptest::prop_assert!(apart, "{} {:?} overlaps {} {:?}", i, a, j, b);
                }
            }
            // After the cycles are broken every edge ends in a later rank: its target lies
            // wholly beyond its source along the layout's direction.
            for (a, b) in acyclic(n, &edges) {
                let (ra, rb) = (rect(a), rect(b));
                let (end, start) = if right { (ra.2, rb.0) } else { (ra.3, rb.1) };
                proptest::prop_assert!(start >= end - 1e-6, "{} -> {}: {:?} {:?}", a, b, ra, rb);
            }
        }
        #[test]
        fn rank_sets_are_honoured_without_overlaps(
            sizes in proptest::collection::vec((10.0..200.0f64, 10.0..120.0f64), 2..25),
            raw in proptest::collection::vec((0usize..25, 0usize..25), 0..50),
            raw_sets in proptest::collection::vec(
                (0usize..5, proptest::collection::vec(0usize..25, 1..5)), 0..4),
            right in proptest::bool::ANY,
        ) {
            use crate::flat::RankKind;
            let n = sizes.len();
            let edges: Vec<(usize, usize)> =
                raw.into_iter().map(|(a, b)| (a % n, b % n)).filter(|(a, b)| a != b).collect();
            let kinds = [RankKind::Same, RankKind::Min, RankKind::Max, RankKind::Source, RankKind::Sink];
            // Disjoint sets, so that what each one asks for can be checked on its own.
            let mut used = std::collections::HashSet::new();
            let sets: Vec<RankSet<usize>> = raw_sets
                .into_iter()
                .map(|(k, m)| RankSet {
                    kind: kinds[k],
                    members: m.into_iter().map(|i| i % n).filter(|&i| used.insert(i)).collect(),
                })
                .filter(|s| !s.members.is_empty())
                .collect();
            let g = Graph { sizes: sizes.clone(), edges };
            let axes = Axes { right };
            let at = place(&g, axes, 20.0, &sets);
            let rect = |i: usize| {
                let (x, y) = at[i];
                let (w, h) = sizes[i];
                (x, y, x + w, y + h)
            };
            for i in 0..n {
                for j in i + 1..n {
                    let (a, b) = (rect(i), rect(j));
                    let apart = a.2 <= b.0 + 1e-6 || b.2 <= a.0 + 1e-6 || a.3 <= b.1 + 1e-6 || b.3 <= a.1 + 1e-6;
                    proptest::prop_assert!(apart, "{} {:?} overlaps {} {:?}", i, a, j, b);
                }
            }
            // Boxes are centred in their rank's band: one rank, one centre along the edges.
            let mid = |i: usize| {
                let r = rect(i);
                if right { (r.0 + r.2) / 2.0 } else { (r.1 + r.3) / 2.0 }
            };
            let (mut firsts, mut lasts) = (Vec::new(), Vec::new());
            for set in &sets {
                match set.kind {
                    RankKind::Min | RankKind::Source => firsts.extend(&set.members),
                    RankKind::Max | RankKind::Sink => lasts.extend(&set.members),
                    RankKind::Same => {}
                }
            }
            for set in &sets {
                let m0 = set.members[0];
                if set.kind == RankKind::Same {
                    for &m in &set.members {
                        proptest::prop_assert!((mid(m) - mid(m0)).abs() < 1e-6, "{:?} {:?}", set, at);
                    }
                }
            }
            let lowest = (0..n).map(mid).fold(f64::INFINITY, f64::min);
            let highest = (0..n).map(mid).fold(f64::NEG_INFINITY, f64::max);
            for &m in &firsts {
                proptest::prop_assert!((mid(m) - lowest).abs() < 1e-6, "{} not first {:?}", m, at);
            }
            for &m in &lasts {
                proptest::prop_assert!((mid(m) - highest).abs() < 1e-6, "{} not last {:?}", m, at);
            }
            if sets.iter().any(|s| s.kind == RankKind::Source) {
                for i in (0..n).filter(|i| !firsts.contains(i)) {
                    proptest::prop_assert!(mid(i) > lowest + 1e-6, "{} shares the source rank {:?}", i, at);
                }
            }
            if sets.iter().any(|s| s.kind == RankKind::Sink) {
                for i in (0..n).filter(|i| !lasts.contains(i) && !firsts.contains(i)) {
                    proptest::prop_assert!(mid(i) < highest - 1e-6, "{} shares the sink rank {:?}", i, at);
                }
            }
        }
    }
}
