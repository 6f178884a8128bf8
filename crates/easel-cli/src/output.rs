//! Printing results: JSON with `--json`, otherwise lines for people.
//!
//! Everything meant for stdout goes through [`outln!`] or [`Output::emit`], never
//! `println!`: `println!` panics when the reader has gone away (`easel code graph | head`),
//! while these stop quietly, as a command whose reader needs no more output should.

use serde::Serialize;
use std::io::Write;

/// `println!` for results: a closed pipe ends the command quietly instead of panicking.
macro_rules! outln {
    () => {
        $crate::output::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Writes to stdout; on failure the command cannot usefully go on (nobody reads the rest).
pub fn write_stdout(args: std::fmt::Arguments) {
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(args) {
        stdout_failed(&e);
    }
}

/// For a person at a terminal, the text of a streaming operation's events (`delta`) as it comes;
/// with `--json` the whole result is printed at the end instead, so nothing is added.
pub fn with_streamed_text(ctx: easel_ops::Ctx, out: &Output) -> easel_ops::Ctx {
    if out.is_json() {
        return ctx;
    }
    ctx.with_events(std::sync::Arc::new(|event| {
        if let easel_ops::OpEvent::Data(data) = event
            && let Some(text) = data.get("delta").and_then(|d| d.as_str())
        {
            let mut stdout = std::io::stdout();
            if let Err(e) = stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
            {
                stdout_failed(&e);
            }
        }
    }))
}

/// Ends the process after a failed write to stdout. A reader that closed the pipe (`| head`)
/// got what it wanted: exit 0 without a message, as `cat` and `grep` do when they are killed by
/// SIGPIPE in a pipeline that does not care. Any other failure (a full disk behind a
/// redirection) is an error the user must see.
pub fn stdout_failed(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("error: cannot write the output: {e}");
    eprintln!(
        "hint: check where stdout goes (a full disk, a closed file) and run the command again"
    );
    std::process::exit(easel_vault::ErrorKind::Failure.exit_code());
}

/// Whether an error is stdout's reader having gone away, wherever in the chain it was wrapped.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            || c.downcast_ref::<serde_json::Error>()
                .is_some_and(|j| j.io_error_kind() == Some(std::io::ErrorKind::BrokenPipe))
    })
}

pub struct Output {
    json: bool,
}

impl Output {
    pub fn new(json: bool) -> Output {
        Output { json }
    }

    pub fn is_json(&self) -> bool {
        self.json
    }

    /// Prints `value` as JSON when `--json` was given, otherwise calls `human`.
    pub fn emit<T: Serialize>(&self, value: &T, human: impl FnOnce(&T)) -> anyhow::Result<()> {
        if self.json {
            let mut text = serde_json::to_string_pretty(value)?;
            text.push('\n');
            let mut stdout = std::io::stdout().lock();
            if let Err(e) = stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
            {
                stdout_failed(&e);
            }
        } else {
            human(value);
        }
        Ok(())
    }
}

/// The first line of a text, shortened to `max` characters.
pub fn preview(text: &str, max: usize) -> String {
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty() && l.trim() != "---")
        .unwrap_or("");
    // Control characters (escape sequences, carriage returns) from a file would drive the
    // terminal, not show text: they are shown as U+FFFD.
    let mut s: String = line
        .chars()
        .take(max)
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect();
    if line.chars().count() > max {
        s.push('…');
    }
    s
}

/// Writes a file the user named (outside the vault's rules: it is output, not vault content)
/// through the vault's one atomic writer: temp file, fsync, rename, fsync the folder, so a
/// reader never sees half of it and a crash leaves the old file or the new one.
pub fn write_file_atomically(path: &std::path::Path, bytes: &[u8]) -> anyhow::Result<()> {
    // A bare file name has the current folder as its parent.
    let path = if path.parent().is_some_and(|p| p.as_os_str().is_empty()) {
        std::path::Path::new(".").join(path)
    } else {
        path.to_path_buf()
    };
    Ok(easel_vault::write_atomic(&path, bytes)?)
}
