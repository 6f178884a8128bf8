//! Building from a folder: .gitignore, the content-hash cache, ids, edges of every kind.
#![allow(clippy::unwrap_used)]

use easel_codegraph::{BuildOptions, EdgeKind, NodeKind, build};
use std::fs;
use std::path::Path;

fn write(root: &Path, path: &str, text: &str) {
    let p = root.join(path);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

fn cached() -> BuildOptions<'static> {
    BuildOptions {
        use_cache: true,
        progress: None,
    }
}

#[test]
fn gitignored_files_are_not_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".gitignore", "build/\nsecret.py\n");
    write(root, "app.py", "def f():\n    pass\n");
    write(root, "secret.py", "def hidden():\n    pass\n");
    write(root, "build/gen.py", "def gen():\n    pass\n");
    write(root, "node_modules/x/index.js", "function x() {}\n");
    write(root, "notes.txt", "not code");
    let built = build(root, &BuildOptions::default()).unwrap();
    let files: Vec<&str> = built
        .graph
        .nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Module)
        .map(|n| n.file.as_str())
        .collect();
    assert_eq!(files, vec!["app.py"]);
}

#[test]
fn a_second_build_parses_only_changed_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for i in 0..5 {
        write(
            root,
            &format!("m{i}.py"),
            &format!("def f{i}():\n    pass\n"),
        );
    }
    write(root, "main.py", "from m1 import f1\n\nf1()\n");
    let first = build(root, &cached()).unwrap();
    assert_eq!((first.stats.parsed, first.stats.cached), (6, 0));
    assert!(root.join(".codecanvas/cache").is_dir());

    assert!(!first.unchanged);
    let warm = build(root, &cached()).unwrap();
    assert_eq!((warm.stats.parsed, warm.stats.cached), (0, 6));
    assert!(warm.unchanged);
    assert_eq!(warm.graph.call_pairs(), first.graph.call_pairs());

    write(root, "main.py", "from m2 import f2\n\nf2()\n");
    fs::remove_file(root.join("m4.py")).unwrap();
    let changed = build(root, &cached()).unwrap();
    assert_eq!((changed.stats.parsed, changed.stats.cached), (1, 4));
    assert!(!changed.unchanged);
    assert_eq!(
        changed.graph.call_pairs(),
        vec![("main".to_string(), "m2.f2".to_string())]
    );
    assert!(changed.graph.nodes.iter().all(|n| n.file != "m4.py"));
}

#[test]
fn a_damaged_cache_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "a.py", "def f():\n    pass\n");
    build(root, &cached()).unwrap();
    fs::write(root.join(".codecanvas/cache/facts.bin"), b"\x00garbage").unwrap();
    let again = build(root, &cached()).unwrap();
    assert_eq!(again.stats.parsed, 1);
}

#[test]
fn nodes_have_collision_free_ids_and_every_edge_kind_appears() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "pkg/__init__.py", "");
    write(
        root,
        "pkg/a.py",
        "class Base:\n    def run(self):\n        pass\n\nclass Child(Base):\n    def run(self):\n        super().run()\n\ndef run():\n    pass\n\ndef run():\n    Child().run()\n",
    );
    write(root, "pkg/b.py", "from pkg.a import run\n\nrun()\n");
    let g = build(root, &BuildOptions::default()).unwrap().graph;
    let mut ids: Vec<&str> = g.nodes.iter().map(|n| n.id.as_str()).collect();
    let before = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), before, "ids are unique");
    let runs: Vec<(&str, &str)> = g
        .nodes
        .iter()
        .filter(|n| n.name == "run")
        .map(|n| (n.id.as_str(), n.qualname.as_str()))
        .collect();
    assert_eq!(
        runs,
        vec![
            ("pkg/a.py:Base.run", "pkg.a.Base.run"),
            ("pkg/a.py:Child.run", "pkg.a.Child.run"),
            ("pkg/a.py:run", "pkg.a.run"),
            ("pkg/a.py:run#2", "pkg.a.run"),
        ]
    );
    let has = |from: &str, to: &str, kind: EdgeKind| {
        g.edges
            .iter()
            .any(|e| e.from == from && e.to == to && e.kind == kind)
    };
    assert!(has("pkg/a.py", "pkg/a.py:Base", EdgeKind::Contains));
    assert!(has(
        "pkg/a.py:Base",
        "pkg/a.py:Base.run",
        EdgeKind::Contains
    ));
    assert!(has("pkg/a.py:Child", "pkg/a.py:Base", EdgeKind::Inherits));
    assert!(has("pkg/b.py", "pkg/a.py", EdgeKind::Import));
    // The redefinition wins for callers, and the module calls what its top level calls.
    assert!(has("pkg/b.py", "pkg/a.py:run#2", EdgeKind::Call));
    assert!(has("pkg/a.py:run#2", "pkg/a.py:Child.run", EdgeKind::Call));
    assert!(has(
        "pkg/a.py:Child.run",
        "pkg/a.py:Base.run",
        EdgeKind::Call
    ));
}

#[test]
fn a_missing_folder_is_a_clear_error() {
    let err = build(Path::new("/definitely/not/here"), &BuildOptions::default()).unwrap_err();
    assert_eq!(err.kind(), easel_codegraph::ErrorKind::NotFound);
    assert!(err.to_string().contains("is not a folder"), "{err}");
    assert!(!err.hint().is_empty());
}

#[test]
fn a_file_that_is_not_valid_code_still_yields_its_module() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "broken.py", "def (:\n  ))) class\n\x01");
    write(root, "ok.py", "def f():\n    pass\n");
    // NUL bytes say binary: not parsed, and reported as such.
    write(root, "data.py", "def g():\n\x00\x00\x00");
    let built = build(root, &BuildOptions::default()).unwrap();
    assert!(built.graph.node("broken.py").is_some());
    assert!(built.graph.node("ok.py:f").is_some());
    assert!(built.graph.node("data.py").is_none());
    assert_eq!(
        built.skipped,
        vec![easel_codegraph::Skipped {
            path: "data.py".into(),
            reason: easel_codegraph::SkipReason::Binary
        }]
    );
}

#[test]
fn unchanged_old_files_are_not_read_again_and_touched_files_are() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "a.py", "def f():\n    pass\n");
    write(root, "b.py", "from a import f\n\nf()\n");
    // Age the files so that their stamps can be trusted.
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
    for p in ["a.py", "b.py"] {
        fs::File::options()
            .write(true)
            .open(root.join(p))
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
    let first = build(root, &cached()).unwrap();
    assert_eq!(first.stats.parsed, 2);
    let warm = build(root, &cached()).unwrap();
    assert_eq!((warm.stats.parsed, warm.stats.cached), (0, 2));
    // Same size, same old timestamp, other content: only the stamp is the same, so a file
    // older than the cache would be trusted; a fresh write is always read.
    write(root, "a.py", "def g():\n    pass\n");
    let changed = build(root, &cached()).unwrap();
    assert_eq!(changed.stats.parsed, 1);
    assert!(changed.graph.node("a.py:g").is_some());
}

#[test]
fn an_unchanged_repository_reuses_the_kept_graph_and_a_damaged_one_is_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "a.py",
        "class A:\n    def m(self):\n        helper()\n\ndef helper():\n    pass\n",
    );
    write(root, "b.py", "from a import A\n\nA().m()\nprint(1)\n");
    let first = build(root, &cached()).unwrap();
    assert!(root.join(".codecanvas/cache/graph.bin").is_file());
    let json = |g: &easel_codegraph::Graph| serde_json::to_string(g).unwrap();
    let warm = build(root, &cached()).unwrap();
    assert!(warm.unchanged);
    assert_eq!(json(&warm.graph), json(&first.graph));
    fs::write(root.join(".codecanvas/cache/graph.bin"), b"junk").unwrap();
    let again = build(root, &cached()).unwrap();
    assert_eq!(json(&again.graph), json(&first.graph));
    // A change is resolved anew, not read from the kept graph.
    write(root, "b.py", "from a import helper\n\nhelper()\n");
    let changed = build(root, &cached()).unwrap();
    assert_eq!(
        changed.graph.call_pairs(),
        vec![
            ("a.A.m".to_string(), "a.helper".to_string()),
            ("b".to_string(), "a.helper".to_string())
        ]
    );
}

#[test]
fn settled_unchanged_files_take_the_fast_path_and_any_change_leaves_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
    let age = |p: &str| {
        fs::File::options()
            .write(true)
            .open(root.join(p))
            .unwrap()
            .set_modified(old)
            .unwrap();
    };
    write(root, "a.py", "def f():\n    pass\n");
    write(root, "b.py", "from a import f\n\nf()\n");
    age("a.py");
    age("b.py");
    let first = build(root, &cached()).unwrap();
    let fast = build(root, &cached()).unwrap();
    assert!(fast.unchanged);
    assert_eq!(
        (fast.stats.files, fast.stats.cached, fast.stats.lines),
        (2, 2, first.stats.lines)
    );
    assert_eq!(fast.graph.call_pairs(), first.graph.call_pairs());
    // A new file, with the old ones untouched.
    write(root, "c.py", "from a import f\n\ndef g():\n    f()\n");
    age("c.py");
    let added = build(root, &cached()).unwrap();
    assert!(!added.unchanged);
    assert!(
        added
            .graph
            .call_pairs()
            .contains(&("c.g".to_string(), "a.f".to_string()))
    );
    // A removed one.
    fs::remove_file(root.join("c.py")).unwrap();
    let removed = build(root, &cached()).unwrap();
    assert_eq!(removed.graph.call_pairs(), first.graph.call_pairs());
}

/// Bytes from a fixed generator (xorshift), so the test needs no random source.
fn noise(len: usize, seed: u32) -> Vec<u8> {
    let mut state = seed;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state as u8
        })
        .collect()
}

/// Files that cost tree-sitter far more than their size (deep nesting, binary data with a
/// source extension) and files over the size cap: the build finishes, parses the rest, and
/// says which files it left out and why; a second build does not try them again.
#[test]
fn adversarial_files_are_skipped_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "ok.js",
        "function f() { return g(); }\nfunction g() {}\n",
    );
    let depth = 50_000;
    write(
        root,
        "deep.js",
        &format!("x = {}{};\n", "[".repeat(depth), "]".repeat(depth)),
    );
    fs::write(root.join("noise.c"), noise(1 << 20, 0x2545_f491)).unwrap();
    // An MPEG transport stream segment: 188-byte packets starting with 0x47, with padding.
    let mut video = Vec::new();
    for i in 0..2000u32 {
        let mut packet = vec![0x47, 0x40, 0x11, 0x10];
        packet.extend(noise(184, i + 1));
        packet[10] = 0;
        video.extend(packet);
    }
    fs::write(root.join("segment.ts"), video).unwrap();
    write(root, "bundle.js", &"var a = 1;\n".repeat(200_000));
    let built = build(root, &cached()).unwrap();
    assert!(built.graph.node("ok.js:f").is_some());
    let skipped: Vec<(&str, easel_codegraph::SkipReason)> = built
        .skipped
        .iter()
        .map(|s| (s.path.as_str(), s.reason))
        .collect();
    use easel_codegraph::SkipReason::*;
    assert_eq!(
        skipped,
        vec![
            ("bundle.js", TooLarge),
            ("deep.js", QueryBudget),
            ("noise.c", Binary),
            ("segment.ts", Binary)
        ]
    );
    assert_eq!(built.stats.skipped, 4);
    // The cache remembers: nothing is parsed again, the same files are reported.
    let again = build(root, &cached()).unwrap();
    assert_eq!(again.stats.parsed, 0);
    assert_eq!(again.skipped, built.skipped);
    assert_eq!(again.graph, built.graph);
}

/// Identifiers with letters beyond ASCII, in a UTF-8 file and in a Latin-1 one, keep them.
#[test]
fn non_ascii_identifiers_are_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "utf8.py",
        "def café():\n    pass\n\ndef main():\n    café()\n",
    );
    fs::write(
        root.join("latin.py"),
        b"def th\xe9():\n    pass\n\ndef run():\n    th\xe9()\n",
    )
    .unwrap();
    write(
        root,
        "app.js",
        "function café() {}\nfunction main() { café(); }\n",
    );
    fs::write(
        root.join("legacy.js"),
        b"function d\xe9j\xe0() {}\nfunction go() { d\xe9j\xe0(); }\n",
    )
    .unwrap();
    let built = build(root, &BuildOptions::default()).unwrap();
    let pairs = built.graph.call_pairs();
    for (from, to) in [
        ("utf8.main", "utf8.café"),
        ("latin.run", "latin.thé"),
        ("app.main", "app.café"),
        ("legacy.go", "legacy.déjà"),
    ] {
        assert!(
            pairs.contains(&(from.to_string(), to.to_string())),
            "{from} -> {to} missing: {pairs:?}"
        );
    }
}
