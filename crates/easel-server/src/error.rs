//! What can stop `easel serve` from starting.

use easel_core::ErrorKind;

/// Why the server cannot start or keep running.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The guard refused the options or the address could not be bound.
    #[error(transparent)]
    Guard(#[from] easel_http::GuardError),
    /// The vault cannot be watched for changes.
    #[error("cannot watch the vault for changes: {0}")]
    Watch(String),
    /// The system's random source failed (the token comes from it).
    #[error("cannot make an access token: {0}")]
    Random(String),
    /// Input or output failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl ServerError {
    /// The class of the failure (it decides the exit code).
    pub fn kind(&self) -> ErrorKind {
        match self {
            ServerError::Guard(e) => e.kind(),
            ServerError::Watch(_) | ServerError::Random(_) | ServerError::Io(_) => {
                ErrorKind::Failure
            }
        }
    }

    /// What to do next.
    pub fn hint(&self) -> String {
        match self {
            ServerError::Guard(e) => e.hint(),
            ServerError::Watch(_) => {
                "check that the vault folder exists and is readable; on Linux, raise fs.inotify.max_user_watches for very large vaults".into()
            }
            ServerError::Random(_) => "pass your own token with --token".into(),
            ServerError::Io(_) => "check the address and try again".into(),
        }
    }
}
