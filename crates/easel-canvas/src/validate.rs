//! Validation against JSON Canvas 1.0.
//!
//! Errors are explicit rules of the spec that a file breaks; warnings are places where the
//! spec is silent or real files deviate (Advanced Canvas colours, float coordinates, unknown
//! node types). Warnings never change data: what was read is written back.

use crate::json;
use crate::model::{Canvas, Edge, Node, NodeKind};
use crate::object::{FieldRef, edge_slot, node_slot};
use foldhash::{HashSet, HashSetExt};
use serde::Serialize;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One problem, with the node or edge it concerns and the offending field.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    pub severity: Severity,
    /// A stable short name of the rule, e.g. `missing-field`.
    pub rule: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edge: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The verdict for a whole document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Valid,
    Warning,
    Error,
}

/// Every finding of a validation run, errors and warnings apart.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Report {
    pub errors: Vec<Finding>,
    pub warnings: Vec<Finding>,
}

impl Report {
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }

    pub fn verdict(&self) -> Verdict {
        match (self.errors.is_empty(), self.warnings.is_empty()) {
            (false, _) => Verdict::Error,
            (true, false) => Verdict::Warning,
            (true, true) => Verdict::Valid,
        }
    }

    fn push(&mut self, f: Finding) {
        match f.severity {
            Severity::Error => self.errors.push(f),
            Severity::Warning => self.warnings.push(f),
        }
    }
}

/// Whom a finding is about, for the message prefix and the `node`/`edge` fields.
#[derive(Clone, Copy)]
enum Subject<'a> {
    Node(&'a str),
    Edge(&'a str),
}

struct Sink<'a, 'r> {
    subject: Subject<'a>,
    report: &'r mut Report,
}

impl Sink<'_, '_> {
    fn add(&mut self, severity: Severity, rule: &'static str, field: Option<&str>, what: String) {
        let (prefix, node, edge) = match self.subject {
            Subject::Node(id) => (format!("node {}", show_id(id)), Some(id), None),
            Subject::Edge(id) => (format!("edge {}", show_id(id)), None, Some(id)),
        };
        self.report.push(Finding {
            severity,
            rule,
            message: format!("{prefix}: {what}"),
            node: node.map(str::to_owned),
            edge: edge.map(str::to_owned),
            field: field.map(str::to_owned),
        });
    }

    fn error(&mut self, rule: &'static str, field: &str, what: String) {
        self.add(Severity::Error, rule, Some(field), what);
    }

    fn warn(&mut self, rule: &'static str, field: &str, what: String) {
        self.add(Severity::Warning, rule, Some(field), what);
    }

    /// A string field: `required` makes absence an error; a wrong type always is one.
    /// Returns the field when it is a string, for the checks that read its text.
    #[inline]
    fn string_field<'m>(
        &mut self,
        v: Option<FieldRef<'m>>,
        key: &str,
        required: Option<&str>,
    ) -> Option<FieldRef<'m>> {
        match v {
            None => {
                if let Some(why) = required {
                    self.error("missing-field", key, why.to_owned());
                }
                None
            }
            Some(s) if s.is_string() => Some(s),
            Some(other) => {
                self.error(
                    "wrong-type",
                    key,
                    format!("{key} must be a string, it is {}", other.type_name()),
                );
                None
            }
        }
    }

    #[inline]
    fn one_of(&mut self, v: Option<FieldRef<'_>>, key: &str, allowed: &[&str], rule: &'static str) {
        if let Some(v) = self.string_field(v, key, None)
            && !v.as_text().is_some_and(|t| allowed.contains(&t.as_ref()))
        {
            self.error(rule, key, format!("{key} must be {}", allowed.join("|")));
        }
    }

    fn color(&mut self, v: Option<FieldRef<'_>>) {
        match v {
            None => {}
            Some(v) if v.is_string() => {
                let c = v.as_text().unwrap_or_default();
                let c = c.as_ref();
                if is_preset(c) || is_hex_color(c) {
                    return;
                }
                let what = if !c.is_empty() && c.bytes().all(|b| b.is_ascii_digit()) {
                    format!("color '{c}' is not a preset 1-6 (Advanced Canvas user presets)")
                } else if is_rgb_triplet(c) {
                    format!("color '{c}' is not hex (pre-1.0 Obsidian wrote RGB triplets)")
                } else {
                    format!("color '{c}' is neither a preset 1-6 nor a hex colour #RRGGBB")
                };
                self.warn("nonstandard-color", "color", what);
            }
            Some(v) if v.number_text().is_some() => self.warn(
                "nonstandard-color",
                "color",
                format!(
                    "color {} is a number, spec requires a string",
                    v.number_text().unwrap_or_default()
                ),
            ),
            Some(other) => self.error(
                "wrong-type",
                "color",
                format!("color must be a string, it is {}", other.type_name()),
            ),
        }
    }

    fn duplicate_keys(&mut self, dups: &[&str]) {
        for k in dups {
            self.warn(
                "duplicate-key",
                k,
                format!("key '{k}' appears more than once; the last one counts"),
            );
        }
    }
}

fn show_id(id: &str) -> String {
    if id.is_empty() {
        "(no id)".to_owned()
    } else {
        id.to_owned()
    }
}

fn is_preset(c: &str) -> bool {
    matches!(c, "1" | "2" | "3" | "4" | "5" | "6")
}

fn is_hex_color(c: &str) -> bool {
    c.strip_prefix('#')
        .is_some_and(|h| matches!(h.len(), 3 | 6 | 8) && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn is_rgb_triplet(c: &str) -> bool {
    let parts: Vec<_> = c.split(',').map(str::trim).collect();
    parts.len() == 3 && parts.iter().all(|p| p.parse::<u8>().is_ok())
}

/// Checks one node on its own (not id uniqueness, which needs the document).
pub fn check_node(node: &Node, report: &mut Report) {
    if node.obj().quick().is_some_and(quick::node_is_clean) {
        return;
    }
    let (values, duplicates) = node.obj().gather::<14>(node_slot);
    let [
        id,
        kind,
        x,
        y,
        width,
        height,
        color,
        text,
        file,
        subpath,
        url,
        label,
        background,
        background_style,
    ] = values;
    let mut sink = Sink {
        subject: Subject::Node(node.id()),
        report,
    };
    sink.duplicate_keys(&duplicates);
    if let Some(id) = sink.string_field(id, "id", Some("missing id"))
        && id.as_text().is_some_and(|t| t.is_empty())
    {
        sink.error("empty-id", "id", "id must not be empty".into());
    }
    for (key, v) in [("x", x), ("y", y), ("width", width), ("height", height)] {
        match v.map(|v| (v, v.number_text())) {
            None => sink.error("missing-field", key, format!("missing {key}")),
            Some((_, Some(n))) => {
                let v = json::number_as_f64(n);
                if !(v.is_finite() && v.abs() <= crate::geometry::MAX_COORD) {
                    sink.warn(
                        "out-of-range",
                        key,
                        format!(
                            "{key} is {n}, beyond any board (at most {:e}); Easel leaves this node out when it places or draws nodes",
                            crate::geometry::MAX_COORD
                        ),
                    );
                    continue;
                }
                if !json::number_is_integer(n) {
                    sink.warn("non-integer", key, format!("{key} is not an integer"));
                }
                if matches!(key, "width" | "height") && json::number_is_negative(n) {
                    sink.warn("negative-size", key, format!("{key} is negative"));
                }
            }
            Some((other, None)) => sink.error(
                "wrong-type",
                key,
                format!("{key} must be a number, it is {}", other.type_name()),
            ),
        }
    }
    sink.color(color);
    let Some(kind) = sink.string_field(kind, "type", Some("missing type")) else {
        return;
    };
    let kind = kind.as_text().unwrap_or_default();
    match NodeKind::parse(&kind) {
        NodeKind::Text => {
            sink.string_field(text, "text", Some("text node requires 'text'"));
        }
        NodeKind::File => {
            sink.string_field(file, "file", Some("file node requires 'file'"));
            if let Some(sub) = sink.string_field(subpath, "subpath", None)
                && !sub.as_text().is_some_and(|t| t.starts_with('#'))
            {
                sink.error("subpath", "subpath", "subpath must start with '#'".into());
            }
        }
        NodeKind::Link => {
            sink.string_field(url, "url", Some("link node requires 'url'"));
        }
        NodeKind::Group => {
            sink.string_field(label, "label", None);
            sink.string_field(background, "background", None);
            sink.one_of(
                background_style,
                "backgroundStyle",
                &["cover", "ratio", "repeat"],
                "background-style",
            );
        }
        NodeKind::Other(t) => sink.warn("unknown-type", "type", format!("unknown type '{t}'")),
    }
}

/// Checks one edge on its own; `node_exists` answers whether an id names a node.
pub fn check_edge(edge: &Edge, node_exists: &dyn Fn(&str) -> bool, report: &mut Report) {
    check_edge_known(edge, None, node_exists, report);
}

/// [`check_edge`], told by `ends_found` (when known) whether both ends the quick checks read
/// name nodes: [`validate`] looks them up beforehand, in a loop of their own.
fn check_edge_known(
    edge: &Edge,
    ends_found: Option<bool>,
    node_exists: &dyn Fn(&str) -> bool,
    report: &mut Report,
) {
    let clean = edge.obj().quick().is_some_and(|q| match ends_found {
        // The quick checks ask only about the two ends, which were found.
        Some(true) => quick::edge_is_clean(q, &|_| true),
        Some(false) => false,
        None => quick::edge_is_clean(q, node_exists),
    });
    if clean {
        return;
    }
    let (values, duplicates) = edge.obj().gather::<9>(edge_slot);
    let [
        id,
        from_node,
        to_node,
        from_side,
        to_side,
        from_end,
        to_end,
        label,
        color,
    ] = values;
    let mut sink = Sink {
        subject: Subject::Edge(edge.id()),
        report,
    };
    sink.duplicate_keys(&duplicates);
    if let Some(id) = sink.string_field(id, "id", Some("missing id"))
        && id.as_text().is_some_and(|t| t.is_empty())
    {
        sink.error("empty-id", "id", "id must not be empty".into());
    }
    for (key, v, missing) in [
        ("fromNode", from_node, "missing fromNode"),
        ("toNode", to_node, "missing toNode"),
    ] {
        if let Some(target) = sink
            .string_field(v, key, Some(missing))
            .and_then(|t| t.as_text())
            && !node_exists(&target)
        {
            sink.error(
                "dangling-edge",
                key,
                format!("{key} '{target}' does not exist"),
            );
        }
    }
    for (key, v) in [("fromSide", from_side), ("toSide", to_side)] {
        sink.one_of(v, key, &["top", "right", "bottom", "left"], "side");
    }
    for (key, v) in [("fromEnd", from_end), ("toEnd", to_end)] {
        sink.one_of(v, key, &["none", "arrow"], "end");
    }
    sink.string_field(label, "label", None);
    sink.color(color);
}

/// Validates a whole document.
pub fn validate(canvas: &Canvas) -> Report {
    let mut report = Report::default();
    // The id lookups run first, in loops of their own. On a large canvas each is a likely
    // cache miss at a random place in a table; a short loop lets the CPU wait for several at
    // once, where a loop that also checks every field waits for them one by one.
    let nodes = canvas.nodes();
    let mut node_ids = IdSet::with_capacity(nodes.len());
    let mut repeated_nodes = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        let id = node.id();
        if !id.is_empty() && !node_ids.insert(id) {
            repeated_nodes.push(i);
        }
    }
    let edges = canvas.edges();
    let mut edge_ids = IdSet::with_capacity(edges.len());
    let facts: Vec<u8> = edges
        .iter()
        .map(|edge| {
            let mut facts = 0;
            if quick_ends(edge)
                .is_some_and(|(from, to)| node_ids.contains(from) && node_ids.contains(to))
            {
                facts |= ENDS_FOUND;
            }
            let id = edge.id();
            if !id.is_empty() {
                if !edge_ids.insert(id) {
                    facts |= REPEATED;
                } else if node_ids.contains(id) {
                    facts |= SHARED;
                }
            }
            facts
        })
        .collect();

    let mut reported: HashSet<&str> = HashSet::new();
    let mut repeated = repeated_nodes.into_iter().peekable();
    for (i, node) in nodes.iter().enumerate() {
        check_node(node, &mut report);
        if repeated.next_if_eq(&i).is_some() {
            let id = node.id();
            if reported.insert(id) {
                report.push(id_finding(
                    Severity::Error,
                    "duplicate-node-id",
                    Subject::Node(id),
                    format!("duplicate node id '{id}'"),
                ));
            }
        }
    }
    let exists = |id: &str| node_ids.contains(id);
    let mut reported_edges: HashSet<&str> = HashSet::new();
    for (edge, facts) in edges.iter().zip(facts) {
        check_edge_known(edge, Some(facts & ENDS_FOUND != 0), &exists, &mut report);
        let id = edge.id();
        if facts & REPEATED != 0 {
            if reported_edges.insert(id) {
                report.push(id_finding(
                    Severity::Error,
                    "duplicate-edge-id",
                    Subject::Edge(id),
                    format!("duplicate edge id '{id}'"),
                ));
            }
        } else if facts & SHARED != 0 {
            report.push(id_finding(
                Severity::Warning,
                "shared-id",
                Subject::Edge(id),
                format!("id '{id}' used by a node and an edge"),
            ));
        }
    }
    report
}

/// What [`validate`]'s first loop learns about an edge: both ends the quick checks read name
/// nodes; its id repeats an earlier edge's; a node has its id.
const ENDS_FOUND: u8 = 1;
const REPEATED: u8 = 2;
const SHARED: u8 = 4;

/// The ends of an edge as the quick checks read them (slots 1 and 2 of [`edge_slot`]), when
/// both are plain strings.
#[inline]
fn quick_ends(edge: &Edge) -> Option<(&str, &str)> {
    let q = edge.obj().quick()?;
    match (q.get(1), q.get(2)) {
        ((crate::object::Tag::Str, from), (crate::object::Tag::Str, to)) => Some((from, to)),
        _ => None,
    }
}

/// Checks that prove, from a read object's summary alone, that the full checks would find
/// nothing: on large canvases nearly every object is clean, and the full checks (which build
/// findings) cost several times more. Anything unusual answers `false` and gets the full
/// checks, which alone decide what is reported; so these may be strict but never lenient.
mod quick {
    use crate::object::{Quick, Tag};

    fn plain_string<'a>(q: &Quick<'a>, slot: usize) -> Option<&'a str> {
        match q.get(slot) {
            (Tag::Str, text) => Some(text),
            _ => None,
        }
    }

    fn is_string(q: &Quick<'_>, slot: usize) -> bool {
        matches!(q.get(slot).0, Tag::Str | Tag::EscStr)
    }

    fn absent_or_string(q: &Quick<'_>, slot: usize) -> bool {
        matches!(q.get(slot).0, Tag::Absent | Tag::Str | Tag::EscStr)
    }

    fn absent_or_one_of(q: &Quick<'_>, slot: usize, allowed: &[&str]) -> bool {
        match q.get(slot) {
            (Tag::Absent, _) => true,
            (Tag::Str, text) => allowed.contains(&text),
            _ => false,
        }
    }

    fn color_ok(q: &Quick<'_>, slot: usize) -> bool {
        match q.get(slot) {
            (Tag::Absent, _) => true,
            (Tag::Str, c) => super::is_preset(c) || super::is_hex_color(c),
            _ => false,
        }
    }

    /// A plain run of at most 12 digits, `-` first when `signed`: an integer far inside
    /// the board's range.
    fn small_integer(q: &Quick<'_>, slot: usize, signed: bool) -> bool {
        let (Tag::Num, text) = q.get(slot) else {
            return false;
        };
        let digits = match text.strip_prefix('-') {
            Some(rest) if signed => rest,
            Some(_) => return false,
            None => text,
        };
        (1..=12).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())
    }

    pub(super) fn node_is_clean(q: Quick<'_>) -> bool {
        let [
            id,
            kind,
            x,
            y,
            width,
            height,
            color,
            text,
            file,
            subpath,
            url,
            label,
            bg,
            bg_style,
        ] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
        if !(plain_string(&q, id).is_some_and(|id| !id.is_empty())
            && small_integer(&q, x, true)
            && small_integer(&q, y, true)
            && small_integer(&q, width, false)
            && small_integer(&q, height, false)
            && color_ok(&q, color))
        {
            return false;
        }
        match plain_string(&q, kind) {
            Some("text") => is_string(&q, text),
            Some("file") => {
                is_string(&q, file)
                    && match q.get(subpath) {
                        (Tag::Absent, _) => true,
                        (Tag::Str, sub) => sub.starts_with('#'),
                        _ => false,
                    }
            }
            Some("link") => is_string(&q, url),
            Some("group") => {
                absent_or_string(&q, label)
                    && absent_or_string(&q, bg)
                    && absent_or_one_of(&q, bg_style, &["cover", "ratio", "repeat"])
            }
            _ => false,
        }
    }

    pub(super) fn edge_is_clean(q: Quick<'_>, node_exists: &dyn Fn(&str) -> bool) -> bool {
        let [
            id,
            from_node,
            to_node,
            from_side,
            to_side,
            from_end,
            to_end,
            label,
            color,
        ] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        let sides = ["top", "right", "bottom", "left"];
        let ends = ["none", "arrow"];
        plain_string(&q, id).is_some_and(|id| !id.is_empty())
            && plain_string(&q, from_node).is_some_and(node_exists)
            && plain_string(&q, to_node).is_some_and(node_exists)
            && absent_or_one_of(&q, from_side, &sides)
            && absent_or_one_of(&q, to_side, &sides)
            && absent_or_one_of(&q, from_end, &ends)
            && absent_or_one_of(&q, to_end, &ends)
            && absent_or_string(&q, label)
            && color_ok(&q, color)
    }
}

/// A set of ids, kept small so that lookups stay in cache: on large canvases every edge end
/// is a lookup at a random place, and a table that spills out of the CPU's caches makes
/// each one a trip to memory. An id of 16 lowercase hex digits (what Obsidian and Easel
/// write) is kept as the `u64` it spells, 8 bytes a slot; other ids of up to 16 bytes as one
/// `u128` (no pointer into the canvas text to follow), and longer ones by reference.
struct IdSet<'a> {
    hex: HashSet<u64>,
    short: HashSet<u128>,
    long: HashSet<&'a str>,
    /// How many ids are expected: the set the first id goes to is sized for all of them
    /// (ids of one canvas nearly always share a form), the others grow as needed.
    expected: usize,
}

impl<'a> IdSet<'a> {
    fn with_capacity(n: usize) -> IdSet<'a> {
        IdSet {
            hex: HashSet::new(),
            short: HashSet::new(),
            long: HashSet::new(),
            expected: n,
        }
    }

    /// Adds `id`; false when it was already there.
    #[inline]
    fn insert(&mut self, id: &'a str) -> bool {
        // Each id has exactly one form, so equal ids always meet in the same set.
        if let Some(key) = hex_key(id) {
            reserve_first(&mut self.hex, &mut self.expected);
            self.hex.insert(key)
        } else if let Some(key) = pack(id) {
            reserve_first(&mut self.short, &mut self.expected);
            self.short.insert(key)
        } else {
            self.long.insert(id)
        }
    }

    #[inline]
    fn contains(&self, id: &str) -> bool {
        if let Some(key) = hex_key(id) {
            self.hex.contains(&key)
        } else if let Some(key) = pack(id) {
            self.short.contains(&key)
        } else {
            self.long.contains(id)
        }
    }
}

/// Sizes `set` for the expected number of ids when it takes its first one.
#[inline]
fn reserve_first<T: Eq + std::hash::Hash>(set: &mut HashSet<T>, expected: &mut usize) {
    if set.capacity() == 0 {
        set.reserve(std::mem::take(expected));
    }
}

/// Value of each lowercase hex digit; 0xff for every other byte.
static HEX_DIGIT: [u8; 256] = {
    let mut t = [0xffu8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

/// The number an id of exactly 16 lowercase hex digits spells. One number per such id and
/// one such id per number, so comparing numbers compares the ids.
#[inline]
fn hex_key(id: &str) -> Option<u64> {
    let b: &[u8; 16] = id.as_bytes().try_into().ok()?;
    let mut key = 0u64;
    let mut bad = 0u8;
    for &c in b {
        let d = HEX_DIGIT[usize::from(c)];
        bad |= d;
        key = key << 4 | u64::from(d & 0xf);
    }
    // A digit is at most 0x0f; any 0xff leaves high bits set.
    (bad < 0x10).then_some(key)
}

/// `id`'s bytes zero-padded into a `u128`, when that is unambiguous: at most 16 bytes, not
/// ending in NUL (then the last non-zero byte marks the end, so `"a"` and `"a\0"` differ).
#[inline]
fn pack(id: &str) -> Option<u128> {
    let b = id.as_bytes();
    if b.last() == Some(&0) {
        return None;
    }
    let mut buf = [0u8; 16];
    buf.get_mut(..b.len())?.copy_from_slice(b);
    Some(u128::from_le_bytes(buf))
}

fn id_finding(
    severity: Severity,
    rule: &'static str,
    subject: Subject<'_>,
    message: String,
) -> Finding {
    let (node, edge) = match subject {
        Subject::Node(id) => (Some(id.to_owned()), None),
        Subject::Edge(id) => (None, Some(id.to_owned())),
    };
    Finding {
        severity,
        rule,
        message,
        node,
        edge,
        field: Some("id".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(text: &str) -> Report {
        validate(&Canvas::parse(text).unwrap())
    }

    #[test]
    fn wrong_types_are_errors_with_the_field() {
        let r = report(
            r#"{"nodes":[{"id":"a","type":"text","text":5,"x":"0","y":0,"width":1,"height":1,"color":true}]}"#,
        );
        let fields: Vec<_> = r
            .errors
            .iter()
            .map(|f| f.field.as_deref().unwrap())
            .collect();
        assert_eq!(fields, ["x", "color", "text"]);
        assert!(r.errors.iter().all(|f| f.node.as_deref() == Some("a")));
    }

    #[test]
    fn edge_without_endpoints_is_an_error() {
        let r = report(r#"{"edges":[{"id":"e"}]}"#);
        let fields: Vec<_> = r
            .errors
            .iter()
            .map(|f| f.field.as_deref().unwrap())
            .collect();
        assert_eq!(fields, ["fromNode", "toNode"]);
    }

    #[test]
    fn numbers_beyond_any_board_warn_once_on_their_own_node() {
        let r = report(
            r#"{"nodes":[{"id":"a","type":"text","text":"t","x":1e400,"y":0,"width":1e308,"height":1}]}"#,
        );
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        let found: Vec<_> = r
            .warnings
            .iter()
            .map(|f| {
                (
                    f.rule,
                    f.field.as_deref().unwrap(),
                    f.node.as_deref().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            found,
            [("out-of-range", "x", "a"), ("out-of-range", "width", "a")]
        );
    }

    #[test]
    fn ids_are_equal_as_keys_exactly_when_equal_as_text() {
        let ids = [
            "",
            "a",
            "a\0",
            "a\0\0",
            "a\0b",
            "\0",
            "0123456789abcdef",
            "0123456789abcdeg",
            "0123456789abcdef0",
            "0123456789abcdef1",
            "0123456789ABCDEF",
            "0000000000000000",
            "000000000000000",
            "00000000000000000",
            "ffffffffffffffff",
            "fffffffffffffffg",
            "e123456789abcdef",
            "g123456789abcdef",
        ];
        for a in ids {
            let mut set = IdSet::with_capacity(1);
            set.insert(a);
            for b in ids {
                assert_eq!(set.contains(b), a == b, "{a:?} {b:?}");
            }
        }
    }

    proptest::proptest! {
        /// Ids of every form (hex, uppercase, short, long, NUL-ended) in one set answer as
        /// a set of strings does.
        #[test]
        fn id_sets_agree_with_a_set_of_strings(
            ids in proptest::collection::vec("[0-9a-fA\\x00]{14,18}|[a-g]{0,3}", 0..40),
            probes in proptest::collection::vec("[0-9a-fA\\x00]{14,18}|[a-g]{0,3}", 0..40),
        ) {
            let mut set = IdSet::with_capacity(ids.len());
            let mut plain = std::collections::HashSet::new();
            for id in &ids {
                proptest::prop_assert_eq!(set.insert(id), plain.insert(id.as_str()), "{:?}", id);
            }
            for id in ids.iter().chain(&probes) {
                proptest::prop_assert_eq!(set.contains(id), plain.contains(id.as_str()), "{:?}", id);
            }
        }
    }

    #[test]
    fn duplicate_keys_warn() {
        let r = report(
            r#"{"nodes":[{"id":"a","type":"text","text":"1","text":"2","x":0,"y":0,"width":1,"height":1}]}"#,
        );
        assert!(r.errors.is_empty());
        assert_eq!(r.warnings[0].rule, "duplicate-key");
    }

    #[test]
    fn hex_colours_of_three_six_and_eight_digits_are_fine() {
        for c in ["#fff", "#FF0000", "#ff000080"] {
            let r = report(&format!(
                r#"{{"nodes":[{{"id":"a","type":"text","text":"1","x":0,"y":0,"width":1,"height":1,"color":"{c}"}}]}}"#
            ));
            assert_eq!(r.verdict(), Verdict::Valid, "{c}");
        }
    }
}
