//! A JSON Canvas drawn as a scene: cards for text, file and link nodes, frames for groups,
//! curved edges between the sides they name, in the canvas's own coordinates and z-order.

use crate::font::TextStyle;
use crate::scene::{Anchor, Item, Scene};
use easel_canvas::geometry::{Rect, side_facing};
use easel_canvas::{Canvas, End, NodeKind, Side};

/// Obsidian's preset colours `"1"` to `"6"`.
const PRESETS: [&str; 6] = [
    "#e93147", "#ec7500", "#e0ac00", "#08b94e", "#00bfbc", "#7852ee",
];
const INK: &str = "#222222";
const MUTED: &str = "#666666";
const CARD: &str = "#ffffff";
const LINE: &str = "#8a8a8a";
const PADDING: f32 = 12.0;
const MARGIN: f64 = 40.0;

/// A canvas colour (preset or hex) as an SVG colour; anything else is ignored.
pub fn canvas_color(color: Option<&str>) -> Option<String> {
    let c = color?;
    if let Ok(i) = c.parse::<usize>()
        && (1..=6).contains(&i)
    {
        return Some(PRESETS[i - 1].to_owned());
    }
    let hex = c.strip_prefix('#')?;
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    // Six digits always, so that an alpha suffix can be appended.
    match hex.len() {
        6 => Some(c.to_ascii_lowercase()),
        3 => Some(hex.chars().fold(String::from("#"), |mut s, ch| {
            s.push(ch.to_ascii_lowercase());
            s.push(ch.to_ascii_lowercase());
            s
        })),
        _ => None,
    }
}

/// Draws `canvas`. Nodes without a usable position ([`Rect::is_usable`]) are left out; an empty canvas is a small blank
/// picture.
pub fn render_canvas(canvas: &Canvas) -> Scene {
    let rects: Vec<(usize, Rect)> = canvas
        .nodes()
        .iter()
        .enumerate()
        .filter_map(|(i, n)| n.rect().map(|r| (i, r)))
        // A node at 1e400 or sized 1e308 has no place on any picture; `easel canvas validate`
        // warns about it (out-of-range), and the rest of the board is still drawn.
        .filter(|(_, r)| r.is_usable() && r.width >= 0.0 && r.height >= 0.0)
        .collect();
    let Some(bounds) = rects.iter().map(|(_, r)| *r).reduce(|a, b| a.union(&b)) else {
        return Scene::new(200.0, 100.0);
    };
    let (ox, oy) = (bounds.x - MARGIN, bounds.y - MARGIN);
    let mut scene = Scene::new(
        (bounds.width + 2.0 * MARGIN) as f32,
        (bounds.height + 2.0 * MARGIN) as f32,
    );
    scene.background = "#f6f6f6".into();
    let at = |r: &Rect| {
        (
            (r.x - ox) as f32,
            (r.y - oy) as f32,
            r.width as f32,
            r.height as f32,
        )
    };

    // Groups first (they sit behind), then edges, then cards, each in file order.
    for (i, r) in &rects {
        let node = &canvas.nodes()[*i];
        if !matches!(node.kind(), NodeKind::Group) {
            continue;
        }
        let (x, y, w, h) = at(r);
        let color = canvas_color(node.color()).unwrap_or_else(|| LINE.to_owned());
        scene.push(Item::Rect {
            x,
            y,
            width: w,
            height: h,
            radius: 8.0,
            fill: Some(format!("{color}14")),
            stroke: Some(color.clone()),
            stroke_width: 1.5,
            dashed: false,
        });
        if let Some(label) = node.label() {
            let style = TextStyle::bold(14.0);
            scene.text(
                x + 4.0,
                y - 6.0,
                &style.truncate(label, w.max(40.0)),
                style,
                INK,
            );
        }
    }

    for edge in canvas.edges() {
        let (Some(a), Some(b)) = (canvas.node(edge.from_node()), canvas.node(edge.to_node()))
        else {
            continue;
        };
        let (Some(ra), Some(rb)) = (a.rect(), b.rect()) else {
            continue;
        };
        let from_side = edge.from_side().unwrap_or_else(|| side_facing(&ra, &rb));
        let to_side = edge.to_side().unwrap_or_else(|| side_facing(&rb, &ra));
        let p0 = side_point(&ra, from_side, ox, oy);
        let p3 = side_point(&rb, to_side, ox, oy);
        let reach = ((p3.0 - p0.0).hypot(p3.1 - p0.1) / 3.0).clamp(20.0, 150.0);
        let p1 = push(p0, from_side, reach);
        let p2 = push(p3, to_side, reach);
        let color = canvas_color(edge.color()).unwrap_or_else(|| LINE.to_owned());
        scene.push(Item::Path {
            points: vec![p0, p1, p2, p3],
            curved: true,
            stroke: color,
            stroke_width: 2.0,
            arrow_start: edge.from_end() == End::Arrow,
            arrow_end: edge.to_end() == End::Arrow,
        });
        if let Some(label) = edge.label() {
            // The curve's midpoint, for a symmetric cubic.
            let mx = (p0.0 + 3.0 * p1.0 + 3.0 * p2.0 + p3.0) / 8.0;
            let my = (p0.1 + 3.0 * p1.1 + 3.0 * p2.1 + p3.1) / 8.0;
            let style = TextStyle::regular(12.0);
            let text = style.truncate(label, 200.0);
            let w = style.width(&text) + 8.0;
            scene.boxed(mx - w / 2.0, my - 10.0, w, 18.0, "#f6f6f6", "#f6f6f6");
            scene.push(Item::Text {
                x: mx,
                y: my + 3.0,
                text,
                style,
                color: MUTED.into(),
                anchor: Anchor::Middle,
            });
        }
    }

    for (i, r) in &rects {
        let node = &canvas.nodes()[*i];
        let (x, y, w, h) = at(r);
        let (heading, body) = match node.kind() {
            NodeKind::Group => continue,
            NodeKind::Text => (None, strip_frontmatter(node.text().unwrap_or(""))),
            NodeKind::File => {
                let file = node.file().unwrap_or("");
                let name = file.rsplit('/').next().unwrap_or(file);
                let sub = node.subpath().unwrap_or("");
                (Some(format!("{name}{sub}")), file.to_owned())
            }
            NodeKind::Link => (Some("Link".to_owned()), node.url().unwrap_or("").to_owned()),
            NodeKind::Other(t) => (Some(t.to_owned()), String::new()),
        };
        let accent = canvas_color(node.color());
        scene.push(Item::Rect {
            x,
            y,
            width: w,
            height: h,
            radius: 6.0,
            fill: Some(
                accent
                    .as_ref()
                    .map_or(CARD.to_owned(), |c| format!("{c}1f")),
            ),
            stroke: Some(accent.clone().unwrap_or_else(|| "#c8c8c8".to_owned())),
            stroke_width: 2.0,
            dashed: false,
        });
        let inner = (w - 2.0 * PADDING).max(10.0);
        let mut top = y + PADDING;
        let bottom = y + h - PADDING;
        if let Some(heading) = heading {
            let style = TextStyle::bold(14.0);
            if top + style.size <= bottom {
                top = scene.lines(
                    x + PADDING,
                    top,
                    &[style.truncate(&heading, inner)],
                    style,
                    INK,
                ) + 4.0;
            }
        }
        let style = TextStyle::regular(13.0);
        let room = ((bottom - top) / style.line_height()).floor().max(0.0) as usize;
        if room > 0 {
            let lines = style.wrap(body.trim(), inner, room);
            scene.lines(x + PADDING, top, &lines, style, INK);
        }
    }
    scene
}

fn side_point(r: &Rect, side: Side, ox: f64, oy: f64) -> (f32, f32) {
    let (cx, cy) = r.center();
    let (x, y) = match side {
        Side::Top => (cx, r.y),
        Side::Bottom => (cx, r.bottom()),
        Side::Left => (r.x, cy),
        Side::Right => (r.right(), cy),
    };
    ((x - ox) as f32, (y - oy) as f32)
}

fn push(p: (f32, f32), side: Side, by: f32) -> (f32, f32) {
    match side {
        Side::Top => (p.0, p.1 - by),
        Side::Bottom => (p.0, p.1 + by),
        Side::Left => (p.0 - by, p.1),
        Side::Right => (p.0 + by, p.1),
    }
}

/// Cards show what a person reads in Obsidian: the body without YAML frontmatter.
fn strip_frontmatter(text: &str) -> String {
    if let Some(rest) = text.strip_prefix("---\n")
        && let Some(end) = rest.find("\n---")
    {
        let after = &rest[end + 4..];
        return after.trim_start_matches(['\r', '\n']).to_owned();
    }
    text.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_presets_or_hex() {
        assert_eq!(canvas_color(Some("1")).as_deref(), Some("#e93147"));
        assert_eq!(canvas_color(Some("#aBc")).as_deref(), Some("#aabbcc"));
        assert_eq!(canvas_color(Some("#FF8800")).as_deref(), Some("#ff8800"));
        assert_eq!(canvas_color(Some("7")), None);
        assert_eq!(canvas_color(Some("red\" onload=\"x")), None);
        assert_eq!(canvas_color(None), None);
    }

    #[test]
    fn frontmatter_is_not_drawn() {
        assert_eq!(
            strip_frontmatter("---\nrole: assistant\n---\n\nFour."),
            "Four."
        );
        assert_eq!(strip_frontmatter("plain"), "plain");
    }
}
