//! `easel serve`: the web UI and the HTTP API of a vault (DESIGN.md section 17).
//!
//! - The API is the operation catalogue: `GET /api/ops` lists it, `POST /api/ops/{name}` runs
//!   one operation (the JSON `easel --json` prints, or `{"error":{"kind","message","hint"}}`
//!   with the status of its kind). A request may name its run (`X-Easel-Run`), so its events
//!   can be followed on the stream and `POST /api/runs/{run}/cancel` can stop it. Writes to
//!   one file wait their turn in arrival order.
//! - `GET /api/events` is a Server-Sent Events stream of vault changes (from a file watcher,
//!   so edits made in Obsidian show up) and of the events of running operations; with
//!   `?format=ag-ui` the same events in the AG-UI vocabulary.
//! - `POST /api/ag-ui/agents/{name}` runs an agent for an AG-UI client: a `RunAgentInput` in,
//!   the run's AG-UI events out.
//! - `GET /api/files/{path}` serves a vault file (images on a board).
//! - Every other `GET` is the web UI, embedded in the binary.
//!
//! Access: a fresh token per launch. The URL printed at start carries it once; the browser then
//! holds it in a cookie. API clients send `Authorization: Bearer TOKEN`. Everything sits behind
//! the guard every Easel server shares ([`easel_http`]).

#![warn(missing_docs)]

mod agui;
mod agui_run;
mod api;
mod assets;
mod auth;
mod error;
mod events;
mod files;
mod queue;
mod runs;
mod watch;

pub use assets::bundle_gzipped_bytes;
pub use error::ServerError;
pub use events::{Event, Hub};

use easel_core::Actor;
use easel_http::GuardOptions;
use easel_ops::Registry;
use easel_vault::Vault;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

/// How `easel serve` listens and who it lets in.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Address, remote access, allowed hosts and limits (the token is [`ServeOptions::token`]).
    pub guard: GuardOptions,
    /// The access token; a fresh random one when `None`.
    pub token: Option<String>,
    /// Who the ledger names for changes made through the server.
    pub actor: Actor,
}

impl ServeOptions {
    /// Loopback options for `addr` with a fresh token, acting as `http`.
    pub fn local(addr: SocketAddr) -> ServeOptions {
        ServeOptions {
            guard: GuardOptions::local(addr),
            token: None,
            actor: Actor::new("http"),
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub(crate) struct AppState {
    pub vault: Vault,
    pub registry: Arc<Registry>,
    pub actor: Actor,
    pub token: Arc<str>,
    pub cookie: Arc<str>,
    pub hub: Hub,
    pub runs: runs::Runs,
    pub writes: queue::WriteQueues,
}

/// A server ready to be served: its router and the event hub (tests publish on it).
pub struct Server {
    state: AppState,
    guard: GuardOptions,
}

impl Server {
    /// Prepares a server for `vault` over `registry` with `opts`; fails when the options are
    /// refused (a remote address without `--allow-remote` or without a token).
    pub fn new(
        vault: Vault,
        registry: Arc<Registry>,
        opts: ServeOptions,
    ) -> Result<Server, ServerError> {
        let token = match opts.token.filter(|t| !t.trim().is_empty()) {
            Some(t) => t,
            None => auth::fresh_token()?,
        };
        let mut check = opts.guard.clone();
        check.token = Some(token.clone());
        check.check()?;
        // The guard's own bearer check would refuse the browser's cookie: access is checked
        // by `auth` instead, which takes either.
        let mut guard = opts.guard;
        guard.token = None;
        let cookie = auth::cookie_name(guard.addr.port());
        Ok(Server {
            state: AppState {
                vault,
                registry,
                actor: opts.actor,
                token: token.into(),
                cookie: cookie.into(),
                hub: Hub::new(),
                runs: runs::Runs::default(),
                writes: queue::WriteQueues::default(),
            },
            guard,
        })
    }

    /// The access token.
    pub fn token(&self) -> &str {
        &self.state.token
    }

    /// The event hub: what it carries goes to every `GET /api/events` subscriber.
    pub fn hub(&self) -> &Hub {
        &self.state.hub
    }

    /// The router with every route, behind the guard and the token check.
    pub fn router(&self) -> axum::Router {
        let app = api::routes()
            .merge(files::routes())
            .merge(events::routes())
            .merge(agui_run::routes())
            .merge(assets::routes())
            .layer(axum::middleware::from_fn_with_state(
                self.state.clone(),
                auth::check,
            ))
            .with_state(self.state.clone());
        easel_http::guard(app, &self.guard)
    }

    /// Binds, calls `on_bound` with the address and the URL to open (token included), then
    /// serves until `shutdown` completes. Watches the vault for changes meanwhile.
    pub async fn serve(
        self,
        on_bound: impl FnOnce(SocketAddr, &str),
        shutdown: impl Future<Output = ()> + Send,
    ) -> Result<(), ServerError> {
        let listener = easel_http::bind(&self.guard).await?;
        let bound = listener.local_addr().map_err(ServerError::Io)?;
        // The cookie is named after the port, and port 0 is only known now.
        let mut server = self;
        server.state.cookie = auth::cookie_name(bound.port()).into();
        let _watcher = watch::start(&server.state.vault, server.state.hub.clone())?;
        let url = format!("http://{bound}/?token={}", server.state.token);
        on_bound(bound, &url);
        let app = server.router();
        easel_http::serve(listener, app, &server.guard, shutdown).await?;
        Ok(())
    }
}
