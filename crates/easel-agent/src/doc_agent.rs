//! The document agent (DESIGN.md section 10): an agent of the runtime whose tools are the
//! document edits under the seed's names and `scan_document`. Its calls change a proposal,
//! never the file, and each call's real result (applied to the proposal, or the error) goes
//! back to the model. `doc_edit` runs it and returns the proposal, or applies it with `yes`.

use crate::agent::Agent;
use crate::model::{LlmModel, Model};
use crate::runner::{Approvals, Finish, RunRequest, Runtime};
use crate::tool::{AgentTool, CallOp, ToolOutput};
use crate::{AgentError, AgentEvent};
use easel_core::{Actor, RunId};
use easel_docedit::ops::{DocApplied, apply_list, read_doc};
use easel_docedit::proposal::{self, Proposal, ProposalOutput, ToolSpec};
use easel_llm::ops::Models;
use easel_ops::{Ctx, Effect, Op, OpError, OpEvent, Registry};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::{Arc, Mutex};

/// What answers `scan_document`: the proposal's document and the query in, the matches as
/// text for the model out.
pub type Scan = Arc<dyn Fn(&Proposal, &str) -> Result<String, OpError> + Send + Sync>;

/// The agent's name, in sessions and the ledger (`agent:document-editor`).
pub const DOC_AGENT: &str = "document-editor";

/// One tool of the document agent, over the shared proposal.
struct DocTool {
    spec: ToolSpec,
    proposal: Arc<Mutex<Proposal>>,
    scan: Scan,
}

impl AgentTool for DocTool {
    fn name(&self) -> &str {
        self.spec.name
    }

    fn description(&self) -> &str {
        self.spec.description
    }

    fn parameters(&self) -> Value {
        self.spec.parameters.clone()
    }

    fn effect(&self) -> Effect {
        // Calls change the proposal only; applying it is the step that needs a yes.
        Effect::Read
    }

    fn call(&self, _ctx: &Ctx, args: Value, _call_op: &CallOp<'_>) -> ToolOutput {
        let Ok(mut proposal) = self.proposal.lock() else {
            return ToolOutput::error("the proposal is unavailable after an earlier failure");
        };
        if self.spec.name == "scan_document" {
            let Some(query) = args.get("query").and_then(Value::as_str) else {
                return ToolOutput::error("scan_document needs a 'query' text");
            };
            return match (self.scan)(&proposal, query) {
                Ok(text) => ToolOutput::ok(text),
                Err(e) => ToolOutput::error(format!("{} ({})", e.message, e.hint)),
            };
        }
        match proposal.call(self.spec.name, &args) {
            Ok(text) => ToolOutput::ok(text),
            Err(e) => {
                let e = OpError::from_diagnose(&e);
                ToolOutput::error(format!("{} ({})", e.message, e.hint))
            }
        }
    }
}

/// What `doc_edit` asks for.
#[derive(Clone, Debug)]
pub struct DocEditRequest {
    pub path: String,
    pub instruction: String,
    /// The selected element's id.
    pub select: Option<String>,
    pub model: Option<String>,
    pub max_turns: Option<u32>,
}

/// How an instruction ended: the proposal, and the run that made it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DocEditOutput {
    #[serde(flatten)]
    pub proposal: ProposalOutput,
    /// The agent's session (its conversation, in `.easel/sessions/`).
    pub session: String,
    /// The run id: the applied edits carry it, so `ledger_undo` with it takes them back.
    pub run: String,
    /// With `yes`: what was applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied: Option<DocApplied>,
    /// Why the agent stopped before its final answer (its `max_turns` ran out): the proposal is
    /// what it made until then, and `yes` does not apply it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
}

/// Runs the document agent on `req` and returns its proposal; nothing in the vault changes
/// but the session file. `scan` answers `scan_document`.
pub fn propose(
    ctx: &Ctx,
    model: Arc<dyn Model>,
    req: &DocEditRequest,
    scan: Scan,
    emit: &(dyn Fn(AgentEvent) + Sync),
) -> Result<DocEditOutput, OpError> {
    let (p, doc, rev) = read_doc(ctx, &req.path)?;
    if doc.elements().is_empty() {
        return Err(OpError::invalid(
            format!("{} has no elements to edit", p.as_str()),
            "give an HTML document ids with `doc_ids` first, or check the file with `doc_show`",
        ));
    }
    let context =
        proposal::context(&doc, req.select.as_deref()).map_err(|e| OpError::from_diagnose(&e))?;
    let ids: Vec<String> = doc.elements().iter().map(|e| e.id.clone()).collect();
    let shared = Arc::new(Mutex::new(Proposal::new(p.as_str(), rev.to_string(), doc)));
    let tools: Vec<Arc<dyn AgentTool>> = proposal::tool_specs(&ids)
        .into_iter()
        .map(|spec| {
            Arc::new(DocTool {
                spec,
                proposal: shared.clone(),
                scan: scan.clone(),
            }) as Arc<dyn AgentTool>
        })
        .collect();
    let mut agent = Agent::new(
        DOC_AGENT,
        format!("{}\n\n{context}", proposal::system_prompt(p.as_str())),
    );
    agent.description = "Edits one document through atomic, reviewable operations".into();
    agent.tools = Some(proposal::TOOL_NAMES.iter().map(|s| s.to_string()).collect());
    // Editing should not vary from run to run; and an instruction is a request for changes,
    // so the first answer is a call (small models otherwise describe the change instead).
    agent.temperature = Some(0.0);
    agent.max_tokens = Some(256);
    agent.tool_choice = Some(easel_llm::ToolChoice::Required);
    let rt = Runtime {
        vault: ctx.vault().clone(),
        registry: Registry::new(),
        agents: vec![agent],
        tools,
        model,
        cancel: ctx.cancel().clone(),
    };
    let finished = rt.run(
        RunRequest {
            agent: DOC_AGENT.into(),
            input: Some(req.instruction.clone()),
            session: None,
            model: req.model.clone(),
            approvals: Approvals::Yes,
            max_turns: req.max_turns,
        },
        emit,
    );
    let (output, session, run, stopped) = match finished {
        Ok(Finish::Done {
            output,
            session,
            run,
            ..
        }) => (output, session, run, None),
        Ok(Finish::Waiting(_)) => {
            return Err(OpError::failure(
                "the document agent stopped for an approval it never needs",
            ));
        }
        // The calls so far made a proposal worth reviewing; nothing was applied.
        Err(AgentError::MaxTurns { turns, session }) => {
            let why = format!("the agent made {turns} model calls without a final answer");
            (String::new(), session, RunId::new().to_string(), Some(why))
        }
        Err(e) => return Err(OpError::from_diagnose(&e)),
    };
    drop(rt);
    let proposal = Arc::try_unwrap(shared)
        .ok()
        .and_then(|m| m.into_inner().ok())
        .ok_or_else(|| OpError::failure("the proposal is still in use after the run"))?;
    let explanation = match &stopped {
        Some(why) => format!("{why}; the proposal is what the agent made until then"),
        None => output.trim().to_string(),
    };
    Ok(DocEditOutput {
        proposal: proposal.finish(explanation),
        session,
        run,
        applied: None,
        stopped,
    })
}

/// Applies a proposal as the document agent, in the proposal's run.
pub fn apply_proposal(ctx: &Ctx, out: &DocEditOutput) -> Result<DocApplied, OpError> {
    let run = RunId::from_string(out.run.clone());
    let ctx = ctx
        .clone()
        .with_actor(Actor::new(format!("agent:{DOC_AGENT}")))
        .with_run(run);
    apply_list(
        &ctx,
        &out.proposal.path,
        Some(&out.proposal.rev),
        &out.proposal.operations,
    )
}

/// `doc_edit`'s input.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocEditInput {
    /// Document path relative to the vault (.html, .htm or .md).
    pub path: String,
    /// What to do, in words: "redact every phone number".
    pub instruction: String,
    /// The selected element's id: "this" in the instruction means it.
    #[serde(default)]
    pub select: Option<String>,
    /// The model, e.g. "local:smollm2" (default: the configured one).
    #[serde(default)]
    pub model: Option<String>,
    /// Apply the proposal at once (otherwise nothing changes until `doc_apply`).
    #[serde(default)]
    pub yes: Option<bool>,
    /// At most this many model calls (default 10).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_turns: Option<u32>,
}

/// Runs the document agent.
pub struct DocEdit {
    models: Arc<Models>,
}

impl DocEdit {
    pub fn new(models: Arc<Models>) -> DocEdit {
        DocEdit { models }
    }
}

impl Op for DocEdit {
    type Input = DocEditInput;
    type Output = DocEditOutput;
    const NAME: &'static str = "doc_edit";
    const TITLE: &'static str = "Edit a document by instruction";
    const DESCRIPTION: &'static str = "Ask the document agent to edit an HTML document or Markdown note: it reads the document, finds what the instruction concerns and proposes atomic operations, one element each. Nothing changes until the proposal is applied with `doc_apply` (or yes=true here).\n\
Example: {\"path\": \"Lease.html\", \"instruction\": \"redact every phone number\"}";
    const EFFECT: Effect = Effect::External;

    fn run(&self, ctx: &Ctx, input: DocEditInput) -> Result<DocEditOutput, OpError> {
        let llm = self.models.llm(ctx)?;
        let model: Arc<dyn Model> = Arc::new(LlmModel::new(llm, self.models.clone()));
        let emit = |e: AgentEvent| {
            if ctx.wants_events()
                && let Ok(v) = serde_json::to_value(&e)
            {
                ctx.emit(OpEvent::Data(v));
            }
        };
        let req = DocEditRequest {
            path: input.path,
            instruction: input.instruction,
            select: input.select,
            model: input.model,
            max_turns: input.max_turns,
        };
        let scan = scanner(model.clone(), req.model.clone());
        let mut out = propose(ctx, model, &req, scan, &emit)?;
        if input.yes == Some(true) && !out.proposal.operations.is_empty() && out.stopped.is_none() {
            out.applied = Some(apply_proposal(ctx, &out)?);
        }
        Ok(out)
    }
}

/// `scan_document` for the agent: the deterministic scanner, and `model` (greedy, a short
/// answer) for what patterns cannot express. The matches go back to the model as JSON.
pub fn scanner(model: Arc<dyn Model>, model_name: Option<String>) -> Scan {
    Arc::new(move |proposal: &Proposal, query: &str| {
        let name = model_name.clone().unwrap_or_else(|| model.default_model());
        let mut ask = |prompt: &str| -> Result<String, OpError> {
            let req = easel_docedit::semantic::judge_request(prompt);
            model
                .respond(&name, req, &mut |_| {})
                .map(|r| r.text)
                .map_err(|f| OpError::new(easel_core::ErrorKind::Failure, f.message, f.hint))
        };
        let matches = easel_docedit::semantic::scan_elements(
            proposal.document().elements(),
            query,
            &mut ask,
        )?;
        if matches.is_empty() {
            return Ok(format!("no element matches \"{query}\""));
        }
        serde_json::to_string(&serde_json::json!({ "matches": matches }))
            .map_err(|e| OpError::failure(format!("could not encode the matches: {e}")))
    })
}
