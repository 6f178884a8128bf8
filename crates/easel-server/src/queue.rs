//! Writes that come over HTTP wait their turn per file, first come first served.
//!
//! The vault's own lock is what keeps edits from being lost, and it still applies; but it is
//! taken by polling, so when many clients write one canvas at once, who gets it next is
//! luck: some writes wait many times longer than others, and under enough load one can wait
//! out the lock's timeout and fail. Queueing the server's writers here, in arrival order,
//! leaves the vault lock to arbitrate only between this server and other processes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{Mutex as FairMutex, OwnedMutexGuard};

/// One FIFO queue per file, created on first use and dropped once nobody waits on it.
#[derive(Clone, Debug, Default)]
pub(crate) struct WriteQueues {
    queues: Arc<Mutex<HashMap<String, Arc<FairMutex<()>>>>>,
}

/// A writer's turn on one file; the next writer goes when it is dropped.
#[derive(Debug)]
pub(crate) struct Turn {
    guard: Option<OwnedMutexGuard<()>>,
    key: String,
    queues: WriteQueues,
}

impl WriteQueues {
    /// Waits for the turn on `key` (a vault path as the client wrote it; two spellings of one
    /// file get two queues, and the vault lock still orders those).
    pub(crate) async fn turn(&self, key: &str) -> Turn {
        let queue = {
            let mut map = self.queues.lock().unwrap_or_else(|p| p.into_inner());
            map.entry(key.to_owned()).or_default().clone()
        };
        // tokio's mutex hands itself over in the order it was asked for.
        let guard = queue.lock_owned().await;
        Turn {
            guard: Some(guard),
            key: key.to_owned(),
            queues: self.clone(),
        }
    }

    /// How many files have a queue (writers holding or waiting for a turn).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.queues.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        self.guard = None;
        let mut map = self.queues.queues.lock().unwrap_or_else(|p| p.into_inner());
        // Only the map holds it: nobody has a turn or waits for one. A writer that is about to
        // wait has cloned it under this same lock, so it cannot be removed from under it.
        if map
            .get(&self.key)
            .is_some_and(|q| Arc::strong_count(q) == 1)
        {
            map.remove(&self.key);
        }
    }
}

/// What to queue an operation's call on: the `path` of an operation that changes the vault
/// in one quick step. Reads need no turn, and operations that call a model can run for
/// minutes (they take the vault lock only to write their result), so they are not queued.
pub(crate) fn queue_key(effect: easel_ops::Effect, args: &serde_json::Value) -> Option<&str> {
    use easel_ops::Effect;
    match effect {
        Effect::Write | Effect::Destructive => args.get("path")?.as_str(),
        Effect::Read | Effect::External => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use easel_ops::Effect;
    use serde_json::json;

    #[tokio::test]
    async fn turns_go_in_arrival_order_and_queues_are_dropped_when_empty() {
        let q = WriteQueues::default();
        let first = q.turn("a.canvas").await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut waiting = Vec::new();
        for i in 0..5 {
            let (q, order) = (q.clone(), order.clone());
            waiting.push(tokio::spawn(async move {
                let _turn = q.turn("a.canvas").await;
                order.lock().unwrap_or_else(|p| p.into_inner()).push(i);
            }));
            // Each waiter is in the queue before the next one asks.
            tokio::task::yield_now().await;
        }
        let other = q.turn("b.canvas").await;
        assert_eq!(q.len(), 2);
        drop(other);
        assert_eq!(q.len(), 1);
        drop(first);
        for w in waiting {
            w.await.unwrap_or_else(|e| panic!("a writer failed: {e}"));
        }
        assert_eq!(
            *order.lock().unwrap_or_else(|p| p.into_inner()),
            vec![0, 1, 2, 3, 4]
        );
        assert_eq!(q.len(), 0);
    }

    #[test]
    fn only_quick_writes_with_a_path_are_queued() {
        let args = json!({"path": "Board.canvas"});
        assert_eq!(queue_key(Effect::Write, &args), Some("Board.canvas"));
        assert_eq!(queue_key(Effect::Destructive, &args), Some("Board.canvas"));
        assert_eq!(queue_key(Effect::Read, &args), None);
        assert_eq!(queue_key(Effect::External, &args), None);
        assert_eq!(queue_key(Effect::Write, &json!({"name": "x"})), None);
    }
}
