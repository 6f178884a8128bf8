//! The graph every format is read into and written from: nodes with labels and colours,
//! groups (nested), and edges with labels, colours and arrow ends.

use easel_layout::{Direction, RankSet};

/// One end of an edge: a node or a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndRef {
    Node(usize),
    Group(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub struct DNode {
    /// The name the source used (Mermaid id, DOT node id); used to make stable canvas ids.
    pub key: String,
    pub label: String,
    /// A canvas colour: "1"-"6" or "#rrggbb".
    pub color: Option<String>,
    pub group: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DGroup {
    pub key: String,
    pub label: String,
    pub color: Option<String>,
    pub parent: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DEdge {
    pub from: EndRef,
    pub to: EndRef,
    pub label: Option<String>,
    pub color: Option<String>,
    /// An arrow head at the target (JSON Canvas `toEnd`).
    pub arrow: bool,
    /// An arrow head at the source (`fromEnd`).
    pub back_arrow: bool,
}

/// A diagram, whatever format it came from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Diagram {
    pub direction: Option<Direction>,
    pub nodes: Vec<DNode>,
    pub groups: Vec<DGroup>,
    pub edges: Vec<DEdge>,
    /// Nodes (indices into `nodes`) the layout keeps on one rank: DOT's `rank=same` subgraphs.
    pub ranks: Vec<RankSet<usize>>,
}

/// What a conversion could not carry over, each message once with how often it happened.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Warnings(Vec<(String, usize)>);

impl Warnings {
    pub fn add(&mut self, message: impl Into<String>) {
        let message = message.into();
        match self.0.iter_mut().find(|(m, _)| *m == message) {
            Some((_, n)) => *n += 1,
            None => self.0.push((message, 1)),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The messages, with "(N times)" where one happened more than once.
    pub fn messages(&self) -> Vec<String> {
        self.0
            .iter()
            .map(|(m, n)| {
                if *n > 1 {
                    format!("{m} ({n} times)")
                } else {
                    m.clone()
                }
            })
            .collect()
    }
}
