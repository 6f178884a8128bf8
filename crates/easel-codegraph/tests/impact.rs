//! Impact analysis and symbol lookup.
#![allow(clippy::unwrap_used)]

use easel_codegraph::{
    GraphError, NodeKind, find_symbol, graph_from_sources, impact, search_symbols,
};

fn graph() -> easel_codegraph::Graph {
    graph_from_sources(&[
        (
            "app/settings.py",
            "def merge_setting(a, b):\n    return a\n\ndef merge_hooks(a, b):\n    return merge_setting(a, b)\n",
        ),
        (
            "app/session.py",
            "from app.settings import merge_setting, merge_hooks\n\nclass Session:\n    def request(self):\n        merge_setting(1, 2)\n        self.send()\n\n    def send(self):\n        merge_hooks(1, 2)\n\ndef get():\n    Session().request()\n\ndef api():\n    get()\n",
        ),
        ("app/main.py", "from app.session import api\n\napi()\n"),
    ])
    .unwrap()
}

#[test]
fn callers_callees_and_blast_radius_of_a_function() {
    let g = graph();
    let i = impact(&g, "merge_setting", 3).unwrap();
    assert_eq!(i.target.qualname, "app.settings.merge_setting");
    let callers: Vec<&str> = i.callers.iter().map(|n| n.qualname.as_str()).collect();
    assert_eq!(
        callers,
        vec!["app.session.Session.request", "app.settings.merge_hooks"]
    );
    assert!(i.callees.is_empty());
    let blast: Vec<(&str, u32)> = i
        .blast_radius
        .iter()
        .map(|n| (n.qualname.as_str(), n.depth))
        .collect();
    assert_eq!(
        blast,
        vec![
            ("app.session.Session.request", 1),
            ("app.settings.merge_hooks", 1),
            ("app.session.Session.send", 2),
            ("app.session.get", 2),
            ("app.session.api", 3),
        ]
    );
    assert_eq!(i.counts.callers, 2);
    assert_eq!(i.counts.blast_radius, 5);
    assert_eq!(i.counts.by_depth, vec![2, 2, 1]);

    // The depth is honoured.
    let shallow = impact(&g, "merge_setting", 1).unwrap();
    assert_eq!(shallow.counts.blast_radius, 2);
    let deep = impact(&g, "merge_setting", 10).unwrap();
    let last: Vec<&str> = deep
        .blast_radius
        .iter()
        .map(|n| n.qualname.as_str())
        .collect();
    assert!(last.contains(&"app.main"), "{last:?}");
}

#[test]
fn a_class_seeds_from_its_methods_and_aggregates_neighbours() {
    let g = graph();
    let i = impact(&g, "Session", 2).unwrap();
    assert_eq!(i.target.kind, NodeKind::Class);
    let callers: Vec<(&str, u32)> = i
        .callers
        .iter()
        .map(|n| (n.qualname.as_str(), n.calls))
        .collect();
    // `get` calls the constructor (none defined) and `request`: one edge to `request`.
    assert_eq!(callers, vec![("app.session.get", 1)]);
    let callees: Vec<&str> = i.callees.iter().map(|n| n.qualname.as_str()).collect();
    // Calls between its own methods do not count; calls out are aggregated to the module
    // level when the callee is not in a class.
    assert_eq!(
        callees,
        vec!["app.settings.merge_hooks", "app.settings.merge_setting"]
    );
}

#[test]
fn a_module_aggregates_to_modules() {
    let g = graph();
    let i = impact(&g, "app/settings.py", 2).unwrap();
    let callers: Vec<(&str, u32)> = i
        .callers
        .iter()
        .map(|n| (n.qualname.as_str(), n.calls))
        .collect();
    assert_eq!(callers, vec![("app.session", 2)]);
    assert!(
        i.blast_radius
            .iter()
            .any(|n| n.qualname == "app.session.Session.request")
    );
}

#[test]
fn lookup_goes_exact_then_case_then_suffix_then_fuzzy() {
    let g = graph();
    assert_eq!(
        find_symbol(&g, "app.session.get").unwrap().qualname,
        "app.session.get"
    );
    assert_eq!(
        find_symbol(&g, "MERGE_HOOKS").unwrap().qualname,
        "app.settings.merge_hooks"
    );
    assert_eq!(
        find_symbol(&g, "Session.send").unwrap().qualname,
        "app.session.Session.send"
    );
    assert_eq!(
        find_symbol(&g, "app/session.py:Session").unwrap().kind,
        NodeKind::Class
    );
    match find_symbol(&g, "merge_setings") {
        Err(GraphError::SymbolNotFound { suggestions, .. }) => {
            assert_eq!(
                suggestions.first().map(String::as_str),
                Some("merge_setting")
            );
        }
        other => panic!("{other:?}"),
    }
    let err = find_symbol(&g, "zzzz_nothing").unwrap_err();
    assert_eq!(err.kind(), easel_codegraph::ErrorKind::NotFound);
}

#[test]
fn ambiguous_names_list_the_candidates() {
    let g = graph_from_sources(&[
        ("a.py", "def run():\n    pass\n"),
        ("b.py", "def run():\n    pass\n"),
    ])
    .unwrap();
    match find_symbol(&g, "run") {
        Err(GraphError::Ambiguous { candidates, .. }) => {
            assert_eq!(candidates, vec!["a.py:run", "b.py:run"])
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(find_symbol(&g, "b.run").unwrap().id, "b.py:run");
}

#[test]
fn search_ranks_exact_matches_first() {
    let g = graph();
    let found = search_symbols(&g, "merge", 10);
    assert!(found.len() >= 2);
    assert!(
        found.iter().all(|m| m.node.name.contains("merge")),
        "{found:?}"
    );
    let exact = search_symbols(&g, "merge_hooks", 3);
    assert_eq!(exact[0].node.qualname, "app.settings.merge_hooks");
}

/// Flask's `url_for` is both `Flask.url_for` (a method) and `helpers.url_for` (a function at
/// the top level of its module): the impact of the bare name is the function's, and the
/// method is named as the alternative rather than answered with an error.
#[test]
fn a_shared_name_picks_the_top_level_function_and_names_the_method() {
    let g = graph_from_sources(&[
        (
            "flask/app.py",
            "class Flask:\n    def url_for(self, e):\n        return e\n\n    def redirect(self):\n        return self.url_for('x')\n\n    def other(self):\n        return self.url_for('y')\n",
        ),
        (
            "flask/helpers.py",
            "def url_for(e):\n    return e\n\ndef link():\n    return url_for('z')\n",
        ),
    ])
    .unwrap();
    let i = impact(&g, "url_for", 2).unwrap();
    assert_eq!(i.target.qualname, "flask.helpers.url_for");
    assert_eq!(i.alternatives, vec!["flask.app.Flask.url_for"]);
    let callers: Vec<&str> = i.callers.iter().map(|n| n.qualname.as_str()).collect();
    assert_eq!(callers, vec!["flask.helpers.link"]);
    // Between two functions at the same level, the most called one.
    let g = graph_from_sources(&[
        ("a.py", "def run():\n    pass\n"),
        ("b.py", "def run():\n    pass\n\ndef main():\n    run()\n"),
    ])
    .unwrap();
    let i = impact(&g, "run", 2).unwrap();
    assert_eq!(i.target.id, "b.py:run");
    assert_eq!(i.alternatives, vec!["a.run"]);
}
