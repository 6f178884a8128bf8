//! The embedded model as an agent: how long a turn takes with the catalogue's tools offered.
//!
//! Turn 1 is a fresh run (system prompt, tools, one user message); turn 2 is the same run after
//! the tool answered. Greedy decoding, so runs repeat. Prints a table; run with
//! `cargo run --release -p easel-llm --example bench_agent_turn [-- RUNS [TOOLS [THREADS]]]`.
#![allow(clippy::unwrap_used)]

use easel_llm::local::LocalModel;
use easel_llm::{Config, Event, Message, Request, Tool, ToolCall};
use std::time::Instant;

const TOOLS: &str = include_str!("data/catalogue_tools.json");

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

struct Turn {
    wall_ms: f64,
    prompt_tokens: u64,
    prompt_read: u64,
    prompt_ms: f64,
    generated: u64,
    generate_ms: f64,
    sample_ms: f64,
    answer: String,
}

fn run(model: &LocalModel, req: &Request) -> Turn {
    let mut answer = String::new();
    let started = Instant::now();
    let timing = model
        .generate(req, &mut |e| {
            match e {
                Event::TextDelta { text } => answer.push_str(&text),
                Event::ToolCallEnd { call, .. } => {
                    answer.push_str(&format!("CALL {} {}", call.name, call.arguments))
                }
                Event::Finish { reason } => answer.push_str(&format!(" [{reason:?}]")),
                _ => {}
            }
            true
        })
        .unwrap();
    Turn {
        wall_ms: started.elapsed().as_secs_f64() * 1000.0,
        prompt_tokens: timing.prompt_tokens,
        prompt_read: timing.prompt_tokens_read,
        prompt_ms: timing.prompt_ms,
        generated: timing.generated_tokens,
        generate_ms: timing.generate_ms,
        sample_ms: timing.sample_ms,
        answer,
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    let n_tools: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20);
    let threads: Option<i32> = args.next().and_then(|s| s.parse().ok());
    let mut config = Config::load(None).unwrap();
    config.local_threads = threads.or(config.local_threads);
    let model = LocalModel::load(&config.local_model, config.local_threads).unwrap();
    let mut tools: Vec<Tool> = serde_json::from_str(TOOLS).unwrap();
    tools.truncate(n_tools);

    let system = Message::system(
        "You are an assistant in the user's Obsidian vault. Use the tools to read and change \
         canvases and notes; answer briefly.",
    );
    let user = Message::user("Add a text node that says 'Buy milk' to Groceries.canvas.");
    let mut first = Request {
        messages: vec![system.clone(), user.clone()],
        tools: tools.clone(),
        ..Request::default()
    };
    first.sampling.temperature = Some(0.0);
    first.max_tokens = Some(256);

    let call = ToolCall {
        id: "call_1".into(),
        name: "canvas_add_node".into(),
        arguments: r#"{"path":"Groceries.canvas","type":"text","text":"Buy milk"}"#.into(),
    };
    let mut assistant = Message::assistant("");
    assistant.tool_calls = vec![call];
    let mut second = first.clone();
    second.messages.push(assistant);
    second.messages.push(Message::tool_result(
        "call_1",
        r#"{"node":{"id":"6f1c2a","type":"text","text":"Buy milk","x":0,"y":0,"width":250,"height":60},"rev":"b3"}"#,
    ));

    let mut rows: Vec<(&str, Vec<Turn>)> = vec![
        ("turn 1 (fresh run)", vec![]),
        ("turn 2 (after the tool)", vec![]),
    ];
    for _ in 0..runs {
        model.forget_prefix();
        rows[0].1.push(run(&model, &first));
        rows[1].1.push(run(&model, &second));
    }
    println!(
        "{} tools offered, {} runs, {} threads, medians",
        tools.len(),
        runs,
        config.local_threads.map_or("all".into(), |t| t.to_string())
    );
    println!(
        "| turn | wall | prompt tokens (read) | prompt time | generated tokens | generation time | of which sampling | answer |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---|");
    for (name, turns) in &rows {
        let last = turns.last().unwrap();
        println!(
            "| {name} | {:.0} ms | {} ({}) | {:.0} ms | {} | {:.0} ms | {:.0} ms | `{}` |",
            median(turns.iter().map(|t| t.wall_ms).collect()),
            last.prompt_tokens,
            last.prompt_read,
            median(turns.iter().map(|t| t.prompt_ms).collect()),
            last.generated,
            median(turns.iter().map(|t| t.generate_ms).collect()),
            median(turns.iter().map(|t| t.sample_ms).collect()),
            last.answer
                .chars()
                .take(90)
                .collect::<String>()
                .replace('|', "\\|")
                .replace('\n', " "),
        );
    }
}
