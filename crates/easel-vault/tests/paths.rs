//! Finding the vault, and every way a path could try to leave it or touch protected folders.

// Test helpers outside #[test] functions may unwrap too: a failure there is a test failure.
#![allow(clippy::unwrap_used)]

use std::ffi::OsStr;
use std::fs;
use std::path::Path;

use easel_vault::{Change, ErrorKind, Expect, Vault, VaultError};

fn vault() -> (tempfile::TempDir, Vault) {
    let dir = tempfile::tempdir().unwrap();
    let vault = Vault::open(dir.path()).unwrap();
    (dir, vault)
}

fn change() -> Change {
    Change::new("cli", "test.write", "test")
}

#[test]
fn lexical_escapes_are_refused_with_kind_invalid() {
    let (_dir, vault) = vault();
    for bad in [
        "..",
        "../x.md",
        "a/../../x",
        "a/..",
        "/etc/passwd",
        "\\\\server\\x",
        "C:\\x.md",
        "",
        ".",
    ] {
        let err = vault.resolve(bad).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Invalid, "{bad}: {err}");
        assert_eq!(err.kind().exit_code(), 5);
        assert!(!err.hint().is_empty());
        assert!(vault.resolve_for_write(bad).is_err(), "{bad}");
    }
}

#[test]
fn ordinary_paths_are_normalised() {
    let (_dir, vault) = vault();
    let p = vault.resolve("./notes//sub\\idea.md").unwrap();
    assert_eq!(p.as_str(), "notes/sub/idea.md");
    assert_eq!(p.to_string(), "notes/sub/idea.md");
    assert_eq!(p.abs(), vault.root().join("notes/sub/idea.md"));
}

#[test]
fn writes_into_foreign_and_internal_folders_are_refused() {
    let (_dir, vault) = vault();
    for bad in [
        ".obsidian/x",
        ".obsidian",
        ".git/config",
        ".trash/x",
        ".OBSIDIAN/app.json",
        ".easel/ledger.jsonl",
        ".easel/blobs/x",
        ".easel/locks/x.lock",
    ] {
        let err = vault.resolve_for_write(bad).unwrap_err();
        assert!(matches!(err, VaultError::Protected { .. }), "{bad}: {err}");
        // Reading them is fine: Easel may look at Obsidian's settings.
        vault.resolve(bad).unwrap();
    }
    vault.resolve_for_write(".easel/agents/writer.md").unwrap();
    vault.resolve_for_write("notes/.git-notes.md").unwrap();
}

#[cfg(unix)]
mod links {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_link_to_a_file_outside_is_refused_for_reading_and_writing() {
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("secret.txt"), "secret").unwrap();
        let (dir, vault) = vault();
        symlink(
            outside.path().join("secret.txt"),
            dir.path().join("leak.md"),
        )
        .unwrap();
        for err in [
            vault.resolve("leak.md").unwrap_err(),
            vault.resolve_for_write("leak.md").unwrap_err(),
        ] {
            assert!(matches!(err, VaultError::EscapesVault { .. }), "{err}");
            assert_eq!(err.kind(), ErrorKind::Invalid);
        }
        assert_eq!(
            fs::read_to_string(outside.path().join("secret.txt")).unwrap(),
            "secret"
        );
    }

    #[test]
    fn a_linked_folder_outside_is_refused_even_for_new_files() {
        let outside = tempfile::tempdir().unwrap();
        let (dir, vault) = vault();
        symlink(outside.path(), dir.path().join("elsewhere")).unwrap();
        assert!(matches!(
            vault.resolve("elsewhere/new/deep.md"),
            Err(VaultError::EscapesVault { .. })
        ));
        assert!(matches!(
            vault.resolve_for_write("elsewhere/new.md"),
            Err(VaultError::EscapesVault { .. })
        ));
        assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_dangling_link_is_refused() {
        let outside = tempfile::tempdir().unwrap();
        let (dir, vault) = vault();
        symlink(outside.path().join("not-yet"), dir.path().join("later")).unwrap();
        assert!(matches!(
            vault.resolve_for_write("later/x.md"),
            Err(VaultError::EscapesVault { .. })
        ));
        assert!(!outside.path().join("not-yet").exists());
    }

    #[test]
    fn links_inside_the_vault_are_followed() {
        let (dir, vault) = vault();
        fs::create_dir(dir.path().join("real")).unwrap();
        symlink(dir.path().join("real"), dir.path().join("alias")).unwrap();
        let p = vault.resolve_for_write("alias/new/x.md").unwrap();
        assert_eq!(p.as_str(), "real/new/x.md", "one file, one name");
        vault.write(&p, b"x", Expect::Absent, &change()).unwrap();
        assert_eq!(fs::read(dir.path().join("real/new/x.md")).unwrap(), b"x");

        // A link to a file keeps being a link when the file is written through it.
        symlink(
            dir.path().join("real/new/x.md"),
            dir.path().join("x-link.md"),
        )
        .unwrap();
        let p = vault.resolve_for_write("x-link.md").unwrap();
        assert_eq!(p.as_str(), "real/new/x.md");
        vault.write(&p, b"y", Expect::Any, &change()).unwrap();
        assert!(
            fs::symlink_metadata(dir.path().join("x-link.md"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(dir.path().join("x-link.md")).unwrap(), b"y");

        symlink(dir.path(), dir.path().join("root-link")).unwrap();
        assert!(matches!(
            vault.resolve("root-link"),
            Err(VaultError::InvalidPath { .. })
        ));
        assert_eq!(vault.resolve("root-link/real").unwrap().as_str(), "real");
    }

    #[test]
    fn a_link_into_a_protected_folder_is_refused_for_writing() {
        let (dir, vault) = vault();
        fs::create_dir(dir.path().join(".obsidian")).unwrap();
        symlink(dir.path().join(".obsidian"), dir.path().join("settings")).unwrap();
        let err = vault.resolve_for_write("settings/app.json").unwrap_err();
        assert!(matches!(err, VaultError::Protected { .. }), "{err}");
    }

    #[test]
    fn an_easel_folder_linked_outside_refuses_every_change() {
        let outside = tempfile::tempdir().unwrap();
        let (dir, vault) = vault();
        symlink(outside.path(), dir.path().join(".easel")).unwrap();
        let p = vault.resolve_for_write("a.md").unwrap();
        let err = vault.write(&p, b"a", Expect::Any, &change()).unwrap_err();
        assert!(matches!(err, VaultError::EscapesVault { .. }), "{err}");
        assert!(!dir.path().join("a.md").exists());
        assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
    }

    /// A vault as someone else could hand it over: each of Easel's own entries under
    /// `.easel/` is a link to a place outside. Every change is refused with the link named,
    /// and nothing outside is created or changed.
    #[test]
    fn links_under_the_easel_folder_leading_outside_are_refused() {
        for internal in ["ledger.jsonl", "blobs", "locks", "tmp"] {
            let outside = tempfile::tempdir().unwrap();
            let (dir, vault) = vault();
            fs::write(dir.path().join("a.md"), b"old").unwrap();
            fs::create_dir(dir.path().join(".easel")).unwrap();
            let target = if internal == "ledger.jsonl" {
                let file = outside.path().join("ledger.jsonl");
                fs::write(&file, b"").unwrap();
                file
            } else {
                outside.path().to_path_buf()
            };
            symlink(&target, dir.path().join(".easel").join(internal)).unwrap();
            let p = vault.resolve_for_write("a.md").unwrap();
            let err = vault.write(&p, b"new", Expect::Any, &change()).unwrap_err();
            assert!(
                matches!(err, VaultError::EaselLink { .. }),
                "{internal}: {err}"
            );
            assert_eq!(err.kind(), ErrorKind::Invalid);
            assert!(err.to_string().contains(internal), "{err}");
            assert!(err.hint().contains("rm "), "{}", err.hint());
            assert_eq!(fs::read(dir.path().join("a.md")).unwrap(), b"old");
            let outside_now: Vec<_> = walk(outside.path());
            let expected: Vec<String> = if internal == "ledger.jsonl" {
                vec!["ledger.jsonl (0 bytes)".into()]
            } else {
                vec![]
            };
            assert_eq!(outside_now, expected, "{internal}");
            // Reading the history through the link is refused as well.
            assert!(vault.ledger_list(None).is_err(), "{internal}");
        }
    }

    fn walk(dir: &Path) -> Vec<String> {
        let mut found: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let len = e.metadata().unwrap().len();
                format!("{} ({len} bytes)", e.file_name().to_string_lossy())
            })
            .collect();
        found.sort();
        found
    }

    #[test]
    fn a_lock_file_or_blob_replaced_by_a_link_is_not_followed() {
        let outside = tempfile::tempdir().unwrap();
        let planted = outside.path().join("planted");
        fs::write(&planted, b"one").unwrap();
        let (dir, vault) = vault();
        let p = vault.resolve_for_write("a.md").unwrap();
        vault.write(&p, b"one", Expect::Any, &change()).unwrap();
        vault.write(&p, b"two", Expect::Any, &change()).unwrap();

        // The saved copy of "one" becomes a link to a file with the same bytes outside.
        let blobs = dir.path().join(".easel/blobs");
        for blob in fs::read_dir(&blobs).unwrap() {
            let blob = blob.unwrap().path();
            fs::remove_file(&blob).unwrap();
            symlink(&planted, &blob).unwrap();
        }
        let err = vault.undo(easel_vault::UndoTarget::Latest).unwrap_err();
        assert!(matches!(err, VaultError::EaselLink { .. }), "{err}");
        assert_eq!(fs::read(dir.path().join("a.md")).unwrap(), b"two");

        // Every lock file becomes a link to the outside file.
        for lock in fs::read_dir(dir.path().join(".easel/locks")).unwrap() {
            let lock = lock.unwrap().path();
            fs::remove_file(&lock).unwrap();
            symlink(&planted, &lock).unwrap();
        }
        let err = vault
            .write(&p, b"three", Expect::Any, &change())
            .unwrap_err();
        assert!(matches!(err, VaultError::EaselLink { .. }), "{err}");
        assert_eq!(fs::read(&planted).unwrap(), b"one");
        assert_eq!(fs::read(dir.path().join("a.md")).unwrap(), b"two");
    }

    #[test]
    fn other_easel_folders_linked_outside_are_refused_like_any_path() {
        let outside = tempfile::tempdir().unwrap();
        let (dir, vault) = vault();
        fs::create_dir(dir.path().join(".easel")).unwrap();
        for folder in ["sessions", "cache", "agents"] {
            symlink(outside.path(), dir.path().join(".easel").join(folder)).unwrap();
            let err = vault
                .resolve_for_write(&format!(".easel/{folder}/x.json"))
                .unwrap_err();
            assert!(matches!(err, VaultError::EscapesVault { .. }), "{err}");
        }
    }

    #[test]
    fn a_vault_reached_through_a_link_still_works() {
        let real = tempfile::tempdir().unwrap();
        let holder = tempfile::tempdir().unwrap();
        symlink(real.path(), holder.path().join("v")).unwrap();
        let vault = Vault::open(holder.path().join("v")).unwrap();
        let p = vault.resolve_for_write("a.md").unwrap();
        vault.write(&p, b"a", Expect::Any, &change()).unwrap();
        assert_eq!(fs::read(real.path().join("a.md")).unwrap(), b"a");
    }
}

#[test]
fn names_with_control_characters_are_refused_for_writing() {
    let (dir, vault) = vault();
    for bad in [
        "a\nb.md",
        "notes/tab\there.canvas",
        "esc\u{1b}[2J.md",
        "cr\r.md",
        "del\u{7f}.md",
        "c1\u{85}.md",
        "right-to-left\u{202e}dm.exe",
    ] {
        let err = vault.resolve_for_write(bad).unwrap_err();
        assert!(
            matches!(err, VaultError::InvalidPath { .. }),
            "{bad:?}: {err}"
        );
        assert_eq!(err.kind(), ErrorKind::Invalid);
        // The message shows the name escaped, on one line.
        assert!(!err.to_string().contains(['\n', '\r', '\u{1b}']), "{err}");
    }
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    // Reading such a file, found on disk, still works.
    fs::write(dir.path().join("a\nb.md"), b"x").unwrap();
    assert_eq!(
        vault.read(&vault.resolve("a\nb.md").unwrap()).unwrap().0,
        b"x"
    );
}

#[test]
fn discover_prefers_explicit_then_env_then_marked_ancestor_then_cwd() {
    let base = tempfile::tempdir().unwrap();
    let root = base.path().canonicalize().unwrap();
    let marked = root.join("vault");
    let cwd = marked.join("notes/deep");
    fs::create_dir_all(&cwd).unwrap();
    fs::create_dir_all(marked.join(".obsidian")).unwrap();
    let other = root.join("other");
    fs::create_dir(&other).unwrap();

    let explicit = Vault::discover(
        Some(Path::new("../../../other")),
        Some(OsStr::new("/nowhere")),
        &cwd,
    )
    .unwrap();
    assert_eq!(explicit.root(), other);
    let from_env = Vault::discover(None, Some(other.as_os_str()), &cwd).unwrap();
    assert_eq!(from_env.root(), other);
    let from_marker = Vault::discover(None, None, &cwd).unwrap();
    assert_eq!(from_marker.root(), marked);
    let empty_env = Vault::discover(None, Some(OsStr::new("")), &cwd).unwrap();
    assert_eq!(empty_env.root(), marked);
    let plain = Vault::discover(None, None, &other).unwrap();
    assert_eq!(plain.root(), other);

    fs::create_dir(other.join(".easel")).unwrap();
    let sub = other.join("sub");
    fs::create_dir(&sub).unwrap();
    assert_eq!(Vault::discover(None, None, &sub).unwrap().root(), other);
}

#[test]
fn opening_a_missing_vault_or_a_file_fails_clearly() {
    let base = tempfile::tempdir().unwrap();
    let err = Vault::open(base.path().join("missing")).unwrap_err();
    assert!(matches!(err, VaultError::VaultNotFound { .. }));
    assert_eq!(err.kind().exit_code(), 3);
    let file = base.path().join("file.md");
    fs::write(&file, "x").unwrap();
    let err = Vault::open(&file).unwrap_err();
    assert!(matches!(err, VaultError::VaultNotADirectory { .. }));
    assert!(err.to_string().contains("not a folder"));
    let err = Vault::discover(Some(Path::new("missing")), None, base.path()).unwrap_err();
    assert!(err.hint().contains("--vault"));
}
