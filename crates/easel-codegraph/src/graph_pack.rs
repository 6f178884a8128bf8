//! The kept graph as `graph.bin` stores it: the nodes as they are, and every edge end and
//! call's caller that names a node as the node's index.
//!
//! Edges and calls name their ends by node id (`path/to/file.ts:Class.method`, forty bytes
//! and more), and there are three edges and two calls to a node: written out, the ids were
//! two thirds of the file. A one-file re-init reads and writes the whole kept graph, so its
//! size is time; an index is two or three bytes, and decoding one is a copy of the node's id
//! rather than a check and copy of bytes from the file.

use crate::model::{Edge, EdgeKind, Graph, Node, Unresolved};
use serde::de::{DeserializeSeed, Error as _, SeqAccess, Visitor};
use serde::ser::SerializeTuple;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// An edge end or a caller: a node by index, or an id no node has, written out.
#[derive(Serialize, Deserialize)]
enum End<'a> {
    Node(u32),
    Text(&'a str),
}

/// A call ([`Unresolved`]) as written.
#[derive(Serialize, Deserialize)]
struct Call<'a> {
    #[serde(borrow)]
    from: End<'a>,
    name: &'a str,
    line: u32,
    external: Option<&'a str>,
}

type Ids<'a> = foldhash::HashMap<&'a str, u32>;

/// A graph to be written, ends by index: the nodes, the edges, the unresolved calls and the
/// builtin calls. Ends are looked up as they are written, with no list in between.
pub(crate) struct Packing<'a> {
    g: &'a Graph,
    ids: Ids<'a>,
}

pub(crate) fn pack(g: &Graph) -> Packing<'_> {
    let ids = g
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i as u32))
        .collect();
    Packing { g, ids }
}

/// Finds ends by id, trying the last one found first: consecutive edges and calls mostly
/// start from the same node, and comparing two ids is cheaper than hashing one.
struct Finder<'a, 'i> {
    ids: &'i Ids<'a>,
    last: Option<(&'i str, u32)>,
}

impl<'i> Finder<'_, 'i> {
    fn end(&mut self, id: &'i str) -> End<'i> {
        if let Some((s, i)) = self.last
            && s == id
        {
            return End::Node(i);
        }
        match self.ids.get(id) {
            Some(&i) => {
                self.last = Some((id, i));
                End::Node(i)
            }
            None => End::Text(id),
        }
    }
}

struct Edges<'a>(&'a [Edge], &'a Ids<'a>);
struct Calls<'a>(&'a [Unresolved], &'a Ids<'a>);

impl Serialize for Edges<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (mut from, mut to) = (
            Finder {
                ids: self.1,
                last: None,
            },
            Finder {
                ids: self.1,
                last: None,
            },
        );
        s.collect_seq(
            self.0
                .iter()
                .map(|e| (from.end(&e.from), to.end(&e.to), e.kind)),
        )
    }
}

impl Serialize for Calls<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut from = Finder {
            ids: self.1,
            last: None,
        };
        s.collect_seq(self.0.iter().map(|u| Call {
            from: from.end(&u.from),
            name: &u.name,
            line: u.line,
            external: u.external.as_deref(),
        }))
    }
}

impl Serialize for Packing<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(4)?;
        t.serialize_element(&self.g.nodes)?;
        t.serialize_element(&Edges(&self.g.edges, &self.ids))?;
        t.serialize_element(&Calls(&self.g.unresolved, &self.ids))?;
        t.serialize_element(&Calls(&self.g.builtin_calls, &self.ids))?;
        t.end()
    }
}

/// A graph read back: the nodes first, then every end made from them as it is read.
pub(crate) struct Unpacked(pub(crate) Graph);

impl<'de> Deserialize<'de> for Unpacked {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Unpacked;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a packed graph")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Unpacked, A::Error> {
                let short = || A::Error::custom("a packed graph cut short");
                let nodes: Vec<Node> = seq.next_element()?.ok_or_else(short)?;
                let edges = seq.next_element_seed(EdgesOf(&nodes))?.ok_or_else(short)?;
                let unresolved = seq.next_element_seed(CallsOf(&nodes))?.ok_or_else(short)?;
                let builtin_calls = seq.next_element_seed(CallsOf(&nodes))?.ok_or_else(short)?;
                Ok(Unpacked(Graph {
                    nodes,
                    edges,
                    unresolved,
                    builtin_calls,
                }))
            }
        }
        d.deserialize_tuple(4, V)
    }
}

/// The id an end names; an index past the nodes is damage.
fn id_of<E: serde::de::Error>(nodes: &[Node], e: End) -> Result<String, E> {
    match e {
        End::Node(i) => nodes
            .get(i as usize)
            .map(|n| n.id.clone())
            .ok_or_else(|| E::custom("an edge end past the nodes")),
        End::Text(t) => Ok(t.to_string()),
    }
}

/// The length a list says it has, as a capacity: a damaged one must not reserve gigabytes.
fn capacity(hint: Option<usize>) -> usize {
    hint.unwrap_or(0).min(1 << 16)
}

struct EdgesOf<'n>(&'n [Node]);
struct CallsOf<'n>(&'n [Node]);

impl<'de> Visitor<'de> for EdgesOf<'_> {
    type Value = Vec<Edge>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("edges")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Edge>, A::Error> {
        let mut out = Vec::with_capacity(capacity(seq.size_hint()));
        while let Some((from, to, kind)) = seq.next_element::<(End, End, EdgeKind)>()? {
            out.push(Edge {
                from: id_of(self.0, from)?,
                to: id_of(self.0, to)?,
                kind,
            });
        }
        Ok(out)
    }
}

impl<'de> DeserializeSeed<'de> for EdgesOf<'_> {
    type Value = Vec<Edge>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<Edge>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for CallsOf<'_> {
    type Value = Vec<Unresolved>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("calls")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Unresolved>, A::Error> {
        let mut out = Vec::with_capacity(capacity(seq.size_hint()));
        while let Some(c) = seq.next_element::<Call>()? {
            out.push(Unresolved {
                from: id_of(self.0, c.from)?,
                name: c.name.to_string(),
                line: c.line,
                external: c.external.map(str::to_string),
            });
        }
        Ok(out)
    }
}

impl<'de> DeserializeSeed<'de> for CallsOf<'_> {
    type Value = Vec<Unresolved>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<Unresolved>, D::Error> {
        d.deserialize_seq(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;
    use crate::model::NodeKind;

    fn node(id: &str) -> Node {
        Node {
            id: id.into(),
            kind: NodeKind::Func,
            name: id.into(),
            qualname: id.into(),
            file: "a.js".into(),
            lang: Lang::JavaScript,
            start_line: 1,
            end_line: 2,
        }
    }

    fn call(from: &str, external: Option<&str>) -> Unresolved {
        Unresolved {
            from: from.into(),
            name: "f".into(),
            line: 3,
            external: external.map(str::to_string),
        }
    }

    /// Ends that name nodes and ends that do not come back as they were, and the ids are not
    /// written again for every edge.
    #[test]
    fn a_packed_graph_unpacks_to_itself_and_is_smaller() {
        let long = "src/some/deep/folder/module.ts:SomeClass.someMethod";
        let g = Graph {
            nodes: vec![node("a.js"), node(long)],
            edges: (0..20)
                .map(|_| Edge {
                    from: "a.js".into(),
                    to: long.into(),
                    kind: EdgeKind::Call,
                })
                .chain([Edge {
                    from: long.into(),
                    to: "no/such/node".into(),
                    kind: EdgeKind::Import,
                }])
                .collect(),
            unresolved: vec![call(long, None), call("elsewhere", Some("pkg"))],
            builtin_calls: vec![call("a.js", Some("console"))],
        };
        let bytes = postcard::to_stdvec(&pack(&g)).unwrap();
        assert!(bytes.len() < postcard::to_stdvec(&g).unwrap().len() / 3);
        let back = postcard::from_bytes::<Unpacked>(&bytes).unwrap().0;
        assert_eq!(back, g);
    }

    /// An index past the nodes is damage: no graph, rather than a wrong one or a panic.
    #[test]
    fn an_index_past_the_nodes_is_no_graph() {
        let g = Graph {
            nodes: vec![node("a.js")],
            edges: vec![Edge {
                from: "a.js".into(),
                to: "a.js".into(),
                kind: EdgeKind::Call,
            }],
            ..Graph::default()
        };
        let mut bytes = postcard::to_stdvec(&pack(&g)).unwrap();
        // The last bytes are the edge's kind, its ends (variant 0, index 0 each) and two
        // empty call lists: point the second end past the single node.
        let n = bytes.len();
        assert_eq!(bytes[n - 5..n - 2], [0, 0, 2]);
        bytes[n - 4] = 7;
        assert!(postcard::from_bytes::<Unpacked>(&bytes).is_err());
        bytes[n - 4] = 0;
        assert!(postcard::from_bytes::<Unpacked>(&bytes).is_ok());
    }
}
