//! Builds the web UI (`web/`) with esbuild into `OUT_DIR/web`, where `src/assets.rs` embeds it.
//! The bundle is never committed: `cargo build` makes it from the npm packages pinned in
//! `web/package-lock.json` (`npm ci` the first time). `EASEL_WEB_DIST=DIR` uses a bundle built
//! elsewhere instead (for a machine without Node).

use std::fs::{self, File};
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
    // The dev, test and release builds may run this script at the same time; two `npm ci` in
    // one folder would break each other.
    let lock = File::create(web.join(".build-lock"))
        .map_err(|e| format!("cannot create {}: {e}", web.join(".build-lock").display()))?;
    lock.lock()
        .map_err(|e| format!("cannot lock {}: {e}", web.display()))?;
    let installed = web.join("node_modules/.package-lock.json");
    if stale(&installed, &web.join("package-lock.json")) {
        run(
            Command::new(npm()).current_dir(web).args([
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
            .current_dir(web)
            .arg("build.mjs")
            .arg("--outdir")
            .arg(out),
        "node build.mjs",
    )
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
