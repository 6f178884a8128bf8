//! External command tools: `.easel/tools/<name>.toml`.
//!
//! ```toml
//! description = "Spell-check a text"
//! command = "aspell"
//! args = ["list"]
//! effect = "read"          # default: write
//! timeout_secs = 10        # default: 30
//! [parameters]             # a JSON Schema, or the properties alone as in script tools
//! text = { type = "string", description = "The text" }
//! ```
//!
//! The command is executed directly (no shell), with the vault as its working directory and
//! the call's arguments as JSON on stdin; its stdout (at most 1 MiB) is the output. A non-zero
//! exit is an error output with the end of stderr.

use crate::script::params;
use crate::script::{check_tool_name, parse_effect};
use crate::tool::{AgentTool, CallOp, ToolOutput};
use easel_ops::{Ctx, Effect};
use serde::Deserialize;
use serde_json::Value;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const DEFAULT_TIMEOUT_SECS: u64 = 30;
/// The most of stdout a model gets.
const MAX_STDOUT: usize = 1024 * 1024;
/// How much of stderr's end an error output quotes.
const STDERR_TAIL: usize = 2048;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CommandFile {
    name: Option<String>,
    description: Option<String>,
    command: String,
    #[serde(default)]
    args: Vec<String>,
    parameters: Option<toml::Value>,
    effect: Option<String>,
    timeout_secs: Option<u64>,
}

/// A tool that runs a program.
#[derive(Debug)]
pub struct CommandTool {
    name: String,
    description: String,
    parameters: Value,
    effect: Effect,
    command: String,
    args: Vec<String>,
    timeout: Duration,
}

impl CommandTool {
    /// Reads a command tool file; the error is the reason it cannot be used.
    pub fn load(path: &Path) -> Result<CommandTool, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read it: {e}"))?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        CommandTool::parse(&stem, &text)
    }

    /// A command tool from its file's text; `stem` is the name when the file gives none.
    pub fn parse(stem: &str, text: &str) -> Result<CommandTool, String> {
        let file: CommandFile = toml::from_str(text)
            .map_err(|e| format!("it is not a command tool file: {}", e.message().trim_end()))?;
        let name = file.name.unwrap_or_else(|| stem.to_string());
        check_tool_name(&name)?;
        if file.command.trim().is_empty() {
            return Err(format!("'{name}': command is empty"));
        }
        let spec = match file.parameters {
            None => Value::Null,
            Some(p) => serde_json::to_value(p).map_err(|e| format!("'{name}': parameters: {e}"))?,
        };
        let parameters = params::read_parameters(&spec).map_err(|e| format!("'{name}': {e}"))?;
        let effect = match file.effect.as_deref() {
            None => Effect::Write,
            Some(word) => parse_effect(word).map_err(|e| format!("'{name}': {e}"))?,
        };
        let timeout = match file.timeout_secs {
            Some(0) => return Err(format!("'{name}': timeout_secs must be at least 1")),
            Some(secs) => Duration::from_secs(secs),
            None => Duration::from_secs(DEFAULT_TIMEOUT_SECS),
        };
        Ok(CommandTool {
            description: file.description.unwrap_or_default(),
            name,
            parameters,
            effect,
            command: file.command,
            args: file.args,
            timeout,
        })
    }

    /// The program: a relative path with a `/` is taken from the vault, a bare name from `PATH`.
    fn program(&self, vault_root: &Path) -> PathBuf {
        let command = Path::new(&self.command);
        if command.is_relative() && self.command.contains('/') {
            vault_root.join(command)
        } else {
            command.to_path_buf()
        }
    }
}

impl AgentTool for CommandTool {
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

    fn call(&self, ctx: &Ctx, args: Value, _call_op: &CallOp<'_>) -> ToolOutput {
        if let Err(e) = params::check_args(&self.parameters, &args) {
            return ToolOutput::error(format!("{}: {e}", self.name));
        }
        let root = ctx.vault().root();
        match self.run(root, args.to_string(), ctx.cancel()) {
            Ok(text) => ToolOutput::ok(text),
            Err(message) => ToolOutput::error(format!("{}: {message}", self.name)),
        }
    }
}

impl CommandTool {
    fn run(
        &self,
        root: &Path,
        input: String,
        cancel: &easel_ops::Cancel,
    ) -> Result<String, String> {
        let mut child = Command::new(self.program(root))
            .args(&self.args)
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", self.command))?;
        tracing::debug!(tool = %self.name, pid = child.id(), "command tool started");
        let started = Instant::now();
        // Each pipe gets its own thread, so that a program that writes much before it reads
        // (or never reads) cannot block us, nor we it.
        if let Some(mut stdin) = child.stdin.take() {
            std::thread::spawn(move || {
                // A program that does not read its input closes the pipe early: not an error.
                let _ = stdin.write_all(input.as_bytes());
            });
        }
        let stdout = child.stdout.take().map(|out| read_capped(out, MAX_STDOUT));
        let stderr = child.stderr.take().map(|err| read_tail(err, STDERR_TAIL));
        let status = match wait(&mut child, self.timeout, cancel) {
            Waited::Exited(status) => status,
            Waited::TimedOut => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("timed out after {} s", self.timeout.as_secs()));
            }
            Waited::Cancelled => {
                let _ = child.kill();
                let _ = child.wait();
                return Err("was cancelled".into());
            }
        };
        // A program may leave a child holding the pipes open; wait for them no longer than
        // what is left of the timeout.
        let left = self
            .timeout
            .saturating_sub(started.elapsed())
            .max(Duration::from_millis(100));
        let (out, cut) = stdout
            .and_then(|rx| rx.recv_timeout(left).ok())
            .unwrap_or_default();
        let err = stderr
            .and_then(|rx| rx.recv_timeout(left).ok())
            .unwrap_or_default();
        if !status.success() {
            let how = match status.code() {
                Some(code) => format!("exited with status {code}"),
                None => "was killed by a signal".to_string(),
            };
            let err = String::from_utf8_lossy(&err);
            let err = err.trim();
            return Err(if err.is_empty() {
                how
            } else {
                format!("{how}: {err}")
            });
        }
        let mut text = String::from_utf8_lossy(&out).into_owned();
        let kept = text.trim_end_matches(['\n', '\r']).len();
        text.truncate(kept);
        if cut {
            text.push_str("\n[output cut at 1 MiB]");
        }
        Ok(text)
    }
}

enum Waited {
    Exited(std::process::ExitStatus),
    TimedOut,
    Cancelled,
}

fn wait(child: &mut Child, timeout: Duration, cancel: &easel_ops::Cancel) -> Waited {
    let deadline = Instant::now() + timeout;
    let mut pause = Duration::from_millis(1);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Waited::Exited(status),
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(error = %e, "cannot wait for a command tool");
                return Waited::TimedOut;
            }
        }
        if cancel.is_cancelled() {
            return Waited::Cancelled;
        }
        let now = Instant::now();
        if now >= deadline {
            return Waited::TimedOut;
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(25));
    }
}

/// Reads all of a pipe, keeping the first `cap` bytes; the flag says whether more came.
fn read_capped(
    mut pipe: impl Read + Send + 'static,
    cap: usize,
) -> mpsc::Receiver<(Vec<u8>, bool)> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut cut = false;
        let mut buf = [0u8; 8192];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = cap.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                    cut |= n > room;
                }
            }
        }
        let _ = tx.send((kept, cut));
    });
    rx
}

/// Reads all of a pipe, keeping its last `keep` bytes.
fn read_tail(mut pipe: impl Read + Send + 'static, keep: usize) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut tail = Vec::new();
        let mut buf = [0u8; 8192];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    tail.extend_from_slice(&buf[..n]);
                    if tail.len() > keep {
                        tail.drain(..tail.len() - keep);
                    }
                }
            }
        }
        let _ = tx.send(tail);
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_needs_a_command_and_known_keys() {
        assert!(
            CommandTool::parse("x", "description = 'no command'")
                .unwrap_err()
                .contains("command")
        );
        assert!(
            CommandTool::parse("x", "command = 'cat'\nargz = []")
                .unwrap_err()
                .contains("argz")
        );
        assert!(
            CommandTool::parse("x", "command = 'cat'\neffect = 'loud'")
                .unwrap_err()
                .contains("unknown effect")
        );
        assert!(
            CommandTool::parse("x y", "command = 'cat'")
                .unwrap_err()
                .contains("not a tool name")
        );
    }

    #[test]
    fn parameters_and_defaults() {
        let tool = CommandTool::parse(
            "spell",
            "command = 'cat'\n[parameters]\ntext = { type = 'string' }\n",
        )
        .unwrap();
        assert_eq!(tool.name, "spell");
        assert_eq!(tool.effect, Effect::Write);
        assert_eq!(tool.timeout, Duration::from_secs(30));
        assert_eq!(tool.parameters["required"], serde_json::json!(["text"]));
    }
}
