//! The event stream: vault changes and the events of running operations, to every subscriber of
//! `GET /api/events`.

use crate::AppState;
use axum::Router;
use axum::extract::{Query, State};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::routing::get;
use futures_util::stream::{self, Stream};
use serde::Deserialize;
use serde_json::{Value as Json, json};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;

/// How many events a subscriber may fall behind before it is told it missed some (and reloads).
const BACKLOG: usize = 4096;

/// One event: a JSON object with a `type`.
pub type Event = Arc<Json>;

/// Hands every event to every subscriber. A slow subscriber skips ahead (and gets a `lagged`
/// event) instead of holding memory or the publishers back.
#[derive(Clone, Debug)]
pub struct Hub {
    tx: broadcast::Sender<Event>,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub::new()
    }
}

impl Hub {
    /// A hub with no subscribers.
    pub fn new() -> Hub {
        Hub {
            tx: broadcast::channel(BACKLOG).0,
        }
    }

    /// Sends `event` to every current subscriber (none is fine).
    pub fn publish(&self, event: Json) {
        let _ = self.tx.send(Arc::new(event));
    }

    /// A new subscription, starting with the next event.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.tx.subscribe()
    }

    /// How many subscribers are connected.
    pub fn subscribers(&self) -> usize {
        self.tx.receiver_count()
    }
}

#[derive(Debug, Default, Deserialize)]
struct StreamQuery {
    /// `ag-ui` for the AG-UI event vocabulary.
    format: Option<String>,
}

pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/events", get(stream_events))
}

async fn stream_events(
    State(state): State<AppState>,
    Query(q): Query<StreamQuery>,
) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>>> {
    let agui = q.format.as_deref() == Some("ag-ui");
    let rx = state.hub.subscribe();
    let hello = json!({"type": "hello", "vault": state.vault.root().display().to_string()});
    let first = if agui { Vec::new() } else { vec![hello] };
    let translator = crate::agui::Translator::default();
    let stream = stream::unfold(
        (rx, first, translator),
        move |(mut rx, mut pending, mut tr)| async move {
            loop {
                if let Some(next) = pending.pop() {
                    let ev = SseEvent::default().data(next.to_string());
                    return Some((Ok(ev), (rx, pending, tr)));
                }
                let event = match rx.recv().await {
                    Ok(e) => e,
                    Err(broadcast::error::RecvError::Lagged(n)) => {
                        Arc::new(json!({"type": "lagged", "missed": n}))
                    }
                    Err(broadcast::error::RecvError::Closed) => return None,
                };
                if agui {
                    let mut out = tr.translate(&event);
                    out.reverse();
                    pending = out;
                } else {
                    pending = vec![(*event).clone()];
                }
            }
        },
    );
    Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}
