//! `easel agent list|show|new`: the agent files of the vault, over the `agent_*` operations.

use crate::cli::AgentCmd;
use crate::output::Output;
use easel_agent::ops::{
    AgentList, AgentListInput, AgentNew, AgentNewInput, AgentShow, AgentShowInput, ToolNames,
};
use easel_ops::{Actor, Ctx, Op, Registry};
use easel_vault::Vault;

pub fn run(vault: &Vault, registry: &Registry, out: &Output, cmd: AgentCmd) -> anyhow::Result<()> {
    let ctx = Ctx::new(vault.clone(), Actor::cli());
    let names = ToolNames::of(registry);
    match cmd {
        AgentCmd::Run {
            name,
            input,
            session,
            model,
            yes,
            dry_run,
            max_turns,
        } => super::agent_run::run(
            vault,
            out,
            super::agent_run::RunArgs {
                agent: name,
                input,
                session,
                model,
                yes,
                dry_run,
                max_turns,
            },
        ),
        AgentCmd::Chat { name, model } => super::agent_run::chat(vault, out, name, model),
        AgentCmd::Approve { session, deny, yes } => {
            super::agent_run::approve(vault, out, &session, deny, yes)
        }
        AgentCmd::List => {
            let list = AgentList(names).run(&ctx, AgentListInput {})?;
            out.emit(&list, |l| {
                if l.agents.is_empty() && l.problems.is_empty() {
                    outln!("no agents; create one with 'easel agent new NAME'");
                }
                let width = l.agents.iter().map(|a| a.name.len()).max().unwrap_or(0);
                for a in &l.agents {
                    let off = if a.enabled { "" } else { " (disabled)" };
                    outln!("{:<width$}  {}{off}", a.name, a.description);
                    let mut facts = vec![a.path.clone()];
                    if !a.model.is_empty() {
                        facts.push(format!("model {}", a.model.join(", ")));
                    }
                    if let Some(tools) = &a.tools {
                        facts.push(format!("tools {}", tools.join(", ")));
                    }
                    if !a.handoffs.is_empty() {
                        facts.push(format!("hands off to {}", a.handoffs.join(", ")));
                    }
                    outln!("{:<width$}  {}", "", facts.join("; "));
                }
                for p in &l.problems {
                    outln!("problem: {}: {}", p.path, p.reason);
                }
                for w in &l.warnings {
                    outln!("warning: {w}");
                }
            })
        }
        AgentCmd::Show { name } => {
            let agent = AgentShow(names).run(&ctx, AgentShowInput { name })?;
            out.emit(&agent, |a| {
                outln!("{} ({})", a.name, a.path);
                if !a.description.is_empty() {
                    outln!("description: {}", a.description);
                }
                outln!(
                    "model: {}",
                    if a.model.is_empty() {
                        "the configured default".to_string()
                    } else {
                        a.model.join(", ")
                    }
                );
                outln!(
                    "tools: {}",
                    a.tools
                        .as_ref()
                        .map_or_else(|| "the read-only operations".to_string(), |t| t.join(", "))
                );
                for h in &a.handoffs {
                    let label = h
                        .label
                        .as_deref()
                        .map(|l| format!(" ({l})"))
                        .unwrap_or_default();
                    outln!("hands off to: {}{label}", h.agent);
                }
                if !a.agents_as_tools.is_empty() {
                    outln!("asks: {}", a.agents_as_tools.join(", "));
                }
                outln!("max turns: {}", a.max_turns);
                if let Some(t) = a.temperature {
                    outln!("temperature: {t}");
                }
                if !a.enabled {
                    outln!("disabled");
                }
                for r in &a.permission {
                    let d = serde_json::to_value(r.decision).unwrap_or_default();
                    outln!(
                        "permission: {} {}",
                        r.pattern,
                        d.as_str().unwrap_or_default()
                    );
                }
                for w in &a.warnings {
                    outln!("warning: {w}");
                }
                outln!();
                crate::output::write_stdout(format_args!("{}", a.instructions));
                if !a.instructions.ends_with('\n') {
                    outln!();
                }
            })
        }
        AgentCmd::New { starter: true, .. } => {
            let mut created = Vec::new();
            for input in easel_agent::ops::starter_set() {
                let name = input.name.clone();
                match AgentNew(names.clone()).run(&ctx, input) {
                    Ok(c) => created.push(serde_json::json!({"name": c.name, "path": c.path, "created": true, "warnings": c.warnings})),
                    Err(e) if e.kind == easel_ops::ErrorKind::Conflict => created.push(
                        serde_json::json!({"name": name, "path": format!(".easel/agents/{name}.md"), "created": false, "warnings": []}),
                    ),
                    Err(e) => return Err(e.into()),
                }
            }
            out.emit(&created, |list| {
                for c in list {
                    let verb = if c["created"] == true {
                        "created"
                    } else {
                        "kept the existing"
                    };
                    outln!("{verb} {}", c["path"].as_str().unwrap_or_default());
                }
                outln!("try: easel agent chat assistant");
            })
        }
        AgentCmd::New {
            name,
            description,
            model,
            tools,
            ..
        } => {
            let input = AgentNewInput {
                name: name.unwrap_or_default(),
                description,
                model,
                tools,
                instructions: None,
                handoffs: None,
            };
            let created = AgentNew(names).run(&ctx, input)?;
            out.emit(&created, |c| {
                outln!(
                    "created {} ({}); edit it, then 'easel agent show {}'",
                    c.path,
                    c.name,
                    c.name
                );
                for w in &c.warnings {
                    outln!("warning: {w}");
                }
            })
        }
    }
}
