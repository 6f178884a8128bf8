//! The call graph in the interchange shape of call-graph tools (PyCG's `callgraph.json`): an
//! object from every module and function, by qualified name, to the sorted qualified names it
//! calls. Classes are not callers of their own (their bodies run as part of the module), so
//! they are not keys; calls to the language's builtins are `<builtin>.name`.

use crate::model::{EdgeKind, Graph, NodeKind};
use foldhash::HashMap;
use std::collections::{BTreeMap, BTreeSet};

/// The call graph as `{caller: [callees]}`, sorted, with every module and function present
/// even when it calls nothing. Redefinitions share a qualified name and so one entry.
/// Calls that stay unresolved are left out: they have no target to name.
pub fn call_graph(graph: &Graph) -> BTreeMap<String, Vec<String>> {
    let by_id: HashMap<&str, &crate::model::Node> =
        graph.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for n in &graph.nodes {
        if n.kind != NodeKind::Class {
            out.entry(n.qualname.clone()).or_default();
        }
    }
    for e in graph.edges.iter().filter(|e| e.kind == EdgeKind::Call) {
        if let (Some(from), Some(to)) = (by_id.get(e.from.as_str()), by_id.get(e.to.as_str())) {
            out.entry(from.qualname.clone())
                .or_default()
                .insert(to.qualname.clone());
        }
    }
    for b in &graph.builtin_calls {
        let Some(from) = by_id.get(b.from.as_str()) else {
            continue;
        };
        let name = b.name.trim_end_matches('!');
        // Only a builtin named as such: `getattr(o, "x")()` calls what getattr returned, and
        // the decorators that only mark a method's kind are not calls anyone looks for.
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == ':')
            || (from.lang == crate::Lang::Python
                && matches!(name, "staticmethod" | "classmethod" | "property"))
        {
            continue;
        }
        out.entry(from.qualname.clone())
            .or_default()
            .insert(format!("<builtin>.{name}"));
    }
    for u in &graph.unresolved {
        if let (Some(from), Some(target)) = (by_id.get(u.from.as_str()), u.external.as_ref()) {
            out.entry(from.qualname.clone())
                .or_default()
                .insert(target.clone());
        }
    }
    out.into_iter()
        .map(|(k, v)| (k, v.into_iter().collect()))
        .collect()
}
