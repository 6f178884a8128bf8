//! The facts of a build's files, decoded from the cache only when something reads them.
//!
//! A re-init after one file changed reads the facts of the changed file and of the few files
//! the redone resolution reads; the others are only stat'ed. What every file must show without
//! being decoded (path, language, lines, package) is its [`Head`], the leading fields of its
//! encoded [`FileFacts`].

use crate::deps::{Dep, FileId, record};
use crate::extract::FileFacts;
use crate::lang::Lang;
use serde::Deserialize;
use std::sync::OnceLock;

/// The leading fields of [`FileFacts`], in their order: decoding an entry's prefix as a
/// `Head` reads these and nothing else.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Head {
    pub(crate) path: String,
    pub(crate) lang: Lang,
    pub(crate) lines: u32,
    pub(crate) package: Option<String>,
}

impl Head {
    pub(crate) fn of(f: &FileFacts) -> Head {
        Head {
            path: f.path.clone(),
            lang: f.lang,
            lines: f.lines,
            package: f.package.clone(),
        }
    }

    /// The head of an encoded entry; none when the entry is damaged.
    pub(crate) fn decode(raw: &[u8]) -> Option<Head> {
        postcard::from_bytes(raw).ok()
    }
}

/// Where a file's facts come from.
pub(crate) enum Source<'c> {
    /// Parsed in this run (or decoded already).
    Facts(Box<FileFacts>),
    /// An encoded cache entry, decoded on first use.
    Raw(&'c [u8]),
}

enum Store<'c> {
    Slice(&'c [FileFacts]),
    Lazy {
        heads: Vec<Head>,
        cells: Vec<OnceLock<FileFacts>>,
        raw: Vec<&'c [u8]>,
        /// Facts of file `i` when its entry cannot be decoded after all (parse it again).
        again: Box<dyn Fn(&Head) -> FileFacts + Send + Sync + 'c>,
    },
}

/// The facts of every file of a build, by file id (path order).
pub(crate) struct Files<'c> {
    store: Store<'c>,
}

impl<'c> Files<'c> {
    /// Facts already decoded.
    pub(crate) fn of_slice(facts: &'c [FileFacts]) -> Files<'c> {
        Files {
            store: Store::Slice(facts),
        }
    }

    /// Files with their heads and where their facts are; `again` makes the facts of a file
    /// whose entry turns out damaged.
    pub(crate) fn lazy(
        items: Vec<(Head, Source<'c>)>,
        again: impl Fn(&Head) -> FileFacts + Send + Sync + 'c,
    ) -> Files<'c> {
        let mut heads = Vec::with_capacity(items.len());
        let mut cells = Vec::with_capacity(items.len());
        let mut raw = Vec::with_capacity(items.len());
        for (h, s) in items {
            heads.push(h);
            match s {
                Source::Facts(f) => {
                    cells.push(OnceLock::from(*f));
                    raw.push(&[][..]);
                }
                Source::Raw(r) => {
                    cells.push(OnceLock::new());
                    raw.push(r);
                }
            }
        }
        Files {
            store: Store::Lazy {
                heads,
                cells,
                raw,
                again: Box::new(again),
            },
        }
    }

    pub(crate) fn len(&self) -> usize {
        match &self.store {
            Store::Slice(s) => s.len(),
            Store::Lazy { heads, .. } => heads.len(),
        }
    }

    /// File `i`'s facts, decoded on first use; no read is noted.
    pub(crate) fn get(&self, i: usize) -> &FileFacts {
        match &self.store {
            Store::Slice(s) => &s[i],
            Store::Lazy {
                heads,
                cells,
                raw,
                again,
            } => cells[i].get_or_init(|| match postcard::from_bytes(raw[i]) {
                Ok(f) => f,
                Err(e) => {
                    tracing::warn!("damaged cache entry of {}: {e}", heads[i].path);
                    again(&heads[i])
                }
            }),
        }
    }

    /// Whether file `i`'s facts are decoded (or were never encoded).
    pub(crate) fn is_decoded(&self, i: usize) -> bool {
        match &self.store {
            Store::Slice(_) => true,
            Store::Lazy { cells, .. } => cells[i].get().is_some(),
        }
    }

    pub(crate) fn path(&self, i: usize) -> &str {
        match &self.store {
            Store::Slice(s) => &s[i].path,
            Store::Lazy { heads, .. } => &heads[i].path,
        }
    }

    pub(crate) fn lang(&self, i: usize) -> Lang {
        match &self.store {
            Store::Slice(s) => s[i].lang,
            Store::Lazy { heads, .. } => heads[i].lang,
        }
    }

    pub(crate) fn package(&self, i: usize) -> Option<&str> {
        match &self.store {
            Store::Slice(s) => s[i].package.as_deref(),
            Store::Lazy { heads, .. } => heads[i].package.as_deref(),
        }
    }

    pub(crate) fn paths(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|i| self.path(i))
    }
}

/// The files as the resolver sees them: every read of a file's facts is noted.
pub(crate) struct TrackedFiles<'a>(pub(crate) &'a Files<'a>);

impl<'a> std::ops::Index<usize> for TrackedFiles<'a> {
    type Output = FileFacts;
    fn index(&self, i: usize) -> &FileFacts {
        record(Dep::File(i as FileId));
        self.0.get(i)
    }
}

impl<'a> TrackedFiles<'a> {
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// The files themselves, without noting reads: for passes over all files.
    pub(crate) fn untracked(&self) -> &'a Files<'a> {
        self.0
    }
}
