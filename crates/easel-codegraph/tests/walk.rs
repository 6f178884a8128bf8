//! JavaScript and TypeScript files are read by a walk of our own instead of the query cursor
//! (`src/extract/walk.rs`); it must find the same matches in the same order, so the facts of
//! every file must be the query's. Checked on every JavaScript and TypeScript source of the
//! test cases, on cases written for the walk's corners, and, with `EASEL_WALK_CORPUS` set to
//! folders (separated by `:`), on every file under them.

use easel_codegraph::{Lang, extract, extract_by_query};
use std::path::Path;

fn js_lang(path: &str) -> Option<Lang> {
    Lang::from_path(Path::new(path))
        .filter(|l| matches!(l, Lang::JavaScript | Lang::TypeScript | Lang::Tsx))
}

/// The differences between the walk's facts and the query's, one line per file.
fn compare(path: &str, src: &[u8], out: &mut Vec<String>) -> bool {
    let Some(lang) = js_lang(path) else {
        return false;
    };
    let walked = extract(lang, path, src).map(|f| serde_json::to_string(&f).unwrap_or_default());
    // Both failing alike would compare nothing.
    if let Ok(w) = &walked {
        assert!(w.len() > 100, "{path}: {w}");
    }
    let queried =
        extract_by_query(lang, path, src).map(|f| serde_json::to_string(&f).unwrap_or_default());
    if walked != queried {
        let (w, q) = (format!("{walked:?}"), format!("{queried:?}"));
        let at = w.bytes().zip(q.bytes()).take_while(|(a, b)| a == b).count();
        let lo = at.saturating_sub(150);
        out.push(format!(
            "{path}:\n  walk:  {}\n  query: {}",
            w.get(lo..(at + 150).min(w.len())).unwrap_or_default(),
            q.get(lo..(at + 150).min(q.len())).unwrap_or_default()
        ));
    }
    true
}

fn case_sources(dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            case_sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "case") {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            let mut cur: Option<(String, String)> = None;
            for line in text.lines() {
                if let Some(path) = line.strip_prefix("--- ") {
                    out.extend(cur.take());
                    cur = Some((path.trim().to_string(), String::new()));
                } else if line.starts_with("=== ") {
                    out.extend(cur.take());
                } else if let Some((_, src)) = cur.as_mut() {
                    src.push_str(line);
                    src.push('\n');
                }
            }
            out.extend(cur);
        }
    }
}

#[test]
fn the_walk_reads_every_case_as_the_query_does() {
    let mut sources = Vec::new();
    case_sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests"),
        &mut sources,
    );
    let mut diffs = Vec::new();
    let mut checked = 0;
    for (path, src) in &sources {
        checked += usize::from(compare(path, src.as_bytes(), &mut diffs));
    }
    assert!(
        checked > 500,
        "only {checked} JavaScript/TypeScript sources"
    );
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

/// The corners of the query cursor's order and of the patterns' shapes.
#[test]
fn the_walk_reads_the_corners_as_the_query_does() {
    let cases: &[(&str, &str)] = &[
        (
            "a.ts",
            "let a: Foo; let b: Bar = make(); let c = () => 1, d: Baz, e;\n\
             class K extends B implements I, J<T> { x: T; y = f(); private z: Q[]; m() { return; } }\n\
             abstract class A extends Base<T> { abstract g(): void; }\n\
             interface L extends M, N<O> { p: string }\n\
             enum E { A, B }\nnamespace N.M { export const v = 1; }\nmodule Q { f(); }\n\
             declare module 'x' { export function h(): void; }\n\
             class P { constructor(private readonly r: Repo, public s?: S, readonly t: T, u: U) {} }\n\
             import G = A.B.C; import H = D;\n\
             export default class D {}\nexport { a as b };\nexport * from './m';\n\
             for (const [k, v] of Object.entries(o)) k(v);\n\
             try { g(); } catch ({ message }) { h(message); }\n\
             function r() { return /* c */ x.y; }\n\
             @sealed class S { @log() @trace m() {} }\n\
             let { p, q }: Pair = pair; let [h0]: number[] = xs; let w: string;\n",
        ),
        (
            "b.js",
            "export default foo;\nexport default function bar() { return baz(); }\n\
             class C extends mixin(A) { #p = 1; static s() {} get g() { return this.#p; } }\n\
             class D extends a.B {}\nconst o = { m() { return 1; }, 'k': () => 2 };\n\
             module.exports = function () { return o.m(); };\nx.y = async function* () {};\n\
             for (k in o) ; label: for (;;) break label;\n\
             const El = () => <Button onPress={go}><Inner /></Button>;\n\
             new Foo(a)(b); obj?.m?.(); (function iife() {})();\n",
        ),
        (
            "c.tsx",
            "export default function App({ items }: Props) { return <List items={items} render={(i) => <Row {...i} />} />; }\n\
             let v: T;\n",
        ),
        ("d.ts", "let last: T"),
        // Met after their subtree: the reads inside the type come first.
        (
            "typeof.ts",
            "let q: typeof a.b; let r: ReturnType<typeof f.g>, s = q.h();\n\
             class W { t: typeof import('./m').v; u = this.t.w(); }\n",
        ),
        ("e.ts", "class F { f: number }"),
        (
            "broken.ts",
            "class { let = ; function (x: { return }\nlet y: = 2; f(\n",
        ),
    ];
    let mut diffs = Vec::new();
    for (path, src) in cases {
        assert!(compare(path, src.as_bytes(), &mut diffs), "{path}");
    }
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

#[test]
fn the_walk_reads_a_corpus_as_the_query_does() {
    let Ok(dirs) = std::env::var("EASEL_WALK_CORPUS") else {
        return;
    };
    let mut diffs = Vec::new();
    let mut checked = 0;
    for dir in dirs.split(':').filter(|d| !d.is_empty()) {
        let mut stack = vec![std::path::PathBuf::from(dir)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if let Ok(src) = std::fs::read(&p) {
                    let path = p.to_string_lossy();
                    checked += usize::from(compare(&path, &src, &mut diffs));
                }
            }
        }
    }
    eprintln!("{checked} files compared");
    assert!(
        diffs.is_empty(),
        "{} files differ:\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}
