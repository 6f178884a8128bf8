//! Script tools: `.easel/tools/<name>.js` in the seed's module form, run in a QuickJS sandbox.
//!
//! ```js
//! module.exports = {
//!   name: 'word_count',
//!   description: 'Count the words of a text',
//!   parameters: { text: { type: 'string', description: 'The text' } },
//!   execute: async ({ text }, ctx) => text.split(/\s+/).filter(Boolean).length,
//! };
//! ```
//!
//! Loading evaluates the file once (under the same limits) to read its name, description,
//! parameters and effect. Each call then gets a fresh runtime and context on a thread of its
//! own: a global set by one call is gone in the next, and a script that loops, allocates without
//! end or recurses too deep ends that call with an error output, never the process. `ctx`'s
//! requests travel back to the calling thread ([`host`]), which owns the vault and the run's
//! approvals.

mod fetch;
mod host;
pub mod params;
mod sandbox;

pub use sandbox::Limits;

use crate::tool::{AgentTool, CallOp, ToolOutput};
use crate::tools_dir::ToolsConfig;
use easel_ops::{Ctx, Effect};
use sandbox::{Failure, HostLink, HostReply, HostRequest, Mode};
use serde_json::Value;
use std::path::Path;
use std::sync::mpsc;
use std::thread;

/// Native stack of the thread a script runs on: well above the interpreter's own stack limit,
/// so that QuickJS's check, not the guard page, ends deep recursion.
const THREAD_STACK: usize = 16 * 1024 * 1024;
/// The largest script file read.
const MAX_SOURCE: u64 = 1024 * 1024;

/// A tool written in JavaScript.
#[derive(Debug)]
pub struct ScriptTool {
    name: String,
    description: String,
    parameters: Value,
    effect: Effect,
    source: String,
    file: String,
    limits: Limits,
    allow_net: Vec<String>,
}

impl ScriptTool {
    /// Reads a script file; the error is the reason it cannot be used.
    pub fn load(path: &Path, config: &ToolsConfig) -> Result<ScriptTool, String> {
        let size = std::fs::metadata(path)
            .map_err(|e| format!("cannot read it: {e}"))?
            .len();
        if size > MAX_SOURCE {
            return Err(format!("it is larger than {} KiB", MAX_SOURCE / 1024));
        }
        let source = std::fs::read_to_string(path).map_err(|e| format!("cannot read it: {e}"))?;
        let file = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| "script.js".into());
        ScriptTool::from_source(&file, source, config)
    }

    /// A script tool from its source; `file` names it in error messages, `config` holds the
    /// settings of the name the script declares.
    pub fn from_source(
        file: &str,
        source: String,
        config: &ToolsConfig,
    ) -> Result<ScriptTool, String> {
        let probe = run_on_thread(
            &source,
            file,
            Limits::default(),
            Mode::Describe,
            easel_ops::Cancel::new(),
            |_| HostReply {
                json: r#"{"error":"ctx is only available inside execute"}"#.into(),
                paused: std::time::Duration::ZERO,
            },
        );
        let described = match probe {
            Ok(json) => json,
            Err(Failure::Syntax(text)) => return Err(format!("syntax error: {text}")),
            Err(f) => return Err(format!("evaluating it failed: {}", failure_text(&f))),
        };
        let found: Value = serde_json::from_str(&described)
            .map_err(|e| format!("cannot read what it exports: {e}"))?;
        let name = match found["name"].as_str() {
            None => return Err("module.exports has no name (add name: 'my_tool')".into()),
            Some(n) => n.to_string(),
        };
        check_tool_name(&name)?;
        if found["execute"] != Value::Bool(true) {
            return Err(format!(
                "module.exports of '{name}' has no execute function (add execute: (args, ctx) => ...)"
            ));
        }
        let parameters =
            params::read_parameters(&found["parameters"]).map_err(|e| format!("'{name}': {e}"))?;
        let settings = config.settings(&name);
        let mut effect = match found["effect"].as_str() {
            None => Effect::Write,
            Some(word) => parse_effect(word).map_err(|e| format!("'{name}': {e}"))?,
        };
        if !settings.allow_net.is_empty() {
            effect = Effect::External;
        }
        Ok(ScriptTool {
            description: found["description"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            name,
            parameters,
            effect,
            source,
            file: file.to_string(),
            limits: settings.limits(),
            allow_net: settings.allow_net,
        })
    }

    /// The limits each call runs under.
    pub fn limits(&self) -> Limits {
        self.limits
    }
}

impl AgentTool for ScriptTool {
    fn name(&self) -> &str {
        &self.name
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn parameters(&self) -> Value {
        self.parameters.clone()
    }

    fn effect(&self) -> Effect {
        self.effect
    }

    fn call(&self, ctx: &Ctx, args: Value, call_op: &CallOp<'_>) -> ToolOutput {
        if let Err(e) = params::check_args(&self.parameters, &args) {
            return ToolOutput::error(format!("{}: {e}", self.name));
        }
        let host = host::Host {
            ctx,
            call_op,
            allow_net: &self.allow_net,
        };
        let mode = Mode::Execute {
            args: args.to_string(),
        };
        tracing::debug!(tool = %self.name, "running script tool");
        match run_on_thread(
            &self.source,
            &self.file,
            self.limits,
            mode,
            ctx.cancel().clone(),
            |r| host.serve(r),
        ) {
            Ok(text) => ToolOutput::ok(text),
            Err(failure) => {
                tracing::debug!(tool = %self.name, ?failure, "script tool failed");
                ToolOutput::error(self.failure_message(&failure))
            }
        }
    }
}

impl ScriptTool {
    fn failure_message(&self, failure: &Failure) -> String {
        let name = &self.name;
        match failure {
            Failure::TimedOut => {
                format!("{name} timed out after {}", seconds(self.limits.deadline))
            }
            Failure::OutOfMemory => format!(
                "{name} ran out of memory (its limit is {} MiB)",
                self.limits.memory / (1024 * 1024)
            ),
            Failure::StackOverflow => format!("{name} overflowed its stack (recursion too deep)"),
            other => format!("{name} {}", failure_text(other)),
        }
    }
}

fn failure_text(failure: &Failure) -> String {
    match failure {
        Failure::Syntax(t) => format!("has a syntax error: {t}"),
        Failure::Thrown(t) => format!("threw {t}"),
        Failure::TimedOut => "timed out".into(),
        Failure::Cancelled => "was cancelled".into(),
        Failure::OutOfMemory => "ran out of memory".into(),
        Failure::StackOverflow => "overflowed its stack (recursion too deep)".into(),
        Failure::NeverSettled => "returned a promise that never settled".into(),
        Failure::NotJson(t) => format!("returned a value that cannot be JSON: {t}"),
        Failure::Form(t) => t.clone(),
        Failure::Engine(t) => format!("could not run: {t}"),
    }
}

fn seconds(d: std::time::Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s} s")
    }
}

/// Runs the script on a thread of its own and answers its `ctx` requests on this one.
fn run_on_thread(
    source: &str,
    file: &str,
    limits: Limits,
    mode: Mode,
    cancel: easel_ops::Cancel,
    mut serve: impl FnMut(HostRequest) -> HostReply,
) -> Result<String, Failure> {
    let (request_tx, request_rx) = mpsc::channel::<HostRequest>();
    let (reply_tx, reply_rx) = mpsc::channel::<HostReply>();
    thread::scope(|scope| {
        let link = HostLink {
            requests: request_tx,
            replies: reply_rx,
        };
        let worker = thread::Builder::new()
            .name("easel-script".into())
            .stack_size(THREAD_STACK)
            .spawn_scoped(scope, move || {
                sandbox::run(source, file, limits, mode, link, cancel)
            })
            .map_err(|e| Failure::Engine(format!("cannot start its thread: {e}")))?;
        // Ends when the script's runtime is gone, and with it the last sender.
        for request in request_rx.iter() {
            if reply_tx.send(serve(request)).is_err() {
                break;
            }
        }
        worker
            .join()
            .unwrap_or_else(|_| Err(Failure::Engine("its thread panicked".into())))
    })
}

/// Names a model can call: what OpenAI and Anthropic accept.
pub(crate) fn check_tool_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "the name '{name}' is not a tool name (1 to 64 letters, digits, '_' or '-')"
        ))
    }
}

pub(crate) fn parse_effect(word: &str) -> Result<Effect, String> {
    match word {
        "read" => Ok(Effect::Read),
        "write" => Ok(Effect::Write),
        "destructive" => Ok(Effect::Destructive),
        "external" => Ok(Effect::External),
        other => Err(format!(
            "unknown effect '{other}' (use read, write, destructive or external)"
        )),
    }
}
