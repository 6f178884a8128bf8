//! `easel canvas …`: thin adapters over `easel_vault::canvas`.

use super::parse_rev;
use crate::cli::{AddEdgeArgs, AddNodeArgs, CanvasCmd};
use crate::failure::UsageError;
use crate::input;
use crate::output::{Output, preview};
use easel_canvas::json::{Map, Value};
use easel_vault::Vault;
use easel_vault::canvas::{self as ops, Actor, ItemResult};

/// "1 node", "2 nodes".
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

pub fn run(vault: &Vault, out: &Output, cmd: CanvasCmd) -> anyhow::Result<()> {
    let actor = Actor::new("cli");
    match cmd {
        CanvasCmd::List {
            folder,
            no_recursive,
        } => {
            let r = ops::list(vault, folder.as_deref(), !no_recursive)?;
            out.emit(&r, |r| {
                for c in &r.canvases {
                    match (&c.error, c.node_count, c.edge_count) {
                        (None, Some(n), Some(e)) => {
                            outln!("{}  ({}, {})", c.path, count(n, "node"), count(e, "edge"))
                        }
                        (err, _, _) => outln!(
                            "{}  (unreadable: {})",
                            c.path,
                            err.as_deref().unwrap_or("unknown problem")
                        ),
                    }
                }
                outln!("{} canvas{}", r.total, if r.total == 1 { "" } else { "es" });
            })
        }
        CanvasCmd::Read { path } => {
            let r = ops::read(vault, &path)?;
            out.emit(&r, |r| {
                outln!(
                    "{}  rev {}  ({} nodes, {} edges)",
                    r.path,
                    r.rev,
                    r.node_count,
                    r.edge_count
                );
                for n in &r.nodes {
                    outln!("  node {}", describe_node(n));
                }
                for e in &r.edges {
                    outln!("  edge {}", describe_edge(e));
                }
            })
        }
        CanvasCmd::Write { path, data } => {
            let r = ops::write(vault, &actor, &path, input::read_data(&data.data)?)?;
            out.emit(&r, |r| {
                outln!(
                    "created {} ({}, {}), rev {}",
                    r.path,
                    count(r.node_count, "node"),
                    count(r.edge_count, "edge"),
                    r.rev.as_deref().unwrap_or("-")
                )
            })
        }
        CanvasCmd::Update { path, data, rev } => {
            let rev = parse_rev(rev.rev.as_deref())?;
            let r = ops::update(vault, &actor, &path, input::read_data(&data.data)?, rev)?;
            out.emit(&r, |r| {
                outln!(
                    "updated {} ({}, {}), rev {}",
                    r.path,
                    count(r.node_count, "node"),
                    count(r.edge_count, "edge"),
                    r.rev.as_deref().unwrap_or("-")
                )
            })
        }
        CanvasCmd::AddNode(args) => {
            let rev = parse_rev(args.rev.rev.as_deref())?;
            let r = ops::add_node(vault, &actor, &args.path.clone(), node_from_args(args), rev)?;
            emit_item(out, &r, "added")
        }
        CanvasCmd::UpdateNode {
            path,
            id,
            data,
            rev,
        } => {
            let rev = parse_rev(rev.rev.as_deref())?;
            let r = ops::update_node(vault, &actor, &path, &id, input::read_patch(&data)?, rev)?;
            emit_item(out, &r, "updated")
        }
        CanvasCmd::RemoveNode { path, id, rev } => {
            let rev = parse_rev(rev.rev.as_deref())?;
            let r = ops::remove_node(vault, &actor, &path, &id, rev)?;
            emit_item(out, &r, "removed")
        }
        CanvasCmd::AddEdge(args) => {
            let rev = parse_rev(args.rev.rev.as_deref())?;
            let r = ops::add_edge(vault, &actor, &args.path.clone(), edge_from_args(args), rev)?;
            emit_item(out, &r, "added")
        }
        CanvasCmd::UpdateEdge {
            path,
            id,
            data,
            rev,
        } => {
            let rev = parse_rev(rev.rev.as_deref())?;
            let r = ops::update_edge(vault, &actor, &path, &id, input::read_patch(&data)?, rev)?;
            emit_item(out, &r, "updated")
        }
        CanvasCmd::RemoveEdge { path, id, rev } => {
            let rev = parse_rev(rev.rev.as_deref())?;
            let r = ops::remove_edge(vault, &actor, &path, &id, rev)?;
            emit_item(out, &r, "removed")
        }
        CanvasCmd::Find {
            path,
            kind,
            color,
            group,
            text,
        } => {
            let query = easel_canvas::NodeQuery {
                kind: kind.map(|k| k.as_str()),
                color: color.as_deref(),
                group: group.as_deref(),
                text: text.as_deref(),
            };
            let r = ops::find(vault, &path, &query)?;
            out.emit(&r, |r| {
                for n in &r.nodes {
                    outln!("{}", describe_node(n));
                }
                outln!("{} in {}", count(r.total, "matching node"), r.path);
            })
        }
        CanvasCmd::Validate { path } => {
            let r = ops::validate(vault, &path)?;
            out.emit(&r, |r| {
                for f in &r.errors {
                    outln!("error: {}", f.message);
                }
                for f in &r.warnings {
                    outln!("warning: {}", f.message);
                }
                outln!(
                    "{}: {} ({}, {})",
                    r.path,
                    if r.valid { "valid" } else { "invalid" },
                    count(r.errors.len(), "error"),
                    count(r.warnings.len(), "warning")
                );
            })?;
            if r.valid {
                return Ok(());
            }
            Err(crate::failure::UsageError::invalid(
                format!("{} breaks JSON Canvas 1.0 in {} place{}", r.path, r.errors.len(), if r.errors.len() == 1 { "" } else { "s" }),
                "fix the errors listed above ('easel canvas update-node' changes one node); warnings can stay",
            )
            .into())
        }
        CanvasCmd::Fmt { path } => {
            let r = ops::fmt(vault, &actor, &path)?;
            out.emit(&r, |r| {
                if r.changed {
                    outln!("formatted {} in Obsidian's layout", r.path);
                } else {
                    outln!("{} is already in Obsidian's layout", r.path);
                }
            })
        }
        CanvasCmd::Render {
            path,
            out: file,
            scale,
        } => render(vault, out, &path, file.as_deref(), scale),
    }
}

/// The item goes to stdout (so scripts can capture it); the summary goes to stderr.
fn emit_item(out: &Output, r: &ItemResult, verb: &str) -> anyhow::Result<()> {
    out.emit(r, |r| {
        let (what, item) = match (&r.node, &r.edge) {
            (Some(n), _) => ("node", n),
            (None, Some(e)) => ("edge", e),
            (None, None) => return,
        };
        outln!("{}", Value::Object(item.clone()).to_json());
        let mut note = format!(
            "{verb} {what} in {}, rev {}",
            r.path,
            r.rev.as_deref().unwrap_or("-")
        );
        if let Some(edges) = r.removed_edges.as_ref().filter(|e| !e.is_empty()) {
            note.push_str(&format!(
                " (and {} attached edge{})",
                edges.len(),
                if edges.len() == 1 { "" } else { "s" }
            ));
        }
        eprintln!("{note}");
    })
}

fn set(m: &mut Map, key: &str, v: Option<Value>) {
    if let Some(v) = v {
        m.insert(key, v);
    }
}

fn node_from_args(a: AddNodeArgs) -> Map {
    let mut m = Map::new();
    set(&mut m, "id", a.id.map(Value::from));
    m.insert("type", Value::from(a.kind.as_str()));
    set(&mut m, "text", a.text.map(Value::from));
    set(&mut m, "file", a.file.map(Value::from));
    set(&mut m, "subpath", a.subpath.map(Value::from));
    set(&mut m, "url", a.url.map(Value::from));
    set(&mut m, "label", a.label.map(Value::from));
    set(&mut m, "x", a.x.map(Value::from));
    set(&mut m, "y", a.y.map(Value::from));
    set(&mut m, "width", a.width.map(Value::from));
    set(&mut m, "height", a.height.map(Value::from));
    set(&mut m, "color", a.color.map(Value::from));
    m
}

fn edge_from_args(a: AddEdgeArgs) -> Map {
    let mut m = Map::new();
    set(&mut m, "id", a.id.map(Value::from));
    m.insert("fromNode", Value::from(a.from));
    set(
        &mut m,
        "fromSide",
        a.from_side.map(|s| Value::from(s.as_str())),
    );
    set(
        &mut m,
        "fromEnd",
        a.from_end.map(|s| Value::from(s.as_str())),
    );
    m.insert("toNode", Value::from(a.to));
    set(&mut m, "toSide", a.to_side.map(|s| Value::from(s.as_str())));
    set(&mut m, "toEnd", a.to_end.map(|s| Value::from(s.as_str())));
    set(&mut m, "color", a.color.map(Value::from));
    set(&mut m, "label", a.label.map(Value::from));
    m
}

fn field<'a>(m: &'a Map, key: &str) -> &'a str {
    m.get(key).and_then(Value::as_str).unwrap_or("")
}

fn describe_node(n: &Map) -> String {
    let kind = field(n, "type");
    let what = match kind {
        "text" => preview(field(n, "text"), 60),
        "file" => format!("{}{}", field(n, "file"), field(n, "subpath")),
        "link" => field(n, "url").to_owned(),
        "group" => field(n, "label").to_owned(),
        _ => String::new(),
    };
    let num = |k: &str| n.get(k).map(|v| v.to_json()).unwrap_or_else(|| "?".into());
    format!(
        "{}  {kind:<5}  at ({}, {}) {}x{}  {what}",
        field(n, "id"),
        num("x"),
        num("y"),
        num("width"),
        num("height")
    )
}

fn describe_edge(e: &Map) -> String {
    let label = field(e, "label");
    format!(
        "{}  {} -> {}{}",
        field(e, "id"),
        field(e, "fromNode"),
        field(e, "toNode"),
        if label.is_empty() {
            String::new()
        } else {
            format!("  \"{label}\"")
        }
    )
}

fn render(
    vault: &Vault,
    out: &Output,
    path: &str,
    file: Option<&std::path::Path>,
    scale: f32,
) -> anyhow::Result<()> {
    use easel_render::Format;
    if !(scale.is_finite() && scale > 0.0 && scale <= 8.0) {
        return Err(UsageError::invalid(
            format!("--scale {scale} is out of range"),
            "give a scale between 0.1 and 8 (1 is the canvas's own size)",
        )
        .into());
    }
    let format = match file {
        None => Format::Svg,
        Some(f) => Format::from_file_name(&f.to_string_lossy()).ok_or_else(|| {
            UsageError::invalid(
                format!("cannot tell the format of {}", f.display()),
                "end the --out file name in .png or .svg",
            )
        })?,
    };
    let r = easel_render::render_canvas_file(vault, path, format, scale)?;
    #[derive(serde::Serialize)]
    struct Shown<'a> {
        #[serde(flatten)]
        rendered: &'a easel_render::Rendered,
        out: Option<String>,
        bytes: usize,
        /// The SVG itself when it was not written to a file.
        #[serde(skip_serializing_if = "Option::is_none")]
        svg: Option<String>,
    }
    let Some(f) = file else {
        if out.is_json() {
            let svg = String::from_utf8_lossy(&r.bytes).into_owned();
            let shown = Shown {
                rendered: &r,
                out: None,
                bytes: r.bytes.len(),
                svg: Some(svg),
            };
            return out.emit(&shown, |_| {});
        }
        use std::io::Write;
        std::io::stdout().write_all(&r.bytes)?;
        return Ok(());
    };
    crate::output::write_file_atomically(f, &r.bytes)?;
    let shown = Shown {
        rendered: &r,
        out: Some(f.display().to_string()),
        bytes: r.bytes.len(),
        svg: None,
    };
    out.emit(&shown, |s| {
        outln!(
            "drew {} as {} ({}×{}, {} bytes) in {}",
            s.rendered.path,
            match s.rendered.format {
                Format::Svg => "SVG",
                Format::Png => "PNG",
            },
            s.rendered.width,
            s.rendered.height,
            s.bytes,
            f.display()
        )
    })
}
