//! End-to-end with the real SmolLM2 file (`easel llm fetch`; `make test` fetches it).
#![cfg(feature = "local-llm")]
#![allow(clippy::unwrap_used)]

use easel_llm::{Config, Event, FinishReason, Llm, LlmError, Message, Request, Tool, ToolChoice};
use futures_util::StreamExt;
use serde_json::json;
use std::sync::{Arc, OnceLock};

/// One model for all tests of this file: loading is the slow part.
fn llm() -> Arc<Llm> {
    static LLM: OnceLock<Arc<Llm>> = OnceLock::new();
    LLM.get_or_init(|| {
        let c = Config::load(None).unwrap();
        assert!(
            c.local_model.is_file(),
            "{} is missing: run easel llm fetch (or scripts/fetch-model.sh, which make test runs)",
            c.local_model.display()
        );
        Arc::new(Llm::new(c))
    })
    .clone()
}

fn greedy(prompt: &str) -> Request {
    let mut r = Request::prompt(prompt);
    r.sampling.temperature = Some(0.0);
    r.max_tokens = Some(48);
    r
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_plus_two_mentions_four() {
    let r = llm()
        .complete(
            Some("local:smollm2"),
            greedy("What is 2+2? Answer in one sentence."),
        )
        .await
        .unwrap();
    assert!(
        r.text.contains('4') || r.text.to_lowercase().contains("four"),
        "answer: {:?}",
        r.text
    );
    assert!(
        r.usage.prompt_tokens > 5 && r.usage.completion_tokens > 0,
        "{:?}",
        r.usage
    );
    assert!(r.finish_reason.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn greedy_decoding_is_deterministic_and_seeds_repeat() {
    let a = llm()
        .complete(Some("local:smollm2"), greedy("Name a colour."))
        .await
        .unwrap();
    let b = llm()
        .complete(Some("local:smollm2"), greedy("Name a colour."))
        .await
        .unwrap();
    assert_eq!(a.text, b.text);
    let mut req = Request::prompt("Write a word.");
    req.sampling = easel_llm::Sampling {
        temperature: Some(1.0),
        top_p: Some(0.9),
        repetition_penalty: Some(1.1),
        seed: Some(7),
    };
    req.max_tokens = Some(16);
    let c = llm()
        .complete(Some("local:smollm2"), req.clone())
        .await
        .unwrap();
    let d = llm().complete(Some("local:smollm2"), req).await.unwrap();
    assert_eq!(c.text, d.text, "same seed, same text");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_tokens_and_stop_sequences() {
    let mut req = greedy("Count from 1 to 50, separated by commas.");
    req.max_tokens = Some(5);
    let r = llm().complete(Some("local:smollm2"), req).await.unwrap();
    assert_eq!(r.finish_reason, Some(FinishReason::Length));
    assert_eq!(r.usage.completion_tokens, 5);

    let mut req = greedy("Count from 1 to 20, separated by commas.");
    req.max_tokens = Some(64);
    req.stop = vec!["5".into()];
    let r = llm().complete(Some("local:smollm2"), req).await.unwrap();
    assert!(!r.text.contains('5'), "{:?}", r.text);
    assert_eq!(r.finish_reason, Some(FinishReason::Stop));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_tool_call_is_valid_under_the_grammar() {
    let mut req = greedy("What is the weather in Paris?");
    req.max_tokens = Some(96);
    req.tools = vec![
        Tool {
            name: "get_weather".into(),
            description: "Current weather of a city.".into(),
            parameters: json!({
                "type": "object",
                "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
                "required": ["city", "unit"],
                "additionalProperties": false
            }),
        },
        Tool {
            name: "get_time".into(),
            description: "Current time in a time zone.".into(),
            parameters: json!({"type": "object", "properties": {"zone": {"type": "string"}}, "required": ["zone"]}),
        },
    ];
    req.tool_choice = ToolChoice::Required;
    let mut s = llm().stream(Some("local:smollm2"), req).await.unwrap();
    let mut events = Vec::new();
    while let Some(e) = s.next().await {
        events.push(e.unwrap());
    }
    let call = events
        .iter()
        .find_map(|e| match e {
            Event::ToolCallEnd { call, .. } => Some(call.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no tool call in {events:?}"));
    assert!(
        call.name == "get_weather" || call.name == "get_time",
        "{call:?}"
    );
    let args = call.arguments_json().unwrap();
    if call.name == "get_weather" {
        assert!(args["city"].is_string(), "{args}");
        assert!(
            args["unit"] == "celsius" || args["unit"] == "fahrenheit",
            "{args}"
        );
        assert_eq!(args.as_object().unwrap().len(), 2, "{args}");
    } else {
        assert!(args["zone"].is_string(), "{args}");
    }
    assert!(
        matches!(events.first(), Some(Event::ToolCallStart { .. })),
        "{events:?}"
    );
    assert_eq!(
        events.last(),
        Some(&Event::Finish {
            reason: FinishReason::ToolCalls
        })
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_named_tool_choice_forces_that_tool() {
    let mut req = greedy("Hello!");
    req.max_tokens = Some(64);
    req.tools = vec![Tool {
        name: "lookup".into(),
        description: "Look a word up.".into(),
        parameters: json!({"type": "object", "properties": {"word": {"type": "string", "maxLength": 20}}, "required": ["word"]}),
    }];
    req.tool_choice = ToolChoice::Tool("lookup".into());
    let r = llm().complete(Some("local:smollm2"), req).await.unwrap();
    assert_eq!(r.tool_calls.len(), 1, "{r:?}");
    assert_eq!(r.tool_calls[0].name, "lookup");
    assert!(r.tool_calls[0].arguments_json().unwrap()["word"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_stops_decoding_after_the_current_token() {
    let m = llm().local_model().await.unwrap();
    let mut req = greedy("Tell me a long story about a dragon.");
    req.max_tokens = Some(300);
    let mut seen = 0;
    let timing = tokio::task::spawn_blocking(move || {
        m.generate(&req, &mut |_| {
            seen += 1;
            seen < 3
        })
    })
    .await
    .unwrap()
    .unwrap();
    assert!(
        timing.generated_tokens <= 4,
        "went on for {} tokens",
        timing.generated_tokens
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_stream_frees_the_model() {
    let short = || {
        let mut r = greedy("Say hi.");
        r.max_tokens = Some(4);
        r
    };
    // How long a short answer takes on this machine right now, so that the check below compares
    // like with like on a busy machine too.
    let t = std::time::Instant::now();
    llm()
        .complete(Some("local:smollm2"), short())
        .await
        .unwrap();
    let alone = t.elapsed();

    let mut req = greedy("Tell me a long story about a dragon.");
    req.max_tokens = Some(2000);
    let mut s = llm().stream(Some("local:smollm2"), req).await.unwrap();
    assert!(matches!(s.next().await, Some(Ok(Event::TextDelta { .. }))));
    drop(s);
    // Generations run one at a time: if the dropped one went on, the short answer would wait for
    // up to 2000 tokens, hundreds of times the few it takes alone.
    let t = std::time::Instant::now();
    llm()
        .complete(Some("local:smollm2"), short())
        .await
        .unwrap();
    let after = t.elapsed();
    assert!(
        after < alone * 10 + std::time::Duration::from_secs(1),
        "took {after:?} after the drop, {alone:?} alone"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_chat_template_comes_from_the_gguf() {
    let m = llm().local_model().await.unwrap();
    let mut req = Request::prompt("hi");
    req.messages.insert(0, Message::system("be kind"));
    let p = m.render_prompt(&req).unwrap();
    // SmolLM2's template is ChatML.
    assert!(p.contains("<|im_start|>system\nbe kind<|im_end|>"), "{p}");
    assert!(p.ends_with("<|im_start|>assistant\n"), "{p}");
}

#[tokio::test]
async fn a_missing_model_file_says_how_to_fix_it() {
    let c = Config {
        local_model: "/nonexistent/model.gguf".into(),
        ..Config::default()
    };
    let err = Llm::new(c)
        .complete(Some("local:smollm2"), Request::prompt("x"))
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::ModelFileMissing { .. }), "{err:?}");
    assert!(err.hint().contains("easel llm fetch"));
    assert!(err.hint().contains("EASEL_LOCAL_MODEL"));
}

#[tokio::test]
async fn unknown_local_models_are_refused() {
    let err = llm()
        .complete(Some("local:gpt5"), Request::prompt("x"))
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::UnknownLocalModel { .. }));
}

/// Runs a request on the local model directly, returning its events and timing.
async fn generate(req: Request) -> (Vec<Event>, easel_llm::local::Timing) {
    let model = llm().local_model().await.unwrap();
    tokio::task::spawn_blocking(move || {
        let mut events = Vec::new();
        let timing = model
            .generate(&req, &mut |e| {
                events.push(e);
                true
            })
            .unwrap();
        (events, timing)
    })
    .await
    .unwrap()
}

fn text_of(events: &[Event]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_later_turn_reads_only_what_is_new_and_answers_as_a_fresh_one_would() {
    let mut first = greedy("Name three fruits.");
    first.messages.insert(
        0,
        Message::system("You are a helpful assistant. Answer in one short sentence."),
    );
    first.max_tokens = Some(24);
    let (events, t1) = generate(first.clone()).await;
    assert_eq!(t1.prompt_tokens_read, t1.prompt_tokens);
    let mut second = first.clone();
    second.messages.push(Message::assistant(text_of(&events)));
    second.messages.push(Message::user("And three vegetables?"));
    let (kept, t2) = generate(second.clone()).await;
    // The shared start (system, first question and answer) came from the cache.
    assert!(
        t2.prompt_tokens_read * 2 < t2.prompt_tokens,
        "read {} of {}",
        t2.prompt_tokens_read,
        t2.prompt_tokens
    );
    llm().local_model().await.unwrap().forget_prefix();
    let (fresh, t3) = generate(second).await;
    assert_eq!(t3.prompt_tokens_read, t3.prompt_tokens);
    assert_eq!(text_of(&kept), text_of(&fresh));
    assert!(!text_of(&fresh).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_cut_off_by_max_tokens_is_a_call_with_a_length_finish_never_text() {
    let mut req = greedy("Write a long note about the history of the city of Paris.");
    req.tools = vec![Tool {
        name: "note_write".into(),
        description: "Write a note.".into(),
        parameters: json!({"type": "object", "properties": {"path": {"type": "string"}, "text": {"type": "string"}}, "required": ["path", "text"]}),
    }];
    req.tool_choice = ToolChoice::Required;
    req.max_tokens = Some(16);
    let (events, _) = generate(req).await;
    assert_eq!(text_of(&events), "", "{events:?}");
    let call = events
        .iter()
        .find_map(|e| match e {
            Event::ToolCallEnd { call, .. } => Some(call.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no call in {events:?}"));
    assert_eq!(call.name, "note_write");
    assert!(call.arguments_json().is_err(), "{call:?}");
    assert_eq!(
        events.last(),
        Some(&Event::Finish {
            reason: FinishReason::Length
        })
    );
}
