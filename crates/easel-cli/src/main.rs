//! `easel`: the command line over Easel's libraries. Each command parses its arguments,
//! calls one library function and prints the result; no logic lives here.

// First, so that its `outln!` and `out!` are visible in every module below.
#[macro_use]
mod output;
mod cli;
mod cmd;
mod failure;
mod input;
mod registry;

use clap::Parser;
use cli::{Cli, Command};
use failure::Failure;
use std::process::ExitCode;

/// mimalloc rather than the system's: `easel code init` decodes, builds and drops hundreds of
/// thousands of small strings, and glibc's allocator spent a fifth of a warm re-init in
/// `malloc`, `free` and growing its per-thread heaps. Built without transparent huge pages
/// (`no_thp`): with them, a one-file re-init varied between 110 and 330 ms from run to run.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return failure::clap_error(e),
    };
    init_tracing();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of stdout went away (`| head`): it has what it wanted.
        Err(e) if output::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => Failure::from_anyhow(&e).report(),
    }
}

fn init_tracing() {
    // Quiet by default; EASEL_LOG=debug (or any tracing filter) shows what happens.
    let filter = tracing_subscriber::EnvFilter::try_from_env("EASEL_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .init();
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let out = output::Output::new(cli.json);
    // Code commands work on a repository folder, not on a vault; the shell helpers on nothing.
    let command = match cli.command {
        Command::Code(c) => return cmd::code::run(&out, c),
        Command::Completions { shell } => return completions(shell),
        Command::Man => return man_page(),
        other => other,
    };
    let vault = cmd::open_vault(cli.vault.as_deref())?;
    match command {
        Command::Canvas(c) => cmd::canvas::run(&vault, &out, *c),
        Command::Thread(t) => cmd::thread::run(&vault, &out, t),
        Command::Llm(l) => cmd::llm::run(&vault, &out, l),
        Command::Agent(a) => cmd::agent::run(&vault, &registry::build(), &out, a),
        Command::Doc(d) => cmd::doc::run(&vault, &out, d),
        Command::Ledger { limit } => cmd::ledger::list(&vault, &out, limit),
        Command::Undo { id, run } => cmd::ledger::undo(&vault, &out, id, run),
        Command::Code(c) => cmd::code::run(&out, c),
        Command::Mcp(args) => cmd::mcp::run(vault, args),
        Command::Serve(args) => cmd::serve::run(vault, args),
        Command::Op(c) => cmd::op::run(vault, &registry::build(), &out, c),
        Command::Completions { .. } | Command::Man => Ok(()),
    }
}

/// `easel completions SHELL`: the script, from the same clap definitions as the parser.
fn completions(shell: clap_complete::Shell) -> anyhow::Result<()> {
    use clap::CommandFactory;
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "easel", &mut script);
    output::write_stdout(format_args!("{}", String::from_utf8_lossy(&script)));
    Ok(())
}

/// `easel man`: the man page in roff, from the same clap definitions as the parser.
fn man_page() -> anyhow::Result<()> {
    use clap::CommandFactory;
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut page)?;
    output::write_stdout(format_args!("{}", String::from_utf8_lossy(&page)));
    Ok(())
}
