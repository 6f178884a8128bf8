//! The runtime's own cost per turn, the model excluded: a model that answers at once, so what
//! is measured is the session (appends, fsyncs where they matter), the tool set built from the
//! Registry, the request assembled, and a read-only tool call dispatched.
//!
//! `cargo bench -p easel-agent --bench turn`

use criterion::{Criterion, criterion_group, criterion_main};
use easel_agent::{Agent, Approvals, Model, ModelFailure, RunRequest, Runtime};
use easel_llm::{Request, Response, ToolCall};
use easel_vault::Vault;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Answers with a `vault_list` call when asked to, else with text; no time of its own.
struct Instant(AtomicU64);

impl Model for Instant {
    fn default_model(&self) -> String {
        "instant:model".into()
    }

    fn respond(
        &self,
        _model: &str,
        req: Request,
        on_text: &mut dyn FnMut(&str),
    ) -> Result<Response, ModelFailure> {
        let wants_tool = req.messages.iter().any(|m| m.text() == "list")
            && !req.messages.iter().any(|m| m.tool_call_id.is_some());
        let mut r = Response::default();
        if wants_tool {
            let n = self.0.fetch_add(1, Ordering::Relaxed);
            r.tool_calls.push(ToolCall {
                id: format!("c{n}"),
                name: "vault_list".into(),
                arguments: "{}".into(),
            });
        } else {
            on_text("ok");
            r.text = "ok".into();
        }
        Ok(r)
    }
}

fn turn(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a scratch folder");
    for i in 0..20 {
        std::fs::write(dir.path().join(format!("Note {i}.md")), "# A note\n").expect("a note");
    }
    let vault = Vault::open(dir.path()).expect("a vault");
    let mut registry = easel_ops::Registry::new();
    easel_ops::register(&mut registry);
    let rt = Runtime {
        vault,
        registry,
        agents: vec![Agent::new("bench", "You answer.")],
        tools: Vec::new(),
        model: Arc::new(Instant(AtomicU64::new(0))),
        cancel: easel_ops::Cancel::new(),
    };
    let run = |input: &str| {
        rt.run(
            RunRequest {
                agent: "bench".into(),
                input: Some(input.into()),
                session: None,
                model: None,
                approvals: Approvals::Wait,
                max_turns: None,
            },
            &|_| (),
        )
        .expect("the run ends")
    };
    c.bench_function("agent_run_one_text_turn", |b| b.iter(|| run("hi")));
    c.bench_function("agent_run_tool_turn_then_text_turn", |b| {
        b.iter(|| run("list"))
    });
}

criterion_group!(benches, turn);
criterion_main!(benches);
