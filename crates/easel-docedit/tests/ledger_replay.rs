//! The ledger of document edits, against random documents and random edits applied through the
//! real operations on a real vault: replaying the recorded edits from the original gives every
//! recorded version byte for byte (each saved `rev_before` and `rev_after`, and the file), bytes
//! outside the touched elements never change, undoing every run restores the original byte for
//! byte, and undoing one edit alone either equals the edits without it or is refused.
#![allow(clippy::unwrap_used)]

use easel_docedit::ops::{DocApply, DocApplyInput, OperationItem};
use easel_docedit::{Document, Edit, Format};
use easel_ops::{Actor, Ctx, Op};
use easel_vault::{LedgerEntry, Rev, UndoTarget, Vault};
use proptest::prelude::*;

const WORDS: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "rent",
    "due",
    "Acme",
    "ana@example.com",
    "+44 20 7946 0958",
    "1,200",
    "2026-11-27",
    "&amp;",
    "<b>bold</b>",
    "fish",
];

fn html(paragraphs: &[Vec<usize>]) -> String {
    let mut s =
        String::from("<!doctype html>\n<html><head><meta charset=\"utf-8\"></head><body>\n");
    for (i, p) in paragraphs.iter().enumerate() {
        let words: Vec<&str> = p.iter().map(|w| WORDS[*w % WORDS.len()]).collect();
        s.push_str(&format!(
            "<p data-canon-id=\"c{:08x}\">{}</p>\n",
            i + 1,
            words.join(" ")
        ));
    }
    s.push_str("</body></html>\n");
    s
}

fn markdown(paragraphs: &[Vec<usize>]) -> String {
    let mut s = String::from("---\ntitle: Note\n---\n# Title\n\n");
    for (i, p) in paragraphs.iter().enumerate() {
        let words: Vec<&str> = p
            .iter()
            .map(|w| WORDS[*w % WORDS.len()])
            .filter(|w| !w.starts_with('<') && !w.starts_with('&'))
            .collect();
        let body = if words.is_empty() {
            "empty".to_string()
        } else {
            words.join(" ")
        };
        match i % 3 {
            0 => s.push_str(&format!("{body}\n\n")),
            1 => s.push_str(&format!("- {body}\n\n")),
            _ => s.push_str(&format!("{body} ^p{i}\n\n")),
        }
    }
    s
}

/// An edit of the kind `kind` on the `target`-th element of `doc`, built from its real text.
fn edit_for(doc: &Document, kind: u8, target: usize, word: usize) -> Option<Edit> {
    let elements = doc.elements();
    if elements.is_empty() {
        return None;
    }
    let e = &elements[target % elements.len()];
    let element_id = e.id.clone();
    let w = WORDS[word % WORDS.len()];
    Some(match kind % 7 {
        0 => {
            let old = e.text.split_whitespace().nth(word % 3)?.to_string();
            Edit::ReplaceText {
                element_id,
                old_text: old,
                new_text: w.replace('<', "["),
            }
        }
        1 => Edit::RedactElement { element_id },
        2 => Edit::AddHighlight { element_id },
        3 => Edit::AddComment {
            element_id,
            comment: format!("note {word}"),
        },
        4 => Edit::DeleteElement { element_id },
        5 => Edit::FindAndReplaceAll {
            find: "fish".into(),
            replace: format!("cod{word}"),
            case_sensitive: false,
        },
        _ => Edit::RedactAllMatching {
            pattern: "/\\d{4}/".into(),
        },
    })
}

struct Run {
    _dir: tempfile::TempDir,
    vault: Vault,
    path: String,
    format: Format,
    original: String,
    /// The edits the ledger recorded, in order.
    edits: Vec<Edit>,
    runs: Vec<String>,
}

fn run_edits(format: Format, original: String, plan: &[(u8, usize, usize, bool)]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let path = match format {
        Format::Html => "doc.html",
        Format::Markdown => "doc.md",
    };
    std::fs::write(dir.path().join(path), &original).unwrap();
    let vault = Vault::open(dir.path()).unwrap();
    let ctx = Ctx::new(vault.clone(), Actor::cli());
    let mut edits = Vec::new();
    let mut runs = Vec::new();
    let mut pending: Vec<OperationItem> = Vec::new();
    let mut pending_edits = Vec::new();
    // The document as the file and the pending list will leave it.
    let mut doc = Document::parse(format, original.as_bytes()).unwrap();
    for (i, &(kind, target, word, flush)) in plan.iter().enumerate() {
        let Some(edit) = edit_for(&doc, kind, target, word) else {
            continue;
        };
        let Ok(applied) = doc.apply(&edit) else {
            continue;
        };
        // Bytes before the first and after the last touched element stay as they were.
        let old_spans: Vec<_> = doc
            .elements()
            .iter()
            .filter(|e| applied.touched.contains(&e.id))
            .map(|e| e.span.clone())
            .collect();
        if let (Some(first), Some(last)) = (old_spans.first(), old_spans.last()) {
            let old = doc.text();
            assert_eq!(
                &applied.text[..applied.span.start],
                &old[..first.start],
                "prefix changed by {edit:?}"
            );
            let suffix = &applied.text[applied.span.end..];
            if matches!(edit, Edit::DeleteElement { .. }) {
                // A deleted block takes the blank line after it along.
                let gone = old[last.end..].len() - suffix.len().min(old[last.end..].len());
                assert!(
                    old[last.end..].ends_with(suffix),
                    "suffix changed by {edit:?}"
                );
                assert!(
                    old[last.end..last.end + gone].trim().is_empty(),
                    "{edit:?} took more than the element"
                );
            } else {
                assert_eq!(suffix, &old[last.end..], "suffix changed by {edit:?}");
            }
        }
        doc = Document::parse(format, applied.text.as_bytes()).unwrap();
        pending.push(OperationItem::of(Some(format!("op{i}")), &edit));
        pending_edits.push(edit);
        if flush {
            let out = DocApply
                .run(
                    &ctx,
                    DocApplyInput {
                        path: path.into(),
                        operations: std::mem::take(&mut pending),
                        rev: None,
                    },
                )
                .unwrap();
            runs.push(out.run);
            edits.append(&mut pending_edits);
        }
    }
    if !pending.is_empty() {
        let out = DocApply
            .run(
                &ctx,
                DocApplyInput {
                    path: path.into(),
                    operations: pending,
                    rev: None,
                },
            )
            .unwrap();
        runs.push(out.run);
        edits.append(&mut pending_edits);
    }
    Run {
        _dir: dir,
        vault,
        path: path.into(),
        format,
        original,
        edits,
        runs,
    }
}

fn file(r: &Run) -> String {
    std::fs::read_to_string(r.vault.root().join(&r.path)).unwrap()
}

fn entries(r: &Run) -> Vec<LedgerEntry> {
    let mut all = r.vault.ledger_list(None).unwrap();
    all.reverse();
    all.retain(|e| !e.is_undo());
    all
}

fn replay(format: Format, original: &str, edits: &[&Edit]) -> Option<String> {
    let mut text = original.to_string();
    for edit in edits {
        text = Document::parse(format, text.as_bytes())
            .ok()?
            .apply(edit)
            .ok()?
            .text;
    }
    Some(text)
}

fn check(r: &Run, undo_one: usize) {
    let recorded = entries(r);
    assert_eq!(recorded.len(), r.edits.len());
    // Replay from the original: every recorded version, byte for byte.
    let mut text = r.original.clone();
    for (entry, edit) in recorded.iter().zip(&r.edits) {
        assert_eq!(entry.op, format!("doc_{}", edit.tool()));
        assert_eq!(entry.rev_before, Some(Rev::of(text.as_bytes())));
        assert_eq!(
            r.vault.ledger_before(entry).unwrap().unwrap(),
            text.as_bytes()
        );
        text = Document::parse(r.format, text.as_bytes())
            .unwrap()
            .apply(edit)
            .unwrap()
            .text;
        assert_eq!(entry.rev_after, Some(Rev::of(text.as_bytes())));
    }
    assert_eq!(file(r), text);

    // One edit alone, on a copy of the vault: refused, or the same as never having made it.
    let copy = tempfile::tempdir().unwrap();
    copy_dir(r.vault.root(), copy.path());
    let alone = Run {
        vault: Vault::open(copy.path()).unwrap(),
        _dir: copy,
        path: r.path.clone(),
        format: r.format,
        original: r.original.clone(),
        edits: r.edits.clone(),
        runs: r.runs.clone(),
    };
    undo_one_alone(&alone, &recorded, &text, undo_one);
    // Then every run: each undo is refused or right, and never leaves a damaged file.
    let mut all_done = true;
    for run in alone.runs.iter().rev() {
        match alone.vault.undo(UndoTarget::Run(run.clone())) {
            Ok(_) | Err(easel_vault::VaultError::RunAlreadyUndone { .. }) => {}
            Err(e) => {
                let why = e.to_string();
                assert!(
                    why.contains("touched the same element") || why.contains("cannot be followed"),
                    "{why}"
                );
                all_done = false;
            }
        }
        assert!(Document::parse(alone.format, file(&alone).as_bytes()).is_ok());
    }
    if all_done {
        assert_eq!(
            file(&alone),
            alone.original,
            "every run undone after one edit alone"
        );
    }
    undo_all(r);
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    for entry in walk(from) {
        let rel = entry.strip_prefix(from).unwrap();
        let target = to.join(rel);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(&entry, &target).unwrap();
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

fn undo_one_alone(r: &Run, recorded: &[LedgerEntry], text: &str, undo_one: usize) {
    if !recorded.is_empty() {
        let k = undo_one % recorded.len();
        let later_bulk = r.edits[k + 1..].iter().any(|e| e.element_id().is_none());
        let is_delete = matches!(r.edits[k], Edit::DeleteElement { .. });
        // A later edit of the same element that changed no byte (a second redaction) does not
        // block the undo, but replaying without the first would still make it.
        let same_later = r.edits[k + 1..]
            .iter()
            .any(|e| e.element_id() == r.edits[k].element_id());
        match r.vault.undo(UndoTarget::Id(recorded[k].id.clone())) {
            Ok(_) => {
                if !later_bulk && !is_delete && !same_later && r.edits[k].element_id().is_some() {
                    let without: Vec<&Edit> = r
                        .edits
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != k)
                        .map(|(_, e)| e)
                        .collect();
                    if let Some(expected) = replay(r.format, &r.original, &without) {
                        assert_eq!(file(r), expected, "undo of {:?} alone", r.edits[k]);
                    }
                }
            }
            Err(e) => {
                let why = e.to_string();
                assert!(
                    why.contains("touched the same element") || why.contains("cannot be followed"),
                    "{why}"
                );
                assert_eq!(file(r), text, "a refused undo changed the file");
            }
        }
    }
}

/// Undo every run, newest first: the original, byte for byte.
fn undo_all(r: &Run) {
    for run in r.runs.iter().rev() {
        match r.vault.undo(UndoTarget::Run(run.clone())) {
            Ok(_) => {}
            Err(easel_vault::VaultError::RunAlreadyUndone { .. }) => {}
            Err(e) => panic!("undo of run {run}: {e}"),
        }
    }
    assert_eq!(file(r), r.original);
}

fn plan() -> impl Strategy<Value = Vec<(u8, usize, usize, bool)>> {
    proptest::collection::vec(
        (
            0u8..7,
            0usize..10,
            0usize..40,
            proptest::bool::weighted(0.3),
        ),
        1..7,
    )
}

fn paragraphs() -> impl Strategy<Value = Vec<Vec<usize>>> {
    proptest::collection::vec(proptest::collection::vec(0usize..WORDS.len(), 1..6), 2..7)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn html_edits_replay_and_undo_byte_for_byte(p in paragraphs(), plan in plan(), k in 0usize..10) {
        let r = run_edits(Format::Html, html(&p), &plan);
        check(&r, k);
    }

    #[test]
    fn markdown_edits_replay_and_undo_byte_for_byte(p in paragraphs(), plan in plan(), k in 0usize..10) {
        let r = run_edits(Format::Markdown, markdown(&p), &plan);
        check(&r, k);
    }
}
