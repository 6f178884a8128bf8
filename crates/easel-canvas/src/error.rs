//! What can go wrong with a canvas, and what to do about it.

use crate::json::ParseError;
use crate::validate::Finding;

#[derive(Debug, thiserror::Error)]
pub enum CanvasError {
    /// The text is not JSON, or not shaped like a canvas.
    #[error("could not read the canvas: {0}")]
    Parse(ParseError),
    /// A value given as data (not text) is not shaped like a canvas.
    #[error("not a canvas: {0}")]
    Shape(String),
    /// The change would break the spec; nothing was changed.
    #[error("{}", invalid_message(.0))]
    Invalid(Vec<Finding>),
    #[error("node '{0}' does not exist")]
    NodeNotFound(String),
    #[error("edge '{0}' does not exist")]
    EdgeNotFound(String),
    #[error("id '{0}' is already used in this canvas")]
    DuplicateId(String),
    #[error("the id of {what} '{id}' cannot be changed")]
    IdChange { what: &'static str, id: String },
    /// A patch or node given as data has the wrong JSON type.
    #[error("{0}")]
    BadInput(String),
}

fn invalid_message(findings: &[Finding]) -> String {
    match findings {
        [] => "the change is not valid".to_owned(),
        [one] => format!("invalid canvas data: {one}"),
        [first, rest @ ..] => format!(
            "invalid canvas data: {first} (and {} more: {})",
            rest.len(),
            rest.iter()
                .map(|f| f.message.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ),
    }
}

impl CanvasError {
    /// What the user can do next.
    pub fn hint(&self) -> String {
        match self {
            CanvasError::Parse(_) => {
                "fix the JSON at that position (a missing comma or quote is the usual cause), then try again".into()
            }
            CanvasError::Shape(_) => {
                "a canvas is an object like {\"nodes\":[...],\"edges\":[...]}".into()
            }
            CanvasError::Invalid(_) => {
                "fix the fields named above; 'easel canvas validate' lists every problem of a file".into()
            }
            CanvasError::NodeNotFound(_) => {
                "read the canvas to see its node ids ('easel canvas read PATH')".into()
            }
            CanvasError::EdgeNotFound(_) => {
                "read the canvas to see its edge ids ('easel canvas read PATH')".into()
            }
            CanvasError::DuplicateId(_) => {
                "leave 'id' out and Easel generates a unique one".into()
            }
            CanvasError::IdChange { .. } => {
                "remove the object and add a new one with the id you want".into()
            }
            CanvasError::BadInput(_) => "pass a JSON object".into(),
        }
    }
}
