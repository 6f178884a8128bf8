//! `easel code hook EVENT` and `easel code hooks install`: thin adapters over
//! `easel_code::hooks`.

use crate::cli::{HookArg, HooksCmd};
use crate::output::Output;
use easel_code::hooks::{self, HookEvent};
use serde::Serialize;
use std::io::Read;

/// Runs one hook. Always succeeds: a hook that fails must not disturb the agent's session.
pub fn hook(event: HookArg) -> anyhow::Result<()> {
    let event = match event {
        HookArg::SessionStart => HookEvent::SessionStart,
        HookArg::PreToolUse => HookEvent::PreToolUse,
        HookArg::PostToolUse => HookEvent::PostToolUse,
    };
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        tracing::warn!("cannot read the hook input: {e}");
        return Ok(());
    }
    if let Some(json) = hooks::handle(event, &input) {
        outln!("{json}");
    }
    Ok(())
}

pub fn run(out: &Output, cmd: HooksCmd) -> anyhow::Result<()> {
    match cmd {
        HooksCmd::Install {
            project,
            command,
            local,
        } => {
            let exe = std::env::current_exe()
                .map_err(|e| anyhow::anyhow!("cannot find the running easel binary: {e}"))
                .or_else(|e| match &command {
                    Some(_) => Ok(std::path::PathBuf::new()),
                    None => Err(e.context(
                        "hint: name the command the hooks should run with --command /full/path/to/easel",
                    )),
                })?;
            let chosen = hooks::hook_command(
                command.as_deref(),
                std::env::var_os("PATH").as_deref(),
                &exe,
            );
            let file = if local {
                hooks::SettingsFile::Local
            } else {
                hooks::SettingsFile::Shared
            };
            let report = hooks::install(&project, &chosen.command, file)?;
            #[derive(Serialize)]
            struct Installed {
                #[serde(flatten)]
                report: hooks::InstallReport,
                command_source: hooks::CommandSource,
                #[serde(skip_serializing_if = "Option::is_none")]
                other_easel: Option<std::path::PathBuf>,
                #[serde(skip)]
                described: String,
            }
            let r = Installed {
                report,
                command_source: chosen.source,
                other_easel: chosen.other.clone(),
                described: chosen.describe(),
            };
            out.emit(&r, |r| {
                outln!(
                    "{} {} with Easel's hooks ({}):",
                    if r.report.created {
                        "created"
                    } else {
                        "updated"
                    },
                    r.report.path.display(),
                    if r.report.replaced > 0 {
                        format!("replaced {} from an earlier install", r.report.replaced)
                    } else {
                        "other settings kept".to_string()
                    }
                );
                for (event, matcher, _) in hooks::HOOK_EVENTS {
                    outln!("  {:<13} {matcher}", event.name());
                }
                outln!("{}", r.described);
            })
        }
    }
}
