//! Configuration (DESIGN.md section 6): `.easel/config.toml` in the vault, then
//! `~/.config/easel/config.toml`, then environment variables. A vault file wins over the user file,
//! field by field; environment variables win over both, so a one-off `EASEL_MODEL=... easel ...`
//! always does what it says. Everything has a default that works offline.
//!
//! ```toml
//! [llm]
//! default_model = "local:smollm2"
//! timeout_secs = 120
//! max_retries = 3
//!
//! [providers.openai-compat]
//! base_url = "http://127.0.0.1:1234/v1"
//! models = ["qwen2.5-7b-instruct"]
//!
//! [providers.ollama]
//! base_url = "http://127.0.0.1:11434"
//! keep_alive = "30m"
//!
//! [providers.lmstudio]
//! base_url = "http://localhost:1234/v1"
//! ```

use crate::error::{LlmError, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The model used when nothing names one.
pub const DEFAULT_MODEL: &str = "local:smollm2";

/// The providers Easel knows, in the order `easel llm list` shows them.
pub const PROVIDERS: &[&str] = &[
    "local",
    "openai",
    "openai-compat",
    "openrouter",
    "ollama",
    "lmstudio",
    "anthropic",
];

/// Settings of one provider. Unset fields fall back to the provider's defaults.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderConfig {
    pub api_key: Option<String>,
    pub base_url: Option<String>,
    /// Models to list for providers that cannot be asked (openai-compat, anthropic).
    #[serde(default)]
    pub models: Vec<String>,
    /// Ollama's `keep_alive`: how long the model stays loaded after a request (`"30m"`, `"-1"`
    /// for ever, `0` to unload at once, or a number of seconds). Unset: Ollama's own default.
    pub keep_alive: Option<KeepAlive>,
}

/// A `keep_alive` value as Ollama takes it: a duration text or a number of seconds.
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(untagged)]
pub enum KeepAlive {
    Seconds(i64),
    Duration(String),
}

/// The whole configuration, merged from all sources.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub default_model: String,
    /// How long to wait for a provider to start answering, and between two pieces of a stream.
    pub timeout: Duration,
    /// Retries on 429, 5xx and failed connections.
    pub max_retries: u32,
    /// The first backoff between retries (doubled each time) when the server sends no Retry-After.
    pub retry_base_delay: Duration,
    /// The GGUF file of `local:smollm2` (EASEL_LOCAL_MODEL, else the fetched file).
    pub local_model: PathBuf,
    /// Threads for the local model (default: all cores).
    pub local_threads: Option<i32>,
    pub providers: BTreeMap<String, ProviderConfig>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    #[serde(default)]
    llm: LlmSection,
    /// `[tools.<name>]`: the agents' script tools' settings, read by easel-agent; the same file
    /// holds both, so a model configuration must not refuse them.
    #[serde(default, rename = "tools")]
    _tools: Option<toml::Table>,
    #[serde(default)]
    providers: BTreeMap<String, ProviderConfig>,
    #[serde(default)]
    local: LocalSection,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LlmSection {
    default_model: Option<String>,
    timeout_secs: Option<u64>,
    max_retries: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LocalSection {
    model_path: Option<PathBuf>,
    threads: Option<i32>,
}

/// Where the fetched SmolLM2 file lives: `${XDG_CACHE_HOME:-~/.cache}/easel/models/`.
pub fn default_local_model_path(env: &dyn Fn(&str) -> Option<String>) -> PathBuf {
    let cache = env("XDG_CACHE_HOME")
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .or_else(|| env("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(|| PathBuf::from(".cache"));
    cache.join("easel/models/SmolLM2-135M-Instruct.Q4_1.gguf")
}

impl Default for Config {
    fn default() -> Config {
        Config {
            default_model: DEFAULT_MODEL.into(),
            timeout: Duration::from_secs(120),
            max_retries: 3,
            retry_base_delay: Duration::from_millis(500),
            local_model: default_local_model_path(&|k| std::env::var(k).ok()),
            local_threads: None,
            providers: BTreeMap::new(),
        }
    }
}

fn parse_file(path: &Path, text: &str) -> Result<FileConfig> {
    toml::from_str(text).map_err(|e| LlmError::Config {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

fn read_file(path: &Path) -> Result<Option<FileConfig>> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse_file(path, &text).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(LlmError::Config {
            path: path.to_path_buf(),
            message: e.to_string(),
        }),
    }
}

impl Config {
    /// Reads the files and the process environment. `vault` is the vault folder, if any.
    pub fn load(vault: Option<&Path>) -> Result<Config> {
        let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let vault_file = match vault {
            Some(v) => read_file(&v.join(".easel/config.toml"))?,
            None => None,
        };
        let user_path = env("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| env("HOME").map(|h| PathBuf::from(h).join(".config")))
            .map(|d| d.join("easel/config.toml"));
        let user_file = match user_path {
            Some(p) => read_file(&p)?,
            None => None,
        };
        Ok(Config::merge(vault_file, user_file, &env))
    }

    /// Merges already-read TOML texts (vault first, then user) with an environment lookup.
    pub fn from_sources(
        vault_toml: Option<&str>,
        user_toml: Option<&str>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Config> {
        let v = vault_toml
            .map(|t| parse_file(Path::new(".easel/config.toml"), t))
            .transpose()?;
        let u = user_toml
            .map(|t| parse_file(Path::new("~/.config/easel/config.toml"), t))
            .transpose()?;
        Ok(Config::merge(v, u, env))
    }

    fn merge(
        vault: Option<FileConfig>,
        user: Option<FileConfig>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Config {
        let layers: Vec<FileConfig> = [vault, user].into_iter().flatten().collect();
        let first = |f: &dyn Fn(&FileConfig) -> Option<String>| layers.iter().find_map(f);
        let default_model = env("EASEL_MODEL")
            .or_else(|| first(&|l| l.llm.default_model.clone()))
            .unwrap_or_else(|| DEFAULT_MODEL.into());
        let timeout = layers
            .iter()
            .find_map(|l| l.llm.timeout_secs)
            .unwrap_or(120);
        let max_retries = layers.iter().find_map(|l| l.llm.max_retries).unwrap_or(3);
        let local_model = env("EASEL_LOCAL_MODEL")
            .map(PathBuf::from)
            .or_else(|| layers.iter().find_map(|l| l.local.model_path.clone()))
            .unwrap_or_else(|| default_local_model_path(env));
        let local_threads = layers.iter().find_map(|l| l.local.threads);

        let mut providers: BTreeMap<String, ProviderConfig> = BTreeMap::new();
        // Later layers only fill what earlier ones left unset.
        for layer in &layers {
            for (name, p) in &layer.providers {
                let e = providers.entry(name.clone()).or_default();
                if e.api_key.is_none() {
                    e.api_key.clone_from(&p.api_key);
                }
                if e.base_url.is_none() {
                    e.base_url.clone_from(&p.base_url);
                }
                if e.models.is_empty() {
                    e.models.clone_from(&p.models);
                }
                if e.keep_alive.is_none() {
                    e.keep_alive.clone_from(&p.keep_alive);
                }
            }
        }
        for (provider, var) in [
            ("openai", "OPENAI_API_KEY"),
            ("anthropic", "ANTHROPIC_API_KEY"),
            ("openrouter", "OPENROUTER_API_KEY"),
        ] {
            if let Some(k) = env(var) {
                providers.entry(provider.into()).or_default().api_key = Some(k);
            }
        }
        if let Some(host) = env("OLLAMA_HOST") {
            providers.entry("ollama".into()).or_default().base_url = Some(ollama_url(&host));
        }
        Config {
            default_model,
            timeout: Duration::from_secs(timeout.max(1)),
            max_retries,
            retry_base_delay: Duration::from_millis(500),
            local_model,
            local_threads,
            providers,
        }
    }

    pub fn provider(&self, name: &str) -> ProviderConfig {
        self.providers.get(name).cloned().unwrap_or_default()
    }
}

/// Ollama's own port, which `OLLAMA_HOST` implies when it names no port and no scheme.
const OLLAMA_PORT: u16 = 11434;

/// OLLAMA_HOST as `ollama` itself reads it: `0.0.0.0`, `host`, `host:port`, `:port`, an IPv6
/// literal with or without brackets, or a URL. Without a scheme the port defaults to 11434 (not
/// HTTP's 80); an empty host is 127.0.0.1. `0.0.0.0` and `::` are what people set so that
/// `ollama serve` listens everywhere; as an address to connect to they mean this machine.
fn ollama_url(host: &str) -> String {
    let h = host.trim();
    let (scheme, rest) = match h.split_once("://") {
        Some((scheme, rest)) => (scheme.to_ascii_lowercase(), rest),
        None => ("http".to_owned(), h),
    };
    let explicit_scheme = h.contains("://");
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], rest[i..].trim_end_matches('/')),
        None => (rest, ""),
    };
    let (name, port) = split_host_port(authority);
    let name = match name {
        "" | "0.0.0.0" => "127.0.0.1".to_owned(),
        "::" => "[::1]".to_owned(),
        n if n.contains(':') => format!("[{n}]"),
        n => n.to_owned(),
    };
    let port = match port {
        Some(p) => format!(":{p}"),
        // An explicit http:// or https:// means that scheme's port, as in any URL.
        None if explicit_scheme => String::new(),
        None => format!(":{OLLAMA_PORT}"),
    };
    format!("{scheme}://{name}{port}{path}")
}

/// `host:port`, `[v6]:port`, `[v6]`, `v6`, `host`, `:port` → (host without brackets, port).
fn split_host_port(authority: &str) -> (&str, Option<&str>) {
    if let Some(rest) = authority.strip_prefix('[') {
        return match rest.split_once(']') {
            Some((ip, tail)) => (ip, tail.strip_prefix(':').filter(|p| !p.is_empty())),
            None => (rest, None),
        };
    }
    match authority.rsplit_once(':') {
        // More than one colon without brackets is a bare IPv6 address, not host:port.
        Some((h, _)) if h.contains(':') => (authority, None),
        Some((h, p)) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => (h, Some(p)),
        Some((h, "")) => (h, None),
        _ => (authority, None),
    }
}

/// A model name `provider:model`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelName {
    pub provider: String,
    pub model: String,
}

impl ModelName {
    /// Splits at the first `:` (model ids may hold more, e.g. `ollama:llama3.1:8b`).
    pub fn parse(name: &str) -> Result<ModelName> {
        let bad = || LlmError::BadModelName {
            name: name.to_string(),
        };
        let (provider, model) = name.split_once(':').ok_or_else(bad)?;
        if provider.is_empty() || model.is_empty() {
            return Err(bad());
        }
        if !PROVIDERS.contains(&provider) {
            return Err(LlmError::UnknownProvider {
                provider: provider.to_string(),
            });
        }
        Ok(ModelName {
            provider: provider.to_string(),
            model: model.to_string(),
        })
    }
}

impl std::fmt::Display for ModelName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.provider, self.model)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn the_agents_tool_settings_in_the_same_file_are_not_refused() {
        let c = Config::from_sources(
            Some("[llm]\ndefault_model = \"local:smollm2\"\n\n[tools.weather]\nallow_net = [\"api.example.com\"]\n"),
            None,
            &no_env,
        )
        .unwrap();
        assert_eq!(c.default_model, "local:smollm2");
        assert!(Config::from_sources(Some("[tool]\nx = 1\n"), None, &no_env).is_err());
    }

    #[test]
    fn keep_alive_is_a_duration_or_seconds_and_the_vault_wins() {
        let vault = "[providers.ollama]\nkeep_alive = \"30m\"\n";
        let user = "[providers.ollama]\nkeep_alive = -1\n[providers.lmstudio]\nbase_url = \"http://box:1234/v1\"\n";
        let c = Config::from_sources(Some(vault), Some(user), &no_env).unwrap();
        assert_eq!(
            c.provider("ollama").keep_alive,
            Some(KeepAlive::Duration("30m".into()))
        );
        let c = Config::from_sources(None, Some(user), &no_env).unwrap();
        assert_eq!(
            c.provider("ollama").keep_alive,
            Some(KeepAlive::Seconds(-1))
        );
        assert_eq!(
            c.provider("lmstudio").base_url.as_deref(),
            Some("http://box:1234/v1")
        );
        assert_eq!(
            ModelName::parse("lmstudio:qwen2.5-7b").unwrap().provider,
            "lmstudio"
        );
    }

    #[test]
    fn model_names() {
        let m = ModelName::parse("ollama:llama3.1:8b").unwrap();
        assert_eq!(
            (m.provider.as_str(), m.model.as_str()),
            ("ollama", "llama3.1:8b")
        );
        assert_eq!(m.to_string(), "ollama:llama3.1:8b");
        assert!(matches!(
            ModelName::parse("gpt-4"),
            Err(LlmError::BadModelName { .. })
        ));
        assert!(matches!(
            ModelName::parse("local:"),
            Err(LlmError::BadModelName { .. })
        ));
        assert!(matches!(
            ModelName::parse("foo:bar"),
            Err(LlmError::UnknownProvider { .. })
        ));
    }

    #[test]
    fn defaults_work_offline() {
        let c =
            Config::from_sources(None, None, &|k| (k == "HOME").then(|| "/h".to_string())).unwrap();
        assert_eq!(c.default_model, "local:smollm2");
        assert_eq!(
            c.local_model,
            PathBuf::from("/h/.cache/easel/models/SmolLM2-135M-Instruct.Q4_1.gguf")
        );
        assert!(c.providers.is_empty());
    }

    #[test]
    fn vault_beats_user_and_env_beats_both() {
        let vault =
            "[llm]\ndefault_model = \"ollama:qwen\"\n[providers.openai]\nbase_url = \"http://v\"\n";
        let user = "[llm]\ndefault_model = \"openai:x\"\ntimeout_secs = 5\n[providers.openai]\nbase_url = \"http://u\"\napi_key = \"user-key\"\n";
        let c = Config::from_sources(Some(vault), Some(user), &no_env).unwrap();
        assert_eq!(c.default_model, "ollama:qwen");
        assert_eq!(c.timeout, Duration::from_secs(5));
        let p = c.provider("openai");
        assert_eq!(p.base_url.as_deref(), Some("http://v"));
        assert_eq!(p.api_key.as_deref(), Some("user-key"));

        let env = |k: &str| match k {
            "EASEL_MODEL" => Some("anthropic:claude".to_string()),
            "OPENAI_API_KEY" => Some("env-key".to_string()),
            "OLLAMA_HOST" => Some("127.0.0.1:9999".to_string()),
            "EASEL_LOCAL_MODEL" => Some("/m.gguf".to_string()),
            _ => None,
        };
        let c = Config::from_sources(Some(vault), Some(user), &env).unwrap();
        assert_eq!(c.default_model, "anthropic:claude");
        assert_eq!(c.provider("openai").api_key.as_deref(), Some("env-key"));
        assert_eq!(
            c.provider("ollama").base_url.as_deref(),
            Some("http://127.0.0.1:9999")
        );
        assert_eq!(c.local_model, PathBuf::from("/m.gguf"));
    }

    #[test]
    fn ollama_host_is_read_the_way_ollama_reads_it() {
        for (given, url) in [
            ("0.0.0.0", "http://127.0.0.1:11434"),
            ("0.0.0.0:11434", "http://127.0.0.1:11434"),
            ("gpu-box", "http://gpu-box:11434"),
            ("gpu-box:8080", "http://gpu-box:8080"),
            (":11434", "http://127.0.0.1:11434"),
            ("::1", "http://[::1]:11434"),
            ("[::1]", "http://[::1]:11434"),
            ("[fe80::1]:9000", "http://[fe80::1]:9000"),
            ("::", "http://[::1]:11434"),
            ("http://gpu-box", "http://gpu-box"),
            ("https://ollama.example/", "https://ollama.example"),
            ("http://0.0.0.0:11434", "http://127.0.0.1:11434"),
            (
                "https://proxy.example:8443/ollama/",
                "https://proxy.example:8443/ollama",
            ),
            (" 127.0.0.1:9999 ", "http://127.0.0.1:9999"),
        ] {
            assert_eq!(ollama_url(given), url, "OLLAMA_HOST={given}");
        }
    }

    #[test]
    fn bad_toml_names_the_file() {
        let e = Config::from_sources(Some("[llm\n"), None, &no_env).unwrap_err();
        assert!(e.to_string().contains(".easel/config.toml"), "{e}");
        let e = Config::from_sources(None, Some("[llm]\nbogus = 1\n"), &no_env).unwrap_err();
        assert!(e.to_string().contains("bogus"), "{e}");
    }
}
