//! What a node says and in whose voice (DESIGN.md section 8.5).

use crate::source::{FileContent, FileProblem, FileSource};
use easel_canvas::{Node, NodeKind};
use easel_vault::Note;
use serde::Serialize;

/// The author of a message: the one role type of every model request. A canvas never holds
/// `Role::Tool`; frontmatter can only say `system`, `user` or `assistant` (section 8.5).
pub use easel_llm::Role;

/// A piece of message content.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    Text(String),
    Image {
        /// The vault path the image came from.
        path: String,
        media_type: String,
        bytes: Vec<u8>,
    },
}

/// Model settings a node's frontmatter may carry (read from the first system node).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Settings {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
}

/// A node's contribution to the conversation.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeContent {
    /// A message: its role and its parts (empty when the node is empty).
    Message {
        role: Role,
        parts: Vec<Part>,
        settings: Settings,
    },
    /// A node that takes no part (groups, error cards, missing files).
    Skip,
}

/// Options that change how content is read.
#[derive(Clone, Copy, Debug)]
pub struct ContentOptions {
    /// Whether the model takes images; otherwise image files are skipped with a warning.
    pub images: bool,
}

/// Splits frontmatter from a text and works out the role. Warnings go to `warn`.
fn role_and_body(
    text: &str,
    what: &str,
    warn: &mut dyn FnMut(String),
) -> (Option<Role>, bool, String, Settings) {
    let note = Note::parse(text);
    let Some(front) = note.frontmatter() else {
        return (
            Some(Role::User),
            false,
            note.body().trim().to_owned(),
            Settings::default(),
        );
    };
    let fields = match front.fields() {
        Ok(f) => f,
        Err(e) => {
            warn(format!(
                "{what}: frontmatter is not valid YAML ({e}); the whole text is sent as a user message"
            ));
            return (
                Some(Role::User),
                false,
                text.trim().to_owned(),
                Settings::default(),
            );
        }
    };
    let mut is_error = false;
    let role = match fields.get("role") {
        None => Role::User,
        Some(serde_json::Value::String(r)) => match r.trim().to_ascii_lowercase().as_str() {
            "system" => Role::System,
            "user" => Role::User,
            "assistant" => Role::Assistant,
            "error" => {
                is_error = true;
                Role::User
            }
            other => {
                warn(format!(
                    "{what}: role '{other}' is not system, user or assistant; using user"
                ));
                Role::User
            }
        },
        Some(other) => {
            warn(format!("{what}: role {other} is not a word; using user"));
            Role::User
        }
    };
    let settings = Settings {
        model: fields
            .get("model")
            .and_then(|v| v.as_str())
            .map(str::to_owned),
        temperature: fields
            .get("temperature")
            .and_then(serde_json::Value::as_f64),
        max_tokens: fields.get("max_tokens").and_then(serde_json::Value::as_u64),
    };
    (
        Some(role),
        is_error,
        note.body().trim().to_owned(),
        settings,
    )
}

/// Reads what `node` contributes.
pub fn node_content(
    node: &Node,
    files: &dyn FileSource,
    options: ContentOptions,
    warn: &mut dyn FnMut(String),
) -> NodeContent {
    let id = node.id();
    let message = |role: Role, parts: Vec<Part>, settings: Settings| NodeContent::Message {
        role,
        parts,
        settings,
    };
    let text_parts = |body: String| {
        if body.is_empty() {
            Vec::new()
        } else {
            vec![Part::Text(body)]
        }
    };
    match node.kind() {
        NodeKind::Text => {
            let what = format!("node {id}");
            let (role, is_error, body, settings) =
                role_and_body(node.text().unwrap_or(""), &what, warn);
            if is_error {
                return NodeContent::Skip;
            }
            message(role.unwrap_or(Role::User), text_parts(body), settings)
        }
        NodeKind::Link => {
            let url = node.url().unwrap_or("");
            message(
                Role::User,
                text_parts(format!("Link: {url}")),
                Settings::default(),
            )
        }
        NodeKind::Group => NodeContent::Skip,
        NodeKind::Other(t) => {
            warn(format!("node {id}: unknown node type '{t}' is skipped"));
            NodeContent::Skip
        }
        NodeKind::File => {
            let path = node.file().unwrap_or("");
            match files.read(path) {
                Err(FileProblem::Missing) => {
                    warn(format!("node {id}: file '{path}' does not exist; skipped"));
                    NodeContent::Skip
                }
                Err(FileProblem::Unreadable(why)) => {
                    warn(format!(
                        "node {id}: file '{path}' cannot be read ({why}); skipped"
                    ));
                    NodeContent::Skip
                }
                Ok(FileContent::Binary) => {
                    warn(format!("node {id}: file '{path}' is not text; skipped"));
                    NodeContent::Skip
                }
                Ok(FileContent::Image { media_type, bytes }) => {
                    if options.images {
                        message(
                            Role::User,
                            vec![Part::Image {
                                path: path.to_owned(),
                                media_type,
                                bytes,
                            }],
                            Settings::default(),
                        )
                    } else {
                        warn(format!(
                            "node {id}: image '{path}' skipped: the model does not take images"
                        ));
                        NodeContent::Skip
                    }
                }
                Ok(FileContent::Text(text)) => {
                    let what = format!("node {id} ({path})");
                    let is_markdown = path.to_ascii_lowercase().ends_with(".md");
                    let (role, is_error, body, settings) = if is_markdown {
                        role_and_body(&text, &what, warn)
                    } else {
                        (
                            Some(Role::User),
                            false,
                            text.trim().to_owned(),
                            Settings::default(),
                        )
                    };
                    if is_error {
                        return NodeContent::Skip;
                    }
                    let body = match node.subpath() {
                        Some(sub) if is_markdown => match subpath_text(&text, sub) {
                            Some(s) => s,
                            None => {
                                warn(format!(
                                    "node {id}: '{sub}' not found in '{path}'; the whole note is sent"
                                ));
                                body
                            }
                        },
                        _ => body,
                    };
                    message(role.unwrap_or(Role::User), text_parts(body), settings)
                }
            }
        }
    }
}

/// The part of a Markdown note a subpath names: `#Heading` or `#^block`.
fn subpath_text(text: &str, subpath: &str) -> Option<String> {
    let note = Note::parse(text);
    let target = subpath.strip_prefix('#')?;
    let found = match target.strip_prefix('^') {
        Some(block) => note.block(block),
        None => note.section(target),
    }?;
    Some(found.trim().to_owned())
}
