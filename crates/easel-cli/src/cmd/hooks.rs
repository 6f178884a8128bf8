//! `easel code hook EVENT` and `easel code hooks install`: thin adapters over
//! `easel_code::hooks`.

use crate::cli::{HookArg, HooksCmd};
use crate::output::Output;
use easel_code::hooks::{self, HookEvent};
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
        HooksCmd::Install { project, command } => {
            let report = hooks::install(&project, &command)?;
            out.emit(&report, |r| {
                outln!(
                    "{} {} with Easel's hooks ({}):",
                    if r.created { "created" } else { "updated" },
                    r.path.display(),
                    if r.replaced > 0 {
                        format!("replaced {} from an earlier install", r.replaced)
                    } else {
                        "other settings kept".to_string()
                    }
                );
                for (event, matcher, _) in hooks::HOOK_EVENTS {
                    outln!("  {:<13} {matcher}", event.name());
                }
            })
        }
    }
}
