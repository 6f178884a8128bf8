//! The `/ask` marker: a text node whose last line is exactly `/ask` asks for an answer, so
//! people can start a conversation turn from Obsidian with no plugin.

use easel_canvas::json::{Map, Value};
use easel_canvas::{Canvas, Node, NodeKind};
use easel_vault::canvas::{Actor, CanvasOpError, canvas_path};
use easel_vault::{Change, Expect, Note, Vault};

/// The marker line.
pub const ASK_MARKER: &str = "/ask";

/// The text without its trailing `/ask` line, or `None` when the last line is not the marker.
/// Trailing blank lines and spaces around the marker are tolerated, since editors add them.
pub fn strip_ask_marker(text: &str) -> Option<String> {
    let trimmed = text.trim_end();
    let (before, last) = match trimmed.rfind('\n') {
        Some(i) => (&trimmed[..i], &trimmed[i + 1..]),
        None => ("", trimmed),
    };
    (last.trim() == ASK_MARKER).then(|| before.trim_end().to_owned())
}

/// Whether a node asks for an answer. Answers and error cards never do, even when a model
/// ended its answer with `/ask`: otherwise one answer could trigger the next forever.
pub fn asks(node: &Node) -> bool {
    if !matches!(node.kind(), NodeKind::Text) {
        return false;
    }
    let Some(text) = node.text() else {
        return false;
    };
    if strip_ask_marker(text).is_none() {
        return false;
    }
    let role = Note::parse(text)
        .get("role")
        .and_then(|r| r.as_str().map(str::to_ascii_lowercase));
    !matches!(role.as_deref(), Some("assistant" | "error"))
}

/// The ids of the nodes that ask for an answer, in node order.
pub fn ask_markers(canvas: &Canvas) -> Vec<String> {
    canvas
        .nodes()
        .iter()
        .filter(|n| asks(n))
        .map(|n| n.id().to_owned())
        .collect()
}

/// Removes the marker from `node`, under the canvas's lock. Returns `false`, writing nothing,
/// when the node no longer asks (someone else took it, or the marker was deleted): so of two
/// watchers only one answers.
pub fn take_ask(
    vault: &Vault,
    actor: &Actor,
    canvas: &str,
    node: &str,
) -> Result<bool, CanvasOpError> {
    let path = canvas_path(vault, canvas, true)?;
    let mut change = Change::new(
        actor.name.clone(),
        "thread.ask",
        format!("take the /ask marker of node {node} in {}", path.as_str()),
    );
    if let Some(run) = &actor.run {
        change = change.with_run(run.clone());
    }
    // Returning an error from the closure is how `modify` writes nothing.
    enum Taken {
        No,
        Failed(CanvasOpError),
    }
    impl From<easel_vault::VaultError> for Taken {
        fn from(e: easel_vault::VaultError) -> Taken {
            Taken::Failed(e.into())
        }
    }
    let op = |source| {
        Taken::Failed(CanvasOpError::Canvas {
            path: path.as_str().to_owned(),
            source,
        })
    };
    let result = vault.modify(&path, Expect::Present, &change, |bytes| {
        let bytes = bytes.ok_or_else(|| {
            Taken::Failed(CanvasOpError::NotFound {
                path: path.as_str().to_owned(),
            })
        })?;
        let text = std::str::from_utf8(bytes).map_err(|_| {
            Taken::Failed(CanvasOpError::NotText {
                path: path.as_str().to_owned(),
            })
        })?;
        let mut c = Canvas::parse(text).map_err(op)?;
        let stripped = c
            .node(node)
            .filter(|n| asks(n))
            .and_then(Node::text)
            .and_then(strip_ask_marker)
            .ok_or(Taken::No)?;
        let mut patch = Map::new();
        patch.insert("text", Value::from(stripped));
        c.update_node(node, &patch).map_err(op)?;
        Ok((c.to_obsidian_string().into_bytes(), ()))
    });
    match result {
        Ok(_) => Ok(true),
        Err(Taken::No) => Ok(false),
        Err(Taken::Failed(e)) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marker_is_the_whole_last_line() {
        assert_eq!(
            strip_ask_marker("What is 2+2?\n/ask").as_deref(),
            Some("What is 2+2?")
        );
        assert_eq!(strip_ask_marker("Q\n\n/ask  \n\n").as_deref(), Some("Q"));
        assert_eq!(strip_ask_marker("/ask").as_deref(), Some(""));
        assert_eq!(strip_ask_marker("Q\r\n/ask\r\n").as_deref(), Some("Q"));
        assert_eq!(strip_ask_marker("Q /ask"), None);
        assert_eq!(strip_ask_marker("/ask\nQ"), None);
        assert_eq!(strip_ask_marker("Q\n/asking"), None);
        assert_eq!(strip_ask_marker("Q\n`/ask`"), None);
    }

    #[test]
    fn only_text_nodes_that_are_not_answers_ask() {
        let c = Canvas::parse(
            r#"{"nodes":[
            {"id":"q","type":"text","text":"Why?\n/ask","x":0,"y":0,"width":250,"height":60},
            {"id":"a","type":"text","text":"---\nrole: Assistant\n---\n\nBecause.\n/ask","x":0,"y":100,"width":250,"height":60},
            {"id":"e","type":"text","text":"---\nrole: error\n---\n\n/ask","x":0,"y":200,"width":250,"height":60},
            {"id":"s","type":"text","text":"---\nrole: system\n---\nBe brief.\n/ask","x":0,"y":300,"width":250,"height":60},
            {"id":"g","type":"group","label":"/ask","x":0,"y":400,"width":250,"height":60},
            {"id":"n","type":"text","text":"no marker","x":0,"y":500,"width":250,"height":60}]}"#,
        )
        .unwrap();
        assert_eq!(ask_markers(&c), ["q", "s"]);
    }
}
