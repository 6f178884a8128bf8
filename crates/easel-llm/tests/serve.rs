//! The `openai` provider talking over real HTTP to the OpenAI-compatible endpoint that serves the
//! local model.
#![cfg(feature = "local-llm")]
#![allow(clippy::unwrap_used)]

use easel_llm::{Config, Event, FinishReason, Llm, Request, Tool, ToolChoice};
use futures_util::StreamExt;
use serde_json::json;
use std::sync::Arc;

async fn start() -> (String, Llm) {
    let (base, _) = start_local().await;
    (base.clone(), client_of(&base))
}

/// The guarded endpoint over the embedded model; also returns the server's `Llm`.
async fn start_local() -> (String, Arc<Llm>) {
    let local = Arc::new(Llm::new(Config::load(None).unwrap()));
    let opts = easel_http::GuardOptions::local("127.0.0.1:0".parse().unwrap());
    let listener = easel_http::bind(&opts).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = easel_llm::serve::router(Arc::clone(&local), &opts);
    tokio::spawn(async move {
        easel_http::serve(listener, app, &opts, std::future::pending())
            .await
            .unwrap()
    });
    (format!("http://{addr}/v1"), local)
}

fn client_of(base: &str) -> Llm {
    let mut c = Config::default();
    let p = c.providers.entry("openai".into()).or_default();
    p.base_url = Some(base.to_string());
    p.api_key = Some("unused".into());
    Llm::new(c)
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
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 400);
    let v: serde_json::Value = resp.json().await.unwrap();
    assert!(v["error"]["message"].as_str().unwrap().contains("not JSON"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_pages_cannot_make_the_model_run() {
    let (base, llm) = start_local().await;
    let model = llm.local_model().await.unwrap();
    let http = easel_llm::http::client().unwrap();
    let body = json!({"messages": [{"role": "user", "content": "Say hello."}], "max_tokens": 4});
    // What a page on another site can send without a preflight: text/plain.
    let resp = http
        .post(format!("{base}/chat/completions"))
        .header("content-type", "text/plain")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 415);
    let v: serde_json::Value = resp.json().await.unwrap();
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("application/json"),
        "{v}"
    );
    // A page that got a preflight through still carries its Origin.
    let resp = http
        .post(format!("{base}/chat/completions"))
        .header("origin", "https://evil.example")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 403);
    let v: serde_json::Value = resp.json().await.unwrap();
    assert!(
        v["error"]["message"].as_str().unwrap().contains("Origin"),
        "{v}"
    );
    let resp = http
        .get(format!("{base}/models"))
        .header("host", "rebound.example")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 403);
    assert_eq!(
        model.started_generations(),
        0,
        "a refused request ran the model"
    );
    // A bad number is a 400 before the model runs.
    let resp = http
        .post(format!("{base}/chat/completions"))
        .json(&json!({"messages": [{"role": "user", "content": "x"}], "max_tokens": -5}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 400);
    assert_eq!(model.started_generations(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_leaves_stops_the_generation() {
    use tokio::io::AsyncWriteExt;
    let (base, llm) = start_local().await;
    let model = llm.local_model().await.unwrap();
    let addr = base
        .trim_start_matches("http://")
        .trim_end_matches("/v1")
        .to_string();
    for tools in [false, true] {
        let mut body = json!({
            "messages": [{"role": "user", "content": "Count from 1 to 2000, separated by commas."}],
            "max_tokens": 4000, "temperature": 0
        });
        if tools {
            // The tool call's JSON is held back until it is complete, so nothing is sent to the
            // caller while it is written: leaving must stop it all the same.
            body["tools"] = json!([{"type": "function", "function": {"name": "count",
                "parameters": {"type": "object", "properties": {"numbers": {"type": "string"}}, "required": ["numbers"]}}}]);
            body["tool_choice"] = json!("required");
        }
        let text = body.to_string();
        let started = model.started_generations();
        let cancelled = model.cancelled_generations();
        let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
        let req = format!(
            "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{text}",
            text.len()
        );
        s.write_all(req.as_bytes()).await.unwrap();
        while model.started_generations() == started {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        drop(s);
        while model.running_generations() > 0 {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert_eq!(
            model.cancelled_generations(),
            cancelled + 1,
            "the generation ran on after its client left (tools: {tools})"
        );
    }
}
