//! [`Registry`]: every operation the binary offers, by name.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value as Json;

use crate::ctx::Ctx;
use crate::error::OpError;
use crate::op::{DynOp, Op, OpInfo, OpOutput, Typed};

/// The catalogue: one entry per operation, in registration order (the order clients list them).
///
/// The binary builds one and hands it to every front end; each crate exports a function that
/// registers its operations (`easel_ops::register`, `easel_thread::register`, ...).
#[derive(Clone, Default)]
pub struct Registry {
    ops: Vec<Arc<dyn DynOp>>,
    index: HashMap<String, usize>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.ops.iter().map(|o| &o.info().name))
            .finish()
    }
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Add a typed operation. A name registered twice keeps the later operation, so a front end
    /// can replace a default (a test double, a configured variant); that is logged.
    pub fn register<O: Op>(&mut self, op: O) -> &mut Registry {
        self.register_dyn(Arc::new(Typed::new(op)))
    }

    /// Add an operation known only at run time.
    pub fn register_dyn(&mut self, op: Arc<dyn DynOp>) -> &mut Registry {
        let name = op.info().name.clone();
        match self.index.get(&name) {
            Some(&i) => {
                tracing::debug!(op = %name, "operation registered again; the later one is kept");
                self.ops[i] = op;
            }
            None => {
                self.index.insert(name, self.ops.len());
                self.ops.push(op);
            }
        }
        self
    }

    /// The operation called `name`.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn DynOp>> {
        self.index.get(name).map(|&i| &self.ops[i])
    }

    /// Whether an operation is called `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// What the catalogue lists, in order.
    pub fn infos(&self) -> impl Iterator<Item = &OpInfo> {
        self.ops.iter().map(|o| o.info())
    }

    /// The operations, in order.
    pub fn ops(&self) -> &[Arc<dyn DynOp>] {
        &self.ops
    }

    /// How many operations there are.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// Run operation `name` with JSON arguments.
    pub fn call(&self, ctx: &Ctx, name: &str, args: Json) -> Result<OpOutput, OpError> {
        let op = self.get(name).ok_or_else(|| self.unknown(name))?;
        let _span = tracing::debug_span!("op", name, actor = %ctx.actor()).entered();
        op.call_json(ctx, args)
    }

    /// The error for an operation that is not registered, with the closest names.
    pub fn unknown(&self, name: &str) -> OpError {
        let mut near: Vec<(usize, &str)> = self
            .infos()
            .map(|i| (edit_distance(name, &i.name), i.name.as_str()))
            .filter(|(d, n)| *d <= 3 || n.split('_').next() == name.split('_').next())
            .collect();
        near.sort();
        let hint = if near.is_empty() {
            let all: Vec<String> = self.infos().map(|i| format!("`{}`", i.name)).collect();
            format!("use one of: {}", all.join(", "))
        } else {
            let names: Vec<String> = near.iter().take(4).map(|(_, n)| format!("`{n}`")).collect();
            format!("did you mean {}?", names.join(", "))
        };
        OpError::not_found(format!("there is no operation named '{name}'"), hint)
    }
}

/// Levenshtein distance, for suggestions among a few dozen short names.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}
