//! tsconfig.json path aliases across cached builds: editing a config changes the edges at the
//! next build, even when no source file changed and every file is settled.
#![allow(clippy::unwrap_used)]

use easel_codegraph::{BuildOptions, build};
use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

fn write_settled(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(&p, text).unwrap();
    // Older than the racy window: the fast path trusts the stamps of settled files.
    let past = SystemTime::now() - Duration::from_secs(3600);
    fs::File::options()
        .write(true)
        .open(&p)
        .unwrap()
        .set_modified(past)
        .unwrap();
}

fn edges(root: &Path) -> Vec<(String, String)> {
    let opts = BuildOptions {
        use_cache: true,
        progress: None,
    };
    build(root, &opts).unwrap().graph.call_pairs()
}

fn config(target: &str) -> String {
    format!(r#"{{ "compilerOptions": {{ "paths": {{ "@log": ["{target}"] }} }} }}"#)
}

#[test]
fn an_edited_tsconfig_changes_the_edges_of_unchanged_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_settled(root, "a/log.ts", "export function log(): void {}\n");
    write_settled(root, "b/log.ts", "export function log(): void {}\n");
    write_settled(
        root,
        "app.ts",
        "import { log } from '@log';\nexport function main(): void {\n  log();\n}\n",
    );
    write_settled(root, "tsconfig.json", &config("./a/log.ts"));
    let want_a = ("app.main".to_string(), "a/log.log".to_string());
    let want_b = ("app.main".to_string(), "b/log.log".to_string());
    let first = edges(root);
    assert!(first.contains(&want_a), "{first:?}");
    // Nothing changed: the kept graph.
    assert_eq!(edges(root), first);
    write_settled(root, "tsconfig.json", &config("./b/log.ts"));
    let second = edges(root);
    assert!(second.contains(&want_b), "{second:?}");
    assert!(!second.contains(&want_a), "{second:?}");
    fs::remove_file(root.join("tsconfig.json")).unwrap();
    let third = edges(root);
    assert!(!third.iter().any(|(a, _)| a == "app.main"), "{third:?}");
}
