//! A one-file re-init writes what changed, not the whole cache again, and still gives the
//! graph of a full build.
#![allow(clippy::unwrap_used)]

use easel_codegraph::{BuildOptions, build};
use std::fs;
use std::path::Path;

const FILES: usize = 12;

fn module(i: usize, version: usize) -> String {
    let mut s = String::new();
    for f in 0..20 {
        s.push_str(&format!(
            "export function f{i}_{f}(x) {{\n  return g{}_{f}(x) + {version};\n}}\n",
            (i + 1) % FILES
        ));
    }
    s
}

fn write(root: &Path, i: usize, version: usize) {
    fs::write(root.join(format!("m{i}.js")), module(i, version)).unwrap();
}

fn cached() -> BuildOptions<'static> {
    BuildOptions {
        use_cache: true,
        progress: None,
    }
}

fn full(root: &Path) -> easel_codegraph::Graph {
    build(root, &BuildOptions::default()).unwrap().graph
}

#[test]
fn a_one_file_edit_adds_to_the_fact_pack_rather_than_writing_it_again() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let cache = root.join(".codecanvas/cache");
    for i in 0..FILES {
        write(root, i, 0);
    }
    build(root, &cached()).unwrap();
    let pack = fs::read(cache.join("facts.bin")).unwrap();
    assert!(!cache.join("facts.add.bin").exists());

    for version in 1..4 {
        write(root, 3, version);
        let edited = build(root, &cached()).unwrap();
        assert_eq!(edited.stats.parsed, 1, "{:?}", edited.stats);
        assert_eq!(edited.graph, full(root));
        assert_eq!(fs::read(cache.join("facts.bin")).unwrap(), pack);
        assert!(cache.join("facts.add.bin").is_file());
    }
    // Nothing changed: nothing parsed, the added entries are read.
    let again = build(root, &cached()).unwrap();
    assert_eq!(again.stats.parsed, 0, "{:?}", again.stats);
    assert_eq!(again.graph, full(root));

    // Most files changed: a new pack, and no additions.
    for i in 0..FILES {
        write(root, i, 9);
    }
    let many = build(root, &cached()).unwrap();
    assert_eq!(many.stats.parsed, FILES, "{:?}", many.stats);
    assert_ne!(fs::read(cache.join("facts.bin")).unwrap(), pack);
    assert!(!cache.join("facts.add.bin").exists());
    assert_eq!(many.graph, full(root));
}

/// Additions cut short, or kept from before the pack was written again, are not read; the
/// build parses what it must and gives the graph of a full build.
#[test]
fn damaged_or_stale_additions_are_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let cache = root.join(".codecanvas/cache");
    for i in 0..FILES {
        write(root, i, 0);
    }
    build(root, &cached()).unwrap();
    write(root, 5, 1);
    build(root, &cached()).unwrap();
    let added = fs::read(cache.join("facts.add.bin")).unwrap();

    fs::write(cache.join("facts.add.bin"), &added[..added.len() / 2]).unwrap();
    write(root, 6, 1);
    let cut = build(root, &cached()).unwrap();
    assert_eq!(cut.graph, full(root));

    // A new pack without the facts of version 1 of `m5.js`, then the additions of the old
    // pack put back, which have them: they are not read, and version 1 is parsed again.
    write(root, 5, 2);
    fs::remove_file(cache.join("facts.bin")).unwrap();
    build(root, &cached()).unwrap();
    fs::write(cache.join("facts.add.bin"), &added).unwrap();
    write(root, 5, 1);
    let stale = build(root, &cached()).unwrap();
    assert_eq!(stale.stats.parsed, 1, "{:?}", stale.stats);
    assert_eq!(stale.graph, full(root));
}
