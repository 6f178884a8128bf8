//! Every provider's wire format against a local server replaying recorded streams, one test per
//! quirk; plus retries, Retry-After, timeouts and cancellation by drop.
#![allow(clippy::unwrap_used)]

mod common;

use common::{Reply, llm_for, mock};
use easel_llm::{Event, FinishReason, LlmError, Message, Request, Tool, ToolChoice};
use futures_util::StreamExt;
use serde_json::json;
use std::time::{Duration, Instant};

async fn events(model: &str, reply: Reply, req: Request) -> (Vec<Event>, common::Mock) {
    let m = mock(vec![reply]).await;
    let llm = llm_for(&m);
    let mut s = llm.stream(Some(model), req).await.unwrap();
    let mut out = Vec::new();
    while let Some(e) = s.next().await {
        out.push(e.unwrap());
    }
    (out, m)
}

fn weather_tool() -> Tool {
    Tool {
        name: "weather".into(),
        description: "Weather for a city".into(),
        parameters: json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
    }
}

#[tokio::test]
async fn openai_text_and_usage() {
    let (ev, m) = events(
        "openai:gpt-4.1-mini",
        Reply::fixture("openai/text.sse"),
        Request::prompt("2+2?"),
    )
    .await;
    insta::assert_json_snapshot!(ev);
    let r = m.request(0);
    assert_eq!(r.path, "/v1/chat/completions");
    assert_eq!(r.headers["authorization"], "Bearer test-key");
    assert_eq!(r.body["model"], "gpt-4.1-mini");
    assert_eq!(r.body["stream"], true);
    assert_eq!(r.body["stream_options"]["include_usage"], true);
}

#[tokio::test]
async fn openai_parallel_tool_calls_from_interleaved_deltas() {
    let mut req = Request::prompt("weather and time");
    req.tools.push(weather_tool());
    let (ev, m) = events(
        "openai:gpt-4.1",
        Reply::fixture("openai/parallel_tools.sse"),
        req,
    )
    .await;
    insta::assert_json_snapshot!(ev);
    assert_eq!(m.request(0).body["tools"][0]["function"]["name"], "weather");
    assert_eq!(m.request(0).body["tool_choice"], "auto");
}

#[tokio::test]
async fn openai_compat_tool_deltas_without_index() {
    let (ev, _) = events(
        "openai-compat:qwen",
        Reply::fixture("openai/no_index.sse"),
        Request::prompt("x"),
    )
    .await;
    insta::assert_json_snapshot!(ev);
}

#[tokio::test]
async fn openai_whole_tool_call_in_one_chunk() {
    let (ev, _) = events(
        "openai-compat:m",
        Reply::fixture("openai/whole_call.sse"),
        Request::prompt("x"),
    )
    .await;
    insta::assert_json_snapshot!(ev);
}

#[tokio::test]
async fn openai_arguments_sent_as_an_object() {
    let (ev, _) = events(
        "openai-compat:m",
        Reply::fixture("openai/args_object.sse"),
        Request::prompt("x"),
    )
    .await;
    let Some(Event::ToolCallEnd { call, .. }) =
        ev.iter().find(|e| matches!(e, Event::ToolCallEnd { .. }))
    else {
        panic!("no tool call end in {ev:?}")
    };
    assert_eq!(
        call.arguments_json().unwrap(),
        json!({"city": "Rome", "days": 3})
    );
    // The stream had no [DONE]; the end of the body closes it.
    assert_eq!(
        ev.last(),
        Some(&Event::Finish {
            reason: FinishReason::ToolCalls
        })
    );
}

#[tokio::test]
async fn openai_reasoning_fields_are_kept_apart() {
    let m = mock(vec![Reply::fixture("openai/reasoning.sse")]).await;
    let r = llm_for(&m)
        .complete(Some("openrouter:deepseek/r1"), Request::prompt("2+2"))
        .await
        .unwrap();
    assert_eq!(r.reasoning, "The user wants a sum.");
    assert_eq!(r.text, "4");
    assert_eq!(r.finish_reason, Some(FinishReason::Length));
    let req = m.request(0);
    assert_eq!(req.path, "/api/v1/chat/completions");
    assert_eq!(req.headers["x-title"], "Easel");
    assert!(req.headers.contains_key("http-referer"));
}

#[tokio::test]
async fn openai_error_inside_the_stream() {
    let m = mock(vec![Reply::fixture("openai/error_in_stream.sse")]).await;
    let err = llm_for(&m)
        .complete(Some("openai:gpt"), Request::prompt("x"))
        .await
        .unwrap_err();
    assert!(
        matches!(err, LlmError::Status { status: 502, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("server had an error"));
}

#[tokio::test]
async fn ollama_native_chat_with_num_ctx() {
    let mut req = Request::prompt("word ".repeat(20_000));
    req.messages.insert(0, Message::system("be brief"));
    let (ev, m) = events(
        "ollama:llama3.1:8b",
        Reply::fixture("ollama/chat.ndjson"),
        req,
    )
    .await;
    insta::assert_json_snapshot!(ev);
    let r = m.request(0);
    assert_eq!(r.path, "/api/chat");
    assert_eq!(r.body["model"], "llama3.1:8b");
    let n = r.body["options"]["num_ctx"].as_u64().unwrap();
    assert!(n >= 100_000 / 3, "num_ctx {n} is too small for the prompt");
}

#[tokio::test]
async fn ollama_tool_calls_whole_with_object_arguments() {
    let mut req = Request::prompt("x");
    req.tools.push(weather_tool());
    let (ev, m) = events(
        "ollama:llama3.1",
        Reply::fixture("ollama/tools.ndjson"),
        req,
    )
    .await;
    insta::assert_json_snapshot!(ev);
    assert_eq!(m.request(0).body["tools"][0]["function"]["name"], "weather");
}

#[tokio::test]
async fn anthropic_tool_use_with_input_json_delta() {
    let mut req = Request {
        messages: vec![
            Message::system("sys"),
            Message::user("a"),
            Message::user("b"),
        ],
        ..Request::default()
    };
    req.tools.push(weather_tool());
    req.tool_choice = ToolChoice::Required;
    let (ev, m) = events(
        "anthropic:claude-sonnet-4-5",
        Reply::fixture("anthropic/tools.sse"),
        req,
    )
    .await;
    insta::assert_json_snapshot!(ev);
    let r = m.request(0);
    assert_eq!(r.path, "/v1/messages");
    assert_eq!(r.headers["x-api-key"], "test-key");
    assert_eq!(r.headers["anthropic-version"], "2023-06-01");
    assert_eq!(r.body["system"], "sys");
    assert_eq!(
        r.body["messages"].as_array().unwrap().len(),
        1,
        "same-role messages merged"
    );
    assert_eq!(r.body["tool_choice"]["type"], "any");
    assert_eq!(r.body["tools"][0]["input_schema"]["required"][0], "city");
}

#[tokio::test]
async fn anthropic_thinking_is_reasoning() {
    let m = mock(vec![Reply::fixture("anthropic/thinking.sse")]).await;
    let r = llm_for(&m)
        .complete(Some("anthropic:claude"), Request::prompt("2+2"))
        .await
        .unwrap();
    assert_eq!(
        (r.reasoning.as_str(), r.text.as_str()),
        ("2+2=4", "It is 4.")
    );
    assert_eq!(r.usage.prompt_tokens, 10);
    assert_eq!(r.usage.completion_tokens, 12);
}

#[tokio::test]
async fn retry_after_is_honoured_on_429() {
    let m = mock(vec![
        Reply::status(429, r#"{"error":{"message":"slow down"}}"#).header("retry-after", "1"),
        Reply::fixture("openai/text.sse"),
    ])
    .await;
    let t = Instant::now();
    let r = llm_for(&m)
        .complete(Some("openai:gpt"), Request::prompt("x"))
        .await
        .unwrap();
    assert_eq!(r.text, "Two plus two is 4.");
    assert_eq!(m.hits(), 2);
    assert!(
        t.elapsed() >= Duration::from_secs(1),
        "waited only {:?}",
        t.elapsed()
    );
}

#[tokio::test]
async fn server_errors_retry_with_backoff_then_give_up() {
    let m = mock(vec![
        Reply::status(503, "busy"),
        Reply::status(502, "bad gateway"),
        Reply::fixture("ollama/chat.ndjson"),
    ])
    .await;
    let r = llm_for(&m)
        .complete(Some("ollama:llama3.1"), Request::prompt("x"))
        .await
        .unwrap();
    assert_eq!(r.text, "Two plus two is 4.");
    assert_eq!(m.hits(), 3);

    let m = mock(vec![Reply::status(500, r#"{"error":{"message":"boom"}}"#)]).await;
    let err = llm_for(&m)
        .complete(Some("openai:gpt"), Request::prompt("x"))
        .await
        .unwrap_err();
    assert!(
        matches!(err, LlmError::Status { status: 500, .. }),
        "{err:?}"
    );
    assert_eq!(m.hits(), 4, "one try and three retries");
    assert!(err.to_string().contains("boom"));
}

#[tokio::test]
async fn client_errors_are_not_retried() {
    let m = mock(vec![Reply::status(
        401,
        r#"{"error":{"message":"Incorrect API key"}}"#,
    )])
    .await;
    let err = llm_for(&m)
        .complete(Some("openai:gpt"), Request::prompt("x"))
        .await
        .unwrap_err();
    assert_eq!(m.hits(), 1);
    assert_eq!(err.hint(), "check the API key");
    assert_eq!(err.kind(), easel_llm::ErrorKind::Invalid);
}

#[tokio::test]
async fn a_silent_server_times_out() {
    let mut slow = Reply::fixture("openai/text.sse");
    slow.delay = Duration::from_secs(30);
    let m = mock(vec![slow]).await;
    let mut c = common::config_for(&m.url());
    c.timeout = Duration::from_millis(300);
    c.max_retries = 1;
    let t = Instant::now();
    let err = easel_llm::Llm::new(c)
        .complete(Some("openai:gpt"), Request::prompt("x"))
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::Timeout { .. }), "{err:?}");
    assert!(t.elapsed() < Duration::from_secs(5));
    assert_eq!(m.hits(), 2);
}

#[tokio::test]
async fn a_stream_that_stalls_times_out() {
    let mut r = Reply::ok(&b"data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n"[..]);
    r.hang = true;
    let m = mock(vec![r]).await;
    let mut c = common::config_for(&m.url());
    c.timeout = Duration::from_millis(300);
    let mut s = easel_llm::Llm::new(c)
        .stream(Some("openai:gpt"), Request::prompt("x"))
        .await
        .unwrap();
    assert_eq!(
        s.next().await.unwrap().unwrap(),
        Event::TextDelta { text: "Hi".into() }
    );
    assert!(matches!(
        s.next().await,
        Some(Err(LlmError::Timeout { .. }))
    ));
    assert!(s.next().await.is_none());
}

#[tokio::test]
async fn dropping_the_stream_closes_the_connection() {
    let mut r = Reply::ok(&b"data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n"[..]);
    r.hang = true;
    let m = mock(vec![r]).await;
    let llm = llm_for(&m);
    let mut s = llm
        .stream(Some("openai:gpt"), Request::prompt("x"))
        .await
        .unwrap();
    assert!(matches!(s.next().await, Some(Ok(Event::TextDelta { .. }))));
    assert!(!m.body_dropped());
    drop(s);
    let t = Instant::now();
    while !m.body_dropped() {
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "the server never saw the client go"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn unreachable_servers_say_so() {
    // Bind and drop a listener to get a port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut c = common::config_for(&format!("http://127.0.0.1:{port}"));
    c.max_retries = 0;
    let err = easel_llm::Llm::new(c)
        .complete(Some("ollama:x"), Request::prompt("x"))
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::Connect { .. }), "{err:?}");
    assert!(err.hint().contains("server runs"));
}

#[tokio::test]
async fn missing_keys_and_urls_are_explained() {
    let llm = easel_llm::Llm::new(easel_llm::Config::default());
    let err = llm
        .complete(Some("anthropic:claude"), Request::prompt("x"))
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::MissingApiKey { .. }));
    assert!(err.hint().contains("ANTHROPIC_API_KEY"));
    let err = llm
        .complete(Some("openai-compat:x"), Request::prompt("x"))
        .await
        .unwrap_err();
    assert!(err.hint().contains("base_url"));
}

#[tokio::test]
async fn ollama_models_are_listed_from_tags() {
    let m = mock(vec![Reply::ok(
        r#"{"models":[{"name":"llama3.1:8b"},{"name":"qwen2.5:0.5b"}]}"#,
    )])
    .await;
    let list = llm_for(&m).list().await;
    let o = list.iter().find(|l| l.provider == "ollama").unwrap();
    assert!(o.ready);
    assert_eq!(o.models, vec!["ollama:llama3.1:8b", "ollama:qwen2.5:0.5b"]);
}

#[tokio::test]
async fn lmstudio_speaks_openai_chat_completions_without_a_key() {
    let m = mock(vec![Reply::fixture("openai/text.sse")]).await;
    let mut config = common::config_for(&m.url());
    config.providers.get_mut("lmstudio").unwrap().api_key = None;
    let r = easel_llm::Llm::new(config)
        .complete(
            Some("lmstudio:qwen2.5-7b-instruct"),
            Request::prompt("2+2?"),
        )
        .await
        .unwrap();
    assert!(!r.text.is_empty());
    let req = m.request(0);
    assert_eq!(req.path, "/v1/chat/completions");
    assert_eq!(req.body["model"], "qwen2.5-7b-instruct");
    assert!(req.headers.get("authorization").is_none());
}

#[tokio::test]
async fn lmstudio_models_are_listed_from_v1_models() {
    let m = mock(vec![Reply::ok(
        r#"{"object":"list","data":[{"id":"qwen2.5-7b-instruct","object":"model"},{"id":"text-embedding-nomic","object":"model"}]}"#,
    )])
    .await;
    let list = llm_for(&m).list().await;
    let l = list.iter().find(|l| l.provider == "lmstudio").unwrap();
    assert!(l.ready, "{}", l.status);
    assert!(
        l.models
            .contains(&"lmstudio:qwen2.5-7b-instruct".to_string())
    );
    assert!(
        (0..m.hits()).any(|i| m.request(i).path == "/v1/models"),
        "LM Studio is asked at /v1/models"
    );
}

#[tokio::test]
async fn ollama_keep_alive_is_passed_through_when_configured() {
    let m = mock(vec![Reply::fixture("ollama/chat.ndjson")]).await;
    let mut config = common::config_for(&m.url());
    let llm = easel_llm::Llm::new(config.clone());
    llm.complete(Some("ollama:llama3.1"), Request::prompt("x"))
        .await
        .unwrap();
    assert!(m.request(0).body.get("keep_alive").is_none());

    config.providers.get_mut("ollama").unwrap().keep_alive =
        Some(easel_llm::KeepAlive::Duration("30m".into()));
    easel_llm::Llm::new(config.clone())
        .complete(Some("ollama:llama3.1"), Request::prompt("x"))
        .await
        .unwrap();
    assert_eq!(m.request(1).body["keep_alive"], "30m");

    config.providers.get_mut("ollama").unwrap().keep_alive =
        Some(easel_llm::KeepAlive::Seconds(-1));
    easel_llm::Llm::new(config)
        .complete(Some("ollama:llama3.1"), Request::prompt("x"))
        .await
        .unwrap();
    assert_eq!(m.request(2).body["keep_alive"], -1);
}

#[tokio::test]
async fn ollama_context_window_comes_from_api_show_once() {
    let m = mock(vec![Reply::ok(
        r#"{"parameters":"num_ctx 4096","model_info":{"general.architecture":"llama","llama.context_length":131072}}"#,
    )])
    .await;
    let llm = llm_for(&m);
    assert_eq!(
        llm.context_window(Some("ollama:llama3.1:8b"))
            .await
            .unwrap(),
        Some(131_072)
    );
    let r = m.request(0);
    assert_eq!(r.path, "/api/show");
    assert_eq!(r.body["model"], "llama3.1:8b");
    // Remembered: the server is asked once.
    assert_eq!(
        llm.context_window(Some("ollama:llama3.1:8b"))
            .await
            .unwrap(),
        Some(131_072)
    );
    assert_eq!(m.hits(), 1);
    // Other providers do not say; nothing is sent.
    assert_eq!(llm.context_window(Some("openai:gpt")).await.unwrap(), None);
    assert_eq!(m.hits(), 1);
}
