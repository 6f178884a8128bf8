//! The `openai` provider talking over real HTTP to the OpenAI-compatible endpoint that serves the
//! local model.
#![cfg(feature = "local-llm")]
#![allow(clippy::unwrap_used)]

use easel_llm::{Config, Event, FinishReason, Llm, Request, Tool, ToolChoice};
use futures_util::StreamExt;
use serde_json::json;
use std::sync::Arc;

async fn start() -> (String, Llm) {
    let local = Arc::new(Llm::new(Config::load(None).unwrap()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, easel_llm::serve::router(local))
            .await
            .unwrap()
    });
    let base = format!("http://{addr}/v1");
    let mut c = Config::default();
    let p = c.providers.entry("openai".into()).or_default();
    p.base_url = Some(base.clone());
    p.api_key = Some("unused".into());
    (base, Llm::new(c))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openai_provider_streams_from_easel_serve() {
    let (_, client) = start().await;
    let mut req = Request::prompt("What is 2+2? Answer in one sentence.");
    req.sampling.temperature = Some(0.0);
    req.max_tokens = Some(48);
    let mut s = client.stream(Some("openai:smollm2"), req).await.unwrap();
    let mut deltas = 0;
    let mut r = easel_llm::Response::default();
    while let Some(e) = s.next().await {
        let e = e.unwrap();
        if matches!(e, Event::TextDelta { .. }) {
            deltas += 1;
        }
        r.apply(&e);
    }
    assert!(deltas > 1, "the answer came in one piece, not streamed");
    assert!(
        r.text.contains('4') || r.text.to_lowercase().contains("four"),
        "{:?}",
        r.text
    );
    assert!(
        r.usage.completion_tokens > 0,
        "usage chunk missing: {:?}",
        r.usage
    );
    assert!(r.finish_reason.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_calls_travel_over_the_openai_wire() {
    let (_, client) = start().await;
    let mut req = Request::prompt("What is the weather in Oslo?");
    req.sampling.temperature = Some(0.0);
    req.max_tokens = Some(64);
    req.tools = vec![Tool {
        name: "get_weather".into(),
        description: "Current weather of a city.".into(),
        parameters: json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
    }];
    req.tool_choice = ToolChoice::Tool("get_weather".into());
    let r = client.complete(Some("openai:smollm2"), req).await.unwrap();
    assert_eq!(r.finish_reason, Some(FinishReason::ToolCalls));
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].name, "get_weather");
    assert!(r.tool_calls[0].arguments_json().unwrap()["city"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_http_clients_get_models_completions_and_errors() {
    let (base, _) = start().await;
    let http = easel_llm::http::client().unwrap();
    let models: serde_json::Value = http
        .get(format!("{base}/models"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(models["data"][0]["id"], "smollm2");

    let resp = http
        .post(format!("{base}/chat/completions"))
        .json(&json!({"model": "smollm2", "messages": [{"role": "user", "content": "Say hello."}], "max_tokens": 8, "temperature": 0}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let v: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(v["object"], "chat.completion");
    assert!(
        v["choices"][0]["message"]["content"]
            .as_str()
            .is_some_and(|s| !s.is_empty()),
        "{v}"
    );
    assert!(v["usage"]["completion_tokens"].as_u64().unwrap() <= 8);

    let resp = http
        .post(format!("{base}/chat/completions"))
        .json(&json!({"model": "gpt-4", "messages": [{"role": "user", "content": "x"}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 404);
    let resp = http
        .post(format!("{base}/chat/completions"))
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 400);
    let v: serde_json::Value = resp.json().await.unwrap();
    assert!(v["error"]["message"].as_str().unwrap().contains("not JSON"));
}
