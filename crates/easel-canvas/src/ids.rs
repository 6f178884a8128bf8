//! Identifiers for new nodes and edges: 16 random lowercase hex digits, like Obsidian's.

use std::collections::HashSet;

/// A source of fresh ids. Seed it for reproducible tests.
#[derive(Clone, Debug)]
pub struct IdGen {
    rng: fastrand::Rng,
}

impl Default for IdGen {
    fn default() -> IdGen {
        IdGen::new()
    }
}

impl IdGen {
    pub fn new() -> IdGen {
        IdGen {
            rng: fastrand::Rng::new(),
        }
    }

    pub fn with_seed(seed: u64) -> IdGen {
        IdGen {
            rng: fastrand::Rng::with_seed(seed),
        }
    }

    /// A new id not in `taken`, which is then added to it.
    pub fn fresh(&mut self, taken: &mut HashSet<String>) -> String {
        loop {
            let id = format!("{:016x}", self.rng.u64(..));
            if taken.insert(id.clone()) {
                return id;
            }
        }
    }
}

/// True for ids in Easel's own format.
pub fn is_easel_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_sixteen_hex_digits_and_unique() {
        let mut taken = HashSet::new();
        let mut ids = IdGen::with_seed(7);
        for _ in 0..10_000 {
            let id = ids.fresh(&mut taken);
            assert!(is_easel_id(&id), "{id}");
        }
        assert_eq!(taken.len(), 10_000);
    }

    #[test]
    fn taken_ids_are_skipped() {
        let mut probe = IdGen::with_seed(1);
        let first = probe.fresh(&mut HashSet::new());
        let mut taken: HashSet<String> = [first.clone()].into();
        let next = IdGen::with_seed(1).fresh(&mut taken);
        assert_ne!(next, first);
    }
}
