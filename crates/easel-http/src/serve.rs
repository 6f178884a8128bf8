//! The accept loop. `axum::serve` cannot set a header deadline, so a client that sends half a
//! request line would hold its connection (and a file descriptor) forever; this loop drives
//! hyper itself with `header_read_timeout` and a timer.

use crate::error::GuardError;
use crate::options::GuardOptions;
use axum::Router;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower::ServiceExt as _;

/// How long open connections get to finish once shutdown starts.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Checks `opts` (loopback, `--allow-remote`, token) and binds its address.
pub async fn bind(opts: &GuardOptions) -> Result<TcpListener, GuardError> {
    opts.check()?;
    TcpListener::bind(opts.addr)
        .await
        .map_err(|source| GuardError::Bind {
            addr: opts.addr.to_string(),
            source,
        })
}

/// Serves `app` (already behind [`crate::guard`]) on `listener` until `shutdown` completes,
/// then gives open connections a few seconds to finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    opts: &GuardOptions,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), GuardError> {
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    let mut connections = tokio::task::JoinSet::new();
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors and the like: wait a moment instead of spinning.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
            // Reap finished connections so the set does not grow with every client.
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
        };
        // Without TCP_NODELAY, a response written in two pieces waits for the client's delayed
        // ACK: 40 ms on Linux for every small reply.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "cannot set TCP_NODELAY");
        }
        let service = app
            .clone()
            .map_request(|req: Request<Incoming>| req.map(axum::body::Body::new));
        let header_timeout = opts.header_timeout;
        let mut stop = stop_rx.clone();
        connections.spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let conn = builder
                .serve_connection(TokioIo::new(tcp), TowerToHyperService::new(service))
                .with_upgrades();
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                result = conn.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!(%peer, error = %e, "connection ended with an error");
                    }
                    return;
                }
                _ = stop.wait_for(|s| *s) => conn.as_mut().graceful_shutdown(),
            }
            if let Err(e) = conn.await {
                tracing::debug!(%peer, error = %e, "connection ended with an error");
            }
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    // Streams that never end (an MCP client's event stream) must not keep the process alive.
    let drained = tokio::time::timeout(SHUTDOWN_GRACE, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::info!(
            open = connections.len(),
            "closing connections that did not finish"
        );
        connections.abort_all();
    }
    Ok(())
}
