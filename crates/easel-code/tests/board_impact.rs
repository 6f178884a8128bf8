//! The board's answer when a shared name has more than one symbol.
#![allow(clippy::unwrap_used)]

/// The board says which symbol it picked among those sharing a name, and how to get another.
#[test]
fn the_board_names_the_symbol_it_picked_and_the_others() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.py"), "def run():\n    pass\n").unwrap();
    std::fs::write(
        dir.path().join("b.py"),
        "def run():\n    pass\n\ndef main():\n    run()\n",
    )
    .unwrap();
    let opts = easel_code::board::BoardOptions {
        images: false,
        ..easel_code::board::BoardOptions::new(easel_code::board::Front::Mcp, "mcp:test")
    };
    easel_code::board::run(dir.path(), easel_code::board::Action::Init, &opts).unwrap();
    let out = easel_code::board::run(
        dir.path(),
        easel_code::board::Action::Impact {
            symbol: "run".into(),
            depth: 2,
            max_nodes: 20,
        },
        &opts,
    )
    .unwrap();
    let text = out.text();
    assert!(text.contains("Picked b.run among 2 symbols"), "{text}");
    assert!(text.contains("the others: a.run"), "{text}");
}
