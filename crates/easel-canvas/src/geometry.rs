//! Rectangles, sides and placement: the geometry that edges, groups and new nodes need.

use crate::model::{Canvas, Node, NodeKind, Side};

/// Gap Easel leaves between a new node and its neighbours, in canvas pixels.
pub const GAP: f64 = 40.0;

/// The largest coordinate or size Easel computes with. Far beyond any board people draw
/// (Obsidian itself struggles past a few hundred thousand pixels) and small enough that sums of
/// a few of them stay exact in `f64` and finite in `f32`, which drawing uses.
pub const MAX_COORD: f64 = 1e12;

/// An axis-aligned rectangle in canvas coordinates (y grows downwards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    pub fn new(x: f64, y: f64, width: f64, height: f64) -> Rect {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    pub fn right(&self) -> f64 {
        self.x + self.width
    }

    /// True when every coordinate and both far edges are finite and within [`MAX_COORD`]: a
    /// node at `1e400` (read as infinity) or sized `1e308` (whose right edge overflows) has no
    /// place any arithmetic can use, so placement and drawing leave it out instead of being
    /// poisoned by it.
    pub fn is_usable(&self) -> bool {
        [
            self.x,
            self.y,
            self.width,
            self.height,
            self.right(),
            self.bottom(),
        ]
        .iter()
        .all(|v| v.is_finite() && v.abs() <= MAX_COORD)
    }

    pub fn bottom(&self) -> f64 {
        self.y + self.height
    }

    pub fn center(&self) -> (f64, f64) {
        (self.x + self.width / 2.0, self.y + self.height / 2.0)
    }

    pub fn area(&self) -> f64 {
        self.width * self.height
    }

    /// True when `other` lies inside `self` (edges may touch).
    pub fn contains(&self, other: &Rect) -> bool {
        other.x >= self.x
            && other.y >= self.y
            && other.right() <= self.right()
            && other.bottom() <= self.bottom()
    }

    /// True when the interiors intersect; rectangles that only touch do not overlap.
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.x < other.right()
            && other.x < self.right()
            && self.y < other.bottom()
            && other.y < self.bottom()
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        let x = self.x.min(other.x);
        let y = self.y.min(other.y);
        Rect::new(
            x,
            y,
            self.right().max(other.right()) - x,
            self.bottom().max(other.bottom()) - y,
        )
    }
}

/// The side of `from` that faces `to`, by comparing centres: when the vertical distance is at
/// least the horizontal one it is `top` or `bottom`, otherwise `left` or `right`. This is the
/// rule of DESIGN.md section 8.1, shared by new edges and the conversation walker.
pub fn side_facing(from: &Rect, to: &Rect) -> Side {
    let (fx, fy) = from.center();
    let (tx, ty) = to.center();
    let (dx, dy) = (tx - fx, ty - fy);
    if dy.abs() >= dx.abs() {
        if dy < 0.0 { Side::Top } else { Side::Bottom }
    } else if dx < 0.0 {
        Side::Left
    } else {
        Side::Right
    }
}

/// `fromSide` and `toSide` for a new edge between two rectangles.
pub fn edge_sides(from: &Rect, to: &Rect) -> (Side, Side) {
    (side_facing(from, to), side_facing(to, from))
}

/// Moves `rect` right in steps until it overlaps none of `obstacles`. After `max_steps`
/// steps it jumps past the right edge of everything, which is always free.
pub fn slide_right_until_free(mut rect: Rect, obstacles: &[Rect], max_steps: usize) -> Rect {
    for _ in 0..max_steps {
        match obstacles
            .iter()
            .filter(|o| o.overlaps(&rect))
            .map(Rect::right)
            .reduce(f64::max)
        {
            None => return rect,
            // Jump just past the rightmost obstacle in the way instead of a fixed step.
            Some(right) => rect.x = right + GAP,
        }
    }
    if let Some(all) = obstacles.iter().copied().reduce(|a, b| a.union(&b)) {
        rect.x = rect.x.max(all.right() + GAP);
    }
    rect
}

impl Canvas {
    /// Rectangles of every node that has a valid, usable geometry ([`Rect::is_usable`]).
    pub fn node_rects(&self) -> Vec<Rect> {
        self.nodes()
            .iter()
            .filter_map(Node::rect)
            .filter(Rect::is_usable)
            .collect()
    }

    /// Where a new node of this size goes when the caller gives no position: right of the
    /// last node in the file (the one added most recently), at its height, moved right until
    /// it overlaps nothing. An empty canvas starts at the origin.
    pub fn free_position(&self, width: f64, height: f64) -> (f64, f64) {
        let rects = self.node_rects();
        let last = self
            .nodes()
            .iter()
            .rev()
            .filter_map(Node::rect)
            .find(Rect::is_usable);
        let start = match last {
            Some(last) => Rect::new(last.right() + GAP, last.y, width, height),
            None => Rect::new(0.0, 0.0, width, height),
        };
        let placed = slide_right_until_free(start, &rects, 64);
        if placed.is_usable() {
            return (placed.x, placed.y);
        }
        // Beside the last node there is no usable room (a caller's own huge size, or nodes at
        // the edge of the range): start a row below everything instead.
        let below = rects.iter().map(Rect::bottom).fold(0.0_f64, f64::max);
        let left = rects.iter().map(|r| r.x).fold(f64::INFINITY, f64::min);
        (if left.is_finite() { left } else { 0.0 }, below + GAP)
    }

    /// The group a node belongs to: the smallest group whose rectangle holds the node's.
    pub fn group_of(&self, id: &str) -> Option<&Node> {
        let rect = self.node(id)?.rect()?;
        self.nodes()
            .iter()
            .filter(|g| g.kind() == NodeKind::Group && g.id() != id)
            .filter_map(|g| Some((g, g.rect()?)))
            .filter(|(_, r)| r.contains(&rect))
            .min_by(|(_, a), (_, b)| a.area().total_cmp(&b.area()))
            .map(|(g, _)| g)
    }

    /// Every node inside a group's rectangle, nested groups' members included.
    pub fn nodes_in_group(&self, group_id: &str) -> Vec<&Node> {
        let Some(area) = self.node(group_id).and_then(Node::rect) else {
            return Vec::new();
        };
        self.nodes()
            .iter()
            .filter(|n| n.id() != group_id)
            .filter(|n| n.rect().is_some_and(|r| area.contains(&r)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_follow_the_larger_distance() {
        let a = Rect::new(0.0, 0.0, 100.0, 100.0);
        assert_eq!(
            side_facing(&a, &Rect::new(0.0, 300.0, 100.0, 100.0)),
            Side::Bottom
        );
        assert_eq!(
            side_facing(&a, &Rect::new(0.0, -300.0, 100.0, 100.0)),
            Side::Top
        );
        assert_eq!(
            side_facing(&a, &Rect::new(300.0, 10.0, 100.0, 100.0)),
            Side::Right
        );
        assert_eq!(
            side_facing(&a, &Rect::new(-300.0, 10.0, 100.0, 100.0)),
            Side::Left
        );
        // A tie goes to the vertical sides.
        assert_eq!(
            side_facing(&a, &Rect::new(200.0, 200.0, 100.0, 100.0)),
            Side::Bottom
        );
        assert_eq!(
            edge_sides(&a, &Rect::new(0.0, 300.0, 100.0, 100.0)),
            (Side::Bottom, Side::Top)
        );
    }

    #[test]
    fn touching_is_not_overlapping() {
        let a = Rect::new(0.0, 0.0, 10.0, 10.0);
        assert!(!a.overlaps(&Rect::new(10.0, 0.0, 10.0, 10.0)));
        assert!(a.overlaps(&Rect::new(9.0, 9.0, 10.0, 10.0)));
    }

    #[test]
    fn slide_finds_a_free_spot() {
        let obstacles = [
            Rect::new(0.0, 0.0, 100.0, 100.0),
            Rect::new(140.0, 0.0, 100.0, 100.0),
        ];
        let placed = slide_right_until_free(Rect::new(50.0, 0.0, 100.0, 50.0), &obstacles, 10);
        assert!(obstacles.iter().all(|o| !o.overlaps(&placed)));
        assert_eq!(placed.x, 280.0);
        // Out of steps: jump past everything.
        let placed = slide_right_until_free(Rect::new(50.0, 0.0, 100.0, 50.0), &obstacles, 0);
        assert_eq!(placed.x, 280.0);
    }

    #[test]
    fn nodes_beyond_any_board_do_not_poison_placement() {
        // 1e400 reads as infinity; a 1e308 width makes the right edge overflow. Before, the
        // new node was placed at infinity and then refused as if its own size were wrong.
        for far in [
            r#"{"id":"far","type":"text","text":"t","x":1e400,"y":0,"width":100,"height":50}"#,
            r#"{"id":"far","type":"text","text":"t","x":0,"y":0,"width":1e308,"height":50}"#,
        ] {
            let c = Canvas::parse(&format!(
                r#"{{"nodes":[
                {{"id":"a","type":"text","text":"t","x":0,"y":0,"width":100,"height":50}},
                {far}]}}"#
            ))
            .unwrap();
            assert_eq!(c.node_rects().len(), 1, "{far}");
            let (x, y) = c.free_position(250.0, 60.0);
            let placed = Rect::new(x, y, 250.0, 60.0);
            assert!(placed.is_usable(), "{far}: {placed:?}");
            assert!(!placed.overlaps(&Rect::new(0.0, 0.0, 100.0, 50.0)));
        }
    }

    #[test]
    fn a_huge_new_node_goes_below_everything() {
        let c = Canvas::parse(
            r#"{"nodes":[{"id":"a","type":"text","text":"t","x":0,"y":0,"width":100,"height":50}]}"#,
        )
        .unwrap();
        let (x, y) = c.free_position(MAX_COORD, 60.0);
        assert_eq!((x, y), (0.0, 50.0 + GAP));
    }

    #[test]
    fn group_membership_picks_the_smallest_group() {
        let c = Canvas::parse(
            r#"{"nodes":[
            {"id":"outer","type":"group","x":0,"y":0,"width":1000,"height":1000},
            {"id":"inner","type":"group","x":100,"y":100,"width":400,"height":400},
            {"id":"n","type":"text","text":"t","x":150,"y":150,"width":100,"height":50},
            {"id":"m","type":"text","text":"t","x":600,"y":600,"width":100,"height":50},
            {"id":"out","type":"text","text":"t","x":2000,"y":0,"width":100,"height":50}]}"#,
        )
        .unwrap();
        assert_eq!(c.group_of("n").map(Node::id), Some("inner"));
        assert_eq!(c.group_of("m").map(Node::id), Some("outer"));
        assert_eq!(c.group_of("inner").map(Node::id), Some("outer"));
        assert!(c.group_of("out").is_none());
        let ids: Vec<_> = c.nodes_in_group("outer").iter().map(|n| n.id()).collect();
        assert_eq!(ids, ["inner", "n", "m"]);
    }
}
