//! `easel canvas …`: each verb builds the typed input of one operation of `easel_ops::canvas`,
//! runs it, and prints its output (as JSON with `--json`, the JSON MCP returns).

use crate::cli::{AddEdgeArgs, AddNodeArgs, CanvasCmd};
use crate::failure::UsageError;
use crate::input;
use crate::output::{Output, preview};
use easel_canvas::json::{Map, Value};
use easel_ops::canvas::{self as ops, CanvasArrays};
use easel_ops::{Actor, Ctx, Op};
use easel_vault::canvas::ItemResult;
use easel_vault::{Vault, printable};
use serde_json::Number;

/// "1 node", "2 nodes".
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

pub fn run(vault: &Vault, out: &Output, cmd: CanvasCmd) -> anyhow::Result<()> {
    let ctx = Ctx::new(vault.clone(), Actor::cli());
    match cmd {
        CanvasCmd::List {
            folder,
            no_recursive,
        } => {
            let input = ops::ListInput {
                folder,
                recursive: Some(!no_recursive),
            };
            let r = ops::CanvasList.run(&ctx, input)?;
            out.emit(&r, |r| {
                // Names come from disk: escaped, so a crafted name cannot print lines of its own.
                for c in &r.canvases {
                    let path = printable(&c.path);
                    match (&c.error, c.node_count, c.edge_count) {
                        (None, Some(n), Some(e)) => {
                            outln!("{path}  ({}, {})", count(n, "node"), count(e, "edge"))
                        }
                        (err, _, _) => outln!(
                            "{path}  (unreadable: {})",
                            printable(err.as_deref().unwrap_or("unknown problem"))
                        ),
                    }
                }
                outln!("{} canvas{}", r.total, if r.total == 1 { "" } else { "es" });
            })
        }
        CanvasCmd::Read { path } => {
            let r = ops::CanvasRead::default().run(&ctx, ops::PathInput { path })?;
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
            let input = ops::WriteInput {
                path,
                data: Some(CanvasArrays::from_value(input::read_data(&data.data)?)?),
                nodes: None,
                edges: None,
            };
            let r = ops::CanvasWrite.run(&ctx, input)?;
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
            let input = ops::UpdateInput {
                path,
                data: Some(CanvasArrays::from_value(input::read_data(&data.data)?)?),
                nodes: None,
                edges: None,
                rev: rev.rev,
            };
            let r = ops::CanvasUpdate.run(&ctx, input)?;
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
            let r = ops::CanvasAddNode.run(&ctx, node_input(args))?;
            emit_item(out, &r, "added")
        }
        CanvasCmd::UpdateNode {
            path,
            id,
            data,
            rev,
        } => {
            let data = Value::Object(input::read_patch(&data)?);
            let input = ops::PatchInput {
                path,
                id,
                data,
                rev: rev.rev,
            };
            let r = ops::CanvasUpdateNode.run(&ctx, input)?;
            emit_item(out, &r, "updated")
        }
        CanvasCmd::RemoveNode { path, id, rev } => {
            let input = ops::ItemInput {
                path,
                id,
                rev: rev.rev,
            };
            let r = ops::CanvasRemoveNode.run(&ctx, input)?;
            emit_item(out, &r, "removed")
        }
        CanvasCmd::AddEdge(args) => {
            let r = ops::CanvasAddEdge.run(&ctx, edge_input(args))?;
            emit_item(out, &r, "added")
        }
        CanvasCmd::UpdateEdge {
            path,
            id,
            data,
            rev,
        } => {
            let data = Value::Object(input::read_patch(&data)?);
            let input = ops::PatchInput {
                path,
                id,
                data,
                rev: rev.rev,
            };
            let r = ops::CanvasUpdateEdge.run(&ctx, input)?;
            emit_item(out, &r, "updated")
        }
        CanvasCmd::RemoveEdge { path, id, rev } => {
            let input = ops::ItemInput {
                path,
                id,
                rev: rev.rev,
            };
            let r = ops::CanvasRemoveEdge.run(&ctx, input)?;
            emit_item(out, &r, "removed")
        }
        CanvasCmd::Find {
            path,
            kind,
            color,
            group,
            text,
        } => {
            let input = ops::FindInput {
                path,
                kind: kind.map(|k| k.node_type()),
                color,
                group,
                text,
            };
            let r = ops::CanvasFind.run(&ctx, input)?;
            out.emit(&r, |r| {
                for n in &r.nodes {
                    outln!("{}", describe_node(n));
                }
                outln!("{} in {}", count(r.total, "matching node"), r.path);
            })
        }
        CanvasCmd::Validate { path } => {
            let r = ops::CanvasValidate.run(&ctx, ops::PathInput { path })?;
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
                "fix the errors listed above (`canvas_update_node` changes one node); warnings can stay",
            )
            .into())
        }
        CanvasCmd::Fmt { path } => {
            let r = ops::CanvasFmt.run(&ctx, ops::PathInput { path })?;
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
        CanvasCmd::Layout(a) => crate::cmd::diagram::layout(&ctx, out, a),
        CanvasCmd::Import(a) => crate::cmd::diagram::import(&ctx, out, a),
        CanvasCmd::Export(a) => crate::cmd::diagram::export(&ctx, out, a),
        CanvasCmd::Batch(a) => crate::cmd::diagram::batch(&ctx, out, a),
        CanvasCmd::New(a) => crate::cmd::diagram::new(&ctx, out, a),
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

/// A flag's number as JSON: whole numbers without a fraction (`-2000`, not `-2000.0`), as
/// Obsidian writes coordinates.
fn number(v: Option<f64>) -> Option<Number> {
    v.and_then(|v| {
        if v.fract() == 0.0 && v.abs() < 1e15 {
            // Exact: the value is whole and far inside i64's range.
            Some(Number::from(v as i64))
        } else {
            Number::from_f64(v)
        }
    })
}

fn node_input(a: AddNodeArgs) -> ops::AddNodeInput {
    ops::AddNodeInput {
        path: a.path,
        kind: a.kind.node_type(),
        text: a.text,
        file: a.file,
        subpath: a.subpath,
        url: a.url,
        label: a.label,
        x: number(a.x),
        y: number(a.y),
        width: number(a.width),
        height: number(a.height),
        color: a.color,
        id: a.id,
        rev: a.rev.rev,
    }
}

fn edge_input(a: AddEdgeArgs) -> ops::AddEdgeInput {
    ops::AddEdgeInput {
        path: a.path,
        from: a.from,
        to: a.to,
        from_side: a.from_side.map(|s| s.side()),
        to_side: a.to_side.map(|s| s.side()),
        from_end: a.from_end.map(|e| e.end()),
        to_end: a.to_end.map(|e| e.end()),
        label: a.label,
        color: a.color,
        id: a.id,
        rev: a.rev.rev,
    }
}

fn field<'a>(m: &'a Map, key: &str) -> &'a str {
    m.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A text node as a person reads it: the first line of its body, with the role in front when
/// the node is a conversation turn (an answer's frontmatter says nothing about its content).
fn text_preview(text: &str) -> String {
    let note = easel_vault::Note::parse(text);
    let body = preview(note.body(), 60);
    match note.get("role").and_then(|r| r.as_str()) {
        Some(role) => format!("{}: {body}", preview(role, 12)),
        None => body,
    }
}

fn describe_node(n: &Map) -> String {
    let kind = field(n, "type");
    let what = match kind {
        "text" => text_preview(field(n, "text")),
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
    use easel_render::ops::{RenderOutput, check_scale};
    let scale = check_scale(scale)?;
    let format = match file {
        None => Format::Svg,
        Some(f) => Format::from_file_name(&f.to_string_lossy()).ok_or_else(|| {
            UsageError::invalid(
                format!("cannot tell the format of {}", f.display()),
                "end the --out file name in .png or .svg",
            )
        })?,
    };
    // The shell may write the picture anywhere the user can (it is output, not vault content),
    // so it draws with the operation's own function and writes the file itself; the JSON is
    // `canvas_render`'s.
    let r = easel_render::render_canvas_file(vault, path, format, scale)?;
    let bytes = r.bytes.len();
    let Some(f) = file else {
        if out.is_json() {
            let svg = String::from_utf8_lossy(&r.bytes).into_owned();
            let shown = RenderOutput {
                rendered: r,
                out: None,
                bytes,
                svg: Some(svg),
            };
            return out.emit(&shown, |_| {});
        }
        use std::io::Write;
        std::io::stdout().write_all(&r.bytes)?;
        return Ok(());
    };
    crate::output::write_file_atomically(f, &r.bytes)?;
    let shown = RenderOutput {
        rendered: r,
        out: Some(f.display().to_string()),
        bytes,
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

#[cfg(test)]
mod tests {
    use super::text_preview;

    #[test]
    fn an_answer_is_previewed_by_its_text_not_its_frontmatter() {
        let answer = "---\nrole: assistant\nmodel: local:smollm2\ncreated: 2026-11-26T10:00:00Z\n---\n\nThree things matter here.\nMore.";
        assert_eq!(text_preview(answer), "assistant: Three things matter here.");
        assert_eq!(text_preview("Plain note\nsecond"), "Plain note");
        // Frontmatter without a role is not a turn; its body is what the node says.
        assert_eq!(text_preview("---\ntags: [a]\n---\nBody"), "Body");
    }

    #[test]
    fn control_characters_cannot_drive_the_terminal() {
        assert_eq!(text_preview("a\u{1b}[2Jb\rc"), "a\u{FFFD}[2Jb\u{FFFD}c");
    }
}
