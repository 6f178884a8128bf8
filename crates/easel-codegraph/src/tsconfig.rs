//! TypeScript and JavaScript path aliases: `compilerOptions.paths` and `baseUrl` of each
//! `tsconfig.json` / `jsconfig.json` (with `extends` of local files), applied to the files of
//! its folder and below. An import the aliases map (`@core/log`) is rewritten in the file's
//! facts into the repository paths it may name (`/src/core/log`, root-relative, one per line),
//! which the resolver tries in order like a relative import. The config's JSX settings
//! (`jsxFactory`, `jsx: react-jsx`) say which function a JSX element calls
//! ([`crate::extract::JSX_FACTORY`]).

use crate::extract::{FileFacts, ImportKind, JSX_FACTORY, Seg};
use sha2::{Digest, Sha256};
use std::path::Path;

/// How deep `extends` chains are followed (tsc has no limit, but real chains are short).
const MAX_EXTENDS: u32 = 8;

/// The aliases of one `tsconfig.json`, resolved from the repository root.
#[derive(Debug, Default, Clone)]
struct Config {
    /// The folder the config applies to (its own), root-relative, `""` for the root.
    dir: String,
    base_url: Option<String>,
    /// Patterns (`@core/*`) and what they map to, root-relative (`src/core/*`).
    paths: Paths,
    /// What JSX compiles to when the config says (`jsxFactory`, `jsx: react-jsx`).
    jsx: Option<Jsx>,
}

/// The JSX runtime a config sets.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Jsx {
    /// `jsxFactory: "h"` (classic runtime): the factory, dotted.
    Factory(String),
    /// `jsx: react-jsx` / `react-jsxdev`: `jsx()` of `<jsxImportSource>/jsx-runtime`, a
    /// package's function, which the file does not bind.
    Automatic,
}

/// Every config of a repository, deepest folder first.
#[derive(Debug, Default)]
pub(crate) struct TsConfigs {
    configs: Vec<Config>,
    /// Mixed into the cache stamps and keys of JavaScript and TypeScript files, so that an
    /// edited config re-extracts them; 0 when the repository has no config.
    pub(crate) salt: u64,
}

/// Whether a file name is a project config that applies to its folder.
pub(crate) fn is_config(name: &str) -> bool {
    name == "tsconfig.json" || name == "jsconfig.json"
}

/// Path patterns and what each maps to.
type Paths = Vec<(String, Vec<String>)>;

/// The settings a config file and the files it extends give (the nearest one wins).
#[derive(Default)]
struct Options {
    base_url: Option<String>,
    /// The patterns, with the folder their targets are relative to when there is no baseUrl.
    paths: Option<(Paths, String)>,
    /// `compilerOptions.jsx` and `jsxFactory`.
    jsx_mode: Option<String>,
    jsx_factory: Option<String>,
}

impl TsConfigs {
    /// Reads the configs found under `root` (root-relative paths). A config that cannot be
    /// read or parsed is left out: imports through its aliases stay unresolved, as before.
    pub(crate) fn load(root: &Path, found: &[String]) -> TsConfigs {
        if found.is_empty() {
            return TsConfigs::default();
        }
        let mut h = Sha256::new();
        let mut configs = Vec::new();
        for rel in found {
            let mut opts = Options::default();
            read_config(root, rel, 0, &mut opts, &mut h);
            let dir = parent(rel).to_string();
            let paths = opts
                .paths
                .map(|(ps, decl_dir)| {
                    let base = opts.base_url.clone().unwrap_or(decl_dir);
                    ps.into_iter()
                        .map(|(pat, targets)| {
                            let targets = targets.iter().map(|t| join(&base, t)).collect();
                            (pat, targets)
                        })
                        .collect()
                })
                .unwrap_or_default();
            let jsx = match (opts.jsx_mode.as_deref(), opts.jsx_factory) {
                (Some("react-jsx" | "react-jsxdev"), _) => Some(Jsx::Automatic),
                (_, Some(f)) => Some(Jsx::Factory(f)),
                _ => None,
            };
            configs.push(Config {
                dir,
                base_url: opts.base_url,
                paths,
                jsx,
            });
        }
        configs.sort_by(|a, b| b.dir.len().cmp(&a.dir.len()).then(a.dir.cmp(&b.dir)));
        let d: [u8; 32] = h.finalize().into();
        let mut salt = [0u8; 8];
        salt.copy_from_slice(&d[..8]);
        TsConfigs {
            configs,
            salt: u64::from_le_bytes(salt).max(1),
        }
    }

    /// The config that applies to a file: the one in its folder or the nearest above it.
    fn config_for(&self, file: &str) -> Option<&Config> {
        let dir = parent(file);
        self.configs
            .iter()
            .find(|c| c.dir.is_empty() || dir == c.dir || dir.starts_with(&format!("{}/", c.dir)))
    }

    /// The repository paths a bare specifier may name from `file`, most likely first.
    pub(crate) fn candidates(&self, file: &str, spec: &str) -> Vec<String> {
        let Some(c) = self.config_for(file) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        // tsc picks the pattern with the longest prefix before its `*`.
        let mut best: Option<(usize, &str, &Vec<String>)> = None;
        for (pat, targets) in &c.paths {
            let matched = match pat.split_once('*') {
                None => (pat == spec).then_some((usize::MAX, "")),
                Some((pre, suf)) => (spec.len() >= pre.len() + suf.len()
                    && spec.starts_with(pre)
                    && spec.ends_with(suf))
                .then(|| (pre.len(), &spec[pre.len()..spec.len() - suf.len()])),
            };
            if let Some((len, star)) = matched
                && best.is_none_or(|b| len > b.0)
            {
                best = Some((len, star, targets));
            }
        }
        if let Some((_, star, targets)) = best {
            out.extend(targets.iter().map(|t| t.replacen('*', star, 1)));
        }
        if let Some(b) = &c.base_url {
            out.push(join(b, spec));
        }
        out
    }

    /// Rewrites the bare import specifiers of a JavaScript or TypeScript file that its config
    /// maps into root-relative candidates (`/a\n/b`).
    pub(crate) fn rewrite(&self, f: &mut FileFacts) {
        if self.configs.is_empty() || !f.lang.is_js_family() {
            return;
        }
        // JSX elements call the config's factory unless the file's pragma names one.
        if let Some(jsx) = self.config_for(&f.path).and_then(|c| c.jsx.as_ref()) {
            for call in f.calls.iter_mut().filter(|c| c.jsx == JSX_FACTORY) {
                match jsx {
                    Jsx::Automatic => call.callee.clear(),
                    Jsx::Factory(name) => {
                        call.callee = name.split('.').map(|s| Seg::Name(s.into())).collect();
                        call.text = name.clone();
                    }
                }
            }
        }
        for imp in &mut f.imports {
            let path = match &mut imp.kind {
                ImportKind::Module { path, .. }
                | ImportKind::From { path, .. }
                | ImportKind::Star { path, .. } => path,
            };
            if path.starts_with('.') || path.starts_with('/') || path.is_empty() {
                continue;
            }
            let cands = self.candidates(&f.path, path);
            if !cands.is_empty() {
                *path = cands
                    .iter()
                    .map(|c| format!("/{c}"))
                    .collect::<Vec<_>>()
                    .join("\n");
            }
        }
    }
}

fn parent(rel: &str) -> &str {
    rel.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

/// `dir` joined with a relative path, normalized (`a/b` + `../c` = `a/c`).
fn join(dir: &str, rel: &str) -> String {
    crate::resolve::normalize(&format!("{dir}/{rel}"))
}

/// Reads one config and, first, the configs it extends (their settings are overridden).
fn read_config(root: &Path, rel: &str, depth: u32, opts: &mut Options, h: &mut Sha256) {
    if depth > MAX_EXTENDS {
        return;
    }
    let text = match std::fs::read_to_string(root.join(rel)) {
        Ok(t) => t,
        Err(e) => {
            tracing::debug!(config = rel, error = %e, "tsconfig not read");
            return;
        }
    };
    h.update(rel.as_bytes());
    h.update([0]);
    h.update(text.as_bytes());
    let v: serde_json::Value = match serde_json::from_str(&strip_jsonc(&text)) {
        Ok(v) => v,
        Err(e) => {
            tracing::debug!(config = rel, error = %e, "tsconfig not parsed");
            return;
        }
    };
    let dir = parent(rel);
    let extends: Vec<&str> = match v.get("extends") {
        Some(serde_json::Value::String(s)) => vec![s.as_str()],
        Some(serde_json::Value::Array(a)) => a.iter().filter_map(|x| x.as_str()).collect(),
        _ => Vec::new(),
    };
    for e in extends {
        // A package's config (`@tsconfig/node18`) lives in node_modules: not ours to read.
        if !e.starts_with('.') {
            continue;
        }
        let mut target = join(dir, e);
        if !target.ends_with(".json") {
            target.push_str(".json");
        }
        read_config(root, &target, depth + 1, opts, h);
    }
    let Some(co) = v.get("compilerOptions") else {
        return;
    };
    if let Some(b) = co.get("baseUrl").and_then(|b| b.as_str()) {
        opts.base_url = Some(join(dir, b));
    }
    if let Some(ps) = co.get("paths").and_then(|p| p.as_object()) {
        let paths = ps
            .iter()
            .map(|(k, v)| {
                let targets = v
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|t| t.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default();
                (k.clone(), targets)
            })
            .collect();
        opts.paths = Some((paths, dir.to_string()));
    }
    if let Some(j) = co.get("jsx").and_then(|j| j.as_str()) {
        opts.jsx_mode = Some(j.to_ascii_lowercase());
    }
    if let Some(f) = co.get("jsxFactory").and_then(|j| j.as_str()) {
        opts.jsx_factory = Some(f.to_string());
    }
}

/// JSON with comments and trailing commas, as tsc reads it, made plain JSON.
fn strip_jsonc(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            out.push_str(&s[start..i]);
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i = (i + 2).min(b.len());
        } else if c == b',' {
            // A comma before a closing bracket, past blanks and comments, is dropped.
            let mut j = i + 1;
            loop {
                while j < b.len() && b[j].is_ascii_whitespace() {
                    j += 1;
                }
                if b.get(j) == Some(&b'/') && b.get(j + 1) == Some(&b'/') {
                    while j < b.len() && b[j] != b'\n' {
                        j += 1;
                    }
                } else if b.get(j) == Some(&b'/') && b.get(j + 1) == Some(&b'*') {
                    j += 2;
                    while j + 1 < b.len() && !(b[j] == b'*' && b[j + 1] == b'/') {
                        j += 1;
                    }
                    j = (j + 2).min(b.len());
                } else {
                    break;
                }
            }
            if !matches!(b.get(j), Some(b'}') | Some(b']')) {
                out.push(',');
            }
            i += 1;
        } else {
            // Copy up to the next byte that matters, whole characters at a time.
            let start = i;
            while i < b.len() && !matches!(b[i], b'"' | b'/' | b',') {
                i += 1;
            }
            if i == start {
                i += 1;
            }
            out.push_str(&s[start..i]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn comments_and_trailing_commas_are_dropped_but_not_inside_strings() {
        let s = r#"{ // c
          "a": "x//y", /* b */ "p": ["s/*", ], "q": "\"/*",
        }"#;
        let v: serde_json::Value = serde_json::from_str(&strip_jsonc(s)).unwrap();
        assert_eq!(v["a"], "x//y");
        assert_eq!(v["p"][0], "s/*");
        assert_eq!(v["q"], "\"/*");
    }

    #[test]
    fn longest_prefix_pattern_wins_then_base_url() {
        let ts = TsConfigs {
            configs: vec![Config {
                dir: String::new(),
                base_url: Some("src".into()),
                paths: vec![
                    ("@/*".into(), vec!["src/*".into()]),
                    ("@/core/*".into(), vec!["lib/core/*".into()]),
                ],
                jsx: None,
            }],
            salt: 1,
        };
        assert_eq!(
            ts.candidates("app.ts", "@/core/log"),
            vec!["lib/core/log".to_string(), "src/@/core/log".to_string()]
        );
        assert_eq!(ts.candidates("app.ts", "x"), vec!["src/x".to_string()]);
    }
}
