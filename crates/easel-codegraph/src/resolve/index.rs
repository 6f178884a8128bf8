//! The resolver's index: every file's definitions, bindings and imports by name, built once
//! per build (or per changed file), and the small accessors the other passes read it with.

use super::*;

/// A value put into a container: the scope and line of the change, and the value.
pub(super) type Added = (Option<DefId>, u32, Vec<Seg>);

/// Adds `v` under `k`, noting that the file contributes to key `k` in `out`.
pub(super) fn push_entry<K: std::hash::Hash + Eq + DepKey, V>(
    t: &mut Table<K, Vec<V>>,
    k: K,
    v: V,
    out: &mut Vec<Dep>,
) {
    out.push(t.dep_of(&k));
    t.map.entry(k).or_default().push(v);
}

/// Adds name `k` to a set of names, noting the contribution in `out`.
pub(super) fn set_entry(t: &mut Table<String, ()>, k: &str, out: &mut Vec<Dep>) {
    let k = k.to_string();
    out.push(t.dep_of(&k));
    t.map.entry(k).or_insert(());
}

pub(super) fn family(l: Lang) -> u8 {
    match l {
        Lang::C | Lang::Cpp => 1,
        Lang::Java => 2,
        Lang::CSharp => 3,
        Lang::Ruby => 4,
        Lang::TypeScript | Lang::Tsx | Lang::JavaScript => 5,
        Lang::Go => 6,
        Lang::Rust => 7,
        Lang::Python => 8,
        Lang::Bash => 9,
    }
}

pub(super) fn dir_of(path: &str) -> &str {
    path.rfind('/').map(|i| &path[..i]).unwrap_or("")
}

pub(super) fn stem_path(path: &str) -> &str {
    let file_start = path.rfind('/').map(|i| i + 1).unwrap_or(0);
    match path[file_start..].rfind('.') {
        Some(i) if i > 0 => &path[..file_start + i],
        _ => path,
    }
}

/// The dotted module name of a Python file, and whether it is a package's `__init__`.
/// The dotted module names of a Python file: the name it has on its source root (the folder
/// above its topmost package, so `packages/a/src/pkg/m.py` is `pkg.m`, and a `src/` folder that
/// is not a package is a source root), then other names it can be imported by (its whole path).
/// Also whether it is a package's `__init__`.
pub(super) fn python_names(path: &str, init_dirs: &HashSet<&str>) -> (String, bool, Vec<String>) {
    let stem = stem_path(path);
    let dir = dir_of(path);
    let (full, is_init) = dotted_module(stem);
    let no_src = stem.strip_prefix("src/").map(|p| dotted_module(p).0);
    let mut root = None;
    if !dir.is_empty() && init_dirs.contains(dir) {
        let mut top = dir;
        loop {
            let parent = dir_of(top);
            if parent.is_empty() || parent == top || !init_dirs.contains(parent) {
                break;
            }
            top = parent;
        }
        root = Some(dir_of(top));
    }
    let primary = match root {
        Some(r) if !r.is_empty() => dotted_module(&stem[r.len() + 1..]).0,
        Some(_) => full.clone(),
        None => no_src.clone().unwrap_or_else(|| full.clone()),
    };
    let mut aliases = Vec::new();
    for a in [Some(full), no_src].into_iter().flatten() {
        if a != primary && !aliases.contains(&a) {
            aliases.push(a);
        }
    }
    (primary, is_init, aliases)
}

pub(super) fn dotted_module(p: &str) -> (String, bool) {
    let mut name = p.replace('/', ".");
    let is_init = name == "__init__" || name.ends_with(".__init__");
    if is_init {
        name.truncate(name.len().saturating_sub("__init__".len()));
        if name.ends_with('.') {
            name.pop();
        }
    }
    (name, is_init)
}

pub(super) fn rust_module(path: &str) -> String {
    let p = match path.rfind("src/") {
        Some(i) => &path[i + 4..],
        None => path,
    };
    let p = stem_path(p);
    let mut parts: Vec<&str> = p.split('/').collect();
    if let Some(last) = parts.last()
        && matches!(*last, "lib" | "main" | "mod")
    {
        parts.pop();
    }
    let mut s = String::from("crate");
    for part in parts {
        if !part.is_empty() {
            s.push_str("::");
            s.push_str(part);
        }
    }
    s
}

pub(super) fn def_ids(f: &FileFacts) -> Vec<String> {
    let mut counts: HashMap<String, u32> = HashMap::new();
    let mut locals: Vec<String> = Vec::with_capacity(f.defs.len());
    for (i, d) in f.defs.iter().enumerate() {
        let mut parts = vec![d.name.as_str()];
        let mut p = visible_parent_of(f, i as DefId);
        while let Some(pi) = p {
            parts.push(f.defs[pi as usize].name.as_str());
            p = visible_parent_of(f, pi);
        }
        parts.reverse();
        let local = parts.join(".");
        let n = counts.entry(local.clone()).or_insert(0);
        *n += 1;
        let id = if *n == 1 {
            format!("{}:{}", f.path, local)
        } else {
            format!("{}:{}#{}", f.path, local, n)
        };
        locals.push(id);
    }
    // A merged `impl` block shares its type's node.
    for (i, d) in f.defs.iter().enumerate() {
        if let Some(m) = d.merged_into {
            locals[i] = locals[m as usize].clone();
        }
    }
    locals
}

pub(super) fn visible_parent_of(f: &FileFacts, d: DefId) -> Option<DefId> {
    let mut p = f.defs[d as usize].parent;
    while let Some(pi) = p {
        let pd = &f.defs[pi as usize];
        if let Some(m) = pd.merged_into {
            return Some(m);
        }
        if pd.kind != DefKind::Impl && pd.kind != DefKind::Scope {
            return Some(pi);
        }
        p = pd.parent;
    }
    None
}

/// The folders that are Python packages (they hold an `__init__.py`).
pub(crate) fn init_dirs<'a>(files: &'a Files<'_>) -> HashSet<&'a str> {
    files
        .paths()
        .filter(|p| *p == "__init__.py" || p.ends_with("/__init__.py"))
        .map(dir_of)
        .collect()
}

/// For each line (index = line number), the innermost of [`FileFacts::cond_blocks`] holding
/// it (`u32::MAX` for none). Blocks nest, so painting outer blocks before the blocks inside
/// them leaves the innermost on every line; the work is the lines times the nesting depth.
pub(super) fn innermost_cond_blocks(f: &FileFacts) -> Vec<u32> {
    if f.cond_blocks.is_empty() {
        return Vec::new();
    }
    let mut order: Vec<u32> = (0..f.cond_blocks.len() as u32).collect();
    order.sort_by_key(|&i| {
        let (s, e) = f.cond_blocks[i as usize];
        (s, std::cmp::Reverse(e))
    });
    let last = f.cond_blocks.iter().map(|b| b.1).max().unwrap_or(0);
    let mut out = vec![u32::MAX; last as usize + 1];
    for i in order {
        let (s, e) = f.cond_blocks[i as usize];
        for slot in out.iter_mut().take(e as usize + 1).skip(s as usize) {
            *slot = i;
        }
    }
    out
}

pub(super) fn build_index(f: &FileFacts, init_dirs: &HashSet<&str>) -> FileIndex {
    let mut bindings: HashMap<(Option<DefId>, String), Vec<Binding>> = HashMap::new();
    let mut push = |scope: Option<DefId>, name: String, b: Binding| {
        bindings.entry((scope, name)).or_default().push(b);
    };
    // Priority at the same line: unknown < assignment < import < definition.
    for (i, d) in f.defs.iter().enumerate() {
        // An object literal's name is bound by its assignment, to the literal itself.
        // A method of a class bound to no name is anonymous, yet a member of its class.
        let anon_method = d.kind == DefKind::Scope
            && d.parent.is_some_and(|p| f.defs[p as usize].is_anon_class());
        if (d.kind == DefKind::Impl && d.merged_into.is_some())
            || (d.kind == DefKind::Scope && !anon_method)
            || d.is_object
        {
            continue;
        }
        let scope = visible_parent_of(f, i as DefId);
        push(
            scope,
            d.name.clone(),
            Binding {
                line: d.start_line,
                kind: BindKind::Def(i as DefId),
                cond: None,
            },
        );
    }
    for (i, imp) in f.imports.iter().enumerate() {
        let name = match (&imp.kind, f.lang) {
            (ImportKind::Module { alias: Some(a), .. }, _) => a.clone(),
            (ImportKind::Module { path, alias: None }, Lang::Python) => {
                path.split('.').next().unwrap_or(path).to_string()
            }
            (ImportKind::Module { path, alias: None }, Lang::Go) => {
                path.rsplit('/').next().unwrap_or(path).to_string()
            }
            (ImportKind::Module { .. }, _) => continue,
            (ImportKind::From { name, alias, .. }, _) => {
                if name == "self" && f.lang == Lang::Rust {
                    match &imp.kind {
                        ImportKind::From { path, .. } => alias.clone().unwrap_or_else(|| {
                            path.rsplit("::").next().unwrap_or(path).to_string()
                        }),
                        _ => continue,
                    }
                } else {
                    alias.clone().unwrap_or_else(|| name.clone())
                }
            }
            (ImportKind::Star { .. }, _) => continue,
        };
        push(
            imp.scope,
            name,
            Binding {
                line: imp.line,
                kind: BindKind::Import(i as u32),
                cond: None,
            },
        );
    }
    let mut inst_attrs: HashMap<(DefId, String), Vec<u32>> = HashMap::new();
    let mut outer_attrs: HashMap<String, Vec<u32>> = HashMap::new();
    let mut elem_assigns: HashMap<(Option<DefId>, String, String), Vec<u32>> = HashMap::new();
    let mut elem_adds: HashMap<(Option<DefId>, String), Vec<Added>> = HashMap::new();
    let mut pending_adds = Vec::new();
    let mut elem_keyed: HashMap<(Option<DefId>, String), Vec<u32>> = HashMap::new();
    let declared: HashSet<(Option<DefId>, &str)> = f
        .globals
        .iter()
        .map(|g| (g.scope, g.name.as_str()))
        .collect();
    for (i, a) in f.assigns.iter().enumerate() {
        if a.target.len() == 1 {
            // `global x; x = f` (or `nonlocal`) binds the name where it lives.
            let scope = if declared.contains(&(a.scope, a.target[0].as_str())) {
                outer_binding_scope(f, a.scope, &a.target[0])
            } else {
                a.scope
            };
            push(
                scope,
                a.target[0].clone(),
                Binding {
                    line: a.line,
                    kind: BindKind::Assign(i as u32),
                    cond: None,
                },
            );
        } else if a.target.len() == 2 && a.target[1] == "[*]" {
            if let Some(v) = &a.value {
                pending_adds.push((a.scope, a.target[0].clone(), a.line, v.clone()));
            }
        } else if a.target.len() == 2 && a.target[1].starts_with('[') {
            let key = a.target[1]
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_string();
            elem_assigns
                .entry((a.scope, a.target[0].clone(), key))
                .or_default()
                .push(i as u32);
            elem_keyed
                .entry((a.scope, a.target[0].clone()))
                .or_default()
                .push(i as u32);
        } else if a.target.len() == 2 && a.scope.is_none() {
            if f.lang == Lang::Python {
                outer_attrs
                    .entry(a.target[1].clone())
                    .or_default()
                    .push(i as u32);
            }
        } else if a.target.len() == 2
            && let Some(s) = a.scope
        {
            // `self.x = ...` in a method (or a function nested in one) of a class.
            let mut cur = Some(s);
            let mut class = None;
            while let Some(c) = cur {
                let d = &f.defs[c as usize];
                if d.kind == DefKind::Class {
                    class = Some(c);
                    break;
                }
                if let Some(m) = d.merged_into {
                    class = Some(m);
                    break;
                }
                let p = d.parent.and_then(|p| {
                    let pd = &f.defs[p as usize];
                    pd.merged_into.or(Some(p))
                });
                if let Some(pc) = p
                    && f.defs[pc as usize].kind == DefKind::Class
                {
                    let is_self = match f.lang {
                        Lang::Python => d.params.first() == Some(&a.target[0]),
                        _ => matches!(a.target[0].as_str(), "this" | "self"),
                    };
                    if is_self {
                        class = Some(pc);
                    }
                    break;
                }
                cur = d.parent;
            }
            if let Some(c) = class {
                inst_attrs
                    .entry((c, a.target[1].clone()))
                    .or_default()
                    .push(i as u32);
            } else if f.lang == Lang::Python {
                outer_attrs
                    .entry(a.target[1].clone())
                    .or_default()
                    .push(i as u32);
            }
        }
    }
    for b in &f.binds {
        let kind = match b.scope {
            Some(d)
                if f.defs[d as usize].start_line == b.line
                    && f.defs[d as usize].params.contains(&b.name) =>
            {
                let i = f.defs[d as usize]
                    .params
                    .iter()
                    .position(|p| p == &b.name)
                    .unwrap_or(0);
                BindKind::Param(d, i as u32)
            }
            _ => BindKind::Unknown,
        };
        push(
            b.scope,
            b.name.clone(),
            Binding {
                line: b.line,
                kind,
                cond: None,
            },
        );
    }
    let js = f.lang.is_js_family();
    if f.lang == Lang::Python || js {
        for c in f.calls.iter().filter(|c| index_reads_call(f, c)) {
            let (names, m) = match c.callee.as_slice() {
                [Seg::Name(n), Seg::Name(m)] => (vec![n], m),
                // `(c ? a : b).push(v)`: into either.
                [Seg::Lit(i), Seg::Iter, Seg::Name(m)] if js => (either_names(f, *i), m),
                _ => continue,
            };
            for n in names {
                let arg = match m.as_str() {
                    "push" | "unshift" if js => c.args.first().cloned().flatten(),
                    "set" if js => c.args.get(1).cloned().flatten(),
                    "append" | "add" | "appendleft" => c.args.first().cloned().flatten(),
                    "insert" => c.args.get(1).cloned().flatten(),
                    // `xs.extend(ys)` adds each value of `ys`.
                    "extend" => c.args.first().cloned().flatten().map(|mut v| {
                        v.push(Seg::Iter);
                        v
                    }),
                    // `d.update({"k": f})`, `d.update(k=f)`: values at keys the reads do not see
                    // (a key read later that the literal lacks may be any of them).
                    "update" => {
                        let owner = binding_scope(f, &bindings, c.scope, n);
                        let mut vals: Vec<&Vec<Seg>> =
                            c.kwargs.iter().filter_map(|(_, v)| v.as_ref()).collect();
                        if let Some(Some(a)) = c.args.first()
                            && let [Seg::Lit(i)] = a.as_slice()
                            && let Some(l) = f.literals.get(*i as usize)
                        {
                            vals.extend(l.elements.iter().filter_map(|(_, v)| v.as_ref()));
                        }
                        for v in vals {
                            elem_adds.entry((owner, n.clone())).or_default().push((
                                c.scope,
                                c.line,
                                v.clone(),
                            ));
                        }
                        None
                    }
                    _ => None,
                };
                if let Some(v) = arg {
                    // The list lives in the scope that binds the name.
                    let owner = binding_scope(f, &bindings, c.scope, n);
                    elem_adds.entry((owner, n.clone())).or_default().push((
                        c.scope,
                        c.line,
                        v.clone(),
                    ));
                }
            }
        }
    }
    for (scope, name, line, v) in pending_adds {
        let owner = binding_scope(f, &bindings, scope, &name);
        elem_adds
            .entry((owner, name))
            .or_default()
            .push((scope, line, v));
    }
    let rank = |k: &BindKind| match k {
        BindKind::Unknown | BindKind::Param(..) => 0,
        BindKind::Assign(_) => 1,
        BindKind::Import(_) => 2,
        BindKind::Def(_) => 3,
    };
    let inner = innermost_cond_blocks(f);
    for ((scope, _), v) in bindings.iter_mut() {
        v.sort_by(|a, b| a.line.cmp(&b.line).then(rank(&a.kind).cmp(&rank(&b.kind))));
        for b in v.iter_mut() {
            b.cond = inner
                .get(b.line as usize)
                .and_then(|&i| f.cond_blocks.get(i as usize))
                .copied();
            // `global x; x = f` in a function: it runs whenever the function is called, so it
            // adds a value without hiding the bindings before it (reads outside the function
            // see all of them).
            if let BindKind::Assign(a) = b.kind
                && let Some(s) = f.assigns[a as usize].scope
                && *scope != Some(s)
                && let Some(d) = f.defs.get(s as usize)
            {
                b.cond = Some((d.start_line, d.end_line));
            }
        }
    }
    let globals = f
        .globals
        .iter()
        .map(|g| (g.scope, g.name.clone()))
        .collect();
    let stars = f
        .imports
        .iter()
        .enumerate()
        .filter(|(_, i)| matches!(i.kind, ImportKind::Star { .. }))
        .map(|(i, _)| i as u32)
        .collect();
    let (qualname, is_init, def_prefix) = match f.lang {
        Lang::Python => {
            let (q, init, _) = python_names(&f.path, init_dirs);
            (q.clone(), init, q)
        }
        Lang::Rust => {
            let q = rust_module(&f.path);
            (q.clone(), false, q)
        }
        Lang::Java | Lang::CSharp => {
            let stem = stem_path(&f.path)
                .rsplit('/')
                .next()
                .unwrap_or("")
                .to_string();
            match &f.package {
                Some(p) => (format!("{p}.{stem}"), false, p.clone()),
                None => (stem, false, String::new()),
            }
        }
        Lang::Go => {
            let dir = dir_of(&f.path);
            let pkg = if dir.is_empty() {
                f.package.clone().unwrap_or_default()
            } else {
                dir.to_string()
            };
            (stem_path(&f.path).to_string(), false, pkg)
        }
        Lang::C | Lang::Cpp | Lang::Ruby | Lang::Bash => {
            (stem_path(&f.path).to_string(), false, String::new())
        }
        _ => {
            let q = stem_path(&f.path).to_string();
            (q.clone(), false, q)
        }
    };
    let cjs = f.lang.is_js_family()
        && bindings
            .keys()
            .any(|(s, n)| s.is_none() && n.starts_with("exports"));
    let dotted = f.lang.is_js_family()
        && f.defs
            .iter()
            .any(|d| matches!(d.kind, DefKind::Func | DefKind::Class) && d.name.contains('.'));
    let field_adds = if f.lang.is_js_family() {
        super::fields::field_adds(f)
    } else {
        HashMap::new()
    };
    let field_inits = if f.lang.is_js_family() {
        super::field_inits::field_inits(f)
    } else {
        HashMap::new()
    };
    let field_handoffs = if f.lang.is_js_family() {
        super::handoffs::field_handoffs(f)
    } else {
        HashMap::new()
    };
    let first_params: HashSet<String> = if f.lang.is_js_family() {
        f.defs
            .iter()
            .filter(|d| d.parent.is_none() && d.kind == DefKind::Func)
            .filter_map(|d| d.params.first().cloned())
            .collect()
    } else {
        HashSet::new()
    };
    let proto_mixins = if f.lang.is_js_family() {
        super::mixins::proto_mixins(f)
    } else {
        HashMap::new()
    };
    let mut returns: HashMap<DefId, Vec<u32>> = HashMap::new();
    for (i, r) in f.returns.iter().enumerate() {
        if let Some(s) = r.scope {
            returns.entry(s).or_default().push(i as u32);
        }
    }
    FileIndex {
        returns,
        first_params,
        cjs,
        dotted,
        bindings,
        inst_attrs,
        field_adds,
        field_inits,
        field_handoffs,
        proto_mixins,
        elem_assigns,
        elem_adds,
        elem_keyed,
        outer_attrs,
        globals,
        stars,
        qualname,
        def_prefix,
        is_init,
    }
}

impl<'a> Resolver<'a> {
    /// Resolves everything: the whole pipeline of a build without a previous state.
    pub(crate) fn new(files: &'a Files<'a>) -> Resolver<'a> {
        let summaries: Vec<Summary> = (0..files.len())
            .into_par_iter()
            .map(|fi| summarize(files.get(fi)))
            .collect();
        let mut r = Resolver::index(files, &summaries);
        let bases: Vec<FileBases> = (0..files.len() as FileId)
            .into_par_iter()
            .map(|fi| r.file_bases(fi))
            .collect();
        r.set_bases(&bases);
        let imports: Vec<ImportTargets> = (0..files.len() as FileId)
            .into_par_iter()
            .map(|fi| r.file_imports(fi))
            .collect();
        r.set_imports(imports);
        r
    }

    /// Builds the global tables from the files' paths and heads and their summaries (one per
    /// file, in file order); indexes files on first use; resolves nothing yet.
    pub(crate) fn index(files: &'a Files<'a>, summaries: &[Summary]) -> Resolver<'a> {
        let init_dirs = init_dirs(files);
        let dirs = init_dirs.clone();
        let mut r = Resolver {
            files: TrackedFiles(files),
            idx: LazyPerFile::new(files.len(), move |i| build_index(files.get(i), &dirs)),
            py_modules: Table::new(tag::PY_MODULES),
            by_path: Table::new(tag::BY_PATH),
            by_dir: Table::new(tag::BY_DIR),
            rust_modules: Table::new(tag::RUST_MODULES),
            global_classes: Table::new(tag::GLOBAL_CLASSES),
            global_funcs: Table::new(tag::GLOBAL_FUNCS),
            packages: Table::new(tag::PACKAGES),
            def_ids: LazyPerFile::new(files.len(), move |i| def_ids(files.get(i))),
            subclasses: Table::new(tag::SUBCLASSES),
            callers: Table::new(tag::CALLERS),
            param_flow: false,
            import_targets: Vec::new(),
            ruby_top: Table::new(tag::RUBY_TOP),
            mro_memo: std::sync::RwLock::new(HashMap::new()),
            jsx_memo: std::sync::RwLock::new(HashMap::new()),
            parts_memo: std::sync::RwLock::new(HashMap::new()),
            py_packages: Table::new(tag::PY_PACKAGES),
            py_used: Table::new(tag::PY_USED),
            py_props: Table::new(tag::PY_PROPS),
            py_mod_attrs: Table::new(tag::PY_MOD_ATTRS),
            js_events: Table::new(tag::JS_EVENTS),
            decorators: Vec::with_capacity(files.len()),
            contrib: Vec::with_capacity(files.len()),
        };
        for (i, sm) in summaries.iter().enumerate().take(files.len()) {
            let mut out = Vec::new();
            let path = files.path(i);
            let lang = files.lang(i);
            let package = files.package(i);
            let i = i as FileId;
            out.push(r.by_path.dep_of(&path));
            r.by_path.map.insert(path, i);
            push_entry(&mut r.by_dir, dir_of(path), i, &mut out);
            match lang {
                Lang::Python => {
                    // The same file under its other names, for repos that import `src.pkg`.
                    let (q, _, aliases) = python_names(path, &init_dirs);
                    for name in std::iter::once(q).chain(aliases) {
                        // A package name exists while any module below it does.
                        let mut rest = name.as_str();
                        while let Some((head, _)) = rest.rsplit_once('.') {
                            out.push(head.dep(tag::PY_PACKAGES));
                            r.py_packages.map.entry(head.to_string()).or_insert(());
                            rest = head;
                        }
                        push_entry(&mut r.py_modules, name, i, &mut out);
                    }
                }
                Lang::Rust => push_entry(&mut r.rust_modules, rust_module(path), i, &mut out),
                Lang::Java | Lang::CSharp => {
                    if let Some(p) = package {
                        push_entry(&mut r.packages, p.to_string(), i, &mut out);
                    }
                }
                _ => {}
            }
            for e in &sm.entries {
                r.add_entry(i, lang, e, &mut out);
            }
            r.decorators.push(sm.decorators.clone());
            r.contrib.push(out);
        }
        r
    }

    /// Puts one entry of file `fi`'s [`Summary`] into its table, noting the key in `out`.
    /// A table built from facts is registered here and in [`summarize`].
    pub(super) fn add_entry(
        &mut self,
        fi: FileId,
        lang: Lang,
        e: &(u8, String, DefId),
        out: &mut Vec<Dep>,
    ) {
        let (t, k, d) = e;
        let rf = Ref { file: fi, def: *d };
        match *t {
            tag::GLOBAL_CLASSES => {
                push_entry(&mut self.global_classes, (family(lang), k.clone()), rf, out)
            }
            tag::RUBY_TOP => push_entry(&mut self.ruby_top, k.clone(), rf, out),
            tag::GLOBAL_FUNCS => push_entry(&mut self.global_funcs, k.clone(), rf, out),
            tag::PY_USED => set_entry(&mut self.py_used, k, out),
            tag::PY_PROPS => set_entry(&mut self.py_props, k, out),
            tag::PY_MOD_ATTRS => push_entry(&mut self.py_mod_attrs, k.clone(), rf, out),
            tag::JS_EVENTS => push_entry(&mut self.js_events, k.clone(), rf, out),
            _ => {}
        }
    }

    /// The table keys each file adds entries to, as stable hashes: what a change of the file
    /// can change for lookups made from other files.
    pub(crate) fn contributions(&self) -> Vec<Vec<u64>> {
        self.contrib.iter().map(|deps| self.stable(deps)).collect()
    }

    /// Dependencies in this run's numbering as hashes that mean the same in every run.
    pub(crate) fn stable(&self, deps: &[Dep]) -> Vec<u64> {
        let files = self.files.untracked();
        let mut out: Vec<u64> = deps
            .iter()
            .map(|d| match *d {
                Dep::File(f) => crate::deps::file_key(files.path(f as usize)),
                Dep::Body(f) => crate::deps::body_key(files.path(f as usize)),
                Dep::Key(h) => h,
                Dep::RefKey(t, r) => crate::deps::ref_key(t, files.path(r.file as usize), r.def),
                Dep::Stable(h) => h,
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The direct bases of every class of file `fi`, and what working them out read.
    pub(crate) fn file_bases(&self, fi: FileId) -> FileBases {
        tracked(|| {
            self.files
                .untracked()
                .get(fi as usize)
                .defs
                .iter()
                .enumerate()
                .filter(|(_, d)| {
                    (d.kind == DefKind::Class || (d.has_proto && !d.bases.is_empty()))
                        && d.merged_into.is_none()
                })
                .map(|(d, _)| {
                    reset_budget();
                    let c = Ref {
                        file: fi,
                        def: d as DefId,
                    };
                    (d as DefId, self.bases(c, 0))
                })
                .collect()
        })
    }

    /// Fills the subclass table from the bases of every file (in file order).
    pub(crate) fn set_bases(&mut self, all: &[FileBases]) {
        for (fi, (classes, _)) in all.iter().enumerate() {
            for (d, bases) in classes {
                let c = Ref {
                    file: fi as FileId,
                    def: *d,
                };
                for b in bases {
                    self.subclasses.map.entry(*b).or_default().push(c);
                }
            }
        }
    }

    /// The files each import of file `fi` brings in, and what working them out read.
    pub(crate) fn file_imports(&self, fi: FileId) -> ImportTargets {
        tracked(|| {
            (0..self.files.untracked().get(fi as usize).imports.len())
                .map(|ii| {
                    reset_budget();
                    self.import_files_uncached(fi, ii as u32, 0)
                })
                .collect()
        })
    }

    /// Import targets do not change during resolution: they are worked out once.
    pub(crate) fn set_imports(&mut self, all: Vec<ImportTargets>) {
        self.import_targets = all.into_iter().map(Some).collect();
    }

    /// Call `ci` of file `f`: a read of the file's calls, not of what other files see of it.
    pub(super) fn call_site(&self, f: FileId, ci: u32) -> Option<&CallSite> {
        record(Dep::Body(f));
        self.files
            .untracked()
            .get(f as usize)
            .calls
            .get(ci as usize)
    }

    pub(super) fn def(&self, r: Ref) -> &crate::extract::Def {
        &self.files[r.file as usize].defs[r.def as usize]
    }

    /// The `return` and `yield` statements of function `r`, in source order.
    pub(super) fn returns_of(&self, r: Ref) -> impl Iterator<Item = &crate::extract::ReturnFact> {
        let all = &self.files[r.file as usize].returns;
        let own = self.idx[r.file as usize].returns.get(&r.def);
        own.into_iter()
            .flatten()
            .filter_map(|&i| all.get(i as usize))
    }

    pub(super) fn lang(&self, f: FileId) -> Lang {
        record(Dep::File(f));
        self.files.untracked().lang(f as usize)
    }

    pub(crate) fn module_id(&self, f: FileId) -> String {
        record(Dep::File(f));
        self.files.untracked().path(f as usize).to_string()
    }

    pub(super) fn node_id(&self, r: Ref) -> String {
        self.def_ids[r.file as usize][r.def as usize].clone()
    }
}
