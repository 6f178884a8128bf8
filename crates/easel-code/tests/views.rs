//! The three views of a small repository built from files: SVG snapshots, PNGs decoded and
//! checked for drawn text, `.canvas` twins parsed and their file nodes followed, and the
//! caps that keep big graphs readable.
#![allow(clippy::unwrap_used)]

use easel_canvas::{Canvas, NodeKind as CanvasKind};
use easel_code::views::{PNG_MAX_SIDE, png_scale};
use easel_code::{
    BoardCard, BoardView, BuildOptions, EvidenceCard, Graph, architecture_view, board_view, build,
    impact, impact_view, symbol_slug, write_view,
};
use std::path::Path;

const FILES: &[(&str, &str)] = &[
    ("app/__init__.py", ""),
    (
        "app/main.py",
        "from app.service import process_data\nfrom app.util.helpers import fmt\n\ndef main():\n    handle_request()\n\ndef handle_request():\n    print(fmt(process_data()))\n",
    ),
    (
        "app/service.py",
        "from app.models import User, validate\nfrom app.util.helpers import fmt\n\ndef process_data():\n    validate()\n    User().save()\n    return fmt(1)\n\nclass Service:\n    def run(self):\n        return process_data()\n\n    def stop(self):\n        pass\n",
    ),
    (
        "app/models.py",
        "from app.util.helpers import fmt\n\nclass User:\n    def save(self):\n        return fmt(self)\n\n    def load(self):\n        pass\n\ndef validate():\n    return True\n",
    ),
    ("app/util/__init__.py", ""),
    ("app/util/helpers.py", "def fmt(x):\n    return str(x)\n"),
    (
        "tests/test_service.py",
        "from app.service import process_data, Service\n\ndef test_process():\n    process_data()\n\ndef test_run():\n    Service().run()\n",
    ),
];

fn repo() -> (tempfile::TempDir, Graph) {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in FILES {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let built = build(dir.path(), &BuildOptions::default()).unwrap();
    (dir, built.graph)
}

/// Width, height and how many dark pixels (text, outlines) the PNG has.
fn decode(png: &[u8]) -> (u32, u32, usize) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    let channels = info.color_type.samples();
    let dark = buf
        .chunks(channels)
        .filter(|p| p[0] < 90 && p[1] < 90 && p[2] < 90)
        .count();
    (info.width, info.height, dark)
}

fn svg_size(svg: &str) -> (f32, f32) {
    let attr = |name: &str| -> f32 {
        let start = svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        let end = start + svg[start..].find('"').unwrap();
        svg[start..end].parse().unwrap()
    };
    (attr("width"), attr("height"))
}

/// The PNG is the SVG at the view scale, and text was drawn.
fn check_png(svg: &str, png: &[u8]) {
    let (w, h) = svg_size(svg);
    let scale = png_scale(w, h);
    let (pw, ph, dark) = decode(png);
    assert_eq!(
        (pw, ph),
        ((w * scale).ceil() as u32, (h * scale).ceil() as u32)
    );
    assert!(pw as f32 <= PNG_MAX_SIDE + 1.0 && ph as f32 <= PNG_MAX_SIDE + 1.0);
    assert!(dark > 2000, "text should leave dark pixels, found {dark}");
}

/// Every file node names a file that exists under `root`; returns the canvas.
fn check_canvas(text: &str, root: &Path) -> Canvas {
    let canvas = Canvas::parse(text).unwrap();
    let report = easel_canvas::validate(&canvas);
    assert!(report.is_valid(), "{report:?}");
    let files: Vec<&str> = canvas.nodes().iter().filter_map(|n| n.file()).collect();
    assert!(!files.is_empty(), "the canvas should point at files");
    for f in files {
        assert!(
            !f.starts_with('/'),
            "{f} should be relative to the repository"
        );
        assert!(root.join(f).is_file(), "{f} does not exist");
    }
    // In Obsidian too, cards do not cover each other, and a group holds whole cards.
    let rects: Vec<(bool, easel_canvas::Rect)> = canvas
        .nodes()
        .iter()
        .map(|n| (matches!(n.kind(), CanvasKind::Group), n.rect().unwrap()))
        .collect();
    let meet = |a: &easel_canvas::Rect, b: &easel_canvas::Rect| {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    };
    let inside = |a: &easel_canvas::Rect, g: &easel_canvas::Rect| {
        a.x >= g.x
            && a.y >= g.y
            && a.x + a.width <= g.x + g.width
            && a.y + a.height <= g.y + g.height
    };
    for (i, (ga, a)) in rects.iter().enumerate() {
        for (gb, b) in &rects[i + 1..] {
            let ok = match (ga, gb) {
                (false, false) => !meet(a, b),
                (true, false) => !meet(a, b) || inside(b, a),
                (false, true) => !meet(a, b) || inside(a, b),
                (true, true) => !meet(a, b) || inside(a, b) || inside(b, a),
            };
            assert!(ok, "{a:?} and {b:?} overlap");
        }
    }
    canvas
}

#[test]
fn architecture_of_a_small_repository() {
    let (dir, graph) = repo();
    let view = architecture_view(&graph).unwrap();
    assert_eq!(view.name, "architecture");
    insta::assert_snapshot!("architecture_svg", view.svg);
    check_png(&view.svg, &view.png);
    // Folders are groups, modules are file nodes inside them; imports are edges.
    let canvas = check_canvas(&view.canvas, dir.path());
    let groups: Vec<&str> = canvas
        .nodes()
        .iter()
        .filter(|n| matches!(n.kind(), CanvasKind::Group))
        .filter_map(|n| n.label())
        .collect();
    assert!(
        groups.contains(&"app/") && groups.contains(&"app/util/"),
        "{groups:?}"
    );
    assert!(
        canvas.edges().len() >= 5,
        "{} import edges",
        canvas.edges().len()
    );
    // The helper module is imported by three modules: a hub.
    assert!(view.svg.contains("hub: imported by 3"), "{}", view.svg);
}

#[test]
fn impact_of_a_function() {
    let (dir, graph) = repo();
    let imp = impact(&graph, "process_data", 2).unwrap();
    let view = impact_view(&graph, &imp).unwrap();
    assert_eq!(view.name, format!("impact_{}", symbol_slug(&imp.target.id)));
    insta::assert_snapshot!("impact_svg", view.svg);
    check_png(&view.svg, &view.png);
    let canvas = check_canvas(&view.canvas, dir.path());
    let labels: Vec<&str> = canvas.edges().iter().filter_map(|e| e.label()).collect();
    assert!(
        labels
            .iter()
            .all(|l| l.ends_with("call") || l.ends_with("calls")),
        "{labels:?}"
    );
    assert_eq!(labels.len(), imp.callers.len() + imp.callees.len());
    assert!(
        view.summary.contains("app.service.process_data"),
        "{}",
        view.summary
    );
}

#[test]
fn impact_of_a_class_lists_its_methods() {
    let (_dir, graph) = repo();
    let imp = impact(&graph, "Service", 1).unwrap();
    let view = impact_view(&graph, &imp).unwrap();
    assert!(view.svg.contains("2 methods"), "{}", view.svg);
    assert!(view.svg.contains("contains run, stop"), "{}", view.svg);
}

fn board<'a>(evidence: Vec<EvidenceCard<'a>>) -> BoardView<'a> {
    BoardView {
        focus: Some("app.service.process_data"),
        progress: Some((2, 5)),
        task: Some("Make process_data validate its input before saving"),
        claims: vec![
            BoardCard {
                id: "C1",
                kind: "hypothesis",
                text: "Changing process_data may break handle_request and the tests.",
                evidence: Some("E2"),
            },
            BoardCard {
                id: "C2",
                kind: "question",
                text: "Does validate handle empty input?",
                evidence: None,
            },
        ],
        evidence,
        decisions: vec![BoardCard {
            id: "D1",
            kind: "plan",
            text: "Add the check in process_data, then update test_process.",
            evidence: Some("E2"),
        }],
    }
}

#[test]
fn board_with_text_evidence() {
    let b = board(vec![
        EvidenceCard {
            id: "E1",
            kind: "architecture",
            symbol: None,
            summary: "7 modules in 4 folders",
            png: None,
            png_path: None,
        },
        EvidenceCard {
            id: "E2",
            kind: "impact",
            symbol: Some("process_data"),
            summary: "3 callers, 3 callees",
            png: None,
            png_path: None,
        },
    ]);
    let view = board_view(&b).unwrap();
    assert_eq!(view.name, "board");
    insta::assert_snapshot!("board_svg", view.svg);
    check_png(&view.svg, &view.png);
    let canvas = Canvas::parse(&view.canvas).unwrap();
    assert_eq!(canvas.edges().len(), 2, "C1 and D1 rest on E2");
}

#[test]
fn board_with_thumbnails_points_at_the_written_pictures() {
    let (dir, graph) = repo();
    let arch = architecture_view(&graph).unwrap();
    let imp = impact(&graph, "process_data", 2).unwrap();
    let imp_view = impact_view(&graph, &imp).unwrap();
    let arch_files = write_view(dir.path(), &arch).unwrap();
    let imp_files = write_view(dir.path(), &imp_view).unwrap();
    for f in [
        &arch_files.png,
        &arch_files.svg,
        &arch_files.canvas,
        &imp_files.png,
    ] {
        assert!(f.is_file(), "{}", f.display());
    }
    assert_eq!(std::fs::read(&arch_files.png).unwrap(), arch.png);
    let arch_path = arch.png_path();
    assert_eq!(arch_path, ".codecanvas/architecture.png");
    let imp_path = format!(".codecanvas/{}.png", imp_view.name);
    let b = board(vec![
        EvidenceCard {
            id: "E1",
            kind: "architecture",
            symbol: None,
            summary: &arch.summary,
            png: Some(&arch.png),
            png_path: Some(&arch_path),
        },
        EvidenceCard {
            id: "E2",
            kind: "impact",
            symbol: Some("process_data"),
            summary: &imp_view.summary,
            png: Some(&imp_view.png),
            png_path: Some(&imp_path),
        },
    ]);
    let view = board_view(&b).unwrap();
    assert_eq!(view.svg.matches("<image ").count(), 2);
    check_png(&view.svg, &view.png);
    let canvas = check_canvas(&view.canvas, dir.path());
    let files: Vec<&str> = canvas.nodes().iter().filter_map(|n| n.file()).collect();
    assert_eq!(files, [arch_path.as_str(), imp_path.as_str()]);
    let written = write_view(dir.path(), &view).unwrap();
    assert!(written.canvas.ends_with(".codecanvas/board.canvas"));
}

#[test]
fn unreadable_thumbnails_are_reported_on_the_card() {
    let b = board(vec![EvidenceCard {
        id: "E2",
        kind: "impact",
        symbol: None,
        summary: "s",
        png: Some(b"not a png"),
        png_path: None,
    }]);
    let view = board_view(&b).unwrap();
    assert!(view.svg.contains("picture unreadable"), "{}", view.svg);
}

#[test]
fn view_names_that_leave_the_folder_are_refused() {
    let (dir, graph) = repo();
    let mut view = architecture_view(&graph).unwrap();
    for bad in ["../escape", "", ".hidden", "a/b"] {
        view.name = bad.to_owned();
        let err = write_view(dir.path(), &view).unwrap_err();
        assert!(
            matches!(err, easel_code::CodeError::ViewName { .. }),
            "{bad}: {err}"
        );
        assert!(!err.hint().is_empty());
    }
}

/// A repository of `modules` modules in 20 folders, each importing the next three and
/// calling into a shared `core` function.
fn big_graph(modules: usize) -> Graph {
    let mut files: Vec<(String, String)> = Vec::new();
    files.push(("core/base.py".into(), "def hot():\n    pass\n".into()));
    for i in 0..modules {
        let mut src = String::from("from core.base import hot\n");
        for k in 1..=3 {
            let j = (i + k) % modules;
            src.push_str(&format!("from pkg{}.mod{j} import f{j}\n", j % 20));
        }
        src.push_str(&format!(
            "\ndef f{i}():\n    hot()\n\nclass C{i}:\n    def m(self):\n        hot()\n"
        ));
        files.push((format!("pkg{}/mod{i}.py", i % 20), src));
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    easel_code::graph_from_sources(&refs).unwrap()
}

#[test]
fn big_graphs_are_capped_and_say_what_they_left_out() {
    let graph = big_graph(400);
    let arch = architecture_view(&graph).unwrap();
    check_png(&arch.svg, &arch.png);
    assert!(
        arch.svg.contains("showing the 30 most connected"),
        "{}",
        arch.summary
    );
    let file_nodes = Canvas::parse(&arch.canvas)
        .unwrap()
        .nodes()
        .iter()
        .filter(|n| n.file().is_some())
        .count();
    assert_eq!(file_nodes, 30);

    let imp = impact(&graph, "hot", 1).unwrap();
    assert_eq!(imp.callers.len(), 800);
    let view = impact_view(&graph, &imp).unwrap();
    check_png(&view.svg, &view.png);
    let canvas = Canvas::parse(&view.canvas).unwrap();
    // Target, at most 8 caller boxes, the "no callees" box.
    let cards = canvas
        .nodes()
        .iter()
        .filter(|n| !matches!(n.kind(), CanvasKind::Group))
        .count();
    assert!(cards <= 1 + 8 + 1 + 2, "{cards} cards");
    assert!(
        view.svg.contains("+"),
        "an aggregate box says how many more"
    );
    assert!(view.svg.contains("800"), "the caller count is shown");
}
