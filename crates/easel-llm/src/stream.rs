//! The stream of events every call returns.

use crate::error::Result;
use crate::types::{Event, Response};
use futures_util::{Stream, StreamExt};
use std::pin::Pin;
use std::task::{Context, Poll};

/// The events of one answer, as they come. Dropping the stream cancels the call: the HTTP
/// connection is closed, or the local model stops after the current token.
pub struct EventStream {
    inner: Pin<Box<dyn Stream<Item = Result<Event>> + Send>>,
}

impl EventStream {
    pub fn new(s: impl Stream<Item = Result<Event>> + Send + 'static) -> EventStream {
        EventStream { inner: Box::pin(s) }
    }

    /// Reads the whole answer.
    pub async fn collect(self) -> Result<Response> {
        self.collect_with(|_| {}).await
    }

    /// Reads the whole answer, showing each event to `each` on the way (e.g. to print text as it
    /// comes).
    pub async fn collect_with(mut self, mut each: impl FnMut(&Event)) -> Result<Response> {
        let mut r = Response::default();
        while let Some(ev) = self.inner.next().await {
            let ev = ev?;
            each(&ev);
            r.apply(&ev);
        }
        Ok(r)
    }
}

impl std::fmt::Debug for EventStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EventStream")
    }
}

impl Stream for EventStream {
    type Item = Result<Event>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.inner.as_mut().poll_next(cx)
    }
}
