//! The remote providers: what URL, which headers, which wire format.

pub mod anthropic;
pub mod ollama;
pub mod openai;

use crate::config::{Config, ModelName};
use crate::error::{LlmError, Result};
use crate::http::{self, HttpPolicy};
use crate::stream::EventStream;
use crate::types::Request;
use std::time::Duration;

pub const OPENAI_URL: &str = "https://api.openai.com/v1";
pub const OPENROUTER_URL: &str = "https://openrouter.ai/api/v1";
pub const ANTHROPIC_URL: &str = "https://api.anthropic.com";
pub const OLLAMA_URL: &str = "http://127.0.0.1:11434";
/// LM Studio's server as it starts by default (Developer tab, or `lms server start`).
pub const LMSTUDIO_URL: &str = "http://localhost:1234/v1";

fn trim(url: &str) -> String {
    url.trim_end_matches('/').to_string()
}

/// The base URL of a provider: configured, else its public default.
pub fn base_url(config: &Config, provider: &str) -> Result<String> {
    let p = config.provider(provider);
    if let Some(u) = p.base_url.filter(|u| !u.is_empty()) {
        return Ok(trim(&u));
    }
    match provider {
        "openai" => Ok(OPENAI_URL.into()),
        "openrouter" => Ok(OPENROUTER_URL.into()),
        "anthropic" => Ok(ANTHROPIC_URL.into()),
        "ollama" => Ok(OLLAMA_URL.into()),
        "lmstudio" => Ok(LMSTUDIO_URL.into()),
        _ => Err(LlmError::MissingBaseUrl {
            provider: provider.into(),
        }),
    }
}

fn api_key(config: &Config, provider: &str) -> Result<Option<String>> {
    let key = config.provider(provider).api_key.filter(|k| !k.is_empty());
    let env = match provider {
        "openai" => "OPENAI_API_KEY",
        "anthropic" => "ANTHROPIC_API_KEY",
        "openrouter" => "OPENROUTER_API_KEY",
        // Local servers usually take no key.
        _ => return Ok(key),
    };
    key.map(Some).ok_or_else(|| LlmError::MissingApiKey {
        provider: provider.into(),
        env: env.into(),
    })
}

pub fn policy(config: &Config) -> HttpPolicy {
    HttpPolicy {
        timeout: config.timeout,
        max_retries: config.max_retries,
        base_delay: config.retry_base_delay,
    }
}

/// Starts a streamed call to a remote provider.
pub async fn stream(
    client: &reqwest::Client,
    config: &Config,
    name: &ModelName,
    req: &Request,
) -> Result<EventStream> {
    let provider = name.provider.as_str();
    let base = base_url(config, provider)?;
    let key = api_key(config, provider)?;
    let policy = policy(config);
    match provider {
        "openai" | "openai-compat" | "openrouter" | "lmstudio" => {
            let flavor = match provider {
                "openai" => openai::Flavor::OpenAi,
                "openrouter" => openai::Flavor::OpenRouter,
                _ => openai::Flavor::Compat,
            };
            let body = openai::request_body(&name.model, req, flavor);
            let url = format!("{base}/chat/completions");
            let resp = http::send(provider, policy, || {
                let mut b = client
                    .post(&url)
                    .json(&body)
                    .header("accept", "text/event-stream");
                if let Some(k) = &key {
                    b = b.bearer_auth(k);
                }
                if flavor == openai::Flavor::OpenRouter {
                    // OpenRouter's attribution headers.
                    b = b
                        .header("HTTP-Referer", "https://github.com/easel")
                        .header("X-Title", "Easel");
                }
                b
            })
            .await?;
            Ok(http::decode_body(
                provider,
                resp,
                true,
                openai::Decoder::new(provider),
                policy.timeout,
            ))
        }
        "ollama" => {
            let mut body = ollama::request_body(&name.model, req);
            if let Some(k) = config.provider(provider).keep_alive {
                body["keep_alive"] = serde_json::json!(k);
            }
            let url = format!("{base}/api/chat");
            let resp = http::send(provider, policy, || client.post(&url).json(&body)).await?;
            Ok(http::decode_body(
                provider,
                resp,
                false,
                ollama::Decoder::new(),
                policy.timeout,
            ))
        }
        "anthropic" => {
            let body = anthropic::request_body(&name.model, req);
            let url = format!("{base}/v1/messages");
            let key = key.unwrap_or_default();
            let resp = http::send(provider, policy, || {
                client
                    .post(&url)
                    .json(&body)
                    .header("x-api-key", &key)
                    .header("anthropic-version", "2023-06-01")
            })
            .await?;
            Ok(http::decode_body(
                provider,
                resp,
                true,
                anthropic::Decoder::new(),
                policy.timeout,
            ))
        }
        other => Err(LlmError::UnknownProvider {
            provider: other.into(),
        }),
    }
}

/// The context window of a model, in tokens, as its server reports it: Ollama's `/api/show`.
/// `None` for providers that do not say (the caller then keeps its own limit).
pub async fn context_window(
    client: &reqwest::Client,
    config: &Config,
    name: &ModelName,
) -> Result<Option<u64>> {
    if name.provider != "ollama" {
        return Ok(None);
    }
    let provider = name.provider.as_str();
    let url = format!("{}/api/show", base_url(config, provider)?);
    let policy = HttpPolicy {
        timeout: config.timeout.min(Duration::from_secs(10)),
        max_retries: 1,
        base_delay: config.retry_base_delay,
    };
    let body = serde_json::json!({ "model": name.model });
    let protocol = |message: String| LlmError::Protocol {
        provider: provider.into(),
        message,
    };
    // The whole exchange is bounded, body included: a server that answers with an endless or
    // huge body must not hold up the answer this only tunes.
    let exchange = async {
        let mut resp = http::send(provider, policy, || client.post(&url).json(&body)).await?;
        let mut bytes = Vec::new();
        while let Some(chunk) = resp
            .chunk()
            .await
            .map_err(|e| protocol(format!("/api/show: {e}")))?
        {
            bytes.extend_from_slice(&chunk);
            if bytes.len() > MAX_SHOW_BYTES {
                return Err(protocol(format!(
                    "/api/show answered more than {MAX_SHOW_BYTES} bytes"
                )));
            }
        }
        serde_json::from_slice::<serde_json::Value>(&bytes)
            .map_err(|e| protocol(format!("/api/show: {e}")))
    };
    let v = tokio::time::timeout(SHOW_DEADLINE, exchange)
        .await
        .map_err(|_| {
            protocol(format!(
                "/api/show took more than {} s",
                SHOW_DEADLINE.as_secs()
            ))
        })??;
    Ok(ollama::context_length(&v))
}

/// How long `/api/show` may take, body included.
const SHOW_DEADLINE: Duration = Duration::from_secs(5);
/// The largest `/api/show` answer read (a model's whole template and license fit many times).
const MAX_SHOW_BYTES: usize = 4 * 1024 * 1024;

/// The models a provider reports (`/models`, `/api/tags`), with a short timeout: listing must not
/// hang on a server that is down.
pub async fn remote_models(
    client: &reqwest::Client,
    config: &Config,
    provider: &str,
) -> Result<Vec<String>> {
    let base = base_url(config, provider)?;
    let key = api_key(config, provider)?;
    let policy = HttpPolicy {
        timeout: Duration::from_secs(5),
        max_retries: 0,
        base_delay: Duration::ZERO,
    };
    let (url, ollama) = match provider {
        "ollama" => (format!("{base}/api/tags"), true),
        "anthropic" => (format!("{base}/v1/models"), false),
        _ => (format!("{base}/models"), false),
    };
    let resp = http::send(provider, policy, || {
        let mut b = client.get(&url);
        if let Some(k) = &key {
            b = if provider == "anthropic" {
                b.header("x-api-key", k)
                    .header("anthropic-version", "2023-06-01")
            } else {
                b.bearer_auth(k)
            };
        }
        b
    })
    .await?;
    let v: serde_json::Value = resp.json().await.map_err(|e| LlmError::Protocol {
        provider: provider.into(),
        message: e.to_string(),
    })?;
    if ollama {
        return Ok(ollama::tag_names(&v));
    }
    let mut names: Vec<String> = v
        .get("data")
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|m| {
            m.get("id")
                .and_then(serde_json::Value::as_str)
                .map(str::to_string)
        })
        .collect();
    names.sort();
    Ok(names)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn lmstudio_defaults_to_its_own_port_and_takes_a_configured_url() {
        let mut c = Config::default();
        assert_eq!(
            base_url(&c, "lmstudio").unwrap(),
            "http://localhost:1234/v1"
        );
        assert_eq!(api_key(&c, "lmstudio").unwrap(), None);
        c.providers.entry("lmstudio".into()).or_default().base_url =
            Some("http://gpu-box:1234/v1/".into());
        assert_eq!(base_url(&c, "lmstudio").unwrap(), "http://gpu-box:1234/v1");
    }
}
