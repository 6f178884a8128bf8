//! One run of a script in its own QuickJS runtime: created for the run, limited in memory, stack
//! and time, and dropped with everything the script made (pending jobs included) when the run
//! ends.
//!
//! The runtime gets the standard built-ins and nothing else: no `require`, no module loader, no
//! `std`/`os`, no timers. The module form needs `module` and `exports`; the only door out is
//! the `ctx` object handed to `execute`, whose functions send a request to the thread that owns
//! the vault and the run's approvals (see [`super::host`]) and wait for its answer.

use rquickjs::{Context, Ctx, Error as JsError, Function, Object, Promise, Runtime, Value};
use std::cell::Cell;
use std::rc::Rc;
use std::sync::mpsc::{Receiver, Sender};
use std::time::{Duration, Instant};

/// What one run may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall time of the script's own work; time spent waiting for `ctx.call` (an approval, an
    /// operation) is not counted.
    pub deadline: Duration,
    /// Bytes the runtime may allocate.
    pub memory: usize,
    /// Bytes of native stack the interpreter may use.
    pub stack: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            deadline: Duration::from_secs(2),
            memory: 32 * 1024 * 1024,
            stack: 1024 * 1024,
        }
    }
}

/// Why a run gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The file does not parse.
    Syntax(String),
    /// The script threw (or its promise rejected) with this error.
    Thrown(String),
    TimedOut,
    /// The run was cancelled (the user stopped the agent).
    Cancelled,
    OutOfMemory,
    StackOverflow,
    /// `execute` returned a promise that nothing will ever settle.
    NeverSettled,
    /// The result cannot be turned into JSON.
    NotJson(String),
    /// The file does not have the module form.
    Form(String),
    /// The engine itself failed (could not start a runtime or a thread).
    Engine(String),
}

/// A question from the script to the host thread.
pub(crate) struct HostRequest {
    pub kind: String,
    pub payload: String,
    /// What is left of the deadline, so that a fetch does not outlive it.
    pub remaining: Duration,
}

/// The host's answer: `{"ok": value}` or `{"error": message}` as JSON, and how long the
/// request waited on things the deadline does not count.
pub(crate) struct HostReply {
    pub json: String,
    pub paused: Duration,
}

/// The script's end of the line to the host thread.
pub(crate) struct HostLink {
    pub requests: Sender<HostRequest>,
    pub replies: Receiver<HostReply>,
}

/// What to do with the file once it is evaluated.
pub(crate) enum Mode {
    /// Report `module.exports` as JSON: name, description, parameters, effect and whether
    /// `execute` is a function.
    Describe,
    /// Call `execute` with these arguments (a JSON object) and the `ctx` object.
    Execute { args: String },
}

/// Builds `ctx` around the one host function without adding a global: the expression evaluates
/// to a function, called once with the host function.
const CTX_FACTORY: &str = r#"(function (host) {
  'use strict';
  const parse = JSON.parse, stringify = JSON.stringify, freeze = Object.freeze;
  const ask = (kind, payload) => {
    const reply = parse(host(kind, stringify(payload)));
    if (reply.error !== undefined) throw new Error(reply.error);
    return reply.ok;
  };
  return freeze({
    vault: freeze({
      read: (path) => ask('read', { path }),
      list: (folder) => ask('list', { folder: folder === undefined ? null : folder }),
      search: (query) => ask('search', { query }),
    }),
    call: (operation, args) => ask('call', { operation, args: args === undefined ? {} : args }),
    fetch: (url, options) => ask('fetch', { url, options: options === undefined ? {} : options }),
  });
})"#;

/// Runs `source` (named `file` in error messages) under `limits`.
pub(crate) fn run(
    source: &str,
    file: &str,
    limits: Limits,
    mode: Mode,
    link: HostLink,
    cancel: easel_ops::Cancel,
) -> Result<String, Failure> {
    let runtime = Runtime::new().map_err(|e| Failure::Engine(e.to_string()))?;
    runtime.set_memory_limit(limits.memory);
    runtime.set_max_stack_size(limits.stack);
    let deadline = Rc::new(Cell::new(Instant::now() + limits.deadline));
    let timed_out = Rc::new(Cell::new(false));
    let cancelled = Rc::new(Cell::new(false));
    {
        let deadline = Rc::clone(&deadline);
        let timed_out = Rc::clone(&timed_out);
        let cancelled = Rc::clone(&cancelled);
        runtime.set_interrupt_handler(Some(Box::new(move || {
            if cancel.is_cancelled() {
                cancelled.set(true);
                return true;
            }
            let over = Instant::now() >= deadline.get();
            if over {
                timed_out.set(true);
            }
            over
        })));
    }
    let context = Context::full(&runtime).map_err(|e| Failure::Engine(e.to_string()))?;
    context.with(|ctx| {
        let outcome = evaluate(&ctx, source, file, mode, link, &deadline, &timed_out);
        outcome.map_err(|e| match e {
            _ if cancelled.get() => Failure::Cancelled,
            Stop::Js(e) => classify(&ctx, e, timed_out.get()),
            Stop::Failure(f) => f,
        })
    })
}

enum Stop {
    Js(JsError),
    Failure(Failure),
}

impl From<JsError> for Stop {
    fn from(e: JsError) -> Self {
        Stop::Js(e)
    }
}

fn evaluate<'js>(
    ctx: &Ctx<'js>,
    source: &str,
    file: &str,
    mode: Mode,
    link: HostLink,
    deadline: &Rc<Cell<Instant>>,
    timed_out: &Rc<Cell<bool>>,
) -> Result<String, Stop> {
    let globals = ctx.globals();
    let module = Object::new(ctx.clone())?;
    let exports = Object::new(ctx.clone())?;
    module.set("exports", exports.clone())?;
    globals.set("module", module.clone())?;
    globals.set("exports", exports)?;

    let mut options = rquickjs::context::EvalOptions::default();
    options.global = true;
    options.strict = false;
    options.filename = Some(file.to_string());
    if let Err(e) = ctx.eval_with_options::<Value, _>(source, options) {
        return match e {
            JsError::Exception if !timed_out.get() => {
                let thrown = ctx.catch();
                let text = exception_text(&thrown);
                if thrown
                    .as_object()
                    .and_then(|o| o.get::<_, String>("name").ok())
                    .is_some_and(|n| n == "SyntaxError")
                {
                    Err(Stop::Failure(Failure::Syntax(text)))
                } else {
                    Err(Stop::Failure(classify_text(text)))
                }
            }
            e => Err(Stop::Js(e)),
        };
    }
    let exported: Value = module.get("exports")?;
    let Some(exported) = exported.into_object() else {
        return Err(Stop::Failure(Failure::Form(
            "module.exports is not an object; write module.exports = { name, description, parameters, execute }".into(),
        )));
    };
    match mode {
        Mode::Describe => describe(ctx, &exported),
        Mode::Execute { args } => {
            let execute: Value = exported.get("execute")?;
            let Some(execute) = execute.into_function() else {
                return Err(Stop::Failure(Failure::Form(
                    "module.exports.execute is not a function".into(),
                )));
            };
            let args = ctx.json_parse(args)?;
            let context = make_ctx(ctx, link, Rc::clone(deadline))?;
            let result: Value = execute.call((args, context))?;
            let result = settle(ctx, result, timed_out)?;
            to_text(ctx, result)
        }
    }
}

fn describe<'js>(ctx: &Ctx<'js>, exported: &Object<'js>) -> Result<String, Stop> {
    let text = |key: &str| -> Result<Option<String>, Stop> {
        let v: Value = exported.get(key)?;
        Ok(v.as_string().map(|s| s.to_string()).transpose()?)
    };
    let parameters: Value = exported.get("parameters")?;
    let parameters = if parameters.is_undefined() || parameters.is_null() {
        serde_json::Value::Null
    } else {
        let json = ctx
            .json_stringify(parameters)
            .map_err(Stop::Js)?
            .map(|s| s.to_string())
            .transpose()?
            .unwrap_or_default();
        serde_json::from_str(&json).unwrap_or(serde_json::Value::Null)
    };
    let execute: Value = exported.get("execute")?;
    let found = serde_json::json!({
        "name": text("name")?,
        "description": text("description")?,
        "effect": text("effect")?,
        "parameters": parameters,
        "execute": execute.is_function(),
    });
    Ok(found.to_string())
}

fn make_ctx<'js>(
    ctx: &Ctx<'js>,
    link: HostLink,
    deadline: Rc<Cell<Instant>>,
) -> Result<Value<'js>, JsError> {
    let host = Function::new(
        ctx.clone(),
        move |kind: String, payload: String| -> String {
            let remaining = deadline.get().saturating_duration_since(Instant::now());
            let request = HostRequest {
                kind,
                payload,
                remaining,
            };
            if link.requests.send(request).is_err() {
                return r#"{"error":"the tool's host has stopped"}"#.to_string();
            }
            match link.replies.recv() {
                Ok(reply) => {
                    deadline.set(deadline.get() + reply.paused);
                    reply.json
                }
                Err(_) => r#"{"error":"the tool's host has stopped"}"#.to_string(),
            }
        },
    )?;
    let factory: Function = ctx.eval(CTX_FACTORY)?;
    factory.call((host,))
}

/// Drives a returned promise to the end, running the script's jobs, within the deadline.
fn settle<'js>(
    ctx: &Ctx<'js>,
    value: Value<'js>,
    timed_out: &Rc<Cell<bool>>,
) -> Result<Value<'js>, Stop> {
    let Some(promise) = value.as_promise().cloned() else {
        return Ok(value);
    };
    settle_promise(ctx, promise, timed_out)
}

fn settle_promise<'js>(
    ctx: &Ctx<'js>,
    promise: Promise<'js>,
    timed_out: &Rc<Cell<bool>>,
) -> Result<Value<'js>, Stop> {
    loop {
        if let Some(result) = promise.result::<Value>() {
            return Ok(result?);
        }
        if timed_out.get() {
            return Err(Stop::Failure(Failure::TimedOut));
        }
        if !ctx.execute_pending_job() {
            return Err(Stop::Failure(Failure::NeverSettled));
        }
    }
}

/// The output text: a string as it is, anything else as JSON, nothing as an empty text.
fn to_text<'js>(ctx: &Ctx<'js>, value: Value<'js>) -> Result<String, Stop> {
    if let Some(s) = value.as_string() {
        return Ok(s.to_string()?);
    }
    if value.is_undefined() {
        return Ok(String::new());
    }
    match ctx.json_stringify(value) {
        Ok(Some(s)) => Ok(s.to_string()?),
        Ok(None) => Ok(String::new()),
        Err(JsError::Exception) => {
            let thrown = ctx.catch();
            Err(Stop::Failure(Failure::NotJson(exception_text(&thrown))))
        }
        Err(e) => Err(Stop::Js(e)),
    }
}

fn classify(ctx: &Ctx<'_>, e: JsError, timed_out: bool) -> Failure {
    if timed_out {
        return Failure::TimedOut;
    }
    match e {
        JsError::Exception => {
            let thrown = ctx.catch();
            if thrown.is_null() || thrown.is_undefined() {
                // QuickJS throws null when it cannot even allocate the error object.
                return Failure::OutOfMemory;
            }
            classify_text(exception_text(&thrown))
        }
        JsError::Allocation => Failure::OutOfMemory,
        other => {
            let text = other.to_string();
            if text.contains("out of memory") {
                Failure::OutOfMemory
            } else {
                Failure::Engine(text)
            }
        }
    }
}

fn classify_text(text: String) -> Failure {
    let lower = text.to_lowercase();
    if lower.contains("out of memory") {
        Failure::OutOfMemory
    } else if lower.contains("stack overflow") || lower.contains("maximum call stack size") {
        Failure::StackOverflow
    } else {
        Failure::Thrown(text)
    }
}

/// `Name: message (file:line)` for an error object, the value itself for anything else thrown.
fn exception_text(thrown: &Value<'_>) -> String {
    let Some(object) = thrown.as_object() else {
        return value_text(thrown);
    };
    let message: Option<String> = object.get("message").ok();
    let Some(message) = message else {
        return value_text(thrown);
    };
    let name: String = object.get("name").unwrap_or_else(|_| "Error".into());
    let stack: Option<String> = object.get("stack").ok();
    let at = stack
        .as_deref()
        .and_then(|s| s.lines().map(str::trim).find(|l| l.starts_with("at ")))
        .map(|l| match l.rsplit_once('(') {
            Some((_, place)) => place.trim_end_matches(')').to_string(),
            // A syntax error's frame is the place alone: `at file.js:3:7`.
            None => l.trim_start_matches("at ").to_string(),
        })
        .filter(|place| !place.is_empty() && place != "native");
    match at {
        Some(at) => format!("{name}: {message} ({at})"),
        None => format!("{name}: {message}"),
    }
}

fn value_text(value: &Value<'_>) -> String {
    if let Some(s) = value.as_string().and_then(|s| s.to_string().ok()) {
        return s;
    }
    value
        .ctx()
        .json_stringify(value.clone())
        .ok()
        .flatten()
        .and_then(|s| s.to_string().ok())
        .unwrap_or_else(|| format!("a thrown {}", value.type_name()))
}
