//! Mermaid flowcharts: `flowchart`/`graph` with any direction, node shapes, `-->`, `---`,
//! `-.->`, `==>` (and their labels), `subgraph … end`, `classDef`/`class`/`:::`/`style` fill
//! colours, `%%` comments. What a canvas cannot show (shapes, dotted or thick lines, clicks)
//! becomes a warning.

use crate::color;
use crate::error::{ConvertError, line_col};
use crate::model::{DEdge, DGroup, DNode, Diagram, EndRef, Warnings};
use easel_layout::Direction;
use std::collections::HashMap;

const FORMAT: &str = "Mermaid";

/// Words that start a statement rather than name a node.
const KEYWORDS: &[&str] = &[
    "subgraph",
    "end",
    "direction",
    "classDef",
    "class",
    "style",
    "linkStyle",
    "click",
    "accTitle",
    "accDescr",
    "callback",
];

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    nodes: Vec<DNode>,
    node_at: HashMap<String, usize>,
    groups: Vec<DGroup>,
    open: Vec<usize>,
    /// Edges by the names of their ends, resolved once every subgraph is known.
    edges: Vec<(String, String, DEdge)>,
    classes: HashMap<String, String>,
    node_class: Vec<(String, String)>,
    styles: Vec<(String, String)>,
    /// `linkStyle` colours by edge number (`None`: every edge).
    link_colors: Vec<(Option<usize>, String)>,
    /// Nodes given a label or shape: these stay nodes even when a subgraph has their name.
    defined: std::collections::HashSet<String>,
    warnings: Warnings,
}

struct Link {
    arrow: bool,
    back: bool,
    label: Option<String>,
    invisible: bool,
}

fn is_id_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Mermaid's label markup to plain text: quotes, `<br>`, entity codes.
fn label_text(raw: &str) -> String {
    let t = raw.trim();
    let t = t
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(t);
    let t = t
        .strip_prefix('`')
        .and_then(|s| s.strip_suffix('`'))
        .unwrap_or(t);
    let mut out = String::with_capacity(t.len());
    let mut rest = t;
    while let Some(i) = rest.find(['<', '#']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let lower = tail
            .get(..6)
            .map(str::to_ascii_lowercase)
            .unwrap_or_default();
        if lower.starts_with("<br")
            && let Some(end) = tail.find('>')
        {
            out.push('\n');
            rest = &tail[end + 1..];
            continue;
        }
        if let Some(code) = tail.strip_prefix('#')
            && let Some(end) = code.find(';')
        {
            let name = &code[..end];
            let ch = match name {
                "quot" => Some('"'),
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "semi" => Some(';'),
                "35" => Some('#'),
                _ => name.parse::<u32>().ok().and_then(char::from_u32),
            };
            if let Some(ch) = ch {
                out.push(ch);
                rest = &code[end + 1..];
                continue;
            }
        }
        let c = tail.chars().next().unwrap_or('#');
        out.push(c);
        rest = &tail[c.len_utf8()..];
    }
    out.push_str(rest);
    out
}

/// Text as a Mermaid label, quoted so that any character is safe.
fn quote(text: &str) -> String {
    let mut s = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => s.push_str("#quot;"),
            '#' => s.push_str("#35;"),
            '\n' => s.push_str("<br>"),
            '<' => s.push_str("#lt;"),
            '>' => s.push_str("#gt;"),
            '|' => s.push_str("#124;"),
            ';' => s.push_str("#59;"),
            '\r' => {}
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

impl<'a> Parser<'a> {
    fn rest(&self) -> &'a str {
        self.text.get(self.pos..).unwrap_or("")
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn error(
        &self,
        at: usize,
        message: impl Into<String>,
        hint: impl Into<String>,
    ) -> ConvertError {
        let (line, column) = line_col(self.text, at);
        ConvertError::Syntax {
            format: FORMAT,
            line,
            column,
            message: message.into(),
            hint: hint.into(),
        }
    }

    /// Skips spaces and tabs (not newlines).
    fn blanks(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\r')) {
            self.bump();
        }
    }

    fn at_statement_end(&self) -> bool {
        matches!(self.peek(), None | Some('\n' | ';'))
    }

    fn rest_of_statement(&mut self) -> &'a str {
        let rest = self.rest();
        // A ';' inside a quoted label does not end the statement.
        let mut quoted = false;
        let end = rest
            .char_indices()
            .find(|&(_, c)| {
                if c == '"' {
                    quoted = !quoted;
                }
                c == '\n' || (c == ';' && !quoted)
            })
            .map_or(rest.len(), |(i, _)| i);
        self.pos += end;
        &rest[..end]
    }

    fn skip_line(&mut self) {
        let rest = self.rest();
        self.pos += rest.find('\n').unwrap_or(rest.len());
    }

    fn word(&mut self) -> &'a str {
        let rest = self.rest();
        let end = rest.find(|c: char| !is_id_char(c)).unwrap_or(rest.len());
        self.pos += end;
        &rest[..end]
    }

    fn node(&mut self, key: &str) -> usize {
        if let Some(&i) = self.node_at.get(key) {
            if self.nodes[i].group.is_none() {
                self.nodes[i].group = self.open.last().copied();
            }
            return i;
        }
        let i = self.nodes.len();
        self.nodes.push(DNode {
            key: key.to_owned(),
            label: key.to_owned(),
            color: None,
            group: self.open.last().copied(),
        });
        self.node_at.insert(key.to_owned(), i);
        i
    }

    fn header(&mut self) -> Result<Option<Direction>, ConvertError> {
        loop {
            self.blanks();
            match self.peek() {
                None => return Err(ConvertError::Empty { format: FORMAT }),
                Some('\n') => {
                    self.bump();
                }
                _ if self.rest().starts_with("%%") => self.skip_line(),
                _ if self.rest().starts_with("---") => {
                    // Front matter (title, config) up to the closing line.
                    self.skip_line();
                    loop {
                        self.bump();
                        if self.peek().is_none() {
                            return Err(ConvertError::Empty { format: FORMAT });
                        }
                        if self
                            .rest()
                            .trim_start_matches([' ', '\t'])
                            .starts_with("---")
                        {
                            self.skip_line();
                            break;
                        }
                        self.skip_line();
                    }
                }
                _ => break,
            }
        }
        let at = self.pos;
        let kind = self.word();
        if kind != "flowchart" && kind != "graph" && kind != "flowchart-elk" {
            let found = if kind.is_empty() {
                self.rest()
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_owned()
            } else {
                kind.to_owned()
            };
            if found.is_empty() {
                return Err(self.error(
                    at,
                    "expected 'flowchart' or 'graph'",
                    "start the text with 'flowchart TD'",
                ));
            }
            return Err(ConvertError::NotFlowchart { found });
        }
        self.blanks();
        let at = self.pos;
        let dir = self.word();
        let direction = match dir {
            "" => None,
            "TD" | "TB" => Some(Direction::Down),
            "LR" => Some(Direction::Right),
            "BT" => {
                self.warnings
                    .add("direction BT (bottom to top) is drawn top to bottom");
                Some(Direction::Down)
            }
            "RL" => {
                self.warnings
                    .add("direction RL (right to left) is drawn left to right");
                Some(Direction::Right)
            }
            other => {
                return Err(self.error(
                    at,
                    format!("'{other}' is not a direction"),
                    "use TD, TB, BT, LR or RL after 'flowchart'",
                ));
            }
        };
        Ok(direction)
    }

    fn statements(&mut self) -> Result<(), ConvertError> {
        loop {
            self.blanks();
            match self.peek() {
                None => break,
                Some('\n' | ';') => {
                    self.bump();
                    continue;
                }
                _ => {}
            }
            if self.rest().starts_with("%%") {
                self.skip_line();
                continue;
            }
            let start = self.pos;
            let w = self.word();
            let keyword = KEYWORDS.contains(&w)
                && matches!(self.peek(), None | Some(' ' | '\t' | '\r' | '\n' | ';'));
            if !keyword {
                self.pos = start;
                self.chain()?;
                continue;
            }
            match w {
                "subgraph" => self.subgraph(),
                "end" => {
                    if self.open.pop().is_none() {
                        return Err(self.error(
                            start,
                            "'end' without a 'subgraph' to close",
                            "remove this 'end', or open a group with 'subgraph NAME' before it",
                        ));
                    }
                }
                "direction" => {
                    self.rest_of_statement();
                    self.warnings
                        .add("a direction inside a subgraph is ignored: the whole canvas has one");
                }
                "classDef" => {
                    let s = self.rest_of_statement().trim();
                    let (names, style) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
                    if let Some(c) = fill(style, &mut self.warnings) {
                        for n in names.split(',') {
                            self.classes.insert(n.trim().to_owned(), c.clone());
                        }
                    }
                }
                "class" => {
                    let s = self.rest_of_statement().trim();
                    if let Some((ids, class)) = s.rsplit_once(char::is_whitespace) {
                        for id in ids.split(',') {
                            self.node_class
                                .push((id.trim().to_owned(), class.trim().to_owned()));
                        }
                    }
                }
                "style" => {
                    let s = self.rest_of_statement().trim();
                    let (id, style) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
                    self.styles.push((id.to_owned(), style.to_owned()));
                }
                "linkStyle" => {
                    let s = self.rest_of_statement().trim();
                    let (which, style) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
                    let stroke = style.split(',').find_map(|p| {
                        let (k, v) = p.split_once(':')?;
                        (k.trim() == "stroke")
                            .then(|| color::to_canvas(v))
                            .flatten()
                    });
                    match stroke {
                        Some(c) if which == "default" => self.link_colors.push((None, c)),
                        Some(c) => {
                            for n in which.split(',').filter_map(|n| n.trim().parse().ok()) {
                                self.link_colors.push((Some(n), c.clone()));
                            }
                        }
                        None => self.warnings.add("link styles other than a stroke colour have no place in a canvas and were ignored"),
                    }
                }
                other => {
                    self.rest_of_statement();
                    self.warnings.add(format!(
                        "'{other}' has no place in a canvas and was ignored"
                    ));
                }
            }
        }
        if let Some(&g) = self.open.last() {
            let key = self.groups[g].key.clone();
            return Err(self.error(
                self.text.len(),
                format!("subgraph '{key}' is never closed"),
                "add 'end' after the subgraph's last line",
            ));
        }
        Ok(())
    }

    fn subgraph(&mut self) {
        let s = self.rest_of_statement().trim();
        let (key, label) = if let Some(q) = s.strip_prefix('"') {
            let l = label_text(&format!("\"{q}"));
            (l.clone(), l)
        } else {
            let end = s
                .find(|c: char| !is_id_char(c) && c != '-')
                .unwrap_or(s.len());
            let (key, after) = s.split_at(end);
            let after = after.trim();
            if key.is_empty() {
                (s.to_owned(), s.to_owned())
            } else if let Some(inner) = after.strip_prefix('[').and_then(|a| a.strip_suffix(']')) {
                (key.to_owned(), label_text(inner))
            } else if after.is_empty() {
                (key.to_owned(), key.to_owned())
            } else {
                (s.to_owned(), s.to_owned())
            }
        };
        let i = self.groups.len();
        self.groups.push(DGroup {
            key,
            label,
            color: None,
            parent: self.open.last().copied(),
        });
        self.open.push(i);
    }

    /// `A & B --> C -.-> D`: node groups joined by links.
    fn chain(&mut self) -> Result<(), ConvertError> {
        let mut left = self.node_group()?;
        loop {
            self.blanks();
            if self.at_statement_end() || self.rest().starts_with("%%") {
                return Ok(());
            }
            let at = self.pos;
            let Some(link) = self.link()? else {
                let found = describe(self.peek());
                return Err(self.error(
                    at,
                    format!("expected an arrow like '-->' or the end of the statement, found {found}"),
                    "write edges as 'A --> B', 'A -- text --> B' or 'A -->|text| B'; put each statement on its own line",
                ));
            };
            self.blanks();
            let right = self.node_group()?;
            if !link.invisible {
                for a in &left {
                    for b in &right {
                        self.edges.push((
                            a.clone(),
                            b.clone(),
                            DEdge {
                                from: EndRef::Node(0),
                                to: EndRef::Node(0),
                                label: link.label.clone(),
                                color: None,
                                arrow: link.arrow,
                                back_arrow: link.back,
                            },
                        ));
                    }
                }
            }
            left = right;
        }
    }

    fn node_group(&mut self) -> Result<Vec<String>, ConvertError> {
        let mut keys = vec![self.node_ref()?];
        loop {
            let save = self.pos;
            self.blanks();
            if self.peek() == Some('&') {
                self.bump();
                self.blanks();
                keys.push(self.node_ref()?);
            } else {
                self.pos = save;
                return Ok(keys);
            }
        }
    }

    fn node_ref(&mut self) -> Result<String, ConvertError> {
        let at = self.pos;
        let mut key = String::new();
        while let Some(c) = self.peek() {
            // A dash belongs to the name unless an arrow starts with it.
            let arrow_next = c == '-'
                && matches!(
                    self.rest()[1..].chars().next(),
                    Some('-' | '.' | '>' | '=' | 'x' | 'o') | None
                );
            if is_id_char(c) || (c == '-' && !key.is_empty() && !arrow_next) {
                key.push(c);
                self.bump();
            } else {
                break;
            }
        }
        if key.is_empty() {
            let found = describe(self.peek());
            return Err(self.error(
                at,
                format!("expected a node name, found {found}"),
                "name nodes with letters, digits and '_', e.g. 'A[Start] --> B'",
            ));
        }
        let i = self.node(&key);
        self.class_suffix(&key);
        if let Some((label, shape)) = self.shape()? {
            self.nodes[i].label = label_text(&label);
            self.defined.insert(key.clone());
            if shape != "rectangle" {
                self.warnings.add(format!(
                    "node shapes other than rectangles ({shape}, …) are drawn as rectangles"
                ));
            }
        }
        self.class_suffix(&key);
        Ok(key)
    }

    fn class_suffix(&mut self, key: &str) {
        if self.rest().starts_with(":::") {
            self.pos += 3;
            let class = self.word().to_owned();
            self.node_class.push((key.to_owned(), class));
        }
    }

    /// A shape and its label: `[text]`, `(text)`, `{text}`, `((text))`, `>text]` and the rest.
    fn shape(&mut self) -> Result<Option<(String, &'static str)>, ConvertError> {
        const SHAPES: &[(&str, &[&str], &str)] = &[
            ("(((", &[")))"], "double circle"),
            ("((", &["))"], "circle"),
            ("([", &["])"], "stadium"),
            ("[[", &["]]"], "subroutine"),
            ("[(", &[")]"], "cylinder"),
            ("[/", &["/]", "\\]"], "parallelogram"),
            ("[\\", &["\\]", "/]"], "trapezoid"),
            ("{{", &["}}"], "hexagon"),
            ("(", &[")"], "rounded rectangle"),
            ("[", &["]"], "rectangle"),
            ("{", &["}"], "diamond"),
            (">", &["]"], "flag"),
        ];
        let rest = self.rest();
        let Some(&(open, closes, name)) = SHAPES.iter().find(|(o, _, _)| rest.starts_with(o))
        else {
            return Ok(None);
        };
        let at = self.pos;
        let body_start = self.pos + open.len();
        let body = self.text.get(body_start..).unwrap_or("");
        // A quoted label may hold the closing characters.
        let scan_from = if body.trim_start().starts_with('"') {
            let q = body.find('"').unwrap_or(0);
            match body[q + 1..].find('"') {
                Some(end) => q + 1 + end + 1,
                None => {
                    return Err(self.error(
                        at,
                        "this label's quote is never closed",
                        "close the quote with '\"'",
                    ));
                }
            }
        } else {
            0
        };
        let line_end = body.find('\n').unwrap_or(body.len());
        let found = closes
            .iter()
            .filter_map(|c| {
                body.get(scan_from..)
                    .and_then(|b| b.find(c))
                    .map(|i| (scan_from + i, c.len()))
            })
            .min();
        match found {
            Some((i, len)) if i <= line_end.max(scan_from) => {
                let label = body[..i].to_owned();
                self.pos = body_start + i + len;
                Ok(Some((label, name)))
            }
            _ => Err(self.error(
                at,
                format!("this {name} label is not closed: expected '{}'", closes[0]),
                format!("end the label with '{}' on the same line", closes[0]),
            )),
        }
    }

    fn link(&mut self) -> Result<Option<Link>, ConvertError> {
        let start = self.pos;
        let rest = self.rest();
        let back = rest.starts_with('<');
        let body = if back { &rest[1..] } else { rest };
        let count = |s: &str, c: char| s.chars().take_while(|&x| x == c).count();
        let mut link = Link {
            arrow: false,
            back,
            label: None,
            invisible: false,
        };
        let mut styled = None;
        let consumed;
        if body.starts_with("~~~") {
            link.invisible = true;
            consumed = count(body, '~');
            self.warnings
                .add("invisible links ('~~~') only steer Mermaid's layout and were left out");
        } else if let Some(after) = body.strip_prefix("-.") {
            styled = Some("dotted");
            if after.starts_with([' ', '\t']) {
                // -. text .->
                let Some(end) = after.find(".-") else {
                    return Err(self.error(
                        start,
                        "this dotted link's text is never closed",
                        "write 'A -. text .-> B'",
                    ));
                };
                link.label = Some(label_text(&after[..end]));
                let tail = &after[end + 1..];
                let dashes = count(tail, '-');
                let head = tail[dashes..].starts_with('>');
                link.arrow = head;
                consumed = 2 + end + 1 + dashes + usize::from(head);
            } else {
                let dots = count(&body[1..], '.');
                let dashes = count(&body[1 + dots..], '-');
                if dashes == 0 {
                    return Err(self.error(
                        start,
                        "a dotted link needs a '-' after its dots",
                        "write 'A -.-> B' or 'A -.- B'",
                    ));
                }
                let at = 1 + dots + dashes;
                let head = body[at..].starts_with(['>', 'x', 'o']);
                link.arrow = head;
                consumed = at + usize::from(head);
            }
        } else if body.starts_with("--") || body.starts_with("==") {
            let c = if body.starts_with('-') { '-' } else { '=' };
            if c == '=' {
                styled = Some("thick");
            }
            let n = count(body, c);
            let after = &body[n..];
            if n == 2 && after.starts_with([' ', '\t']) && !after.trim_start().is_empty() {
                // -- text --> / == text ==>
                let close: String = [c, c].iter().collect();
                let Some(end) = after.find(close.as_str()) else {
                    return Err(self.error(
                        start,
                        "this link's text is never closed",
                        format!("write 'A {c}{c} text {c}{c}> B'"),
                    ));
                };
                let text = &after[..end];
                let tail = &after[end..];
                let m = count(tail, c);
                let head = tail[m..].starts_with(['>', 'x', 'o']);
                link.label = Some(label_text(text));
                link.arrow = head;
                consumed = n + end + m + usize::from(head);
            } else {
                let head = after.starts_with('>')
                    || (after.starts_with(['x', 'o'])
                        && !after[1..].starts_with(|ch: char| is_id_char(ch)));
                if !head && n < 3 {
                    return Err(self.error(
                        start,
                        format!("'{c}{c}' is not a complete link"),
                        "write 'A --> B' for an arrow or 'A --- B' for a line",
                    ));
                }
                if after.starts_with(['x', 'o']) {
                    self.warnings
                        .add("circle and cross arrow heads are drawn as arrows");
                }
                link.arrow = head;
                consumed = n + usize::from(head);
            }
        } else {
            self.pos = start;
            return Ok(None);
        }
        if let Some(s) = styled {
            self.warnings
                .add(format!("{s} lines are drawn as plain lines"));
        }
        self.pos = start + usize::from(back) + consumed;
        self.blanks();
        if self.peek() == Some('|') {
            let at = self.pos;
            self.bump();
            let rest = self.rest();
            let Some(end) = rest.find('|').filter(|&e| !rest[..e].contains('\n')) else {
                return Err(self.error(
                    at,
                    "this edge label is not closed: expected '|'",
                    "write the label as '-->|text|'",
                ));
            };
            link.label = Some(label_text(&rest[..end]));
            self.pos += end + 1;
        }
        Ok(Some(link))
    }

    fn finish(mut self, direction: Option<Direction>) -> (Diagram, Warnings) {
        // A name that is a subgraph's is the group, unless the text drew it as a node.
        let group_at: HashMap<String, usize> = self
            .groups
            .iter()
            .enumerate()
            .map(|(i, g)| (g.key.clone(), i))
            .collect();
        let as_group = |k: &str, defined: &std::collections::HashSet<String>| {
            group_at.get(k).copied().filter(|_| !defined.contains(k))
        };
        let keep: Vec<bool> = self
            .nodes
            .iter()
            .map(|n| as_group(&n.key, &self.defined).is_none())
            .collect();
        let mut new_index = vec![usize::MAX; self.nodes.len()];
        let mut nodes = Vec::new();
        for (i, n) in self.nodes.iter().enumerate() {
            if keep[i] {
                new_index[i] = nodes.len();
                nodes.push(n.clone());
            }
        }
        let mut edges = Vec::new();
        let mut all = std::mem::take(&mut self.edges);
        for (which, c) in &self.link_colors {
            for (k, (_, _, e)) in all.iter_mut().enumerate() {
                if which.is_none_or(|w| w == k) {
                    e.color = Some(c.clone());
                }
            }
        }
        for (a, b, mut e) in all {
            let end = |k: &str| match as_group(k, &self.defined) {
                Some(g) => Some(EndRef::Group(g)),
                None => self.node_at.get(k).map(|&i| EndRef::Node(new_index[i])),
            };
            if let (Some(f), Some(t)) = (end(&a), end(&b)) {
                e.from = f;
                e.to = t;
                edges.push(e);
            }
        }
        let mut d = Diagram {
            direction,
            nodes,
            groups: self.groups,
            edges,
            ranks: Vec::new(),
        };
        let color_of = |key: &str, c: String, d: &mut Diagram| {
            if let Some(n) = d.nodes.iter_mut().find(|n| n.key == key) {
                n.color = Some(c);
            } else if let Some(g) = d.groups.iter_mut().find(|g| g.key == key) {
                g.color = Some(c);
            }
        };
        for (key, class) in &self.node_class {
            match self.classes.get(class) {
                Some(c) => color_of(key, c.clone(), &mut d),
                None if class == "default" => {}
                None => self.warnings.add(format!(
                    "class '{class}' has no fill colour and was ignored"
                )),
            }
        }
        if let Some(c) = self.classes.get("default") {
            for n in d.nodes.iter_mut().filter(|n| n.color.is_none()) {
                n.color = Some(c.clone());
            }
        }
        for (key, style) in std::mem::take(&mut self.styles) {
            if let Some(c) = fill(&style, &mut self.warnings) {
                color_of(&key, c, &mut d);
            }
        }
        (d, self.warnings)
    }
}

/// The `fill` of a Mermaid style as a canvas colour; other properties are warned about.
fn fill(style: &str, warnings: &mut Warnings) -> Option<String> {
    let mut out = None;
    for part in style.split(',') {
        let (k, v) = part.split_once(':').unwrap_or((part, ""));
        match k.trim() {
            "fill" => match color::to_canvas(v) {
                Some(c) => out = Some(c),
                None => warnings.add(format!(
                    "the colour '{}' is not one Easel knows; it was ignored",
                    v.trim()
                )),
            },
            "" => {}
            other => warnings.add(format!(
                "the style '{other}' has no place in a canvas and was ignored"
            )),
        }
    }
    out
}

/// Reads a Mermaid flowchart.
pub fn parse(text: &str) -> Result<(Diagram, Warnings), ConvertError> {
    let mut p = Parser {
        text,
        pos: 0,
        nodes: Vec::new(),
        node_at: HashMap::new(),
        groups: Vec::new(),
        open: Vec::new(),
        edges: Vec::new(),
        classes: HashMap::new(),
        node_class: Vec::new(),
        styles: Vec::new(),
        link_colors: Vec::new(),
        defined: Default::default(),
        warnings: Warnings::default(),
    };
    let direction = p.header()?;
    p.statements()?;
    Ok(p.finish(direction))
}

/// Writes a diagram as a Mermaid flowchart.
pub fn write(d: &Diagram) -> String {
    let dir = match d.direction {
        Some(Direction::Right) => "LR",
        _ => "TD",
    };
    let mut out = format!("flowchart {dir}\n");
    let node_name = |i: usize| format!("n{i}");
    let group_name = |i: usize| format!("g{i}");
    fn emit_group(d: &Diagram, g: Option<usize>, depth: usize, out: &mut String) {
        let pad = "    ".repeat(depth);
        for (i, n) in d.nodes.iter().enumerate().filter(|(_, n)| n.group == g) {
            out.push_str(&format!("{pad}n{i}[{}]\n", quote(&n.label)));
        }
        for (i, sub) in d.groups.iter().enumerate().filter(|(_, s)| s.parent == g) {
            out.push_str(&format!("{pad}subgraph g{i} [{}]\n", quote(&sub.label)));
            emit_group(d, Some(i), depth + 1, out);
            out.push_str(&format!("{pad}end\n"));
        }
    }
    emit_group(d, None, 1, &mut out);
    let end = |e: EndRef| match e {
        EndRef::Node(i) => node_name(i),
        EndRef::Group(i) => group_name(i),
    };
    for e in &d.edges {
        let line = match (e.back_arrow, e.arrow) {
            (true, true) => "<-->",
            (false, true) => "-->",
            _ => "---",
        };
        let label = e
            .label
            .as_deref()
            .map(|l| format!("|{}|", quote(l)))
            .unwrap_or_default();
        out.push_str(&format!(
            "    {} {line}{label} {}\n",
            end(e.from),
            end(e.to)
        ));
    }
    for (i, n) in d.nodes.iter().enumerate() {
        if let Some(hex) = n.color.as_deref().and_then(color::to_hex) {
            out.push_str(&format!("    style {} fill:{hex}\n", node_name(i)));
        }
    }
    for (i, g) in d.groups.iter().enumerate() {
        if let Some(hex) = g.color.as_deref().and_then(color::to_hex) {
            out.push_str(&format!("    style {} fill:{hex}\n", group_name(i)));
        }
    }
    let colored = d
        .edges
        .iter()
        .enumerate()
        .filter_map(|(i, e)| Some((i, color::to_hex(e.color.as_deref()?)?)));
    for (i, hex) in colored {
        out.push_str(&format!("    linkStyle {i} stroke:{hex}\n"));
    }
    out
}

/// A character as an error message names it: quoted, or in words when quoting would show
/// nothing (a line break, a tab, the end of the text).
fn describe(c: Option<char>) -> String {
    match c {
        None | Some('\n' | '\r') => "the end of the line".into(),
        Some(c) if c.is_whitespace() => "a space".into(),
        Some(c) if c.is_control() => format!("the control character U+{:04X}", u32::from(c)),
        Some(c) => format!("'{c}'"),
    }
}
