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

mod callgraph_suite;

use callgraph_suite::{Suite, score_suite};

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

const SUITE: Suite = Suite {
    gates: GATES,
    scored: callgraph_suite::all_edges,
    problems_fail: true,
};

#[test]
fn pycg_style_suite() {
    score_suite(&SUITE, "tests/pycg");
}

/// Cases written apart from the resolver, without reading it, their expected graphs taken
/// from running each program (`tests/pycg-heldout/trace.py`): an honest estimate of the
/// score on the published benchmark, held to the same aims.
#[test]
fn pycg_heldout_suite() {
    score_suite(&SUITE, "tests/pycg-heldout");
}

/// A second held-out set, written later and apart from the resolver and the first two suites
/// (3 cases per category of the published benchmark), its graphs from the same tracer.
#[test]
fn pycg_heldout2_suite() {
    score_suite(&SUITE, "tests/pycg-heldout2");
}

/// A third held-out set (3 cases per category), written apart from the resolver and the other
/// suites once those had been used to tune it, its graphs from the same tracer.
#[test]
fn pycg_heldout3_suite() {
    score_suite(&SUITE, "tests/pycg-heldout3");
}

/// A fourth held-out set (3 typical cases per category), written apart from the resolver and
/// the other suites once all of those had been used to tune it, its graphs from the same tracer.
#[test]
fn pycg_heldout4_suite() {
    score_suite(&SUITE, "tests/pycg-heldout4");
}
