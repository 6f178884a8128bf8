//! Finding nodes by type, colour, group or text.

use crate::model::{Canvas, Node, NodeKind};
use std::collections::HashSet;

/// Criteria for [`Canvas::find_nodes`]; every one that is set must match.
#[derive(Clone, Debug, Default)]
pub struct NodeQuery<'a> {
    /// Node type: `text`, `file`, `link`, `group` or any other type name.
    pub kind: Option<&'a str>,
    /// Colour as written (`"3"`, `"#ff8800"`); hex colours compare case-insensitively.
    pub color: Option<&'a str>,
    /// A group's id or label (case-insensitive): nodes inside its rectangle.
    pub group: Option<&'a str>,
    /// Case-insensitive substring of the text, file path, URL or label.
    pub text: Option<&'a str>,
}

impl Canvas {
    /// Nodes matching every criterion of `q`, in file order.
    pub fn find_nodes(&self, q: &NodeQuery<'_>) -> Vec<&Node> {
        let in_group: Option<HashSet<&str>> = q.group.map(|g| {
            let wanted = g.to_lowercase();
            self.nodes()
                .iter()
                .filter(|n| n.kind() == NodeKind::Group)
                .filter(|n| n.id() == g || n.label().is_some_and(|l| l.to_lowercase() == wanted))
                .flat_map(|grp| self.nodes_in_group(grp.id()))
                .map(Node::id)
                .collect()
        });
        let needle = q.text.map(str::to_lowercase);
        self.nodes()
            .iter()
            .filter(|n| q.kind.is_none_or(|k| n.kind().as_str() == k))
            .filter(|n| {
                q.color
                    .is_none_or(|c| n.color().is_some_and(|nc| nc.eq_ignore_ascii_case(c)))
            })
            .filter(|n| in_group.as_ref().is_none_or(|set| set.contains(n.id())))
            .filter(|n| {
                needle.as_ref().is_none_or(|t| {
                    n.searchable_text()
                        .is_some_and(|s| s.to_lowercase().contains(t.as_str()))
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids<'a>(nodes: &[&'a Node]) -> Vec<&'a str> {
        nodes.iter().map(|n| n.id()).collect()
    }

    #[test]
    fn finds_by_each_criterion() {
        let c = Canvas::parse(include_str!("../tests/data/obsidian-layout.canvas")).unwrap();
        let by_kind = c.find_nodes(&NodeQuery {
            kind: Some("file"),
            ..Default::default()
        });
        assert_eq!(ids(&by_kind), ["2b3c4d5e6f708192"]);
        let by_color = c.find_nodes(&NodeQuery {
            color: Some("3"),
            ..Default::default()
        });
        assert_eq!(ids(&by_color), ["5e6f708192a3b4c5"]);
        let by_text = c.find_nodes(&NodeQuery {
            text: Some("THREE"),
            ..Default::default()
        });
        assert_eq!(ids(&by_text), ["4d5e6f708192a3b4"]);
        let by_group = c.find_nodes(&NodeQuery {
            group: Some("research"),
            kind: Some("text"),
            ..Default::default()
        });
        assert_eq!(by_group.len(), 3);
        let none = c.find_nodes(&NodeQuery {
            group: Some("no such group"),
            ..Default::default()
        });
        assert!(none.is_empty());
    }
}
