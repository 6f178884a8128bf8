//! Incremental resolution: when a few files change, only the work whose inputs changed is
//! done again, and the graph is the one a full resolution would make.
//!
//! Resolution is split into units per file, each run in a frame that notes what it read
//! ([`crate::deps`]): the bases of the file's classes, the targets of its imports, the first
//! pass over its calls, its rounds (the first pass again with parameters taking the arguments
//! of the call sites found so far, `resolve::PARAM_ROUNDS`), and the second pass (its edges).
//! The state of the last build keeps
//! every unit's result with its reads as stable hashes. Next time, the *dirty keys* are those
//! a change touches: the changed, added and deleted files themselves, every table key such a
//! file adds entries to (before or after the change), and "all paths" when the set of files
//! changed. A unit is redone when its file changed or when it read a dirty key; otherwise its
//! kept result is reused.
//!
//! Two tables are derived from the results of units rather than from facts: subclasses (from
//! bases) and the call sites reaching each function (from the first pass, then from each
//! round). When redone units
//! change them, the keys they changed are dirty too, before the units that read them are
//! checked. Units run in the same order as in a full build, so that derived tables list their
//! entries in the same order.
//!
//! # Reads, dirty keys and the interface cutoff, in detail
//!
//! - An incremental build gives the graph of a full build, exactly (a property test edits, adds and
//!   deletes files and compares). Resolution runs in units per file (bases, imports, first pass,
//!   second pass), each in a frame that records every file it reads and every global-table key it
//!   probes, found or not (`files::TrackedFiles`, `deps::LazyPerFile`, `deps::Table`); memoized
//!   values carry their reads to whoever reuses them. `.codecanvas/cache/resolve.bin` keeps each
//!   unit's result and reads, and how many nodes, edges and calls each file has in the kept graph (`graph.bin`), where its pieces
//!   are taken from (moved, not copied) when the file's pass is reused: the graph is kept once, and
//!   the state is used only with the `graph.bin` of its own build (its inputs digest), so a crash
//!   between writing the two makes the next build resolve everything again. An
//!   edit makes dirty: the changed files, every key they add entries to before or after, "all paths"
//!   when files come or go, and the keys of the two derived tables (subclasses, callers of a
//!   function) whose entries redone units changed. Units whose file and reads are clean are reused.
//!   Adding or removing an `__init__.py` renames modules: everything is resolved again.
//!   *Interface cutoff:* a changed file whose facts look the same from other files
//!   (`resolve::same_interface`: equal but for its call sites, its line count, its definitions'
//!   byte offsets, and its line numbers, which are compared by rank so that lines moved in order
//!   count as unchanged) makes only its own units dirty, plus the units that read its calls
//!   (`Dep::Body`, recorded by `Resolver::call_site` when one file's resolution reads another's
//!   call sites) and the keys its summary changed (when only the names its calls use changed,
//!   `PY_USED`, just the names added or dropped). This holds because resolution compares a
//!   file's line numbers only with each other and never keeps them in a result; the incremental
//!   property test inserts lines inside statements to check it. The calls other files may see
//!   (those the index is built from) are compared without `via`, their index into the file's
//!   calls, which a call added above them moves. New resolution code must read files and tables
//!   through these wrappers (or record what it reads), or incremental builds go stale; code that
//!   reads another file's lines or calls must record that read, or the cutoff goes stale.
//!
//! - A re-init decodes the facts of the changed files and of the files the redone units read, no
//!   others. The global tables are built from the paths and heads of all files and from one
//!   `resolve::Summary` per file (its entries `(table tag, key, definition)` in the tables built
//!   from definitions and calls, and its decorator calls), kept in `resolve.bin`: an unchanged
//!   file's summary is taken from there, a changed one's made from its facts (`summarize`). Every
//!   entry is put in by `Resolver::add_entry`, which also notes the key as the file's contribution,
//!   in file order, so the tables are those of a full build. Per-file indexes and definition ids
//!   are built on first use (`deps::LazyPerFile`). A new global table built from facts is
//!   registered in four places: its tag in `deps::tag`, its field and `Table::new` in
//!   `Resolver::index`, the entries a file adds in `resolve::summarize`, one arm of
//!   `Resolver::add_entry` (`push_entry` for a table of lists, `set_entry` for a set of names);
//!   and `STATE_FORMAT` in `cache.rs` is bumped, so that summaries kept without its entries are not
//!   used. As a safety net, every cache format string also carries a fingerprint of
//!   `src/*.rs` and `queries/*.scm` that `build.rs` computes (`EASEL_CODE_RULES`): a binary built
//!   from other extraction or resolution code never trusts facts, summaries or unit results that
//!   older code wrote; it starts from scratch once. A table derived from paths alone is filled in the loop of `Resolver::index` with
//!   `push_entry`; one derived from units' results (like `subclasses`, `callers`) needs its own
//!   dirty keys in `incremental.rs`.

use crate::deps::{Dep, FileId, Ref, body_key, file_key, ref_key, tag};
use crate::extract::FileFacts;
use crate::files::Files;
use crate::graph_json::Layout;
use crate::kept_graph::{self, KeptGraph, Piece, Pieces};
use crate::kept_reads::{Got, Reads, Table, renumber};
use crate::model::Graph;
use crate::resolve::{
    FileBases, FirstPass, ImportTargets, PARAM_ROUNDS, Pass1, Redo, Resolver, Round, Summary,
    summarize, with_round,
};
use foldhash::{HashMap, HashSet};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// What the last build resolved, per file, with what each result read. The graph itself is
/// kept apart (`graph.bin`, under the digest `graph`): each file's pieces of it are found by
/// their counts, so the graph is written once, not twice.
#[derive(Serialize, Deserialize, Default)]
pub(crate) struct State {
    /// The inputs digest of the kept graph this state goes with.
    pub(crate) graph: [u8; 32],
    paths: Vec<String>,
    keys: Vec<[u8; 32]>,
    /// Python package folders: they name every module, so a change of them redoes everything.
    init_dirs: Vec<String>,
    /// Every hash a unit of `files` read; their reads are indices into it.
    table: Table,
    files: Vec<FileState>,
}

impl State {
    /// Whether every unit's reads are in the table (a damaged state is not used).
    pub(crate) fn fits(&self) -> bool {
        let n = self.table.hashes.len();
        self.files.iter().all(|f| {
            [&f.bases_deps, &f.imports_deps, &f.pass1_deps, &f.pass2_deps]
                .into_iter()
                .chain(&f.rounds_deps)
                .all(|r| r.fits(n))
        })
    }
}

#[derive(Serialize, Deserialize, Default, Clone)]
struct FileState {
    contrib: Vec<u64>,
    /// What the file adds to the global tables: they are built from these, so that the facts
    /// of unchanged files need not be decoded.
    summary: Summary,
    bases: Vec<(u32, Vec<Ref>)>,
    bases_deps: Reads,
    imports: Vec<Vec<FileId>>,
    imports_deps: Reads,
    pass1: Vec<Pass1>,
    /// What may change each call the first pass left open, in order ([`Redo`]).
    pass1_redo: Vec<Redo>,
    pass1_deps: Reads,
    /// Each round of the first pass with parameter flow (`PARAM_ROUNDS`): the calls whose
    /// result differs from the first pass ([`Round`]), and what it read.
    rounds: Vec<Round>,
    rounds_deps: Vec<Reads>,
    pass2_deps: Reads,
    /// How many nodes, `CONTAINS` edges, other edges, unresolved and builtin calls the file
    /// has in the graph: where its pieces are in the kept graph.
    counts: [u32; 5],
}

/// How much was reused, for logs and tests.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reuse {
    pub(crate) files: usize,
    pub(crate) bases_redone: usize,
    pub(crate) imports_redone: usize,
    pub(crate) pass1_redone: usize,
    /// Units of every round of parameter flow redone, together.
    pub(crate) rounds_redone: usize,
    pub(crate) pass2_redone: usize,
}

/// What the previous state says about the files of this build.
struct Plan<'s> {
    old: &'s State,
    /// New file → old file with the same path and content.
    same: Vec<Option<usize>>,
    /// Old file → new file, for unchanged files only.
    remap: Vec<Option<FileId>>,
    dirty: HashSet<u64>,
    /// Which hashes of the old state's table are in `dirty`, so that checking a kept unit's
    /// reads is one lookup by index each.
    dirty_reads: Vec<bool>,
    /// Old files that changed or went away.
    gone_or_changed: Vec<usize>,
    /// New files whose calls alone changed ([`crate::resolve::same_interface`]): results of
    /// other files that did not read their calls still hold, and refer to them as before.
    body_only: Vec<bool>,
    /// Whether every file kept its number (`remap` is the identity where it is defined), so
    /// that a kept result that names only remapped files holds as it is, and is moved out of
    /// the old state rather than copied call by call.
    same_numbers: bool,
    /// Whether every old file has a new number: then any kept result names only those.
    all_remapped: bool,
}

/// What the last build knew of the files that changed since: their summaries (those not
/// reused) and, from the fact cache, their facts.
struct Before<'b> {
    summaries: &'b [Option<Summary>],
    facts: &'b (dyn Fn(&[u8; 32]) -> Option<FileFacts> + Sync),
}

impl<'s> Plan<'s> {
    /// Whether new file `fi` shows other files what its old version did: unchanged, or
    /// changed in its calls alone.
    fn same_outside(&self, fi: usize) -> bool {
        self.same[fi].is_some() || self.body_only[fi]
    }

    fn ref_ok(&self, r: Ref) -> Option<Ref> {
        Some(Ref {
            file: (*self.remap.get(r.file as usize)?)?,
            def: r.def,
        })
    }

    /// Whether a kept result that names files by `refs` holds as it is: the numbering did not
    /// change and every file it names is still there.
    fn as_is(&self, mut refs: impl Iterator<Item = Ref>) -> bool {
        self.same_numbers
            && (self.all_remapped
                || refs.all(|r| self.remap.get(r.file as usize).is_some_and(Option::is_some)))
    }

    fn clean(&self, deps: &Reads) -> bool {
        !deps
            .indices()
            .any(|i| self.dirty_reads.get(i as usize).is_none_or(|d| *d))
    }

    /// Makes these keys dirty.
    fn add_dirty(&mut self, keys: impl IntoIterator<Item = u64>) {
        let before = self.dirty.len();
        self.dirty.extend(keys);
        if self.dirty.len() > before {
            self.dirty_reads = dirty_reads(&self.old.table.hashes, &self.dirty);
        }
    }

    /// A kept result of new file `fi`, when the file and everything the result read are as
    /// they were.
    fn reusable(&self, fi: usize, deps: impl Fn(&FileState) -> &Reads) -> Option<&'s FileState> {
        let o = self.same[fi]?;
        let st: &'s FileState = &self.old.files[o];
        self.clean(deps(st)).then_some(st)
    }
}

/// Resolves `facts` (with content `keys`), reusing `old` (the last state and the graph kept
/// with it) where its results still hold, and returns the graph and the state for the next
/// build, whose graph digest is `digest`.
pub(crate) fn resolve<'a>(
    facts: &'a Files<'a>,
    keys: &[[u8; 32]],
    digest: [u8; 32],
    old: Option<(State, Graph)>,
    old_facts: &(dyn Fn(&[u8; 32]) -> Option<FileFacts> + Sync),
) -> (Graph, State, Reuse, Layout, Resolver<'a>) {
    let t = std::time::Instant::now();
    // The kept graph goes with the state only when the state's counts add up to it.
    let (mut old, kept) = match old.and_then(|(s, g)| {
        let counts: Vec<[u32; 5]> = s.files.iter().map(|f| f.counts).collect();
        let k = KeptGraph::new(&counts, g)?;
        Some((s, k))
    }) {
        Some((s, k)) => (Some(s), Some(k)),
        None => (None, None),
    };
    let n = facts.len();
    let mut init: Vec<String> = crate::resolve::init_dirs(facts)
        .into_iter()
        .map(str::to_string)
        .collect();
    init.sort();
    // The summaries of unchanged files are the kept ones (moved out of the old state): only
    // changed and new files' facts are decoded for the tables.
    let mut kept_summaries: Vec<Option<Summary>> = Vec::new();
    let mut old_ids: HashMap<&str, usize> = HashMap::default();
    let mut old_pass1: Vec<Vec<Pass1>> = Vec::new();
    let mut old_redo: Vec<Vec<Redo>> = Vec::new();
    let mut old_rounds: Vec<Vec<Round>> = Vec::new();
    if let Some(o) = &mut old
        && o.init_dirs == init
        && o.files.len() == o.paths.len()
    {
        kept_summaries = o
            .files
            .iter_mut()
            .map(|f| Some(std::mem::take(&mut f.summary)))
            .collect();
        // Owned apart from the state, so that results kept as they are can be moved out.
        for f in &mut o.files {
            old_pass1.push(std::mem::take(&mut f.pass1));
            old_redo.push(std::mem::take(&mut f.pass1_redo));
            old_rounds.push(std::mem::take(&mut f.rounds));
        }
    }
    if let Some(o) = &old
        && !kept_summaries.is_empty()
    {
        old_ids = o
            .paths
            .iter()
            .enumerate()
            .map(|(i, p)| (p.as_str(), i))
            .collect();
    }
    let from_old: Vec<Option<usize>> = (0..n)
        .map(|fi| {
            let o = *old_ids.get(facts.path(fi))?;
            let old = old.as_ref()?;
            (old.keys.get(o) == keys.get(fi)).then_some(o)
        })
        .collect();
    let mut summaries: Vec<Option<Summary>> = from_old
        .iter()
        .map(|o| o.and_then(|o| kept_summaries.get_mut(o).and_then(Option::take)))
        .collect();
    let missing: Vec<usize> = (0..n).filter(|&fi| summaries[fi].is_none()).collect();
    let fresh: Vec<(usize, Summary)> = missing
        .into_par_iter()
        .map(|fi| (fi, summarize(facts.get(fi))))
        .collect();
    for (fi, s) in fresh {
        summaries[fi] = Some(s);
    }
    let summaries: Vec<Summary> = summaries
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect();
    let old = old.as_ref();
    let mut r = Resolver::index(facts, &summaries);
    let contrib = r.contributions();
    let mut plan = old
        .filter(|o| o.init_dirs == init && o.files.len() == o.paths.len())
        .map(|o| {
            let before = Before {
                summaries: &kept_summaries,
                facts: old_facts,
            };
            plan(o, facts, keys, &contrib, &summaries, &before)
        });
    tracing::debug!(ms = t.elapsed().as_millis(), "indexed");
    let mut reuse = Reuse {
        files: n,
        ..Reuse::default()
    };

    // Bases, then the subclass table.
    let bases: Vec<(FileBases, Got, bool)> = (0..n)
        .into_par_iter()
        .map(|fi| {
            if let Some(p) = &plan
                && let Some(st) = p.reusable(fi, |s| &s.bases_deps)
                && let Some(b) = st
                    .bases
                    .iter()
                    .map(|(d, bs)| {
                        let bs: Option<Vec<Ref>> = bs.iter().map(|b| p.ref_ok(*b)).collect();
                        Some((*d, bs?))
                    })
                    .collect::<Option<Vec<_>>>()
            {
                return ((b, Vec::new()), Got::Kept(&st.bases_deps), false);
            }
            let (b, deps) = r.file_bases(fi as FileId);
            let stable = r.stable(&deps);
            ((b, deps), Got::New(stable), true)
        })
        .collect();
    if let Some(p) = &mut plan {
        // Subclass lists change where a redone file's bases changed: those bases' keys.
        let new_paths = p.new_paths(facts);
        let mut more = Vec::new();
        for (fi, ((b, _), _, redone)) in bases.iter().enumerate() {
            if !redone {
                continue;
            }
            let new = bases_stable(&new_paths, b);
            let old = p
                .same_path(fi, facts)
                .map(|o| bases_stable(&p.old.paths, &p.old.files[o].bases))
                .unwrap_or_default();
            if !p.same_outside(fi) || old != new {
                more.extend(old.into_iter().chain(new).flat_map(|(_, ks)| ks));
            }
        }
        for &o in &p.gone_or_changed {
            if p.remap[o].is_some() {
                continue;
            }
            let old = bases_stable(&p.old.paths, &p.old.files[o].bases);
            more.extend(old.into_iter().flat_map(|(_, ks)| ks));
        }
        p.add_dirty(more);
    }
    reuse.bases_redone = bases.iter().filter(|b| b.2).count();
    let (file_bases, bases_deps): (Vec<FileBases>, Vec<Got>) =
        bases.into_iter().map(|(b, d, _)| (b, d)).unzip();
    r.set_bases(&file_bases);

    // Imports.
    let imports: Vec<(ImportTargets, Got, bool)> = (0..n)
        .into_par_iter()
        .map(|fi| {
            if let Some(p) = &plan
                && let Some(st) = p.reusable(fi, |s| &s.imports_deps)
                && let Some(t) = st
                    .imports
                    .iter()
                    .map(|ts| {
                        ts.iter()
                            .map(|&f| p.remap.get(f as usize).copied().flatten())
                            .collect::<Option<Vec<FileId>>>()
                    })
                    .collect::<Option<Vec<_>>>()
            {
                let table = &p.old.table.hashes;
                let deps = (st.imports_deps.indices())
                    .filter_map(|i| table.get(i as usize).map(|&h| Dep::Stable(h)))
                    .collect();
                return ((t, deps), Got::Kept(&st.imports_deps), false);
            }
            let (t, deps) = r.file_imports(fi as FileId);
            let stable = r.stable(&deps);
            ((t, deps), Got::New(stable), true)
        })
        .collect();
    reuse.imports_redone = imports.iter().filter(|i| i.2).count();
    let mut imports_deps = Vec::with_capacity(n);
    let mut targets = Vec::with_capacity(n);
    for (t, d, _) in imports {
        imports_deps.push(d);
        targets.push(t);
    }
    let import_lists: Vec<Vec<Vec<FileId>>> = targets.iter().map(|(t, _)| t.clone()).collect();
    r.set_imports(targets);
    tracing::debug!(ms = t.elapsed().as_millis(), "bases and imports");

    // First pass, then the callers table. A kept result that holds as it is comes back as
    // `None` and is moved out of the old state once the callers table's dirty keys are known.
    let first: Vec<(Option<FirstPass>, Got, bool)> = (0..n)
        .into_par_iter()
        .map(|fi| {
            if let Some(p) = &plan
                && let Some(st) = p.reusable(fi, |s| &s.pass1_deps)
                && let Some(o) = p.same[fi]
            {
                let (Some(pass1), Some(redo)) = (old_pass1.get(o), old_redo.get(o)) else {
                    let (v, deps) = r.file_pass1(fi as FileId);
                    return (Some(v), Got::New(r.stable(&deps)), true);
                };
                let refs = pass1
                    .iter()
                    .flat_map(|c| c.targets().unwrap_or(&[]).iter().map(|t| t.0))
                    .chain(
                        redo.iter()
                            .flat_map(|x| match x {
                                Redo::Always => &[][..],
                                Redo::One(f) => std::slice::from_ref(f),
                                Redo::Many(fs) => fs,
                            })
                            .copied(),
                    );
                if p.as_is(refs) {
                    return (None, Got::Kept(&st.pass1_deps), false);
                }
                if let Some(v) = pass1
                    .iter()
                    .map(|c| remap_pass1(p, c))
                    .collect::<Option<Vec<_>>>()
                    && let Some(redo) = redo
                        .iter()
                        .map(|x| remap_redo(p, x))
                        .collect::<Option<Vec<_>>>()
                {
                    return (Some((v, redo)), Got::Kept(&st.pass1_deps), false);
                }
            }
            let (v, deps) = r.file_pass1(fi as FileId);
            (Some(v), Got::New(r.stable(&deps)), true)
        })
        .collect();
    if let Some(p) = &mut plan {
        let redone = first
            .iter()
            .enumerate()
            .filter(|f| f.1.2)
            .filter_map(|(fi, f)| Some((fi, &f.0.as_ref()?.0[..])));
        let more = p.callers_changed(facts, redone, |o| {
            Cow::Borrowed(old_pass1.get(o).map_or(&[][..], |v| &v[..]))
        });
        p.add_dirty(more);
    }
    reuse.pass1_redone = first.iter().filter(|f| f.2).count();
    let pass1_redone: Vec<bool> = first.iter().map(|f| f.2).collect();
    // Old files whose first pass was moved over (to the same number).
    let mut moved = vec![false; old_pass1.len()];
    let mut pass1_deps = Vec::with_capacity(n);
    let mut first_all = Vec::with_capacity(n);
    let mut redo = Vec::with_capacity(n);
    for (fi, (v, d, _)) in first.into_iter().enumerate() {
        let (v, x) = v.unwrap_or_else(|| {
            moved[fi] = true;
            (
                std::mem::take(&mut old_pass1[fi]),
                std::mem::take(&mut old_redo[fi]),
            )
        });
        first_all.push(v);
        redo.push(x);
        pass1_deps.push(d);
    }
    let first = first_all;
    r.set_pass1(&first);
    tracing::debug!(ms = t.elapsed().as_millis(), "first pass");

    // Rounds of the first pass with parameters taking arguments, as in a full build
    // (`Resolver::into_graph`), each unit reused when its file and reads are as they were;
    // the callers table of each round is dirty where the results it is made from changed.
    // A file's round keeps only the calls it changed ([`Round`]), most files' none.
    let mut rounds: Vec<Vec<Round>> = vec![Vec::new(); n];
    let mut rounds_deps: Vec<Vec<Got>> = (0..n).map(|_| Vec::new()).collect();
    let mut cur: Vec<Round> = vec![Vec::new(); n];
    for k in 0..PARAM_ROUNDS {
        let round: Vec<(Option<Round>, Got, bool)> = (0..n)
            .into_par_iter()
            .map(|fi| {
                if let Some(p) = &plan
                    && !pass1_redone[fi]
                    && let Some(o) = p.same[fi]
                    && let Some(d) = p.old.files[o].rounds_deps.get(k)
                    && p.clean(d)
                {
                    let was: &[(u32, Pass1)] = old_rounds
                        .get(o)
                        .and_then(|r| r.get(k))
                        .map_or(&[], |v| &v[..]);
                    let refs = was
                        .iter()
                        .flat_map(|(_, c)| c.targets().unwrap_or(&[]).iter().map(|t| t.0));
                    if p.as_is(refs) {
                        return (None, Got::Kept(d), false);
                    }
                    if let Some(v) = was
                        .iter()
                        .map(|(ci, c)| Some((*ci, remap_pass1(p, c)?)))
                        .collect::<Option<Round>>()
                    {
                        return (Some(v), Got::Kept(d), false);
                    }
                }
                let (v, deps) = r.file_round(fi as FileId, &first[fi], &redo[fi]);
                (Some(v), Got::New(r.stable(&deps)), true)
            })
            .collect();
        if let Some(p) = &mut plan {
            let redone = round
                .iter()
                .enumerate()
                .filter(|r| r.1.2)
                .map(|(fi, r)| (fi, with_round(&first[fi], r.0.as_deref().unwrap_or(&[]))));
            let old_view = |o: usize| -> Cow<'_, [Pass1]> {
                let base: &[Pass1] = if moved.get(o).copied().unwrap_or(false) {
                    first.get(o).map_or(&[], |v| &v[..])
                } else {
                    old_pass1.get(o).map_or(&[], |v| &v[..])
                };
                match old_rounds.get(o).and_then(|r| r.get(k)) {
                    Some(v) if !v.is_empty() => Cow::Owned(with_round(base, v)),
                    _ => Cow::Borrowed(base),
                }
            };
            let redone: Vec<(usize, Vec<Pass1>)> = redone.collect();
            let more =
                p.callers_changed(facts, redone.iter().map(|(fi, v)| (*fi, &v[..])), old_view);
            p.add_dirty(more);
        }
        reuse.rounds_redone += round.iter().filter(|r| r.2).count();
        let mut next = Vec::with_capacity(n);
        for (fi, (v, d, _)) in round.into_iter().enumerate() {
            let v = v.unwrap_or_else(|| {
                old_rounds
                    .get_mut(fi)
                    .and_then(|r| r.get_mut(k))
                    .map(std::mem::take)
                    .unwrap_or_default()
            });
            rounds[fi].push(v.clone());
            rounds_deps[fi].push(d);
            next.push(v);
        }
        if next == cur {
            break;
        }
        r.set_round(&first, &cur, &next);
        cur = next;
    }
    tracing::debug!(ms = t.elapsed().as_millis(), "rounds");

    // Second pass.
    let mut second: Vec<(Option<crate::resolve::FileEdges>, Got, bool)> = (0..n)
        .into_par_iter()
        .map(|fi| {
            if let Some(p) = &plan
                && !pass1_redone[fi]
                && let Some(st) = p.reusable(fi, |s| &s.pass2_deps)
            {
                // Kept: the pieces of the old graph are moved over below.
                return (None, Got::Kept(&st.pass2_deps), false);
            }
            let (e, deps) = r.file_pass2(fi as FileId, &first[fi], &redo[fi]);
            (Some(e), Got::New(r.stable(&deps)), true)
        })
        .collect();
    reuse.pass2_redone = second.iter().filter(|s| s.2).count();
    tracing::debug!(ms = t.elapsed().as_millis(), ?reuse, "second pass");

    // The graph, in the order of a full build, and the state for next time: the kept graph
    // with the pieces of the files redone replaced.
    let mut files = Vec::with_capacity(n);
    let mut pieces = Pieces::default();
    let mut layout = Layout {
        old_digest: old.map(|o| o.graph),
        digest,
        counts: Vec::with_capacity(n),
        same_nodes: Vec::with_capacity(n),
        same_edges: Vec::with_capacity(n),
    };
    // Every unit's reads, four per file and one per round, renumbered into the next state's
    // table.
    let mut units = Vec::with_capacity(4 * n);
    for ((((b, i), p1), rs), (_, p2, _)) in bases_deps
        .into_iter()
        .zip(imports_deps)
        .zip(pass1_deps)
        .zip(&mut rounds_deps)
        .zip(&mut second)
    {
        units.extend([b, i, p1]);
        units.append(rs);
        units.push(std::mem::replace(p2, Got::New(Vec::new())));
    }
    let none = Table::default();
    let (table, reads) = renumber(old.map_or(&none, |o| &o.table), units);
    let mut reads = reads.into_iter();
    let mut next_reads = || reads.next().unwrap_or_default();
    let mut import_lists = import_lists.into_iter();
    let mut first = first.into_iter();
    let mut redo = redo.into_iter();
    let mut file_bases = file_bases.into_iter();
    let mut summaries = summaries.into_iter();
    for (fi, ((edges, _, _), contrib)) in second.into_iter().zip(contrib).enumerate() {
        let old_fi = plan.as_ref().and_then(|p| p.same[fi]);
        let was = |o: usize| kept.as_ref().map_or([0; 5], |k| k.counts(o));
        let mut counts = [0u32; 5];
        match old_fi {
            Some(o) => {
                counts[..2].copy_from_slice(&was(o)[..2]);
                pieces.nodes.push(Piece::Old(o));
                pieces.contains.push(Piece::Old(o));
            }
            None => {
                let (nodes, contains) = r.file_nodes(fi as FileId);
                counts[0] = nodes.len() as u32;
                counts[1] = contains.len() as u32;
                pieces.nodes.push(Piece::New(nodes));
                pieces.contains.push(Piece::New(contains));
            }
        }
        layout.same_nodes.push(old_fi);
        layout.same_edges.push(old_fi.filter(|_| edges.is_none()));
        match (edges, old_fi) {
            (Some((e, u, b)), _) => {
                counts[2] = e.len() as u32;
                counts[3] = u.len() as u32;
                counts[4] = b.len() as u32;
                pieces.edges.push(Piece::New(e));
                pieces.unresolved.push(Piece::New(u));
                pieces.builtin_calls.push(Piece::New(b));
            }
            // Kept: the second pass is reused only for a file the last build had.
            (None, Some(o)) => {
                counts[2..].copy_from_slice(&was(o)[2..]);
                pieces.edges.push(Piece::Old(o));
                pieces.unresolved.push(Piece::Old(o));
                pieces.builtin_calls.push(Piece::Old(o));
            }
            (None, None) => {}
        }
        layout.counts.push(counts);
        files.push(FileState {
            contrib,
            summary: summaries.next().unwrap_or_default(),
            bases: file_bases.next().map(|b| b.0).unwrap_or_default(),
            bases_deps: next_reads(),
            imports: import_lists.next().unwrap_or_default(),
            imports_deps: next_reads(),
            pass1: first.next().unwrap_or_default(),
            pass1_redo: redo.next().unwrap_or_default(),
            pass1_deps: next_reads(),
            rounds_deps: rounds[fi].iter().map(|_| next_reads()).collect(),
            rounds: std::mem::take(&mut rounds[fi]),
            pass2_deps: next_reads(),
            counts,
        });
    }
    let graph = kept_graph::assemble(kept, pieces);
    let state = State {
        graph: digest,
        paths: facts.paths().map(str::to_string).collect(),
        keys: keys.to_vec(),
        init_dirs: init,
        table,
        files,
    };
    let decoded = (0..n).filter(|&i| facts.is_decoded(i)).count();
    tracing::debug!(ms = t.elapsed().as_millis(), decoded, "assembled");
    // The resolver is returned to be dropped off the caller's path.
    (graph, state, reuse, layout, r)
}

/// Bases in a form that does not depend on file numbering: each class and its bases' keys in
/// the subclass table.
fn bases_stable(paths: &[String], b: &[(u32, Vec<Ref>)]) -> Vec<(u32, Vec<u64>)> {
    b.iter()
        .map(|(d, bs)| {
            let ks = bs
                .iter()
                .map(|b| ref_key(tag::SUBCLASSES, &paths[b.file as usize], b.def))
                .collect();
            (*d, ks)
        })
        .collect()
}

/// The keys of the callers table that a file's first-pass (or round) results add to.
fn callers_sig(paths: &[String], v: &[Pass1]) -> Vec<u64> {
    v.iter()
        .flat_map(|c| c.targets().unwrap_or(&[]))
        .map(|(t, _)| ref_key(tag::CALLERS, &paths[t.file as usize], t.def))
        .collect()
}

/// A first-pass result in a form that does not depend on file numbering.
fn pass1_stable(paths: &[String], v: &[Pass1]) -> Vec<Vec<(u64, bool)>> {
    v.iter()
        .map(|c| match c {
            Pass1::Resolved(t) => t
                .iter()
                .map(|(r, b)| (ref_key(tag::CALLERS, &paths[r.file as usize], r.def), *b))
                .collect(),
            Pass1::Unresolved => vec![(0, false)],
            Pass1::Retry => vec![(1, false)],
            // The targets, then a marker no target key is.
            Pass1::Partial(t) => t
                .iter()
                .map(|(r, b)| (ref_key(tag::CALLERS, &paths[r.file as usize], r.def), *b))
                .chain([(2, false)])
                .collect(),
        })
        .collect()
}

fn remap_pass1(p: &Plan, c: &Pass1) -> Option<Pass1> {
    Some(match c {
        Pass1::Resolved(t) => Pass1::Resolved(
            t.iter()
                .map(|(r, b)| Some((p.ref_ok(*r)?, *b)))
                .collect::<Option<Vec<_>>>()?,
        ),
        Pass1::Unresolved => Pass1::Unresolved,
        Pass1::Retry => Pass1::Retry,
        Pass1::Partial(t) => Pass1::Partial(
            t.iter()
                .map(|(r, b)| Some((p.ref_ok(*r)?, *b)))
                .collect::<Option<Vec<_>>>()?,
        ),
    })
}

fn remap_redo(p: &Plan, redo: &Redo) -> Option<Redo> {
    Some(match redo {
        Redo::Always => Redo::Always,
        Redo::One(f) => Redo::One(p.ref_ok(*f)?),
        Redo::Many(fs) => Redo::Many(
            fs.iter()
                .map(|f| p.ref_ok(*f))
                .collect::<Option<Vec<_>>>()?
                .into(),
        ),
    })
}

impl Plan<'_> {
    /// The paths of this build, indexed by new file id (for signatures of new results).
    fn new_paths(&self, facts: &Files) -> Vec<String> {
        facts.paths().map(str::to_string).collect()
    }

    /// The keys of the callers table that redone first-pass (or round) results change:
    /// `redone` gives each redone file's new results, `old` what the kept state had for it.
    /// Who calls what, and where: the sites themselves count, not only the targets.
    fn callers_changed<'v, 'o>(
        &self,
        facts: &Files,
        redone: impl Iterator<Item = (usize, &'v [Pass1])>,
        old: impl Fn(usize) -> Cow<'o, [Pass1]>,
    ) -> Vec<u64> {
        let new_paths = self.new_paths(facts);
        let mut more = Vec::new();
        for (fi, v) in redone {
            let new = callers_sig(&new_paths, v);
            let was = self.same_path(fi, facts).map(&old);
            let old_sig = was
                .as_deref()
                .map(|s| callers_sig(&self.old.paths, s))
                .unwrap_or_default();
            let same_sites = self.same_outside(fi)
                && was.as_deref().is_some_and(|s| {
                    pass1_stable(&self.old.paths, s) == pass1_stable(&new_paths, v)
                });
            if !same_sites {
                more.extend(old_sig);
                more.extend(new);
            }
        }
        for &o in &self.gone_or_changed {
            if self.remap[o].is_some() {
                continue;
            }
            more.extend(callers_sig(&self.old.paths, &old(o)));
        }
        more
    }

    /// The old file with the same path as new file `fi`, changed or not.
    fn same_path(&self, fi: usize, facts: &Files) -> Option<usize> {
        let path = facts.path(fi);
        self.old
            .paths
            .binary_search_by(|p| p.as_str().cmp(path))
            .ok()
            .or_else(|| self.old.paths.iter().position(|p| p == path))
    }
}

fn plan<'s>(
    old: &'s State,
    facts: &Files,
    keys: &[[u8; 32]],
    contrib: &[Vec<u64>],
    summaries: &[Summary],
    before: &Before,
) -> Plan<'s> {
    let old_ids: HashMap<&str, usize> = old
        .paths
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i))
        .collect();
    let mut same = vec![None; facts.len()];
    let mut remap = vec![None; old.paths.len()];
    let mut body_only = vec![false; facts.len()];
    let mut dirty = HashSet::default();
    let mut kept = vec![false; old.paths.len()];
    let mut set_changed = false;
    for (fi, path) in facts.paths().enumerate() {
        match old_ids.get(path) {
            Some(&o) if old.keys.get(o) == keys.get(fi) => {
                same[fi] = Some(o);
                remap[o] = Some(fi as FileId);
                kept[o] = true;
            }
            Some(&o) if same_interface(old, o, facts, fi, before) => {
                // The file's own results are made again; others' only where they read its
                // calls, or table entries its calls make (names it calls, decorators).
                body_only[fi] = true;
                remap[o] = Some(fi as FileId);
                dirty.insert(body_key(path));
                let was = before.summaries.get(o).and_then(Option::as_ref);
                let (before_keys, now_keys) = (&old.files[o].contrib, &contrib[fi]);
                let same_entries = was == Some(&summaries[fi]) && before_keys == now_keys;
                if !same_entries {
                    if was.is_some_and(|w| w.same_but_used_names(&summaries[fi])) {
                        // A name called for the first time (or no longer): only lookups of
                        // that name can change. Both key lists are sorted.
                        dirty.extend(sorted_difference(before_keys, now_keys));
                        dirty.extend(sorted_difference(now_keys, before_keys));
                    } else {
                        dirty.extend(now_keys.iter().copied());
                        dirty.extend(before_keys.iter().copied());
                    }
                }
            }
            found => {
                if found.is_none() {
                    set_changed = true;
                }
                dirty.insert(file_key(path));
                dirty.insert(body_key(path));
                dirty.extend(contrib[fi].iter().copied());
            }
        }
    }
    let mut gone_or_changed = Vec::new();
    let new_paths: HashSet<&str> = facts.paths().collect();
    for (o, k) in kept.iter().enumerate() {
        if *k {
            continue;
        }
        gone_or_changed.push(o);
        if remap[o].is_some() {
            continue;
        }
        if !new_paths.contains(old.paths[o].as_str()) {
            set_changed = true;
        }
        dirty.insert(file_key(&old.paths[o]));
        dirty.insert(body_key(&old.paths[o]));
        dirty.extend(old.files[o].contrib.iter().copied());
    }
    if set_changed {
        dirty.insert(crate::deps::all_paths_key());
    }
    let same_numbers = old.paths.len() == facts.len()
        && remap
            .iter()
            .enumerate()
            .all(|(o, f)| f.is_none_or(|f| f as usize == o));
    let all_remapped = remap.iter().all(Option::is_some);
    Plan {
        same_numbers,
        all_remapped,
        dirty_reads: dirty_reads(&old.table.hashes, &dirty),
        old,
        same,
        remap,
        dirty,
        gone_or_changed,
        body_only,
    }
}

/// Which hashes of a table are dirty.
fn dirty_reads(table: &[u64], dirty: &HashSet<u64>) -> Vec<bool> {
    table.iter().map(|h| dirty.contains(h)).collect()
}

/// Whether old file `o` and new file `fi` (same path, other content) look the same from
/// other files ([`crate::resolve::same_interface`]); the old facts come from the fact cache.
fn same_interface(old: &State, o: usize, facts: &Files, fi: usize, before: &Before) -> bool {
    old.keys
        .get(o)
        .and_then(|key| (before.facts)(key))
        .is_some_and(|was| crate::resolve::same_interface(&was, facts.get(fi)))
}

/// The keys of sorted list `a` that sorted list `b` lacks.
fn sorted_difference<'k>(a: &'k [u64], b: &'k [u64]) -> impl Iterator<Item = u64> + 'k {
    a.iter().copied().filter(|k| b.binary_search(k).is_err())
}

#[cfg(test)]
#[path = "incremental_tests.rs"]
mod tests;
