//! The views' side of easel-layout's `layered`: boxes sized in the drawing's `f32` pixels,
//! placed inside a margin, with the size of the whole picture.

use easel_layout::{Direction, Graph, LayeredOptions};

/// The size of a box to place.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Size {
    pub width: f32,
    pub height: f32,
}

/// Spacing of a layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LayoutOptions {
    /// Space between boxes of one layer.
    pub node_gap: f32,
    /// Space between layers.
    pub layer_gap: f32,
    /// Space around the whole drawing.
    pub margin: f32,
}

/// Where a box went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Placed {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

/// One box per input node, one route per input edge (source to target, through the layers
/// in between; empty for a self-loop), and the size of the picture, margins included.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Layout {
    pub nodes: Vec<Placed>,
    pub routes: Vec<Vec<(f32, f32)>>,
    pub width: f32,
    pub height: f32,
}

/// Top-down layers chosen along the edges.
pub(crate) fn layered(nodes: &[Size], edges: &[(usize, usize)], options: &LayoutOptions) -> Layout {
    run(nodes, edges, None, options)
}

/// Top-down, with the caller's layer for each node (layer 0 on top); edges may go up, down or
/// within a layer.
pub(crate) fn layered_with_layers(
    nodes: &[Size],
    edges: &[(usize, usize)],
    layers: &[usize],
    options: &LayoutOptions,
) -> Layout {
    run(nodes, edges, Some(layers.to_vec()), options)
}

fn run(
    nodes: &[Size],
    edges: &[(usize, usize)],
    ranks: Option<Vec<usize>>,
    options: &LayoutOptions,
) -> Layout {
    let graph = Graph {
        sizes: nodes
            .iter()
            .map(|s| (f64::from(s.width), f64::from(s.height)))
            .collect(),
        edges: edges.to_vec(),
    };
    let out = easel_layout::layered(
        &graph,
        &LayeredOptions {
            direction: Direction::Down,
            spacing: f64::from(options.node_gap),
            rank_gap: Some(f64::from(options.layer_gap)),
            ranks,
            // The views draw each edge along its route, around the boxes.
            straight_edges: false,
        },
    );
    let m = options.margin;
    let at = |(x, y): (f64, f64)| (x as f32 + m, y as f32 + m);
    let placed: Vec<Placed> = out
        .positions
        .iter()
        .zip(nodes)
        .map(|(&p, s)| {
            let (x, y) = at(p);
            Placed {
                x,
                y,
                width: s.width.max(0.0),
                height: s.height.max(0.0),
            }
        })
        .collect();
    let routes: Vec<Vec<(f32, f32)>> = out
        .routes
        .iter()
        .map(|r| r.iter().map(|&p| at(p)).collect())
        .collect();
    let corners = placed
        .iter()
        .map(|p| (p.x + p.width, p.y + p.height))
        .chain(routes.iter().flatten().copied());
    let (right, bottom) = corners.fold((m, m), |(w, h), (x, y)| (w.max(x), h.max(y)));
    Layout {
        nodes: placed,
        routes,
        width: right + m,
        height: bottom + m,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_sit_inside_the_margin_and_the_picture() {
        let sizes = [
            Size {
                width: 80.0,
                height: 30.0,
            },
            Size {
                width: 120.0,
                height: 40.0,
            },
            Size {
                width: 60.0,
                height: 30.0,
            },
        ];
        let options = LayoutOptions {
            node_gap: 24.0,
            layer_gap: 56.0,
            margin: 16.0,
        };
        let layout = layered(&sizes, &[(0, 1), (0, 2), (2, 2)], &options);
        for p in &layout.nodes {
            assert!(p.x >= 16.0 && p.y >= 16.0, "{p:?}");
            assert!(
                p.x + p.width <= layout.width - 16.0 + 1e-3,
                "{p:?} {layout:?}"
            );
            assert!(
                p.y + p.height <= layout.height - 16.0 + 1e-3,
                "{p:?} {layout:?}"
            );
        }
        assert!(layout.nodes[0].y + 30.0 + 56.0 <= layout.nodes[1].y + 1e-3);
        assert_eq!(layout.routes[0].len(), 2);
        assert!(layout.routes[2].is_empty());
    }
}
