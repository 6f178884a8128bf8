//! Data-driven cases of DESIGN.md section 8: each folder in `tests/cases/` holds a canvas, the
//! files its file nodes point at (`files/`), options (`options.json`: target, images,
//! context_window) and the expected context (`expected.json`). A new case is a new folder.
//! In expected warnings, `*` matches any text (used for parser messages).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use easel_canvas::Canvas;
use easel_thread::{ContextOptions, FileContent, MemoryFiles, build_context, image_media_type};
use std::path::Path;

fn load_files(dir: &Path, prefix: &str, files: &mut MemoryFiles) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().to_string();
        let rel = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        if entry.file_type().unwrap().is_dir() {
            load_files(&entry.path(), &rel, files);
            continue;
        }
        let bytes = std::fs::read(entry.path()).unwrap();
        let content = match image_media_type(&rel) {
            Some(mt) => FileContent::Image {
                media_type: mt.to_owned(),
                bytes,
            },
            None => FileContent::Text(String::from_utf8(bytes).unwrap()),
        };
        files.files.insert(rel, content);
    }
}

fn matches_pattern(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, tail)) => {
            text.len() >= head.len() + tail.len() && text.starts_with(head) && text.ends_with(tail)
        }
    }
}

#[test]
fn every_case_gives_its_expected_context() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut names: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    assert!(names.len() >= 6, "cases missing");
    for case in names {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        let canvas = Canvas::parse(&std::fs::read_to_string(case.join("canvas.canvas")).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let options: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(case.join("options.json")).unwrap())
                .unwrap();
        let mut files = MemoryFiles::default();
        load_files(&case.join("files"), "", &mut files);
        let opts = ContextOptions {
            images: options["images"].as_bool().unwrap_or(false),
            context_window: options["context_window"].as_u64().map(|n| n as usize),
            ..ContextOptions::default()
        };
        let target = options["target"].as_str().unwrap();
        let got =
            serde_json::to_value(build_context(&canvas, target, &files, &opts).unwrap()).unwrap();
        let mut expected: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(case.join("expected.json")).unwrap())
                .unwrap();
        // Warnings may hold `*` patterns; compare them apart, then the rest exactly.
        let want = expected["warnings"].take();
        let want: Vec<&str> = want
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap())
            .collect();
        let mut got_rest = got.clone();
        let got_warnings = got_rest["warnings"].take();
        let got_warnings: Vec<&str> = got_warnings
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap())
            .collect();
        assert_eq!(
            got_warnings.len(),
            want.len(),
            "{name}: warnings {got_warnings:#?}"
        );
        for (g, w) in got_warnings.iter().zip(&want) {
            assert!(
                matches_pattern(w, g),
                "{name}: warning {g:?} does not match {w:?}"
            );
        }
        assert_eq!(
            got_rest,
            expected,
            "{name}:\n got {}\nwant {}",
            serde_json::to_string_pretty(&got_rest).unwrap(),
            serde_json::to_string_pretty(&expected).unwrap()
        );
    }
}

#[test]
fn an_unknown_target_is_an_error() {
    let canvas = Canvas::parse("{}").unwrap();
    let err = build_context(
        &canvas,
        "nope",
        &MemoryFiles::default(),
        &ContextOptions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("nope"));
}
