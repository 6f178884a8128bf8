//! Fingerprints the code that decides what the caches hold (extraction, resolution, the
//! queries), so that a build of easel with other rules never reuses facts or resolution
//! results that the old rules produced, even when nobody remembered to bump `cache::FORMAT`.

use std::path::Path;

fn main() {
    let mut files = Vec::new();
    for dir in ["src", "queries"] {
        println!("cargo::rerun-if-changed={dir}");
        collect(Path::new(dir), &mut files);
    }
    files.sort();
    // FNV-1a: stable across Rust versions, unlike `DefaultHasher`.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in &files {
        let bytes = std::fs::read(p).unwrap_or_default();
        for b in name(p).bytes().chain(bytes) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo::rustc-env=EASEL_CODE_RULES={h:016x}");
}

fn name(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

/// The rule files under `dir`, in its subfolders too (the resolver and the extractor are
/// folders of modules).
fn collect(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, files);
        } else if matches!(p.extension().and_then(|x| x.to_str()), Some("rs" | "scm")) {
            files.push(p);
        }
    }
}
