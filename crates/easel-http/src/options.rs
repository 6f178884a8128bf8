//! How a guarded server listens and what it accepts.

use crate::error::GuardError;
use std::net::SocketAddr;
use std::time::Duration;

/// The largest request body accepted unless a server sets its own (413 above it).
pub const DEFAULT_MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
/// How many bytes of request bodies the server holds at once, over all connections (503 past
/// it): many clients each sending a body just under the cap cannot exhaust memory.
pub const DEFAULT_MAX_BUFFERED_BYTES: usize = 8 * DEFAULT_MAX_BODY_BYTES;
/// How long a client may take to send its request line and headers before it is disconnected.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a client may take to send a request body once its headers are in (408 after).
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(60);

/// Where to listen and what the guard lets through.
#[derive(Clone, Debug)]
pub struct GuardOptions {
    /// Where to listen; port 0 lets the system choose.
    pub addr: SocketAddr,
    /// Permit a non-loopback address (needs `token`).
    pub allow_remote: bool,
    /// When set, every request needs `Authorization: Bearer <token>`.
    pub token: Option<String>,
    /// Host names (without port) accepted in `Host` and `Origin` besides the loopback ones.
    pub allowed_hosts: Vec<String>,
    /// The largest request body, in bytes.
    pub max_body_bytes: usize,
    /// The most request-body bytes held at once, over all connections (never less than
    /// `max_body_bytes`).
    pub max_buffered_bytes: usize,
    /// The deadline for a request's headers.
    pub header_timeout: Duration,
    /// The deadline for a request's body.
    pub body_timeout: Duration,
}

impl GuardOptions {
    /// Loopback-only options for `addr`, with the default limits.
    pub fn local(addr: SocketAddr) -> GuardOptions {
        GuardOptions {
            addr,
            allow_remote: false,
            token: None,
            allowed_hosts: Vec::new(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_buffered_bytes: DEFAULT_MAX_BUFFERED_BYTES,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
        }
    }

    /// Refuses what DESIGN.md section 12 forbids: a non-loopback address without
    /// `allow_remote`, or with it but without a token.
    pub fn check(&self) -> Result<(), GuardError> {
        if !self.addr.ip().is_loopback() {
            if !self.allow_remote {
                return Err(GuardError::Remote {
                    addr: self.addr.to_string(),
                });
            }
            if self.token().is_none() {
                return Err(GuardError::NoToken);
            }
        }
        Ok(())
    }

    /// The token, if one is set and not empty (an empty token would accept `Bearer `).
    pub(crate) fn token(&self) -> Option<&str> {
        self.token.as_deref().filter(|t| !t.trim().is_empty())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn remote_needs_allow_remote_and_a_token() {
        let mut o = GuardOptions::local("0.0.0.0:0".parse().unwrap());
        assert!(matches!(o.check(), Err(GuardError::Remote { .. })));
        o.allow_remote = true;
        assert!(matches!(o.check(), Err(GuardError::NoToken)));
        o.token = Some("  ".into());
        assert!(matches!(o.check(), Err(GuardError::NoToken)));
        o.token = Some("s3cret".into());
        o.check().unwrap();
        GuardOptions::local("127.0.0.1:0".parse().unwrap())
            .check()
            .unwrap();
        GuardOptions::local("[::1]:0".parse().unwrap())
            .check()
            .unwrap();
    }
}
