//! The impact view: the target in the middle, its callers in a row above and its callees in a
//! row below, arrows labelled with call counts, and the blast radius counted underneath.
//!
//! Each side shows at most [`MAX_PER_SIDE`] boxes. More neighbours than that are grouped by
//! file ("5 callers · 9 calls"), and more files than that end in one "+N more" box, so a
//! function called from three hundred places still gives a picture one can read.

use super::canvas_file::CanvasFile;
use super::drawing::{Drawing, Rect, line};
use super::layout::{LayoutOptions, Size, layered_with_layers};
use super::style::{self, INK, MUTED, PAD};
use super::{View, count, finish, symbol_slug};
use crate::error::CodeError;
use easel_canvas::Side;
use easel_codegraph::{EdgeKind, Graph, Impact, Neighbor, Node, NodeKind};
use easel_render::TextStyle;
use std::collections::{BTreeMap, HashMap};

/// Boxes per side, "+N more" included.
pub const MAX_PER_SIDE: usize = 8;
const CARD_MIN: f32 = 160.0;
const CARD_MAX: f32 = 240.0;
const TARGET_MIN: f32 = 240.0;
const TARGET_MAX: f32 = 440.0;
const MARGIN: f32 = 20.0;
/// Room on the left for the row captions ("callers", "callees").
const CAPTION_W: f32 = 96.0;

/// One box of the picture.
struct Card {
    /// Stable key for the `.canvas` node id.
    key: String,
    lines: Vec<(String, TextStyle, &'static str)>,
    /// Calls along the arrow to or from the target; `None` for boxes without an arrow.
    calls: Option<u32>,
    /// The file the box stands for, when it stands for one.
    file: Option<String>,
    /// Stands for several symbols (drawn dashed, written as a text node).
    aggregate: bool,
    size: Size,
}

fn card(
    key: String,
    lines: Vec<(String, TextStyle, &'static str)>,
    calls: Option<u32>,
    file: Option<String>,
    aggregate: bool,
    min: f32,
    max: f32,
) -> Card {
    let w = lines
        .iter()
        .map(|(t, s, _)| s.width(t))
        .fold(0.0f32, f32::max)
        + 2.0 * PAD;
    let h = lines.iter().map(|(_, s, _)| line(*s)).sum::<f32>() + 2.0 * PAD;
    Card {
        key,
        lines,
        calls,
        file,
        aggregate,
        size: Size {
            width: w.clamp(min, max),
            height: h,
        },
    }
}

fn kind_name(k: NodeKind) -> &'static str {
    match k {
        NodeKind::Module => "module",
        NodeKind::Class => "class",
        NodeKind::Func => "function",
    }
}

/// The boxes of one side: every neighbour, or neighbours grouped by file, or the files with
/// the most calls and one box for the rest.
fn side(list: &[Neighbor], one: &str, many: &str) -> Vec<Card> {
    let mk = |key: String, lines, calls, file, aggregate| {
        card(key, lines, calls, file, aggregate, CARD_MIN, CARD_MAX)
    };
    if list.len() <= MAX_PER_SIDE {
        return list
            .iter()
            .map(|n| {
                let mut lines = vec![(n.qualname.clone(), style::NAME, INK)];
                let place = format!("{}:{}", n.file, n.start_line);
                let place = if n.kind == NodeKind::Func {
                    place
                } else {
                    format!("{} · {place}", kind_name(n.kind))
                };
                lines.push((place, style::SMALL, MUTED));
                lines.push((count(n.calls as usize, "call", "calls"), style::SMALL, INK));
                mk(
                    format!("{one}:{}", n.id),
                    lines,
                    Some(n.calls),
                    Some(n.file.clone()),
                    false,
                )
            })
            .collect();
    }
    let mut files: BTreeMap<&str, Vec<&Neighbor>> = BTreeMap::new();
    for n in list {
        files.entry(n.file.as_str()).or_default().push(n);
    }
    let calls_of = |v: &[&Neighbor]| v.iter().map(|n| n.calls).sum::<u32>();
    let mut groups: Vec<(&str, Vec<&Neighbor>)> = files.into_iter().collect();
    groups.sort_by(|a, b| calls_of(&b.1).cmp(&calls_of(&a.1)).then(a.0.cmp(b.0)));
    let keep = if groups.len() <= MAX_PER_SIDE {
        groups.len()
    } else {
        MAX_PER_SIDE - 1
    };
    let mut out: Vec<Card> = groups[..keep]
        .iter()
        .map(|(file, members)| {
            let calls = calls_of(members);
            let names: Vec<&str> = members.iter().map(|n| short(&n.qualname)).collect();
            let lines = vec![
                (file.to_string(), style::NAME, INK),
                (
                    format!(
                        "{} · {}",
                        count(members.len(), one, many),
                        count(calls as usize, "call", "calls")
                    ),
                    style::SMALL,
                    INK,
                ),
                (names.join(", "), style::SMALL, MUTED),
            ];
            mk(
                format!("{one}-file:{file}"),
                lines,
                Some(calls),
                Some(file.to_string()),
                false,
            )
        })
        .collect();
    if groups.len() > keep {
        let rest = &groups[keep..];
        let members: usize = rest.iter().map(|(_, m)| m.len()).sum();
        let calls: u32 = rest.iter().map(|(_, m)| calls_of(m)).sum();
        let names: Vec<&str> = rest.iter().map(|(f, _)| *f).collect();
        let lines = vec![
            (
                format!("+{} more", count(members, one, many)),
                style::NAME,
                INK,
            ),
            (
                format!(
                    "in {} · {}",
                    count(rest.len(), "file", "files"),
                    count(calls as usize, "call", "calls")
                ),
                style::SMALL,
                INK,
            ),
            (names.join(", "), style::SMALL, MUTED),
        ];
        out.push(mk(format!("{one}-rest"), lines, Some(calls), None, true));
    }
    out
}

/// The last part of a qualified name, for lists.
fn short(qualname: &str) -> &str {
    let cut = qualname.rfind(['.', ':', '/']).map_or(0, |i| i + 1);
    &qualname[cut..]
}

fn target_card(graph: &Graph, impact: &Impact) -> Card {
    let t = &impact.target;
    let mut lines = vec![
        (
            kind_name(t.kind).to_uppercase(),
            style::SMALL_BOLD,
            style::ACCENT,
        ),
        (t.qualname.clone(), style::HEADING, INK),
        (
            format!("{}:{}–{}", t.file, t.start_line, t.end_line),
            style::SMALL,
            MUTED,
        ),
    ];
    if t.kind != NodeKind::Func {
        let children: Vec<&Node> = contained(graph, t);
        let classes: Vec<&str> = children
            .iter()
            .filter(|n| n.kind == NodeKind::Class)
            .map(|n| n.name.as_str())
            .collect();
        let funcs: Vec<&str> = children
            .iter()
            .filter(|n| n.kind == NodeKind::Func)
            .map(|n| n.name.as_str())
            .collect();
        let what = if t.kind == NodeKind::Module {
            format!(
                "{} · {}",
                count(classes.len(), "class", "classes"),
                count(funcs.len(), "function", "functions")
            )
        } else {
            count(funcs.len(), "method", "methods")
        };
        lines.push((what, style::SMALL, INK));
        let sample: Vec<&str> = classes.iter().chain(&funcs).copied().take(8).collect();
        if !sample.is_empty() {
            lines.push((
                format!("contains {}", sample.join(", ")),
                style::SMALL,
                MUTED,
            ));
        }
    }
    lines.push((
        format!(
            "{} · {}",
            count(impact.counts.callers, "caller", "callers"),
            count(impact.counts.callees, "callee", "callees")
        ),
        style::SMALL,
        INK,
    ));
    card(
        format!("target:{}", t.id),
        lines,
        None,
        Some(t.file.clone()),
        false,
        TARGET_MIN,
        TARGET_MAX,
    )
}

/// The direct children of `t` (methods of a class; classes and functions of a module).
fn contained<'g>(graph: &'g Graph, t: &Node) -> Vec<&'g Node> {
    let ids: Vec<&str> = graph
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Contains && e.from == t.id)
        .map(|e| e.to.as_str())
        .collect();
    let by_id: HashMap<&str, &Node> = graph.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
    let mut out: Vec<&Node> = ids.iter().filter_map(|id| by_id.get(id).copied()).collect();
    out.sort_by_key(|n| n.start_line);
    out
}

fn empty_side(key: &str, text: &str) -> Card {
    card(
        key.to_owned(),
        vec![(text.to_owned(), style::SMALL, MUTED)],
        None,
        None,
        true,
        CARD_MIN,
        CARD_MAX,
    )
}

/// Draws what changing `impact.target` may affect. `graph` supplies what a class or module
/// target contains. The view's name is `impact_` + [`symbol_slug`] of the target's id.
pub fn impact_view(graph: &Graph, impact: &Impact) -> Result<View, CodeError> {
    let name = format!("impact_{}", symbol_slug(&impact.target.id));
    let (drawing, canvas, summary) = impact_drawing(graph, impact, &name)?;
    finish(name, &drawing, canvas, summary)
}

pub(crate) fn impact_drawing(
    graph: &Graph,
    impact: &Impact,
    name: &str,
) -> Result<(Drawing, String, String), CodeError> {
    let mut callers = side(&impact.callers, "caller", "callers");
    if callers.is_empty() {
        callers.push(empty_side("no-callers", "no callers in the code graph"));
    }
    let mut callees = side(&impact.callees, "callee", "callees");
    if callees.is_empty() {
        callees.push(empty_side("no-callees", "no resolved callees"));
    }
    // Layout order: target, callers, callees.
    let mut cards = vec![target_card(graph, impact)];
    let first_callee = 1 + callers.len();
    cards.extend(callers);
    cards.extend(callees);
    let layers: Vec<usize> = (0..cards.len())
        .map(|i| {
            if i == 0 {
                1
            } else if i < first_callee {
                0
            } else {
                2
            }
        })
        .collect();
    let mut edges = Vec::new();
    for (i, c) in cards.iter().enumerate().skip(1) {
        if c.calls.is_some() {
            edges.push(if i < first_callee { (i, 0) } else { (0, i) });
        }
    }
    let sizes: Vec<Size> = cards.iter().map(|c| c.size).collect();
    let options = LayoutOptions {
        node_gap: 24.0,
        layer_gap: 72.0,
        margin: 0.0,
    };
    let layout = layered_with_layers(&sizes, &edges, &layers, &options);

    let t = &impact.target;
    let title = format!("Impact of {}", t.qualname);
    let subtitle = format!(
        "{} · {}:{} · depth {}",
        kind_name(t.kind),
        t.file,
        t.start_line,
        impact.depth
    );
    // Room under the title for the label Obsidian draws above a group in the `.canvas` twin.
    let header_h = line(style::TITLE) + line(style::SMALL) + 24.0;
    let (ox, oy) = (MARGIN + CAPTION_W, MARGIN + header_h);
    let by_depth: Vec<String> = impact
        .counts
        .by_depth
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{n} at {}", count(i + 1, "hop", "hops")))
        .collect();
    let mut footer = vec![format!(
        "Blast radius: {} within {}{}",
        count(impact.counts.blast_radius, "symbol", "symbols"),
        count(impact.depth as usize, "hop", "hops"),
        if by_depth.is_empty() {
            String::new()
        } else {
            format!(" ({})", by_depth.join(", "))
        }
    )];
    if impact.counts.unresolved_calls > 0 {
        footer.push(format!(
            "{} made by the target could not be resolved and are not drawn",
            count(impact.counts.unresolved_calls, "call", "calls")
        ));
    }
    let footer_top = oy + layout.height + 20.0;
    let bottom = footer_top + footer.len() as f32 * line(style::BODY);
    let text_w = |t: &str, s: TextStyle| s.width(t).min(1000.0);
    let width = (ox + layout.width + MARGIN)
        .max(text_w(&title, style::TITLE) + 2.0 * MARGIN)
        .max(text_w(&subtitle, style::SMALL) + 2.0 * MARGIN)
        .max(
            footer
                .iter()
                .map(|f| text_w(f, style::BODY))
                .fold(0.0, f32::max)
                + 2.0 * MARGIN,
        );
    let mut d = Drawing {
        width: width.ceil(),
        height: (bottom + MARGIN).ceil(),
        ..Drawing::default()
    };
    let full = d.width - 2.0 * MARGIN;
    let y = d.text(None, MARGIN, MARGIN, &title, style::TITLE, INK, full);
    d.text(None, MARGIN, y, &subtitle, style::SMALL, MUTED, full);
    let mut y = footer_top;
    for f in &footer {
        y = d.text(None, MARGIN, y, f, style::BODY, INK, full);
    }

    let mut rects = Vec::with_capacity(cards.len());
    for (i, (c, p)) in cards.iter().zip(&layout.nodes).enumerate() {
        let rect = Rect::new(p.x + ox, p.y + oy, p.width, p.height);
        let look = if i == 0 {
            style::target()
        } else if c.aggregate {
            style::aggregate()
        } else {
            style::neighbor()
        };
        let f = d.frame(rect, None, look);
        let mut y = rect.y + PAD;
        for (text, s, color) in &c.lines {
            y = d.text(
                Some(f),
                rect.x + PAD,
                y,
                text,
                *s,
                color,
                rect.w - 2.0 * PAD,
            );
        }
        rects.push(rect);
    }
    // Row captions, centred on each row.
    for (layer, caption, n) in [
        (0, "callers", impact.counts.callers),
        (2, "callees", impact.counts.callees),
    ] {
        let row: Vec<&Rect> = rects
            .iter()
            .zip(&layers)
            .filter(|(_, l)| **l == layer)
            .map(|(r, _)| r)
            .collect();
        let (top, bot) = row.iter().fold((f32::MAX, f32::MIN), |(a, b), r| {
            (a.min(r.y), b.max(r.bottom()))
        });
        let mid = (top + bot) / 2.0;
        let y = d.text(
            None,
            MARGIN,
            mid - line(style::SMALL_BOLD),
            caption,
            style::SMALL_BOLD,
            MUTED,
            CAPTION_W - 8.0,
        );
        d.text(
            None,
            MARGIN,
            y,
            &n.to_string(),
            style::SMALL,
            MUTED,
            CAPTION_W - 8.0,
        );
    }
    let mut edge_calls = Vec::new();
    for (&(a, b), route) in edges.iter().zip(&layout.routes) {
        let other = if a == 0 { b } else { a };
        let calls = cards[other].calls.unwrap_or(0);
        let route: Vec<(f32, f32)> = route.iter().map(|&(x, y)| (x + ox, y + oy)).collect();
        let width = 1.2 + (calls.max(1) as f32).log2().min(4.0) * 0.6;
        d.arrow(route.clone(), style::CALL_ARROW, width);
        let label = count(calls as usize, "call", "calls");
        if !d.edge_label(&route, &label, style::SMALL, INK) {
            d.edge_label(&route, &calls.to_string(), style::SMALL, INK);
        }
        edge_calls.push((a, b, label));
    }

    let summary = format!(
        "{}: {} · {} · blast radius {} at depth {}",
        t.qualname,
        count(impact.counts.callers, "caller", "callers"),
        count(impact.counts.callees, "callee", "callees"),
        impact.counts.blast_radius,
        impact.depth
    );
    let mut c = CanvasFile::new(name);
    c.text(
        "header",
        Rect::new(MARGIN, MARGIN, full, header_h - 24.0),
        &format!("## {title}\n{subtitle}"),
        None,
    )?;
    let mut ids = Vec::with_capacity(cards.len());
    for (card, rect) in cards.iter().zip(&rects) {
        let id = match &card.file {
            Some(file) if !card.aggregate => {
                // The group carries the symbol's name; the file node inside opens the code.
                let label = card
                    .lines
                    .iter()
                    .find(|(_, s, _)| s.bold && s.size >= 12.0)
                    .map_or("", |l| l.0.as_str());
                c.group(&card.key, rect.inflate(6.0), label)?;
                c.file(&card.key, *rect, file)?
            }
            _ => {
                let text: Vec<&str> = card.lines.iter().map(|l| l.0.as_str()).collect();
                c.text(&card.key, *rect, &text.join("\n"), None)?
            }
        };
        ids.push(id);
    }
    for (a, b, label) in &edge_calls {
        c.edge(
            &ids[*a],
            Some(Side::Bottom),
            &ids[*b],
            Some(Side::Top),
            Some(label),
        )?;
    }
    if !footer.is_empty() {
        c.text(
            "footer",
            Rect::new(
                MARGIN,
                footer_top,
                full,
                footer.len() as f32 * line(style::BODY) + 8.0,
            ),
            &footer.join("\n"),
            None,
        )?;
    }
    Ok((d, c.finish(), summary))
}
