//! Sessions of `easel mcp --http` that end when their client goes quiet.
//!
//! rmcp's `LocalSessionManager` keeps a session until a client sends `DELETE`, and most clients
//! never do: they exit or crash. Each forgotten session holds its handler and buffers (1,200
//! sessions took the server from 18 to 309 MB). [`ReapingSessions`] wraps it, remembers when
//! each session was last used, and closes a session idle for longer than the timeout; a session
//! with a request in progress is never idle, however long the tool call takes.

use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::{
    RestoreOutcome, SessionId, SessionManager, session::ServerSseMessage,
};
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

/// How long an `easel mcp --http` session may go without a request before it is closed.
pub const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(10 * 60);

#[derive(Debug)]
struct Activity {
    last: Instant,
    in_flight: usize,
}

#[derive(Debug, Default)]
struct Book {
    sessions: HashMap<SessionId, Activity>,
}

/// The session manager: rmcp's local one, plus idle expiry.
#[derive(Debug)]
pub struct ReapingSessions {
    inner: LocalSessionManager,
    idle: Duration,
    book: Arc<Mutex<Book>>,
}

impl ReapingSessions {
    /// Sessions that close after `idle` without a request.
    pub fn new(idle: Duration) -> ReapingSessions {
        let mut inner = LocalSessionManager::default();
        // Our reaper decides when a session is idle; rmcp's own timer would also fire in the
        // middle of a long tool call, which sends nothing until it ends.
        inner.session_config.keep_alive = None;
        ReapingSessions {
            inner,
            idle,
            book: Arc::new(Mutex::new(Book::default())),
        }
    }

    fn book(&self) -> std::sync::MutexGuard<'_, Book> {
        // The book holds only timestamps and counters: a panic elsewhere cannot leave it
        // inconsistent, so a poisoned lock is still good to use.
        self.book.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn touch(&self, id: &SessionId) {
        if let Some(a) = self.book().sessions.get_mut(id) {
            a.last = Instant::now();
        }
    }

    /// The sessions idle for longer than the timeout, taken out of the book.
    fn take_expired(&self) -> Vec<SessionId> {
        let now = Instant::now();
        let mut book = self.book();
        let expired: Vec<SessionId> = book
            .sessions
            .iter()
            .filter(|(_, a)| a.in_flight == 0 && now.duration_since(a.last) > self.idle)
            .map(|(id, _)| id.clone())
            .collect();
        for id in &expired {
            book.sessions.remove(id);
        }
        expired
    }

    /// Closes every session idle for longer than the timeout; returns how many.
    pub async fn reap(&self) -> usize {
        let expired = self.take_expired();
        for id in &expired {
            tracing::debug!(session = %id, "closing an idle MCP session");
            if let Err(e) = self.inner.close_session(id).await {
                tracing::debug!(session = %id, error = %e, "closing an idle session failed");
            }
        }
        expired.len()
    }

    /// How many sessions are open.
    pub fn len(&self) -> usize {
        self.book().sessions.len()
    }

    /// Whether no session is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Runs [`ReapingSessions::reap`] a few times per timeout until the manager is dropped.
    pub fn spawn_reaper(self: &Arc<Self>) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            // Outside a runtime (a router built for tests), sessions are still reaped lazily
            // when new ones are created.
            return;
        };
        let weak: Weak<ReapingSessions> = Arc::downgrade(self);
        let tick = (self.idle / 4).clamp(Duration::from_millis(10), Duration::from_secs(30));
        runtime.spawn(async move {
            loop {
                tokio::time::sleep(tick).await;
                let Some(sessions) = weak.upgrade() else {
                    return;
                };
                sessions.reap().await;
            }
        });
    }

    fn in_flight(&self, id: &SessionId) -> InFlight {
        if let Some(a) = self.book().sessions.get_mut(id) {
            a.in_flight += 1;
            a.last = Instant::now();
        }
        InFlight {
            book: Arc::downgrade(&self.book),
            id: id.clone(),
        }
    }
}

/// Marks a request of a session as running until the response stream is dropped.
struct InFlight {
    book: Weak<Mutex<Book>>,
    id: SessionId,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let Some(book) = self.book.upgrade() else {
            return;
        };
        let mut book = book.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(a) = book.sessions.get_mut(&self.id) {
            a.in_flight = a.in_flight.saturating_sub(1);
            a.last = Instant::now();
        }
    }
}

/// A response stream that keeps its session busy while it is open.
struct Tracked<S> {
    inner: Pin<Box<S>>,
    _busy: InFlight,
}

impl<S: futures_util::Stream> futures_util::Stream for Tracked<S> {
    type Item = S::Item;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        self.inner.as_mut().poll_next(cx)
    }
}

impl SessionManager for ReapingSessions {
    type Error = LocalSessionManagerError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        self.reap().await;
        let (id, transport) = self.inner.create_session().await?;
        self.book().sessions.insert(
            id.clone(),
            Activity {
                last: Instant::now(),
                in_flight: 0,
            },
        );
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        let _busy = self.in_flight(id);
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        // An expired session the reaper has not reached yet is already gone for the client:
        // it gets 404 and starts a new one, as the MCP specification says.
        let expired = {
            let book = self.book();
            match book.sessions.get(id) {
                None => true,
                Some(a) => a.in_flight == 0 && a.last.elapsed() > self.idle,
            }
        };
        if expired {
            self.reap().await;
            return Ok(false);
        }
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.book().sessions.remove(id);
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<
        impl futures_util::Stream<Item = ServerSseMessage> + Send + Sync + 'static,
        Self::Error,
    > {
        let busy = self.in_flight(id);
        let inner = self.inner.create_stream(id, message).await?;
        Ok(Tracked {
            inner: Box::pin(inner),
            _busy: busy,
        })
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<
        impl futures_util::Stream<Item = ServerSseMessage> + Send + Sync + 'static,
        Self::Error,
    > {
        // The client's listening stream stays open for the whole session, so it does not count
        // as a request in progress: a client that only listens is idle.
        self.touch(id);
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<
        impl futures_util::Stream<Item = ServerSseMessage> + Send + Sync + 'static,
        Self::Error,
    > {
        self.touch(id);
        self.inner.resume(id, last_event_id).await
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        self.inner.restore_session(id).await
    }
}
