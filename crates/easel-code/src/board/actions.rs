//! The board's actions: init, impact, claim, decide, mark, skip, status, read, task_select.

use super::error::BoardError;
use super::render;
use super::state::{
    Affected, Claim, ClaimKind, Decision, DecisionKind, Evidence, EvidenceKind, Focus, State,
};
use super::text::{Front, board_line, next_hint};
use super::{Store, tasks};
use crate::{BuildOptions, Built, CodeError, EdgeKind, Graph, GraphError, Impact, Node, NodeKind};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// One action on the board.
#[derive(Debug, Clone)]
pub enum Action {
    /// Parse the repository, record its architecture as evidence.
    Init,
    /// Callers, callees and blast radius of a symbol; it becomes the focus.
    Impact {
        symbol: String,
        depth: u32,
        /// How many callers and callees the view draws (at most 8 a side).
        max_nodes: usize,
    },
    /// A hypothesis, finding or question, linked to the newest evidence.
    Claim { text: String, kind: Option<String> },
    /// A plan, test or edit, linked to the newest evidence.
    Decide { text: String, kind: Option<String> },
    /// A symbol is verified (the focus when `symbol` is `None`).
    Mark {
        symbol: Option<String>,
        text: Option<String>,
    },
    /// A symbol is out of scope.
    Skip {
        symbol: Option<String>,
        text: Option<String>,
    },
    /// The board as it is.
    Status,
    /// The whole board as text, for models without vision.
    Read,
    /// Pick a task from `tasks.yaml`.
    TaskSelect { task_id: String },
}

impl Action {
    /// The action's name as the `canvas` tool spells it.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Init => "init",
            Action::Impact { .. } => "impact",
            Action::Claim { .. } => "claim",
            Action::Decide { .. } => "decide",
            Action::Mark { .. } => "mark",
            Action::Skip { .. } => "skip",
            Action::Status => "status",
            Action::Read => "read",
            Action::TaskSelect { .. } => "task_select",
        }
    }
}

/// How an action runs.
#[derive(Debug, Clone)]
pub struct BoardOptions<'a> {
    /// Whose words the hints use.
    pub front: Front,
    /// Who acts, for the ledger: `cli`, `mcp:<client>`, `hook`.
    pub actor: &'a str,
    /// Render views (PNG, SVG and `.canvas` under `.codecanvas/`); off for hooks, which must
    /// be fast, and for `read`.
    pub images: bool,
}

impl<'a> BoardOptions<'a> {
    pub fn new(front: Front, actor: &'a str) -> BoardOptions<'a> {
        BoardOptions {
            front,
            actor,
            images: true,
        }
    }
}

/// A rendered view returned with an outcome.
#[derive(Debug, Clone, Serialize)]
pub struct Image {
    /// `architecture`, `impact_<symbol>`, `board`.
    pub name: String,
    /// The PNG, relative to the repository root.
    pub path: String,
    /// The PNG's bytes. Empty when a picture already on disk was kept for a front that shows
    /// paths only (the command line, hooks); a model (MCP) always gets them.
    #[serde(skip)]
    pub png: Vec<u8>,
}

/// What an action did, in the three parts every response has.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub action: &'static str,
    /// The id of the evidence, claim or decision the action created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    /// What happened, with numbers.
    pub result: String,
    /// `Board: N evidence, M claims, K decisions | Focus: X | Progress: a/b addressed`.
    pub board: String,
    /// `Next: …`.
    pub next: String,
    pub images: Vec<Image>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress: Option<Progress>,
}

/// Addressed and affected nodes of the focus.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Progress {
    pub addressed: usize,
    pub affected: usize,
}

impl Outcome {
    /// The response text: result, board line, next hint.
    pub fn text(&self) -> String {
        format!(
            "{}\n\n{}\n{}",
            self.result.trim_end(),
            self.board,
            self.next
        )
    }
}

/// Runs `action` on the board of the repository at `root`.
pub fn run(root: &Path, action: Action, opts: &BoardOptions) -> Result<Outcome, BoardError> {
    let name = action.name();
    match action {
        Action::Init => init(root, opts),
        Action::Impact {
            symbol,
            depth,
            max_nodes,
        } => {
            let store = Store::open(root, false)?;
            let built = easel_codegraph::build(root, &cached())?;
            let impact = easel_codegraph::impact(&built.graph, &symbol, depth)?;
            impact_on(&store, &built.graph, impact, max_nodes, opts)
        }
        Action::Claim { text, kind } => {
            let kind = ClaimKind::parse(kind.as_deref())?;
            let text = required(text, name)?;
            let store = Store::open(root, false)?;
            create_linked(&store, name, &text, kind.name(), opts, |s, evidence| {
                let id = s.next_claim_id();
                s.claims.push(Claim {
                    id: id.clone(),
                    kind,
                    text: text.clone(),
                    evidence,
                    created: jiff::Timestamp::now(),
                });
                id
            })
        }
        Action::Decide { text, kind } => {
            let kind = DecisionKind::parse_decide(kind.as_deref())?;
            let text = required(text, name)?;
            let store = Store::open(root, false)?;
            create_linked(&store, name, &text, kind.name(), opts, |s, evidence| {
                let id = s.next_decision_id();
                s.decisions.push(Decision {
                    id: id.clone(),
                    kind,
                    text: text.clone(),
                    symbol: None,
                    node: None,
                    evidence,
                    created: jiff::Timestamp::now(),
                });
                id
            })
        }
        Action::Mark { symbol, text } => address(root, DecisionKind::Mark, symbol, text, opts),
        Action::Skip { symbol, text } => address(root, DecisionKind::Skip, symbol, text, opts),
        Action::Status => {
            let store = Store::open(root, false)?;
            let state = store.read()?;
            let result = status_text(&state, store.root());
            finish(&store, name, None, result, &state, Vec::new(), opts)
        }
        Action::Read => {
            let store = Store::open(root, false)?;
            let state = store.read()?;
            let result = read_text(&state, store.root());
            let text_only = BoardOptions {
                images: false,
                ..opts.clone()
            };
            finish(&store, name, None, result, &state, Vec::new(), &text_only)
        }
        Action::TaskSelect { task_id } => {
            let store = Store::open(root, false)?;
            let task = tasks::find_task(root, &task_id)?;
            let (state, ()) = store.change(opts.actor, name, &task.id, |s| {
                s.task = Some(task.clone());
                Ok(())
            })?;
            let mut result = format!("Selected task {}: {}", task.id, task.title);
            if let Some(d) = &task.description {
                result.push_str(&format!("\n{}", d.trim()));
            }
            if !task.symbols.is_empty() {
                result.push_str(&format!("\nSymbols: {}", task.symbols.join(", ")));
            }
            finish(&store, name, None, result, &state, Vec::new(), opts)
        }
    }
}

fn cached() -> BuildOptions<'static> {
    BuildOptions {
        use_cache: true,
        progress: None,
    }
}

fn required(text: String, action: &'static str) -> Result<String, BoardError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(BoardError::MissingText { action });
    }
    Ok(t.to_string())
}

/// A view that cannot be drawn does not cost the evidence: the text says why instead.
fn drawn(r: Result<Image, BoardError>, images: &mut Vec<Image>, notes: &mut String) {
    match r {
        Ok(i) => images.push(i),
        Err(e) => {
            tracing::warn!("cannot draw the view: {e}");
            notes.push_str(&format!("\n(The view could not be drawn: {e}.)"));
        }
    }
}

/// A claim or a decision, linked to the latest evidence: `add` puts it on the board and
/// returns its id.
fn create_linked(
    store: &Store,
    action: &'static str,
    text: &str,
    kind: &str,
    opts: &BoardOptions,
    add: impl FnOnce(&mut State, Option<String>) -> String,
) -> Result<Outcome, BoardError> {
    let (state, (id, ev)) = store.change(opts.actor, action, text, |s| {
        let ev = s.latest_evidence().map(|e| e.id.clone());
        Ok((add(s, ev.clone()), ev))
    })?;
    let result = format!("Created {id} ({kind}{}): \"{text}\"", linked(ev.as_deref()));
    finish(store, action, Some(id), result, &state, Vec::new(), opts)
}

fn linked(ev: Option<&str>) -> String {
    ev.map(|e| format!(", linked to {e}")).unwrap_or_default()
}

/// Renders the board view (when images are on) and assembles the three parts.
fn finish(
    store: &Store,
    action: &'static str,
    created: Option<String>,
    result: String,
    state: &State,
    mut images: Vec<Image>,
    opts: &BoardOptions,
) -> Result<Outcome, BoardError> {
    let mut result = result;
    if opts.images {
        drawn(render::board(store.root(), state), &mut images, &mut result);
    }
    Ok(Outcome {
        action,
        created,
        result,
        board: board_line(state),
        next: next_hint(state, action, opts.front),
        images,
        progress: state.progress().map(|(addressed, affected)| Progress {
            addressed,
            affected,
        }),
    })
}

fn init(root: &Path, opts: &BoardOptions) -> Result<Outcome, BoardError> {
    init_repo(root, &cached(), opts).map(|(_, outcome)| outcome)
}

/// `easel code init`: builds the graph, writes `graph.json` and records the architecture as
/// evidence. The last two run side by side, and while the cache is written.
pub fn init_repo(
    root: &Path,
    build: &BuildOptions,
    opts: &BoardOptions,
) -> Result<(Built, Outcome), BoardError> {
    Store::open(root, true)?;
    let path = easel_codegraph::graph_path(root);
    let (built, (saved, recorded)) = easel_codegraph::build_then(root, build, |built| {
        std::thread::scope(|s| {
            let saved = s.spawn(|| {
                // The same inputs make the same graph: the file of the last run is kept.
                if !(built.unchanged && path.is_file()) {
                    easel_codegraph::save_built(root, built)?;
                }
                Ok::<_, CodeError>(())
            });
            let recorded = record_architecture(root, built, opts);
            tracing::debug!("architecture recorded");
            (saved.join(), recorded)
        })
    })?;
    match saved {
        Ok(r) => r?,
        Err(p) => std::panic::resume_unwind(p),
    }
    Ok((built, recorded?))
}

/// When nothing changed since the last init, or the architecture view would draw exactly what
/// the last architecture evidence shows (`view`, its digest: an edit inside a function body
/// usually changes no module, class, import or line count that the view draws), that evidence
/// and its pictures still hold: drawing them again cost most of a second, and recording them
/// again added a duplicate. Answers with the pictures already on disk, or `None` when there is
/// something to record or a picture to draw again.
fn kept_architecture(
    root: &Path,
    built: &Built,
    view: Option<&str>,
    opts: &BoardOptions,
) -> Result<Option<Outcome>, BoardError> {
    let Some(state) = super::load(root)? else {
        return Ok(None);
    };
    let Some(e) = state
        .evidence
        .iter()
        .rev()
        .find(|e| e.kind == EvidenceKind::Architecture)
    else {
        return Ok(None);
    };
    if view.is_some() && e.view.as_deref() != view {
        return Ok(None);
    }
    let mut images = Vec::new();
    if opts.images {
        for (name, path) in [
            ("architecture", e.image.clone()),
            ("board", Some(".codecanvas/board.png".to_string())),
        ] {
            let Some(path) = path else { return Ok(None) };
            // Only a model gets the picture itself; a person gets its path.
            let png = match opts.front {
                Front::Mcp => std::fs::read(root.join(&path)).ok(),
                Front::Cli | Front::Hook => root.join(&path).is_file().then(Vec::new),
            };
            let Some(png) = png else {
                return Ok(None);
            };
            // The view's other files too, when the picture is to be kept rather than drawn.
            if view.is_some() {
                let stem = path.strip_suffix(".png").unwrap_or(&path);
                let missing = ["svg", "canvas"]
                    .iter()
                    .any(|ext| !root.join(format!("{stem}.{ext}")).is_file());
                if missing {
                    return Ok(None);
                }
            }
            images.push(Image {
                name: name.to_string(),
                path,
                png,
            });
        }
    }
    let result = if view.is_some() {
        format!(
            "Architecture unchanged since {}: {} files ({} lines; {} parsed, {} from cache) in {} ms; the modules, folders and imports the view draws are as they were, so nothing was recorded or drawn again.",
            e.id,
            built.stats.files,
            built.stats.lines,
            built.stats.parsed,
            built.stats.cached,
            built.stats.millis
        )
    } else {
        format!(
            "Unchanged since {} (architecture): {} files ({} lines), all from cache; nothing was parsed or drawn again.",
            e.id, built.stats.files, built.stats.lines
        )
    };
    let result = result + &skipped_note(built);
    Ok(Some(Outcome {
        action: "init",
        created: None,
        result,
        board: board_line(&state),
        next: next_hint(&state, "init", opts.front),
        images,
        progress: state.progress().map(|(addressed, affected)| Progress {
            addressed,
            affected,
        }),
    }))
}

/// Records a built graph as architecture evidence, creating the board when there is none.
/// `easel code init` calls this with the graph it just built.
pub fn record_architecture(
    root: &Path,
    built: &Built,
    opts: &BoardOptions,
) -> Result<Outcome, BoardError> {
    let store = Store::open(root, true)?;
    if built.unchanged
        && let Some(outcome) = kept_architecture(root, built, None, opts)?
    {
        return Ok(outcome);
    }
    let g = &built.graph;
    // Laying the view out is cheap; rasterizing it is not, and is skipped when the last
    // architecture evidence shows this very picture.
    let sketch = render::architecture_sketch(g);
    let view = sketch.as_ref().ok().map(|s| s.digest());
    if let Some(v) = view.as_deref()
        && let Some(outcome) = kept_architecture(root, built, Some(v), opts)?
    {
        return Ok(outcome);
    }
    let mut m: BTreeMap<String, u64> = BTreeMap::new();
    let mut put = |k: &str, v: usize| {
        m.insert(k.to_string(), v as u64);
    };
    put("files", built.stats.files);
    put("parsed", built.stats.parsed);
    put("cached", built.stats.cached);
    put("millis", built.stats.millis as usize);
    let count = |k: NodeKind| g.nodes.iter().filter(|n| n.kind == k).count();
    put("modules", count(NodeKind::Module));
    put("classes", count(NodeKind::Class));
    put("functions", count(NodeKind::Func));
    let edges = |k: EdgeKind| g.edges.iter().filter(|e| e.kind == k).count();
    put("calls", edges(EdgeKind::Call));
    put("imports", edges(EdgeKind::Import));
    put("unresolved", g.unresolved.len());
    m.insert("lines".into(), built.stats.lines);
    let hub = most_called(g);
    let mut images = Vec::new();
    let mut notes = String::new();
    if opts.images {
        drawn(
            sketch.and_then(|s| render::draw(root, s)),
            &mut images,
            &mut notes,
        );
    }
    let image = images.first().map(|i| i.path.clone());
    let suggested = hub.as_ref().map(|(name, _)| name.clone());
    let metrics = m.clone();
    let (state, id) = store.change(opts.actor, "init", "architecture", |s| {
        let id = s.next_evidence_id();
        s.evidence.push(Evidence {
            id: id.clone(),
            kind: EvidenceKind::Architecture,
            symbol: None,
            metrics,
            image,
            view,
            created: jiff::Timestamp::now(),
        });
        s.suggested = suggested;
        Ok(id)
    })?;
    let get = |k: &str| m.get(k).copied().unwrap_or(0);
    let mut result = format!(
        "Created {id} (architecture): {} files ({} lines; {} parsed, {} from cache) in {} ms.\n{} modules, {} classes, {} functions; {} calls, {} imports; {} calls unresolved.",
        get("files"),
        get("lines"),
        get("parsed"),
        get("cached"),
        get("millis"),
        get("modules"),
        get("classes"),
        get("functions"),
        get("calls"),
        get("imports"),
        get("unresolved"),
    );
    if let Some((name, callers)) = &hub {
        result.push_str(&format!("\nMost called: {name} ({callers} callers)."));
    }
    result.push_str(&notes);
    result.push_str(&skipped_note(built));
    finish(&store, "init", Some(id), result, &state, images, opts)
}

/// The files a build did not read or parse, and why, as lines of a result.
fn skipped_note(built: &Built) -> String {
    const SHOWN: usize = 10;
    let mut out = String::new();
    if !built.skipped.is_empty() {
        let names: Vec<String> = built
            .skipped
            .iter()
            .take(SHOWN)
            .map(|s| format!("{} ({})", s.path, s.reason.describe()))
            .collect();
        out.push_str(&format!(
            "\nNot parsed: {} files: {}",
            built.skipped.len(),
            names.join(", ")
        ));
        if built.skipped.len() > SHOWN {
            out.push_str(&format!(", and {} more", built.skipped.len() - SHOWN));
        }
        out.push('.');
    }
    if !built.problems.is_empty() {
        out.push_str(&format!(
            "\nSkipped {} files: {}",
            built.problems.len(),
            built.problems.join("; ")
        ));
    }
    out
}

/// The function with the most distinct callers, by a name that finds it again.
fn most_called(g: &Graph) -> Option<(String, usize)> {
    let mut callers: std::collections::HashMap<&str, std::collections::HashSet<&str>> =
        std::collections::HashMap::new();
    for e in g.edges.iter().filter(|e| e.kind == EdgeKind::Call) {
        callers.entry(e.to.as_str()).or_default().insert(&e.from);
    }
    let (id, n) = callers
        .iter()
        .map(|(id, set)| (*id, set.len()))
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))?;
    let node = g.node(id)?;
    let unique = g
        .nodes
        .iter()
        .filter(|x| x.qualname == node.qualname)
        .count()
        == 1;
    Some((
        if unique {
            node.qualname.clone()
        } else {
            node.id.clone()
        },
        n,
    ))
}

fn location(file: &str, line: u32) -> String {
    format!("{file}:{line}")
}

/// Records an impact analysis as evidence and makes its symbol the focus. `easel code impact`
/// calls this when the repository has a board, so the command line and the tool agree.
pub fn record_impact(
    root: &Path,
    graph: &Graph,
    impact: Impact,
    max_nodes: usize,
    opts: &BoardOptions,
) -> Result<Outcome, BoardError> {
    let store = Store::open(root, false)?;
    impact_on(&store, graph, impact, max_nodes, opts)
}

fn impact_on(
    store: &Store,
    graph: &Graph,
    impact: Impact,
    max_nodes: usize,
    opts: &BoardOptions,
) -> Result<Outcome, BoardError> {
    let t = &impact.target;
    let mut affected = vec![Affected {
        node: t.id.clone(),
        qualname: t.qualname.clone(),
        location: location(&t.file, t.start_line),
    }];
    affected.extend(impact.blast_radius.iter().map(|n| Affected {
        node: n.id.clone(),
        qualname: n.qualname.clone(),
        location: location(&n.file, n.start_line),
    }));
    let mut m = BTreeMap::new();
    m.insert("depth".to_string(), u64::from(impact.depth));
    m.insert("callers".to_string(), impact.counts.callers as u64);
    m.insert("callees".to_string(), impact.counts.callees as u64);
    m.insert(
        "blast_radius".to_string(),
        impact.counts.blast_radius as u64,
    );
    m.insert(
        "unresolved_calls".to_string(),
        impact.counts.unresolved_calls as u64,
    );
    let mut images = Vec::new();
    let mut notes = String::new();
    if opts.images {
        // Each side gets half the budget, at most 8 boxes, so the picture stays readable.
        let side = (max_nodes / 2).clamp(1, 8);
        let mut shown = impact.clone();
        shown.callers.truncate(side);
        shown.callees.truncate(side);
        drawn(
            render::impact(store.root(), graph, &shown),
            &mut images,
            &mut notes,
        );
    }
    let image = images.first().map(|i| i.path.clone());
    let symbol = t.qualname.clone();
    let node = t.id.clone();
    let (state, id) = store.change(opts.actor, "impact", &symbol, |s| {
        let id = s.next_evidence_id();
        s.evidence.push(Evidence {
            id: id.clone(),
            kind: EvidenceKind::Impact,
            symbol: Some(symbol.clone()),
            metrics: m,
            image,
            view: None,
            created: jiff::Timestamp::now(),
        });
        s.focus = Some(Focus {
            symbol: symbol.clone(),
            node,
            evidence: id.clone(),
            affected,
        });
        Ok(id)
    })?;
    let c = &impact.counts;
    let mut result = format!(
        "Created {id} (impact \"{symbol}\"): {} callers, {} callees.\nBlast radius: {} nodes may be affected by changes",
        c.callers, c.callees, c.blast_radius
    );
    if c.blast_radius > 0 {
        let per: Vec<String> = c
            .by_depth
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(d, n)| format!("{n} at depth {}", d + 1))
            .collect();
        result.push_str(&format!(" ({})", per.join(", ")));
    }
    result.push('.');
    if !impact.alternatives.is_empty() {
        result.push_str(&format!(
            "\nPicked {symbol} among {} symbols of that name (top-level before methods, then the most called); the others: {}. Pass a qualified name to see another.",
            impact.alternatives.len() + 1,
            impact.alternatives.join(", ")
        ));
    }
    let list = |title: &str, ns: &[crate::Neighbor]| -> String {
        const SHOWN: usize = 8;
        if ns.is_empty() {
            return String::new();
        }
        let mut s = format!("\n{title}: ");
        let names: Vec<String> = ns
            .iter()
            .take(SHOWN)
            .map(|n| format!("{} ({})", n.qualname, location(&n.file, n.start_line)))
            .collect();
        s.push_str(&names.join(", "));
        if ns.len() > SHOWN {
            s.push_str(&format!(", and {} more", ns.len() - SHOWN));
        }
        s
    };
    result.push_str(&list("Callers", &impact.callers));
    result.push_str(&list("Callees", &impact.callees));
    if c.unresolved_calls > 0 {
        result.push_str(&format!(
            "\n{} calls made here could not be resolved statically.",
            c.unresolved_calls
        ));
    }
    result.push_str(&notes);
    finish(store, "impact", Some(id), result, &state, images, opts)
}

/// Mark or skip: records the decision against a node, which counts toward progress when it
/// is in the focus's blast radius.
fn address(
    root: &Path,
    kind: DecisionKind,
    symbol: Option<String>,
    text: Option<String>,
    opts: &BoardOptions,
) -> Result<Outcome, BoardError> {
    let action = kind.name();
    let store = Store::open(root, false)?;
    let current = store.read()?;
    let (qualname, node) = resolve_symbol(root, &current, symbol.as_deref(), action)?;
    let text = text
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| {
            if kind == DecisionKind::Mark {
                "verified".into()
            } else {
                "out of scope".into()
            }
        });
    let summary = format!("{qualname}: {text}");
    let (state, (id, again)) = store.change(opts.actor, action, &summary, |s| {
        let again = s.is_addressed(&node);
        let id = s.next_decision_id();
        let ev = s.latest_evidence().map(|e| e.id.clone());
        s.decisions.push(Decision {
            id: id.clone(),
            kind,
            text: text.clone(),
            symbol: Some(qualname.clone()),
            node: Some(node.clone()),
            evidence: ev,
            created: jiff::Timestamp::now(),
        });
        Ok((id, again))
    })?;
    let verb = if kind == DecisionKind::Mark {
        "Marked"
    } else {
        "Skipped"
    };
    let mut result = format!("{verb} {qualname} ({id}): \"{text}\"");
    if again {
        result.push_str(" (it was addressed before)");
    }
    match (&state.focus, state.progress()) {
        (Some(f), Some((done, total))) if f.affected.iter().any(|a| a.node == node) => {
            result.push_str(&format!(
                "\nProgress on {}: {done}/{total} affected nodes addressed.",
                f.symbol
            ));
        }
        (Some(f), _) => result.push_str(&format!(
            "\n{qualname} is not in the blast radius of {}; progress is unchanged.",
            f.symbol
        )),
        (None, _) => {}
    }
    finish(&store, action, Some(id), result, &state, Vec::new(), opts)
}

/// The symbol a mark or skip is about: the focus when none is given, one of the focus's
/// affected nodes when the name picks exactly one (no graph needed), else a graph lookup where
/// an ambiguous name is settled by the blast radius.
fn resolve_symbol(
    root: &Path,
    state: &State,
    symbol: Option<&str>,
    action: &'static str,
) -> Result<(String, String), BoardError> {
    let Some(q) = symbol.map(str::trim).filter(|s| !s.is_empty()) else {
        return state
            .focus
            .as_ref()
            .map(|f| (f.symbol.clone(), f.node.clone()))
            .ok_or(BoardError::NoSymbol { action });
    };
    if let Some(f) = &state.focus {
        let tail = |a: &Affected| {
            a.qualname
                .rsplit(['.', ':', '/'])
                .next()
                .is_some_and(|last| last == q)
                || a.qualname.ends_with(&format!(".{q}"))
                || a.qualname.ends_with(&format!("::{q}"))
        };
        let tiers: [&dyn Fn(&Affected) -> bool; 3] =
            [&|a| a.node == q, &|a| a.qualname == q, &tail];
        for t in tiers {
            let found: Vec<&Affected> = f.affected.iter().filter(|a| t(a)).collect();
            if found.len() == 1 {
                return Ok((found[0].qualname.clone(), found[0].node.clone()));
            }
        }
    }
    let built = easel_codegraph::build(root, &cached())?;
    match easel_codegraph::find_symbol(&built.graph, q) {
        Ok(n) => Ok(name_of(n)),
        Err(GraphError::Ambiguous { query, candidates }) => {
            let in_focus: Vec<&String> = candidates
                .iter()
                .filter(|c| {
                    state
                        .focus
                        .as_ref()
                        .is_some_and(|f| f.affected.iter().any(|a| &a.node == *c))
                })
                .collect();
            match in_focus.as_slice() {
                [one] => {
                    built
                        .graph
                        .node(one)
                        .map(name_of)
                        .ok_or(BoardError::Code(CodeError::Graph(GraphError::Ambiguous {
                            query,
                            candidates,
                        })))
                }
                _ => Err(CodeError::Graph(GraphError::Ambiguous { query, candidates }).into()),
            }
        }
        Err(e) => Err(e.into()),
    }
}

fn name_of(n: &Node) -> (String, String) {
    (n.qualname.clone(), n.id.clone())
}

fn evidence_line(e: &Evidence) -> String {
    let get = |k: &str| e.metrics.get(k).copied().unwrap_or(0);
    match e.kind {
        EvidenceKind::Architecture => format!(
            "{} architecture: {} files, {} modules, {} classes, {} functions, {} calls",
            e.id,
            get("files"),
            get("modules"),
            get("classes"),
            get("functions"),
            get("calls")
        ),
        EvidenceKind::Impact => format!(
            "{} impact \"{}\": {} callers, {} callees, blast radius {} (depth {})",
            e.id,
            e.symbol.as_deref().unwrap_or("?"),
            get("callers"),
            get("callees"),
            get("blast_radius"),
            get("depth")
        ),
    }
}

fn status_text(state: &State, root: &Path) -> String {
    let mut s = format!("Evidence Board of {}", root.display());
    if let Some(t) = &state.task {
        s.push_str(&format!("\nTask {}: {}", t.id, t.title));
    }
    if let Some(e) = state.latest_evidence() {
        s.push_str(&format!("\nLatest evidence: {}", evidence_line(e)));
    }
    if let Some(c) = state.claims.last() {
        s.push_str(&format!(
            "\nLatest claim: {} ({}): \"{}\"",
            c.id,
            c.kind.name(),
            c.text
        ));
    }
    if let Some(d) = state.decisions.last() {
        s.push_str(&format!(
            "\nLatest decision: {} ({}): \"{}\"",
            d.id,
            d.kind.name(),
            d.text
        ));
    }
    if let Some(f) = &state.focus {
        let open = state.unaddressed();
        s.push_str(&format!(
            "\nFocus {}: {} of {} affected nodes open",
            f.symbol,
            open.len(),
            f.affected.len()
        ));
        if !open.is_empty() {
            let names: Vec<&str> = open.iter().take(8).map(|a| a.qualname.as_str()).collect();
            s.push_str(&format!(" ({})", names.join(", ")));
        }
        s.push('.');
    }
    s
}

fn read_text(state: &State, root: &Path) -> String {
    let mut s = format!("Evidence Board of {}", root.display());
    if let Some(t) = &state.task {
        s.push_str(&format!("\n\nTask {}: {}", t.id, t.title));
        if let Some(d) = &t.description {
            s.push_str(&format!("\n  {}", d.trim()));
        }
    }
    s.push_str(&format!("\n\nEvidence ({}):", state.evidence.len()));
    for e in &state.evidence {
        s.push_str(&format!("\n- {}", evidence_line(e)));
    }
    s.push_str(&format!("\n\nClaims ({}):", state.claims.len()));
    for c in &state.claims {
        s.push_str(&format!(
            "\n- {} {}{}: {}",
            c.id,
            c.kind.name(),
            c.evidence
                .as_deref()
                .map(|e| format!(" [{e}]"))
                .unwrap_or_default(),
            c.text
        ));
    }
    s.push_str(&format!("\n\nDecisions ({}):", state.decisions.len()));
    for d in &state.decisions {
        s.push_str(&format!(
            "\n- {} {}{}{}: {}",
            d.id,
            d.kind.name(),
            d.symbol
                .as_deref()
                .map(|x| format!(" {x}"))
                .unwrap_or_default(),
            d.evidence
                .as_deref()
                .map(|e| format!(" [{e}]"))
                .unwrap_or_default(),
            d.text
        ));
    }
    if let Some(f) = &state.focus {
        let (done, total) = state.progress().unwrap_or((0, 0));
        s.push_str(&format!(
            "\n\nFocus {} ({}), {done}/{total} addressed:",
            f.symbol, f.evidence
        ));
        for a in &f.affected {
            let mark = if state.is_addressed(&a.node) {
                "x"
            } else {
                " "
            };
            s.push_str(&format!("\n[{mark}] {} ({})", a.qualname, a.location));
        }
    }
    s
}
