//! Synthetic canvases for benchmarks and load tests (not for production use).

use crate::model::Canvas;

/// A canvas with `nodes` nodes of mixed types on a grid and about `nodes` edges between
/// neighbours, in Obsidian's layout: what a large real-world board looks like to the parser.
pub fn grid_canvas(nodes: usize) -> String {
    let cols = (nodes as f64).sqrt().ceil().max(1.0) as usize;
    let mut out = String::with_capacity(nodes * 220);
    out.push_str("{\n\t\"nodes\":[");
    for i in 0..nodes {
        out.push_str(if i == 0 { "\n\t\t" } else { ",\n\t\t" });
        let (x, y) = ((i % cols) as i64 * 300, (i / cols) as i64 * 200);
        let id = format!("{:016x}", i as u64 * 0x9e37_79b9 + 1);
        match i % 4 {
            0 => out.push_str(&format!(r#"{{"id":"{id}","type":"text","text":"Note {i}\nwith **markdown** and a second line","x":{x},"y":{y},"width":250,"height":120}}"#)),
            1 => out.push_str(&format!(r##"{{"id":"{id}","type":"file","file":"notes/Note {i}.md","subpath":"#Heading","x":{x},"y":{y},"width":250,"height":120,"color":"4"}}"##)),
            2 => out.push_str(&format!(r#"{{"id":"{id}","type":"link","url":"https://example.com/{i}","x":{x},"y":{y},"width":250,"height":120}}"#)),
            _ => out.push_str(&format!(r##"{{"id":"{id}","type":"text","text":"Card {i}","x":{x},"y":{y},"width":250,"height":120,"color":"#ff8800","styleAttributes":{{"shape":"pill"}}}}"##)),
        }
    }
    out.push_str("\n\t],\n\t\"edges\":[");
    for i in 1..nodes {
        out.push_str(if i == 1 { "\n\t\t" } else { ",\n\t\t" });
        let from = format!("{:016x}", (i - 1) as u64 * 0x9e37_79b9 + 1);
        let to = format!("{:016x}", i as u64 * 0x9e37_79b9 + 1);
        out.push_str(&format!(
            r#"{{"id":"e{i:015x}","fromNode":"{from}","fromSide":"right","toNode":"{to}","toSide":"left"}}"#
        ));
    }
    out.push_str(if nodes > 1 { "\n\t]\n}" } else { "]\n}" });
    out
}

/// [`grid_canvas`], parsed.
pub fn grid(nodes: usize) -> Canvas {
    match Canvas::parse(&grid_canvas(nodes)) {
        Ok(c) => c,
        // The generator writes valid JSON by construction.
        Err(e) => unreachable!("synthetic canvas does not parse: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthetic_canvases_are_valid_and_in_layout() {
        for n in [1, 2, 100] {
            let text = grid_canvas(n);
            let c = Canvas::parse(&text).unwrap();
            assert_eq!(c.nodes().len(), n);
            assert_eq!(c.to_obsidian_string(), text, "{n}");
            assert!(
                crate::validate(&c).is_valid(),
                "{n}: {:?}",
                crate::validate(&c)
            );
        }
    }
}
