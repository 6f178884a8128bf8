//! `vault_list`, `vault_search` and `vault_query`.

#![allow(clippy::unwrap_used)]

use easel_ops::{Actor, Ctx, Registry};
use serde_json::{Value, json};
use std::fs;

fn setup(files: &[(&str, &str)]) -> (tempfile::TempDir, Registry, Ctx) {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = dir.path().join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
    let vault = easel_vault::Vault::open(dir.path()).unwrap();
    let mut registry = Registry::new();
    easel_ops::register(&mut registry);
    (dir, registry, Ctx::new(vault, Actor::cli()))
}

fn call(r: &Registry, ctx: &Ctx, op: &str, args: Value) -> Value {
    let out = r.call(ctx, op, args).unwrap();
    serde_json::from_str(&out.json).unwrap()
}

#[test]
fn search_skips_ignored_excluded_hidden_and_binary_files() {
    let (_d, r, ctx) = setup(&[
        ("a.md", "one\nthe Budget line\nthree\n"),
        ("sub/b.md", "budget again\n"),
        ("build/out.md", "budget in a build folder\n"),
        (".gitignore", "build/\n"),
        ("Archive/old.md", "old budget\n"),
        (
            ".obsidian/app.json",
            "{\"userIgnoreFilters\": [\"Archive/\", \"/secret-.*/\"]}",
        ),
        ("secret-x.md", "budget secret\n"),
        (".easel/ledger.jsonl", "budget\n"),
        ("bin.dat", "budget\0binary"),
    ]);
    let found = call(&r, &ctx, "vault_search", json!({"query": "BUDGET"}));
    let hits: Vec<(&str, u64)> = found["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["path"].as_str().unwrap(), m["line"].as_u64().unwrap()))
        .collect();
    assert_eq!(hits, [("a.md", 2), ("sub/b.md", 1)]);
    assert_eq!(found["matches"][0]["before"], json!(["one"]));
    assert_eq!(found["matches"][0]["after"], json!(["three"]));
    let exact = call(
        &r,
        &ctx,
        "vault_search",
        json!({"query": "BUDGET", "case_sensitive": true}),
    );
    assert_eq!(exact["total"], 0);
    let re = call(
        &r,
        &ctx,
        "vault_search",
        json!({"query": "^budget", "regex": true}),
    );
    assert_eq!(re["total"], 1);
    let limited = call(
        &r,
        &ctx,
        "vault_search",
        json!({"query": "budget", "limit": 1}),
    );
    assert_eq!(
        (limited["total"].as_u64(), limited["truncated"].as_bool()),
        (Some(1), Some(true))
    );
    let bad = r
        .call(&ctx, "vault_search", json!({"query": "(", "regex": true}))
        .unwrap_err();
    assert!(
        bad.message.contains("regular expression"),
        "{}",
        bad.message
    );
}

#[test]
fn query_filters_by_tag_and_properties_and_sorts() {
    let (_d, r, ctx) = setup(&[
        (
            "a.md",
            "---\nstatus: draft\npriority: 2\ntags: [garden]\n---\n# Alpha\n",
        ),
        (
            "b.md",
            "---\nstatus: done\npriority: 1\n---\nText with #garden/veg inline\n",
        ),
        (
            "c.md",
            "---\nstatus: draft\npriority: 10\n---\n`#notatag` and #2024 and #real\n",
        ),
        ("d.canvas", "{}"),
    ]);
    let garden = call(&r, &ctx, "vault_query", json!({"tag": "#garden"}));
    let paths: Vec<&str> = garden["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        ["a.md", "b.md"],
        "a nested tag counts for its parent"
    );
    assert_eq!(garden["notes"][0]["title"], "Alpha");
    let drafts = call(
        &r,
        &ctx,
        "vault_query",
        json!({"where": {"status": "draft"}, "sort": "priority", "desc": true}),
    );
    let paths: Vec<&str> = drafts["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["c.md", "a.md"], "priorities sort as numbers");
    let c = &drafts["notes"][0];
    assert_eq!(
        c["tags"],
        json!(["real"]),
        "code spans and numbers are not tags"
    );
    let limited = call(&r, &ctx, "vault_query", json!({"limit": 1}));
    assert_eq!(
        (
            limited["total"].as_u64(),
            limited["notes"].as_array().map(Vec::len)
        ),
        (Some(3), Some(1))
    );
}

#[test]
fn list_filters_by_folder_and_extension() {
    let (_d, r, ctx) = setup(&[("a.md", "x"), ("p/b.canvas", "{}"), ("p/c.md", "y")]);
    let all = call(&r, &ctx, "vault_list", json!({}));
    assert_eq!(all["total"], 3);
    let md = call(&r, &ctx, "vault_list", json!({"folder": "p", "ext": "md"}));
    assert_eq!(md["files"][0]["path"], "p/c.md");
    assert_eq!(md["total"], 1);
}
