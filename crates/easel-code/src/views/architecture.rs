//! The architecture view: modules grouped into their folders ("districts"), each module a card
//! with its classes as nested boxes and its top-level functions listed, arrows for imports
//! between folders (with counts), and hub modules (imported by many) outlined in red.
//!
//! Folders, not modules, are the units of the layered layout: arrows between single modules
//! of a big repository would cross everything, while folder-to-folder arrows stay few, and a
//! folder box can never be cut in two by the layout.

use super::canvas_file::CanvasFile;
use super::drawing::{Drawing, Rect, line};
use super::layout::{LayoutOptions, Size, layered};
use super::style::{self, INK, MUTED, PAD};
use super::{Sketch, View, count, sketch};
use crate::error::CodeError;
use easel_codegraph::{EdgeKind, Graph, Node, NodeKind};
use easel_render::TextStyle;
use foldhash::{HashMap, HashMapExt};
use std::collections::{BTreeMap, BTreeSet};

/// Modules drawn at most; the rest are counted per folder.
pub const MAX_MODULES: usize = 30;
/// Classes and functions listed per module card.
const MAX_CLASSES: usize = 3;
const MAX_FUNCTIONS: usize = 4;
/// Hubs: imported by at least this many modules, and among the most imported.
const HUB_MIN_IMPORTERS: usize = 3;
const MAX_HUBS: usize = 5;
const CARD_MIN: f32 = 170.0;
const CARD_MAX: f32 = 290.0;
const GAP: f32 = 14.0;
const MARGIN: f32 = 20.0;

/// A module and what the view says about it.
struct Module<'g> {
    node: &'g Node,
    dir: String,
    /// Classes with the names of their methods.
    classes: Vec<(&'g Node, Vec<&'g str>)>,
    functions: Vec<&'g str>,
    class_total: usize,
    function_total: usize,
    imports: BTreeSet<usize>,
    importers: BTreeSet<usize>,
    hub: bool,
}

fn dir_of(file: &str) -> String {
    file.rsplit_once('/')
        .map_or_else(|| ".".to_owned(), |(d, _)| d.to_owned())
}

fn file_name(file: &str) -> &str {
    file.rsplit_once('/').map_or(file, |(_, f)| f)
}

fn modules(graph: &Graph) -> Vec<Module<'_>> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut out: Vec<Module> = Vec::new();
    for n in graph.nodes.iter().filter(|n| n.kind == NodeKind::Module) {
        index.insert(n.id.as_str(), out.len());
        out.push(Module {
            node: n,
            dir: dir_of(&n.file),
            classes: Vec::new(),
            functions: Vec::new(),
            class_total: 0,
            function_total: 0,
            imports: BTreeSet::new(),
            importers: BTreeSet::new(),
            hub: false,
        });
    }
    let by_id: HashMap<&str, &Node> = graph.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
    let mut parent: HashMap<&str, &str> = HashMap::new();
    for e in &graph.edges {
        match e.kind {
            EdgeKind::Contains => {
                parent.insert(e.to.as_str(), e.from.as_str());
            }
            EdgeKind::Import => {
                if let (Some(&a), Some(&b)) = (index.get(e.from.as_str()), index.get(e.to.as_str()))
                    && a != b
                {
                    out[a].imports.insert(b);
                    out[b].importers.insert(a);
                }
            }
            _ => {}
        }
    }
    // The module a definition belongs to: up the containment chain; ids start with the file
    // path, which is the module's id, when the chain is broken.
    let module_of = |id: &str| -> Option<usize> {
        let mut cur = id;
        for _ in 0..64 {
            if let Some(&m) = index.get(cur) {
                return Some(m);
            }
            match parent.get(cur) {
                Some(p) => cur = p,
                None => break,
            }
        }
        id.split_once(':').and_then(|(f, _)| index.get(f).copied())
    };
    let mut class_slot: HashMap<&str, (usize, usize)> = HashMap::new();
    for n in graph.nodes.iter().filter(|n| n.kind == NodeKind::Class) {
        if let Some(m) = module_of(&n.id) {
            class_slot.insert(n.id.as_str(), (m, out[m].classes.len()));
            out[m].classes.push((n, Vec::new()));
            out[m].class_total += 1;
        }
    }
    for n in graph.nodes.iter().filter(|n| n.kind == NodeKind::Func) {
        let Some(m) = module_of(&n.id) else { continue };
        out[m].function_total += 1;
        let p = parent.get(n.id.as_str()).copied();
        if let Some(&(cm, ci)) = p.and_then(|p| class_slot.get(p)) {
            out[cm].classes[ci].1.push(n.name.as_str());
        } else if p
            .and_then(|p| by_id.get(p))
            .is_some_and(|p| p.kind == NodeKind::Module)
        {
            out[m].functions.push(n.name.as_str());
        }
    }
    // Most imported first, ties by path, for a stable choice of hubs.
    let mut ranked: Vec<usize> = (0..out.len())
        .filter(|&i| out[i].importers.len() >= HUB_MIN_IMPORTERS)
        .collect();
    ranked.sort_by(|&a, &b| {
        out[b]
            .importers
            .len()
            .cmp(&out[a].importers.len())
            .then(out[a].node.file.cmp(&out[b].node.file))
    });
    for &i in ranked.iter().take(MAX_HUBS) {
        out[i].hub = true;
    }
    out
}

/// The modules to draw: hubs first, then by how connected they are.
fn chosen(mods: &[Module]) -> BTreeSet<usize> {
    let mut order: Vec<usize> = (0..mods.len()).collect();
    let score = |m: &Module| 2 * m.importers.len() + m.imports.len();
    order.sort_by(|&a, &b| {
        mods[b]
            .hub
            .cmp(&mods[a].hub)
            .then(score(&mods[b]).cmp(&score(&mods[a])))
            .then(
                (mods[b].class_total + mods[b].function_total)
                    .cmp(&(mods[a].class_total + mods[a].function_total)),
            )
            .then(mods[a].node.file.cmp(&mods[b].node.file))
    });
    order.into_iter().take(MAX_MODULES).collect()
}

/// One row of a module card.
enum Row {
    Text(String, TextStyle, &'static str),
    /// A class as a nested box: its name and a line about its methods.
    Class(String, String),
}

const CLASS_ROW: f32 = 2.0 * 15.0 + 8.0;
const CLASS_GAP: f32 = 4.0;

impl Row {
    fn height(&self) -> f32 {
        match self {
            Row::Text(_, s, _) => line(*s),
            Row::Class(..) => CLASS_ROW + CLASS_GAP,
        }
    }

    fn width(&self) -> f32 {
        match self {
            Row::Text(t, s, _) => s.width(t),
            Row::Class(a, b) => style::SMALL_BOLD.width(a).max(style::SMALL.width(b)) + 12.0,
        }
    }
}

/// A module's size, rounded (to tens, hundreds or tenths of a thousand lines) so that an
/// ordinary edit does not change the picture: the view is then kept instead of drawn again
/// (`easel code init`), and a size is all a reader of an architecture picture needs.
fn approx_lines(n: usize) -> String {
    match n {
        0..=9 => count(n, "line", "lines"),
        10..=99 => format!("~{} lines", (n + 5) / 10 * 10),
        100..=999 => format!("~{} lines", (n + 50) / 100 * 100),
        _ => {
            let tenths = (n + 50) / 100;
            if tenths.is_multiple_of(10) {
                format!("~{}k lines", tenths / 10)
            } else {
                format!("~{}.{}k lines", tenths / 10, tenths % 10)
            }
        }
    }
}

fn card_rows(m: &Module) -> Vec<Row> {
    let mut rows = vec![Row::Text(
        file_name(&m.node.file).to_owned(),
        style::NAME,
        INK,
    )];
    rows.push(Row::Text(
        format!(
            "{} · {} · {}",
            count(m.class_total, "class", "classes"),
            count(m.function_total, "function", "functions"),
            approx_lines(m.node.end_line as usize)
        ),
        style::SMALL,
        MUTED,
    ));
    if m.hub {
        rows.push(Row::Text(
            format!("hub: imported by {}", m.importers.len()),
            style::SMALL_BOLD,
            style::ACCENT,
        ));
    } else if !m.imports.is_empty() || !m.importers.is_empty() {
        rows.push(Row::Text(
            format!(
                "imports {} · imported by {}",
                m.imports.len(),
                m.importers.len()
            ),
            style::SMALL,
            MUTED,
        ));
    }
    let mut classes: Vec<&(&Node, Vec<&str>)> = m.classes.iter().collect();
    classes.sort_by(|a, b| {
        b.1.len()
            .cmp(&a.1.len())
            .then(a.0.start_line.cmp(&b.0.start_line))
    });
    for (c, methods) in classes.iter().take(MAX_CLASSES) {
        let detail = if methods.is_empty() {
            "no methods".to_owned()
        } else {
            format!(
                "{}: {}",
                count(methods.len(), "method", "methods"),
                methods.join(", ")
            )
        };
        rows.push(Row::Class(c.name.clone(), detail));
    }
    if classes.len() > MAX_CLASSES {
        rows.push(Row::Text(
            format!(
                "+{} more",
                count(classes.len() - MAX_CLASSES, "class", "classes")
            ),
            style::SMALL,
            MUTED,
        ));
    }
    for f in m.functions.iter().take(MAX_FUNCTIONS) {
        rows.push(Row::Text(format!("ƒ {f}()"), style::SMALL, INK));
    }
    if m.functions.len() > MAX_FUNCTIONS {
        rows.push(Row::Text(
            format!(
                "+{} more",
                count(m.functions.len() - MAX_FUNCTIONS, "function", "functions")
            ),
            style::SMALL,
            MUTED,
        ));
    }
    rows
}

fn card_size(rows: &[Row]) -> Size {
    let w = rows.iter().map(Row::width).fold(0.0f32, f32::max) + 2.0 * PAD;
    let h = rows.iter().map(Row::height).sum::<f32>() + 2.0 * PAD;
    Size {
        width: w.clamp(CARD_MIN, CARD_MAX),
        height: h,
    }
}

fn draw_card(d: &mut Drawing, parent: usize, rect: Rect, rows: &[Row], hub: bool) -> usize {
    let card = d.frame(
        rect,
        Some(parent),
        if hub { style::hub() } else { style::module() },
    );
    let inner = rect.w - 2.0 * PAD;
    let mut y = rect.y + PAD;
    for row in rows {
        match row {
            Row::Text(t, s, c) => {
                y = d.text(Some(card), rect.x + PAD, y, t, *s, c, inner);
            }
            Row::Class(name, detail) => {
                let b = d.frame(
                    Rect::new(rect.x + PAD, y, inner, CLASS_ROW),
                    Some(card),
                    style::class(),
                );
                let ty = d.text(
                    Some(b),
                    rect.x + PAD + 6.0,
                    y + 4.0,
                    name,
                    style::SMALL_BOLD,
                    INK,
                    inner - 12.0,
                );
                d.text(
                    Some(b),
                    rect.x + PAD + 6.0,
                    ty,
                    detail,
                    style::SMALL,
                    MUTED,
                    inner - 12.0,
                );
                y += CLASS_ROW + CLASS_GAP;
            }
        }
    }
    card
}

/// A folder and the cards in it, measured.
struct District {
    dir: String,
    title: String,
    subtitle: String,
    /// Module indexes, most connected first.
    members: Vec<usize>,
    cards: Vec<(Vec<Row>, Size)>,
    columns: usize,
    col_w: Vec<f32>,
    row_h: Vec<f32>,
    size: Size,
}

const TITLE_MAX: f32 = 560.0;

fn district(
    dir: &str,
    members: Vec<usize>,
    mods: &[Module],
    hidden: usize,
    inside: usize,
) -> District {
    let cards: Vec<(Vec<Row>, Size)> = members
        .iter()
        .map(|&i| {
            let rows = card_rows(&mods[i]);
            let size = card_size(&rows);
            (rows, size)
        })
        .collect();
    let n = cards.len();
    // Near-square grids, so a big folder is neither a tower nor a strip.
    let columns = match n {
        0..=2 => n.max(1),
        3..=4 => 2,
        _ => ((n as f32).sqrt().ceil() as usize).clamp(3, 5),
    };
    let rows = n.div_ceil(columns).max(1);
    let mut col_w = vec![0.0f32; columns];
    let mut row_h = vec![0.0f32; rows];
    for (k, (_, s)) in cards.iter().enumerate() {
        col_w[k % columns] = col_w[k % columns].max(s.width);
        row_h[k / columns] = row_h[k / columns].max(s.height);
    }
    let title = if dir == "." {
        "(repository root)".to_owned()
    } else {
        format!("{dir}/")
    };
    let mut subtitle = count(n + hidden, "module", "modules");
    if hidden > 0 {
        subtitle.push_str(&format!(", {hidden} not shown"));
    }
    if inside > 0 {
        subtitle.push_str(&format!(" · {} inside", count(inside, "import", "imports")));
    }
    let grid_w = col_w.iter().sum::<f32>() + GAP * (columns as f32 - 1.0);
    let grid_h = row_h.iter().sum::<f32>() + GAP * (rows as f32 - 1.0);
    let head_w = style::HEADING
        .width(&title)
        .min(TITLE_MAX)
        .max(style::SMALL.width(&subtitle));
    let width = grid_w.max(head_w) + 2.0 * PAD;
    let height = PAD + line(style::HEADING) + line(style::SMALL) + 6.0 + grid_h + PAD;
    District {
        dir: dir.to_owned(),
        title,
        subtitle,
        members,
        cards,
        columns,
        col_w,
        row_h,
        size: Size { width, height },
    }
}

/// Where things went, for the `.canvas` twin.
struct Placement {
    districts: Vec<Rect>,
    cards: Vec<Vec<Rect>>,
    header: Rect,
    footer: Option<(Rect, String)>,
}

fn draw_district(d: &mut Drawing, dist: &District, rect: Rect, mods: &[Module]) -> Vec<Rect> {
    let frame = d.frame(rect, None, style::district());
    let inner = rect.w - 2.0 * PAD;
    let mut y = d.text(
        Some(frame),
        rect.x + PAD,
        rect.y + PAD,
        &dist.title,
        style::HEADING,
        INK,
        inner,
    );
    y = d.text(
        Some(frame),
        rect.x + PAD,
        y,
        &dist.subtitle,
        style::SMALL,
        MUTED,
        inner,
    );
    y += 6.0;
    let mut out = Vec::new();
    let mut row_top = y;
    for (k, ((rows, size), &m)) in dist.cards.iter().zip(&dist.members).enumerate() {
        let (c, r) = (k % dist.columns, k / dist.columns);
        if c == 0 && r > 0 {
            row_top += dist.row_h[r - 1] + GAP;
        }
        let x = rect.x + PAD + dist.col_w[..c].iter().sum::<f32>() + GAP * c as f32;
        let card = Rect::new(x, row_top, size.width, size.height);
        draw_card(d, frame, card, rows, mods[m].hub);
        out.push(card);
    }
    out
}

/// Draws the architecture of `graph`: at most [`MAX_MODULES`] modules, the most connected,
/// in their folders; the rest counted.
pub fn architecture_view(graph: &Graph) -> Result<View, CodeError> {
    architecture_sketch(graph)?.render()
}

/// The architecture view laid out but not rasterized: what [`architecture_view`] would draw.
pub(crate) fn architecture_sketch(graph: &Graph) -> Result<Sketch, CodeError> {
    let (drawing, canvas, summary) = architecture_drawing(graph)?;
    Ok(sketch("architecture".to_owned(), &drawing, canvas, summary))
}

pub(crate) fn architecture_drawing(graph: &Graph) -> Result<(Drawing, String, String), CodeError> {
    let mods = modules(graph);
    let shown = chosen(&mods);
    let mut by_dir: BTreeMap<&str, (Vec<usize>, usize)> = BTreeMap::new();
    for (i, m) in mods.iter().enumerate() {
        let slot = by_dir.entry(m.dir.as_str()).or_default();
        if shown.contains(&i) {
            slot.0.push(i);
        } else {
            slot.1 += 1;
        }
    }
    let mut dirs: Vec<(&str, Vec<usize>, usize)> = Vec::new();
    let mut hidden_dirs = 0usize;
    let mut hidden_in_hidden_dirs = 0usize;
    for (dir, (mut members, hidden)) in by_dir {
        if members.is_empty() {
            hidden_dirs += 1;
            hidden_in_hidden_dirs += hidden;
            continue;
        }
        members.sort_by(|&a, &b| {
            let s = |m: &Module| m.importers.len() + m.imports.len();
            mods[b]
                .hub
                .cmp(&mods[a].hub)
                .then(s(&mods[b]).cmp(&s(&mods[a])))
                .then(mods[a].node.file.cmp(&mods[b].node.file))
        });
        dirs.push((dir, members, hidden));
    }
    let dir_index: HashMap<&str, usize> = dirs
        .iter()
        .enumerate()
        .map(|(i, (d, _, _))| (*d, i))
        .collect();
    // Imports between and inside the drawn folders, counting every module in them.
    let mut between: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let mut inside = vec![0usize; dirs.len()];
    let mut total_imports = 0usize;
    for m in &mods {
        total_imports += m.imports.len();
        let Some(&a) = dir_index.get(m.dir.as_str()) else {
            continue;
        };
        for &t in &m.imports {
            let Some(&b) = dir_index.get(mods[t].dir.as_str()) else {
                continue;
            };
            if a == b {
                inside[a] += 1;
            } else {
                *between.entry((a, b)).or_default() += 1;
            }
        }
    }
    let districts: Vec<District> = dirs
        .iter()
        .enumerate()
        .map(|(i, (dir, members, hidden))| {
            district(dir, members.clone(), &mods, *hidden, inside[i])
        })
        .collect();

    // Folders with imports go through the layered layout (importers above what they import);
    // folders without any are packed in rows underneath.
    let mut linked = vec![false; districts.len()];
    for &(a, b) in between.keys() {
        linked[a] = true;
        linked[b] = true;
    }
    let graph_ids: Vec<usize> = (0..districts.len()).filter(|&i| linked[i]).collect();
    let pos: HashMap<usize, usize> = graph_ids.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let sizes: Vec<Size> = graph_ids.iter().map(|&i| districts[i].size).collect();
    let edges: Vec<(usize, usize)> = between.keys().map(|(a, b)| (pos[a], pos[b])).collect();
    let options = LayoutOptions {
        node_gap: 36.0,
        layer_gap: 64.0,
        margin: MARGIN,
    };
    let layout = layered(&sizes, &edges, &options);

    let title = "Architecture";
    let mut stats = format!(
        "{} in {} · {}",
        count(mods.len(), "module", "modules"),
        count(districts.len() + hidden_dirs, "folder", "folders"),
        count(total_imports, "import", "imports"),
    );
    if shown.len() < mods.len() {
        stats.push_str(&format!(" · showing the {} most connected", shown.len()));
    }
    if mods.iter().any(|m| m.hub) {
        stats.push_str(" · hubs outlined in red");
    }
    // Room under the title for the label Obsidian draws above a group in the `.canvas` twin.
    let header_h = line(style::TITLE) + line(style::SMALL) + 24.0;
    let top = MARGIN + header_h;

    let mut rects: Vec<Option<Rect>> = vec![None; districts.len()];
    for (k, &i) in graph_ids.iter().enumerate() {
        let p = layout.nodes[k];
        rects[i] = Some(Rect::new(p.x, p.y + top - MARGIN, p.width, p.height));
    }
    let graph_bottom = if graph_ids.is_empty() {
        top
    } else {
        top - MARGIN + layout.height - MARGIN + 24.0
    };
    // Rows about as wide as a 16:10 picture of all the loose folders would be.
    let loose_area: f32 = (0..districts.len())
        .filter(|&i| !linked[i])
        .map(|i| (districts[i].size.width + 24.0) * (districts[i].size.height + 24.0))
        .sum();
    let shelf_width = layout.width.max((loose_area * 1.6).sqrt()).max(1000.0);
    let (mut x, mut y, mut row_h) = (MARGIN, graph_bottom, 0.0f32);
    let mut right = layout.width;
    for i in (0..districts.len()).filter(|&i| !linked[i]) {
        let s = districts[i].size;
        if x > MARGIN && x + s.width > shelf_width - MARGIN {
            x = MARGIN;
            y += row_h + 24.0;
            row_h = 0.0;
        }
        rects[i] = Some(Rect::new(x, y, s.width, s.height));
        right = right.max(x + s.width + MARGIN);
        x += s.width + 24.0;
        row_h = row_h.max(s.height);
    }
    let mut bottom = rects.iter().flatten().map(Rect::bottom).fold(top, f32::max);
    let footer_text = (hidden_dirs > 0).then(|| {
        format!(
            "Not shown: {} in {} with fewer imports",
            count(hidden_in_hidden_dirs, "module", "modules"),
            count(hidden_dirs, "other folder", "other folders")
        )
    });
    let footer_y = bottom + 16.0;
    if footer_text.is_some() {
        bottom = footer_y + line(style::BODY);
    }
    let width = right
        .max(style::TITLE.width(title) + 2.0 * MARGIN)
        .max(style::SMALL.width(&stats).min(900.0) + 2.0 * MARGIN)
        .max(
            footer_text
                .as_deref()
                .map_or(0.0, |t| style::BODY.width(t).min(900.0) + 2.0 * MARGIN),
        );
    let mut d = Drawing {
        width: width.ceil(),
        height: (bottom + MARGIN).ceil(),
        ..Drawing::default()
    };
    let text_w = d.width - 2.0 * MARGIN;
    let y0 = d.text(None, MARGIN, MARGIN, title, style::TITLE, INK, text_w);
    d.text(None, MARGIN, y0, &stats, style::SMALL, MUTED, text_w);
    if let Some(t) = &footer_text {
        d.text(None, MARGIN, footer_y, t, style::BODY, MUTED, text_w);
    }
    let mut card_rects = Vec::with_capacity(districts.len());
    let mut district_rects = Vec::with_capacity(districts.len());
    for (dist, r) in districts.iter().zip(&rects) {
        let r = r.unwrap_or(Rect::new(MARGIN, top, dist.size.width, dist.size.height));
        card_rects.push(draw_district(&mut d, dist, r, &mods));
        district_rects.push(r);
    }
    for (n, route) in between.values().zip(&layout.routes) {
        let route: Vec<(f32, f32)> = route.iter().map(|&(x, y)| (x, y + top - MARGIN)).collect();
        let width = 1.2 + (*n as f32).log2().min(4.0) * 0.6;
        d.arrow(route.clone(), style::ARROW, width);
        let label = count(*n, "import", "imports");
        if !d.edge_label(&route, &label, style::SMALL, INK) {
            d.edge_label(&route, &n.to_string(), style::SMALL, INK);
        }
    }

    let placement = Placement {
        districts: district_rects,
        cards: card_rects,
        header: Rect::new(MARGIN, MARGIN, text_w, header_h - 24.0),
        footer: footer_text.map(|t| {
            (
                Rect::new(MARGIN, footer_y, text_w, line(style::BODY) + 8.0),
                t,
            )
        }),
    };
    let canvas = canvas(&districts, &placement, &mods, title, &stats)?;
    let summary = stats;
    Ok((d, canvas, summary))
}

fn canvas(
    districts: &[District],
    p: &Placement,
    mods: &[Module],
    title: &str,
    stats: &str,
) -> Result<String, CodeError> {
    let mut c = CanvasFile::new("architecture");
    c.text("header", p.header, &format!("## {title}\n{stats}"), None)?;
    let mut node_of: HashMap<usize, String> = HashMap::new();
    for (dist, rect) in districts.iter().zip(&p.districts) {
        c.group(&dist.dir, *rect, &dist.title)?;
    }
    for (dist, cards) in districts.iter().zip(&p.cards) {
        for (&m, rect) in dist.members.iter().zip(cards) {
            let id = c.file(&mods[m].node.file, *rect, &mods[m].node.file)?;
            node_of.insert(m, id);
        }
    }
    let mut shown: Vec<usize> = node_of.keys().copied().collect();
    shown.sort_unstable();
    for a in shown {
        for b in &mods[a].imports {
            if let (Some(from), Some(to)) = (node_of.get(&a), node_of.get(b)) {
                let (from, to) = (from.clone(), to.clone());
                c.edge(&from, None, &to, None, None)?;
            }
        }
    }
    if let Some((rect, text)) = &p.footer {
        c.text("footer", *rect, text, None)?;
    }
    Ok(c.finish())
}

#[cfg(test)]
mod size_tests {
    use super::approx_lines;

    #[test]
    fn sizes_are_rounded_so_small_edits_keep_the_picture() {
        assert_eq!(approx_lines(1), "1 line");
        assert_eq!(approx_lines(7), "7 lines");
        assert_eq!(approx_lines(44), "~40 lines");
        assert_eq!(approx_lines(96), "~100 lines");
        assert_eq!(approx_lines(523), "~500 lines");
        assert_eq!(approx_lines(1523), "~1.5k lines");
        assert_eq!(approx_lines(1524), approx_lines(1530));
        assert_eq!(approx_lines(2999), "~3k lines");
        assert_eq!(approx_lines(12_345), "~12.3k lines");
    }
}
