//! The cost of one script tool call: a fresh QuickJS runtime and context on a thread of its
//! own, the file evaluated, arguments checked and a trivial `execute` run.
//!
//! `cargo bench -p easel-agent --bench script_call`

use criterion::{Criterion, criterion_group, criterion_main};
use easel_agent::{AgentTool, ScriptTool, ToolOutput, ToolsConfig};
use easel_core::Actor;
use easel_ops::Ctx;
use easel_vault::Vault;
use serde_json::{Value, json};
use std::hint::black_box;

const WORD_COUNT: &str = r#"module.exports = {
  name: 'word_count',
  description: 'Count the words of a text',
  parameters: { text: { type: 'string', description: 'The text' } },
  execute: async ({ text }, ctx) => text.split(/\s+/).filter(Boolean).length,
};
"#;

fn script_call(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let ctx = Ctx::new(Vault::open(dir.path()).expect("a vault"), Actor::cli());
    let tool = ScriptTool::from_source("word_count.js", WORD_COUNT.into(), &ToolsConfig::default())
        .expect("the seed's example loads");
    let no_ops = |_: &str, _: Value| ToolOutput::error("none");
    let args = json!({"text": "one two three"});
    c.bench_function("script_call_word_count", |b| {
        b.iter(|| {
            let out = tool.call(&ctx, black_box(args.clone()), &no_ops);
            assert_eq!(out.text, "3");
        })
    });
    let read = ScriptTool::from_source(
        "read.js",
        "module.exports = { name: 'read', execute: (a, ctx) => ctx.vault.read('a.md').length };"
            .into(),
        &ToolsConfig::default(),
    )
    .expect("loads");
    std::fs::write(dir.path().join("a.md"), "hello").expect("a note");
    c.bench_function("script_call_vault_read", |b| {
        b.iter(|| {
            let out = read.call(&ctx, json!({}), &no_ops);
            assert_eq!(out.text, "5");
        })
    });
}

criterion_group!(benches, script_call);
criterion_main!(benches);
