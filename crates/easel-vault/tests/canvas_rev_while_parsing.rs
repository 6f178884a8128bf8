//! Reading a canvas hashes a large file on a second thread while it parses (issue 19): the
//! revision must stay the first 16 hex digits of the SHA-256 of the file's bytes, on either
//! side of the size where the thread starts, and errors must stay what they were.

// Test helpers outside #[test] functions may unwrap too: a failure there is a test failure.
#![allow(clippy::unwrap_used)]

use std::fs;

use easel_canvas::synth;
use easel_vault::{ErrorKind, Rev, Vault, canvas};

fn vault() -> (tempfile::TempDir, Vault) {
    let dir = tempfile::tempdir().unwrap();
    let vault = Vault::open(dir.path()).unwrap();
    (dir, vault)
}

#[test]
fn small_and_large_canvases_get_the_rev_of_their_bytes() {
    let (dir, vault) = vault();
    // 40 nodes is a few kB, 6,000 about 1.6 MB: one is hashed on the way, one in parallel.
    for nodes in [40, 6_000] {
        let text = synth::grid_canvas(nodes);
        fs::write(dir.path().join("Big.canvas"), &text).unwrap();
        let expected = Rev::of(text.as_bytes()).to_string();

        let checked = canvas::validate(&vault, "Big.canvas").unwrap();
        assert_eq!(checked.rev, expected, "{nodes} nodes");
        assert!(checked.valid, "{nodes} nodes: {:?}", checked.errors);

        let read = canvas::read(&vault, "Big").unwrap();
        assert_eq!(read.rev, expected, "{nodes} nodes");
        assert_eq!(read.node_count, nodes);
    }
}

#[test]
fn a_large_file_that_is_not_a_canvas_still_fails_as_before() {
    let (dir, vault) = vault();
    let mut bad = synth::grid_canvas(6_000).into_bytes();
    let len = bad.len();
    bad.truncate(len - 3);
    fs::write(dir.path().join("Cut.canvas"), &bad).unwrap();
    let err = canvas::validate(&vault, "Cut.canvas").unwrap_err();
    assert!(err.to_string().contains("Cut.canvas"), "{err}");
    assert_eq!(err.kind().exit_code(), ErrorKind::Invalid.exit_code());

    let mut latin1 = synth::grid_canvas(6_000).into_bytes();
    latin1[100] = 0xe9;
    fs::write(dir.path().join("Latin.canvas"), &latin1).unwrap();
    let err = canvas::validate(&vault, "Latin.canvas").unwrap_err();
    assert!(
        matches!(err, canvas::CanvasOpError::NotText { .. }),
        "{err}"
    );

    let err = canvas::validate(&vault, "Missing.canvas").unwrap_err();
    assert!(
        matches!(err, canvas::CanvasOpError::NotFound { .. }),
        "{err}"
    );
}
