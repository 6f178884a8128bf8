//! [`Ctx`]: what an operation runs with.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use easel_core::{Actor, RunId};
use easel_vault::{Change, Vault};
use serde::Serialize;

/// A flag that asks running work to stop. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag that is not set.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Wraps an existing flag (a signal handler's, a transport's).
    pub fn from_flag(flag: Arc<AtomicBool>) -> Cancel {
        Cancel(flag)
    }

    /// The shared flag, for code that polls an `AtomicBool`.
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }

    /// Ask the work to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether stopping was asked for.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// Something a running operation reports before it returns: progress of long work, or the
/// events of a streaming one (an answer's text, an agent's tool calls).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OpEvent {
    /// How far long work has come.
    Progress {
        /// Units done.
        done: u64,
        /// Units in all, when known.
        #[serde(skip_serializing_if = "Option::is_none")]
        total: Option<u64>,
        /// What is happening now, for people.
        message: String,
    },
    /// A domain event as JSON (`{"type":"text_delta",...}`), passed through to the front end.
    Data(serde_json::Value),
}

/// Where a running operation's events go.
pub type EventSink = Arc<dyn Fn(OpEvent) + Send + Sync>;

/// What an operation runs with: the vault, who is acting, the run it belongs to, a way to be
/// cancelled and a place to send events. Cheap to clone.
#[derive(Clone)]
pub struct Ctx {
    vault: Vault,
    actor: Actor,
    run: Option<RunId>,
    cancel: Cancel,
    events: Option<EventSink>,
}

impl std::fmt::Debug for Ctx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ctx")
            .field("vault", &self.vault.root())
            .field("actor", &self.actor)
            .field("run", &self.run)
            .field("cancelled", &self.cancel.is_cancelled())
            .finish()
    }
}

impl Ctx {
    /// A context for `actor` in `vault`, outside any run, not cancellable from outside, with
    /// events dropped.
    pub fn new(vault: Vault, actor: Actor) -> Ctx {
        Ctx {
            vault,
            actor,
            run: None,
            cancel: Cancel::new(),
            events: None,
        }
    }

    /// The same context inside `run`.
    pub fn with_run(mut self, run: RunId) -> Ctx {
        self.run = Some(run);
        self
    }

    /// The same context, stopped by `cancel`.
    pub fn with_cancel(mut self, cancel: Cancel) -> Ctx {
        self.cancel = cancel;
        self
    }

    /// The same context, sending events to `sink`.
    pub fn with_events(mut self, sink: EventSink) -> Ctx {
        self.events = Some(sink);
        self
    }

    /// The same context acting as someone else (an agent calling for its user).
    pub fn with_actor(mut self, actor: Actor) -> Ctx {
        self.actor = actor;
        self
    }

    /// The vault.
    pub fn vault(&self) -> &Vault {
        &self.vault
    }

    /// Who is acting.
    pub fn actor(&self) -> &Actor {
        &self.actor
    }

    /// The run this work belongs to.
    pub fn run(&self) -> Option<&RunId> {
        self.run.as_ref()
    }

    /// The cancellation flag.
    pub fn cancel(&self) -> &Cancel {
        &self.cancel
    }

    /// Whether the caller asked the work to stop.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// Whether anyone listens to events (so that work can skip making them).
    pub fn wants_events(&self) -> bool {
        self.events.is_some()
    }

    /// Send an event to whoever listens.
    pub fn emit(&self, event: OpEvent) {
        if let Some(sink) = &self.events {
            sink(event);
        }
    }

    /// Report progress of long work.
    pub fn progress(&self, done: u64, total: Option<u64>, message: impl Into<String>) {
        if self.events.is_some() {
            self.emit(OpEvent::Progress {
                done,
                total,
                message: message.into(),
            });
        }
    }

    /// The ledger record of a change made by operation `op`.
    pub fn change(&self, op: &str, summary: impl Into<String>) -> Change {
        Change {
            actor: self.actor.as_str().to_string(),
            op: op.to_string(),
            summary: summary.into(),
            run: self.run.as_ref().map(|r| r.as_str().to_string()),
            span: None,
        }
    }

    /// The actor as the vault's canvas functions take it.
    pub fn canvas_actor(&self) -> easel_vault::canvas::Actor {
        easel_vault::canvas::Actor {
            name: self.actor.as_str().to_string(),
            run: self.run.as_ref().map(|r| r.as_str().to_string()),
        }
    }
}
