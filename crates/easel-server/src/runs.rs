//! Operations running on behalf of a client that named its run, so they can be cancelled.

use easel_ops::Cancel;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// The runs in progress, by the id their client gave.
#[derive(Clone, Debug, Default)]
pub(crate) struct Runs {
    map: Arc<Mutex<HashMap<String, Cancel>>>,
}

/// Removes its run from the table when the request ends, however it ends.
pub(crate) struct Running {
    runs: Runs,
    id: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.runs
            .map
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.id);
    }
}

impl Runs {
    /// Records run `id` with its cancel switch; `None` when a run of that id is already going.
    pub(crate) fn start(&self, id: &str, cancel: Cancel) -> Option<Running> {
        let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        if map.contains_key(id) {
            return None;
        }
        map.insert(id.to_owned(), cancel);
        Some(Running {
            runs: self.clone(),
            id: id.to_owned(),
        })
    }

    /// Cancels run `id`; false when no such run is going.
    pub(crate) fn cancel(&self, id: &str) -> bool {
        let map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        match map.get(id) {
            Some(c) => {
                c.cancel();
                true
            }
            None => false,
        }
    }
}

/// A client's run id: 1 to 64 letters, digits, `-` or `_` (it ends up in ledger lines).
pub(crate) fn valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_run_is_cancellable_while_it_runs_and_forgotten_after() {
        let runs = Runs::default();
        let cancel = Cancel::new();
        let running = runs.start("r1", cancel.clone()).unwrap();
        assert!(runs.start("r1", Cancel::new()).is_none(), "one run per id");
        assert!(runs.cancel("r1"));
        assert!(cancel.is_cancelled());
        drop(running);
        assert!(!runs.cancel("r1"));
    }

    #[test]
    fn run_ids_are_short_and_plain() {
        assert!(valid_id("0193abc-de_f"));
        assert!(!valid_id(""));
        assert!(!valid_id("a b"));
        assert!(!valid_id("../x"));
        assert!(!valid_id(&"a".repeat(65)));
    }
}
