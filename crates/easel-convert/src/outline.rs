//! Markdown outlines: headings and nested lists become a tree (each item under the heading or
//! item it is nested in); other text joins the item above it. Written back as nested lists.

use crate::model::{DEdge, DNode, Diagram, EndRef, Warnings};
use easel_layout::Direction;

fn list_item(line: &str) -> Option<(usize, &str)> {
    let indent: usize = line
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum();
    let body = line.trim_start();
    let rest = if let Some(r) = body.strip_prefix(['-', '*', '+']) {
        r
    } else {
        let digits = body.find(|c: char| !c.is_ascii_digit()).unwrap_or(0);
        if digits == 0 {
            return None;
        }
        body[digits..].strip_prefix(['.', ')'])?
    };
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let text = rest.trim();
    let text = ["[ ] ", "[x] ", "[X] "]
        .iter()
        .find_map(|p| text.strip_prefix(p))
        .unwrap_or(text);
    Some((indent, text))
}

fn heading(line: &str) -> Option<(usize, &str)> {
    let hashes = line.chars().take_while(|c| *c == '#').count();
    if !(1..=6).contains(&hashes) {
        return None;
    }
    let rest = &line[hashes..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    Some((hashes, rest.trim().trim_end_matches('#').trim()))
}

/// Reads an outline. Never fails: any text is an outline, perhaps an empty one.
pub fn parse(text: &str) -> (Diagram, Warnings) {
    let mut d = Diagram {
        direction: Some(Direction::Right),
        ..Diagram::default()
    };
    let mut warnings = Warnings::default();
    // (level, node): headings rank 1-6, list items 10 + indentation.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let mut in_fence = false;
    let mut body = text;
    // Front matter is metadata, not part of the outline.
    if let Some(rest) = body.strip_prefix("---\n")
        && let Some(end) = rest.find("\n---")
    {
        body = rest[end + 4..].trim_start_matches(['-', '\n']);
    }
    for line in body.lines() {
        if line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~") {
            in_fence = !in_fence;
            warnings.add("code blocks joined the text of the item above them");
        }
        let found = if in_fence {
            None
        } else {
            heading(line).or_else(|| list_item(line).map(|(i, t)| (10 + i, t)))
        };
        let Some((level, text)) = found else {
            let t = line.trim();
            if t.is_empty() || t.starts_with("```") || t.starts_with("~~~") {
                continue;
            }
            match stack.last() {
                Some(&(_, n)) => {
                    let label = &mut d.nodes[n].label;
                    label.push('\n');
                    label.push_str(t);
                }
                None => warnings.add("text before the first heading or list item was left out"),
            }
            continue;
        };
        while stack.last().is_some_and(|&(l, _)| l >= level) {
            stack.pop();
        }
        let i = d.nodes.len();
        d.nodes.push(DNode {
            key: format!("{i}"),
            label: text.to_owned(),
            color: None,
            group: None,
        });
        if let Some(&(_, parent)) = stack.last() {
            d.edges.push(DEdge {
                from: EndRef::Node(parent),
                to: EndRef::Node(i),
                label: None,
                color: None,
                arrow: true,
                back_arrow: false,
            });
        }
        stack.push((level, i));
    }
    (d, warnings)
}

/// Writes the tree a diagram holds as nested lists: roots are the nodes nothing points at,
/// children follow edge order. What a tree cannot hold is warned about.
pub fn write(d: &Diagram, warnings: &mut Warnings) -> String {
    let n = d.nodes.len();
    let mut children = vec![Vec::new(); n];
    let mut has_parent = vec![false; n];
    for e in &d.edges {
        match (e.from, e.to) {
            (EndRef::Node(a), EndRef::Node(b)) if a != b && !has_parent[b] => {
                has_parent[b] = true;
                children[a].push(b);
            }
            (EndRef::Node(_), EndRef::Node(_)) => warnings.add("edges beyond a tree (a second parent, a loop) have no place in an outline and were left out"),
            _ => warnings.add("edges to or from groups have no place in an outline and were left out"),
        }
        if e.label.is_some() {
            warnings.add("edge labels have no place in an outline and were left out");
        }
    }
    if !d.groups.is_empty() {
        warnings.add("groups have no place in an outline and were left out");
    }
    if d.nodes.iter().any(|n| n.color.is_some()) {
        warnings.add("colours have no place in an outline and were left out");
    }
    let mut out = String::new();
    let mut seen = vec![false; n];
    let roots: Vec<usize> = (0..n).filter(|&i| !has_parent[i]).chain(0..n).collect();
    for r in roots {
        if seen[r] {
            continue;
        }
        let mut stack = vec![(r, 0usize)];
        while let Some((u, depth)) = stack.pop() {
            if seen[u] {
                continue;
            }
            seen[u] = true;
            let label = &d.nodes[u].label;
            if label.contains('\n') {
                warnings.add("text on several lines was joined into one line");
            }
            let one_line = label.lines().map(str::trim).collect::<Vec<_>>().join(" ");
            out.push_str(&format!("{}- {one_line}\n", "  ".repeat(depth)));
            for &c in children[u].iter().rev() {
                stack.push((c, depth + 1));
            }
        }
    }
    out
}
