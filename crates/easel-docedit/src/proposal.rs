//! What the document agent works on: a proposal. Its tools (the seed's names) apply each edit
//! to an in-memory copy of the document, so the model hears the real result of every call
//! (applied, or the error) and later calls see earlier ones; the file changes only when the
//! proposal is applied (`doc_apply`).

use serde::Serialize;
use serde_json::{Value, json};

use crate::document::{Document, Element};
use crate::edit::Edit;
use crate::error::DocError;
use crate::ops::OperationItem;

/// How much document text the agent is given when nothing is selected (Canon's limit).
pub const CONTEXT_CHARS: usize = 8_000;

/// The tools of the document agent, under the seed's names.
pub const TOOL_NAMES: [&str; 8] = [
    "replace_text",
    "redact_element",
    "add_highlight",
    "add_comment",
    "delete_element",
    "find_and_replace_all",
    "redact_all_matching",
    "scan_document",
];

/// A tool as the model is offered it.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolSpec {
    /// The seed's name.
    pub name: &'static str,
    /// For a small model: what it does and when.
    pub description: &'static str,
    /// JSON Schema of its arguments.
    pub parameters: Value,
}

/// Up to this many element ids are listed in the tools' schemas.
const ENUM_IDS: usize = 400;

fn element_param(ids: &[String]) -> Value {
    let mut p = json!({"type": "string", "description": "The element's id, as in [c1a2b3c4d] or [b3] in the document"});
    // A model that decodes under the schema (the embedded one) can then only name elements that
    // exist, instead of making an id up.
    if !ids.is_empty()
        && ids.len() <= ENUM_IDS
        && let Some(map) = p.as_object_mut()
    {
        map.insert("enum".into(), json!(ids));
    }
    p
}

/// The eight tools: the seven edits and `scan_document`. `ids` are the document's element ids,
/// listed in the schemas when there are not too many.
pub fn tool_specs(ids: &[String]) -> Vec<ToolSpec> {
    let one = |extra: Value| {
        let mut properties = json!({"elementId": element_param(ids)});
        let mut required = vec![json!("elementId")];
        if let (Some(map), Value::Object(more)) = (properties.as_object_mut(), extra) {
            for (k, v) in more {
                required.push(json!(k));
                map.insert(k, v);
            }
        }
        json!({"type": "object", "properties": properties, "required": required})
    };
    vec![
        ToolSpec {
            name: "replace_text",
            description: "Replace text in ONE element: oldText must be copied exactly from that element.",
            parameters: one(json!({
                "oldText": {"type": "string", "description": "Text that occurs in the element"},
                "newText": {"type": "string", "description": "Its replacement"}
            })),
        },
        ToolSpec {
            name: "redact_element",
            description: "Black out ONE element: its text is removed for good.",
            parameters: one(json!({})),
        },
        ToolSpec {
            name: "add_highlight",
            description: "Highlight ONE element.",
            parameters: one(json!({})),
        },
        ToolSpec {
            name: "add_comment",
            description: "Attach a comment to ONE element.",
            parameters: one(json!({"comment": {"type": "string", "description": "The comment"}})),
        },
        ToolSpec {
            name: "delete_element",
            description: "Remove ONE element.",
            parameters: one(json!({})),
        },
        ToolSpec {
            name: "find_and_replace_all",
            description: "Replace a text everywhere in the document (a mechanical change of every occurrence).",
            parameters: json!({
                "type": "object",
                "properties": {
                    "find": {"type": "string", "description": "The text to find"},
                    "replace": {"type": "string", "description": "Its replacement"},
                    "caseSensitive": {"type": "boolean", "description": "Match case exactly (default false)"}
                },
                "required": ["find", "replace"]
            }),
        },
        ToolSpec {
            name: "redact_all_matching",
            description: "Redact every occurrence of a text or /regex/ everywhere in the document.",
            parameters: json!({
                "type": "object",
                "properties": {"pattern": {"type": "string", "description": "Plain text, or a regular expression between slashes"}},
                "required": ["pattern"]
            }),
        },
        ToolSpec {
            name: "scan_document",
            description: "Find the elements a bulk request concerns, e.g. \"emails\", \"phone numbers\", \"all numbers\", \"dates\", \"\\\"Project X\\\"\", \"/ACME-\\\\d+/\", or a description like \"paragraphs about the merger\". Returns each element's id, the matched text and why.",
            parameters: json!({
                "type": "object",
                "properties": {"query": {"type": "string", "description": "What to look for"}},
                "required": ["query"]
            }),
        },
    ]
}

/// The system message of the document agent, in Canon's spirit.
pub fn system_prompt(path: &str) -> String {
    format!(
        "You edit the document {path} by calling tools.\n\
Rules:\n\
1. Use the tools to make changes; never only describe what to do.\n\
2. Each tool changes ONE element, named by its id (the text in square brackets).\n\
3. \"This\" or \"the selected\" means the selected element.\n\
4. For bulk work (all numbers, every email, each paragraph about X), call scan_document first, then call the tool once for EACH element it returns. For a mechanical change of every occurrence of a text, use find_and_replace_all or redact_all_matching.\n\
5. Change only what was asked; copy oldText exactly from the element.\n\
6. When you are done, say briefly what you changed."
    )
}

/// What the agent is told of the document: the selected element (id, tag, text), or else the
/// document's elements with their ids, up to [`CONTEXT_CHARS`] characters.
pub fn context(doc: &Document, selected: Option<&str>) -> Result<String, DocError> {
    if let Some(id) = selected {
        let e = doc.element(id)?;
        return Ok(format!(
            "Selected element: [{}] <{}> {}",
            e.id, e.tag, e.text
        ));
    }
    let mut out = String::from("The document's elements:\n");
    let mut used = 0;
    for (i, e) in doc.elements().iter().enumerate() {
        let line = line_of(e);
        let n = line.chars().count();
        if used + n > CONTEXT_CHARS {
            out.push_str(&format!(
                "(… {} more elements not shown: use scan_document to find what you need in them)\n",
                doc.elements().len() - i
            ));
            break;
        }
        used += n;
        out.push_str(&line);
    }
    Ok(out)
}

fn line_of(e: &Element) -> String {
    match e.page {
        Some(page) => format!("[{}] <{}> (page {page}) {}\n", e.id, e.tag, e.text),
        None => format!("[{}] <{}> {}\n", e.id, e.tag, e.text),
    }
}

/// A proposal being made: the document as the edits so far leave it, and those edits.
#[derive(Clone, Debug)]
pub struct Proposal {
    path: String,
    rev: String,
    doc: Document,
    operations: Vec<OperationItem>,
}

/// A finished proposal: DESIGN.md section 10's `{"path","rev","explanation","operations"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProposalOutput {
    /// The vault-relative path.
    pub path: String,
    /// The revision the operations were made for.
    pub rev: String,
    /// The agent's explanation.
    pub explanation: String,
    /// The proposed operations, in order.
    pub operations: Vec<OperationItem>,
}

impl Proposal {
    /// A proposal for `doc`, read at `rev`.
    pub fn new(path: impl Into<String>, rev: impl Into<String>, doc: Document) -> Proposal {
        Proposal {
            path: path.into(),
            rev: rev.into(),
            doc,
            operations: Vec::new(),
        }
    }

    /// The document as the proposed edits leave it.
    pub fn document(&self) -> &Document {
        &self.doc
    }

    /// The proposed edits so far.
    pub fn operations(&self) -> &[OperationItem] {
        &self.operations
    }

    /// Applies a call of one of the edit tools to the proposal, and says what happened, for
    /// the model. An error leaves the proposal as it was.
    pub fn call(&mut self, tool: &str, args: &Value) -> Result<String, DocError> {
        let edit: Edit =
            serde_json::from_value(json!({"tool": tool, "input": args})).map_err(|e| {
                DocError::Invalid {
                    message: format!("bad arguments for {tool}: {e}"),
                    hint: "give the arguments the tool's schema lists".into(),
                }
            })?;
        let applied = self.doc.apply(&edit)?;
        let doc = Document::parse(self.doc.format(), applied.text.as_bytes())?;
        let id = format!("op{}", self.operations.len() + 1);
        self.operations
            .push(OperationItem::of(Some(id.clone()), &edit));
        self.doc = doc;
        let now = match edit.element_id() {
            Some(element) => match self.doc.element(element) {
                Ok(e) => format!(" The element now reads: {}", clip(&e.text, 200)),
                Err(_) => " The element is gone.".to_string(),
            },
            None => String::new(),
        };
        Ok(format!(
            "applied to the proposal as {id}: {}.{now}",
            applied.summary
        ))
    }

    /// The finished proposal.
    pub fn finish(self, explanation: impl Into<String>) -> ProposalOutput {
        ProposalOutput {
            path: self.path,
            rev: self.rev,
            explanation: explanation.into(),
            operations: self.operations,
        }
    }
}

fn clip(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_ids_are_listed_in_the_schemas_when_there_are_not_too_many() {
        let ids: Vec<String> = vec!["c00000001".into(), "b2".into()];
        let specs = tool_specs(&ids);
        assert_eq!(specs.len(), TOOL_NAMES.len());
        let redact = specs.iter().find(|s| s.name == "redact_element").unwrap();
        assert_eq!(
            redact.parameters["properties"]["elementId"]["enum"],
            json!(["c00000001", "b2"])
        );
        let many: Vec<String> = (0..=ENUM_IDS).map(|i| format!("b{i}")).collect();
        let specs = tool_specs(&many);
        assert!(
            specs[0].parameters["properties"]["elementId"]
                .get("enum")
                .is_none()
        );
        // The bulk tools and the scan take no element.
        let scan = specs.iter().find(|s| s.name == "scan_document").unwrap();
        assert_eq!(scan.parameters["required"], json!(["query"]));
    }

    #[test]
    fn the_context_is_the_selection_or_the_elements_up_to_the_limit() {
        let long = "word ".repeat(100);
        let html: String = (1..=40)
            .map(|i| format!("<p data-canon-id=\"c{i:08x}\">{i} {long}</p>\n"))
            .collect();
        let doc = Document::parse(crate::Format::Html, html.as_bytes()).unwrap();
        let all = context(&doc, None).unwrap();
        assert!(all.chars().count() <= CONTEXT_CHARS + 200, "{}", all.len());
        assert!(all.contains("[c00000001] <p> 1 word"));
        assert!(all.contains("more elements not shown: use scan_document"));
        let one = context(&doc, Some("c00000002")).unwrap();
        assert!(one.starts_with("Selected element: [c00000002] <p> 2 word"));
        assert!(context(&doc, Some("nope")).is_err());
    }
}
