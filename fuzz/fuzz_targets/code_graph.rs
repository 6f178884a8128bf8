//! Any bytes as source code of any of the twelve languages: extraction and call resolution
//! never panic, and the graph they make is well formed (unique node ids, every edge and every
//! unresolved or builtin call starting at a node, every edge ending at one).
//!
//! The first byte picks the language; the rest is split at the first 0xFF byte into two files
//! of that language in one folder, so that imports and calls between files are exercised too.
#![no_main]

use easel_codegraph::{Lang, extract, graph_from_facts};
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;

const EXT: [&str; 12] = ["py", "ts", "tsx", "js", "go", "rs", "java", "c", "cpp", "rb", "cs", "sh"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let i = usize::from(pick) % Lang::ALL.len();
    let (lang, ext) = (Lang::ALL[i], EXT[i]);
    let (a, b) = match rest.iter().position(|&c| c == 0xFF) {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &[][..]),
    };
    let mut facts = Vec::new();
    for (name, src) in [("pkg/main", a), ("pkg/util", b)] {
        if let Ok(f) = extract(lang, &format!("{name}.{ext}"), src) {
            facts.push(f);
        }
    }
    let graph = graph_from_facts(&facts);
    let mut ids = HashSet::new();
    for n in &graph.nodes {
        assert!(ids.insert(n.id.as_str()), "two nodes share the id {}", n.id);
    }
    for e in &graph.edges {
        assert!(ids.contains(e.from.as_str()), "edge from a missing node: {e:?}");
        assert!(ids.contains(e.to.as_str()), "edge to a missing node: {e:?}");
    }
    for u in graph.unresolved.iter().chain(&graph.builtin_calls) {
        assert!(ids.contains(u.from.as_str()), "call from a missing node: {u:?}");
    }
    let _ = easel_codegraph::call_graph(&graph);
});
