//! Graphviz DOT: `digraph`/`graph` (and `strict`), nodes, edge chains, subgraphs (`cluster*`
//! ones become groups), attribute statements with defaults per scope, `label`, `color`,
//! `fillcolor`, `shape`, `rankdir`, a subgraph's `rank` (`same`, `min`, `max`, `source`,
//! `sink`: kept as a constraint the layered layout honours when the import lays the canvas
//! out), HTML-like labels as text. Other attributes are listed as warnings.

use crate::color;
use crate::error::{ConvertError, line_col};
use crate::model::{DEdge, DGroup, DNode, Diagram, EndRef, Warnings};
use easel_layout::{Direction, RankKind, RankSet};
use std::collections::HashMap;

const FORMAT: &str = "DOT";

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// A name, number, quoted string or HTML string, and whether it was quoted or HTML.
    Id(String, Quoting),
    Punct(char),
    /// `->` or `--`.
    Edge,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Quoting {
    Bare,
    Quoted,
    Html,
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
}

fn syntax(
    text: &str,
    at: usize,
    message: impl Into<String>,
    hint: impl Into<String>,
) -> ConvertError {
    let (line, column) = line_col(text, at);
    ConvertError::Syntax {
        format: FORMAT,
        line,
        column,
        message: message.into(),
        hint: hint.into(),
    }
}

impl<'a> Lexer<'a> {
    fn rest(&self) -> &'a str {
        self.text.get(self.pos..).unwrap_or("")
    }

    fn skip(&mut self) -> Result<(), ConvertError> {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.pos += rest.len() - trimmed.len();
            let at_line_start = self.text[..self.pos]
                .trim_end_matches([' ', '\t'])
                .ends_with('\n')
                || self.text[..self.pos].trim().is_empty();
            if trimmed.starts_with("//") || (trimmed.starts_with('#') && at_line_start) {
                self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
            } else if let Some(body) = trimmed.strip_prefix("/*") {
                match body.find("*/") {
                    Some(end) => self.pos += 2 + end + 2,
                    None => {
                        return Err(syntax(
                            self.text,
                            self.pos,
                            "this comment is never closed",
                            "end the comment with '*/'",
                        ));
                    }
                }
            } else {
                return Ok(());
            }
        }
    }

    fn next(&mut self) -> Result<Option<(Tok, usize)>, ConvertError> {
        self.skip()?;
        let at = self.pos;
        let rest = self.rest();
        let Some(c) = rest.chars().next() else {
            return Ok(None);
        };
        if rest.starts_with("->") || rest.starts_with("--") {
            self.pos += 2;
            return Ok(Some((Tok::Edge, at)));
        }
        if "{}[];,=:".contains(c) {
            self.pos += 1;
            return Ok(Some((Tok::Punct(c), at)));
        }
        if c == '"' {
            let mut out = String::new();
            let mut chars = rest[1..].char_indices();
            while let Some((i, ch)) = chars.next() {
                match ch {
                    '"' => {
                        self.pos += 1 + i + 1;
                        return Ok(Some((Tok::Id(out, Quoting::Quoted), at)));
                    }
                    '\\' => match chars.next() {
                        Some((_, '"')) => out.push('"'),
                        // A backslash-newline continues the string on the next line.
                        Some((_, '\n')) => {}
                        Some((_, other)) => {
                            out.push('\\');
                            out.push(other);
                        }
                        None => out.push('\\'),
                    },
                    ch => out.push(ch),
                }
            }
            return Err(syntax(
                self.text,
                at,
                "this string is never closed",
                "end the string with '\"'",
            ));
        }
        if c == '<' {
            let mut depth = 0usize;
            for (i, ch) in rest.char_indices() {
                match ch {
                    '<' => depth += 1,
                    '>' => {
                        depth -= 1;
                        if depth == 0 {
                            self.pos += i + 1;
                            return Ok(Some((Tok::Id(rest[1..i].to_owned(), Quoting::Html), at)));
                        }
                    }
                    _ => {}
                }
            }
            return Err(syntax(
                self.text,
                at,
                "this HTML label is never closed",
                "balance every '<' with a '>'",
            ));
        }
        let numeric = c.is_ascii_digit()
            || c == '.'
            || (c == '-' && rest[1..].starts_with(|d: char| d.is_ascii_digit() || d == '.'));
        let len = if numeric {
            1 + rest[1..]
                .find(|d: char| !(d.is_ascii_digit() || d == '.'))
                .unwrap_or(rest.len() - 1)
        } else if c.is_alphanumeric() || c == '_' || !c.is_ascii() {
            rest.find(|d: char| !(d.is_alphanumeric() || d == '_' || !d.is_ascii()))
                .unwrap_or(rest.len())
        } else {
            return Err(syntax(
                self.text,
                at,
                format!("'{c}' cannot start a name here"),
                "quote names that hold other characters, e.g. \"my node\"",
            ));
        };
        self.pos += len;
        Ok(Some((Tok::Id(rest[..len].to_owned(), Quoting::Bare), at)))
    }
}

/// Attributes as written: name, value, and whether the value was HTML.
type Attrs = Vec<(String, String, Quoting)>;

#[derive(Clone, Default)]
struct Scope {
    node: HashMap<String, (String, Quoting)>,
    edge: HashMap<String, (String, Quoting)>,
    group: Option<usize>,
    /// Inside a subgraph (where `rank` means something), and the subgraph's own `rank`.
    sub: bool,
    rank: Option<RankKind>,
}

struct Parser<'a> {
    text: &'a str,
    toks: Vec<(Tok, usize)>,
    i: usize,
    directed: bool,
    d: Diagram,
    node_at: HashMap<String, usize>,
    /// Every node named as an endpoint, in order, so a subgraph knows the nodes it names.
    mentioned: Vec<usize>,
    warnings: Warnings,
}

/// DOT escapes in a label: `\n`, `\l`, `\r` are line breaks, `\N` the node's name.
fn unescape(raw: &str, name: &str) -> String {
    let mut out = String::new();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n' | 'l' | 'r') => out.push('\n'),
            Some('N') => out.push_str(name),
            Some('\\') => out.push('\\'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out.trim_end_matches('\n').to_owned()
}

/// HTML-like label text: tags dropped (`<br/>` as a line break), entities decoded.
fn html_text(raw: &str) -> String {
    let mut out = String::new();
    let mut rest = raw;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        let tag_end = rest[i..].find('>').map_or(rest.len(), |e| i + e + 1);
        let tag = rest[i..tag_end].to_ascii_lowercase();
        if tag.starts_with("<br") || tag.starts_with("</tr") {
            out.push('\n');
        } else if tag.starts_with("</td") {
            out.push(' ');
        }
        rest = &rest[tag_end..];
    }
    out.push_str(rest);
    let out = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&");
    out.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

fn label_of(value: &(String, Quoting), name: &str) -> String {
    match value.1 {
        Quoting::Html => html_text(&value.0),
        _ => unescape(&value.0, name),
    }
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.0)
    }

    fn at(&self) -> usize {
        self.toks.get(self.i).map_or(self.text.len(), |t| t.1)
    }

    fn error(&self, message: impl Into<String>, hint: impl Into<String>) -> ConvertError {
        syntax(self.text, self.at(), message, hint)
    }

    fn found(&self) -> String {
        match self.peek() {
            None => "the end of the text".into(),
            Some(Tok::Id(s, _)) => format!("'{s}'"),
            Some(Tok::Punct(c)) => format!("'{c}'"),
            Some(Tok::Edge) => "an edge operator".into(),
        }
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn keyword(&self, word: &str) -> bool {
        matches!(self.peek(), Some(Tok::Id(s, Quoting::Bare)) if s.eq_ignore_ascii_case(word))
    }

    fn id(&mut self) -> Option<(String, Quoting)> {
        if let Some(Tok::Id(s, q)) = self.peek() {
            let out = (s.clone(), *q);
            self.i += 1;
            Some(out)
        } else {
            None
        }
    }

    fn graph(&mut self) -> Result<(), ConvertError> {
        if self.keyword("strict") {
            self.i += 1;
        }
        if self.keyword("digraph") {
            self.directed = true;
        } else if !self.keyword("graph") {
            return Err(self.error(
                format!("expected 'digraph' or 'graph', found {}", self.found()),
                "start the text with 'digraph { ... }'",
            ));
        }
        self.i += 1;
        if !matches!(self.peek(), Some(Tok::Punct('{'))) {
            self.id();
        }
        if !self.eat('{') {
            return Err(self.error(
                format!("expected '{{', found {}", self.found()),
                "put the graph's statements between '{' and '}'",
            ));
        }
        let mut scope = Scope::default();
        self.statements(&mut scope)?;
        if self.peek().is_some() {
            return Err(self.error(
                format!("unexpected {} after the graph's closing '}}'", self.found()),
                "give one graph per file",
            ));
        }
        Ok(())
    }

    fn statements(&mut self, scope: &mut Scope) -> Result<(), ConvertError> {
        loop {
            match self.peek() {
                None => {
                    return Err(self.error(
                        "the graph is never closed: expected '}'",
                        "add '}' at the end",
                    ));
                }
                Some(Tok::Punct('}')) => {
                    self.i += 1;
                    return Ok(());
                }
                Some(Tok::Punct(';' | ',')) => self.i += 1,
                _ => self.statement(scope)?,
            }
        }
    }

    fn attr_list(&mut self) -> Result<Attrs, ConvertError> {
        let mut out = Vec::new();
        while self.eat('[') {
            loop {
                if self.eat(']') {
                    break;
                }
                let Some((k, _)) = self.id() else {
                    return Err(self.error(
                        format!("expected an attribute name or ']', found {}", self.found()),
                        "write attributes as [name=value, other=value]",
                    ));
                };
                if !self.eat('=') {
                    return Err(self.error(
                        format!("expected '=' after '{k}', found {}", self.found()),
                        "write attributes as [name=value]",
                    ));
                }
                let Some((v, q)) = self.id() else {
                    return Err(self.error(
                        format!("expected a value for '{k}', found {}", self.found()),
                        "quote values with spaces: label=\"two words\"",
                    ));
                };
                out.push((k, v, q));
                let _ = self.eat(',') || self.eat(';');
            }
        }
        Ok(out)
    }

    fn statement(&mut self, scope: &mut Scope) -> Result<(), ConvertError> {
        for (word, which) in [("graph", 0), ("node", 1), ("edge", 2)] {
            if self.keyword(word)
                && matches!(
                    self.toks.get(self.i + 1).map(|t| &t.0),
                    Some(Tok::Punct('['))
                )
            {
                self.i += 1;
                let attrs = self.attr_list()?;
                for (k, v, q) in attrs {
                    match which {
                        0 => self.graph_attr(scope, &k, (v, q)),
                        1 => {
                            scope.node.insert(k, (v, q));
                        }
                        _ => {
                            scope.edge.insert(k, (v, q));
                        }
                    }
                }
                return Ok(());
            }
        }
        // a = b at the statement level is a graph attribute.
        if matches!(self.peek(), Some(Tok::Id(..)))
            && matches!(
                self.toks.get(self.i + 1).map(|t| &t.0),
                Some(Tok::Punct('='))
            )
        {
            let Some((k, _)) = self.id() else {
                return Ok(());
            };
            self.i += 1;
            let Some(v) = self.id() else {
                return Err(self.error(
                    format!("expected a value for '{k}', found {}", self.found()),
                    "write graph attributes as name=value",
                ));
            };
            self.graph_attr(scope, &k, v);
            return Ok(());
        }
        let mut ends = vec![self.endpoint(scope)?];
        let mut edge_ops = 0;
        while self.peek() == Some(&Tok::Edge) {
            let op_at = self.at();
            let op = &self.text[op_at..op_at + 2];
            if (op == "->") != self.directed {
                self.warnings.add(format!(
                    "'{op}' in a {} is read as an edge",
                    if self.directed { "digraph" } else { "graph" }
                ));
            }
            self.i += 1;
            ends.push(self.endpoint(scope)?);
            edge_ops += 1;
        }
        let attrs = self.attr_list()?;
        if edge_ops == 0 {
            // A node statement: its attributes go to the node(s).
            for &i in &ends[0] {
                self.node_attrs(i, &attrs);
            }
            return Ok(());
        }
        let mut all: HashMap<String, (String, Quoting)> = scope.edge.clone();
        for (k, v, q) in attrs {
            all.insert(k, (v, q));
        }
        for pair in ends.windows(2) {
            for &a in &pair[0] {
                for &b in &pair[1] {
                    let e = self.edge(a, b, &all);
                    self.d.edges.push(e);
                }
            }
        }
        Ok(())
    }

    /// A node name, or a subgraph (whose nodes all take part in the edges).
    fn endpoint(&mut self, scope: &mut Scope) -> Result<Vec<usize>, ConvertError> {
        if self.keyword("subgraph") || matches!(self.peek(), Some(Tok::Punct('{'))) {
            return self.subgraph(scope);
        }
        let Some((name, q)) = self.id() else {
            return Err(self.error(
                format!("expected a node name, found {}", self.found()),
                "name nodes with letters and digits, or quote the name",
            ));
        };
        let name = if q == Quoting::Html {
            html_text(&name)
        } else {
            name
        };
        // Ports (node:port:compass) only say where an edge attaches.
        while self.eat(':') {
            if self.id().is_none() {
                return Err(self.error(
                    format!("expected a port name after ':', found {}", self.found()),
                    "write ports as node:port",
                ));
            }
            self.warnings
                .add("ports (node:port) are ignored: canvas edges attach to a side");
        }
        let i = self.node(&name, scope);
        self.mentioned.push(i);
        Ok(vec![i])
    }

    fn node(&mut self, name: &str, scope: &Scope) -> usize {
        if let Some(&i) = self.node_at.get(name) {
            return i;
        }
        let i = self.d.nodes.len();
        self.d.nodes.push(DNode {
            key: name.to_owned(),
            label: name.to_owned(),
            color: None,
            group: scope.group,
        });
        self.node_at.insert(name.to_owned(), i);
        let defaults: Attrs = scope
            .node
            .iter()
            .map(|(k, (v, q))| (k.clone(), v.clone(), *q))
            .collect();
        self.node_attrs(i, &defaults);
        i
    }

    fn node_attrs(&mut self, i: usize, attrs: &Attrs) {
        let name = self.d.nodes[i].key.clone();
        let mut fill = None;
        let mut line = None;
        let mut filled = false;
        for (k, v, q) in attrs {
            match k.as_str() {
                "label" => self.d.nodes[i].label = label_of(&(v.clone(), *q), &name),
                "fillcolor" => fill = Some(v.clone()),
                "color" => line = Some(v.clone()),
                "style" => {
                    filled |= v.contains("filled");
                    if v.contains("invis") {
                        self.warnings
                            .add("invisible nodes are drawn like any other");
                    }
                }
                "shape" => {
                    if !matches!(
                        v.as_str(),
                        "box"
                            | "rect"
                            | "rectangle"
                            | "square"
                            | "plaintext"
                            | "plain"
                            | "none"
                            | "note"
                    ) {
                        self.warnings.add(format!(
                            "node shapes other than boxes ({v}, …) are drawn as rectangles"
                        ));
                    }
                }
                other => self.warnings.add(format!(
                    "the node attribute '{other}' has no place in a canvas and was ignored"
                )),
            }
        }
        let _ = filled;
        if let Some(c) = fill.or(line) {
            match color::to_canvas(&c) {
                Some(c) => self.d.nodes[i].color = Some(c),
                None => self.warnings.add(format!(
                    "the colour '{c}' is not one Easel knows; it was ignored"
                )),
            }
        }
    }

    fn edge(&mut self, a: usize, b: usize, attrs: &HashMap<String, (String, Quoting)>) -> DEdge {
        let mut e = DEdge {
            from: EndRef::Node(a),
            to: EndRef::Node(b),
            label: None,
            color: None,
            arrow: self.directed,
            back_arrow: false,
        };
        let mut keys: Vec<&String> = attrs.keys().collect();
        keys.sort();
        for k in keys {
            let v = &attrs[k];
            match k.as_str() {
                "label" => e.label = Some(label_of(v, "")),
                "color" => match color::to_canvas(&v.0) {
                    Some(c) => e.color = Some(c),
                    None => self.warnings.add(format!(
                        "the colour '{}' is not one Easel knows; it was ignored",
                        v.0
                    )),
                },
                "dir" => match v.0.as_str() {
                    "none" => (e.arrow, e.back_arrow) = (false, false),
                    "both" => (e.arrow, e.back_arrow) = (true, true),
                    "back" => (e.arrow, e.back_arrow) = (false, true),
                    _ => (e.arrow, e.back_arrow) = (true, false),
                },
                "arrowhead" if v.0 == "none" => e.arrow = false,
                "style" => self
                    .warnings
                    .add("dashed, dotted and bold edges are drawn as plain lines"),
                other => self.warnings.add(format!(
                    "the edge attribute '{other}' has no place in a canvas and was ignored"
                )),
            }
        }
        e
    }

    fn graph_attr(&mut self, scope: &mut Scope, k: &str, v: (String, Quoting)) {
        match (k, scope.group) {
            ("rankdir", _) => match v.0.as_str() {
                "LR" => self.d.direction = Some(Direction::Right),
                "RL" => {
                    self.warnings.add("rankdir=RL is drawn left to right");
                    self.d.direction = Some(Direction::Right);
                }
                "BT" => {
                    self.warnings.add("rankdir=BT is drawn top to bottom");
                    self.d.direction = Some(Direction::Down);
                }
                _ => self.d.direction = Some(Direction::Down),
            },
            ("rank", _) if scope.sub => match v.0.parse::<RankKind>() {
                Ok(kind) => scope.rank = Some(kind),
                Err(_) => self.warnings.add(format!(
                    "rank={} is not a rank constraint (same|min|max|source|sink) and was ignored",
                    v.0
                )),
            },
            ("rank", _) => self
                .warnings
                .add("rank at the graph's top level constrains nothing and was ignored"),
            ("label", Some(g)) => self.d.groups[g].label = label_of(&v, ""),
            ("color" | "fillcolor" | "bgcolor", Some(g)) => {
                if let Some(c) = color::to_canvas(&v.0) {
                    self.d.groups[g].color = Some(c);
                }
            }
            ("label", None) => self
                .warnings
                .add("the graph's own label has no place in a canvas and was ignored"),
            (other, _) => self.warnings.add(format!(
                "the graph attribute '{other}' has no place in a canvas and was ignored"
            )),
        }
    }

    fn subgraph(&mut self, scope: &mut Scope) -> Result<Vec<usize>, ConvertError> {
        let mut name = None;
        if self.keyword("subgraph") {
            self.i += 1;
            if !matches!(self.peek(), Some(Tok::Punct('{'))) {
                name = self.id().map(|n| n.0);
            }
        }
        if !self.eat('{') {
            return Err(self.error(
                format!("expected '{{' to open the subgraph, found {}", self.found()),
                "write subgraphs as 'subgraph cluster_x { a; b }'",
            ));
        }
        let mut inner = scope.clone();
        inner.sub = true;
        inner.rank = None;
        if let Some(n) = name.as_deref().filter(|n| n.starts_with("cluster")) {
            let g = self.d.groups.len();
            self.d.groups.push(DGroup {
                key: n.to_owned(),
                label: n
                    .trim_start_matches("cluster")
                    .trim_start_matches(['_', '-', ' '])
                    .to_owned(),
                color: None,
                parent: scope.group,
            });
            inner.group = Some(g);
        }
        let before = self.d.nodes.len();
        let edges_from = self.d.edges.len();
        let named_from = self.mentioned.len();
        self.statements(&mut inner)?;
        // The subgraph's nodes: those created inside it, those it names and those its edges
        // touch.
        let mut nodes: Vec<usize> = (before..self.d.nodes.len()).collect();
        let mut seen: std::collections::HashSet<usize> = nodes.iter().copied().collect();
        let touched = self.d.edges[edges_from..]
            .iter()
            .flat_map(|e| [e.from, e.to])
            .filter_map(|end| match end {
                EndRef::Node(i) => Some(i),
                EndRef::Group(_) => None,
            });
        for i in self.mentioned[named_from..].iter().copied().chain(touched) {
            if seen.insert(i) {
                nodes.push(i);
            }
        }
        if let Some(kind) = inner.rank
            && !nodes.is_empty()
        {
            self.d.ranks.push(RankSet {
                kind,
                members: nodes.clone(),
            });
        }
        Ok(nodes)
    }
}

/// Reads a DOT graph.
pub fn parse(text: &str) -> Result<(Diagram, Warnings), ConvertError> {
    let mut lexer = Lexer { text, pos: 0 };
    let mut toks = Vec::new();
    while let Some(t) = lexer.next()? {
        toks.push(t);
    }
    if toks.is_empty() {
        return Err(ConvertError::Empty { format: FORMAT });
    }
    let mut p = Parser {
        text,
        toks,
        i: 0,
        directed: false,
        d: Diagram::default(),
        node_at: HashMap::new(),
        mentioned: Vec::new(),
        warnings: Warnings::default(),
    };
    p.graph()?;
    Ok((p.d, p.warnings))
}

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Writes a diagram as a DOT digraph. Edges to groups cannot be drawn in DOT without
/// Graphviz's `compound` tricks, so they are left out with a warning.
pub fn write(d: &Diagram, warnings: &mut Warnings) -> String {
    let mut out = String::from("digraph {\n");
    out.push_str(match d.direction {
        Some(Direction::Right) => "    rankdir=LR;\n",
        _ => "    rankdir=TB;\n",
    });
    out.push_str("    node [shape=box];\n");
    fn emit(d: &Diagram, g: Option<usize>, depth: usize, out: &mut String) {
        let pad = "    ".repeat(depth);
        for (i, n) in d.nodes.iter().enumerate().filter(|(_, n)| n.group == g) {
            out.push_str(&format!("{pad}n{i} [label={}", quote(&n.label)));
            if let Some(hex) = n.color.as_deref().and_then(color::to_hex) {
                out.push_str(&format!(", style=filled, fillcolor=\"{hex}\""));
            }
            out.push_str("];\n");
        }
        for (i, sub) in d.groups.iter().enumerate().filter(|(_, s)| s.parent == g) {
            out.push_str(&format!(
                "{pad}subgraph cluster_g{i} {{\n{pad}    label={};\n",
                quote(&sub.label)
            ));
            if let Some(hex) = sub.color.as_deref().and_then(color::to_hex) {
                out.push_str(&format!("{pad}    color=\"{hex}\";\n"));
            }
            emit(d, Some(i), depth + 1, out);
            out.push_str(&format!("{pad}}}\n"));
        }
    }
    emit(d, None, 1, &mut out);
    for e in &d.edges {
        let (EndRef::Node(a), EndRef::Node(b)) = (e.from, e.to) else {
            warnings.add("edges to or from a group cannot be drawn in DOT and were left out");
            continue;
        };
        let mut attrs = Vec::new();
        if let Some(l) = &e.label {
            attrs.push(format!("label={}", quote(l)));
        }
        if let Some(hex) = e.color.as_deref().and_then(color::to_hex) {
            attrs.push(format!("color=\"{hex}\""));
        }
        match (e.back_arrow, e.arrow) {
            (false, true) => {}
            (true, true) => attrs.push("dir=both".into()),
            (true, false) => attrs.push("dir=back".into()),
            (false, false) => attrs.push("dir=none".into()),
        }
        let attrs = if attrs.is_empty() {
            String::new()
        } else {
            format!(" [{}]", attrs.join(", "))
        };
        out.push_str(&format!("    n{a} -> n{b}{attrs};\n"));
    }
    out.push_str("}\n");
    out
}
