//! What resolution gives the graph: nodes and their qualified names, each file's edges, and
//! the two passes (arguments that reach parameters are resolved in the second).

use super::*;

/// How many times at most the first pass is redone with parameters taking the arguments of
/// the call sites found so far, before the second pass: each round follows a value one call
/// further (`tryMove(board, piece)` calls `piece.isLegal(board)`, found through `piece`; that
/// call site then gives `isLegal` its `board`). One round: the second (a state machine that
/// stores the state it is handed, whose methods get the machine back) finds 15 more right
/// edges in round 6, but also reaches, through a collection field a base class fills, the
/// values pushed into instances of the base in a subclass's reads (`jscg-blind3`'s
/// `di/plugin_hooks_tapable`): fields are per class, not per instance.
pub(crate) const PARAM_ROUNDS: usize = 1;

/// What a round of the first pass changed in one file: each call whose result differs from
/// the first pass, by index, ascending. Most rounds change a few calls of a file, if any, so
/// this is what is compared, kept and written, not a copy of every call.
pub(crate) type Round = Vec<(u32, Pass1)>;

/// A file's first pass with a round's changes applied.
pub(crate) fn with_round(first: &[Pass1], round: &[(u32, Pass1)]) -> Vec<Pass1> {
    let mut all = first.to_vec();
    for (ci, p) in round {
        if let Some(c) = all.get_mut(*ci as usize) {
            *c = p.clone();
        }
    }
    all
}

impl<'a> Resolver<'a> {
    /// The nodes of file `fi` and their CONTAINS edges: a function of the file alone.
    pub(crate) fn file_nodes(&self, fi: FileId) -> (Vec<Node>, Vec<Edge>) {
        let mut nodes = Vec::new();
        let mut edges = Vec::new();
        {
            let fi = fi as usize;
            let f = self.files.untracked().get(fi);
            let ix = self.idx.untracked(fi);
            let mid = self.module_id(fi as FileId);
            nodes.push(Node {
                id: mid.clone(),
                kind: NodeKind::Module,
                name: f.path.rsplit('/').next().unwrap_or(&f.path).to_string(),
                qualname: ix.qualname.clone(),
                file: f.path.clone(),
                lang: f.lang,
                start_line: 1,
                end_line: f.lines.max(1),
            });
            for (d, def) in f.defs.iter().enumerate() {
                if def.merged_into.is_some()
                    || matches!(def.kind, DefKind::Impl | DefKind::Scope)
                    || def.is_anon_class()
                {
                    continue;
                }
                let rf = Ref {
                    file: fi as FileId,
                    def: d as DefId,
                };
                let id = self.node_id(rf);
                nodes.push(Node {
                    id: id.clone(),
                    kind: if def.kind == DefKind::Class {
                        NodeKind::Class
                    } else {
                        NodeKind::Func
                    },
                    name: def.name.clone(),
                    qualname: self.qualname(rf),
                    file: f.path.clone(),
                    lang: f.lang,
                    start_line: def.start_line,
                    end_line: def.end_line,
                });
                let parent = match self.visible_parent(rf) {
                    Some(p) => self.node_id(Ref {
                        file: rf.file,
                        def: p,
                    }),
                    None => mid.clone(),
                };
                edges.push(Edge {
                    from: parent,
                    to: id,
                    kind: EdgeKind::Contains,
                });
            }
        }
        (nodes, edges)
    }

    pub(super) fn visible_parent(&self, r: Ref) -> Option<DefId> {
        let defs = &self.files[r.file as usize].defs;
        let mut p = defs[r.def as usize].parent;
        while let Some(pi) = p {
            let pd = &defs[pi as usize];
            if let Some(m) = pd.merged_into {
                return Some(m);
            }
            // A class bound to no name is no node, as an anonymous function is not.
            if pd.kind != DefKind::Impl && pd.kind != DefKind::Scope && !pd.is_anon_class() {
                return Some(pi);
            }
            p = pd.parent;
        }
        None
    }

    pub(super) fn qualname(&self, r: Ref) -> String {
        let f = &self.files[r.file as usize];
        let sep = f.lang.sep();
        fn part(d: &crate::extract::Def, lang: Lang) -> std::borrow::Cow<'_, str> {
            if d.lambda_no > 0 && lang == Lang::Python {
                format!("<lambda{}>", d.lambda_no).into()
            } else {
                d.name.as_str().into()
            }
        }
        let mut parts = vec![part(&f.defs[r.def as usize], f.lang)];
        let mut p = self.visible_parent(r);
        while let Some(pi) = p {
            parts.push(part(&f.defs[pi as usize], f.lang));
            p = self.visible_parent(Ref {
                file: r.file,
                def: pi,
            });
        }
        parts.reverse();
        let prefix = &self.idx[r.file as usize].def_prefix;
        let local = parts.join(sep);
        if prefix.is_empty() {
            local
        } else {
            format!("{prefix}{sep}{local}")
        }
    }

    /// All edges but CONTAINS, and the unresolved calls, for one file.
    pub(super) fn file_edges(&self, fi: FileId, first: &[Pass1], redo: &[Redo]) -> FileEdges {
        let f = &self.files[fi as usize];
        let mut edges = Vec::new();
        let mut unresolved = Vec::new();
        let mut builtin_calls = Vec::new();
        let mid = self.module_id(fi);
        // Imports.
        for (ii, _) in f.imports.iter().enumerate() {
            for target in self.import_files(fi, ii as u32, 0) {
                if target != fi {
                    edges.push(Edge {
                        from: mid.clone(),
                        to: self.module_id(target),
                        kind: EdgeKind::Import,
                    });
                }
            }
        }
        // Inheritance.
        for (d, def) in f.defs.iter().enumerate() {
            if def.kind != DefKind::Class || def.merged_into.is_some() {
                continue;
            }
            let rf = Ref {
                file: fi,
                def: d as DefId,
            };
            for base in self.bases(rf, 0) {
                edges.push(Edge {
                    from: self.node_id(rf),
                    to: self.node_id(base),
                    kind: EdgeKind::Inherits,
                });
            }
        }
        // Calls.
        let mut redo = redo.iter();
        for (ci, call) in f.calls.iter().enumerate() {
            let open = matches!(first.get(ci), Some(Pass1::Retry | Pass1::Partial(_)));
            let may_change = !open || self.may_change(redo.next());
            // Made by whoever runs `new C()` (`field_init_targets`).
            if call.field_init {
                continue;
            }
            let caller = self.caller_of(fi, call.scope);
            let targets = match first.get(ci) {
                Some(Pass1::Resolved(t)) => Some(t.clone()),
                Some(Pass1::Unresolved) => None,
                Some(Pass1::Retry) if !may_change => None,
                Some(Pass1::Partial(t)) if !may_change => Some(t.clone()),
                Some(Pass1::Partial(t)) => {
                    let mut all = t.clone();
                    for x in self.call_targets(fi, call).unwrap_or_default() {
                        if !all.contains(&x) {
                            all.push(x);
                        }
                    }
                    Some(all)
                }
                _ => self.call_targets(fi, call),
            };
            match targets {
                // A component the repository's JSX factory runs: the factory's calls show it.
                Some(_)
                    if call.jsx == crate::extract::JSX_COMPONENT
                        && call.via.is_some_and(|o| !self.calls_back(fi, o)) => {}
                Some(ts) => {
                    for (t, _) in ts {
                        // An anonymous function is no node: its calls are its scope's.
                        if self.def(t).kind == DefKind::Scope {
                            continue;
                        }
                        edges.push(Edge {
                            from: caller.clone(),
                            to: self.node_id(t),
                            kind: EdgeKind::Call,
                        });
                    }
                }
                // `raise KeyError` constructs a builtin exception without parentheses.
                None if call.maybe => {
                    if f.lang == Lang::Python
                        && !call.text.is_empty()
                        && self.calls_builtin(fi, call)
                    {
                        builtin_calls.push(Unresolved {
                            from: caller.clone(),
                            name: call.text.clone(),
                            line: call.line,
                            external: None,
                        });
                    }
                }
                None => {
                    let u = Unresolved {
                        from: caller.clone(),
                        name: call.text.clone(),
                        line: call.line,
                        external: self.external_name(fi, call),
                    };
                    if self.calls_builtin(fi, call) {
                        builtin_calls.push(u);
                    } else {
                        unresolved.push(u);
                    }
                }
            }
        }
        // Every edge and unresolved call starts in this file, so duplicates are local.
        let mut seen = HashSet::new();
        edges.retain(|e| seen.insert((e.from.clone(), e.to.clone(), e.kind)));
        let mut seen_u = HashSet::new();
        unresolved.retain(|u| seen_u.insert((u.from.clone(), u.name.clone())));
        let mut seen_b = HashSet::new();
        builtin_calls.retain(|u| seen_b.insert((u.from.clone(), u.name.clone())));
        (edges, unresolved, builtin_calls)
    }

    /// Resolves everything and assembles the graph.
    pub(crate) fn into_graph(self) -> Graph {
        let n = self.files.len() as FileId;
        let mut r = self;
        let (first, redo): (Vec<Vec<Pass1>>, Vec<Vec<Redo>>) =
            (0..n).into_par_iter().map(|fi| r.file_pass1(fi).0).unzip();
        r.set_pass1(&first);
        // Calls found through parameters reach more functions, whose parameters then take
        // more arguments: a few rounds, until the call sites reaching each function settle.
        // (`incremental::resolve` does the same rounds.) A file's round is empty where it is
        // its first pass.
        let mut cur: Vec<Round> = vec![Vec::new(); n as usize];
        for _ in 0..PARAM_ROUNDS {
            let next: Vec<Round> = (0..n)
                .into_par_iter()
                .map(|fi| r.file_round(fi, &first[fi as usize], &redo[fi as usize]).0)
                .collect();
            if next == cur {
                break;
            }
            r.set_round(&first, &cur, &next);
            cur = next;
        }
        let per_file: Vec<FileEdges> = (0..n)
            .into_par_iter()
            .map(|fi| r.file_pass2(fi, &first[fi as usize], &redo[fi as usize]).0)
            .collect();
        let mut graph = Graph::default();
        for fi in 0..n {
            let (nodes, contains) = r.file_nodes(fi);
            graph.nodes.extend(nodes);
            graph.edges.extend(contains);
        }
        for (e, u, b) in per_file {
            graph.edges.extend(e);
            graph.unresolved.extend(u);
            graph.builtin_calls.extend(b);
        }
        graph
    }

    /// The first pass over the calls of file `fi`: everything that does not depend on
    /// parameter values, with a [`Redo`] for each call it left open; and what it read.
    pub(crate) fn file_pass1(&self, fi: FileId) -> (FirstPass, Vec<Dep>) {
        tracked(|| {
            let mut redos = Vec::new();
            let calls = self.files[fi as usize]
                .calls
                .iter()
                .map(|c| {
                    PARAM_TOUCHED.with(|t| t.set(false));
                    REDO.with(|r| {
                        let mut r = r.borrow_mut();
                        r.0.clear();
                        r.1 = false;
                    });
                    let t = self.call_targets(fi, c);
                    let touched = PARAM_TOUCHED.with(|t| t.get());
                    if touched {
                        redos.push(REDO.with(|r| {
                            let mut r = r.borrow_mut();
                            if r.1 {
                                return Redo::Always;
                            }
                            r.0.sort_unstable_by_key(|f| (f.file, f.def));
                            r.0.dedup();
                            match r.0.as_slice() {
                                [f] => Redo::One(*f),
                                fs => Redo::Many(fs.into()),
                            }
                        }));
                    }
                    match t {
                        // Final: nothing a parameter could change.
                        None if !touched => Pass1::Unresolved,
                        None => Pass1::Retry,
                        Some(t) if touched => Pass1::Partial(t),
                        Some(t) => Pass1::Resolved(t),
                    }
                })
                .collect();
            (calls, redos)
        })
    }

    /// The first pass of file `fi` again (`first`), with parameters taking the arguments at
    /// the call sites known so far: the calls a parameter was involved in may reach more
    /// functions: the calls whose result that changes ([`Round`]). And what it read.
    pub(crate) fn file_round(
        &self,
        fi: FileId,
        first: &[Pass1],
        redo: &[Redo],
    ) -> (Round, Vec<Dep>) {
        // Measured on the JavaScript and TypeScript suites only; elsewhere the second pass
        // alone, as before.
        let js = self.files.untracked().lang(fi as usize).is_js_family();
        if !js
            || !first
                .iter()
                .any(|p| matches!(p, Pass1::Retry | Pass1::Partial(_)))
        {
            return (Vec::new(), Vec::new());
        }
        let (v, deps): (Round, Vec<Dep>) = unit(|| {
            tracked(|| {
                let calls = &self.files[fi as usize].calls;
                let mut redo = redo.iter();
                first
                    .iter()
                    .zip(calls)
                    .enumerate()
                    .filter_map(|(ci, (p, c))| match p {
                        Pass1::Retry | Pass1::Partial(_) if self.may_change(redo.next()) => {
                            let mut all = p.targets().map(<[_]>::to_vec).unwrap_or_default();
                            for x in self.call_targets(fi, c).unwrap_or_default() {
                                if !all.contains(&x) {
                                    all.push(x);
                                }
                            }
                            let now = if all.is_empty() {
                                Pass1::Retry
                            } else {
                                Pass1::Partial(all)
                            };
                            (now != *p).then_some((ci as u32, now))
                        }
                        _ => None,
                    })
                    .collect()
            })
        });
        (v, deps)
    }

    /// Whether parameter flow may resolve a call the first pass left open differently: some
    /// function whose parameters it read has call sites, not too many to give values (see
    /// [`Redo`]).
    /// Without one (a kept state that does not fit the calls), it may.
    fn may_change(&self, redo: Option<&Redo>) -> bool {
        redo.and_then(Redo::fns).is_none_or(|fs| {
            fs.iter().any(|f| {
                self.callers
                    .get(f)
                    .is_some_and(|s| (1..=MAX_SITES).contains(&s.len()))
            })
        })
    }

    /// The call sites that reach each function, from the first pass of every file (or a
    /// later round of it); turns on the flow of arguments into parameters for the second
    /// pass. Values worked out with the call sites known before are forgotten.
    pub(crate) fn set_pass1(&mut self, first: &[Vec<Pass1>]) {
        self.callers.map.clear();
        if let Ok(mut m) = self.jsx_memo.write() {
            m.remove(&true);
        }
        for (fi, calls) in first.iter().enumerate() {
            for (ci, t) in calls.iter().enumerate() {
                let Some(t) = t.targets() else { continue };
                for (r, bound) in t {
                    self.callers
                        .map
                        .entry(*r)
                        .or_default()
                        .push((fi as FileId, ci as u32, *bound));
                }
            }
        }
        // Decorators are calls with the decorated function as their argument.
        for (fi, decorators) in self.decorators.iter().enumerate() {
            for &ci in decorators {
                let Some(t) = first
                    .get(fi)
                    .and_then(|c| c.get(ci as usize))
                    .and_then(Pass1::targets)
                else {
                    continue;
                };
                for (r, _) in t {
                    self.callers
                        .map
                        .entry(*r)
                        .or_default()
                        .push((fi as FileId, ci, false));
                }
            }
        }
        self.param_flow = true;
    }

    /// The callers table after a round (`after`, each file's calls whose result differs from
    /// its first pass `first`) that followed `before`: the call sites a round found beyond
    /// those before it are added (a round only adds targets to the first pass's), and the
    /// table is made again only if a target went missing. Only the calls either round
    /// changed are looked at.
    pub(crate) fn set_round(&mut self, first: &[Vec<Pass1>], before: &[Round], after: &[Round]) {
        let mut added: Vec<(FileId, u32, Ref, bool)> = Vec::new();
        for (fi, (b, a)) in before.iter().zip(after).enumerate() {
            if b == a {
                continue;
            }
            let f = &first[fi];
            let mut ci: Vec<u32> = b.iter().chain(a).map(|(ci, _)| *ci).collect();
            ci.sort_unstable();
            ci.dedup();
            fn at<'p>(f: &'p [Pass1], r: &'p [(u32, Pass1)], c: u32) -> &'p [(Ref, bool)] {
                let p = match r.binary_search_by_key(&c, |(ci, _)| *ci) {
                    Ok(i) => Some(&r[i].1),
                    Err(_) => f.get(c as usize),
                };
                p.and_then(Pass1::targets).unwrap_or(&[])
            }
            for c in ci {
                let (tb, ta) = (at(f, b, c), at(f, a, c));
                if tb.iter().any(|t| !ta.contains(t)) {
                    let all: Vec<Vec<Pass1>> = after
                        .iter()
                        .zip(first)
                        .map(|(a, f)| with_round(f, a))
                        .collect();
                    self.set_pass1(&all);
                    return;
                }
                for &(t, bound) in ta.iter().filter(|t| !tb.contains(t)) {
                    added.push((fi as FileId, c, t, bound));
                }
            }
        }
        if let Ok(mut m) = self.jsx_memo.write() {
            m.remove(&true);
        }
        for &(fi, ci, t, bound) in &added {
            // Decorators are calls with the decorated function as their argument.
            let decorator = self
                .decorators
                .get(fi as usize)
                .is_some_and(|d| d.contains(&ci));
            let sites = self.callers.map.entry(t).or_default();
            sites.push((fi, ci, bound));
            if decorator {
                sites.push((fi, ci, false));
            }
        }
    }

    /// The second pass for file `fi`: its edges but CONTAINS, unresolved and builtin calls;
    /// and what it read (beyond the file's own first pass, `first`).
    pub(crate) fn file_pass2(
        &self,
        fi: FileId,
        first: &[Pass1],
        redo: &[Redo],
    ) -> (FileEdges, Vec<Dep>) {
        unit(|| tracked(|| self.file_edges(fi, first, redo)))
    }
}
