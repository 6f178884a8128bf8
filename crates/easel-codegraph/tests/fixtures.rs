//! Ground truth: small programs per language with their exact call edges, scored for
//! precision and recall.
//!
//! A case is one `.case` file under `tests/fixtures/<lang>/`: `--- path` starts a source file,
//! `=== calls` lists the expected call edges as `caller -> callee` (qualified names), and the
//! optional `=== unresolved` lists `caller name` pairs that must stay unresolved, and the
//! optional `=== builtins` lists `caller name` pairs that must be counted as calls to the
//! language's builtins (and so must not be unresolved).
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::path::Path;

struct Case {
    name: String,
    files: Vec<(String, String)>,
    calls: BTreeSet<(String, String)>,
    unresolved: BTreeSet<(String, String)>,
    builtins: BTreeSet<(String, String)>,
}

fn parse_case(name: &str, text: &str) -> Case {
    let mut case = Case {
        name: name.to_string(),
        files: Vec::new(),
        calls: BTreeSet::new(),
        unresolved: BTreeSet::new(),
        builtins: BTreeSet::new(),
    };
    let mut section = "";
    for line in text.lines() {
        if let Some(path) = line.strip_prefix("--- ") {
            case.files.push((path.trim().to_string(), String::new()));
            section = "file";
        } else if let Some(s) = line.strip_prefix("=== ") {
            section = match s.trim() {
                "calls" => "calls",
                "builtins" => "builtins",
                _ => "unresolved",
            };
        } else {
            match section {
                "file" => {
                    let f = case.files.last_mut().unwrap();
                    f.1.push_str(line);
                    f.1.push('\n');
                }
                "calls" if !line.trim().is_empty() => {
                    let (a, b) = line
                        .split_once(" -> ")
                        .unwrap_or_else(|| panic!("{name}: bad edge {line:?}"));
                    case.calls
                        .insert((a.trim().to_string(), b.trim().to_string()));
                }
                "unresolved" if !line.trim().is_empty() => {
                    let (a, b) = line.trim().split_once(' ').unwrap();
                    case.unresolved.insert((a.to_string(), b.to_string()));
                }
                "builtins" if !line.trim().is_empty() => {
                    let (a, b) = line.trim().split_once(' ').unwrap();
                    case.builtins.insert((a.to_string(), b.to_string()));
                }
                _ => {}
            }
        }
    }
    case
}

struct Score {
    tp: usize,
    fp: usize,
    fn_: usize,
}

fn run_lang(lang: &str) -> (Score, Vec<String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(lang);
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    let mut score = Score {
        tp: 0,
        fp: 0,
        fn_: 0,
    };
    let mut report = Vec::new();
    for p in entries {
        if p.extension().and_then(|e| e.to_str()) != Some("case") {
            continue;
        }
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        let case = parse_case(&name, &std::fs::read_to_string(&p).unwrap());
        let tmp = tempfile::tempdir().unwrap();
        for (path, src) in &case.files {
            let full = tmp.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, src).unwrap();
        }
        let built =
            easel_codegraph::build(tmp.path(), &easel_codegraph::BuildOptions::default()).unwrap();
        assert!(built.problems.is_empty(), "{name}: {:?}", built.problems);
        let got: BTreeSet<(String, String)> = built.graph.call_pairs().into_iter().collect();
        let tp = got.intersection(&case.calls).count();
        let fp: Vec<_> = got.difference(&case.calls).collect();
        let missed: Vec<_> = case.calls.difference(&got).collect();
        score.tp += tp;
        score.fp += fp.len();
        score.fn_ += missed.len();
        if !fp.is_empty() || !missed.is_empty() {
            report.push(format!(
                "{lang}/{}: wrong {fp:?}, missed {missed:?}",
                case.name
            ));
        }
        let qual: std::collections::HashMap<&str, &str> = built
            .graph
            .nodes
            .iter()
            .map(|n| (n.id.as_str(), n.qualname.as_str()))
            .collect();
        let pairs = |us: &[easel_codegraph::Unresolved]| -> BTreeSet<(String, String)> {
            us.iter()
                .map(|u| (qual[u.from.as_str()].to_string(), u.name.clone()))
                .collect()
        };
        let unresolved = pairs(&built.graph.unresolved);
        let builtins = pairs(&built.graph.builtin_calls);
        for b in &case.builtins {
            if !builtins.contains(b) || unresolved.contains(b) {
                report.push(format!(
                    "{lang}/{}: expected {b:?} as a builtin call, have builtins {builtins:?}",
                    case.name
                ));
            }
        }
        for u in &case.unresolved {
            if !unresolved.contains(u) {
                report.push(format!(
                    "{lang}/{}: expected {u:?} unresolved, have {unresolved:?}",
                    case.name
                ));
            }
        }
    }
    (score, report)
}

fn check(lang: &str, min_precision: f64, min_recall: f64) {
    let (s, report) = run_lang(lang);
    let precision = s.tp as f64 / (s.tp + s.fp).max(1) as f64;
    let recall = s.tp as f64 / (s.tp + s.fn_).max(1) as f64;
    eprintln!(
        "{lang}: precision {precision:.3}, recall {recall:.3} ({} edges)",
        s.tp + s.fn_
    );
    for r in &report {
        eprintln!("  {r}");
    }
    assert!(s.tp + s.fn_ > 0, "{lang}: no expected edges");
    assert!(
        precision >= min_precision && recall >= min_recall,
        "{lang}: precision {precision:.3} (min {min_precision}), recall {recall:.3} (min {min_recall})\n{}",
        report.join("\n")
    );
    assert!(
        report.iter().all(|r| !r.contains("unresolved")),
        "{}",
        report.join("\n")
    );
}

#[test]
fn python() {
    check("python", 1.0, 1.0);
}

#[test]
fn javascript() {
    check("javascript", 1.0, 1.0);
}

#[test]
fn typescript() {
    check("typescript", 1.0, 1.0);
}

#[test]
fn go() {
    check("go", 1.0, 1.0);
}

#[test]
fn rust() {
    check("rust", 1.0, 1.0);
}

#[test]
fn java() {
    check("java", 1.0, 1.0);
}

#[test]
fn c_lang() {
    check("c", 1.0, 1.0);
}

#[test]
fn cpp() {
    check("cpp", 1.0, 1.0);
}

#[test]
fn ruby() {
    check("ruby", 1.0, 1.0);
}

#[test]
fn csharp() {
    check("csharp", 1.0, 1.0);
}

#[test]
fn bash() {
    check("bash", 1.0, 1.0);
}
