//! Impact analysis (callers, callees, blast radius) and symbol lookup.

use crate::error::GraphError;
use crate::model::{EdgeKind, Graph, Node, NodeKind};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// A node next to the target, with how many call edges link them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Neighbor {
    pub id: String,
    pub kind: NodeKind,
    pub qualname: String,
    pub file: String,
    pub start_line: u32,
    /// Call edges between this node (or the functions it aggregates) and the target.
    pub calls: u32,
    /// Hops from the target (1 for direct callers and callees).
    pub depth: u32,
}

/// Counts of an impact analysis.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImpactCounts {
    pub callers: usize,
    pub callees: usize,
    pub blast_radius: usize,
    /// Blast-radius nodes per hop: `by_depth[0]` are at depth 1.
    pub by_depth: Vec<usize>,
    /// Calls made by the target that could not be resolved.
    pub unresolved_calls: usize,
}

/// What changing a symbol may affect.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Impact {
    pub target: Node,
    /// The depth the blast radius was computed to.
    pub depth: u32,
    /// Direct callers, aggregated to their class or module when the target is one.
    pub callers: Vec<Neighbor>,
    /// Direct callees, aggregated the same way.
    pub callees: Vec<Neighbor>,
    /// Everything that transitively calls the target (or imports it, for a module), up to
    /// `depth` hops, nearest first.
    pub blast_radius: Vec<Neighbor>,
    pub counts: ImpactCounts,
    /// Other symbols the query named equally well, by qualified name, when the target was
    /// picked among them by [`pick_symbol`]'s rule.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<String>,
}

/// How a symbol query matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    Exact,
    CaseInsensitive,
    QualifiedSuffix,
    Substring,
    Fuzzy,
}

/// A symbol found by [`search_symbols`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SymbolMatch {
    pub node: Node,
    pub how: MatchKind,
    /// 0..=1, higher is closer.
    pub score: f64,
}

fn suffix_match(qualname: &str, q: &str) -> bool {
    qualname.len() > q.len() && qualname.ends_with(q) && {
        let head = &qualname[..qualname.len() - q.len()];
        head.ends_with('.') || head.ends_with("::") || head.ends_with('/') || head.ends_with(':')
    }
}

fn tier(n: &Node, q: &str, ql: &str) -> Option<MatchKind> {
    if n.id == q || n.qualname == q || n.name == q {
        return Some(MatchKind::Exact);
    }
    if n.qualname.to_lowercase() == ql || n.name.to_lowercase() == ql {
        return Some(MatchKind::CaseInsensitive);
    }
    if suffix_match(&n.qualname, q) || suffix_match(&n.id, q) {
        return Some(MatchKind::QualifiedSuffix);
    }
    if suffix_match(&n.qualname.to_lowercase(), ql) {
        return Some(MatchKind::QualifiedSuffix);
    }
    None
}

fn fuzzy_score(n: &Node, ql: &str) -> f64 {
    let name = n.name.to_lowercase();
    let a = strsim::jaro_winkler(&name, ql);
    let b = strsim::normalized_damerau_levenshtein(&name, ql);
    let c = strsim::normalized_damerau_levenshtein(&n.qualname.to_lowercase(), ql);
    a.max(b).max(c)
}

/// Search symbols: exact, case-insensitive and qualified-suffix matches first, then
/// substrings, then the closest names.
pub fn search_symbols(graph: &Graph, query: &str, limit: usize) -> Vec<SymbolMatch> {
    let q = query.trim();
    let ql = q.to_lowercase();
    let mut out: Vec<SymbolMatch> = Vec::new();
    for n in &graph.nodes {
        if let Some(how) = tier(n, q, &ql) {
            out.push(SymbolMatch {
                node: n.clone(),
                how,
                score: 1.0,
            });
        } else if !ql.is_empty() && n.qualname.to_lowercase().contains(&ql) {
            out.push(SymbolMatch {
                node: n.clone(),
                how: MatchKind::Substring,
                score: ql.len() as f64 / n.qualname.len().max(1) as f64,
            });
        } else {
            let s = fuzzy_score(n, &ql);
            if s >= 0.75 {
                out.push(SymbolMatch {
                    node: n.clone(),
                    how: MatchKind::Fuzzy,
                    score: s,
                });
            }
        }
    }
    out.sort_by(|a, b| {
        a.how
            .cmp(&b.how)
            .then(b.score.total_cmp(&a.score))
            .then(kind_rank(a.node.kind).cmp(&kind_rank(b.node.kind)))
            .then(a.node.qualname.len().cmp(&b.node.qualname.len()))
            .then(a.node.id.cmp(&b.node.id))
    });
    out.truncate(limit);
    out
}

fn kind_rank(k: NodeKind) -> u8 {
    match k {
        NodeKind::Func => 0,
        NodeKind::Class => 1,
        NodeKind::Module => 2,
    }
}

/// Find the one symbol a query names: exact (id, qualified name or name), then
/// case-insensitive, then qualified suffix (`Class.method`). When nothing matches, the error
/// carries the closest names as suggestions.
pub fn find_symbol<'g>(graph: &'g Graph, query: &str) -> Result<&'g Node, GraphError> {
    let q = query.trim();
    let ql = q.to_lowercase();
    // Ids and qualified names before short names: `app.main` is one thing even when many
    // modules have a `main`.
    if let Some(n) = graph.nodes.iter().find(|n| n.id == q) {
        return Ok(n);
    }
    let tiers: [&dyn Fn(&Node) -> bool; 6] = [
        &|n| n.qualname == q,
        &|n| n.name == q,
        &|n| n.qualname.to_lowercase() == ql,
        &|n| n.name.to_lowercase() == ql,
        &|n| suffix_match(&n.qualname, q) || suffix_match(&n.id, q),
        &|n| suffix_match(&n.qualname.to_lowercase(), &ql),
    ];
    for t in tiers {
        let found: Vec<&Node> = graph.nodes.iter().filter(|n| t(n)).collect();
        match found.len() {
            0 => continue,
            1 => return Ok(found[0]),
            _ => {
                // A module and its package share a qualified name with nothing else; prefer
                // functions, then classes, when the rest are modules.
                let best = found.iter().map(|n| kind_rank(n.kind)).min().unwrap_or(0);
                let top: Vec<&&Node> = found.iter().filter(|n| kind_rank(n.kind) == best).collect();
                if top.len() == 1 {
                    return Ok(top[0]);
                }
                let mut candidates: Vec<String> = top.iter().map(|n| n.id.clone()).collect();
                candidates.sort();
                candidates.truncate(10);
                return Err(GraphError::Ambiguous {
                    query: q.to_string(),
                    candidates,
                });
            }
        }
    }
    let mut scored: Vec<(f64, &Node)> = graph
        .nodes
        .iter()
        .filter(|n| n.kind != NodeKind::Module)
        .map(|n| (fuzzy_score(n, &ql), n))
        .filter(|(s, _)| *s >= 0.7)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.qualname.cmp(&b.1.qualname)));
    let mut suggestions: Vec<String> = Vec::new();
    for (_, n) in scored {
        let s = if graph.nodes.iter().filter(|m| m.name == n.name).count() == 1 {
            n.name.clone()
        } else {
            n.qualname.clone()
        };
        if !suggestions.contains(&s) {
            suggestions.push(s);
        }
        if suggestions.len() == 5 {
            break;
        }
    }
    Err(GraphError::SymbolNotFound {
        query: q.to_string(),
        suggestions,
    })
}

/// A symbol picked for a query, and the others it named equally well.
#[derive(Debug, Clone)]
pub struct Picked<'g> {
    pub node: &'g Node,
    /// The qualified names of the other candidates, most likely first.
    pub alternatives: Vec<String>,
}

/// Like [`find_symbol`], but when several symbols match equally well, the most likely one is
/// picked rather than an error returned: a function or class defined at the top level of its
/// module before a method or nested definition (`helpers.url_for` before `Flask.url_for`),
/// then the one with the most call sites, then the one whose module is the shallowest. Only
/// when candidates tie on all of these is the query still ambiguous.
pub fn pick_symbol<'g>(graph: &'g Graph, query: &str) -> Result<Picked<'g>, GraphError> {
    let candidates = match find_symbol(graph, query) {
        Ok(node) => {
            return Ok(Picked {
                node,
                alternatives: Vec::new(),
            });
        }
        Err(GraphError::Ambiguous { candidates, .. }) => candidates,
        Err(e) => return Err(e),
    };
    let mut calls: HashMap<&str, usize> = HashMap::new();
    for e in graph.edges.iter().filter(|e| e.kind == EdgeKind::Call) {
        if candidates.contains(&e.to) {
            *calls.entry(e.to.as_str()).or_insert(0) += 1;
        }
    }
    let mut nodes: Vec<&Node> = candidates.iter().filter_map(|c| graph.node(c)).collect();
    // Smaller is likelier.
    let rank = |n: &Node| {
        let local = n.id.split_once(':').map_or("", |(_, l)| l);
        (
            usize::from(local.contains('.')),
            usize::MAX - calls.get(n.id.as_str()).copied().unwrap_or(0),
            n.file.matches('/').count(),
        )
    };
    nodes.sort_by(|a, b| rank(a).cmp(&rank(b)).then(a.id.cmp(&b.id)));
    match nodes.as_slice() {
        [first, second, ..] if rank(first) != rank(second) => Ok(Picked {
            node: first,
            alternatives: nodes[1..].iter().map(|n| n.qualname.clone()).collect(),
        }),
        _ => Err(GraphError::Ambiguous {
            query: query.trim().to_string(),
            candidates,
        }),
    }
}

/// Impact of changing `symbol`: direct callers and callees and the blast radius to `depth`.
/// A name several symbols share is resolved by [`pick_symbol`]'s rule; the others are listed
/// in [`Impact::alternatives`].
pub fn impact(graph: &Graph, symbol: &str, depth: u32) -> Result<Impact, GraphError> {
    let picked = pick_symbol(graph, symbol)?;
    let alternatives = picked.alternatives;
    let target = picked.node.clone();
    let by_id: HashMap<&str, &Node> = graph.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
    let mut parent: HashMap<&str, &str> = HashMap::new();
    let mut children: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut callers_of: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut callees_of: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut importers_of: HashMap<&str, Vec<&str>> = HashMap::new();
    for e in &graph.edges {
        match e.kind {
            EdgeKind::Contains => {
                parent.insert(e.to.as_str(), e.from.as_str());
                children
                    .entry(e.from.as_str())
                    .or_default()
                    .push(e.to.as_str());
            }
            EdgeKind::Call => {
                callers_of
                    .entry(e.to.as_str())
                    .or_default()
                    .push(e.from.as_str());
                callees_of
                    .entry(e.from.as_str())
                    .or_default()
                    .push(e.to.as_str());
            }
            EdgeKind::Import => {
                importers_of
                    .entry(e.to.as_str())
                    .or_default()
                    .push(e.from.as_str());
            }
            EdgeKind::Inherits => {}
        }
    }
    // Seeds: the target and, for a class or module, everything it contains.
    let mut seeds: HashSet<&str> = HashSet::new();
    let mut stack = vec![target.id.as_str()];
    while let Some(s) = stack.pop() {
        if seeds.insert(s)
            && target.kind != NodeKind::Func
            && let Some(ch) = children.get(s)
        {
            stack.extend(ch.iter().copied());
        }
    }
    // Aggregation of neighbours for class and module targets.
    let aggregate = |id: &'_ str| -> String {
        match target.kind {
            NodeKind::Func => id.to_string(),
            NodeKind::Class | NodeKind::Module => {
                let want = target.kind;
                let mut cur = id;
                loop {
                    if by_id.get(cur).is_some_and(|n| n.kind == want) {
                        return cur.to_string();
                    }
                    match parent.get(cur) {
                        Some(p) => cur = p,
                        None => return id.to_string(),
                    }
                }
            }
        }
    };
    let neighbors = |adj: &HashMap<&str, Vec<&str>>| -> Vec<Neighbor> {
        let mut count: HashMap<String, u32> = HashMap::new();
        for s in &seeds {
            for &n in adj.get(s).map(Vec::as_slice).unwrap_or(&[]) {
                if seeds.contains(n) {
                    continue;
                }
                *count.entry(aggregate(n)).or_insert(0) += 1;
            }
        }
        let mut out: Vec<Neighbor> = count
            .into_iter()
            .filter_map(|(id, calls)| {
                let n = by_id.get(id.as_str())?;
                Some(neighbor(n, calls, 1))
            })
            .collect();
        out.sort_by(|a, b| b.calls.cmp(&a.calls).then(a.qualname.cmp(&b.qualname)));
        out
    };
    let callers = neighbors(&callers_of);
    let callees = neighbors(&callees_of);
    // Blast radius: breadth-first over incoming calls (and imports, for a module).
    let mut dist: HashMap<&str, u32> = HashMap::new();
    let mut hits: HashMap<&str, u32> = HashMap::new();
    let mut queue: VecDeque<(&str, u32)> = seeds.iter().map(|s| (*s, 0)).collect();
    let mut visited: HashSet<&str> = seeds.clone();
    while let Some((n, d)) = queue.pop_front() {
        if d >= depth {
            continue;
        }
        let mut ups: Vec<&str> = callers_of.get(n).cloned().unwrap_or_default();
        if target.kind == NodeKind::Module
            || by_id
                .get(n)
                .is_some_and(|x| x.kind == NodeKind::Module && d > 0)
        {
            ups.extend(importers_of.get(n).cloned().unwrap_or_default());
        }
        for u in ups {
            *hits.entry(u).or_insert(0) += 1;
            if visited.insert(u) {
                dist.insert(u, d + 1);
                queue.push_back((u, d + 1));
            }
        }
    }
    let mut blast: Vec<Neighbor> = dist
        .iter()
        .filter_map(|(id, d)| {
            let n = by_id.get(id)?;
            Some(neighbor(n, hits.get(id).copied().unwrap_or(0), *d))
        })
        .collect();
    blast.sort_by(|a, b| {
        a.depth
            .cmp(&b.depth)
            .then(a.qualname.cmp(&b.qualname))
            .then(a.id.cmp(&b.id))
    });
    let mut by_depth = vec![0usize; depth as usize];
    for b in &blast {
        if let Some(slot) = by_depth.get_mut(b.depth as usize - 1) {
            *slot += 1;
        }
    }
    let unresolved_calls = graph
        .unresolved
        .iter()
        .filter(|u| seeds.contains(u.from.as_str()))
        .count();
    Ok(Impact {
        counts: ImpactCounts {
            callers: callers.len(),
            callees: callees.len(),
            blast_radius: blast.len(),
            by_depth,
            unresolved_calls,
        },
        target,
        depth,
        callers,
        callees,
        blast_radius: blast,
        alternatives,
    })
}

fn neighbor(n: &Node, calls: u32, depth: u32) -> Neighbor {
    Neighbor {
        id: n.id.clone(),
        kind: n.kind,
        qualname: n.qualname.clone(),
        file: n.file.clone(),
        start_line: n.start_line,
        calls,
        depth,
    }
}
