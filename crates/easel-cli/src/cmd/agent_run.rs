//! `easel agent run|approve|chat`: an agent's run on the terminal. The answer streams to
//! stdout, tool calls and handoffs show on stderr, and a call that needs approval is asked
//! about on the terminal; without one the run stops, keeps the approval waiting and exits
//! with code 6. With `--json`, every event of the run is a JSON line on stdout.

use crate::output::{Output, write_stdout};
use easel_agent::{AgentEvent, Answer, Approvals, Approver, Finish, RunRequest, Runtime};
use easel_ops::{Actor, Ctx};
use easel_vault::Vault;
use serde_json::Value;
use std::io::{BufRead, IsTerminal, Write};
use std::sync::Arc;

/// What `easel agent run` was asked.
pub struct RunArgs {
    pub agent: String,
    pub input: String,
    pub session: Option<String>,
    pub model: Option<String>,
    pub yes: bool,
    pub dry_run: bool,
    pub max_turns: Option<u32>,
}

fn runtime(vault: &Vault) -> anyhow::Result<Runtime> {
    let models = Arc::new(easel_llm::ops::Models::default());
    let ctx = Ctx::new(vault.clone(), Actor::cli());
    let llm = models.llm(&ctx)?;
    let model = Arc::new(easel_agent::LlmModel::new(llm, models.clone()));
    let registry = crate::registry::build_for_agents(models);
    let (rt, notes) = easel_agent::load_runtime(vault, registry, model)?;
    for n in notes {
        eprintln!("warning: {n}");
    }
    Ok(rt)
}

/// Asks on the terminal: yes, no, or always for this tool.
struct Terminal;

impl Approver for Terminal {
    fn ask(&self, agent: &str, tool: &str, arguments: &Value) -> Answer {
        let args = serde_json::to_string(arguments).unwrap_or_default();
        let args = crate::output::preview(&args, 300);
        loop {
            eprint!(
                "\n{agent} wants to run {tool} {args}\nAllow? [y]es, [n]o, [a]lways for {tool}: "
            );
            let _ = std::io::stderr().flush();
            let mut line = String::new();
            if std::io::stdin().lock().read_line(&mut line).unwrap_or(0) == 0 {
                return Answer::No;
            }
            match line.trim().to_ascii_lowercase().as_str() {
                "y" | "yes" => return Answer::Yes,
                "n" | "no" => return Answer::No,
                "a" | "always" => return Answer::Always,
                _ => eprintln!("answer y, n or a"),
            }
        }
    }
}

fn interactive() -> bool {
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// Shows one event: a JSON line, or text for people.
pub(crate) fn show(out: &Output, e: &AgentEvent) {
    if out.is_json() {
        if let Ok(line) = serde_json::to_string(e) {
            write_stdout(format_args!("{line}\n"));
        }
        return;
    }
    match e {
        AgentEvent::TextDelta { delta, .. } => write_stdout(format_args!("{delta}")),
        AgentEvent::ToolCall {
            name, arguments, ..
        } => {
            let args = serde_json::to_string(arguments).unwrap_or_default();
            eprintln!("\n→ {name} {}", crate::output::preview(&args, 200));
        }
        AgentEvent::ToolOutput {
            name,
            output,
            is_error,
            ..
        } => {
            let mark = if *is_error { "✗" } else { "←" };
            eprintln!("{mark} {name}: {}", crate::output::preview(output, 200));
        }
        AgentEvent::Handoff { from, to } => eprintln!("\n{from} → {to}"),
        AgentEvent::ApprovalNeeded { .. } | AgentEvent::Done { .. } | AgentEvent::Error { .. } => {}
    }
}

/// Prints how the run ended; a waiting approval becomes the `waiting` error (exit 6).
fn ended(out: &Output, f: Finish) -> anyhow::Result<Option<String>> {
    match f {
        Finish::Done {
            agent,
            output,
            session,
            run,
            turns,
            usage,
            proposed,
        } => {
            if out.is_json() {
                show(
                    out,
                    &AgentEvent::Done {
                        agent,
                        output,
                        session: session.clone(),
                        run,
                        turns,
                        usage: serde_json::to_value(usage).unwrap_or_default(),
                        proposed,
                    },
                );
            } else {
                if !output.ends_with('\n') {
                    write_stdout(format_args!("\n"));
                }
                for p in &proposed {
                    eprintln!("proposed (not applied): {p}");
                }
                eprintln!(
                    "{agent} · session {session} · run {run} · {turns} model call{}",
                    if turns == 1 { "" } else { "s" }
                );
            }
            Ok(Some(session))
        }
        // The run has shown its `approval_needed` event already.
        Finish::Waiting(w) => Err(easel_agent::AgentError::Waiting {
            session: w.session,
            tool: w.name,
            arguments: w.arguments,
        }
        .into()),
    }
}

fn approvals(yes: bool, dry_run: bool, terminal: &Terminal) -> Approvals<'_> {
    if yes {
        Approvals::Yes
    } else if dry_run {
        Approvals::DryRun
    } else if interactive() {
        Approvals::Ask(terminal)
    } else {
        Approvals::Wait
    }
}

/// `easel agent run NAME INPUT`.
pub fn run(vault: &Vault, out: &Output, args: RunArgs) -> anyhow::Result<()> {
    let rt = runtime(vault)?;
    let terminal = Terminal;
    let f = rt.run(
        RunRequest {
            agent: args.agent,
            input: Some(args.input),
            session: args.session,
            model: args.model,
            approvals: approvals(args.yes, args.dry_run, &terminal),
            max_turns: args.max_turns,
        },
        &|e| show(out, &e),
    );
    ended(out, failed(out, f)?).map(|_| ())
}

/// `easel agent approve SESSION [--deny] [--yes]`.
pub fn approve(
    vault: &Vault,
    out: &Output,
    session: &str,
    deny: bool,
    yes: bool,
) -> anyhow::Result<()> {
    let rt = runtime(vault)?;
    let terminal = Terminal;
    let f = rt.approve(session, !deny, approvals(yes, false, &terminal), &|e| {
        show(out, &e)
    });
    ended(out, failed(out, f)?).map(|_| ())
}

/// `easel agent chat NAME`: one session, a line of input at a time, until an empty line at
/// the end of input or `/exit`.
pub fn chat(
    vault: &Vault,
    out: &Output,
    agent: String,
    model: Option<String>,
) -> anyhow::Result<()> {
    let rt = runtime(vault)?;
    rt.agent(&agent)?;
    let terminal = Terminal;
    let mut session: Option<String> = None;
    eprintln!("Chatting with {agent}. /exit or Ctrl-D ends.");
    let stdin = std::io::stdin();
    loop {
        eprint!("\nyou> ");
        let _ = std::io::stderr().flush();
        let mut line = String::new();
        if stdin.lock().read_line(&mut line)? == 0 {
            eprintln!();
            return Ok(());
        }
        let line = line.trim();
        if line == "/exit" {
            return Ok(());
        }
        if line.is_empty() {
            continue;
        }
        let f = rt.run(
            RunRequest {
                agent: agent.clone(),
                input: Some(line.to_string()),
                session: session.clone(),
                model: model.clone(),
                approvals: approvals(false, false, &terminal),
                max_turns: None,
            },
            &|e| show(out, &e),
        );
        match f.map_err(anyhow::Error::from).and_then(|f| ended(out, f)) {
            Ok(s) => session = s,
            // The conversation goes on after a failed turn; the error is shown like any other.
            Err(e) => {
                eprintln!("error: {e}");
                if let Some(id) = e
                    .downcast_ref::<easel_agent::AgentError>()
                    .and_then(session_of)
                {
                    session = Some(id);
                }
            }
        }
    }
}

/// With `--json`, a failed run ends with an `error` event line before the error itself.
fn failed(
    out: &Output,
    f: Result<Finish, easel_agent::AgentError>,
) -> Result<Finish, easel_agent::AgentError> {
    if let Err(e) = &f
        && out.is_json()
    {
        show(
            out,
            &AgentEvent::Error {
                message: e.to_string(),
                hint: e.hint(),
                session: session_of(e),
            },
        );
    }
    f
}

fn session_of(e: &easel_agent::AgentError) -> Option<String> {
    match e {
        easel_agent::AgentError::MaxTurns { session, .. }
        | easel_agent::AgentError::Model { session, .. }
        | easel_agent::AgentError::Waiting { session, .. } => Some(session.clone()),
        _ => None,
    }
}
