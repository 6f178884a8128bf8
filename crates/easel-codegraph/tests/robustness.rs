//! Arbitrary bytes never make extraction or resolution panic, in any language.
#![allow(clippy::unwrap_used)]

use easel_codegraph::{Lang, extract, graph_from_facts};
use proptest::prelude::*;

/// Fragments of real syntax, so that generated files reach deep into the grammars.
const PIECES: &[&str] = &[
    "def f(a, b=g()):\n",
    "class A(B):\n",
    "    return x.y()\n",
    "import a.b as c\n",
    "from . import x\n",
    "@dec\n",
    "lambda q: q()\n",
    "self.m()\n",
    "super().__init__()\n",
    "function f() {",
    "}",
    "class C extends D {",
    "constructor() { this.x(); }",
    "new X();",
    "import { a as b } from './m';",
    "const f = () => g();",
    "fn f() { self.g(); }",
    "impl A { fn new() -> Self { Self {} } }",
    "use crate::a::{b, c as d};",
    "mod m;",
    "package p;",
    "public class A { void m() { n(); } }",
    "#include \"a.h\"\n",
    "int main(void) { return f(); }",
    "namespace n { class A { void f(); }; }",
    "void A::f() { g(); }",
    "module M\n",
    "def self.x\n",
    "end\n",
    "require_relative 'a'\n",
    "using System;",
    "f() { g; }\n",
    "source ./x.sh\n",
    "func (r *T) M() { r.N() }",
    "(",
    ")",
    "[",
    "]",
    "{",
    ":",
    ",",
    ".",
    "\n",
    "    ",
    "\u{0}",
    "é",
    "🙂",
];

fn source() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            prop::sample::select(PIECES).prop_map(str::to_string),
            "[a-z_.(){}:=, \n]{0,12}",
        ],
        0..40,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn extraction_and_resolution_never_panic(src in source(), other in source()) {
        for lang in Lang::ALL {
            let ext = match lang {
                Lang::Python => "py", Lang::TypeScript => "ts", Lang::Tsx => "tsx",
                Lang::JavaScript => "js", Lang::Go => "go", Lang::Rust => "rs",
                Lang::Java => "java", Lang::C => "c", Lang::Cpp => "cpp", Lang::Ruby => "rb",
                Lang::CSharp => "cs", Lang::Bash => "sh",
            };
            let a = extract(lang, &format!("src/a.{ext}"), src.as_bytes()).unwrap();
            let b = extract(lang, &format!("src/b/mod.{ext}"), other.as_bytes()).unwrap();
            let g = graph_from_facts(&[a, b]);
            let ids: std::collections::HashSet<&str> = g.nodes.iter().map(|n| n.id.as_str()).collect();
            prop_assert_eq!(ids.len(), g.nodes.len());
            for e in &g.edges {
                prop_assert!(ids.contains(e.from.as_str()) && ids.contains(e.to.as_str()), "{:?}", e);
            }
        }
    }
}

#[test]
fn a_type_declared_inside_its_own_method_makes_no_cycle() {
    for (path, src) in [
        (
            "a.cpp",
            "void A::f() { class A { void g() { f(); } }; g(); }\n",
        ),
        (
            "a.go",
            "package p\n\nfunc (r *T) M() {\n\ttype T struct{}\n\tr.M()\n}\n",
        ),
    ] {
        let g = easel_codegraph::graph_from_sources(&[(path, src)]).unwrap();
        assert!(!g.nodes.is_empty());
    }
}

/// A class extending a call with a literal argument (`extends makeClass({ ... })`, as
/// effect's `Schema` writes): the argument is no base. Read while the class was extracted, it
/// made a literal whose scope pointed past the file's definitions (a panic on effect 3.12).
/// A mixin applied to a name (`extends Audited(Doc)`) has that name as its next base.
#[test]
fn only_a_name_or_a_call_a_mixin_is_applied_to_is_a_base() {
    let src = "function make(o) { return class { run() { return o.kind; } }; }\n\
        class Doc {}\n\
        const Audited = (B) => class extends B {};\n\
        export class Tagged extends make({ kind: 'tagged', build(x) { return x; } }) {}\n\
        export class Memo extends Audited(Doc) {}\n";
    let facts = extract(Lang::JavaScript, "a.js", src.as_bytes()).unwrap();
    let bases = |name: &str| {
        facts
            .defs
            .iter()
            .find(|d| d.name == name)
            .map(|d| d.bases.len())
            .unwrap()
    };
    assert_eq!(bases("Tagged"), 1);
    assert_eq!(bases("Memo"), 2);
    assert!(
        facts
            .literals
            .iter()
            .all(|l| l.scope.is_none_or(|s| (s as usize) < facts.defs.len()))
    );
}
