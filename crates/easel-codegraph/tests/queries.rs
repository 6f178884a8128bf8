//! Every query file compiles and finds definitions and calls in a sample of its language.
#![allow(clippy::unwrap_used)]

use easel_codegraph::{Lang, check_query, extract};

fn sample(lang: Lang) -> (&'static str, &'static str) {
    match lang {
        Lang::Python => (
            "s.py",
            "class A(B):\n    def m(self):\n        self.n()\n\ndef f():\n    A().m()\n",
        ),
        Lang::TypeScript => (
            "s.ts",
            "class A extends B {\n  m(): void { this.n(); }\n}\nfunction f(x: number) { new A().m(); }\n",
        ),
        Lang::Tsx => (
            "s.tsx",
            "class A {\n  m() { return <div/>; }\n}\nfunction f() { new A().m(); }\n",
        ),
        Lang::JavaScript => (
            "s.js",
            "class A extends B {\n  m() { this.n(); }\n}\nfunction f() { new A().m(); }\n",
        ),
        Lang::Go => (
            "s.go",
            "package p\n\ntype A struct{}\n\nfunc (a *A) M() { a.N() }\n\nfunc F() { x := &A{}; x.M() }\n",
        ),
        Lang::Rust => (
            "s.rs",
            "struct A;\nimpl A {\n    fn m(&self) { self.n(); }\n}\nfn f() { A.m(); }\n",
        ),
        Lang::Java => (
            "S.java",
            "package p;\nclass A extends B {\n  void m() { n(); }\n}\nclass C { void f() { new A().m(); } }\n",
        ),
        Lang::C => (
            "s.c",
            "#include \"s.h\"\nstruct A { int x; };\nstatic int g(void) { return 1; }\nint f(void) { return g(); }\n",
        ),
        Lang::Cpp => (
            "s.cpp",
            "class A : public B {\n public:\n  void m() { n(); }\n};\nvoid f() { A a; a.m(); }\n",
        ),
        Lang::Ruby => (
            "s.rb",
            "class A < B\n  def m\n    n(1)\n  end\nend\n\ndef f\n  A.new.m\nend\n",
        ),
        Lang::CSharp => (
            "S.cs",
            "namespace P {\nclass A : B {\n  void M() { N(); }\n}\nclass C { void F() { new A().M(); } }\n}\n",
        ),
        Lang::Bash => ("s.sh", "f() {\n  echo hi\n}\n\ng() {\n  f\n}\ng\n"),
    }
}

#[test]
fn every_query_compiles_and_runs_on_a_sample() {
    for lang in Lang::ALL {
        check_query(lang).unwrap_or_else(|e| panic!("{e}"));
        let (path, src) = sample(lang);
        let facts = extract(lang, path, src.as_bytes()).unwrap();
        assert!(
            facts
                .defs
                .iter()
                .any(|d| d.kind == easel_codegraph::DefKind::Func),
            "{}: no function found in the sample: {:#?}",
            lang.name(),
            facts.defs
        );
        assert!(!facts.calls.is_empty(), "{}: no call found", lang.name());
    }
}

#[test]
fn the_generic_fallback_finds_definitions_in_every_grammar() {
    for lang in Lang::ALL {
        let (_, src) = sample(lang);
        let defs = easel_codegraph::generic_definitions(lang, src.as_bytes()).unwrap();
        // C and C++ name functions through declarators, so the fallback sees only their
        // structs and classes; every other grammar has named functions.
        let want = if matches!(lang, Lang::C | Lang::Cpp) {
            easel_codegraph::DefKind::Class
        } else {
            easel_codegraph::DefKind::Func
        };
        assert!(
            defs.iter().any(|(k, _, _)| *k == want),
            "{}: {defs:?}",
            lang.name()
        );
    }
}

/// `with X() as x` and `except E as e` (Python): the names they bind, and what they hold. The
/// `as` parts are found by the extractor, not by the query (which stays quick to compile).
#[test]
fn python_with_and_except_aliases_bind_their_names() {
    use easel_codegraph::Seg;
    let src = "def f(p):\n    with open(p) as fh:\n        fh.read()\n    try:\n        g()\n    except ValueError as e:\n        e.args\n    except (KeyError, OSError) as k:\n        pass\n    with lock:\n        pass\n";
    let facts = extract(Lang::Python, "w.py", src.as_bytes()).unwrap();
    let bound: Vec<&str> = facts.binds.iter().map(|b| b.name.as_str()).collect();
    assert!(bound.contains(&"fh"), "{bound:?}");
    let value_of = |name: &str| {
        facts
            .assigns
            .iter()
            .find(|a| a.target == [name])
            .map(|a| a.value.clone())
    };
    assert_eq!(
        value_of("fh"),
        Some(Some(vec![
            Seg::Name("open".into()),
            Seg::Call,
            Seg::Name("__enter__".into()),
            Seg::Call
        ]))
    );
    assert_eq!(
        value_of("e"),
        Some(Some(vec![Seg::Name("ValueError".into()), Seg::Call]))
    );
    // One of several classes: an instance of one of the tuple's elements.
    let k = value_of("k").flatten().unwrap();
    assert!(
        matches!(k.as_slice(), [Seg::Lit(_), Seg::Iter, Seg::Call]),
        "{k:?}"
    );
    // `with lock:` binds nothing, but still enters and exits `lock`.
    let entered: Vec<String> = facts
        .calls
        .iter()
        .filter(|c| c.callee.last() == Some(&Seg::Name("__enter__".into())))
        .map(|c| format!("{:?}", c.callee))
        .collect();
    assert_eq!(entered.len(), 2, "{entered:?}");
}
