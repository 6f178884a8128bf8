//! `Llm`: one entry point for every model, local or remote.

use crate::config::{Config, ModelName, PROVIDERS};
use crate::error::{LlmError, Result};
use crate::providers;
use crate::stream::EventStream;
use crate::types::{Request, Response};
use serde::Serialize;
use std::sync::OnceLock;

/// What `easel llm list` shows of one provider.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ProviderListing {
    pub provider: String,
    /// Whether it can be used as configured (a key, a URL or a model file is there).
    pub ready: bool,
    /// Models, as full `provider:model` names.
    pub models: Vec<String>,
    /// A word about its state: where the model file is, why it is not ready, or a listing error.
    pub status: String,
}

/// Asks models. Cheap to share behind an `Arc`; the local model is loaded on first use and kept.
pub struct Llm {
    config: Config,
    /// Context windows servers reported, by model name (asked once per process).
    windows: std::sync::Mutex<std::collections::HashMap<String, Option<u64>>>,
    http: OnceLock<std::result::Result<reqwest::Client, String>>,
    #[cfg(feature = "local-llm")]
    local: tokio::sync::OnceCell<std::sync::Arc<crate::local::LocalModel>>,
}

impl std::fmt::Debug for Llm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Llm")
            .field("default_model", &self.config.default_model)
            .finish_non_exhaustive()
    }
}

impl Llm {
    pub fn new(config: Config) -> Llm {
        Llm {
            config,
            windows: std::sync::Mutex::default(),
            http: OnceLock::new(),
            #[cfg(feature = "local-llm")]
            local: tokio::sync::OnceCell::new(),
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    fn http(&self) -> Result<&reqwest::Client> {
        self.http
            .get_or_init(|| crate::http::client().map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|m| LlmError::Inference { message: m.clone() })
    }

    /// Streams the answer of `model` (`provider:model`; `None` for the configured default).
    /// Dropping the stream cancels the call.
    pub async fn stream(&self, model: Option<&str>, req: Request) -> Result<EventStream> {
        let name = ModelName::parse(model.unwrap_or(&self.config.default_model))?;
        validate(&req)?;
        if name.provider == "local" {
            return self.stream_local(&name, req).await;
        }
        providers::stream(self.http()?, &self.config, &name, &req).await
    }

    /// The context window of `model` in tokens when its server tells (Ollama's `/api/show`),
    /// else `None`. Asked once per model and remembered.
    pub async fn context_window(&self, model: Option<&str>) -> Result<Option<u64>> {
        let name = ModelName::parse(model.unwrap_or(&self.config.default_model))?;
        let key = name.to_string();
        if let Some(w) = self
            .windows
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
        {
            return Ok(*w);
        }
        let w = providers::context_window(self.http()?, &self.config, &name).await?;
        self.windows
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key, w);
        Ok(w)
    }

    /// The whole answer of `model`.
    pub async fn complete(&self, model: Option<&str>, req: Request) -> Result<Response> {
        self.stream(model, req).await?.collect().await
    }

    /// [`Llm::complete`] for callers without an async runtime (it makes a small one).
    pub fn complete_blocking(&self, model: Option<&str>, req: Request) -> Result<Response> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| LlmError::Inference {
                message: format!("cannot start a runtime: {e}"),
            })?;
        rt.block_on(self.complete(model, req))
    }

    /// The embedded model, loaded on first use (on a blocking thread: it reads ~100 MB).
    #[cfg(feature = "local-llm")]
    pub async fn local_model(&self) -> Result<std::sync::Arc<crate::local::LocalModel>> {
        let path = self.config.local_model.clone();
        let threads = self.config.local_threads;
        self.local
            .get_or_try_init(|| async move {
                let m = tokio::task::spawn_blocking(move || {
                    crate::local::LocalModel::load(&path, threads)
                })
                .await
                .map_err(|e| LlmError::Inference {
                    message: e.to_string(),
                })??;
                Ok(std::sync::Arc::new(m))
            })
            .await
            .cloned()
    }

    #[cfg(feature = "local-llm")]
    async fn stream_local(&self, name: &ModelName, req: Request) -> Result<EventStream> {
        if name.model != crate::local::LOCAL_MODEL_NAME {
            return Err(LlmError::UnknownLocalModel {
                name: name.model.clone(),
            });
        }
        let model = self.local_model().await?;
        let (tx, rx) = tokio::sync::mpsc::channel::<Result<crate::types::Event>>(64);
        tokio::task::spawn_blocking(move || {
            // A failed send means the stream was dropped: stop generating.
            let gone = tx.clone();
            let result =
                model.generate_until(&req, &mut |ev| tx.blocking_send(Ok(ev)).is_ok(), &|| {
                    gone.is_closed()
                });
            if let Err(e) = result {
                let _ = tx.blocking_send(Err(e));
            }
        });
        Ok(EventStream::new(futures_util::stream::unfold(
            rx,
            |mut rx| async move { rx.recv().await.map(|item| (item, rx)) },
        )))
    }

    #[cfg(not(feature = "local-llm"))]
    async fn stream_local(&self, _name: &ModelName, _req: Request) -> Result<EventStream> {
        Err(LlmError::LocalModelDisabled)
    }

    /// Every provider, whether it is usable, and its models.
    pub async fn list(&self) -> Vec<ProviderListing> {
        let mut out = Vec::new();
        for &p in PROVIDERS {
            out.push(self.list_one(p).await);
        }
        out
    }

    async fn list_one(&self, provider: &str) -> ProviderListing {
        let pc = self.config.provider(provider);
        let listed = |models: &[String]| {
            models
                .iter()
                .map(|m| format!("{provider}:{m}"))
                .collect::<Vec<_>>()
        };
        let mut l = ProviderListing {
            provider: provider.into(),
            ready: false,
            models: listed(&pc.models),
            status: String::new(),
        };
        match provider {
            "local" => {
                let path = &self.config.local_model;
                l.models = vec![format!("local:{}", "smollm2")];
                if !cfg!(feature = "local-llm") {
                    l.status = "not built into this easel (rebuild with the default features, or use ollama:MODEL or lmstudio:MODEL)".into();
                } else if path.is_file() {
                    l.ready = true;
                    l.status = format!("model file {}", path.display());
                } else {
                    l.status = format!(
                        "model file {} missing: run 'easel llm fetch'",
                        path.display()
                    );
                }
                return l;
            }
            "openai" | "anthropic" | "openrouter"
                if pc.api_key.as_deref().unwrap_or("").is_empty() =>
            {
                let env = format!("{}_API_KEY", provider.to_uppercase());
                l.status = format!("no API key (set {env})");
                return l;
            }
            "openai-compat" if pc.base_url.is_none() => {
                l.status = "no base_url configured".into();
                return l;
            }
            "ollama" | "lmstudio" if pc.base_url.is_none() => {
                // Local servers need no configuration: look on their default port, but quietly.
            }
            _ => {}
        }
        let client = match self.http() {
            Ok(c) => c,
            Err(e) => {
                l.status = e.to_string();
                return l;
            }
        };
        match providers::remote_models(client, &self.config, provider).await {
            Ok(models) => {
                l.ready = true;
                l.status = format!("{} models", models.len());
                let mut all = l.models;
                all.extend(listed(&models));
                all.dedup();
                l.models = all;
            }
            Err(e) => {
                // A configured key is enough to use the provider even if listing failed.
                l.ready = !matches!(provider, "ollama" | "lmstudio" | "openai-compat");
                l.status = format!("cannot list models: {e}");
            }
        }
        l
    }
}

fn validate(req: &Request) -> Result<()> {
    if req.messages.is_empty() {
        return Err(LlmError::InvalidRequest {
            message: "the request has no messages".into(),
        });
    }
    if let crate::types::ToolChoice::Tool(name) = &req.tool_choice
        && !req.tools.iter().any(|t| &t.name == name)
    {
        return Err(LlmError::InvalidRequest {
            message: format!("tool_choice names '{name}', which is not among the tools"),
        });
    }
    for t in &req.tools {
        if !t.parameters.is_object() {
            return Err(LlmError::InvalidRequest {
                message: format!(
                    "the parameters of tool '{}' are not a JSON Schema object",
                    t.name
                ),
            });
        }
    }
    Ok(())
}
