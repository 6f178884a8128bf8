//! Unit tests of incremental resolution that look at the kept state itself.
#![allow(clippy::unwrap_used)]

use super::*;
use crate::lang::Lang;

/// A state machine that stores the state it is handed: the round gives `idle.select` and
/// `busy.select` the machine as `m`, which resolves `m.setState` and `m.show`.
const STATES: &str = "export const idle = {\n  select(m) { m.setState(busy); m.show(); },\n};\n\
export const busy = {\n  select(m) { m.show(); },\n};\nfunction plain() { idle.select; }\n\
export function other() { plain(); plain(); }\n";
const MACHINE: &str = "import { idle } from './states.js';\nexport class Machine {\n\
  constructor() { this.state = idle; }\n  setState(s) { this.state = s; }\n\
  select() { this.state.select(this); }\n  show() {}\n}\n";
const MAIN: &str =
    "import { Machine } from './machine.js';\nconst m = new Machine();\nm.select();\n";

fn facts_of(files: &[(&str, &str)]) -> Vec<FileFacts> {
    files
        .iter()
        .map(|(p, s)| crate::extract::extract(Lang::JavaScript, p, s.as_bytes()).unwrap())
        .collect()
}

/// A content key per file: its text's bytes, padded.
fn keys_of(files: &[(&str, &str)]) -> Vec<[u8; 32]> {
    files
        .iter()
        .map(|(_, s)| {
            let h = foldhash::fast::FixedState::with_seed(7);
            let x = std::hash::BuildHasher::hash_one(&h, s);
            let mut k = [0; 32];
            k[..8].copy_from_slice(&x.to_le_bytes());
            k
        })
        .collect()
}

/// One build of `files` on top of `old`; checks its graph against a full build's.
fn build(files: &[(&str, &str)], old: Option<(State, Graph)>) -> (Graph, State, Reuse) {
    let facts = facts_of(files);
    let keys = keys_of(files);
    let fs = Files::of_slice(&facts);
    let (g, state, reuse, _, _) = resolve(&fs, &keys, [1; 32], old, &|_| None);
    let full = Resolver::new(&fs).into_graph();
    assert_eq!(g, full);
    (g, state, reuse)
}

/// A round keeps the calls whose result it changed, each with its index, and nothing of
/// the calls it left as the first pass had them.
#[test]
fn a_round_keeps_only_the_calls_it_changed() {
    let files = [
        ("machine.js", MACHINE),
        ("main.js", MAIN),
        ("states.js", STATES),
    ];
    let (_, state, _) = build(&files, None);
    let states = &state.files[2];
    let round = &states.rounds[0];
    assert!(
        !round.is_empty(),
        "the round resolves `m.setState` and `m.show`"
    );
    assert!(round.len() < states.pass1.len(), "{round:?}");
    assert!(round.windows(2).all(|w| w[0].0 < w[1].0));
    for (ci, p) in round {
        assert_ne!(&states.pass1[*ci as usize], p);
    }
    // Files the round changed nothing in keep nothing.
    assert!(state.files[1].rounds[0].is_empty());
}

/// Kept first passes and rounds are moved over as they are only while every file keeps its
/// number: a file added before the others renumbers them, and the kept results must then
/// name the files by their new numbers, or edges go to the wrong files.
#[test]
fn kept_results_follow_files_renumbered() {
    let files = [
        ("machine.js", MACHINE),
        ("main.js", MAIN),
        ("states.js", STATES),
    ];
    let (g, state, _) = build(&files, None);
    // An edit that keeps every number: only the edited file's first pass is redone.
    let edited = format!("{MAIN}// edited\n");
    let same = [
        ("machine.js", MACHINE),
        ("main.js", edited.as_str()),
        ("states.js", STATES),
    ];
    let (g, state, reuse) = build(&same, Some((state, g)));
    assert_eq!(reuse.pass1_redone, 1);
    // A file added first: every kept result names files one number further.
    let shifted = [
        ("a.js", "export function lone() {}\n"),
        ("machine.js", MACHINE),
        ("main.js", edited.as_str()),
        ("states.js", STATES),
    ];
    let (g, state, _) = build(&shifted, Some((state, g)));
    // And one removed again, with an edit elsewhere.
    build(&same, Some((state, g)));
}

/// Each call the first pass left open is kept with the functions whose parameters it read
/// (`Redo`): only their call sites can change it, so later passes skip it when none of
/// them has any. `m.setState(busy)` and `m.show()` read `m` of `idle.select`, `m.show()` in
/// `busy.select` reads that one's `m`.
#[test]
fn open_calls_keep_the_functions_whose_parameters_they_read() {
    let files = [
        ("machine.js", MACHINE),
        ("main.js", MAIN),
        ("states.js", STATES),
    ];
    let facts = facts_of(&files);
    let (_, state, _) = build(&files, None);
    let states = &state.files[2];
    let open = states
        .pass1
        .iter()
        .filter(|p| matches!(p, Pass1::Retry | Pass1::Partial(_)))
        .count();
    assert_eq!(states.pass1_redo.len(), open);
    let select = |from: usize| {
        facts[2]
            .defs
            .iter()
            .enumerate()
            .skip(from)
            .find(|(_, d)| d.name == "select")
            .map(|(i, _)| Ref {
                file: 2,
                def: i as u32,
            })
            .unwrap()
    };
    let idle = select(0);
    let busy = select(idle.def as usize + 1);
    assert_eq!(
        states.pass1_redo,
        vec![Redo::One(idle), Redo::One(idle), Redo::One(busy)]
    );
}
