//! Turning a walk into messages, in the order of DESIGN.md section 8.6, and fitting them into
//! the model's context window.

use crate::content::{ContentOptions, NodeContent, Part, Role, Settings, node_content};
use crate::source::FileSource;
use crate::walk::Walk;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

/// Whether a message carries the conversation or supporting context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Chain,
    Context,
}

/// One message to send.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub role: Role,
    pub parts: Vec<Part>,
    /// The node it came from.
    pub node: String,
    pub origin: Origin,
    /// Position of the node's chain node counted from the target (0 = the target).
    pub distance: usize,
}

impl Message {
    /// The text of all text parts, joined by newlines.
    pub fn text(&self) -> String {
        self.parts
            .iter()
            .filter_map(|p| match p {
                Part::Text(t) => Some(t.as_str()),
                Part::Image { .. } => None,
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// A rough token count: four characters a token, a flat cost for images and framing.
    pub fn estimated_tokens(&self) -> usize {
        let text: usize = self
            .parts
            .iter()
            .map(|p| match p {
                Part::Text(t) => t.chars().count().div_ceil(4),
                Part::Image { .. } => IMAGE_TOKENS,
            })
            .sum();
        text + MESSAGE_OVERHEAD_TOKENS
    }
}

/// What providers charge for an image of ordinary size, roughly.
const IMAGE_TOKENS: usize = 800;
/// Role markers and separators of a chat template.
const MESSAGE_OVERHEAD_TOKENS: usize = 4;

struct PartJson<'a>(&'a Part);

impl Serialize for PartJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        match self.0 {
            Part::Text(t) => {
                m.serialize_entry("type", "text")?;
                m.serialize_entry("text", t)?;
            }
            Part::Image {
                path,
                media_type,
                bytes,
            } => {
                m.serialize_entry("type", "image")?;
                m.serialize_entry("file", path)?;
                m.serialize_entry("media_type", media_type)?;
                m.serialize_entry("bytes", &bytes.len())?;
            }
        }
        m.end()
    }
}

struct Parts<'a>(&'a [Part]);

impl Serialize for Parts<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for p in self.0 {
            seq.serialize_element(&PartJson(p))?;
        }
        seq.end()
    }
}

impl Serialize for Message {
    /// `{"role","content"}`; content is a string for text-only messages, else a list of parts
    /// (images are described by file, type and size, not inlined).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("role", &self.role)?;
        if self.parts.iter().all(|p| matches!(p, Part::Text(_))) {
            m.serialize_entry("content", &self.text())?;
        } else {
            m.serialize_entry("content", &Parts(&self.parts))?;
        }
        m.serialize_entry("node", &self.node)?;
        m.end()
    }
}

fn context_message(parts: Vec<Part>, node: &str, distance: usize) -> Message {
    let parts = parts
        .into_iter()
        .map(|p| match p {
            Part::Text(t) => Part::Text(format!(
                "<additional-document>\n{t}\n</additional-document>"
            )),
            image => image,
        })
        .collect();
    Message {
        role: Role::User,
        parts,
        node: node.to_owned(),
        origin: Origin::Context,
        distance,
    }
}

/// Messages in send order, and the settings of the first system node.
pub fn assemble(
    walk: &Walk<'_>,
    files: &dyn FileSource,
    options: ContentOptions,
    warn: &mut dyn FnMut(String),
) -> (Vec<Message>, Settings) {
    let last = walk.chain.len().saturating_sub(1);
    let chain: Vec<NodeContent> = walk
        .chain
        .iter()
        .map(|n| node_content(n, files, options, warn))
        .collect();
    let context: Vec<Vec<NodeContent>> = walk
        .context
        .iter()
        .map(|ctx| {
            ctx.iter()
                .map(|n| node_content(n, files, options, warn))
                .collect()
        })
        .collect();
    let is_system = |c: &NodeContent| {
        matches!(
            c,
            NodeContent::Message {
                role: Role::System,
                ..
            }
        )
    };

    let mut out: Vec<Message> = Vec::new();
    let mut settings: Option<Settings> = None;
    let mut system = |out: &mut Vec<Message>, c: &NodeContent, node: &str, origin, distance| {
        if let NodeContent::Message {
            parts, settings: s, ..
        } = c
        {
            settings.get_or_insert_with(|| s.clone());
            if !parts.is_empty() {
                out.push(Message {
                    role: Role::System,
                    parts: parts.clone(),
                    node: node.to_owned(),
                    origin,
                    distance,
                });
            }
        }
    };
    // The system block: system chain nodes in chain order, then system context nodes.
    for (i, c) in chain.iter().enumerate() {
        if is_system(c) {
            system(&mut out, c, walk.chain[i].id(), Origin::Chain, last - i);
        }
    }
    for (i, ctx) in context.iter().enumerate() {
        for (j, c) in ctx.iter().enumerate() {
            if is_system(c) {
                system(
                    &mut out,
                    c,
                    walk.context[i][j].id(),
                    Origin::Context,
                    last - i,
                );
            }
        }
    }
    let push_context = |out: &mut Vec<Message>, i: usize| {
        for (j, c) in context[i].iter().enumerate() {
            if let NodeContent::Message { role, parts, .. } = c
                && *role != Role::System
                && !parts.is_empty()
            {
                out.push(context_message(
                    parts.clone(),
                    walk.context[i][j].id(),
                    last - i,
                ));
            }
        }
    };
    // Context of system chain nodes follows the system block.
    for (i, c) in chain.iter().enumerate() {
        if is_system(c) {
            push_context(&mut out, i);
        }
    }
    // The conversation, root to target; the target's context goes before the target.
    for (i, c) in chain.iter().enumerate() {
        if is_system(c) {
            continue;
        }
        let own = match c {
            NodeContent::Message { role, parts, .. } if !parts.is_empty() => Some(Message {
                role: *role,
                parts: parts.clone(),
                node: walk.chain[i].id().to_owned(),
                origin: Origin::Chain,
                distance: last - i,
            }),
            _ => None,
        };
        if i == last {
            push_context(&mut out, i);
            out.extend(own);
        } else {
            out.extend(own);
            push_context(&mut out, i);
        }
    }
    (out, settings.unwrap_or_default())
}

/// Drops messages until the estimate fits `window` tokens: horizontal context furthest from
/// the target first, then the oldest chain messages; never system messages or the target.
pub fn fit(messages: &mut Vec<Message>, window: usize, target: &str, warn: &mut dyn FnMut(String)) {
    let mut total: usize = messages.iter().map(Message::estimated_tokens).sum();
    if total <= window {
        return;
    }
    // Candidates in drop order.
    let mut order: Vec<usize> = (0..messages.len())
        .filter(|&i| messages[i].origin == Origin::Context && messages[i].role != Role::System)
        .collect();
    order.sort_by_key(|&i| {
        (
            std::cmp::Reverse(messages[i].distance),
            std::cmp::Reverse(i),
        )
    });
    let chain: Vec<usize> = (0..messages.len())
        .filter(|&i| {
            let m = &messages[i];
            m.origin == Origin::Chain && m.role != Role::System && m.node != target
        })
        .collect();
    order.extend(chain);
    let mut dropped = vec![false; messages.len()];
    for i in order {
        if total <= window {
            break;
        }
        let tokens = messages[i].estimated_tokens();
        total -= tokens;
        dropped[i] = true;
        let what = match messages[i].origin {
            Origin::Context => "context node",
            Origin::Chain => "earlier message from node",
        };
        warn(format!(
            "dropped {what} {} (~{tokens} tokens) to fit the model's context window of {window} tokens",
            messages[i].node
        ));
    }
    let mut k = 0;
    messages.retain(|_| {
        k += 1;
        !dropped[k - 1]
    });
    if total > window {
        warn(format!(
            "the prompt is still about {total} tokens, more than the context window of {window}; the model may cut it"
        ));
    }
}
