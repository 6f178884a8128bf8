//! A time budget for one file's parse and query. Some inputs cost time far beyond their size:
//! in 100 KB of nested brackets every node advances a query state per enclosing level, so the
//! query takes time quadratic in the depth (47 s; the 2 MB cap would take hours). Tree-sitter
//! calls back while it parses and queries; past the budget the work stops and the file is
//! skipped (and remembered as skipped by its content key).
//!
//! The budget is generous, because a file that runs over it is remembered as skipped: real
//! source files parse and query at one to several megabytes per second even in a debug build
//! on a loaded machine (270 KB of Python in 0.13 s, 1.8 MB of JavaScript in 0.24 s), so only
//! pathological files reach it. It is time, not a count of tree-sitter's steps: the query
//! cursor's progress callback comes at a rate that does not grow with what makes deep nesting
//! slow (10 KB of nested brackets: 40 callbacks for 0.6 s of work).

use crate::sniff::SkipReason;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tree_sitter::{ParseOptions, ParseState, Parser, QueryCursorState, Tree};

/// The budget of an empty file.
const BASE: Duration = Duration::from_secs(2);
/// What each megabyte adds.
const PER_MB: Duration = Duration::from_secs(3);

/// Why extraction failed: a skip with its reason, or another error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Failure {
    Skip(SkipReason),
    Error(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Skip(r) => f.write_str(r.describe()),
            Failure::Error(e) => f.write_str(e),
        }
    }
}

impl From<String> for Failure {
    fn from(e: String) -> Failure {
        Failure::Error(e)
    }
}

/// The time one file may take, from when it was made.
pub(crate) struct Budget {
    deadline: Instant,
    over: AtomicBool,
}

impl Budget {
    /// The budget of a file of `bytes` bytes, starting now.
    pub(crate) fn for_size(bytes: usize) -> Budget {
        let extra = PER_MB.mul_f64(bytes as f64 / (1024.0 * 1024.0));
        Budget {
            deadline: Instant::now() + BASE + extra,
            over: AtomicBool::new(false),
        }
    }

    /// A budget that never runs out (for callers with their own limits).
    pub(crate) fn unlimited() -> Budget {
        Budget {
            deadline: Instant::now() + Duration::from_secs(365 * 24 * 3600),
            over: AtomicBool::new(false),
        }
    }

    fn check(&self) -> ControlFlow<()> {
        if Instant::now() > self.deadline {
            self.over.store(true, Ordering::Relaxed);
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Whether the deadline has passed (and the work must stop), for a walk of our own.
    pub(crate) fn run_out(&self) -> bool {
        self.check().is_break()
    }

    /// Whether a callback stopped the work.
    pub(crate) fn is_over(&self) -> bool {
        self.over.load(Ordering::Relaxed)
    }

    /// Parses `src`, stopping at the deadline.
    pub(crate) fn parse(&self, p: &mut Parser, src: &[u8]) -> Result<Tree, Failure> {
        let mut progress = |_: &ParseState| self.check();
        let options = ParseOptions::new().progress_callback(&mut progress);
        let len = src.len();
        let tree = p.parse_with_options(&mut |i, _| &src[i.min(len)..], None, Some(options));
        match tree {
            Some(t) => Ok(t),
            None if self.is_over() => {
                // A stopped parse leaves the parser mid-way; the next file starts afresh.
                p.reset();
                Err(Failure::Skip(SkipReason::ParseBudget))
            }
            None => Err(Failure::Error("the parser gave up".into())),
        }
    }

    /// The callback a query cursor calls while it matches.
    pub(crate) fn query_progress(&self) -> impl FnMut(&QueryCursorState) -> ControlFlow<()> + '_ {
        |_: &QueryCursorState| self.check()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spent_budget_stops_the_parse_and_says_so() {
        let spent = Budget {
            deadline: Instant::now(),
            over: AtomicBool::new(false),
        };
        let mut p = Parser::new();
        p.set_language(&crate::Lang::Python.grammar())
            .unwrap_or_default();
        let src = "x = 1\n".repeat(20_000);
        assert_eq!(
            spent.parse(&mut p, src.as_bytes()).err(),
            Some(Failure::Skip(SkipReason::ParseBudget))
        );
        // The parser is usable again.
        let fresh = Budget::for_size(6);
        assert!(fresh.parse(&mut p, b"x = 1\n").is_ok());
    }
}
