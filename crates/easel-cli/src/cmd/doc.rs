//! `easel doc ids|show|scan|edit|apply|finalize|import`: each builds the typed input of its
//! operation and prints the operation's output (`--json`: exactly the JSON MCP returns).

use crate::cli::DocCmd;
use crate::failure::UsageError;
use crate::output::Output;
use easel_agent::doc_agent::{self, DocEditInput, DocEditOutput};
use easel_docedit::ops::{
    DocApplied, DocApply, DocApplyInput, DocFinalize, DocFinalizeInput, DocIds, DocIdsInput,
    DocImport, DocImportInput, DocScan, DocScanInput, DocShow, DocShowInput, OperationItem,
};
use easel_ops::{Actor, Ctx, Op};
use easel_vault::Vault;
use serde_json::Value;
use std::sync::Arc;

pub fn run(vault: &Vault, out: &Output, cmd: DocCmd) -> anyhow::Result<()> {
    let ctx = Ctx::new(vault.clone(), Actor::cli());
    match cmd {
        DocCmd::Ids { file } => {
            let r = DocIds.run(&ctx, DocIdsInput { path: file })?;
            out.emit(&r, |r| {
                outln!(
                    "{}: {} id{} added, {} elements (rev {})",
                    r.path,
                    r.added,
                    if r.added == 1 { "" } else { "s" },
                    r.elements,
                    r.rev
                );
            })
        }
        DocCmd::Show { file } => {
            let r = DocShow.run(&ctx, DocShowInput { path: file })?;
            out.emit(&r, |r| {
                for e in &r.elements {
                    let page = e.page.map(|p| format!(" p{p}")).unwrap_or_default();
                    outln!("{:<10} {:<10} {}", e.id, format!("{}{page}", e.tag), e.text);
                }
                outln!("{}: {} elements, rev {}", r.path, r.elements.len(), r.rev);
            })
        }
        DocCmd::Scan { file, query, model } => {
            let models = Arc::new(easel_llm::ops::Models::default());
            let r = DocScan::new(models).run(
                &ctx,
                DocScanInput {
                    path: file,
                    query,
                    model,
                },
            )?;
            out.emit(&r, |r| {
                for m in &r.matches {
                    outln!("{:<10} {:<32} {}", m.id, m.text, m.why);
                }
                outln!(
                    "{} match{}",
                    r.matches.len(),
                    if r.matches.len() == 1 { "" } else { "es" }
                );
            })
        }
        DocCmd::Edit {
            file,
            instruction,
            select,
            model,
            yes,
            dry_run: _,
            max_turns,
        } => edit(
            &ctx,
            out,
            DocEditInput {
                path: file,
                instruction,
                select,
                model,
                yes: Some(yes),
                max_turns,
            },
        ),
        DocCmd::Apply { file, ops, rev } => {
            let (operations, list_rev) = operations_of(&file, crate::input::read_data(&ops)?)?;
            let r = DocApply.run(
                &ctx,
                DocApplyInput {
                    path: file,
                    operations,
                    rev: rev.or(list_rev),
                },
            )?;
            out.emit(&r, print_applied)
        }
        DocCmd::Finalize { file } => {
            let r = DocFinalize.run(&ctx, DocFinalizeInput { path: file })?;
            out.emit(&r, |r| {
                outln!(
                    "{}: {} redaction{}, {} saved version{} and {} session{} deleted",
                    r.path,
                    r.redactions,
                    if r.redactions == 1 { "" } else { "s" },
                    r.blobs_removed,
                    if r.blobs_removed == 1 { "" } else { "s" },
                    r.sessions_removed,
                    if r.sessions_removed == 1 { "" } else { "s" },
                );
                outln!("{}", r.note);
            })
        }
        DocCmd::Import {
            file,
            out: to,
            force,
        } => {
            let r = DocImport.run(
                &ctx,
                DocImportInput {
                    path: file,
                    to,
                    overwrite: Some(force),
                },
            )?;
            out.emit(&r, |r| {
                outln!(
                    "{} → {}: {} pages, {} paragraphs (rev {})",
                    r.from,
                    r.path,
                    r.pages,
                    r.paragraphs,
                    r.rev
                );
                for w in &r.warnings {
                    eprintln!("warning: {w}");
                }
            })
        }
    }
}

fn print_applied(r: &DocApplied) {
    for a in &r.applied {
        outln!("{}  {}", a.ledger_id, a.summary);
    }
    outln!(
        "{}: {} edit{} applied, rev {} (undo all: easel undo --run {})",
        r.path,
        r.applied.len(),
        if r.applied.len() == 1 { "" } else { "s" },
        r.rev.as_deref().unwrap_or("-"),
        r.run
    );
}

/// The operations of `--ops`: a proposal object (its `operations` and `rev`) or a bare list.
fn operations_of(
    file: &str,
    v: easel_canvas::json::Value,
) -> anyhow::Result<(Vec<OperationItem>, Option<String>)> {
    let v = Value::from(&v);
    let bad = |why: String| {
        UsageError::invalid(
            format!("--ops: {why}"),
            "give the JSON 'easel doc edit --json' printed, or a list like [{\"tool\": \"redact_element\", \"input\": {\"elementId\": \"c1a2b3c4d\"}}]",
        )
    };
    let (list, rev) = match v {
        Value::Array(list) => (list, None),
        Value::Object(mut map) => {
            if let Some(Value::String(path)) = map.get("path")
                && path.trim() != file.trim()
            {
                return Err(bad(format!("the proposal is for {path}, not {file}")).into());
            }
            let rev = map.get("rev").and_then(Value::as_str).map(str::to_string);
            match map.remove("operations") {
                Some(Value::Array(list)) => (list, rev),
                _ => return Err(bad("the object has no 'operations' list".into()).into()),
            }
        }
        _ => return Err(bad("expected a JSON list or a proposal object".into()).into()),
    };
    let items = list
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            serde_json::from_value::<OperationItem>(item)
                .map_err(|e| bad(format!("operation {}: {e}", i + 1)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((items, rev))
}

fn edit(ctx: &Ctx, out: &Output, input: DocEditInput) -> anyhow::Result<()> {
    let models = Arc::new(easel_llm::ops::Models::default());
    let llm = models.llm(ctx)?;
    let model: Arc<dyn easel_agent::Model> =
        Arc::new(easel_agent::LlmModel::new(llm, models.clone()));
    let yes = input.yes == Some(true);
    let req = doc_agent::DocEditRequest {
        path: input.path,
        instruction: input.instruction,
        select: input.select,
        model: input.model,
        max_turns: input.max_turns,
    };
    let json = out.is_json();
    let emit = move |e: easel_agent::AgentEvent| {
        if !json {
            crate::cmd::agent_run::show(&Output::new(false), &e);
        }
    };
    let scan = doc_agent::scanner(model.clone(), req.model.clone());
    let mut r: DocEditOutput = doc_agent::propose(ctx, model, &req, scan, &emit)?;
    if yes && !r.proposal.operations.is_empty() && r.stopped.is_none() {
        r.applied = Some(doc_agent::apply_proposal(ctx, &r)?);
    }
    out.emit(&r, |r| {
        outln!();
        outln!("{}", r.proposal.explanation);
        if r.proposal.operations.is_empty() {
            outln!("no operations proposed; the document is unchanged");
            return;
        }
        outln!("proposed for {} (rev {}):", r.proposal.path, r.proposal.rev);
        for op in &r.proposal.operations {
            let input = serde_json::to_string(&op.input).unwrap_or_default();
            outln!(
                "  {}  {} {}",
                op.id.as_deref().unwrap_or("-"),
                op.tool,
                crate::output::preview(&input, 160)
            );
        }
        match &r.applied {
            Some(a) => print_applied(a),
            None if r.stopped.is_some() => outln!(
                "nothing changed: the agent did not finish; review the proposal, then run 'easel doc apply {} --ops FILE' with the --json output saved",
                r.proposal.path
            ),
            None => outln!(
                "nothing changed yet: run again with --yes, or save the --json output and run 'easel doc apply {} --ops FILE'",
                r.proposal.path
            ),
        }
    })
}
