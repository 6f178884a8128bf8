//! Turning any error into `error: …`, `hint: …` and the exit code of DESIGN.md section 5.

use easel_core::Diagnose;
use easel_vault::canvas::CanvasOpError;
use easel_vault::{ErrorKind, VaultError};
use std::process::ExitCode;

/// An error raised by the command line itself (bad arguments the parser could not catch).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct UsageError {
    pub message: String,
    pub hint: String,
    pub kind: ErrorKind,
}

impl UsageError {
    pub fn invalid(message: impl Into<String>, hint: impl Into<String>) -> UsageError {
        UsageError {
            message: message.into(),
            hint: hint.into(),
            kind: ErrorKind::Invalid,
        }
    }
}

impl UsageError {
    pub fn hint(&self) -> String {
        self.hint.clone()
    }

    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}

/// The hint and exit-code class of a library error. Every library error type has `hint()` and
/// `kind()`; a new one is one more line here.
fn classify(e: &anyhow::Error) -> Option<(String, ErrorKind)> {
    macro_rules! known {
        ($($ty:ty),* $(,)?) => {$(
            if let Some(x) = e.downcast_ref::<$ty>() {
                return Some((x.hint(), x.kind()));
            }
        )*};
    }
    known!(
        easel_ops::OpError,
        CanvasOpError,
        VaultError,
        easel_thread::ThreadError,
        easel_thread::SendError,
        easel_thread::WatchError,
        easel_render::RenderFileError,
        easel_code::CodeError,
        easel_code::GraphError,
        easel_agent::AgentError,
        easel_code::board::BoardError,
        easel_mcp::ServeError,
        easel_http::GuardError,
        easel_server::ServerError,
        easel_llm::LlmError,
        UsageError,
    );
    None
}

/// How the shell spells an operation a hint names: the hand-shaped command where there is one
/// (`canvas_add_node` → `'easel canvas add-node'`), else `'easel op run NAME'`.
pub fn command_for(op: &str) -> Option<String> {
    if !easel_core::is_operation_name(op) {
        return None;
    }
    let area_verb = |area: &str, verb: &str| format!("'easel {area} {}'", verb.replace('_', "-"));
    Some(match op {
        "ledger_list" => "'easel ledger'".to_string(),
        "ledger_undo" => "'easel undo'".to_string(),
        "canvas" => "'easel code'".to_string(),
        _ => match op.split_once('_') {
            Some((area @ ("canvas" | "thread" | "agent" | "doc" | "llm"), verb)) => {
                area_verb(area, verb)
            }
            Some(("op", verb)) => area_verb("op", verb),
            _ => format!("'easel op run {op}'"),
        },
    })
}

/// A hint as the shell shows it: operations spelled as commands.
pub fn spell_for_shell(hint: &str) -> String {
    easel_core::spell_hint(hint, command_for)
}

pub struct Failure {
    message: String,
    hint: String,
    kind: ErrorKind,
}

impl Failure {
    pub fn from_anyhow(e: &anyhow::Error) -> Failure {
        match classify(e) {
            Some((hint, kind)) => Failure {
                message: e.to_string(),
                hint: spell_for_shell(&hint),
                kind,
            },
            None => Failure {
                message: format!("{e:#}"),
                hint: "run with EASEL_LOG=debug for details; if it persists, report it with the command you ran".into(),
                kind: ErrorKind::Failure,
            },
        }
    }

    pub fn report(self) -> ExitCode {
        eprintln!("error: {}", self.message);
        eprintln!("hint: {}", self.hint);
        ExitCode::from(self.kind.exit_code() as u8)
    }
}

/// Clap's own errors: help and version go to stdout with exit 0, usage errors get a hint and
/// exit code 2.
pub fn clap_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind as K;
    match e.kind() {
        K::DisplayHelp | K::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        K::DisplayHelpOnMissingArgumentOrSubcommand => {
            // `easel canvas` alone: show what the verbs are, but as the usage error it is.
            eprintln!("{}", e.render().to_string().trim_end());
            eprintln!("error: a command needs a verb, e.g. 'easel canvas list'");
            eprintln!("hint: pick one of the commands listed above");
            ExitCode::from(2)
        }
        _ => {
            let rendered = e.render().to_string();
            // Clap ends with its own "For more information" line; the hint replaces it.
            let body: Vec<&str> = rendered
                .lines()
                .filter(|l| !l.starts_with("For more information"))
                .collect();
            eprintln!("{}", body.join("\n").trim_end());
            eprintln!(
                "hint: run 'easel --help' (or 'easel <area> <verb> --help') to see the arguments"
            );
            ExitCode::from(2)
        }
    }
}
