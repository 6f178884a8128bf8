//! Imports: from an import statement to the files and values it binds, per language
//! (Python packages and relative levels, JavaScript/TypeScript specifiers, Rust paths, ...).

use super::*;

pub(super) fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

/// A `/`-separated path without `.`, `..` and empty parts (`a/./b/../c` is `a/c`).
pub(crate) fn normalize(p: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for part in p.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            x => out.push(x),
        }
    }
    out.join("/")
}

impl<'a> Resolver<'a> {
    pub(super) fn import_val(&self, fi: FileId, ii: u32, depth: u32) -> Vec<Val> {
        let f = &self.files[fi as usize];
        let imp = &f.imports[ii as usize];
        match (&imp.kind, f.lang) {
            (ImportKind::Module { path, alias }, Lang::Python) => {
                if alias.is_some() {
                    self.py_module_val(path, None)
                } else {
                    // `import a.b` binds `a`.
                    let first = path.split('.').next().unwrap_or(path);
                    self.py_module_val(first, None)
                }
            }
            (
                ImportKind::From {
                    path, level, name, ..
                },
                Lang::Python,
            ) => {
                let Some(base) = self.py_base(fi, path, *level) else {
                    return Vec::new();
                };
                let mut out = Vec::new();
                for v in self.py_module_val(&base, Some(fi)) {
                    if let Val::Module(m) = v {
                        out.extend(self.module_member(m, name, depth + 1, true));
                    }
                }
                if out.is_empty() {
                    out = self.py_module_val(&format!("{base}.{name}"), Some(fi));
                }
                out
            }
            (ImportKind::Module { .. }, Lang::Go) => self
                .import_files(fi, ii, depth + 1)
                .first()
                .map(|&t| vec![Val::GoPkg(dir_of(&self.files[t as usize].path).to_string())])
                .unwrap_or_default(),
            (ImportKind::Module { .. }, l) if l.is_js_family() => {
                let mut out = Vec::new();
                for t in self.import_files(fi, ii, depth + 1) {
                    out.extend(self.js_module_value(t, depth + 1));
                }
                out
            }
            (ImportKind::Module { .. }, _) => self
                .import_files(fi, ii, depth + 1)
                .into_iter()
                .map(Val::Module)
                .collect(),
            (ImportKind::From { path, name, .. }, Lang::Java) => {
                let mut out = Vec::new();
                if let Some(files) = self.packages.get(path) {
                    for &t in files {
                        out.extend(self.top_class(t, name));
                    }
                }
                out
            }
            (ImportKind::From { path, name, .. }, Lang::Rust) => {
                let mut out = Vec::new();
                for v in self.rust_path_val(fi, path, depth + 1) {
                    out.extend(self.member(&v, name, depth + 1));
                }
                if out.is_empty() && name == "self" {
                    out = self.rust_path_val(fi, path, depth + 1);
                }
                out
            }
            (ImportKind::From { name, .. }, _) => {
                let mut out = Vec::new();
                for t in self.import_files(fi, ii, depth + 1) {
                    out.extend(self.module_member(t, name, depth + 1, true));
                }
                out
            }
            (ImportKind::Star { .. }, _) => Vec::new(),
        }
    }

    /// The file a JavaScript or TypeScript specifier names, from the repository root: the
    /// path itself, with an extension, a folder's index, or the TypeScript source a compiled
    /// name stands for (`./a.js` for `a.ts`, `.jsx` for `.tsx`, `.mjs` for `.mts`).
    pub(super) fn js_file(&self, joined: &str) -> Option<FileId> {
        const EXTS: [&str; 15] = [
            "",
            ".ts",
            ".tsx",
            ".js",
            ".jsx",
            ".mjs",
            ".cjs",
            ".mts",
            ".cts",
            "/index.ts",
            "/index.tsx",
            "/index.js",
            "/index.jsx",
            "/index.mjs",
            "/index.mts",
        ];
        for e in EXTS {
            let cand = format!("{joined}{e}");
            if let Some(&t) = self.by_path.get(cand.as_str()) {
                return Some(t);
            }
        }
        let compiled: [(&str, &[&str]); 4] = [
            (".js", &[".ts", ".tsx"]),
            (".jsx", &[".tsx"]),
            (".mjs", &[".mts"]),
            (".cjs", &[".cts"]),
        ];
        for (js, sources) in compiled {
            if let Some(stem) = joined.strip_suffix(js) {
                for e in sources {
                    if let Some(&t) = self.by_path.get(format!("{stem}{e}").as_str()) {
                        return Some(t);
                    }
                }
            }
        }
        None
    }

    /// The file of an AMD module id: RequireJS reads it from its baseUrl, by default the
    /// folder of the entry script, which holds the modules that name each other by id. The
    /// folders above the naming file, the root first, stand for it: the shallowest one that
    /// has the module.
    fn amd_file(&self, from: &str, id: &str) -> Option<FileId> {
        let dir = dir_of(from);
        let mut bases = vec![""];
        bases.extend(dir.match_indices('/').map(|(i, _)| &dir[..i]));
        if !dir.is_empty() {
            bases.push(dir);
        }
        bases
            .into_iter()
            .find_map(|b| self.js_file(&normalize(&format!("{b}/{id}"))))
    }

    /// What a JavaScript module is as a whole (`require('./m')`, `import * as m`, TypeScript
    /// `import m = require()`): the module's names, and the value CommonJS `module.exports =`
    /// (or TypeScript `export =`, an AMD factory's result) gives it.
    pub(super) fn js_module_value(&self, m: FileId, depth: u32) -> Vec<Val> {
        let mut out = vec![Val::Module(m)];
        if let Some(bs) = self.idx[m as usize]
            .bindings
            .get(&(None, "exports".to_string()))
        {
            out.extend(self.eval_bindings(m, bs, None, depth + 1));
            dedup(&mut out);
        }
        out
    }

    pub(super) fn rust_module_val(&self, q: &str) -> Option<Val> {
        let files = self.rust_modules.get(q)?;
        (files.len() == 1).then(|| Val::Module(files[0]))
    }

    pub(super) fn rust_path_val(&self, fi: FileId, path: &str, depth: u32) -> Vec<Val> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let own = rust_module(&self.files[fi as usize].path);
        let mut parts = path.split("::");
        let Some(first) = parts.next() else {
            return Vec::new();
        };
        let start = match first {
            "crate" => "crate".to_string(),
            "self" => own,
            "super" => own
                .rsplit_once("::")
                .map(|p| p.0.to_string())
                .unwrap_or(own),
            other => {
                // A name in scope (a module declared with `mod`) or an external crate.
                let q = format!("{own}::{other}");
                if self.rust_modules.contains_key(&q) {
                    q
                } else {
                    return Vec::new();
                }
            }
        };
        let mut vals: Vec<Val> = self.rust_module_val(&start).into_iter().collect();
        for p in parts {
            let mut next = Vec::new();
            for v in &vals {
                next.extend(self.member(v, p, depth + 1));
            }
            vals = next;
        }
        vals
    }

    /// The absolute module a Python import names.
    pub(super) fn py_base(&self, fi: FileId, path: &str, level: u32) -> Option<String> {
        if level == 0 {
            return Some(path.to_string());
        }
        let ix = &self.idx[fi as usize];
        let mut parts: Vec<&str> = if ix.qualname.is_empty() {
            Vec::new()
        } else {
            ix.qualname.split('.').collect()
        };
        // A module's package is its name minus the last part; a package is its own.
        let drop = if ix.is_init { level - 1 } else { level };
        for _ in 0..drop {
            parts.pop()?;
        }
        if !path.is_empty() {
            parts.push(path);
        }
        Some(parts.join("."))
    }

    pub(super) fn py_module_val(&self, q: &str, near: Option<FileId>) -> Vec<Val> {
        if let Some(files) = self.py_modules.get(q) {
            if files.len() == 1 {
                return vec![Val::Module(files[0])];
            }
            if let Some(n) = near {
                // The same name in two places: the one closest to the importer.
                let here = &self.files[n as usize].path;
                let best = files
                    .iter()
                    .max_by_key(|&&f| common_prefix(&self.files[f as usize].path, here));
                if let Some(&b) = best {
                    return vec![Val::Module(b)];
                }
            }
            return Vec::new();
        }
        if self.py_packages.contains_key(q) {
            return vec![Val::Namespace(q.to_string())];
        }
        Vec::new()
    }

    /// The repository files an import statement brings in.
    pub(super) fn import_files(&self, fi: FileId, ii: u32, depth: u32) -> Vec<FileId> {
        if let Some(Some((targets, deps))) = self.import_targets.get(fi as usize)
            && let Some(t) = targets.get(ii as usize)
        {
            record(Dep::File(fi));
            merge_imports_of(fi, deps);
            return t.clone();
        }
        self.import_files_uncached(fi, ii, depth)
    }

    pub(super) fn import_files_uncached(&self, fi: FileId, ii: u32, depth: u32) -> Vec<FileId> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let f = &self.files[fi as usize];
        let imp = &f.imports[ii as usize];
        let lang = f.lang;
        let (path, level) = match &imp.kind {
            ImportKind::Module { path, .. } => (path.as_str(), 0),
            ImportKind::From { path, level, .. } => (path.as_str(), *level),
            ImportKind::Star { path, level } => (path.as_str(), *level),
        };
        match lang {
            Lang::Python => {
                let Some(base) = self.py_base(fi, path, level) else {
                    return Vec::new();
                };
                let mut out = Vec::new();
                match &imp.kind {
                    ImportKind::From { name, .. } => {
                        if let [Val::Module(m)] = self
                            .py_module_val(&format!("{base}.{name}"), Some(fi))
                            .as_slice()
                        {
                            out.push(*m);
                        } else if let [Val::Module(m)] =
                            self.py_module_val(&base, Some(fi)).as_slice()
                        {
                            out.push(*m);
                        }
                    }
                    _ => {
                        if let [Val::Module(m)] = self.py_module_val(&base, Some(fi)).as_slice() {
                            out.push(*m);
                        }
                    }
                }
                out
            }
            l if l.is_js_family() => {
                // A specifier a tsconfig maps: its root-relative candidates, in order.
                if path.starts_with('/') {
                    return path
                        .split('\n')
                        .find_map(|c| self.js_file(&normalize(c)))
                        .into_iter()
                        .collect();
                }
                if let Some(id) = crate::extract::amd_module_id(path) {
                    return self.amd_file(&f.path, id).into_iter().collect();
                }
                if !path.starts_with('.') {
                    return Vec::new();
                }
                let joined = normalize(&format!("{}/{}", dir_of(&f.path), path));
                self.js_file(&joined).into_iter().collect()
            }
            Lang::Go => {
                // The longest folder of the repository whose path ends the import path.
                let mut best: Option<(&str, usize)> = None;
                // A scan of every folder: any folder added or removed can change the answer.
                record(Dep::Key(crate::deps::all_paths_key()));
                let all = self.files.untracked();
                for (dir, files) in &self.by_dir.map {
                    if !files.iter().any(|&x| all.lang(x as usize) == Lang::Go) {
                        continue;
                    }
                    let ok = if dir.is_empty() {
                        false
                    } else {
                        path == *dir || path.ends_with(&format!("/{dir}"))
                    };
                    if ok && best.is_none_or(|b| dir.len() > b.1) {
                        best = Some((dir, dir.len()));
                    }
                }
                best.and_then(|(d, _)| self.by_dir.get(d))
                    .map(|v| {
                        v.iter()
                            .copied()
                            .filter(|&x| self.lang(x) == Lang::Go)
                            .collect()
                    })
                    .unwrap_or_default()
            }
            Lang::Java => {
                let mut out = Vec::new();
                match &imp.kind {
                    ImportKind::From { path, name, .. } => {
                        if let Some(files) = self.packages.get(path) {
                            for &t in files {
                                if !self.top_class(t, name).is_empty() {
                                    out.push(t);
                                }
                            }
                        }
                    }
                    ImportKind::Star { path, .. } => {
                        if let Some(files) = self.packages.get(path) {
                            out.extend(files.iter().copied());
                        }
                    }
                    _ => {}
                }
                out
            }
            Lang::CSharp => self.packages.get(path).cloned().unwrap_or_default(),
            Lang::Rust => {
                let mut out = Vec::new();
                let full = match &imp.kind {
                    ImportKind::From { path, name, .. } if !path.is_empty() => {
                        format!("{path}::{name}")
                    }
                    ImportKind::From { name, .. } => name.clone(),
                    _ => path.to_string(),
                };
                let mut p = full.as_str();
                loop {
                    if let Some(Val::Module(m)) = self.rust_path_val(fi, p, depth + 1).first() {
                        out.push(*m);
                        break;
                    }
                    match p.rsplit_once("::") {
                        Some((a, _)) => p = a,
                        None => break,
                    }
                }
                out
            }
            Lang::C | Lang::Cpp | Lang::Ruby | Lang::Bash => {
                let mut cands: Vec<String> = Vec::new();
                let with_ext = |p: &str| -> Vec<String> {
                    if lang == Lang::Ruby && !p.ends_with(".rb") {
                        vec![format!("{p}.rb")]
                    } else {
                        vec![p.to_string()]
                    }
                };
                if level > 0 || lang == Lang::Bash {
                    for c in with_ext(path) {
                        cands.push(normalize(&format!("{}/{}", dir_of(&f.path), c)));
                    }
                }
                for c in with_ext(path) {
                    cands.push(normalize(&c));
                }
                for c in &cands {
                    if let Some(&t) = self.by_path.get(c.as_str()) {
                        return vec![t];
                    }
                }
                // Include paths we do not know: a unique file with that suffix.
                let want = with_ext(path).pop().unwrap_or_default();
                let suffix = format!("/{}", want.trim_start_matches("./"));
                record(Dep::Key(crate::deps::all_paths_key()));
                let found: Vec<FileId> = self
                    .files
                    .untracked()
                    .paths()
                    .enumerate()
                    .filter(|(_, p)| p.ends_with(&suffix))
                    .map(|(i, _)| i as FileId)
                    .collect();
                if found.len() == 1 { found } else { Vec::new() }
            }
            _ => Vec::new(),
        }
    }
}
