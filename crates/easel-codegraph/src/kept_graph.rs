//! The graph of the last build, edited into the graph of this one.
//!
//! The graph lists each file's pieces together, in file order: nodes, `CONTAINS` edges, then
//! (after every file's `CONTAINS` edges) the other edges, unresolved calls and builtin calls.
//! After a small change most files keep their pieces, so this build's lists are the last
//! build's with a few ranges replaced: they are edited in place (`Vec::splice`, back to front),
//! which moves what follows each edit but neither copies the whole graph nor touches fresh
//! memory. When many ranges change, the lists are built again from the pieces.

use crate::model::{Edge, Graph, Node, Unresolved};
use std::ops::Range;

/// Edits in place up to this many; beyond, moving the tail once per edit costs more than
/// building the list again.
const MAX_SPLICES: usize = 16;

/// A file's piece of one list: the same as an old file's, or new elements.
pub(crate) enum Piece<T> {
    Old(usize),
    New(Vec<T>),
}

/// The last build's graph and where each of its files' pieces are.
pub(crate) struct KeptGraph {
    graph: Graph,
    /// Per old file: the ranges of its nodes, `CONTAINS` edges, other edges (both in
    /// `graph.edges`), unresolved and builtin calls.
    ranges: Vec<[Range<usize>; 5]>,
}

impl KeptGraph {
    /// The graph with each old file's counts; none when the counts do not add up to the
    /// graph's lists (the graph is not of the build the counts are from).
    pub(crate) fn new(counts: &[[u32; 5]], graph: Graph) -> Option<KeptGraph> {
        let mut totals = [0usize; 5];
        for c in counts {
            for (t, n) in totals.iter_mut().zip(c) {
                *t += *n as usize;
            }
        }
        let expected = [
            graph.nodes.len(),
            totals[1],
            graph.edges.len().checked_sub(totals[1])?,
            graph.unresolved.len(),
            graph.builtin_calls.len(),
        ];
        if totals != expected {
            return None;
        }
        // Other edges follow every file's `CONTAINS` edges.
        let mut at = [0, 0, totals[1], 0, 0];
        let ranges = counts
            .iter()
            .map(|c| {
                std::array::from_fn(|p| {
                    let start = at[p];
                    at[p] += c[p] as usize;
                    start..at[p]
                })
            })
            .collect();
        Some(KeptGraph { graph, ranges })
    }

    /// How many elements old file `o` has in each list.
    pub(crate) fn counts(&self, o: usize) -> [u32; 5] {
        match self.ranges.get(o) {
            Some(r) => std::array::from_fn(|p| r[p].len() as u32),
            None => [0; 5],
        }
    }
}

/// Each new file's pieces of the five lists, in file order.
#[derive(Default)]
pub(crate) struct Pieces {
    pub(crate) nodes: Vec<Piece<Node>>,
    pub(crate) contains: Vec<Piece<Edge>>,
    pub(crate) edges: Vec<Piece<Edge>>,
    pub(crate) unresolved: Vec<Piece<Unresolved>>,
    pub(crate) builtin_calls: Vec<Piece<Unresolved>>,
}

/// The graph of `pieces`, taking the old files' pieces from `old` (required when any piece is
/// [`Piece::Old`]: an old piece without it is left out).
pub(crate) fn assemble(old: Option<KeptGraph>, pieces: Pieces) -> Graph {
    let Some(KeptGraph { graph, ranges }) = old else {
        let new = |v| rebuild(Vec::new(), &[], v);
        let mut edges = rebuild(Vec::new(), &[], pieces.contains);
        edges.extend(rebuild(Vec::new(), &[], pieces.edges));
        return Graph {
            nodes: rebuild(Vec::new(), &[], pieces.nodes),
            edges,
            unresolved: new(pieces.unresolved),
            builtin_calls: new(pieces.builtin_calls),
        };
    };
    let n = ranges.len();
    let of = |p: usize| ranges.iter().map(|r| r[p].clone()).collect::<Vec<_>>();
    // Edges: old files' `CONTAINS` ranges are pieces 0..n, their other edges n..2n.
    let mut edge_ranges = of(1);
    edge_ranges.extend(of(2));
    let mut edge_pieces = pieces.contains;
    edge_pieces.extend(pieces.edges.into_iter().map(|p| match p {
        Piece::Old(o) => Piece::Old(n + o),
        new => new,
    }));
    Graph {
        nodes: splice_list(graph.nodes, &of(0), pieces.nodes),
        edges: splice_list(graph.edges, &edge_ranges, edge_pieces),
        unresolved: splice_list(graph.unresolved, &of(3), pieces.unresolved),
        builtin_calls: splice_list(graph.builtin_calls, &of(4), pieces.builtin_calls),
    }
}

/// The list made of `pieces` in order, where `Old(i)` is `old[ranges[i]]`. Old pieces must
/// come in the order of their ranges (they do: both builds list files sorted by path).
fn splice_list<T>(mut old: Vec<T>, ranges: &[Range<usize>], pieces: Vec<Piece<T>>) -> Vec<T> {
    // How many edits, and whether the old pieces are in order and within the list.
    let (mut pos, mut edits, mut pending) = (0, 0, false);
    for p in &pieces {
        match p {
            Piece::New(v) => pending |= !v.is_empty(),
            Piece::Old(i) => {
                let Some(r) = ranges
                    .get(*i)
                    .filter(|r| r.start >= pos && r.end <= old.len())
                else {
                    return rebuild(old, ranges, pieces);
                };
                if r.start > pos || pending {
                    edits += 1;
                }
                (pos, pending) = (r.end, false);
            }
        }
    }
    if pos < old.len() || pending {
        edits += 1;
    }
    if edits > MAX_SPLICES {
        return rebuild(old, ranges, pieces);
    }
    // Each edit replaces the old elements between two kept pieces with the new elements that
    // stand there.
    let mut list: Vec<(Range<usize>, Vec<T>)> = Vec::with_capacity(edits);
    let mut new: Vec<T> = Vec::new();
    pos = 0;
    for p in pieces {
        match p {
            Piece::New(v) => new.extend(v),
            Piece::Old(i) => {
                let r = ranges[i].clone();
                if r.start > pos || !new.is_empty() {
                    list.push((pos..r.start, std::mem::take(&mut new)));
                }
                pos = r.end;
            }
        }
    }
    if pos < old.len() || !new.is_empty() {
        list.push((pos..old.len(), new));
    }
    // Back to front, so that the ranges still to edit do not move.
    for (range, new) in list.into_iter().rev() {
        old.splice(range, new);
    }
    old
}

/// The list built again from the pieces, moving old elements out of `old`.
fn rebuild<T>(old: Vec<T>, ranges: &[Range<usize>], pieces: Vec<Piece<T>>) -> Vec<T> {
    let total: usize = pieces
        .iter()
        .map(|p| match p {
            Piece::Old(i) => ranges.get(*i).map_or(0, |r| r.len()),
            Piece::New(v) => v.len(),
        })
        .sum();
    let mut out = Vec::with_capacity(total);
    let mut slots: Vec<Option<T>> = old.into_iter().map(Some).collect();
    for p in pieces {
        match p {
            Piece::New(v) => out.extend(v),
            Piece::Old(i) => {
                if let Some(kept) = ranges.get(i).and_then(|r| slots.get_mut(r.clone())) {
                    out.extend(kept.iter_mut().filter_map(Option::take));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Old files with their elements; a new build keeps some (in order), drops others and
    /// adds new ones anywhere.
    fn check(old_files: &[Vec<u32>], plan: &[Result<usize, Vec<u32>>]) {
        let mut old = Vec::new();
        let mut ranges = Vec::new();
        for f in old_files {
            let start = old.len();
            old.extend(f.iter().copied());
            ranges.push(start..old.len());
        }
        let expected: Vec<u32> = plan
            .iter()
            .flat_map(|p| match p {
                Ok(o) => old_files[*o].clone(),
                Err(v) => v.clone(),
            })
            .collect();
        let pieces = |plan: &[Result<usize, Vec<u32>>]| {
            plan.iter()
                .map(|p| match p {
                    Ok(o) => Piece::Old(*o),
                    Err(v) => Piece::New(v.clone()),
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(splice_list(old.clone(), &ranges, pieces(plan)), expected);
        assert_eq!(rebuild(old, &ranges, pieces(plan)), expected);
    }

    #[test]
    fn a_changed_piece_is_replaced_where_it_stood() {
        let old = vec![vec![1, 2], vec![3], vec![], vec![4, 5, 6]];
        check(&old, &[Ok(0), Err(vec![30, 31]), Ok(2), Ok(3)]);
        check(&old, &[Err(vec![9]), Ok(1), Ok(3)]);
        check(&old, &[Ok(0), Ok(1), Ok(2), Ok(3), Err(vec![7])]);
        check(&old, &[Err(vec![]), Err(vec![8])]);
        check(&old, &[]);
        check(&[], &[Err(vec![1])]);
    }

    proptest! {
        #[test]
        fn splicing_gives_the_pieces_in_order(
            old_files in prop::collection::vec(prop::collection::vec(0u32..100, 0..4), 0..30),
            choices in prop::collection::vec((any::<bool>(), prop::collection::vec(100u32..200, 0..3), any::<bool>()), 0..30),
        ) {
            // Keep old file i when choices say so, and put new pieces before some of them.
            let mut plan = Vec::new();
            for (i, _) in old_files.iter().enumerate() {
                if let Some((keep, new, before)) = choices.get(i) {
                    if *before { plan.push(Err(new.clone())); }
                    if *keep { plan.push(Ok(i)); }
                } else {
                    plan.push(Ok(i));
                }
            }
            for (_, new, _) in choices.iter().skip(old_files.len()) {
                plan.push(Err(new.clone()));
            }
            check(&old_files, &plan);
        }
    }
}
