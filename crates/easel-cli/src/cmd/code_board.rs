//! `easel code claim|decide|mark|skip|status|read|task`: thin adapters over
//! `easel_code::board`.

use crate::cli::BoardCmd;
use crate::output::Output;
use easel_code::board::{self, Action, BoardOptions, Front, Outcome};

pub fn run(out: &Output, cmd: BoardCmd) -> anyhow::Result<()> {
    let (dir, action) = match cmd {
        BoardCmd::Claim { text, kind, dir } => (dir.dir, Action::Claim { text, kind }),
        BoardCmd::Decide { text, kind, dir } => (dir.dir, Action::Decide { text, kind }),
        BoardCmd::Mark { symbol, text, dir } => (dir.dir, Action::Mark { symbol, text }),
        BoardCmd::Skip { symbol, text, dir } => (dir.dir, Action::Skip { symbol, text }),
        BoardCmd::Status { dir } => (dir.dir, Action::Status),
        BoardCmd::Read { dir } => (dir.dir, Action::Read),
        BoardCmd::Task { task_id, dir } => (dir.dir, Action::TaskSelect { task_id }),
    };
    // The same rule as the `canvas` tool and the hooks: a subfolder works on its repository.
    let dir = easel_code::repo_root(&dir);
    let outcome = board::run(&dir, action, &options())?;
    emit(out, &outcome)
}

/// How the command line acts on a board.
pub fn options() -> BoardOptions<'static> {
    BoardOptions::new(Front::Cli, "cli")
}

/// The three parts, then where the pictures are.
pub fn print(o: &Outcome) {
    outln!("{}", o.text());
    for i in &o.images {
        outln!("view: {}", i.path);
    }
}

pub fn emit(out: &Output, o: &Outcome) -> anyhow::Result<()> {
    out.emit(o, print)
}
