//! Groups that grow push their neighbours. A layout of a group's members (or of a selection
//! inside groups) grows the groups around what it placed; whatever the larger group now covers
//! at its own level (its siblings in the enclosing group, or the top-level nodes) moves out of
//! the way, together with its members, and a moved neighbour pushes the next one in turn. The
//! enclosing group then grows to hold what moved, and pushes at its level, up to the top.

use easel_canvas::Rect;

/// The membership tree and what cannot move.
pub(crate) struct Tree<'a> {
    pub parent: &'a [Option<usize>],
    pub children: &'a [Vec<usize>],
    pub group: &'a [bool],
    /// Rectangles before the layout: they tell on which side of a group a neighbour was.
    pub before: &'a [Rect],
    pub labels: &'a [String],
    /// True for a node that must keep its place: pinned, or a group holding a pinned node.
    pub held: &'a dyn Fn(usize) -> bool,
    /// Pinned groups keep their size.
    pub pinned: &'a dyn Fn(usize) -> bool,
}

/// Padding a group keeps around its members: (sides and bottom, top with the label).
pub(crate) type Pads = (f64, f64);

/// Moves what the groups listed in `grown` now overlap at their level, then grows the
/// enclosing groups to hold it, innermost first. `rect` holds the rectangles after the layout
/// (whole pixels) and is updated in place. Overlaps left because a neighbour is pinned are
/// reported in `warnings`; the nodes that stayed for that reason are returned.
pub(crate) fn push_neighbours(
    tree: &Tree<'_>,
    rect: &mut [Rect],
    grown: Vec<usize>,
    pads: Pads,
    gap: f64,
    warnings: &mut Vec<String>,
) -> Vec<usize> {
    let mut held_back = Vec::new();
    let depth: Vec<usize> = (0..rect.len()).map(|i| depth_of(tree.parent, i)).collect();
    let mut todo = grown;
    loop {
        // Innermost first: a group's growth is settled before its parent's.
        todo.sort_by_key(|&g| std::cmp::Reverse(depth[g]));
        todo.dedup();
        if todo.is_empty() {
            break;
        }
        let g = todo.remove(0);
        let level: Vec<usize> = match tree.parent[g] {
            Some(p) => tree.children[p].clone(),
            None => (0..rect.len())
                .filter(|&i| tree.parent[i].is_none())
                .collect(),
        };
        push_level(tree, rect, g, &level, gap, warnings, &mut held_back);
        if let Some(p) = tree.parent[g]
            && hold_children(tree, rect, p, pads, warnings)
            && !todo.contains(&p)
        {
            todo.push(p);
        }
    }
    held_back
}

fn depth_of(parent: &[Option<usize>], mut i: usize) -> usize {
    let mut d = 0;
    while let Some(p) = parent[i] {
        d += 1;
        // Membership comes from rectangles or an explicit list; a cycle must not hang us.
        if d > parent.len() {
            break;
        }
        i = p;
    }
    d
}

/// Pushes the units of `level` that overlap `g`, and those the pushed ones then overlap,
/// until nothing at this level overlaps anything that moved.
fn push_level(
    tree: &Tree<'_>,
    rect: &mut [Rect],
    g: usize,
    level: &[usize],
    gap: f64,
    warnings: &mut Vec<String>,
    held_back: &mut Vec<usize>,
) {
    let mut queue = std::collections::VecDeque::from([g]);
    // Each push clears one overlap for good in its direction; the bound only guards against
    // a pathological ping-pong between pushes in opposite directions.
    let limit = 4 * level.len() * level.len() + 16;
    let mut steps = 0;
    let mut pushers = vec![g];
    loop {
        let Some(pusher) = queue.pop_front() else {
            // A later push may have sent a unit back onto one that pushed earlier (onto the
            // grown group itself, most often): those push again, until nothing overlaps.
            queue.extend(pushers.iter().copied().filter(|&p| {
                level
                    .iter()
                    .any(|&u| u != p && u != g && !(tree.held)(u) && rect[p].overlaps(&rect[u]))
            }));
            if queue.is_empty() {
                break;
            }
            continue;
        };
        for &u in level {
            if u == pusher || !rect[pusher].overlaps(&rect[u]) {
                continue;
            }
            if u == g {
                continue;
            }
            if (tree.held)(u) {
                if !held_back.contains(&u) {
                    held_back.push(u);
                }
                let msg = format!(
                    "'{}' now overlaps '{}', which is pinned, so it stays where it is",
                    tree.labels[pusher], tree.labels[u]
                );
                if !warnings.contains(&msg) {
                    warnings.push(msg);
                }
                continue;
            }
            steps += 1;
            if steps > limit {
                warnings.push(format!(
                    "the neighbours of '{}' could not all be moved clear of it",
                    tree.labels[g]
                ));
                return;
            }
            let (dx, dy) = away(
                &tree.before[pusher],
                &tree.before[u],
                &rect[pusher],
                &rect[u],
                gap,
            );
            move_unit(tree, rect, u, dx, dy);
            queue.push_back(u);
            if !pushers.contains(&u) {
                pushers.push(u);
            }
        }
    }
}

/// The least move that takes `r` clear of `pusher`, among the directions that keep the
/// board's order: a neighbour that was right of (or below, left of, above) the pusher before
/// the layout stays on that side. When the two overlapped already, any side will do.
fn away(pusher_before: &Rect, r_before: &Rect, pusher: &Rect, r: &Rect, gap: f64) -> (f64, f64) {
    let right = (pusher.right() + gap - r.x).ceil();
    let down = (pusher.bottom() + gap - r.y).ceil();
    let left = (r.right() - (pusher.x - gap)).ceil();
    let up = (r.bottom() - (pusher.y - gap)).ceil();
    let sides = [
        (r_before.x >= pusher_before.right(), right, (right, 0.0)),
        (r_before.y >= pusher_before.bottom(), down, (0.0, down)),
        (r_before.right() <= pusher_before.x, left, (-left, 0.0)),
        (r_before.bottom() <= pusher_before.y, up, (0.0, -up)),
    ];
    let any_kept = sides.iter().any(|s| s.0);
    sides
        .iter()
        .filter(|s| s.0 || !any_kept)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or((right, 0.0), |s| s.2)
}

/// Moves a node and, when it is a group, everything inside it.
fn move_unit(tree: &Tree<'_>, rect: &mut [Rect], u: usize, dx: f64, dy: f64) {
    let mut stack = vec![u];
    let mut seen = 0;
    while let Some(i) = stack.pop() {
        seen += 1;
        if seen > rect.len() {
            break;
        }
        let r = rect[i];
        rect[i] = Rect::new(r.x + dx, r.y + dy, r.width, r.height);
        if tree.group[i] {
            stack.extend(tree.children[i].iter().copied());
        }
    }
}

/// Grows group `p` to hold its children again after some moved. True when it grew.
fn hold_children(
    tree: &Tree<'_>,
    rect: &mut [Rect],
    p: usize,
    (pad, pad_top): Pads,
    warnings: &mut Vec<String>,
) -> bool {
    let Some(content) = tree.children[p]
        .iter()
        .map(|&c| rect[c])
        .reduce(|a, b| a.union(&b))
    else {
        return false;
    };
    let r = rect[p];
    if r.contains(&content) {
        return false;
    }
    if (tree.pinned)(p) {
        // Members stay inside their group above all, as when a layout grows a group.
        warnings.push(format!(
            "'{}' is pinned but grew to hold what was pushed inside it",
            tree.labels[p]
        ));
    }
    let x = r.x.min((content.x - pad).floor());
    let y = r.y.min((content.y - pad_top).floor());
    let right = r.right().max((content.right() + pad).ceil());
    let bottom = r.bottom().max((content.bottom() + pad).ceil());
    rect[p] = Rect::new(x, y, right - x, bottom - y);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_neighbour_on_the_right_moves_right_by_the_least_distance() {
        let before = Rect::new(0.0, 0.0, 100.0, 100.0);
        let grown = Rect::new(0.0, 0.0, 300.0, 120.0);
        let right_of = Rect::new(150.0, 0.0, 50.0, 50.0);
        assert_eq!(
            away(&before, &right_of, &grown, &right_of, 10.0),
            (160.0, 0.0)
        );
        // Below and to the right: down is shorter here.
        let below_right = Rect::new(150.0, 110.0, 50.0, 50.0);
        assert_eq!(
            away(&before, &below_right, &grown, &below_right, 10.0),
            (0.0, 20.0)
        );
    }
}
