//! A PyCG-style suite for the Python resolver: tiny programs by category (arguments,
//! assignments, builtins, classes, decorators, dicts, ...), each with its whole expected call
//! graph in the shape call-graph tools exchange (`{"caller": ["callee", ...]}`, every module
//! and function a key, builtins as `<builtin>.name`, library calls as `module.name`).
//!
//! A case is one file `tests/pycg/<category>/<case>.case`: `--- path` starts a source file,
//! `=== callgraph` is followed by the expected graph as a JSON object. The graph we build is
//! turned into that shape by [`easel_codegraph::call_graph`], the same function behind
//! `easel code graph --callgraph`, and scored edge by edge: precision and recall per category
//! and overall. Each suite is gated at what it measures (see `GATES`).
//! `tests/pycg-heldout` holds more cases in the same format, written without looking at the
//! resolver and scored the same way; `tests/pycg-heldout2` is a second such set, written later,
//! `tests/pycg-heldout3` a third, written after the first two had been used for tuning, and
//! `tests/pycg-heldout4` a fourth, written after all the others had been used for tuning.
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each suite is held to what it measures today, a hair below (less than one edge): a change
/// that loses one right edge or adds one wrong edge in a suite fails, rather than passing under
/// the aims for the published benchmark (95% precision, 85% recall), far below what the
/// suites measure. A change that gains edges raises its suite's line here.
const GATES: &[(&str, f64, f64)] = &[
    // Measured: 501 of 502 edges right, 501 of 503 found.
    ("tests/pycg", 0.9975, 0.9955),
    // 221 of 221 right, 221 of 223 found.
    ("tests/pycg-heldout", 0.9995, 0.9905),
    // 153 of 155 right, 153 of 156 found.
    ("tests/pycg-heldout2", 0.9865, 0.9805),
    // 187 of 188 right, 187 of 194 found.
    ("tests/pycg-heldout3", 0.9942, 0.9635),
    // 145 of 145 right, all found.
    ("tests/pycg-heldout4", 0.9995, 0.9995),
];

type Edges = BTreeSet<(String, String)>;

struct Case {
    files: Vec<(String, String)>,
    expected: BTreeMap<String, Vec<String>>,
}

fn parse_case(name: &str, text: &str) -> Case {
    let mut files: Vec<(String, String)> = Vec::new();
    let mut json = String::new();
    let mut in_json = false;
    for line in text.lines() {
        if let Some(path) = line.strip_prefix("--- ") {
            files.push((path.trim().to_string(), String::new()));
            in_json = false;
        } else if line.trim() == "=== callgraph" {
            in_json = true;
        } else if in_json {
            json.push_str(line);
            json.push('\n');
        } else if let Some(f) = files.last_mut() {
            f.1.push_str(line);
            f.1.push('\n');
        }
    }
    let expected = serde_json::from_str(&json)
        .unwrap_or_else(|e| panic!("{name}: the expected call graph is not JSON: {e}"));
    Case { files, expected }
}

fn edges(g: &BTreeMap<String, Vec<String>>) -> Edges {
    g.iter()
        .flat_map(|(k, vs)| vs.iter().map(move |v| (k.clone(), v.clone())))
        .collect()
}

#[derive(Default, Clone, Copy)]
struct Score {
    tp: usize,
    fp: usize,
    fn_: usize,
}

impl Score {
    fn add(&mut self, o: Score) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
    }
    fn precision(&self) -> f64 {
        if self.tp + self.fp == 0 {
            1.0
        } else {
            self.tp as f64 / (self.tp + self.fp) as f64
        }
    }
    fn recall(&self) -> f64 {
        if self.tp + self.fn_ == 0 {
            1.0
        } else {
            self.tp as f64 / (self.tp + self.fn_) as f64
        }
    }
}

fn run_case(path: &Path, failures: &mut Vec<String>) -> Score {
    let name = format!(
        "{}/{}",
        path.parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy(),
        path.file_stem().unwrap().to_string_lossy()
    );
    let case = parse_case(&name, &std::fs::read_to_string(path).unwrap());
    let tmp = tempfile::tempdir().unwrap();
    for (p, src) in &case.files {
        let full = tmp.path().join(p);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, src).unwrap();
    }
    let built =
        easel_codegraph::build(tmp.path(), &easel_codegraph::BuildOptions::default()).unwrap();
    assert!(built.problems.is_empty(), "{name}: {:?}", built.problems);
    let got_graph = easel_codegraph::call_graph(&built.graph);
    let (got, want) = (edges(&got_graph), edges(&case.expected));
    let wrong: Vec<_> = got.difference(&want).collect();
    let missed: Vec<_> = want.difference(&got).collect();
    let missing_nodes: Vec<_> = case
        .expected
        .keys()
        .filter(|k| !got_graph.contains_key(*k))
        .collect();
    if !wrong.is_empty() || !missed.is_empty() || !missing_nodes.is_empty() {
        failures.push(format!(
            "{name}: wrong {wrong:?}, missed {missed:?}, nodes missing {missing_nodes:?}"
        ));
    }
    Score {
        tp: got.intersection(&want).count(),
        fp: wrong.len(),
        fn_: missed.len(),
    }
}

#[test]
fn pycg_style_suite() {
    score_suite("tests/pycg");
}

/// Cases written apart from the resolver, without reading it, their expected graphs taken
/// from running each program (`tests/pycg-heldout/trace.py`): an honest estimate of the
/// score on the published benchmark, held to the same aims.
#[test]
fn pycg_heldout_suite() {
    score_suite("tests/pycg-heldout");
}

/// A second held-out set, written later and apart from the resolver and the first two suites
/// (3 cases per category of the published benchmark), its graphs from the same tracer.
#[test]
fn pycg_heldout2_suite() {
    score_suite("tests/pycg-heldout2");
}

/// A third held-out set (3 cases per category), written apart from the resolver and the other
/// suites once those had been used to tune it, its graphs from the same tracer.
#[test]
fn pycg_heldout3_suite() {
    score_suite("tests/pycg-heldout3");
}

/// A fourth held-out set (3 typical cases per category), written apart from the resolver and
/// the other suites once all of those had been used to tune it, its graphs from the same tracer.
#[test]
fn pycg_heldout4_suite() {
    score_suite("tests/pycg-heldout4");
}

fn score_suite(folder: &str) {
    let Some(&(_, min_precision, min_recall)) = GATES.iter().find(|(f, ..)| *f == folder) else {
        panic!("{folder} has no gate in GATES");
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut categories: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    categories.sort();
    let mut total = Score::default();
    let mut failures = Vec::new();
    let mut table = vec![format!(
        "{:<14} {:>5} {:>6} {:>9} {:>7}",
        "category", "cases", "edges", "precision", "recall"
    )];
    let mut cases_total = 0;
    for dir in categories {
        let mut cases: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "case"))
            .collect();
        cases.sort();
        let mut score = Score::default();
        for c in &cases {
            score.add(run_case(c, &mut failures));
        }
        cases_total += cases.len();
        total.add(score);
        table.push(format!(
            "{:<14} {:>5} {:>6} {:>9.3} {:>7.3}",
            dir.file_name().unwrap().to_string_lossy(),
            cases.len(),
            score.tp + score.fn_,
            score.precision(),
            score.recall()
        ));
    }
    table.push(format!(
        "{:<14} {:>5} {:>6} {:>9.3} {:>7.3}",
        "all",
        cases_total,
        total.tp + total.fn_,
        total.precision(),
        total.recall()
    ));
    eprintln!("{folder}\n{}", table.join("\n"));
    for f in &failures {
        eprintln!("  {f}");
    }
    assert!(
        total.precision() >= min_precision && total.recall() >= min_recall,
        "precision {:.4} (min {min_precision}), recall {:.4} (min {min_recall})\n{}",
        total.precision(),
        total.recall(),
        failures.join("\n")
    );
}
