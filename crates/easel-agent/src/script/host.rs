//! The host side of `ctx`: answers a script's requests on the thread that called the tool, the
//! one that holds the vault and the run's approvals (a `CallOp` need not be `Send`).
//!
//! Vault access is read-only and goes through easel-vault's path checks; Easel's own folders
//! (`.easel/` holds the configuration with its API keys, the sessions and the ledger) and
//! `.git/`, `.obsidian/`, `.trash/` are not readable either.

use super::fetch;
use super::sandbox::{HostReply, HostRequest};
use crate::tool::CallOp;
use easel_ops::Op;
use easel_ops::vault::{VaultList, VaultListInput, VaultSearch, VaultSearchInput};
use serde::Deserialize;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Folders a script may not read, compared without case.
const HIDDEN: [&str; 4] = [".easel", ".git", ".obsidian", ".trash"];

/// What a script's `ctx` reaches.
pub(crate) struct Host<'a> {
    pub ctx: &'a easel_ops::Ctx,
    pub call_op: &'a CallOp<'a>,
    pub allow_net: &'a [String],
}

#[derive(Deserialize)]
struct ReadArgs {
    path: Option<String>,
}

#[derive(Deserialize)]
struct ListArgs {
    folder: Option<String>,
}

#[derive(Deserialize)]
struct SearchArgs {
    query: Option<String>,
}

#[derive(Deserialize)]
struct CallArgs {
    operation: Option<String>,
    #[serde(default)]
    args: Value,
}

impl Host<'_> {
    /// Answers one request.
    pub(crate) fn serve(&self, request: HostRequest) -> HostReply {
        let started = Instant::now();
        let mut paused = Duration::ZERO;
        let outcome = match request.kind.as_str() {
            "read" => self.read(&request.payload),
            "list" => self.list(&request.payload),
            "search" => self.search(&request.payload),
            "call" => {
                let outcome = self.call(&request.payload);
                // An operation may wait for the user's approval; that is not the script's time.
                paused = started.elapsed();
                outcome
            }
            "fetch" => fetch::fetch(&request.payload, self.allow_net, request.remaining),
            other => Err(format!("ctx has no function '{other}'")),
        };
        let json = match outcome {
            Ok(value) => json!({ "ok": value }),
            Err(message) => json!({ "error": message }),
        };
        HostReply {
            json: json.to_string(),
            paused,
        }
    }

    fn read(&self, payload: &str) -> Result<Value, String> {
        let args: ReadArgs = parse(payload, "ctx.vault.read(path)")?;
        let path = args
            .path
            .ok_or("ctx.vault.read needs a path, e.g. ctx.vault.read('Notes/idea.md')")?;
        let vault = self.ctx.vault();
        let resolved = vault.resolve(&path).map_err(|e| e.to_string())?;
        refuse_hidden(resolved.as_str())?;
        let (bytes, _) = vault.read(&resolved).map_err(|e| e.to_string())?;
        String::from_utf8(bytes)
            .map(Value::String)
            .map_err(|_| format!("'{}' is not a text file (not UTF-8)", resolved.as_str()))
    }

    fn list(&self, payload: &str) -> Result<Value, String> {
        let args: ListArgs = parse(payload, "ctx.vault.list(folder)")?;
        if let Some(folder) = &args.folder {
            let resolved = self
                .ctx
                .vault()
                .resolve(folder)
                .map_err(|e| e.to_string())?;
            refuse_hidden(resolved.as_str())?;
        }
        let input = VaultListInput {
            folder: args.folder,
            ..VaultListInput::default()
        };
        let out = VaultList.run(self.ctx, input).map_err(|e| e.to_string())?;
        serde_json::to_value(out.files).map_err(|e| e.to_string())
    }

    fn search(&self, payload: &str) -> Result<Value, String> {
        let args: SearchArgs = parse(payload, "ctx.vault.search(query)")?;
        let query = args
            .query
            .ok_or("ctx.vault.search needs a text to look for, e.g. ctx.vault.search('TODO')")?;
        let input = VaultSearchInput {
            query,
            regex: None,
            case_sensitive: None,
            folder: None,
            ext: None,
            context: None,
            limit: None,
        };
        let out = VaultSearch
            .run(self.ctx, input)
            .map_err(|e| e.to_string())?;
        serde_json::to_value(out.matches).map_err(|e| e.to_string())
    }

    fn call(&self, payload: &str) -> Result<Value, String> {
        let args: CallArgs = parse(payload, "ctx.call(operation, args)")?;
        let operation = args.operation.ok_or(
            "ctx.call needs an operation name, e.g. ctx.call('note_read', { path: 'a.md' })",
        )?;
        let out = (self.call_op)(&operation, args.args);
        if out.is_error {
            let text = out.text.strip_prefix("error: ").unwrap_or(&out.text);
            return Err(format!("{operation}: {text}"));
        }
        // Operations answer JSON; a script wants the value, not its text.
        Ok(serde_json::from_str(&out.text).unwrap_or(Value::String(out.text)))
    }
}

fn parse<T: for<'de> Deserialize<'de>>(payload: &str, call: &str) -> Result<T, String> {
    serde_json::from_str(payload).map_err(|e| format!("bad arguments for {call}: {e}"))
}

fn refuse_hidden(path: &str) -> Result<(), String> {
    let first = path.split('/').next().unwrap_or_default();
    match HIDDEN.iter().find(|h| h.eq_ignore_ascii_case(first)) {
        Some(folder) => Err(format!(
            "'{path}' is inside {folder}/, which scripts cannot read"
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn easel_and_git_folders_are_not_readable() {
        assert!(refuse_hidden(".easel/config.toml").is_err());
        assert!(refuse_hidden(".Git/config").is_err());
        assert!(refuse_hidden("Notes/.easel.md").is_ok());
        assert!(refuse_hidden("notes.md").is_ok());
    }
}
