//! What keeps a guarded server from starting or running.

use easel_core::ErrorKind;

/// Why a server did not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum GuardError {
    /// A non-loopback address without `--allow-remote`.
    #[error("refusing to listen on {addr}: it is reachable from other machines")]
    Remote {
        /// The address asked for.
        addr: String,
    },
    /// `--allow-remote` without a token.
    #[error("--allow-remote needs a bearer token")]
    NoToken,
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// IO while serving.
    #[error("IO error while serving: {0}")]
    Io(#[from] std::io::Error),
}

impl GuardError {
    /// The exit-code class.
    pub fn kind(&self) -> ErrorKind {
        match self {
            GuardError::Remote { .. } | GuardError::NoToken => ErrorKind::Usage,
            GuardError::Bind { .. } => ErrorKind::Conflict,
            GuardError::Io(_) => ErrorKind::Failure,
        }
    }

    /// What to do next.
    pub fn hint(&self) -> String {
        match self {
            GuardError::Remote { .. } => {
                "bind to 127.0.0.1, or add --allow-remote --token SECRET (clients then send 'Authorization: Bearer SECRET')".into()
            }
            GuardError::NoToken => {
                "add --token SECRET; clients send 'Authorization: Bearer SECRET'".into()
            }
            GuardError::Bind { .. } => {
                "pick another port (port 0 lets the system choose) or stop the process using it".into()
            }
            GuardError::Io(_) => "run with EASEL_LOG=debug for details".into(),
        }
    }
}
