//! Compares `layered` with Graphviz `dot` on graphs prepared by `scripts/bench-layout.py`:
//! the same boxes and edges, both measured as JSON Canvas draws edges.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use easel_canvas::Rect;
use easel_layout::metrics::{MBox, MEdge, measure};
use easel_layout::{
    Algo, Direction, Graph, Metrics, Options, RankKind, RankSet, place_ranked, sides_for,
};
use std::time::{Duration, Instant};

fn metrics(rects: &[Rect], edges: &[(usize, usize)], direction: Direction) -> Metrics {
    let boxes: Vec<MBox> = rects
        .iter()
        .map(|&rect| MBox { rect, group: false })
        .collect();
    let edges: Vec<MEdge> = edges
        .iter()
        .filter(|(a, b)| a != b)
        .map(|&(from, to)| {
            let (from_side, to_side) = sides_for(&rects[from], &rects[to], Some(direction));
            MEdge {
                from,
                to,
                from_side,
                to_side,
            }
        })
        .collect();
    measure(&boxes, &edges)
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: graphviz_bench GRAPHS.json");
    let text = std::fs::read_to_string(path).expect("readable graphs");
    let graphs: serde_json::Value = serde_json::from_str(&text).expect("JSON graphs");
    let mut total = [Metrics::default(), Metrics::default()];
    let mut took = Duration::ZERO;
    let mut count = 0;
    let mut inputs = Vec::new();
    println!(
        "| graph | nodes | edges | crossings dot / easel | through nodes dot / easel | overlaps dot / easel | edge length dot / easel | area dot / easel |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for g in graphs.as_array().expect("a list") {
        let nodes = g["nodes"].as_array().unwrap();
        let sizes: Vec<(f64, f64)> = nodes
            .iter()
            .map(|n| (n["w"].as_f64().unwrap(), n["h"].as_f64().unwrap()))
            .collect();
        let edges: Vec<(usize, usize)> = g["edges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e[0].as_u64().unwrap() as usize,
                    e[1].as_u64().unwrap() as usize,
                )
            })
            .collect();
        // Subgraphs' `rank` constraints, as [kind, [node indices]].
        let sets: Vec<RankSet<usize>> = g["ranks"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .map(|r| RankSet {
                kind: r[0].as_str().unwrap().parse::<RankKind>().unwrap(),
                members: r[1]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_u64().unwrap() as usize)
                    .collect(),
            })
            .collect();
        let direction = if g["right"].as_bool().unwrap_or(false) {
            Direction::Right
        } else {
            Direction::Down
        };
        let dot: Vec<Rect> = nodes
            .iter()
            .zip(&sizes)
            .map(|(n, &(w, h))| Rect::new(n["x"].as_f64().unwrap(), n["y"].as_f64().unwrap(), w, h))
            .collect();
        let graph = Graph {
            sizes: sizes.clone(),
            edges: edges.clone(),
        };
        // dot's own gaps: nodesep 0.25 in.
        let options = Options {
            algo: Algo::Layered,
            direction,
            spacing: 18.0,
        };
        let start = Instant::now();
        let placed = place_ranked(&graph, &options, &sets);
        took += start.elapsed();
        inputs.push((graph, options, sets));
        let ours: Vec<Rect> = placed
            .positions
            .iter()
            .zip(&sizes)
            .map(|(&(x, y), &(w, h))| Rect::new(x, y, w, h))
            .collect();
        let m = [
            metrics(&dot, &edges, direction),
            metrics(&ours, &edges, direction),
        ];
        println!(
            "| {} | {} | {} | {} / {} | {} / {} | {} / {} | {:.0} / {:.0} | {:.2e} / {:.2e} |",
            g["name"].as_str().unwrap_or("?"),
            sizes.len(),
            edges.len(),
            m[0].crossings,
            m[1].crossings,
            m[0].edge_node_overlaps,
            m[1].edge_node_overlaps,
            m[0].node_overlaps,
            m[1].node_overlaps,
            m[0].edge_length,
            m[1].edge_length,
            m[0].area,
            m[1].area,
        );
        for (t, m) in total.iter_mut().zip(m) {
            t.crossings += m.crossings;
            t.edge_node_overlaps += m.edge_node_overlaps;
            t.node_overlaps += m.node_overlaps;
            t.edge_length += m.edge_length;
            t.area += m.area;
        }
        count += 1;
    }
    println!(
        "| **all {count}** | | | **{} / {}** | **{} / {}** | **{} / {}** | {:.0} / {:.0} | {:.2e} / {:.2e} |",
        total[0].crossings,
        total[1].crossings,
        total[0].edge_node_overlaps,
        total[1].edge_node_overlaps,
        total[0].node_overlaps,
        total[1].node_overlaps,
        total[0].edge_length,
        total[1].edge_length,
        total[0].area,
        total[1].area,
    );
    println!(
        "\neasel-layout layered: {count} graphs laid out in {:.1} ms",
        took.as_secs_f64() * 1000.0
    );
    // The machine is shared, so wall-clock time says more about the others' load than about
    // the layout; the process's CPU time over repeated runs does not.
    const RUNS: u32 = 10;
    if let Some(before) = cpu_ticks() {
        for _ in 0..RUNS {
            for (graph, options, sets) in &inputs {
                std::hint::black_box(place_ranked(graph, options, sets));
            }
        }
        if let Some(after) = cpu_ticks() {
            // Linux counts CPU time in ticks of 10 ms.
            let ms = (after - before) as f64 * 10.0 / f64::from(RUNS);
            println!(
                "easel-layout layered: {count} graphs take {ms:.0} ms of CPU (mean of {RUNS} runs)"
            );
        }
    }
}

/// User plus system CPU time of this process so far, in clock ticks (Linux only).
fn cpu_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}
