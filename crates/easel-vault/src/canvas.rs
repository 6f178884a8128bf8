//! Canvas files in a vault: the operations behind `easel canvas …` and the MCP canvas tools.
//!
//! Each function is the one implementation of an operation; front ends only parse arguments
//! and print the result, so the CLI's `--json` output and the MCP tool result are the same
//! JSON. Changes go through [`Vault::update`]: the file is locked, re-read, changed in memory
//! by `easel-canvas`, written atomically and recorded in the ledger. An edit that fails
//! validation writes nothing.

use crate::error::{ErrorKind, VaultError};
use crate::ledger::{Change, Written};
use crate::path::VaultPath;
use crate::rev::Rev;
use crate::vault::{Expect, Vault};
use easel_canvas::json::{Map, Value};
use easel_canvas::{Canvas, CanvasError, Finding, IdGen, NodeQuery, validate as validate_canvas};
use serde::Serialize;
use std::sync::Arc;

/// Who is making changes, for the ledger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actor {
    /// `cli`, `mcp:<client>`, `agent:<name>`, `thread` or `http`.
    pub name: String,
    /// Groups changes so they can be undone together.
    pub run: Option<String>,
}

impl Actor {
    /// An actor outside any run.
    pub fn new(name: impl Into<String>) -> Actor {
        Actor {
            name: name.into(),
            run: None,
        }
    }

    fn change(&self, op: &str, summary: String) -> Change {
        Change {
            actor: self.name.clone(),
            op: op.to_owned(),
            summary,
            run: self.run.clone(),
            span: None,
        }
    }
}

/// What can go wrong in a canvas operation.
#[derive(Debug, thiserror::Error)]
pub enum CanvasOpError {
    /// A vault problem: path rules, IO, locks, conflicts.
    #[error(transparent)]
    Vault(#[from] VaultError),
    /// The canvas file does not exist.
    #[error("canvas not found: {path}")]
    NotFound {
        /// The vault-relative path that was asked for.
        path: String,
    },
    /// `write` refuses to replace an existing canvas.
    #[error("canvas already exists: {path}")]
    Exists {
        /// The vault-relative path.
        path: String,
    },
    /// The file or the change is not a valid canvas, or an id is unknown.
    #[error("{path}: {source}")]
    Canvas {
        /// The vault-relative path.
        path: String,
        /// What the canvas layer said.
        #[source]
        source: CanvasError,
    },
    /// The file is not UTF-8 text.
    #[error("{path} is not UTF-8 text, so it cannot be a canvas")]
    NotText {
        /// The vault-relative path.
        path: String,
    },
    /// Arguments that do not describe a valid request.
    #[error("{0}")]
    BadInput(String),
}

impl CanvasOpError {
    /// The exit-code class.
    pub fn kind(&self) -> ErrorKind {
        match self {
            CanvasOpError::Vault(e) => e.kind(),
            CanvasOpError::NotFound { .. } => ErrorKind::NotFound,
            CanvasOpError::Exists { .. } => ErrorKind::Conflict,
            CanvasOpError::Canvas { source, .. } => match source {
                CanvasError::NodeNotFound(_) | CanvasError::EdgeNotFound(_) => ErrorKind::NotFound,
                _ => ErrorKind::Invalid,
            },
            CanvasOpError::NotText { .. } | CanvasOpError::BadInput(_) => ErrorKind::Invalid,
        }
    }

    /// What to do next.
    pub fn hint(&self) -> String {
        match self {
            CanvasOpError::Vault(e) => e.hint(),
            CanvasOpError::NotFound { .. } => {
                "run 'easel canvas list' to see the canvases, or 'easel canvas write' to create one"
                    .into()
            }
            CanvasOpError::Exists { .. } => {
                "use 'easel canvas update' to change an existing canvas, or pick another path"
                    .into()
            }
            CanvasOpError::Canvas { source, .. } => source.hint(),
            CanvasOpError::NotText { .. } => "point at a .canvas file saved as UTF-8 JSON".into(),
            CanvasOpError::BadInput(_) => {
                "pass a JSON object like {\"nodes\":[...],\"edges\":[...]}".into()
            }
        }
    }
}

type Result<T> = std::result::Result<T, CanvasOpError>;

/// Resolves a canvas path, adding `.canvas` when the caller left it out.
pub fn canvas_path(vault: &Vault, path: &str, for_write: bool) -> Result<VaultPath> {
    let trimmed = path.trim();
    if trimmed.is_empty() {
        return Err(CanvasOpError::BadInput("the canvas path is empty".into()));
    }
    let with_ext = if trimmed.ends_with(".canvas") {
        trimmed.to_owned()
    } else {
        format!("{trimmed}.canvas")
    };
    Ok(if for_write {
        vault.resolve_for_write(&with_ext)?
    } else {
        vault.resolve(&with_ext)?
    })
}

fn parse_canvas(p: &VaultPath, bytes: &[u8]) -> Result<Canvas> {
    let text = std::str::from_utf8(bytes).map_err(|_| CanvasOpError::NotText {
        path: p.as_str().to_owned(),
    })?;
    Canvas::parse(text).map_err(|source| CanvasOpError::Canvas {
        path: p.as_str().to_owned(),
        source,
    })
}

fn canvas_err(p: &VaultPath) -> impl Fn(CanvasError) -> CanvasOpError + '_ {
    move |source| CanvasOpError::Canvas {
        path: p.as_str().to_owned(),
        source,
    }
}

/// Maps "file not found" to the canvas-specific error with a canvas-specific hint.
fn not_found_as_canvas(p: &VaultPath) -> impl Fn(VaultError) -> CanvasOpError + '_ {
    move |e| match e {
        VaultError::NotFound { .. } => CanvasOpError::NotFound {
            path: p.as_str().to_owned(),
        },
        other => CanvasOpError::Vault(other),
    }
}

/// Reads and parses a canvas by its (possibly extension-less) path, for callers that need the
/// model itself (the conversation walker, exporters).
pub fn load_canvas(vault: &Vault, path: &str) -> Result<(VaultPath, Canvas, Rev)> {
    let p = canvas_path(vault, path, false)?;
    let (canvas, rev) = load(vault, &p)?;
    Ok((p, canvas, rev))
}

fn load(vault: &Vault, p: &VaultPath) -> Result<(Canvas, Rev)> {
    let bytes = vault.read_bytes(p).map_err(not_found_as_canvas(p))?;
    // The canvas keeps the bytes it was read from (to write unchanged nodes by copying them);
    // handing them over saves a copy of the whole file.
    let text = Arc::new(
        String::from_utf8(bytes).map_err(|_| CanvasOpError::NotText {
            path: p.as_str().to_owned(),
        })?,
    );
    let (canvas, rev) = parse_and_hash(text);
    let canvas = canvas.map_err(|source| CanvasOpError::Canvas {
        path: p.as_str().to_owned(),
        source,
    })?;
    Ok((canvas, rev))
}

/// Below this size a thread costs more than hashing on the way.
const PARALLEL_HASH_MIN: usize = 1 << 20;

/// Parses `text` and computes its revision. On a large file the two take about as long as
/// each other (SHA-256 of 27 MB is about 10 ms even with the CPU's SHA instructions), so the
/// hash runs on a second thread while the text is parsed.
fn parse_and_hash(text: Arc<String>) -> (std::result::Result<Canvas, CanvasError>, Rev) {
    if text.len() < PARALLEL_HASH_MIN {
        let rev = Rev::of(text.as_bytes());
        return (Canvas::parse_shared(text), rev);
    }
    std::thread::scope(|scope| {
        let hasher = std::thread::Builder::new()
            .name("easel-rev".into())
            .spawn_scoped(scope, || Rev::of(text.as_bytes()));
        let canvas = Canvas::parse_shared(Arc::clone(&text));
        // No thread to be had (a process limit): hash here instead. Hashing cannot panic,
        // so a failed join means the same.
        let rev = match hasher {
            Ok(handle) => handle.join().ok(),
            Err(error) => {
                tracing::debug!(%error, "no thread for hashing; hashing after the parse");
                None
            }
        };
        (canvas, rev.unwrap_or_else(|| Rev::of(text.as_bytes())))
    })
}

/// Read-modify-write of one canvas under the vault's lock. `f` runs again on the new version
/// when a program that takes no lock (Obsidian) saved the canvas during the write.
fn edit<T>(
    vault: &Vault,
    p: &VaultPath,
    rev: Option<Rev>,
    change: &Change,
    mut f: impl FnMut(&mut Canvas) -> Result<T>,
) -> Result<(Written, T)> {
    let expect = rev.map_or(Expect::Present, Expect::Rev);
    vault
        .update(p, expect, change, |bytes| {
            let bytes = bytes.ok_or_else(|| CanvasOpError::NotFound {
                path: p.as_str().to_owned(),
            })?;
            let mut canvas = parse_canvas(p, bytes)?;
            let out = f(&mut canvas)?;
            Ok((canvas.to_obsidian_string().into_bytes(), out))
        })
        .map_err(|e| match e {
            CanvasOpError::Vault(v) => not_found_as_canvas(p)(v),
            other => other,
        })
}

fn rev_after(w: &Written) -> Option<String> {
    w.rev_after.map(|r| r.to_string())
}

/// One canvas in a listing.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CanvasSummary {
    /// Vault-relative path.
    pub path: String,
    /// File name without `.canvas`.
    pub name: String,
    /// Last modification, Unix milliseconds.
    pub modified: i64,
    /// Number of nodes; `null` when the file could not be read as a canvas.
    pub node_count: Option<usize>,
    /// Number of edges; `null` when the file could not be read as a canvas.
    pub edge_count: Option<usize>,
    /// Why the file could not be read, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `canvas list`.
#[derive(Clone, Debug, Serialize)]
pub struct ListResult {
    /// The canvases, sorted by path.
    pub canvases: Vec<CanvasSummary>,
    /// How many there are.
    pub total: usize,
}

/// Lists the canvases under `folder` (the whole vault when `None`).
pub fn list(vault: &Vault, folder: Option<&str>, recursive: bool) -> Result<ListResult> {
    // Only surrounding spaces go: a leading '/' stays so that the vault refuses the path as
    // absolute instead of reading it as a folder of the vault.
    let folder = match folder.map(str::trim) {
        None | Some("") | Some(".") | Some("./") => None,
        Some(f) => Some(vault.resolve(f)?),
    };
    let files = vault.list_files(folder.as_ref(), recursive, "canvas")?;
    let mut canvases = Vec::with_capacity(files.len());
    for f in files {
        let name = f
            .path
            .rsplit('/')
            .next()
            .unwrap_or(&f.path)
            .trim_end_matches(".canvas")
            .to_owned();
        let counted = vault
            .resolve(&f.path)
            .map_err(CanvasOpError::from)
            .and_then(|p| load(vault, &p));
        let (node_count, edge_count, error) = match counted {
            Ok((c, _)) => (Some(c.nodes().len()), Some(c.edges().len()), None),
            Err(e) => (None, None, Some(e.to_string())),
        };
        canvases.push(CanvasSummary {
            path: f.path,
            name,
            modified: f.modified,
            node_count,
            edge_count,
            error,
        });
    }
    Ok(ListResult {
        total: canvases.len(),
        canvases,
    })
}

/// `canvas read`: the whole canvas with its revision.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadResult {
    /// Vault-relative path.
    pub path: String,
    /// Pass this back as `rev` to make a write fail if the file changed meanwhile.
    pub rev: String,
    /// Nodes in file (z-) order.
    pub nodes: Vec<Map>,
    /// Edges in file order.
    pub edges: Vec<Map>,
    /// Number of nodes.
    pub node_count: usize,
    /// Number of edges.
    pub edge_count: usize,
}

/// Reads a canvas.
pub fn read(vault: &Vault, path: &str) -> Result<ReadResult> {
    let p = canvas_path(vault, path, false)?;
    let (canvas, rev) = load(vault, &p)?;
    Ok(read_result(&p, &canvas, rev))
}

/// [`read`] for a caller that keeps earlier results (the MCP server): once the file's bytes
/// are read, `unchanged(path, rev)` is asked whether the result it holds for that vault path
/// and revision is still wanted; if so, parsing is skipped and `Ok(None)` returned. The rev
/// is the hash of the bytes just read, so a kept result can never be stale.
pub fn read_unless(
    vault: &Vault,
    path: &str,
    unchanged: impl FnOnce(&str, Rev) -> bool,
) -> Result<Option<ReadResult>> {
    let p = canvas_path(vault, path, false)?;
    let (bytes, rev) = vault.read(&p).map_err(not_found_as_canvas(&p))?;
    if unchanged(p.as_str(), rev) {
        return Ok(None);
    }
    let canvas = parse_canvas(&p, &bytes)?;
    Ok(Some(read_result(&p, &canvas, rev)))
}

fn read_result(p: &VaultPath, canvas: &Canvas, rev: Rev) -> ReadResult {
    ReadResult {
        path: p.as_str().to_owned(),
        rev: rev.to_string(),
        node_count: canvas.nodes().len(),
        edge_count: canvas.edges().len(),
        nodes: canvas.nodes().iter().map(|n| n.fields().clone()).collect(),
        edges: canvas.edges().iter().map(|e| e.fields().clone()).collect(),
    }
}

/// `canvas find`: the nodes matching every given criterion.
#[derive(Clone, Debug, Serialize)]
pub struct FindResult {
    /// Vault-relative path.
    pub path: String,
    /// The file's revision.
    pub rev: String,
    /// Matching nodes, in file order.
    pub nodes: Vec<Map>,
    /// How many matched.
    pub total: usize,
}

/// Finds nodes by type, colour, group (id or label) and text (case-insensitive substring of
/// the text, file path, URL or label).
pub fn find(vault: &Vault, path: &str, query: &NodeQuery<'_>) -> Result<FindResult> {
    let p = canvas_path(vault, path, false)?;
    let (canvas, rev) = load(vault, &p)?;
    let nodes: Vec<Map> = canvas
        .find_nodes(query)
        .into_iter()
        .map(|n| n.fields().clone())
        .collect();
    Ok(FindResult {
        path: p.as_str().to_owned(),
        rev: rev.to_string(),
        total: nodes.len(),
        nodes,
    })
}

/// `canvas validate`.
#[derive(Clone, Debug, Serialize)]
pub struct ValidateResult {
    /// Vault-relative path.
    pub path: String,
    /// The file's revision.
    pub rev: String,
    /// True when there are no errors (warnings allowed).
    pub valid: bool,
    /// Broken spec rules.
    pub errors: Vec<Finding>,
    /// Deviations that are kept as written.
    pub warnings: Vec<Finding>,
}

/// Validates a canvas file.
pub fn validate(vault: &Vault, path: &str) -> Result<ValidateResult> {
    let p = canvas_path(vault, path, false)?;
    let (canvas, rev) = load(vault, &p)?;
    let report = validate_canvas(&canvas);
    Ok(ValidateResult {
        path: p.as_str().to_owned(),
        rev: rev.to_string(),
        valid: report.is_valid(),
        errors: report.errors,
        warnings: report.warnings,
    })
}

/// Result of a whole-canvas write (`write`, `update`, `fmt`).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WriteResult {
    /// Vault-relative path.
    pub path: String,
    /// The new revision.
    pub rev: Option<String>,
    /// Number of nodes now.
    pub node_count: usize,
    /// Number of edges now.
    pub edge_count: usize,
    /// False when nothing needed to change (only `fmt`).
    pub changed: bool,
}

/// The arrays of `{"nodes":[...],"edges":[...]}`, each optional.
type Arrays = (Option<Vec<Map>>, Option<Vec<Map>>);

/// Splits `{"nodes":[...],"edges":[...]}` into its arrays; anything else is refused.
fn nodes_and_edges(data: Value) -> Result<Arrays> {
    let Value::Object(map) = data else {
        return Err(CanvasOpError::BadInput(format!(
            "canvas data must be a JSON object with \"nodes\" and/or \"edges\", it is {}",
            data.type_name()
        )));
    };
    let mut nodes = None;
    let mut edges = None;
    for (k, v) in map {
        match k.as_str() {
            "nodes" => nodes = Some(easel_canvas::expect_objects(v, "nodes")),
            "edges" => edges = Some(easel_canvas::expect_objects(v, "edges")),
            other => {
                return Err(CanvasOpError::BadInput(format!(
                    "unexpected key \"{other}\" in canvas data; only \"nodes\" and \"edges\" are accepted"
                )));
            }
        }
    }
    let bad = |e: CanvasError| CanvasOpError::BadInput(e.to_string());
    Ok((
        nodes.transpose().map_err(bad)?,
        edges.transpose().map_err(bad)?,
    ))
}

/// Creates a new canvas from `{"nodes":[...],"edges":[...]}`; ids, sizes, positions and
/// edge sides are filled in where missing. Fails if the file exists.
pub fn write(vault: &Vault, actor: &Actor, path: &str, data: Value) -> Result<WriteResult> {
    let p = canvas_path(vault, path, true)?;
    let (nodes, edges) = nodes_and_edges(data)?;
    let mut canvas = Canvas::new();
    canvas
        .replace(
            Some(nodes.unwrap_or_default()),
            Some(edges.unwrap_or_default()),
            &mut IdGen::new(),
        )
        .map_err(canvas_err(&p))?;
    let bytes = canvas.to_obsidian_string();
    let change = actor.change(
        "canvas.write",
        format!(
            "create {} with {} nodes and {} edges",
            p.as_str(),
            canvas.nodes().len(),
            canvas.edges().len()
        ),
    );
    let written = vault
        .write(&p, bytes.as_bytes(), Expect::Absent, &change)
        .map_err(|e| match e {
            VaultError::AlreadyExists { .. } => CanvasOpError::Exists {
                path: p.as_str().to_owned(),
            },
            other => other.into(),
        })?;
    Ok(WriteResult {
        path: p.as_str().to_owned(),
        rev: rev_after(&written),
        node_count: canvas.nodes().len(),
        edge_count: canvas.edges().len(),
        changed: true,
    })
}

/// Replaces all nodes and/or all edges of an existing canvas (the read → modify → update
/// workflow). With `rev`, fails with a conflict if the file changed since it was read.
pub fn update(
    vault: &Vault,
    actor: &Actor,
    path: &str,
    data: Value,
    rev: Option<Rev>,
) -> Result<WriteResult> {
    let p = canvas_path(vault, path, true)?;
    let (nodes, edges) = nodes_and_edges(data)?;
    if nodes.is_none() && edges.is_none() {
        return Err(CanvasOpError::BadInput(
            "nothing to update: give \"nodes\", \"edges\" or both".into(),
        ));
    }
    let what = match (&nodes, &edges) {
        (Some(n), Some(e)) => format!("{} nodes and {} edges", n.len(), e.len()),
        (Some(n), None) => format!("{} nodes", n.len()),
        (None, Some(e)) => format!("{} edges", e.len()),
        (None, None) => String::new(),
    };
    let change = actor.change("canvas.update", format!("replace {what} of {}", p.as_str()));
    let (written, counts) = edit(vault, &p, rev, &change, |c| {
        c.replace(nodes.clone(), edges.clone(), &mut IdGen::new())
            .map_err(canvas_err(&p))?;
        Ok((c.nodes().len(), c.edges().len()))
    })?;
    Ok(WriteResult {
        path: p.as_str().to_owned(),
        rev: rev_after(&written),
        node_count: counts.0,
        edge_count: counts.1,
        changed: true,
    })
}

/// Rewrites a canvas in Obsidian's layout. Writes nothing when it already is.
pub fn fmt(vault: &Vault, actor: &Actor, path: &str) -> Result<WriteResult> {
    let p = canvas_path(vault, path, true)?;
    let (bytes, rev) = vault.read(&p).map_err(not_found_as_canvas(&p))?;
    let canvas = parse_canvas(&p, &bytes)?;
    let formatted = canvas.to_obsidian_string();
    let mut result = WriteResult {
        path: p.as_str().to_owned(),
        rev: Some(rev.to_string()),
        node_count: canvas.nodes().len(),
        edge_count: canvas.edges().len(),
        changed: false,
    };
    if formatted.as_bytes() == bytes.as_slice() {
        return Ok(result);
    }
    let change = actor.change(
        "canvas.fmt",
        format!("format {} in Obsidian's layout", p.as_str()),
    );
    let written = vault.write(&p, formatted.as_bytes(), Expect::Rev(rev), &change)?;
    result.rev = rev_after(&written);
    result.changed = true;
    Ok(result)
}

/// Result of an operation on one node or edge.
#[derive(Clone, Debug, Serialize)]
pub struct ItemResult {
    /// Vault-relative path.
    pub path: String,
    /// The new revision.
    pub rev: Option<String>,
    /// The node after the change (node operations).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<Map>,
    /// The edge after the change (edge operations).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edge: Option<Map>,
    /// Ids of edges removed along with a node.
    #[serde(rename = "removedEdges", skip_serializing_if = "Option::is_none")]
    pub removed_edges: Option<Vec<String>>,
}

impl ItemResult {
    fn node(p: &VaultPath, written: &Written, node: Map) -> ItemResult {
        ItemResult {
            path: p.as_str().to_owned(),
            rev: rev_after(written),
            node: Some(node),
            edge: None,
            removed_edges: None,
        }
    }

    fn edge(p: &VaultPath, written: &Written, edge: Map) -> ItemResult {
        ItemResult {
            path: p.as_str().to_owned(),
            rev: rev_after(written),
            node: None,
            edge: Some(edge),
            removed_edges: None,
        }
    }
}

fn short(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}

/// Adds a node; `id`, size and position are filled in when missing.
pub fn add_node(
    vault: &Vault,
    actor: &Actor,
    path: &str,
    node: Map,
    rev: Option<Rev>,
) -> Result<ItemResult> {
    let p = canvas_path(vault, path, true)?;
    let kind = node
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_owned();
    let change = actor.change(
        "canvas.add_node",
        format!("add {kind} node to {}", p.as_str()),
    );
    let (written, node) = edit(vault, &p, rev, &change, |c| {
        let n = c
            .add_node(node.clone(), &mut IdGen::new())
            .map_err(canvas_err(&p))?;
        Ok(n.fields().clone())
    })?;
    Ok(ItemResult::node(&p, &written, node))
}

/// Applies a JSON merge patch to one node.
pub fn update_node(
    vault: &Vault,
    actor: &Actor,
    path: &str,
    id: &str,
    patch: Map,
    rev: Option<Rev>,
) -> Result<ItemResult> {
    let p = canvas_path(vault, path, true)?;
    let keys: Vec<&str> = patch.keys().collect();
    let change = actor.change(
        "canvas.update_node",
        format!(
            "update {} of node {} in {}",
            keys.join(", "),
            short(id),
            p.as_str()
        ),
    );
    let (written, node) = edit(vault, &p, rev, &change, |c| {
        let n = c.update_node(id, &patch).map_err(canvas_err(&p))?;
        Ok(n.fields().clone())
    })?;
    Ok(ItemResult::node(&p, &written, node))
}

/// Removes a node and the edges that touch it.
pub fn remove_node(
    vault: &Vault,
    actor: &Actor,
    path: &str,
    id: &str,
    rev: Option<Rev>,
) -> Result<ItemResult> {
    let p = canvas_path(vault, path, true)?;
    let change = actor.change(
        "canvas.remove_node",
        format!("remove node {} from {}", short(id), p.as_str()),
    );
    let (written, (node, edges)) = edit(vault, &p, rev, &change, |c| {
        let (n, e) = c.remove_node(id).map_err(canvas_err(&p))?;
        Ok((n.into_map(), e.iter().map(|e| e.id().to_owned()).collect()))
    })?;
    Ok(ItemResult {
        removed_edges: Some(edges),
        ..ItemResult::node(&p, &written, node)
    })
}

/// Adds an edge; `id` and missing sides (from the nodes' geometry) are filled in.
pub fn add_edge(
    vault: &Vault,
    actor: &Actor,
    path: &str,
    edge: Map,
    rev: Option<Rev>,
) -> Result<ItemResult> {
    let p = canvas_path(vault, path, true)?;
    let end = |k: &str| {
        edge.get(k)
            .and_then(Value::as_str)
            .map(short)
            .unwrap_or("?")
            .to_owned()
    };
    let change = actor.change(
        "canvas.add_edge",
        format!(
            "connect {} to {} in {}",
            end("fromNode"),
            end("toNode"),
            p.as_str()
        ),
    );
    let (written, edge) = edit(vault, &p, rev, &change, |c| {
        let e = c
            .add_edge(edge.clone(), &mut IdGen::new())
            .map_err(canvas_err(&p))?;
        Ok(e.fields().clone())
    })?;
    Ok(ItemResult::edge(&p, &written, edge))
}

/// Applies a JSON merge patch to one edge.
pub fn update_edge(
    vault: &Vault,
    actor: &Actor,
    path: &str,
    id: &str,
    patch: Map,
    rev: Option<Rev>,
) -> Result<ItemResult> {
    let p = canvas_path(vault, path, true)?;
    let change = actor.change(
        "canvas.update_edge",
        format!("update edge {} in {}", short(id), p.as_str()),
    );
    let (written, edge) = edit(vault, &p, rev, &change, |c| {
        let e = c.update_edge(id, &patch).map_err(canvas_err(&p))?;
        Ok(e.fields().clone())
    })?;
    Ok(ItemResult::edge(&p, &written, edge))
}

/// Removes one edge.
pub fn remove_edge(
    vault: &Vault,
    actor: &Actor,
    path: &str,
    id: &str,
    rev: Option<Rev>,
) -> Result<ItemResult> {
    let p = canvas_path(vault, path, true)?;
    let change = actor.change(
        "canvas.remove_edge",
        format!("remove edge {} from {}", short(id), p.as_str()),
    );
    let (written, edge) = edit(vault, &p, rev, &change, |c| {
        Ok(c.remove_edge(id).map_err(canvas_err(&p))?.into_map())
    })?;
    Ok(ItemResult::edge(&p, &written, edge))
}
