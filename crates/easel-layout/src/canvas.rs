//! Layout applied to a JSON Canvas document: which nodes move (all, a selection, a group's
//! members), pinned nodes, groups laid out from the inside out and grown to fit, edge sides
//! recomputed, and the metrics of the result. Only `x`, `y` (and a group's `width`/`height`)
//! and the edges' `fromSide`/`toSide` change.

use crate::error::LayoutError;
use crate::flat::{Algo, Direction, Graph, Options, RankSet, place_ranked};
use crate::metrics::{MBox, MEdge, Metrics, measure};
use crate::push::{Tree, push_neighbours};
use crate::separate::separate;
use easel_canvas::json::{Map, Value};
use easel_canvas::{Canvas, Node, NodeKind, Rect, Side, geometry};
use std::collections::{HashMap, HashSet};

/// Which nodes a layout moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Scope {
    /// Every node (groups are laid out from the inside out).
    #[default]
    All,
    /// These nodes (a group among them brings its members along).
    Nodes(Vec<String>),
    /// The members of this group; the group grows to fit them.
    Group(String),
}

/// A layout request.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Request {
    pub options: Options,
    pub scope: Scope,
    /// Nodes that keep their place (a pinned group keeps its size too).
    pub pins: Vec<String>,
    /// Group membership as (node id, group id) pairs, instead of reading it from the
    /// rectangles: for canvases whose nodes have no meaningful positions yet (an import).
    pub groups: Option<Vec<(String, String)>>,
    /// Nodes `layered` keeps on one rank (DOT's `rank=same` and its kin). A set's nodes that
    /// a layout places in different groups are ranked within each group.
    pub ranks: Vec<RankSet<String>>,
}

/// What a layout did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Ids of the nodes whose position or size changed, in file order.
    pub moved: Vec<String>,
    /// Ids of the edges whose sides changed.
    pub edges_changed: usize,
    /// The quality of the whole canvas afterwards.
    pub metrics: Metrics,
    /// What the layout could not honour (an edge a tree left out, a pin outside the scope).
    pub warnings: Vec<String>,
}

struct Doc {
    ids: Vec<String>,
    rect: Vec<Rect>,
    group: Vec<bool>,
    /// The smallest group holding each node, before the layout.
    parent: Vec<Option<usize>>,
    children: Vec<Vec<usize>>,
    edges: Vec<(usize, usize)>,
    labels: Vec<String>,
}

impl Doc {
    fn read(canvas: &Canvas, explicit: Option<&[(String, String)]>) -> (Doc, Vec<String>) {
        let mut warnings = Vec::new();
        let mut ids = Vec::new();
        let mut rect = Vec::new();
        let mut group = Vec::new();
        let mut labels = Vec::new();
        for n in canvas.nodes() {
            match n.rect().filter(|r| {
                [r.x, r.y, r.width, r.height].iter().all(|v| v.is_finite())
                    && r.width >= 0.0
                    && r.height >= 0.0
            }) {
                Some(r) => {
                    ids.push(n.id().to_owned());
                    rect.push(r);
                    group.push(n.kind() == NodeKind::Group);
                    labels.push(label(n));
                }
                None => warnings.push(format!(
                    "node '{}' has no valid position and size, so it was left where it is",
                    n.id()
                )),
            }
        }
        let index: HashMap<&str, usize> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| (id.as_str(), i))
            .collect();
        let parent: Vec<Option<usize>> = if let Some(pairs) = explicit {
            let mut parent = vec![None; ids.len()];
            for (n, g) in pairs {
                if let (Some(&n), Some(&g)) = (index.get(n.as_str()), index.get(g.as_str()))
                    && group[g]
                    && n != g
                {
                    parent[n] = Some(g);
                }
            }
            parent
        } else {
            (0..ids.len())
                .map(|i| {
                    (0..ids.len())
                        .filter(|&g| g != i && group[g] && rect[g].contains(&rect[i]))
                        // Two groups of the same rectangle: the later one (drawn on top) holds
                        // the earlier, so membership is never mutual.
                        .filter(|&g| !(rect[i] == rect[g] && (!group[i] || g < i)))
                        .min_by(|&a, &b| rect[a].area().total_cmp(&rect[b].area()))
                })
                .collect()
        };
        let mut children = vec![Vec::new(); ids.len()];
        for (i, p) in parent.iter().enumerate() {
            if let Some(p) = p {
                children[*p].push(i);
            }
        }
        let edges = canvas
            .edges()
            .iter()
            .filter_map(|e| Some((*index.get(e.from_node())?, *index.get(e.to_node())?)))
            .collect();
        (
            Doc {
                ids,
                rect,
                group,
                parent,
                children,
                edges,
                labels,
            },
            warnings,
        )
    }

    fn ancestors(&self, mut i: usize) -> Vec<usize> {
        let mut out = Vec::new();
        while let Some(p) = self.parent[i] {
            if out.contains(&p) {
                break;
            }
            out.push(p);
            i = p;
        }
        out
    }
}

/// A short name for a node in messages: its first line of text, file, URL or label.
fn label(n: &Node) -> String {
    let text = n
        .searchable_text()
        .unwrap_or("")
        .lines()
        .next()
        .unwrap_or("")
        .trim();
    let text = text.trim_start_matches('#').trim();
    if text.is_empty() {
        return n.id().to_owned();
    }
    let short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        format!("{short}…")
    } else {
        short
    }
}

/// Padding inside a group; the top leaves room for its label.
fn pads(spacing: f64) -> (f64, f64) {
    let pad = (spacing / 2.0).max(20.0);
    (pad, pad + 24.0)
}

/// Rectangles of one unit's members and their descendants, in a frame that is absolute when
/// `anchored` (a pinned node fixed it) and relative otherwise.
struct Unit {
    placed: Vec<(usize, Rect)>,
    anchored: bool,
}

struct Ctx<'a> {
    doc: &'a Doc,
    opts: Options,
    pinned: HashSet<usize>,
    ranks: Vec<RankSet<usize>>,
    warnings: Vec<String>,
}

impl Ctx<'_> {
    fn unit(&mut self, members: &[usize]) -> Result<Unit, LayoutError> {
        let doc = self.doc;
        let (pad, pad_top) = pads(self.opts.spacing);
        let mut size = Vec::with_capacity(members.len());
        // Fixed rectangle (absolute) for members that cannot move.
        let mut fixed: Vec<Option<Rect>> = Vec::with_capacity(members.len());
        // Descendants of each member, relative to the member's top-left (or absolute when the
        // member is fixed).
        let mut inner: Vec<Vec<(usize, Rect)>> = Vec::with_capacity(members.len());
        for &m in members {
            let kids = &doc.children[m];
            if !doc.group[m] || kids.is_empty() {
                size.push((doc.rect[m].width, doc.rect[m].height));
                fixed.push(self.pinned.contains(&m).then_some(doc.rect[m]));
                inner.push(Vec::new());
                continue;
            }
            let sub = self.unit(kids)?;
            let Some(bbox) = sub.placed.iter().map(|p| p.1).reduce(|a, b| a.union(&b)) else {
                size.push((doc.rect[m].width, doc.rect[m].height));
                fixed.push(self.pinned.contains(&m).then_some(doc.rect[m]));
                inner.push(Vec::new());
                continue;
            };
            let need = (bbox.width + 2.0 * pad, bbox.height + pad + pad_top);
            if self.pinned.contains(&m) {
                let g = doc.rect[m];
                let content: Vec<(usize, Rect)> = if sub.anchored {
                    sub.placed
                } else {
                    shift(&sub.placed, g.x + pad - bbox.x, g.y + pad_top - bbox.y)
                };
                if content.iter().any(|(_, r)| !g.contains(r)) {
                    return Err(LayoutError::GroupTooSmall {
                        group: doc.ids[m].clone(),
                        width: g.width,
                        height: g.height,
                        need_width: need.0.ceil(),
                        need_height: need.1.ceil(),
                    });
                }
                size.push((g.width, g.height));
                fixed.push(Some(g));
                inner.push(content);
            } else if sub.anchored {
                let g = Rect::new(bbox.x - pad, bbox.y - pad_top, need.0, need.1);
                size.push(need);
                fixed.push(Some(g));
                inner.push(sub.placed);
            } else {
                size.push(need);
                fixed.push(None);
                inner.push(shift(&sub.placed, pad - bbox.x, pad_top - bbox.y));
            }
        }
        // Grid reads the members in reading order; the other algorithms follow file order.
        let mut order: Vec<usize> = (0..members.len()).collect();
        if self.opts.algo == Algo::Grid {
            order.sort_by(|&a, &b| {
                let (ra, rb) = (doc.rect[members[a]], doc.rect[members[b]]);
                ra.y.total_cmp(&rb.y).then(ra.x.total_cmp(&rb.x))
            });
        }
        let slot: HashMap<usize, usize> = order
            .iter()
            .enumerate()
            .map(|(s, &k)| (members[k], s))
            .collect();
        let lift = |mut i: usize| -> Option<usize> {
            loop {
                if let Some(&s) = slot.get(&i) {
                    return Some(s);
                }
                i = doc.parent[i]?;
            }
        };
        let edges: Vec<(usize, usize)> = doc
            .edges
            .iter()
            .filter_map(|&(a, b)| Some((lift(a)?, lift(b)?)))
            .filter(|(a, b)| a != b)
            .collect();
        let graph = Graph {
            sizes: order.iter().map(|&k| size[k]).collect(),
            edges,
        };
        // A rank set binds the members of this unit it names itself, not a group holding one.
        let sets: Vec<RankSet<usize>> = self
            .ranks
            .iter()
            .map(|set| RankSet {
                kind: set.kind,
                members: set
                    .members
                    .iter()
                    .filter_map(|m| slot.get(m).copied())
                    .collect(),
            })
            .filter(|set| !set.members.is_empty())
            .collect();
        let placement = place_ranked(&graph, &self.opts, &sets);
        for ig in &placement.ignored {
            let (a, b) = (members[order[ig.from]], members[order[ig.to]]);
            let why = if ig.cycle {
                "closes a cycle"
            } else {
                "gives its target a second parent"
            };
            self.warnings.push(format!(
                "{}: the edge from '{}' to '{}' {why}, so the tree ignores it",
                self.opts.algo.as_str(),
                doc.labels[a],
                doc.labels[b]
            ));
        }
        let mut rects: Vec<Rect> = order
            .iter()
            .enumerate()
            .map(|(s, &k)| {
                let (x, y) = placement.positions[s];
                Rect::new(x, y, size[k].0, size[k].1)
            })
            .collect();
        let is_fixed: Vec<bool> = order.iter().map(|&k| fixed[k].is_some()).collect();
        let anchored = is_fixed.iter().any(|f| *f);
        if anchored {
            // The translation that moves the laid-out pins nearest to where they are pinned.
            let (mut dx, mut dy, mut n) = (0.0, 0.0, 0.0);
            for (s, &k) in order.iter().enumerate() {
                if let Some(f) = fixed[k] {
                    dx += f.x - rects[s].x;
                    dy += f.y - rects[s].y;
                    n += 1.0;
                }
            }
            for (s, &k) in order.iter().enumerate() {
                rects[s] = match fixed[k] {
                    Some(f) => f,
                    None => Rect::new(
                        rects[s].x + dx / n,
                        rects[s].y + dy / n,
                        rects[s].width,
                        rects[s].height,
                    ),
                };
            }
        }
        let along_x = self.opts.direction == Direction::Down || self.opts.algo == Algo::Radial;
        separate(&mut rects, &is_fixed, &[], along_x, self.opts.spacing);
        let mut placed = Vec::new();
        for (s, &k) in order.iter().enumerate() {
            let r = rects[s];
            placed.push((members[k], r));
            if fixed[k].is_some() {
                placed.extend(inner[k].iter().copied());
            } else {
                placed.extend(shift(&inner[k], r.x, r.y));
            }
        }
        Ok(Unit { placed, anchored })
    }
}

fn shift(items: &[(usize, Rect)], dx: f64, dy: f64) -> Vec<(usize, Rect)> {
    items
        .iter()
        .map(|&(i, r)| (i, Rect::new(r.x + dx, r.y + dy, r.width, r.height)))
        .collect()
}

/// The sides an edge between two boxes gets: along the layout's direction when the boxes are
/// apart along it (so edges of a layered drawing leave from the bottom and enter at the top),
/// otherwise the sides that face each other.
pub fn sides_for(from: &Rect, to: &Rect, direction: Option<Direction>) -> (Side, Side) {
    match direction {
        Some(Direction::Down) if to.y >= from.bottom() => (Side::Bottom, Side::Top),
        Some(Direction::Down) if to.bottom() <= from.y => (Side::Top, Side::Bottom),
        Some(Direction::Right) if to.x >= from.right() => (Side::Right, Side::Left),
        Some(Direction::Right) if to.right() <= from.x => (Side::Left, Side::Right),
        _ => geometry::edge_sides(from, to),
    }
}

/// Lays out `canvas` as `req` asks. On error the canvas is unchanged.
pub fn layout_canvas(canvas: &mut Canvas, req: &Request) -> Result<Outcome, LayoutError> {
    let (doc, mut warnings) = Doc::read(canvas, req.groups.as_deref());
    let index: HashMap<&str, usize> = doc
        .ids
        .iter()
        .enumerate()
        .map(|(i, id)| (id.as_str(), i))
        .collect();
    let find = |id: &str| -> Result<usize, LayoutError> {
        index.get(id.trim()).copied().ok_or_else(|| {
            if canvas.node(id.trim()).is_some() {
                LayoutError::Nothing(format!("node '{id}' has no valid position and size"))
            } else {
                LayoutError::NodeNotFound(id.trim().to_owned())
            }
        })
    };
    let mut pinned = HashSet::new();
    for p in &req.pins {
        pinned.insert(find(p)?);
    }
    let (members, container): (Vec<usize>, Option<usize>) = match &req.scope {
        Scope::All => (
            (0..doc.ids.len())
                .filter(|&i| doc.parent[i].is_none())
                .collect(),
            None,
        ),
        Scope::Group(g) => {
            let g = find(g)?;
            if !doc.group[g] {
                return Err(LayoutError::NotAGroup(doc.ids[g].clone()));
            }
            (doc.children[g].clone(), Some(g))
        }
        Scope::Nodes(ids) => {
            if ids.is_empty() {
                return Err(LayoutError::Nothing("the list of nodes is empty".into()));
            }
            let mut chosen = Vec::new();
            for id in ids {
                let i = find(id)?;
                if !chosen.contains(&i) {
                    chosen.push(i);
                }
            }
            let set: HashSet<usize> = chosen.iter().copied().collect();
            chosen.sort_unstable();
            let top = chosen
                .into_iter()
                .filter(|&i| !doc.ancestors(i).iter().any(|a| set.contains(a)))
                .collect();
            (top, None)
        }
    };
    let spacing = if req.options.spacing.is_finite() && req.options.spacing >= 0.0 {
        req.options.spacing
    } else {
        Options::default().spacing
    };
    let opts = Options {
        spacing,
        ..req.options
    };
    let mut ranks = Vec::with_capacity(req.ranks.len());
    for set in &req.ranks {
        let mut members = Vec::with_capacity(set.members.len());
        for id in &set.members {
            members.push(find(id)?);
        }
        ranks.push(RankSet {
            kind: set.kind,
            members,
        });
    }
    let mut ctx = Ctx {
        doc: &doc,
        opts,
        pinned,
        ranks,
        warnings: Vec::new(),
    };
    let unit = ctx.unit(&members)?;
    warnings.append(&mut ctx.warnings);
    let in_scope: HashSet<usize> = unit.placed.iter().map(|p| p.0).collect();
    // Pins outside the scope, which change nothing unless a growing group meets them.
    let idle_pins: Vec<usize> = req
        .pins
        .iter()
        .filter_map(|p| find(p).ok())
        .filter(|i| !in_scope.contains(i))
        .collect();
    let mut placed = unit.placed;
    let (pad, pad_top) = pads(spacing);
    if !unit.anchored
        && let Some(bbox) = placed.iter().map(|p| p.1).reduce(|a, b| a.union(&b))
    {
        // Unpinned: the drawing starts where the laid-out nodes started.
        let (tx, ty) = match container {
            Some(g) => (doc.rect[g].x + pad, doc.rect[g].y + pad_top),
            None => {
                let before = members
                    .iter()
                    .map(|&m| doc.rect[m])
                    .reduce(|a, b| a.union(&b))
                    .unwrap_or(bbox);
                (before.x, before.y)
            }
        };
        placed = shift(&placed, tx - bbox.x, ty - bbox.y);
    }
    let mut new_rect = doc.rect.clone();
    for &(i, r) in &placed {
        new_rect[i] = r;
    }
    // Nodes outside a selection stay; the selection slides clear of them. Groups that held a
    // selected node are not obstacles: they grow to hold it instead.
    if let Scope::Nodes(_) = req.scope {
        let holders: HashSet<usize> = members.iter().flat_map(|&m| doc.ancestors(m)).collect();
        let obstacles: Vec<Rect> = (0..doc.ids.len())
            .filter(|i| !in_scope.contains(i) && !holders.contains(i))
            .map(|i| doc.rect[i])
            .collect();
        let mut tops: Vec<Rect> = members.iter().map(|&m| new_rect[m]).collect();
        let fixed: Vec<bool> = members
            .iter()
            .map(|m| pinned_or_holds_pin(&doc, *m, &req.pins, &index))
            .collect();
        separate(
            &mut tops,
            &fixed,
            &obstacles,
            req.options.direction == Direction::Down,
            spacing,
        );
        for (k, &m) in members.iter().enumerate() {
            let (dx, dy) = (tops[k].x - new_rect[m].x, tops[k].y - new_rect[m].y);
            if dx != 0.0 || dy != 0.0 {
                for &(i, _) in placed
                    .iter()
                    .filter(|(i, _)| *i == m || doc.ancestors(*i).contains(&m))
                {
                    let r = new_rect[i];
                    new_rect[i] = Rect::new(r.x + dx, r.y + dy, r.width, r.height);
                }
            }
        }
    }
    // Groups around what moved grow to keep holding it (a pinned one must already).
    let mut grow: Vec<usize> = members.clone();
    if let Some(g) = container {
        grow = vec![g];
        let content = placed
            .iter()
            .map(|p| new_rect[p.0])
            .reduce(|a, b| a.union(&b));
        if let Some(c) = content {
            let g_rect = doc.rect[g];
            let fit = Rect::new(
                g_rect.x,
                g_rect.y,
                c.right() + pad - g_rect.x,
                c.bottom() + pad - g_rect.y,
            );
            if ctx.pinned.contains(&g) {
                if !g_rect.contains(&c) {
                    return Err(LayoutError::GroupTooSmall {
                        group: doc.ids[g].clone(),
                        width: g_rect.width,
                        height: g_rect.height,
                        need_width: fit.width.ceil(),
                        need_height: fit.height.ceil(),
                    });
                }
            } else {
                new_rect[g] = fit;
            }
        }
    }
    for m in grow {
        let mut inner = new_rect[m];
        for a in doc.ancestors(m) {
            let r = new_rect[a];
            let want = Rect::new(r.x.min(inner.x - pad), r.y.min(inner.y - pad_top), 0.0, 0.0);
            let right = r.right().max(inner.right() + pad);
            let bottom = r.bottom().max(inner.bottom() + pad);
            new_rect[a] = Rect::new(want.x, want.y, right - want.x, bottom - want.y);
            inner = new_rect[a];
        }
    }
    // Whole pixels, as Obsidian writes them; groups round outwards so they still hold.
    for (i, r) in new_rect.iter_mut().enumerate() {
        if *r == doc.rect[i] {
            continue;
        }
        *r = if doc.group[i] {
            let (x, y) = (r.x.floor(), r.y.floor());
            Rect::new(x, y, (r.right() - x).ceil(), (r.bottom() - y).ceil())
        } else {
            Rect::new(r.x.round(), r.y.round(), r.width, r.height)
        };
    }
    // A group that grew covers what was next to it: that moves away, with its members.
    let grown: Vec<usize> = (0..doc.ids.len())
        .filter(|&i| {
            doc.group[i]
                && (new_rect[i].width > doc.rect[i].width
                    || new_rect[i].height > doc.rect[i].height)
        })
        .collect();
    let mut held_back = Vec::new();
    if !grown.is_empty() {
        let held = |i: usize| pinned_or_holds_pin(&doc, i, &req.pins, &index);
        let is_pinned = |i: usize| ctx.pinned.contains(&i);
        let tree = Tree {
            parent: &doc.parent,
            children: &doc.children,
            group: &doc.group,
            before: &doc.rect,
            labels: &doc.labels,
            held: &held,
            pinned: &is_pinned,
        };
        held_back = push_neighbours(
            &tree,
            &mut new_rect,
            grown,
            (pad, pad_top),
            spacing,
            &mut warnings,
        );
    }
    for i in idle_pins {
        if !held_back
            .iter()
            .any(|&u| u == i || doc.ancestors(i).contains(&u))
        {
            warnings.push(format!(
                "'{}' is pinned but not among the nodes laid out, so the pin changes nothing",
                doc.labels[i]
            ));
        }
    }
    let mut moved = Vec::new();
    let mut moved_set = HashSet::new();
    for (i, (&a, &b)) in doc.rect.iter().zip(&new_rect).enumerate() {
        if a == b {
            continue;
        }
        let mut patch = Map::new();
        patch.insert("x", Value::from(b.x));
        patch.insert("y", Value::from(b.y));
        if a.width != b.width || a.height != b.height {
            patch.insert("width", Value::from(b.width));
            patch.insert("height", Value::from(b.height));
        }
        canvas.update_node(&doc.ids[i], &patch)?;
        moved.push(doc.ids[i].clone());
        moved_set.insert(i);
    }
    let direction =
        matches!(req.options.algo, Algo::Layered | Algo::Tree).then_some(req.options.direction);
    let mut edges_changed = 0;
    let mut edge_patches = Vec::new();
    for e in canvas.edges() {
        let (Some(&a), Some(&b)) = (index.get(e.from_node()), index.get(e.to_node())) else {
            continue;
        };
        if a == b
            || !(moved_set.contains(&a)
                || moved_set.contains(&b)
                || in_scope.contains(&a) && in_scope.contains(&b))
        {
            continue;
        }
        let (fs, ts) = sides_for(&new_rect[a], &new_rect[b], direction);
        if e.from_side() != Some(fs) || e.to_side() != Some(ts) {
            let mut patch = Map::new();
            patch.insert("fromSide", Value::from(fs.as_str()));
            patch.insert("toSide", Value::from(ts.as_str()));
            edge_patches.push((e.id().to_owned(), patch));
        }
    }
    for (id, patch) in edge_patches {
        canvas.update_edge(&id, &patch)?;
        edges_changed += 1;
    }
    Ok(Outcome {
        moved,
        edges_changed,
        metrics: canvas_metrics(canvas),
        warnings,
    })
}

fn pinned_or_holds_pin(doc: &Doc, m: usize, pins: &[String], index: &HashMap<&str, usize>) -> bool {
    pins.iter()
        .filter_map(|p| index.get(p.trim()))
        .any(|&p| p == m || doc.ancestors(p).contains(&m))
}

/// The metrics of a whole canvas as it is drawn: edges without sides get the sides that face.
pub fn canvas_metrics(canvas: &Canvas) -> Metrics {
    let mut index = HashMap::new();
    let mut boxes = Vec::new();
    for n in canvas.nodes() {
        if let Some(r) = n.rect() {
            index.insert(n.id(), boxes.len());
            boxes.push(MBox {
                rect: r,
                group: n.kind() == NodeKind::Group,
            });
        }
    }
    let edges: Vec<MEdge> = canvas
        .edges()
        .iter()
        .filter_map(|e| {
            let (from, to) = (*index.get(e.from_node())?, *index.get(e.to_node())?);
            let (fs, ts) = geometry::edge_sides(&boxes[from].rect, &boxes[to].rect);
            Some(MEdge {
                from,
                to,
                from_side: e.from_side().unwrap_or(fs),
                to_side: e.to_side().unwrap_or(ts),
            })
        })
        .collect();
    measure(&boxes, &edges)
}
