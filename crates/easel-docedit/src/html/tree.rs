//! The element tree of an HTML document, built from its tokens the way a browser closes
//! elements: an unclosed `<p>`, `<li>`, `<td>`, `<tr>`, `<dt>`/`<dd>` ends where the next one
//! (or its parent's end tag) begins.

use std::ops::Range;

use super::tokens::{Attr, Kind, Token};

/// One element.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub name: String,
    /// Index of its start tag in the tokens.
    pub tok: usize,
    /// Its start tag's bytes.
    pub tag: Range<usize>,
    /// Between the end of the start tag and the start of the end tag (or where it closed).
    pub content: Range<usize>,
    /// Its end tag, when it has one of its own.
    pub end_tag: Option<Range<usize>>,
    pub parent: Option<usize>,
    /// In `<head>`, `<title>`, `<script>`, `<style>` or `<template>`: not part of what a reader
    /// sees.
    pub hidden: bool,
}

impl Node {
    /// From the start of the start tag to the end of the end tag (or where it closed).
    pub fn span(&self) -> Range<usize> {
        let end = self.end_tag.as_ref().map_or(self.content.end, |t| t.end);
        self.tag.start..end.max(self.tag.end)
    }
}

/// Tokens, elements, and for each token the innermost element around it.
pub(crate) struct Tree {
    pub tokens: Vec<Token>,
    pub nodes: Vec<Node>,
    /// Per token: the innermost open element (for a start tag: its own element).
    pub owner: Vec<Option<usize>>,
}

impl Tree {
    pub fn attrs(&self, node: usize) -> &[Attr] {
        match self.nodes.get(node).and_then(|n| self.tokens.get(n.tok)) {
            Some(Token {
                kind: Kind::Start { attrs, .. },
                ..
            }) => attrs,
            _ => &[],
        }
    }

    pub fn attr(&self, node: usize, name: &str) -> Option<&Attr> {
        self.attrs(node).iter().find(|a| a.name == name)
    }

    /// Whether the token is hidden text (head, title, script, style).
    pub fn hidden(&self, tok: usize) -> bool {
        self.owner
            .get(tok)
            .copied()
            .flatten()
            .and_then(|n| self.nodes.get(n))
            .is_some_and(|n| n.hidden)
    }

    /// The token indices inside the element's content.
    pub fn inside(&self, node: usize) -> Range<usize> {
        let Some(n) = self.nodes.get(node) else {
            return 0..0;
        };
        let first = n.tok + 1;
        let mut last = first;
        while self
            .tokens
            .get(last)
            .is_some_and(|t| t.span.start < n.content.end)
        {
            last += 1;
        }
        first..last
    }
}

const HIDDEN: &[&str] = &["head", "title", "script", "style", "template"];
const IN_HEAD: &[&str] = &[
    "base", "basefont", "bgsound", "link", "meta", "noframes", "noscript", "script", "style",
    "template", "title",
];
/// Start tags that close an open `<p>`.
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "li",
    "dd",
    "dt",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "ul",
    "listing",
    "plaintext",
    "xmp",
];
/// Elements an implied `</p>` does not look past.
const BUTTON_SCOPE: &[&str] = &[
    "button", "table", "td", "th", "caption", "marquee", "object", "applet", "html", "template",
];
/// Elements a new `<li>`, `<dt>` or `<dd>` does not look past for one to close.
const LIST_BARRIER: &[&str] = &[
    "ul",
    "ol",
    "dl",
    "table",
    "td",
    "th",
    "tr",
    "caption",
    "blockquote",
    "section",
    "article",
    "aside",
    "nav",
    "body",
    "html",
    "template",
    "button",
    "fieldset",
    "figure",
    "details",
    "form",
    "main",
    "header",
    "footer",
    "menu",
    "object",
    "marquee",
    "applet",
];
const HEADINGS: &[&str] = &["h1", "h2", "h3", "h4", "h5", "h6"];
const CELL_BARRIER: &[&str] = &["tr", "table", "tbody", "thead", "tfoot", "template", "html"];
const ROW_BARRIER: &[&str] = &["table", "tbody", "thead", "tfoot", "template", "html"];
const SECTION_BARRIER: &[&str] = &["table", "template", "html"];

/// Builds the tree of `tokens` over a text of `len` bytes.
pub(crate) fn build(text: &str, tokens: Vec<Token>) -> Tree {
    let mut b = Builder {
        text,
        nodes: Vec::new(),
        open: Vec::new(),
    };
    let mut owner = Vec::with_capacity(tokens.len());
    for (i, tok) in tokens.iter().enumerate() {
        match &tok.kind {
            Kind::Start { name, closed, .. } => {
                b.before_start(name, tok.span.start);
                let parent = b.open.last().copied();
                let hidden = parent.is_some_and(|p| b.nodes[p].hidden) || HIDDEN.contains(&&**name);
                let idx = b.nodes.len();
                b.nodes.push(Node {
                    name: name.clone(),
                    tok: i,
                    tag: tok.span.clone(),
                    content: tok.span.end..tok.span.end,
                    end_tag: None,
                    parent,
                    hidden,
                });
                if !closed {
                    b.open.push(idx);
                }
                owner.push(Some(idx));
            }
            Kind::End { name } => {
                b.end_tag(name, tok.span.clone());
                owner.push(b.open.last().copied());
            }
            Kind::Text { .. } => {
                let blank = text
                    .get(tok.span.clone())
                    .is_none_or(|t| t.trim_ascii().is_empty());
                if !blank && b.top_is("head") {
                    b.close_through(b.open.len() - 1, tok.span.start);
                }
                owner.push(b.open.last().copied());
            }
            Kind::Comment => owner.push(b.open.last().copied()),
        }
    }
    while !b.open.is_empty() {
        b.close_through(b.open.len() - 1, text.len());
    }
    Tree {
        tokens,
        nodes: b.nodes,
        owner,
    }
}

struct Builder<'t> {
    text: &'t str,
    nodes: Vec<Node>,
    /// Open elements, innermost last.
    open: Vec<usize>,
}

impl Builder<'_> {
    fn name(&self, depth: usize) -> &str {
        self.open
            .get(depth)
            .and_then(|&n| self.nodes.get(n))
            .map_or("", |n| &n.name)
    }

    fn top_is(&self, name: &str) -> bool {
        !self.open.is_empty() && self.name(self.open.len() - 1) == name
    }

    /// The depth of the innermost open element named in `names`, not looking past `barrier`.
    fn find(&self, names: &[&str], barrier: &[&str]) -> Option<usize> {
        for depth in (0..self.open.len()).rev() {
            let name = self.name(depth);
            if names.contains(&name) {
                return Some(depth);
            }
            if barrier.contains(&name) {
                return None;
            }
        }
        None
    }

    /// Closes the open elements from the innermost down to `depth`, as implied at `at`: their
    /// content ends there, less the whitespace before it (which belongs to no one's text).
    fn close_through(&mut self, depth: usize, at: usize) {
        while self.open.len() > depth {
            let Some(n) = self.open.pop() else { return };
            let node = &mut self.nodes[n];
            let start = node.content.start;
            let kept = self
                .text
                .get(start..at)
                .map_or(0, |t| t.trim_ascii_end().len());
            node.content.end = start + kept;
        }
    }

    fn before_start(&mut self, name: &str, at: usize) {
        if self.open.iter().any(|&n| self.nodes[n].name == "head")
            && (name == "body" || !IN_HEAD.contains(&name))
            && let Some(d) = self.find(&["head"], &[])
        {
            self.close_through(d, at);
        }
        match name {
            "li" => self.close_found(&["li"], LIST_BARRIER, at),
            "dt" | "dd" => self.close_found(&["dt", "dd"], LIST_BARRIER, at),
            "td" | "th" => self.close_found(&["td", "th"], CELL_BARRIER, at),
            "tr" => self.close_found(&["tr"], ROW_BARRIER, at),
            "tbody" | "thead" | "tfoot" => {
                self.close_found(&["tbody", "thead", "tfoot"], SECTION_BARRIER, at)
            }
            "option" if self.top_is("option") => {
                self.close_through(self.open.len() - 1, at);
            }
            _ => {}
        }
        if CLOSES_P.contains(&name) {
            self.close_found(&["p"], BUTTON_SCOPE, at);
        }
        if HEADINGS.contains(&name)
            && HEADINGS.contains(&self.name(self.open.len().wrapping_sub(1)))
        {
            self.close_through(self.open.len() - 1, at);
        }
    }

    fn close_found(&mut self, names: &[&str], barrier: &[&str], at: usize) {
        if let Some(d) = self.find(names, barrier) {
            self.close_through(d, at);
        }
    }

    fn end_tag(&mut self, name: &str, span: Range<usize>) {
        let names: &[&str] = if HEADINGS.contains(&name) {
            HEADINGS
        } else {
            &[name]
        };
        let Some(depth) = self.find(names, &[]) else {
            return;
        };
        if depth + 1 < self.open.len() {
            self.close_through(depth + 1, span.start);
        }
        if let Some(n) = self.open.pop() {
            let node = &mut self.nodes[n];
            node.content.end = span.start.max(node.content.start);
            node.end_tag = Some(span);
        }
    }
}
