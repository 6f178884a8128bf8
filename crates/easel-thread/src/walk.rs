//! The graph part of a conversation (DESIGN.md section 8, rules 1 to 4): which side an edge
//! meets a node, the parent, the chain from the root to the target, and horizontal context.

use easel_canvas::geometry::side_facing;
use easel_canvas::{Canvas, Edge, Node, Side};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

/// The result of walking up from a target.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Walk<'c> {
    /// Root first, target last.
    pub chain: Vec<&'c Node>,
    /// For each chain node (same index), its horizontal context nodes in edge order, each node
    /// listed once, at its first chain node from the root.
    pub context: Vec<Vec<&'c Node>>,
}

/// Node and edge lookups built once per walk, so a deep chain on a large canvas stays linear.
pub struct Index<'c> {
    canvas: &'c Canvas,
    nodes: HashMap<&'c str, &'c Node>,
    /// Edge indices by the node they touch, in edge-array order.
    incident: HashMap<&'c str, Vec<usize>>,
}

impl<'c> Index<'c> {
    pub fn new(canvas: &'c Canvas) -> Index<'c> {
        let mut nodes = HashMap::with_capacity(canvas.nodes().len());
        for n in canvas.nodes() {
            // The first of duplicate ids wins, as everywhere else in Easel.
            nodes.entry(n.id()).or_insert(n);
        }
        let mut incident: HashMap<&str, Vec<usize>> = HashMap::with_capacity(canvas.nodes().len());
        for (i, e) in canvas.edges().iter().enumerate() {
            incident.entry(e.from_node()).or_default().push(i);
            if e.to_node() != e.from_node() {
                incident.entry(e.to_node()).or_default().push(i);
            }
        }
        Index {
            canvas,
            nodes,
            incident,
        }
    }

    pub fn node(&self, id: &str) -> Option<&'c Node> {
        self.nodes.get(id).copied()
    }

    fn edges_at(&self, id: &str) -> impl Iterator<Item = &'c Edge> + '_ {
        let edges = self.canvas.edges();
        self.incident
            .get(id)
            .into_iter()
            .flatten()
            .map(move |&i| &edges[i])
    }

    /// Rule 1: the side at which `edge` meets `node`: `toSide` when the node is `toNode`,
    /// `fromSide` when it is `fromNode`, else from the centres of the two nodes.
    pub fn side_at(&self, edge: &Edge, node: &Node) -> Option<Side> {
        let id = node.id();
        let (declared, other) = if edge.to_node() == id {
            (edge.to_side(), edge.from_node())
        } else if edge.from_node() == id {
            (edge.from_side(), edge.to_node())
        } else {
            return None;
        };
        if declared.is_some() {
            return declared;
        }
        let other = self.node(other)?;
        Some(side_facing(&node.rect()?, &other.rect()?))
    }
}

/// Walks up from `target`. Warnings (ignored extra parents, cycles, dangling edges) go to `warn`.
pub fn walk<'c>(index: &Index<'c>, target: &'c Node, warn: &mut dyn FnMut(String)) -> Walk<'c> {
    // Rules 2 and 3: follow the first top-side parent until the root or a repeat.
    let mut up: Vec<&Node> = vec![target];
    let mut seen: HashSet<&str> = HashSet::new();
    seen.insert(target.id());
    let mut current = target;
    loop {
        let mut parent: Option<&Node> = None;
        for e in index.edges_at(current.id()) {
            if e.to_node() != current.id() || e.from_node() == current.id() {
                continue;
            }
            if index.side_at(e, current) != Some(Side::Top) {
                continue;
            }
            let Some(from) = index.node(e.from_node()) else {
                warn(format!(
                    "edge {}: fromNode '{}' does not exist; ignored",
                    e.id(),
                    e.from_node()
                ));
                continue;
            };
            match parent {
                None => parent = Some(from),
                Some(p) => warn(format!(
                    "node {} has more than one parent above it; following {} (the first edge), ignoring {}",
                    current.id(),
                    p.id(),
                    from.id()
                )),
            }
        }
        let Some(p) = parent else { break };
        if !seen.insert(p.id()) {
            warn(format!(
                "the conversation loops back to node {}; stopping there",
                p.id()
            ));
            break;
        }
        up.push(p);
        current = p;
    }
    up.reverse();
    let chain = up;

    // Rule 4: horizontal context, one level, each node once at its first chain node.
    let in_chain: HashSet<&str> = chain.iter().map(|n| n.id()).collect();
    let mut used: HashSet<&str> = HashSet::new();
    let mut context = Vec::with_capacity(chain.len());
    for n in &chain {
        let mut here = Vec::new();
        for e in index.edges_at(n.id()) {
            if !matches!(index.side_at(e, n), Some(Side::Left | Side::Right)) {
                continue;
            }
            let other_id = if e.from_node() == n.id() {
                e.to_node()
            } else {
                e.from_node()
            };
            if in_chain.contains(other_id) {
                continue;
            }
            let Some(other) = index.node(other_id) else {
                warn(format!(
                    "edge {}: node '{other_id}' does not exist; ignored",
                    e.id()
                ));
                continue;
            };
            if used.insert(other.id()) {
                here.push(other);
            }
        }
        context.push(here);
    }
    Walk { chain, context }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A canvas from a compact description: nodes as (id, x, y), edges as
    /// (id, from, fromSide, to, toSide) with "" for a missing side.
    fn canvas(nodes: &[(&str, i32, i32)], edges: &[(&str, &str, &str, &str, &str)]) -> Canvas {
        let nodes: Vec<String> = nodes
            .iter()
            .map(|(id, x, y)| {
                format!(r#"{{"id":"{id}","type":"text","text":"{id}","x":{x},"y":{y},"width":100,"height":50}}"#)
            })
            .collect();
        let edges: Vec<String> = edges
            .iter()
            .map(|(id, f, fs, t, ts)| {
                let mut s = format!(r#"{{"id":"{id}","fromNode":"{f}","toNode":"{t}""#);
                if !fs.is_empty() {
                    s.push_str(&format!(r#","fromSide":"{fs}""#));
                }
                if !ts.is_empty() {
                    s.push_str(&format!(r#","toSide":"{ts}""#));
                }
                s.push('}');
                s
            })
            .collect();
        Canvas::parse(&format!(
            r#"{{"nodes":[{}],"edges":[{}]}}"#,
            nodes.join(","),
            edges.join(",")
        ))
        .unwrap()
    }

    fn run(c: &Canvas, target: &str) -> (Vec<String>, Vec<Vec<String>>, Vec<String>) {
        let index = Index::new(c);
        let mut warnings = Vec::new();
        let w = walk(&index, index.node(target).unwrap(), &mut |m| {
            warnings.push(m)
        });
        let chain = w.chain.iter().map(|n| n.id().to_owned()).collect();
        let ctx = w
            .context
            .iter()
            .map(|v| v.iter().map(|n| n.id().to_owned()).collect())
            .collect();
        (chain, ctx, warnings)
    }

    #[test]
    fn declared_sides_decide_over_geometry() {
        // b is below a, but the edge says it enters b from the left: context, not parent.
        let c = canvas(
            &[("a", 0, 0), ("b", 0, 200)],
            &[("e", "a", "right", "b", "left")],
        );
        let (chain, ctx, _) = run(&c, "b");
        assert_eq!(chain, ["b"]);
        assert_eq!(ctx, [vec!["a"]]);
    }

    #[test]
    fn missing_sides_come_from_geometry() {
        let c = canvas(
            &[
                ("a", 0, 0),
                ("b", 0, 200),
                ("side", 400, 200),
                ("tie", 200, 400),
            ],
            &[
                ("e1", "a", "", "b", ""),
                ("e2", "side", "", "b", ""),
                ("e3", "b", "", "tie", ""),
            ],
        );
        let (chain, ctx, _) = run(&c, "b");
        assert_eq!(chain, ["a", "b"]);
        assert_eq!(ctx[1], ["side"]);
        // |dx| == |dy|: vertical wins, so b is tie's parent.
        let (chain, _, _) = run(&c, "tie");
        assert_eq!(chain, ["a", "b", "tie"]);
    }

    #[test]
    fn the_first_parent_in_edge_order_wins_and_others_are_reported() {
        let c = canvas(
            &[("p1", 0, 0), ("p2", 200, 0), ("t", 0, 200)],
            &[
                ("e2", "p2", "bottom", "t", "top"),
                ("e1", "p1", "bottom", "t", "top"),
            ],
        );
        let (chain, _, warnings) = run(&c, "t");
        assert_eq!(chain, ["p2", "t"]);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("p1"));
    }

    #[test]
    fn cycles_stop_with_a_warning() {
        let c = canvas(
            &[("a", 0, 0), ("b", 0, 200), ("c", 0, 400)],
            &[
                ("e1", "a", "bottom", "b", "top"),
                ("e2", "b", "bottom", "c", "top"),
                ("e3", "c", "bottom", "a", "top"),
            ],
        );
        let (chain, _, warnings) = run(&c, "c");
        assert_eq!(chain, ["a", "b", "c"]);
        assert!(warnings.iter().any(|w| w.contains("loops")), "{warnings:?}");
    }

    #[test]
    fn dangling_edges_are_ignored_with_a_warning() {
        let c = canvas(
            &[("t", 0, 200)],
            &[
                ("e", "ghost", "bottom", "t", "top"),
                ("f", "t", "right", "gone", "left"),
            ],
        );
        let (chain, ctx, warnings) = run(&c, "t");
        assert_eq!(chain, ["t"]);
        assert!(ctx[0].is_empty());
        assert_eq!(warnings.len(), 2, "{warnings:?}");
    }

    #[test]
    fn context_is_one_level_deduplicated_and_never_children() {
        let c = canvas(
            &[
                ("root", 0, 0),
                ("t", 0, 200),
                ("doc", 400, 0),
                ("deeper", 800, 0),
                ("child", 0, 400),
                ("sib", 400, 400),
            ],
            &[
                ("e1", "root", "bottom", "t", "top"),
                ("e2", "doc", "left", "root", "right"),
                ("e3", "doc", "left", "t", "right"),
                ("e4", "deeper", "left", "doc", "right"),
                ("e5", "t", "bottom", "child", "top"),
                ("e6", "t", "bottom", "sib", "top"),
            ],
        );
        let (chain, ctx, _) = run(&c, "t");
        assert_eq!(chain, ["root", "t"]);
        // doc is used once, at root; deeper is two levels away; children are never context.
        assert_eq!(ctx, [vec!["doc"], vec![]]);
    }
}
