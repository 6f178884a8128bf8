//! Incremental builds give exactly the graph of a full build, whatever the edits.
#![allow(clippy::unwrap_used)]

use easel_codegraph::{BuildOptions, build};
use proptest::prelude::*;
use std::fs;
use std::path::Path;

const PATHS: &[&str] = &[
    "m0.py",
    "m1.py",
    "pkg/__init__.py",
    "pkg/m2.py",
    "pkg/sub/m3.py",
    "web/app.js",
    "web/util.js",
    "csrc/lib.c",
    "csrc/main.c",
];
const PY_MODULES: &[&str] = &["m0", "m1", "pkg", "pkg.m2", "pkg.sub.m3"];
const NAMES: &[&str] = &["a", "b", "c", "d"];
const CLASSES: &[&str] = &["K", "L", "M"];

/// One statement of a generated file, as indices into the vocabularies.
#[derive(Debug, Clone)]
struct Item {
    kind: u8,
    x: usize,
    y: usize,
    z: usize,
}

fn item() -> impl Strategy<Value = Item> {
    (0u8..15, 0usize..8, 0usize..8, 0usize..8).prop_map(|(kind, x, y, z)| Item { kind, x, y, z })
}

fn python(items: &[Item]) -> String {
    let n = |i: usize| NAMES[i % NAMES.len()];
    let c = |i: usize| CLASSES[i % CLASSES.len()];
    let m = |i: usize| PY_MODULES[i % PY_MODULES.len()];
    let mut out = String::new();
    for it in items {
        let (x, y, z) = (it.x, it.y, it.z);
        let s = match it.kind {
            0 => format!("from {} import {}\n", m(x), n(y)),
            1 => format!("from {} import {}\n", m(x), c(y)),
            2 => format!("import {}\n{}.{}()\n", m(x), m(x), n(y)),
            3 => format!("def {}():\n    {}()\n", n(x), n(y)),
            4 => format!("def {}(f):\n    return f()\n{}({})\n", n(x), n(x), n(y)),
            5 => format!(
                "class {}({}):\n    def {}(self):\n        self.{}()\n",
                c(x),
                c(y),
                n(y),
                n(z)
            ),
            6 => format!(
                "class {}:\n    def {}(self):\n        return {}()\n",
                c(x),
                n(y),
                n(z)
            ),
            7 => format!("{} = {}\n", n(x), n(y)),
            8 => format!("{}().{}()\n", c(x), n(y)),
            9 => format!(
                "def {}(g):\n    return g\n\n@{}\ndef {}():\n    pass\n",
                n(x),
                n(x),
                n(y)
            ),
            10 => format!("from {} import *\n", m(x)),
            // Properties: an attribute access is a call only where some class has a
            // `@property` of that name (the `py_props` table).
            12 => format!(
                "class {}:\n    @property\n    def {}(self):\n        return {}()\n",
                c(x),
                n(y),
                n(z)
            ),
            13 => format!("v = {}().{}\n", c(x), n(y)),
            // A module's attribute assigned from another module (the `py_mod_attrs` table):
            // a possible value of that module's top-level name.
            14 => format!(
                "import {} as mod{}\ndef {}():\n    mod{}.{} = {}\n",
                m(x),
                x,
                n(y),
                x,
                n(z),
                n(y)
            ),
            _ => format!(
                "def {}():\n    return {}()\n{}().{}()\n",
                n(x),
                c(y),
                n(x),
                n(z)
            ),
        };
        out.push_str(&s);
    }
    out
}

fn javascript(items: &[Item]) -> String {
    let n = |i: usize| NAMES[i % NAMES.len()];
    let m = |i: usize| ["./app.js", "./util.js"][i % 2];
    let mut out = String::new();
    for it in items {
        let s = match it.kind % 4 {
            0 => format!("import {{ {} }} from '{}';\n", n(it.x), m(it.y)),
            1 => format!(
                "export function {}() {{ return {}(); }}\n",
                n(it.x),
                n(it.y)
            ),
            2 => format!("{}();\n", n(it.x)),
            _ => format!("export const {} = () => {}();\n", n(it.x), n(it.y)),
        };
        out.push_str(&s);
    }
    out
}

/// C: top-level functions are global (the `global_funcs` table), and so are structs.
fn c_source(items: &[Item]) -> String {
    let n = |i: usize| NAMES[i % NAMES.len()];
    let mut out = String::new();
    for it in items {
        let s = match it.kind % 3 {
            0 => format!("void {}(void) {{ {}(); }}\n", n(it.x), n(it.y)),
            1 => format!("struct {} {{ int x; }};\n", CLASSES[it.x % CLASSES.len()]),
            _ => format!("static void {}_s(void) {{ {}(); }}\n", n(it.x), n(it.z)),
        };
        out.push_str(&s);
    }
    out
}

fn render(path: &str, items: &[Item]) -> String {
    if path.ends_with(".c") {
        c_source(items)
    } else if path.ends_with(".js") {
        javascript(items)
    } else {
        python(items)
    }
}

fn apply(root: &Path, path: &str, content: Option<&str>) {
    let p = root.join(path);
    match content {
        Some(text) => {
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        }
        None => {
            let _ = fs::remove_file(p);
        }
    }
}

/// An edit of a file (by index).
#[derive(Debug, Clone)]
enum Edit {
    /// New content, or none: the file goes away.
    Replace(usize, Option<Vec<Item>>),
    /// One statement's `y` changes: for most kinds of statement, only a call inside a body
    /// changes, and what other files see of the file stays as it was.
    Tweak(usize, usize, usize),
    /// A comment line at the end.
    Comment(usize),
    /// A comment line after the first line of a statement (inside the body of a function or
    /// class): every line below it moves.
    Gap(usize, usize),
}

/// A generated file: its statements, the comment lines at its end, and the statements
/// followed by a comment line inside them.
type FileState = (Vec<Item>, usize, Vec<usize>);

fn text_of(path: &str, (items, comments, gaps): &FileState) -> String {
    let (mark, indent) = if path.ends_with(".py") {
        ("#", "    ")
    } else {
        ("//", "")
    };
    let mut text = String::new();
    for (k, it) in items.iter().enumerate() {
        let one = render(path, std::slice::from_ref(it));
        for _ in gaps.iter().filter(|&&g| g == k) {
            let (first, rest) = one.split_once('\n').unwrap_or((&one, ""));
            text.push_str(first);
            text.push_str(&format!("\n{indent}{mark} gap\n"));
            text.push_str(rest);
        }
        if !gaps.contains(&k) {
            text.push_str(&one);
        }
    }
    for c in 0..*comments {
        text.push_str(&format!("{mark} note {c}\n"));
    }
    text
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        3 => (
            0..PATHS.len(),
            prop::option::weighted(0.7, prop::collection::vec(item(), 0..6)),
        )
            .prop_map(|(i, items)| Edit::Replace(i, items)),
        3 => (0..PATHS.len(), 0usize..6, 0usize..8).prop_map(|(i, at, y)| Edit::Tweak(i, at, y)),
        1 => (0..PATHS.len()).prop_map(Edit::Comment),
        2 => (0..PATHS.len(), 0usize..6).prop_map(|(i, at)| Edit::Gap(i, at)),
    ];
    prop::collection::vec(edit, 1..6)
}

/// Applies `edit` to the current contents of the files (none: no file) and writes the file.
fn apply_edit(root: &Path, files: &mut [Option<FileState>], edit: &Edit) {
    let i = match edit {
        Edit::Replace(i, items) => {
            files[*i] = items.clone().map(|items| (items, 0, Vec::new()));
            *i
        }
        Edit::Tweak(i, at, y) => {
            if let Some((items, _, _)) = &mut files[*i]
                && !items.is_empty()
            {
                let n = items.len();
                items[at % n].y = *y;
            }
            *i
        }
        Edit::Comment(i) => {
            if let Some((_, comments, _)) = &mut files[*i] {
                *comments += 1;
            }
            *i
        }
        Edit::Gap(i, at) => {
            if let Some((items, _, gaps)) = &mut files[*i]
                && !items.is_empty()
                && !gaps.contains(&(at % items.len()))
            {
                gaps.push(at % items.len());
            }
            *i
        }
    };
    let text = files[i].as_ref().map(|f| text_of(PATHS[i], f));
    apply(root, PATHS[i], text.as_deref());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn incremental_builds_equal_full_builds(
        start in prop::collection::vec(prop::collection::vec(item(), 0..6), PATHS.len()),
        steps in prop::collection::vec(edits(), 1..5),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let mut files: Vec<Option<FileState>> =
            start.into_iter().map(|items| Some((items, 0, Vec::new()))).collect();
        for (p, f) in PATHS.iter().zip(&files) {
            if let Some(f) = f {
                apply(root, p, Some(&text_of(p, f)));
            }
        }
        let cached = BuildOptions { use_cache: true, progress: None };
        build(root, &cached).unwrap();
        for step in steps {
            for edit in &step {
                apply_edit(root, &mut files, edit);
            }
            let inc = build(root, &cached).unwrap();
            let full = build(root, &BuildOptions::default()).unwrap();
            prop_assert_eq!(&inc.graph, &full.graph);
            // graph.json, spliced from the last one, is what encoding the whole graph gives.
            let path = easel_codegraph::save_built(root, &inc).unwrap();
            prop_assert_eq!(std::fs::read(path).unwrap(), serde_json::to_vec(&full.graph).unwrap());
        }
    }
}

/// Writes `path`, builds with the cache and checks that the graph is a full build's; returns
/// the cached build.
fn edit_and_build(root: &Path, path: &str, text: &str) -> easel_codegraph::Built {
    apply(root, path, Some(text));
    let cached = BuildOptions {
        use_cache: true,
        progress: None,
    };
    let built = build(root, &cached).unwrap();
    let full = build(root, &BuildOptions::default()).unwrap().graph;
    assert_eq!(built.graph, full);
    let path = easel_codegraph::save_built(root, &built).unwrap();
    assert_eq!(
        std::fs::read(path).unwrap(),
        serde_json::to_vec(&full).unwrap()
    );
    built
}

/// An edit of the calls inside a function of a module that every other file imports: what
/// the importers see of it is unchanged, so only the module itself is resolved again.
#[test]
fn an_edit_of_calls_alone_resolves_only_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for i in 0..20 {
        let text =
            format!("from lib import helper, other\n\ndef f{i}():\n    helper()\n    other()\n");
        apply(root, &format!("m{i}.py"), Some(&text));
    }
    let lib = "def helper(x=0):\n    pass\n\ndef other():\n";
    let first = edit_and_build(root, "lib.py", &format!("{lib}    helper()\n"));
    assert_eq!(first.stats.resolved, 21);
    // Other arguments, on the same line.
    let second = edit_and_build(root, "lib.py", &format!("{lib}    helper(1)\n"));
    assert_eq!(second.stats.resolved, 1, "{:?}", second.stats);
    assert!(
        second
            .graph
            .call_pairs()
            .contains(&("lib.other".into(), "lib.helper".into()))
    );
    // A name called for the first time: only lookups of that name could change.
    let called = edit_and_build(
        root,
        "lib.py",
        &format!("{lib}    print(1)\n    helper(1)\n"),
    );
    assert_eq!(called.stats.resolved, 1, "{:?}", called.stats);
    // A comment at the end.
    let third = edit_and_build(root, "lib.py", &format!("{lib}    helper(1)\n# done\n"));
    assert_eq!(third.stats.resolved, 1, "{:?}", third.stats);
    // A new line inside a function moves the definitions below it, in order: what other
    // files see is the same.
    let moved = "def helper(x=0):\n    pass\n    pass\n\ndef other():\n    helper(1)\n";
    let fourth = edit_and_build(root, "lib.py", &format!("{moved}# done\n"));
    assert_eq!(fourth.stats.resolved, 1, "{:?}", fourth.stats);
    assert_eq!(fourth.graph.node("lib.py:other").unwrap().start_line, 5);
    // A new function is seen by every importer (`from lib import *` could bind it, a name
    // that found nothing may now find it): they are resolved again.
    let fifth = edit_and_build(
        root,
        "lib.py",
        &format!("{moved}\ndef third():\n    pass\n"),
    );
    assert!(fifth.stats.resolved > 1, "{:?}", fifth.stats);
}

/// A change that no other file can see is resolved again alone.
#[test]
fn an_edit_inside_a_function_resolves_only_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for i in 0..20 {
        let text = format!("from lib import helper\n\ndef f{i}():\n    helper()\n    return {i}\n");
        apply(root, &format!("m{i}.py"), Some(&text));
    }
    let first = edit_and_build(root, "lib.py", "def helper():\n    pass\n");
    assert_eq!(first.stats.resolved, 21);
    let m3 = "from lib import helper\n\ndef f3():\n    helper()\n    return 33\n";
    let second = edit_and_build(root, "m3.py", m3);
    assert_eq!(second.stats.resolved, 1);
    // A new definition in the imported module can change what every importer calls.
    let third = edit_and_build(
        root,
        "lib.py",
        "def helper():\n    pass\n\ndef other():\n    pass\n",
    );
    assert!(third.stats.resolved > 1, "{:?}", third.stats);
}

/// A file that appears makes lookups that found nothing before find it; one that goes away
/// takes its definitions with it.
#[test]
fn added_and_deleted_files_change_what_others_call() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let cached = BuildOptions {
        use_cache: true,
        progress: None,
    };
    apply(
        root,
        "main.py",
        Some("from lib import helper\n\ndef run():\n    helper()\n"),
    );
    apply(root, "other.py", Some("def untouched():\n    pass\n"));
    let before = build(root, &cached).unwrap();
    assert!(before.graph.call_pairs().is_empty());
    apply(root, "lib.py", Some("def helper():\n    pass\n"));
    let added = build(root, &cached).unwrap();
    assert!(
        added
            .graph
            .call_pairs()
            .contains(&("main.run".into(), "lib.helper".into())),
        "{:?}",
        added.graph.call_pairs()
    );
    assert_eq!(
        added.graph,
        build(root, &BuildOptions::default()).unwrap().graph
    );
    apply(root, "lib.py", None);
    let deleted = build(root, &cached).unwrap();
    assert!(deleted.graph.call_pairs().is_empty());
    assert_eq!(
        deleted.graph,
        build(root, &BuildOptions::default()).unwrap().graph
    );
}

/// The resolution state is of use only with the kept graph of the same build: a state and a
/// graph from different builds (a crash between writing the two), or a damaged state, make
/// the next build resolve everything again, and still give the graph of a full build.
#[test]
fn a_state_without_its_graph_or_a_damaged_one_is_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let cache = root.join(".codecanvas/cache");
    let cached = BuildOptions {
        use_cache: true,
        progress: None,
    };
    apply(root, "lib.py", Some("def helper():\n    pass\n"));
    apply(
        root,
        "main.py",
        Some("from lib import helper\n\ndef run():\n    helper()\n"),
    );
    apply(root, "other.py", Some("def untouched():\n    pass\n"));
    build(root, &cached).unwrap();
    let old_graph = fs::read(cache.join("graph.bin")).unwrap();
    apply(
        root,
        "lib.py",
        Some("def helper():\n    pass\n\ndef other():\n    pass\n"),
    );
    build(root, &cached).unwrap();
    // The new state beside the old graph.
    fs::write(cache.join("graph.bin"), &old_graph).unwrap();
    apply(root, "other.py", Some("def untouched():\n    return 1\n"));
    let apart = build(root, &cached).unwrap();
    assert_eq!(apart.stats.resolved, 3, "{:?}", apart.stats);
    assert_eq!(
        apart.graph,
        build(root, &BuildOptions::default()).unwrap().graph
    );
    // A state cut short.
    let state = fs::read(cache.join("resolve.bin")).unwrap();
    fs::write(cache.join("resolve.bin"), &state[..state.len() / 2]).unwrap();
    apply(root, "other.py", Some("def untouched():\n    return 2\n"));
    let damaged = build(root, &cached).unwrap();
    assert_eq!(damaged.stats.resolved, 3, "{:?}", damaged.stats);
    assert_eq!(
        damaged.graph,
        build(root, &BuildOptions::default()).unwrap().graph
    );
    // And the build after it is incremental again.
    apply(root, "other.py", Some("def untouched():\n    return 3\n"));
    let again = build(root, &cached).unwrap();
    assert_eq!(again.stats.resolved, 1, "{:?}", again.stats);
}

/// Calls found through parameters in a later round (a state object handed to `setState` by
/// a method that got the machine as its argument): an edit anywhere along that chain gives
/// the graph of a full build, as the link appears, goes away and comes back.
#[test]
fn rounds_of_parameter_flow_follow_edits() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let states = |next: &str| {
        format!(
            "export const idle = {{\n  select(m) {{ m.setState({next}); }},\n}};\n\
             export const busy = {{\n  select(m) {{ m.show(); }},\n}};\n"
        )
    };
    let machine = |field: &str| {
        format!(
            "import {{ idle }} from './states.js';\n\
             export class Machine {{\n  constructor() {{ this.state = idle; }}\n\
             setState(s) {{ this.{field} = s; }}\n  select() {{ this.state.select(this); }}\n\
             show() {{}}\n}}\n"
        )
    };
    let reached = |b: &easel_codegraph::Built| {
        b.graph
            .call_pairs()
            .contains(&("machine.Machine.select".into(), "states.busy.select".into()))
    };
    apply(root, "states.js", Some(&states("busy")));
    apply(root, "machine.js", Some(&machine("state")));
    let main = "import { Machine } from './machine.js';\nconst m = new Machine();\nm.select();\n";
    let first = edit_and_build(root, "main.js", main);
    assert!(reached(&first), "{:?}", first.graph.call_pairs());
    // The link goes: the state handed over is the one already held.
    assert!(!reached(&edit_and_build(
        root,
        "states.js",
        &states("idle")
    )));
    // And comes back.
    assert!(reached(&edit_and_build(root, "states.js", &states("busy"))));
    // The machine stops storing the state it is given, then stores it again.
    assert!(!reached(&edit_and_build(
        root,
        "machine.js",
        &machine("other")
    )));
    assert!(reached(&edit_and_build(
        root,
        "machine.js",
        &machine("state")
    )));
    edit_and_build(root, "main.js", &format!("{main}m.select();\n"));
}

/// A function reached only through a parameter (`use(plugin) { plugin(this) }`) takes its
/// parameters from that call site: an edit of the file passing the plugin, or of the one
/// calling it, changes what the plugin's unchanged file calls, and an incremental build
/// still gives a full build's graph.
#[test]
fn calls_through_a_parameter_give_arguments_to_what_they_reach() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let converter = "class Converter {\n  use(plugin) {\n    plugin(this);\n    return this;\n  }\n  addBlock() {}\n  addInline() {}\n}\nmodule.exports = Converter;\n";
    apply(root, "converter.js", Some(converter));
    apply(
        root,
        "blocks.js",
        Some("module.exports = function blocks(md) {\n  md.addBlock();\n};\n"),
    );
    apply(
        root,
        "inline.js",
        Some("module.exports = function inline(md) {\n  md.addInline();\n};\n"),
    );
    let main = |plugin: &str| {
        format!(
            "const Converter = require(\"./converter\");\nconst p = require(\"./{plugin}\");\nnew Converter().use(p);\n"
        )
    };
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    let first = edit_and_build(root, "main.js", &main("blocks"));
    let calls = first.graph.call_pairs();
    assert!(
        calls.contains(&pair("blocks.exports", "converter.Converter.addBlock")),
        "{calls:?}"
    );
    let second = edit_and_build(root, "main.js", &main("inline"));
    let calls = second.graph.call_pairs();
    assert!(
        calls.contains(&pair("inline.exports", "converter.Converter.addInline")),
        "{calls:?}"
    );
    assert!(
        !calls.contains(&pair("blocks.exports", "converter.Converter.addBlock")),
        "{calls:?}"
    );
    let third = edit_and_build(
        root,
        "converter.js",
        &converter.replace("plugin(this);", ""),
    );
    let calls = third.graph.call_pairs();
    assert!(
        !calls.contains(&pair("inline.exports", "converter.Converter.addInline")),
        "{calls:?}"
    );
}
