//! The run (DESIGN.md section 9): the history goes to the model with the agent's
//! instructions and tools; every tool call of a response runs in order and its output is
//! appended; this repeats until the model answers without tool calls, or `max_turns` model
//! calls have been made.
//!
//! Everything a run does is written to its session before it goes on, and the run's state is
//! read back from the session at every step, so a run resumed (after an approval, or with
//! `--session`) continues exactly where it stopped. A call is recorded as started before it
//! runs; a started call with no output (the process was killed while it ran) is never run
//! again: the model is told so.

use crate::agent::{Agent, Decision};
use crate::approval::{Answer, Approver, Waiting};
use crate::error::AgentError;
use crate::events::AgentEvent;
use crate::model::Model;
use crate::session::{HANDOFF_OUTPUT, Record, Session};
use crate::tool::{AgentTool, ToolOutput};
use crate::toolset::{Kind, ToolSet};
use easel_core::{Actor, RunId};
use easel_llm::{Message, Request, ToolCall};
use easel_ops::{Ctx, Effect, Registry};
use easel_vault::Vault;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// How deep agents may call agents as tools.
pub const MAX_DEPTH: u32 = 3;

/// Who decides whether a call that changes something runs.
#[derive(Clone, Copy)]
pub enum Approvals<'a> {
    /// Nobody can be asked: the run stops and waits (exit 6).
    Wait,
    /// Every call runs (`--yes`).
    Yes,
    /// Nothing that is not read-only runs; each such call is a proposal.
    DryRun,
    /// A person on a terminal.
    Ask(&'a dyn Approver),
}

/// What to run.
pub struct RunRequest<'a> {
    pub agent: String,
    /// The person's message; `None` continues a session (after an approval).
    pub input: Option<String>,
    pub session: Option<String>,
    /// Overrides the agent's model.
    pub model: Option<String>,
    pub approvals: Approvals<'a>,
    pub max_turns: Option<u32>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Finish {
    Done {
        agent: String,
        output: String,
        session: String,
        run: String,
        turns: u32,
        usage: easel_llm::Usage,
        proposed: Vec<Value>,
    },
    /// Stopped before a call that needs approval.
    Waiting(Waiting),
}

/// The agents, their tools and the model: all a run needs.
pub struct Runtime {
    pub vault: Vault,
    /// The operations agents may be given (the binary's Registry, without the agent
    /// operations themselves).
    pub registry: Registry,
    pub agents: Vec<Agent>,
    /// Script and command tools.
    pub tools: Vec<Arc<dyn AgentTool>>,
    pub model: Arc<dyn Model>,
    /// Stops the run before its next model call or tool call (a person pressed Stop).
    pub cancel: easel_ops::Cancel,
}

/// The state of one run (and of the agents it asks, which share its counters).
struct Run<'r, 'e> {
    rt: &'r Runtime,
    id: RunId,
    session: Session,
    approvals: Approvals<'r>,
    model: Option<String>,
    max_turns: Option<u32>,
    turns: u32,
    usage: easel_llm::Usage,
    proposed: Vec<Value>,
    always: HashSet<String>,
    /// Calls whose answer was cut off by `max_tokens` before their arguments were complete.
    cut: HashSet<String>,
    /// A tool output that ends the run as its answer (the agent's `tool_use_behavior`).
    stop_with: Option<String>,
    emit: &'e (dyn Fn(AgentEvent) + Sync),
    /// The agents that asked this one (`ask_<agent>`), outermost first: their tools and rules
    /// bound this one's.
    callers: Vec<Agent>,
}

impl Runtime {
    /// The enabled agent called `name`.
    pub fn agent(&self, name: &str) -> Result<&Agent, AgentError> {
        self.agents
            .iter()
            .find(|a| a.name == name && a.enabled)
            .ok_or_else(|| AgentError::UnknownAgent {
                name: name.to_string(),
                known: self
                    .agents
                    .iter()
                    .filter(|a| a.enabled)
                    .map(|a| a.name.clone())
                    .collect(),
            })
    }

    /// Runs `req` to its end, an approval to wait for, or an error. `emit` gets the run's
    /// events as they happen.
    pub fn run(
        &self,
        req: RunRequest<'_>,
        emit: &(dyn Fn(AgentEvent) + Sync),
    ) -> Result<Finish, AgentError> {
        let mut session = match &req.session {
            Some(id) => Session::open(self.vault.root(), id)?,
            None => Session::create(self.vault.root())?,
        };
        if Waiting::exists(self.vault.root(), session.id()) {
            let w = Waiting::peek(self.vault.root(), session.id());
            return Err(AgentError::Waiting {
                session: session.id().to_string(),
                tool: w
                    .as_ref()
                    .map_or_else(|| "a call".into(), |w| w.name.clone()),
                arguments: w.map_or(Value::Null, |w| w.arguments),
            });
        }
        let agent = self.agent(&req.agent)?.clone();
        let id = RunId::new();
        if let Some(input) = &req.input {
            session.append(Record::RunStarted {
                run: id.to_string(),
                agent: agent.name.clone(),
                input: input.clone(),
            })?;
            session.append(Record::Message {
                agent: agent.name.clone(),
                message: Message::user(input.clone()),
            })?;
        }
        let mut run = Run {
            rt: self,
            id,
            session,
            approvals: req.approvals,
            model: req.model,
            max_turns: req.max_turns,
            turns: 0,
            usage: easel_llm::Usage::default(),
            proposed: Vec::new(),
            cut: Default::default(),
            stop_with: None,
            always: HashSet::new(),
            emit,
            callers: Vec::new(),
        };
        run.drive(agent, None)
    }

    /// Answers the approval waiting in `session` and continues the run: `allow` runs the
    /// call, else the model is told it was refused. `then` decides the approvals after it.
    pub fn approve(
        &self,
        session: &str,
        allow: bool,
        then: Approvals<'_>,
        emit: &(dyn Fn(AgentEvent) + Sync),
    ) -> Result<Finish, AgentError> {
        let Some(taken) = Waiting::take(self.vault.root(), session)? else {
            return Err(AgentError::NotWaiting {
                session: session.to_string(),
            });
        };
        let w = taken.waiting.clone();
        let mut s = Session::open(self.vault.root(), session)?;
        s.append(Record::Approval {
            agent: w.agent.clone(),
            id: w.id.clone(),
            name: w.name.clone(),
            arguments: w.arguments.clone(),
            answer: if allow { "yes" } else { "no" }.into(),
        })?;
        taken.done();
        let agent = self.agent(&w.agent)?.clone();
        let mut run = Run {
            rt: self,
            id: RunId::from_string(w.run.clone()),
            session: s,
            approvals: then,
            model: w.model.clone(),
            max_turns: w.max_turns,
            turns: w.turns,
            usage: w.usage,
            proposed: Vec::new(),
            cut: Default::default(),
            stop_with: None,
            always: HashSet::new(),
            emit,
            callers: Vec::new(),
        };
        run.drive(agent, Some((w.id, allow)))
    }
}

impl Run<'_, '_> {
    fn ctx(&self, agent: &Agent) -> Ctx {
        Ctx::new(
            self.rt.vault.clone(),
            Actor::new(format!("agent:{}", agent.name)),
        )
        .with_run(self.id.clone())
    }

    fn tools(&self, agent: &Agent) -> ToolSet {
        let mut within: Option<ToolSet> = None;
        for caller in &self.callers {
            within = Some(ToolSet::of(
                caller,
                &self.rt.registry,
                &self.rt.tools,
                &self.rt.agents,
                within.as_ref(),
            ));
        }
        let mut set = ToolSet::of(
            agent,
            &self.rt.registry,
            &self.rt.tools,
            &self.rt.agents,
            within.as_ref(),
        );
        // An agent at the deepest level could never use an `ask_<agent>` tool: offering one
        // would only cost a small model a turn.
        if self.at_max_depth() {
            set.entries.retain(|e| !matches!(e.kind, Kind::Ask(_)));
        }
        set
    }

    /// Whether an agent of this run may not ask another (it is `MAX_DEPTH` deep).
    fn at_max_depth(&self) -> bool {
        self.callers.len() + 1 >= MAX_DEPTH as usize
    }

    /// The loop. `answered` is an approval just given (call id, allowed).
    fn drive(
        &mut self,
        mut agent: Agent,
        mut answered: Option<(String, bool)>,
    ) -> Result<Finish, AgentError> {
        loop {
            if self.rt.cancel.is_cancelled() {
                self.session.append(Record::RunEnded {
                    run: self.id.to_string(),
                    status: "stopped".into(),
                    output: None,
                })?;
                return Err(AgentError::Stopped {
                    session: self.session.id().to_string(),
                });
            }
            if let Some((by, calls)) = self.session.pending_calls() {
                let caller = self.rt.agent(&by)?.clone();
                let ids: Vec<String> = calls.iter().map(|c| c.id.clone()).collect();
                let tools = self.tools(&caller);
                for call in calls {
                    let approved = match &answered {
                        Some((id, allow)) if *id == call.id => Some(*allow),
                        _ => None,
                    };
                    if approved.is_some() {
                        answered = None;
                    }
                    if let Some(w) = self.call(&caller, &tools, &call, &ids, approved)? {
                        return Ok(Finish::Waiting(w));
                    }
                }
                let stop_with = self.stop_with.take();
                // A handoff made in these calls takes effect now.
                if let Some(to) = self.session.current_agent()
                    && to != agent.name
                {
                    let next = self.rt.agent(to)?.clone();
                    // VS Code's `send: true` handoffs carry the prompt the next agent starts
                    // with, as if the person had sent it.
                    if let Some(prompt) = caller
                        .handoffs
                        .iter()
                        .find(|h| h.agent == next.name && h.send)
                        .and_then(|h| h.prompt.clone())
                        .filter(|p| !p.trim().is_empty())
                    {
                        self.session.append(Record::Message {
                            agent: next.name.clone(),
                            message: Message::user(prompt),
                        })?;
                    }
                    agent = next;
                } else if let Some(output) = stop_with {
                    return self.done(&caller, output);
                }
                continue;
            }
            let max = self.max_turns.unwrap_or(agent.max_turns);
            if self.turns >= max {
                self.session.append(Record::RunEnded {
                    run: self.id.to_string(),
                    status: "failed".into(),
                    output: Some("max turns exceeded".into()),
                })?;
                return Err(AgentError::MaxTurns {
                    turns: self.turns,
                    session: self.session.id().to_string(),
                });
            }
            let tools = self.tools(&agent);
            let response = self.ask_model(&agent, &tools)?;
            if response.finish_reason == Some(easel_llm::FinishReason::Length) {
                self.cut.extend(
                    response
                        .tool_calls
                        .iter()
                        .filter(|c| c.arguments_json().is_err())
                        .map(|c| c.id.clone()),
                );
            }
            let mut message = Message::assistant(response.text.clone());
            message.tool_calls = response.tool_calls.clone();
            self.session.append(Record::Message {
                agent: agent.name.clone(),
                message,
            })?;
            // A tool call cut off by max_tokens comes back as the start of its JSON: it is not
            // an answer, so the model is told and tries again (within max_turns).
            if cut_call(&response, &tools) {
                self.session.append(Record::Message {
                    agent: agent.name.clone(),
                    message: Message::user(format!(
                        "error: your tool call was cut off at the answer's length limit ({} tokens); call the tool again with shorter arguments, or answer in text",
                        agent.max_tokens.unwrap_or(crate::agent::DEFAULT_MAX_TOKENS)
                    )),
                })?;
                continue;
            }
            if response.tool_calls.is_empty() {
                return self.done(&agent, response.text);
            }
        }
    }

    /// Ends the run with `output` as its answer.
    fn done(&mut self, agent: &Agent, output: String) -> Result<Finish, AgentError> {
        self.session.append(Record::RunEnded {
            run: self.id.to_string(),
            status: "done".into(),
            output: Some(output.clone()),
        })?;
        Ok(Finish::Done {
            agent: agent.name.clone(),
            output,
            session: self.session.id().to_string(),
            run: self.id.to_string(),
            turns: self.turns,
            usage: self.usage,
            proposed: std::mem::take(&mut self.proposed),
        })
    }

    /// One model call, trying the agent's models in order.
    fn ask_model(
        &mut self,
        agent: &Agent,
        tools: &ToolSet,
    ) -> Result<easel_llm::Response, AgentError> {
        let mut messages = vec![Message::system(agent.instructions.clone())];
        messages.extend(self.session.history());
        let mut req = Request {
            messages,
            tools: tools.specs(),
            ..Request::default()
        };
        req.sampling.temperature = agent.temperature;
        req.max_tokens = Some(agent.max_tokens.unwrap_or(crate::agent::DEFAULT_MAX_TOKENS));
        if let Some(choice) = &agent.tool_choice
            && !req.tools.is_empty()
            && !self.session.used_tools_in_run(&agent.name)
        {
            req.tool_choice = match choice {
                // A tool the agent is not given (a typo, a tool since removed): some call.
                easel_llm::ToolChoice::Tool(name) if !req.tools.iter().any(|t| &t.name == name) => {
                    tracing::warn!(agent = %agent.name, tool = %name, "tool_choice names a tool the agent is not given");
                    easel_llm::ToolChoice::Required
                }
                other => other.clone(),
            };
        }
        let models: Vec<String> = match &self.model {
            Some(m) => vec![m.clone()],
            None if agent.model.is_empty() => vec![self.rt.model.default_model()],
            None => agent.model.clone(),
        };
        let emit = self.emit;
        let name = agent.name.clone();
        let mut last = None;
        for model in &models {
            let mut on_text = |t: &str| {
                emit(AgentEvent::TextDelta {
                    agent: name.clone(),
                    delta: t.to_string(),
                })
            };
            match self.rt.model.respond(model, req.clone(), &mut on_text) {
                Ok(r) => {
                    self.turns += 1;
                    self.usage.prompt_tokens += r.usage.prompt_tokens;
                    self.usage.completion_tokens += r.usage.completion_tokens;
                    return Ok(r);
                }
                Err(f) => {
                    tracing::warn!(model, error = %f.message, "model failed; trying the next one, if any");
                    last = Some(f);
                }
            }
        }
        let f = last.unwrap_or_else(|| crate::model::ModelFailure {
            message: "no model to ask".into(),
            hint: "set a default model in .easel/config.toml".into(),
        });
        self.session.append(Record::RunEnded {
            run: self.id.to_string(),
            status: "failed".into(),
            output: Some(f.message.clone()),
        })?;
        Err(AgentError::Model {
            message: f.message,
            hint: f.hint,
            session: self.session.id().to_string(),
        })
    }

    /// Handles one tool call of `agent`'s response: runs it, refuses it, proposes it, or stops
    /// to wait for an approval (returned).
    fn call(
        &mut self,
        agent: &Agent,
        tools: &ToolSet,
        call: &ToolCall,
        batch: &[String],
        approved: Option<bool>,
    ) -> Result<Option<Waiting>, AgentError> {
        let parsed = call.arguments_json();
        // Every output follows the call it answers, so a front end can pair them: arguments
        // that are not JSON are shown as the text the model sent.
        (self.emit)(AgentEvent::ToolCall {
            agent: agent.name.clone(),
            id: call.id.clone(),
            name: call.name.clone(),
            arguments: match &parsed {
                Ok(v @ Value::Object(_)) => v.clone(),
                Ok(other) => json!({ "value": other }),
                Err(_) => Value::String(call.arguments.clone()),
            },
        });
        let args = match parsed {
            Ok(v @ Value::Object(_)) => v,
            Ok(other) => json!({ "value": other }),
            Err(_) if self.cut.contains(&call.id) => {
                let out = ToolOutput::error(format!(
                    "your call was cut off at the answer's length limit ({} tokens) before its arguments were complete, so it did not run; call it again with shorter arguments",
                    agent.max_tokens.unwrap_or(crate::agent::DEFAULT_MAX_TOKENS)
                ));
                self.output(agent, call, Value::Null, out)?;
                return Ok(None);
            }
            Err(e) => {
                let out = ToolOutput::error(format!("the arguments are not JSON: {e}"));
                self.output(agent, call, Value::Null, out)?;
                return Ok(None);
            }
        };
        if self.session.was_started(&call.id) {
            let out = ToolOutput::error(
                "this call was interrupted while it ran (the process stopped) and is not run again; check what it did before trying again",
            );
            self.output(agent, call, args, out)?;
            return Ok(None);
        }
        let Some(entry) = tools.get(&call.name).cloned() else {
            let asks_too_deep = self.at_max_depth()
                && agent
                    .agents_as_tools
                    .iter()
                    .any(|a| call.name.strip_prefix("ask_") == Some(a.as_str()));
            let out = if asks_too_deep {
                ToolOutput::error(format!(
                    "agents may call agents only {MAX_DEPTH} deep, and this one is asked at the deepest level; answer with what you have"
                ))
            } else {
                ToolOutput::error(format!(
                    "there is no tool named '{}'; the tools are: {}",
                    call.name,
                    tools.names().join(", ")
                ))
            };
            self.output(agent, call, args, out)?;
            return Ok(None);
        };
        let out = match entry.kind {
            Kind::Handoff(to) => {
                if self.session.handed_off_in(batch) {
                    ToolOutput::error("only one handoff per turn")
                } else {
                    self.output(
                        agent,
                        call,
                        args,
                        ToolOutput::ok(format!("{HANDOFF_OUTPUT}{to}")),
                    )?;
                    self.session.append(Record::Handoff {
                        from: agent.name.clone(),
                        to: to.clone(),
                    })?;
                    (self.emit)(AgentEvent::Handoff {
                        from: agent.name.clone(),
                        to,
                    });
                    return Ok(None);
                }
            }
            Kind::Ask(name) => self.ask_agent(agent, &name, &args)?,
            Kind::Tool(tool) => {
                match self.gate(agent, &entry.name, entry.effect, &args, call, approved)? {
                    Gate::Run => {
                        // A read may run again after a kill; anything else must not.
                        if entry.effect != Effect::Read {
                            self.session.append(Record::CallStarted {
                                agent: agent.name.clone(),
                                id: call.id.clone(),
                                name: call.name.clone(),
                            })?;
                        }
                        let ctx = self.ctx(agent);
                        let scripted = Mutex::new(Vec::new());
                        let out = {
                            let call_op = |name: &str, a: Value| -> ToolOutput {
                                self.script_call(&ctx, agent, name, a, &scripted)
                            };
                            tool.call(&ctx, args.clone(), &call_op)
                        };
                        self.proposed
                            .extend(scripted.into_inner().unwrap_or_else(|p| p.into_inner()));
                        out
                    }
                    Gate::Refuse(why) => ToolOutput::error(why),
                    Gate::Propose => {
                        self.proposed
                            .push(json!({"tool": call.name, "arguments": args}));
                        ToolOutput::ok("dry run: not applied")
                    }
                    Gate::Wait => {
                        let w = Waiting {
                            session: self.session.id().to_string(),
                            run: self.id.to_string(),
                            agent: agent.name.clone(),
                            id: call.id.clone(),
                            name: call.name.clone(),
                            arguments: args.clone(),
                            turns: self.turns,
                            usage: self.usage,
                            max_turns: self.max_turns,
                            model: self.model.clone(),
                        };
                        self.session.append(Record::Approval {
                            agent: agent.name.clone(),
                            id: call.id.clone(),
                            name: call.name.clone(),
                            arguments: args.clone(),
                            answer: "waiting".into(),
                        })?;
                        self.session.append(Record::RunEnded {
                            run: self.id.to_string(),
                            status: "waiting".into(),
                            output: None,
                        })?;
                        w.save(self.rt.vault.root())?;
                        (self.emit)(AgentEvent::ApprovalNeeded {
                            agent: agent.name.clone(),
                            id: call.id.clone(),
                            name: call.name.clone(),
                            arguments: args,
                            session: self.session.id().to_string(),
                        });
                        return Ok(Some(w));
                    }
                }
            }
        };
        self.output(agent, call, args, out)?;
        Ok(None)
    }

    /// An operation a script tool calls through `ctx.call`: under the same rules as the
    /// agent's own calls, except that it cannot stop the run to wait (the script is running).
    fn script_call(
        &self,
        ctx: &Ctx,
        agent: &Agent,
        name: &str,
        args: Value,
        proposed: &Mutex<Vec<Value>>,
    ) -> ToolOutput {
        let Some(op) = self.rt.registry.get(name) else {
            return ToolOutput::error(format!("there is no operation named '{name}'"));
        };
        let decision = self.decide(agent, name);
        if decision == Some(Decision::Deny) {
            return ToolOutput::error(format!("'{name}' is refused by a permission rule"));
        }
        let run = match op.info().effect {
            Effect::Read => true,
            _ if matches!(self.approvals, Approvals::DryRun) => {
                if let Ok(mut p) = proposed.lock() {
                    p.push(json!({"tool": name, "arguments": args}));
                }
                return ToolOutput::ok("dry run: not applied");
            }
            _ if decision == Some(Decision::Allow) || self.always.contains(name) => true,
            _ => match self.approvals {
                Approvals::Yes => true,
                Approvals::Ask(approver) => approver.ask(&agent.name, name, &args) != Answer::No,
                Approvals::Wait | Approvals::DryRun => false,
            },
        };
        if !run {
            return ToolOutput::error(format!(
                "'{name}' needs approval and a script cannot wait for it; allow it with a permission rule or run with yes"
            ));
        }
        ToolOutput::of(op.call_json(ctx, args))
    }

    /// The strictest permission decision for `name` of `agent` and of every agent that asked
    /// it: an agent asked by another may do no more than its caller without asking.
    fn decide(&self, agent: &Agent, name: &str) -> Option<Decision> {
        let mut decision = agent.decide(name);
        for caller in &self.callers {
            decision = match (decision, caller.decide(name)) {
                (Some(Decision::Deny), _) | (_, Some(Decision::Deny)) => Some(Decision::Deny),
                (Some(Decision::Ask), _) | (_, Some(Decision::Ask)) => Some(Decision::Ask),
                (Some(Decision::Allow), Some(Decision::Allow)) => Some(Decision::Allow),
                (a, b) => a.and(b),
            };
        }
        decision
    }

    /// Records a call's output and tells the caller.
    fn output(
        &mut self,
        agent: &Agent,
        call: &ToolCall,
        _args: Value,
        out: ToolOutput,
    ) -> Result<(), AgentError> {
        self.session.append(Record::Message {
            agent: agent.name.clone(),
            message: Message::tool_result(call.id.clone(), out.text.clone()),
        })?;
        if !out.is_error && self.stop_with.is_none() && agent.tool_use_behavior.stops_at(&call.name)
        {
            self.stop_with = Some(out.text.clone());
        }
        (self.emit)(AgentEvent::ToolOutput {
            agent: agent.name.clone(),
            id: call.id.clone(),
            name: call.name.clone(),
            output: out.text,
            is_error: out.is_error,
        });
        Ok(())
    }

    /// Whether a call may run, by its effect, the rules of the agent and of those that asked
    /// it, and the run's approvals.
    fn gate(
        &mut self,
        agent: &Agent,
        name: &str,
        effect: Effect,
        args: &Value,
        call: &ToolCall,
        approved: Option<bool>,
    ) -> Result<Gate, AgentError> {
        let decision = self.decide(agent, name);
        if decision == Some(Decision::Deny) {
            return Ok(Gate::Refuse(format!(
                "'{name}' is refused by a permission rule"
            )));
        }
        if effect == Effect::Read {
            return Ok(Gate::Run);
        }
        if matches!(self.approvals, Approvals::DryRun) {
            return Ok(Gate::Propose);
        }
        match approved {
            Some(true) => return Ok(Gate::Run),
            Some(false) => return Ok(Gate::Refuse("refused by the user".into())),
            None => {}
        }
        if decision == Some(Decision::Allow) || self.always.contains(name) {
            return Ok(Gate::Run);
        }
        match self.approvals {
            Approvals::Yes => Ok(Gate::Run),
            Approvals::DryRun => Ok(Gate::Propose),
            Approvals::Ask(approver) => {
                let answer = approver.ask(&agent.name, name, args);
                self.session.append(Record::Approval {
                    agent: agent.name.clone(),
                    id: call.id.clone(),
                    name: name.to_string(),
                    arguments: args.clone(),
                    answer: answer.as_str().into(),
                })?;
                Ok(match answer {
                    Answer::Yes => Gate::Run,
                    Answer::Always => {
                        self.always.insert(name.to_string());
                        Gate::Run
                    }
                    Answer::No => Gate::Refuse("refused by the user".into()),
                })
            }
            Approvals::Wait if !self.callers.is_empty() => Ok(Gate::Refuse(format!(
                "'{name}' needs approval and an agent asked by another cannot wait for it; allow it with a permission rule or run with yes"
            ))),
            Approvals::Wait => Ok(Gate::Wait),
        }
    }

    /// `ask_<name>`: runs the agent `name` on a fresh history with `input`, bounded by the
    /// asking agent; its final output is the tool's output.
    fn ask_agent(
        &mut self,
        caller: &Agent,
        name: &str,
        args: &Value,
    ) -> Result<ToolOutput, AgentError> {
        let Some(input) = args.get("input").and_then(Value::as_str) else {
            return Ok(ToolOutput::error("give the question as 'input' (a string)"));
        };
        if self.at_max_depth() {
            return Ok(ToolOutput::error(format!(
                "agents may call agents only {MAX_DEPTH} deep"
            )));
        }
        let target = self.rt.agent(name)?.clone();
        let mut callers = self.callers.clone();
        callers.push(caller.clone());
        let mut sub = Run {
            rt: self.rt,
            id: self.id.clone(),
            session: Session::create(self.rt.vault.root())?,
            approvals: self.approvals,
            model: self.model.clone(),
            max_turns: None,
            turns: 0,
            usage: easel_llm::Usage::default(),
            proposed: Vec::new(),
            cut: Default::default(),
            stop_with: None,
            always: self.always.clone(),
            emit: self.emit,
            callers,
        };
        sub.session.append(Record::RunStarted {
            run: self.id.to_string(),
            agent: target.name.clone(),
            input: input.to_string(),
        })?;
        sub.session.append(Record::Message {
            agent: target.name.clone(),
            message: Message::user(input),
        })?;
        let result = sub.drive(target, None);
        self.usage.prompt_tokens += sub.usage.prompt_tokens;
        self.usage.completion_tokens += sub.usage.completion_tokens;
        self.proposed.append(&mut sub.proposed);
        Ok(match result {
            Ok(Finish::Done { output, .. }) => ToolOutput::ok(output),
            Ok(Finish::Waiting(_)) => {
                ToolOutput::error("the agent stopped to wait for an approval")
            }
            Err(e) => ToolOutput::error(e.to_string()),
        })
    }
}

/// Whether `r` is a tool call that the length limit cut off: no call came back, the answer
/// stopped for its length, tools were offered, and the text is the start of a JSON object.
fn cut_call(r: &easel_llm::Response, tools: &ToolSet) -> bool {
    r.tool_calls.is_empty()
        && r.finish_reason == Some(easel_llm::FinishReason::Length)
        && !tools.entries.is_empty()
        && (r.text.trim().is_empty() || r.text.trim_start().starts_with('{'))
}

/// What happens to one call.
enum Gate {
    Run,
    Refuse(String),
    Propose,
    Wait,
}

/// Keeps the events of a run (tests, and front ends that print them at the end).
#[derive(Default)]
pub struct Collected(pub Mutex<Vec<AgentEvent>>);

impl Collected {
    pub fn push(&self, e: AgentEvent) {
        if let Ok(mut v) = self.0.lock() {
            v.push(e);
        }
    }
}
