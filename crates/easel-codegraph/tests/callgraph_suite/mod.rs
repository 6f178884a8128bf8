//! What the call-graph suites share (`python_callgraph.rs`, `js_callgraph.rs`): reading a case
//! (`--- path` starts a source file, `=== callgraph` is followed by the expected graph as JSON),
//! building its graph, and scoring a folder of categories edge by edge against its gate.
#![allow(dead_code, clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

pub type Edges = BTreeSet<(String, String)>;
pub type Graph = BTreeMap<String, Vec<String>>;

/// How a suite is scored.
pub struct Suite {
    /// `(folder, minimum precision, minimum recall)` for every suite of the test file.
    pub gates: &'static [(&'static str, f64, f64)],
    /// Which of our edges count: all of them, or only those between the case's own modules and
    /// functions (when the expected graphs leave builtins and packages out).
    pub scored: fn(&Graph, &Graph) -> Edges,
    /// Whether a case the engine reports problems for fails the test outright.
    pub problems_fail: bool,
}

struct Case {
    files: Vec<(String, String)>,
    expected: Graph,
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

pub fn edges(g: &Graph) -> Edges {
    g.iter()
        .flat_map(|(k, vs)| vs.iter().map(move |v| (k.clone(), v.clone())))
        .collect()
}

/// Our edges between the case's own modules and functions (a key of either graph).
pub fn own_edges(got: &Graph, expected: &Graph) -> Edges {
    let names: BTreeSet<&String> = got.keys().chain(expected.keys()).collect();
    edges(got)
        .into_iter()
        .filter(|(a, b)| names.contains(a) && names.contains(b))
        .collect()
}

/// Every edge of ours.
pub fn all_edges(got: &Graph, _expected: &Graph) -> Edges {
    edges(got)
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

fn run_case(suite: &Suite, path: &Path, failures: &mut Vec<String>) -> Score {
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
    if !built.problems.is_empty() {
        assert!(!suite.problems_fail, "{name}: {:?}", built.problems);
        failures.push(format!("{name}: problems {:?}", built.problems));
    }
    let got_graph = easel_codegraph::call_graph(&built.graph);
    let (got, want) = (
        (suite.scored)(&got_graph, &case.expected),
        edges(&case.expected),
    );
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

fn row(label: &str, cases: usize, s: Score) -> String {
    format!(
        "{label:<18} {cases:>5} {:>6} {:>9.3} {:>7.3}",
        s.tp + s.fn_,
        s.precision(),
        s.recall()
    )
}

/// Scores every case under `folder` (one subfolder a category), prints a table per category
/// and what each case got wrong, and fails below the folder's gate.
pub fn score_suite(suite: &Suite, folder: &str) {
    let Some(&(_, min_precision, min_recall)) = suite.gates.iter().find(|(f, ..)| *f == folder)
    else {
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
        "{:<18} {:>5} {:>6} {:>9} {:>7}",
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
            score.add(run_case(suite, c, &mut failures));
        }
        cases_total += cases.len();
        total.add(score);
        table.push(row(
            &dir.file_name().unwrap().to_string_lossy(),
            cases.len(),
            score,
        ));
    }
    table.push(row("all", cases_total, total));
    eprintln!("{folder}\n{}", table.join("\n"));
    for f in &failures {
        eprintln!("  {f}");
    }
    eprintln!(
        "{folder}: {} of {} edges right, {} of {} found",
        total.tp,
        total.tp + total.fp,
        total.tp,
        total.tp + total.fn_
    );
    assert!(
        total.precision() >= min_precision && total.recall() >= min_recall,
        "precision {:.4} (min {min_precision}), recall {:.4} (min {min_recall})\n{}",
        total.precision(),
        total.recall(),
        failures.join("\n")
    );
}
