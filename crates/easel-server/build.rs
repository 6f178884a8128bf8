//! Builds the web UI (`web/`) with esbuild into `OUT_DIR/web`, where `src/assets.rs` embeds it.
//! The bundle is never committed: `cargo build` makes it from the npm packages pinned in
//! `web/package-lock.json` (`npm ci` in a copy under `OUT_DIR`, the first time). `EASEL_WEB_DIST=DIR`
//! uses a bundle built elsewhere instead (for a machine without Node).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo::rerun-if-env-changed=EASEL_WEB_DIST");
    for p in ["src", "build.mjs", "package.json", "package-lock.json"] {
        println!("cargo::rerun-if-changed=web/{p}");
    }
    let (Some(manifest), Some(out)) = (
        std::env::var_os("CARGO_MANIFEST_DIR"),
        std::env::var_os("OUT_DIR"),
    ) else {
        println!("cargo::error=CARGO_MANIFEST_DIR or OUT_DIR is not set: run this through cargo");
        return;
    };
    let web = PathBuf::from(manifest).join("web");
    let out = PathBuf::from(out).join("web");
    if let Err(message) = build(&web, &out).and_then(|()| table(&out)) {
        println!("cargo::error={message}");
    }
}

/// Writes `OUT_DIR/web/assets.rs`: one entry per file of the bundle (`assets.json`, written by
/// build.mjs, names them), each with its bytes and its gzipped bytes embedded.
fn table(out: &Path) -> Result<(), String> {
    let list = out.join("assets.json");
    let text =
        fs::read_to_string(&list).map_err(|e| format!("cannot read {}: {e}", list.display()))?;
    let names: Vec<String> = text
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(',')
        .map(|n| n.trim().trim_matches('"').to_owned())
        .filter(|n| !n.is_empty())
        .collect();
    let mut src = String::from("&[\n");
    for name in &names {
        if !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'_')
        {
            return Err(format!(
                "unexpected asset name {name:?} in {}",
                list.display()
            ));
        }
        let mime = match name.rsplit('.').next() {
            Some("js") => "text/javascript; charset=utf-8",
            Some("css") => "text/css; charset=utf-8",
            _ => "text/html; charset=utf-8",
        };
        src.push_str(&format!(
            "    Asset {{ name: {name:?}, raw: include_bytes!(concat!(env!(\"OUT_DIR\"), \"/web/{name}\")), gz: include_bytes!(concat!(env!(\"OUT_DIR\"), \"/web/{name}.gz\")), mime: {mime:?} }},\n"
        ));
    }
    src.push_str("]\n");
    fs::write(out.join("assets.rs"), src).map_err(|e| format!("cannot write the asset table: {e}"))
}

fn build(web: &Path, out: &Path) -> Result<(), String> {
    fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    if let Some(dist) = std::env::var_os("EASEL_WEB_DIST") {
        let dist = PathBuf::from(dist);
        let entries = fs::read_dir(&dist).map_err(|e| {
            format!(
                "EASEL_WEB_DIST={}: {e} (build it with `npm ci && npm run build` in crates/easel-server/web)",
                dist.display()
            )
        })?;
        for entry in entries.flatten() {
            fs::copy(entry.path(), out.join(entry.file_name()))
                .map_err(|e| format!("cannot copy {}: {e}", entry.path().display()))?;
        }
        return Ok(());
    }
    // Everything happens in a copy under OUT_DIR: a build script must not change its crate's
    // sources (a packaged crate's build is refused if it does), and each profile's build gets
    // its own node_modules, so builds running at once never share one.
    let stage = out
        .parent()
        .map(|p| p.join("web-build"))
        .ok_or_else(|| format!("{} has no parent folder", out.display()))?;
    copy_tree(web, &stage)?;
    let installed = stage.join("node_modules/.package-lock.json");
    if stale(&installed, &stage.join("package-lock.json")) {
        run(
            Command::new(npm()).current_dir(&stage).args([
                "ci",
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
            ]),
            "npm ci",
        )?;
    }
    // Chunk names change with their content: old ones must not be embedded.
    if let Ok(entries) = fs::read_dir(out) {
        for e in entries.flatten() {
            let _ = fs::remove_file(e.path());
        }
    }
    run(
        Command::new("node")
            .current_dir(&stage)
            .arg("build.mjs")
            .arg("--outdir")
            .arg(out),
        "node build.mjs",
    )
}

/// Copies the web UI's sources (not its node_modules) into `stage`, replacing an older copy.
fn copy_tree(web: &Path, stage: &Path) -> Result<(), String> {
    let src = stage.join("src");
    if src.exists() {
        fs::remove_dir_all(&src).map_err(|e| format!("cannot clear {}: {e}", src.display()))?;
    }
    for file in ["package.json", "package-lock.json", "build.mjs"] {
        copy(&web.join(file), &stage.join(file))?;
    }
    let mut todo = vec![PathBuf::from("src")];
    while let Some(rel) = todo.pop() {
        let dir = web.join(&rel);
        let entries =
            fs::read_dir(&dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        for entry in entries.flatten() {
            let rel = rel.join(entry.file_name());
            if entry.path().is_dir() {
                todo.push(rel);
            } else {
                copy(&entry.path(), &stage.join(&rel))?;
            }
        }
    }
    Ok(())
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    if let Some(parent) = to.parent() {
        fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("cannot copy {}: {e}", from.display()))
}

/// True when `made` is missing or older than `from`.
fn stale(made: &Path, from: &Path) -> bool {
    let time = |p: &Path| fs::metadata(p).and_then(|m| m.modified()).ok();
    match (time(made), time(from)) {
        (Some(m), Some(f)) => m < f,
        _ => true,
    }
}

fn npm() -> &'static str {
    if cfg!(windows) { "npm.cmd" } else { "npm" }
}

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    let output = cmd.output().map_err(|e| {
        format!(
            "the web UI needs Node.js 20 or newer and npm to build ({what}: {e}); install them, or set EASEL_WEB_DIST to a folder built elsewhere"
        )
    })?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    Err(format!(
        "{what} failed in crates/easel-server/web ({}): {} {}",
        output.status,
        stderr.trim().replace('\n', " | "),
        stdout.trim().replace('\n', " | ")
    ))
}
