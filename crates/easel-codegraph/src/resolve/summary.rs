//! A file's interface as other files see it (its summary), and whether an edit changed it:
//! what decides which other files must be resolved again.

use super::*;

/// What one file adds to the global tables built from its definitions and calls: entries
/// (table tag, key, definition or [`NO_DEF`]) and the calls that decorate a definition. Kept
/// in the resolution state, so that a re-init builds the tables without decoding the facts of
/// unchanged files. Made by [`summarize`], put into the tables by [`Resolver::add_entry`].
#[derive(serde::Serialize, serde::Deserialize, Default, Clone, Debug, PartialEq)]
pub(crate) struct Summary {
    pub(super) entries: Vec<(u8, String, DefId)>,
    pub(super) decorators: Vec<u32>,
}

/// One file's [`Summary`], from its facts.
pub(crate) fn summarize(f: &FileFacts) -> Summary {
    let mut entries = Vec::new();
    for (d, def) in f.defs.iter().enumerate() {
        let d = d as DefId;
        match def.kind {
            DefKind::Class => entries.push((tag::GLOBAL_CLASSES, def.name.clone(), d)),
            DefKind::Func if f.lang == Lang::Ruby && def.parent.is_none() => {
                entries.push((tag::RUBY_TOP, def.name.clone(), d));
            }
            DefKind::Func
                if matches!(f.lang, Lang::C | Lang::Cpp)
                    && def.parent.is_none()
                    && def.receiver.is_none() =>
            {
                entries.push((tag::GLOBAL_FUNCS, def.name.clone(), d));
            }
            _ => {}
        }
    }
    if f.lang == Lang::Python {
        let mut used: Vec<&str> = py_used_names(f).into_iter().collect();
        used.sort_unstable();
        entries.extend(
            used.into_iter()
                .map(|n| (tag::PY_USED, n.to_string(), NO_DEF)),
        );
        entries.extend(
            f.defs
                .iter()
                .filter(|d| prop_kind(d) != 0)
                .map(|d| (tag::PY_PROPS, d.name.clone(), NO_DEF)),
        );
        // `mod.attr = v` where `mod` is a name an import binds (in any scope): the entry's
        // "definition" is the assignment's index.
        let imported: HashSet<&str> = f
            .imports
            .iter()
            .filter_map(|imp| match &imp.kind {
                ImportKind::Module { alias: Some(a), .. } => Some(a.as_str()),
                ImportKind::Module { path, alias: None } => path.split('.').next(),
                ImportKind::From { name, alias, .. } => Some(alias.as_deref().unwrap_or(name)),
                ImportKind::Star { .. } => None,
            })
            .collect();
        for (i, a) in f.assigns.iter().enumerate() {
            if let [obj, attr] = a.target.as_slice()
                && !attr.starts_with('[')
                && imported.contains(obj.as_str())
            {
                entries.push((tag::PY_MOD_ATTRS, attr.clone(), i as DefId));
            }
        }
    }
    if f.lang.is_js_family() {
        entries.extend(
            f.defs
                .iter()
                .filter(|d| d.accessor != 0)
                .map(|d| (tag::PY_PROPS, d.name.clone(), NO_DEF)),
        );
        entries.extend(super::listeners::event_entries(f));
    }
    let decorators = f
        .calls
        .iter()
        .enumerate()
        .filter(|(_, c)| c.decorates.is_some())
        .map(|(ci, _)| ci as u32)
        .collect();
    Summary {
        entries,
        decorators,
    }
}

/// The names a Python file writes in its callees and arguments.
pub(super) fn py_used_names(f: &FileFacts) -> HashSet<&str> {
    let mut out = HashSet::new();
    // An attribute access names no class that it would instantiate.
    for c in f.calls.iter().filter(|c| c.prop == 0) {
        let args = c.args.iter().flatten();
        let kwargs = c.kwargs.iter().filter_map(|(_, v)| v.as_ref());
        for segs in std::iter::once(&c.callee).chain(args).chain(kwargs) {
            for s in segs {
                if let Seg::Name(n) = s {
                    out.insert(n.as_str());
                }
            }
        }
    }
    out
}

/// Whether two versions of a file look the same from other files: the same facts but the
/// call sites (the calls its index is built from included), the line count, the byte offsets
/// of definitions, and the line numbers themselves as long as they keep their order.
///
/// Resolving another file reads a file's calls only through [`Resolver::call_site`] (a
/// [`Dep::Body`]), so a result that did not read them holds for both versions. Of positions,
/// resolution compares a file's line numbers with each other (a binding before a read, a
/// read inside a block) and never with another file's, nor puts them into its results; so a
/// line added inside a function, which moves everything below it, changes nothing another
/// file's results can see. Whatever else `FileFacts` holds counts.
pub(crate) fn same_interface(a: &FileFacts, b: &FileFacts) -> bool {
    fn outside(f: &FileFacts) -> Option<Vec<u8>> {
        let mut v = f.clone_without_calls();
        v.calls = f
            .calls
            .iter()
            .filter(|c| index_reads_call(f, c))
            .map(|c| CallSite {
                // An index into all the calls, which a call added before it moves; only
                // resolving the call itself reads it, and only this file does that.
                via: c.via.map(|_| 0),
                ..c.clone()
            })
            .collect();
        v.lines = 0;
        for d in &mut v.defs {
            (d.start_byte, d.end_byte, d.scope_start, d.scope_end) = (0, 0, 0, 0);
        }
        renumber_lines(&mut v);
        postcard::to_stdvec(&v).ok()
    }
    match (outside(a), outside(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// Replaces every line number in `f` by its rank among them (from 1; 0 stays 0), which keeps
/// their order and equalities.
pub(super) fn renumber_lines(f: &mut FileFacts) {
    fn each(f: &mut FileFacts, mut g: impl FnMut(&mut u32)) {
        for d in &mut f.defs {
            g(&mut d.start_line);
            g(&mut d.end_line);
        }
        f.calls.iter_mut().for_each(|c| g(&mut c.line));
        f.imports.iter_mut().for_each(|i| g(&mut i.line));
        f.assigns.iter_mut().for_each(|a| g(&mut a.line));
        f.binds.iter_mut().for_each(|b| g(&mut b.line));
        f.globals.iter_mut().for_each(|b| g(&mut b.line));
        f.literals.iter_mut().for_each(|l| g(&mut l.line));
        for (a, b) in &mut f.cond_blocks {
            g(a);
            g(b);
        }
    }
    let mut seen = Vec::new();
    each(f, |l| seen.push(*l));
    seen.retain(|&l| l != 0);
    seen.sort_unstable();
    seen.dedup();
    each(f, |l| {
        if let Ok(i) = seen.binary_search(l) {
            *l = i as u32 + 1;
        }
    });
}
