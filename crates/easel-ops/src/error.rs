//! [`OpError`]: the one error type every operation returns.

use easel_canvas::CanvasError;
use easel_core::{Diagnose, Diagnostic, ErrorKind};
use easel_vault::VaultError;
use easel_vault::canvas::CanvasOpError;

/// A failed operation: its [`ErrorKind`] (which decides the exit code, the HTTP status and the
/// MCP error payload), what happened, and a hint that names operations between backticks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct OpError {
    /// The class of the failure.
    pub kind: ErrorKind,
    /// What happened.
    pub message: String,
    /// What to do next; operations in backticks (`` `canvas_list` ``).
    pub hint: String,
}

impl OpError {
    /// An error of any kind.
    pub fn new(kind: ErrorKind, message: impl Into<String>, hint: impl Into<String>) -> OpError {
        OpError {
            kind,
            message: message.into(),
            hint: hint.into(),
        }
    }

    /// The input is unacceptable.
    pub fn invalid(message: impl Into<String>, hint: impl Into<String>) -> OpError {
        OpError::new(ErrorKind::Invalid, message, hint)
    }

    /// Something named does not exist.
    pub fn not_found(message: impl Into<String>, hint: impl Into<String>) -> OpError {
        OpError::new(ErrorKind::NotFound, message, hint)
    }

    /// The file changed meanwhile, exists, or is busy.
    pub fn conflict(message: impl Into<String>, hint: impl Into<String>) -> OpError {
        OpError::new(ErrorKind::Conflict, message, hint)
    }

    /// Something failed that the caller cannot fix by asking differently.
    pub fn failure(message: impl Into<String>) -> OpError {
        OpError::new(
            ErrorKind::Failure,
            message,
            "run with EASEL_LOG=debug to see what happened; if it persists, report it with what you ran",
        )
    }

    /// The work stopped because it was cancelled.
    pub fn cancelled(what: &str) -> OpError {
        OpError::new(
            ErrorKind::Failure,
            format!("{what} was cancelled"),
            "run it again when you want it to finish",
        )
    }

    /// Any error that can diagnose itself.
    pub fn from_diagnose<E: Diagnose + ?Sized>(e: &E) -> OpError {
        OpError::new(e.kind(), e.to_string(), e.hint())
    }

    /// The message and the hint.
    pub fn diagnostic(&self) -> Diagnostic {
        Diagnostic::new(self.message.clone(), self.hint.clone())
    }

    /// The same error with the operation's name in front of the message, for front ends that
    /// call many operations in a row (an agent's tool output, a batch).
    pub fn in_op(mut self, op: &str) -> OpError {
        if !self.message.starts_with(op) {
            self.message = format!("{op}: {}", self.message);
        }
        self
    }
}

impl Diagnose for OpError {
    fn kind(&self) -> ErrorKind {
        self.kind
    }
    fn hint(&self) -> String {
        self.hint.clone()
    }
}

impl From<VaultError> for OpError {
    fn from(e: VaultError) -> OpError {
        OpError::new(e.kind(), e.to_string(), e.hint())
    }
}

impl From<CanvasOpError> for OpError {
    fn from(e: CanvasOpError) -> OpError {
        OpError::new(e.kind(), e.to_string(), e.hint())
    }
}

impl From<CanvasError> for OpError {
    fn from(e: CanvasError) -> OpError {
        let kind = match e {
            CanvasError::NodeNotFound(_) | CanvasError::EdgeNotFound(_) => ErrorKind::NotFound,
            _ => ErrorKind::Invalid,
        };
        OpError::new(kind, e.to_string(), e.hint())
    }
}
