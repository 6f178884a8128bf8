//! `agent_run` and `agent_approve`: a run as a registered operation, for MCP clients, the web
//! UI and `easel op run`. Nobody can be asked from inside an operation, so a call that needs
//! approval stops the run with a `waiting` error that names the session to approve.

use crate::approval::Waiting;
use crate::error::AgentError;
use crate::model::LlmModel;
use crate::runner::{Approvals, Finish, RunRequest, Runtime};
use easel_llm::ops::Models;
use easel_ops::{Ctx, Effect, Op, OpError, OpEvent, Registry};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;

/// `agent_run`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentRunInput {
    /// The agent's name (see `agent_list`).
    pub agent: String,
    /// What you ask of it.
    pub input: String,
    /// Continue this session (the 'session' of an earlier result) instead of starting a new one.
    #[serde(default)]
    pub session: Option<String>,
    /// Use this model instead of the agent's, e.g. "local:smollm2".
    #[serde(default)]
    pub model: Option<String>,
    /// Run every call without asking (otherwise a call that changes the vault stops the run until `agent_approve`).
    #[serde(default)]
    pub yes: Option<bool>,
    /// Run nothing that changes the vault: such calls are listed in 'proposed' instead.
    #[serde(default)]
    pub dry_run: Option<bool>,
    /// At most this many model calls (default: the agent's max_turns, else 10).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_turns: Option<u32>,
}

/// How a run ended: the last agent's answer.
#[derive(Clone, Debug, Serialize)]
pub struct AgentRunOutput {
    /// The agent that gave the answer (after any handoffs).
    pub agent: String,
    pub output: String,
    pub session: String,
    /// The run's id: `ledger_undo` with it takes back every change the run made.
    pub run: String,
    pub turns: u32,
    pub usage: easel_llm::Usage,
    /// In a dry run, the calls that would have changed the vault, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub proposed: Vec<Value>,
}

/// Builds the runtime for a vault: its agents and tools as they are on disk now.
pub type Loader =
    dyn Fn(&Ctx, Registry, Arc<dyn crate::model::Model>) -> Result<Runtime, OpError> + Send + Sync;

/// Runs an agent.
pub struct AgentRun {
    registry: Registry,
    models: Arc<Models>,
    loader: Arc<Loader>,
}

/// Answers a waiting approval and continues the run.
pub struct AgentApprove {
    registry: Registry,
    models: Arc<Models>,
    loader: Arc<Loader>,
}

fn runtime(
    ctx: &Ctx,
    registry: &Registry,
    models: &Arc<Models>,
    loader: &Loader,
) -> Result<Runtime, OpError> {
    let llm = models.llm(ctx)?;
    let model = Arc::new(LlmModel::new(llm, models.clone()));
    loader(ctx, registry.clone(), model)
}

fn emit_to(ctx: &Ctx) -> impl Fn(crate::AgentEvent) + Sync + '_ {
    move |e| {
        if ctx.wants_events()
            && let Ok(v) = serde_json::to_value(&e)
        {
            ctx.emit(OpEvent::Data(v));
        }
    }
}

fn finish(f: Result<Finish, AgentError>) -> Result<AgentRunOutput, OpError> {
    match f {
        Ok(Finish::Done {
            agent,
            output,
            session,
            run,
            turns,
            usage,
            proposed,
        }) => Ok(AgentRunOutput {
            agent,
            output,
            session,
            run,
            turns,
            usage,
            proposed,
        }),
        Ok(Finish::Waiting(Waiting {
            session,
            name,
            arguments,
            ..
        })) => Err(OpError::from_diagnose(&AgentError::Waiting {
            session,
            tool: name,
            arguments,
        })),
        Err(e) => Err(OpError::from_diagnose(&e)),
    }
}

impl Op for AgentRun {
    type Input = AgentRunInput;
    type Output = AgentRunOutput;
    const NAME: &'static str = "agent_run";
    const TITLE: &'static str = "Run an agent";
    const DESCRIPTION: &'static str = "Run one of the vault's agents (Markdown files in .easel/agents/, see agent_list) on a request: it calls its tools and other agents until it can answer, and the result is its answer. \
Reading runs freely; a call that would change the vault stops the run with a 'waiting' error naming the session: approve it with agent_approve, or pass yes=true to allow every call, or dry_run=true to only see what it would do ('proposed'). \
Continue a conversation by passing the 'session' of the last result. Every change goes to the ledger with the run's id (ledger_undo with that run takes it back).\n\
Example: {\"agent\": \"researcher\", \"input\": \"Summarise Projects/Plan.md in three bullets\"}";
    const EFFECT: Effect = Effect::External;

    fn run(&self, ctx: &Ctx, input: AgentRunInput) -> Result<AgentRunOutput, OpError> {
        if input.yes == Some(true) && input.dry_run == Some(true) {
            return Err(OpError::invalid(
                "'yes' and 'dry_run' cannot both be set",
                "use dry_run to see what the agent would do, yes to let it do it",
            ));
        }
        let mut rt = runtime(ctx, &self.registry, &self.models, self.loader.as_ref())?;
        // Stop (an HTTP client's cancel, MCP cancellation) ends the run between steps.
        rt.cancel = ctx.cancel().clone();
        let approvals = match (input.yes, input.dry_run) {
            (Some(true), _) => Approvals::Yes,
            (_, Some(true)) => Approvals::DryRun,
            _ => Approvals::Wait,
        };
        let emit = emit_to(ctx);
        finish(rt.run(
            RunRequest {
                agent: input.agent,
                input: Some(input.input),
                session: input.session,
                model: input.model,
                approvals,
                max_turns: input.max_turns,
            },
            &emit,
        ))
    }
}

/// `agent_approve`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentApproveInput {
    /// The session whose run waits (from agent_run's 'waiting' error).
    pub session: String,
    /// Refuse the call instead: the agent is told it was refused and goes on.
    #[serde(default)]
    pub deny: Option<bool>,
    /// Also allow every later call of this run without asking.
    #[serde(default)]
    pub yes: Option<bool>,
}

impl Op for AgentApprove {
    type Input = AgentApproveInput;
    type Output = AgentRunOutput;
    const NAME: &'static str = "agent_approve";
    const TITLE: &'static str = "Approve an agent's waiting call";
    const DESCRIPTION: &'static str = "Answer the approval an agent run is waiting for (agent_run stopped with a 'waiting' error that names the session and the call) and continue the run: the call runs once, or with deny=true the agent is told it was refused. \
The result is the run's answer, or another 'waiting' error if a later call needs approval too (yes=true allows every later call).\n\
Example: {\"session\": \"0193a1b2c3d4e5f60718\"}";
    const EFFECT: Effect = Effect::Destructive;

    fn run(&self, ctx: &Ctx, input: AgentApproveInput) -> Result<AgentRunOutput, OpError> {
        let mut rt = runtime(ctx, &self.registry, &self.models, self.loader.as_ref())?;
        // Stop (an HTTP client's cancel, MCP cancellation) ends the run between steps.
        rt.cancel = ctx.cancel().clone();
        let then = if input.yes == Some(true) {
            Approvals::Yes
        } else {
            Approvals::Wait
        };
        let emit = emit_to(ctx);
        finish(rt.approve(&input.session, input.deny != Some(true), then, &emit))
    }
}

/// Adds `agent_run` and `agent_approve` to `registry`. Their agents get the operations
/// registered so far (so not these two); `loader` reads the agents and tools of a vault.
pub fn register_run_ops(registry: &mut Registry, models: Arc<Models>, loader: Arc<Loader>) {
    let base = registry.clone();
    registry
        .register(AgentRun {
            registry: base.clone(),
            models: models.clone(),
            loader: loader.clone(),
        })
        .register(AgentApprove {
            registry: base,
            models,
            loader,
        });
}
