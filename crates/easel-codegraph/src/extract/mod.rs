//! Per-file extraction: run the language's query over the syntax tree and keep the facts the
//! resolver needs (definitions with their scopes, call sites, imports, bindings, returns).
//!
//! The facts of a file depend on nothing but its bytes and its path, so they are what the
//! cache keeps (by content hash) and what is computed in parallel.

mod assignments;
mod calls;
mod definitions;
mod destructuring;
mod expressions;
mod facts;
mod fields;
mod flows;
mod hits;
mod imports;
mod jsx;
mod literals;
mod query;
mod values;
mod walk;

pub(crate) use assignments::cjs_export_key;
use calls::*;
use definitions::*;
use expressions::*;
pub use facts::*;
use fields::{Field, FieldExt};
pub(crate) use flows::{ANY_EVENT, may_run};
use hits::FuncParts;
use imports::require_key;
use jsx::*;
pub use jsx::{JSX_COMPONENT, JSX_FACTORY};
use query::*;
pub use query::{GENERIC_QUERY, check_query, extract, extract_by_query, generic_definitions};
pub(crate) use query::{extract_within, prepare};
use values::*;

use crate::budget::{Budget, Failure};
use crate::lang::Lang;
use crate::sniff::SkipReason;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;
use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, Parser, Query, QueryCursor, QueryCursorOptions};

/// A node met during the query's walk, read once every definition of the file is known.
enum Pending<'t> {
    Call(Node<'t>),
    Decorator(Node<'t>),
    Maybe(Node<'t>),
    /// A Python attribute that is not called: a property's getter or setter may run.
    Prop(Node<'t>),
    Import(Node<'t>),
    Assign {
        node: Node<'t>,
        left: Option<Node<'t>>,
        right: Option<Node<'t>>,
        ty: Option<Node<'t>>,
    },
    Bind(Node<'t>),
    Global(Node<'t>),
    Return(Node<'t>, Option<Node<'t>>),
    Iter(Node<'t>, Node<'t>, Node<'t>),
    Except(Node<'t>, Vec<Node<'t>>, Node<'t>),
    /// A function's parameter list, read once definitions are final.
    Params(u32, Node<'t>),
    /// A Python lambda's body: the value it returns.
    LambdaBody(u32, Node<'t>),
    /// A JavaScript arrow function whose body is an expression: the value it returns.
    ArrowBody(Node<'t>),
    /// A Python `with` item.
    With(Node<'t>),
    /// A JavaScript function's parameter list (at the function's start byte), read for the
    /// names its destructured parameters bind.
    JsParams(u32, Node<'t>),
}

/// Reads one file's syntax tree into its facts; its methods live in the submodules, by what
/// they read.
struct Extractor<'s, 't> {
    lang: Lang,
    src: &'s [u8],
    /// `src` as text, checked once: a node's text is then a slice, not checked again per node.
    code: Option<&'s str>,
    facts: FileFacts,
    pending: Vec<Pending<'t>>,
    /// Literals met while reading expressions, and their index by start byte: an expression
    /// can be read more than once and must name the same literal each time.
    lits: std::cell::RefCell<(Vec<LitFact>, std::collections::HashMap<usize, u32>)>,
    /// Each definition's innermost enclosing definition by bytes (which `Def::parent` is not
    /// for a Python lambda in a function's header): what `scope_of` walks.
    lex_parent: Vec<Option<u32>>,
    /// JavaScript functions written as values that a binding names (by their bytes), found
    /// from the binding's side: asking a node for its parent walks down from the root.
    renames: foldhash::HashMap<(u32, u32), String>,
    /// JavaScript object literals bound to a name (by node id), likewise.
    object_names: foldhash::HashMap<usize, String>,
    /// The object literals met, named once the query is done.
    objects: Vec<Node<'t>>,
    /// The file's JSX pragma, read at its first JSX element.
    jsx_pragma: std::cell::OnceCell<Option<Pragma>>,
    /// JavaScript functions assigned (not declared) to a variable or a property, with the
    /// variable's name: named in the scope that declares it (`Self::home_assigned`).
    assigned: Vec<(Node<'t>, String)>,
    /// `T.prototype.m = function`: the function's bytes and `T`, the method's receiver.
    proto: foldhash::HashMap<(u32, u32), String>,
    /// The loop each `for ... in`/`for ... of` binding was met in (by node id), likewise.
    for_loops: foldhash::HashMap<usize, Node<'t>>,
}

impl<'s, 't> Extractor<'s, 't> {
    /// An extractor of `src` with no facts yet, for the file at `path` of `lines` lines.
    fn new(lang: Lang, src: &'s [u8], path: String, lines: u32) -> Self {
        Extractor {
            lang,
            src,
            code: std::str::from_utf8(src).ok(),
            facts: FileFacts {
                path,
                lang,
                lines,
                package: None,
                defs: Vec::new(),
                calls: Vec::new(),
                imports: Vec::new(),
                assigns: Vec::new(),
                binds: Vec::new(),
                globals: Vec::new(),
                returns: Vec::new(),
                literals: Vec::new(),
                default_export: None,
                cond_blocks: Vec::new(),
                events: Vec::new(),
            },
            pending: Vec::new(),
            lits: Default::default(),
            lex_parent: Vec::new(),
            renames: Default::default(),
            object_names: Default::default(),
            objects: Vec::new(),
            jsx_pragma: Default::default(),
            assigned: Vec::new(),
            proto: Default::default(),
            for_loops: Default::default(),
        }
    }

    fn text(&self, n: Node) -> String {
        self.str(n).to_string()
    }

    /// A node's text, borrowed: empty when it is not UTF-8 (a range that splits a character).
    fn str(&self, n: Node) -> &'s str {
        match self.code {
            Some(code) => code.get(n.byte_range()).unwrap_or_default(),
            None => n.utf8_text(self.src).unwrap_or_default(),
        }
    }
}
