//! The code graph: nodes, edges and the calls that could not be resolved.

use crate::lang::Lang;
use serde::{Deserialize, Serialize};

/// What a node stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "UPPERCASE")]
pub enum NodeKind {
    /// A file; it also stands for the file's top-level code.
    Module,
    /// A class, struct, interface, trait, enum, Ruby module or Rust `impl` target.
    Class,
    /// A function, method, constructor, nested function or a lambda bound to a name.
    Func,
}

/// What an edge means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "UPPERCASE")]
pub enum EdgeKind {
    Contains,
    Import,
    Call,
    Inherits,
}

/// A module, class or function.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    /// Unique in the graph: the file's path, then `:` and the local dotted path for a
    /// definition (`pkg/mod.py:Class.method`); a redefinition of the same path in the same
    /// file gets `#2`, `#3`, ...
    pub id: String,
    pub kind: NodeKind,
    /// The short name (`method`).
    pub name: String,
    /// The name in the language's own convention (`pkg.mod.Class.method`,
    /// `crate::a::Foo::new`). Not unique: redefinitions share it.
    pub qualname: String,
    /// Path relative to the repository root, with `/`.
    pub file: String,
    pub lang: Lang,
    /// First and last line, counted from 1.
    pub start_line: u32,
    pub end_line: u32,
}

/// A directed edge between two node ids.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub kind: EdgeKind,
}

/// A call whose target cannot be known statically, or (in [`Graph::builtin_calls`]) a call to
/// the language's builtins or standard library; kept with the callee as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unresolved {
    /// The calling node (a function, or the module for top-level code).
    pub from: String,
    /// The callee as written (`os.path.join`, `handler`, `self.cb`).
    pub name: String,
    pub line: u32,
    /// For a call into a module outside the repository (a library), the callee's full dotted
    /// name through the import (`requests.get` for `import requests as r; r.get()`).
    #[serde(default)]
    pub external: Option<String>,
}

/// The whole graph of a repository.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub unresolved: Vec<Unresolved>,
    /// Calls to the language's builtins and standard library (`len`, `console.log`,
    /// `append`, `println!`) whose name the calling file does not bind itself: not gaps in the
    /// graph, so not in `unresolved`, but kept so that nothing the code calls is hidden.
    #[serde(default)]
    pub builtin_calls: Vec<Unresolved>,
}

impl Graph {
    /// The node with this id.
    pub fn node(&self, id: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// Call edges as `(caller qualname, callee qualname)` pairs, sorted and deduplicated.
    pub fn call_pairs(&self) -> Vec<(String, String)> {
        // A lookup table only (the pairs are sorted): foldhash, not SipHash, for its keys.
        let by_id: foldhash::HashMap<&str, &Node> =
            self.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
        let mut out: Vec<(String, String)> = self
            .edges
            .iter()
            .filter(|e| e.kind == EdgeKind::Call)
            .filter_map(|e| {
                Some((
                    by_id.get(e.from.as_str())?.qualname.clone(),
                    by_id.get(e.to.as_str())?.qualname.clone(),
                ))
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }
}
