//! The one HTTP guard every Easel server shares (DESIGN.md section 12): `easel mcp --http`,
//! `easel llm serve` and the web server.
//!
//! - It binds to loopback by default; anything else needs `allow_remote` **and** a bearer token
//!   ([`GuardOptions::check`] refuses to start otherwise).
//! - It checks `Host` and `Origin` against DNS rebinding and answers 403 to a foreign one, and
//!   401 to a missing or wrong token.
//! - It refuses a body that is not `application/json` where JSON is expected (415), so a web
//!   page cannot post to it cross-site with a "simple" request.
//! - It caps request sizes (413), and the bytes of bodies held at once (503), and gives a client a deadline for its headers and its body, so
//!   a slow or stalled client cannot hold a connection forever.
//!
//! ```no_run
//! # async fn f() -> Result<(), easel_http::GuardError> {
//! use easel_http::{GuardOptions, bind, guard, serve};
//! let opts = GuardOptions::local("127.0.0.1:0".parse().unwrap_or_else(|_| unreachable!()));
//! let app = guard(axum::Router::new(), &opts);
//! let listener = bind(&opts).await?;
//! serve(listener, app, &opts, std::future::pending()).await?;
//! # Ok(()) }
//! ```
//!
//! Only HTTP lives here: each server keeps its own protocol (JSON-RPC, OpenAI) and mounts its
//! router behind [`guard`].

#![warn(missing_docs)]

mod error;
mod guard;
mod options;
mod serve;

pub use error::GuardError;
pub use guard::{ErrorStyle, guard, guard_with_style, refusal};
pub use options::{
    DEFAULT_BODY_TIMEOUT, DEFAULT_HEADER_TIMEOUT, DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_BUFFERED_BYTES, GuardOptions,
};
pub use serve::{bind, serve};
