//! Reading, writing, modifying, deleting and listing files, with revision checks.

// Test helpers outside #[test] functions may unwrap too: a failure there is a test failure.
#![allow(clippy::unwrap_used)]

use std::fs;

use easel_vault::{Change, ErrorKind, Expect, Rev, Vault, VaultError};

fn vault() -> (tempfile::TempDir, Vault) {
    let dir = tempfile::tempdir().unwrap();
    let vault = Vault::open(dir.path()).unwrap();
    (dir, vault)
}

fn change() -> Change {
    Change::new("cli", "test.write", "test")
}

#[test]
fn read_returns_bytes_and_rev_and_missing_files_are_not_found() {
    let (dir, vault) = vault();
    fs::write(dir.path().join("a.md"), "hello").unwrap();
    let p = vault.resolve("a.md").unwrap();
    assert!(vault.exists(&p));
    let (bytes, rev) = vault.read(&p).unwrap();
    assert_eq!(bytes, b"hello");
    assert_eq!(rev.to_string(), "2cf24dba5fb0a30e");

    let missing = vault.resolve("nope.md").unwrap();
    assert!(!vault.exists(&missing));
    let err = vault.read(&missing).unwrap_err();
    assert!(matches!(err, VaultError::NotFound { .. }));
    assert_eq!(err.kind().exit_code(), 3);

    fs::create_dir(dir.path().join("folder")).unwrap();
    let err = vault.read(&vault.resolve("folder").unwrap()).unwrap_err();
    assert!(matches!(err, VaultError::NotAFile { .. }), "{err}");
}

#[test]
fn write_checks_expectations() {
    let (_dir, vault) = vault();
    let p = vault.resolve_for_write("deep/new/a.md").unwrap();

    let err = vault
        .write(&p, b"x", Expect::Present, &change())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);
    let err = vault
        .write(&p, b"x", Expect::Rev(Rev::of(b"old")), &change())
        .unwrap_err();
    assert!(
        matches!(err, VaultError::Conflict { actual: None, .. }),
        "{err}"
    );

    let created = vault.write(&p, b"one", Expect::Absent, &change()).unwrap();
    assert_eq!(created.path, "deep/new/a.md");
    assert_eq!(created.rev_before, None);
    assert_eq!(created.rev_after, Some(Rev::of(b"one")));

    let err = vault
        .write(&p, b"two", Expect::Absent, &change())
        .unwrap_err();
    assert!(matches!(err, VaultError::AlreadyExists { .. }));
    assert_eq!(err.kind().exit_code(), 4);

    let err = vault
        .write(&p, b"two", Expect::Rev(Rev::of(b"stale")), &change())
        .unwrap_err();
    assert_eq!(err.kind().exit_code(), 4);
    assert!(
        err.to_string().contains(&Rev::of(b"one").to_string()),
        "{err}"
    );
    assert_eq!(vault.read(&p).unwrap().0, b"one");

    let second = vault
        .write(&p, b"two", Expect::Rev(Rev::of(b"one")), &change())
        .unwrap();
    assert_eq!(second.rev_before, Some(Rev::of(b"one")));
    vault
        .write(&p, b"three", Expect::Present, &change())
        .unwrap();
    vault.write(&p, b"four", Expect::Any, &change()).unwrap();
    assert_eq!(vault.read(&p).unwrap().0, b"four");
}

#[derive(Debug)]
enum AppError {
    Vault(VaultError),
    Rejected(&'static str),
}

impl From<VaultError> for AppError {
    fn from(e: VaultError) -> Self {
        AppError::Vault(e)
    }
}

#[test]
fn modify_passes_the_current_bytes_and_the_callers_errors_through() {
    let (_dir, vault) = vault();
    let p = vault.resolve_for_write("list.md").unwrap();
    let (written, seen) = vault
        .modify(&p, Expect::Any, &change(), |old| {
            Ok::<_, AppError>((b"a\n".to_vec(), old.map(<[u8]>::to_vec)))
        })
        .unwrap();
    assert_eq!(seen, None);
    assert_eq!(written.rev_before, None);

    let (_, seen) = vault
        .modify(&p, Expect::Present, &change(), |old| {
            let mut bytes = old.unwrap_or_default().to_vec();
            bytes.extend_from_slice(b"b\n");
            Ok::<_, AppError>((bytes, old.map(<[u8]>::to_vec)))
        })
        .unwrap();
    assert_eq!(seen.as_deref(), Some(&b"a\n"[..]));

    let before = vault.ledger_list(None).unwrap().len();
    let err = vault
        .modify(&p, Expect::Any, &change(), |_| {
            Err::<(Vec<u8>, ()), _>(AppError::Rejected("no"))
        })
        .unwrap_err();
    assert!(matches!(err, AppError::Rejected("no")));
    let err = vault
        .modify(&p, Expect::Rev(Rev::of(b"stale")), &change(), |_| {
            Ok::<_, AppError>((Vec::new(), ()))
        })
        .unwrap_err();
    assert!(matches!(err, AppError::Vault(VaultError::Conflict { .. })));
    assert_eq!(vault.read(&p).unwrap().0, b"a\nb\n");
    assert_eq!(
        vault.ledger_list(None).unwrap().len(),
        before,
        "failed modifications are not recorded"
    );
}

#[test]
fn delete_removes_and_records() {
    let (dir, vault) = vault();
    let p = vault.resolve_for_write("gone.md").unwrap();
    let err = vault.delete(&p, Expect::Any, &change()).unwrap_err();
    assert!(matches!(err, VaultError::NotFound { .. }));
    vault.write(&p, b"bye", Expect::Absent, &change()).unwrap();
    let err = vault
        .delete(&p, Expect::Rev(Rev::of(b"other")), &change())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Conflict);
    let deleted = vault
        .delete(&p, Expect::Rev(Rev::of(b"bye")), &change())
        .unwrap();
    assert_eq!(deleted.rev_before, Some(Rev::of(b"bye")));
    assert_eq!(deleted.rev_after, None);
    assert!(!dir.path().join("gone.md").exists());
}

#[test]
fn list_files_is_sorted_filtered_and_skips_special_folders() {
    let (dir, vault) = vault();
    let root = dir.path();
    for f in [
        "b.md",
        "a.canvas",
        "notes/c.md",
        "notes/deep/d.MD",
        ".obsidian/app.json",
        ".git/config",
        ".trash/old.md",
        ".easel/agents/x.md",
        "notes/.c.md.easel-tmp-0badf00d",
    ] {
        let path = root.join(f);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "12345").unwrap();
    }
    let all: Vec<_> = vault
        .list_files(None, true, "")
        .unwrap()
        .into_iter()
        .map(|f| f.path)
        .collect();
    assert_eq!(all, ["a.canvas", "b.md", "notes/c.md", "notes/deep/d.MD"]);
    let md: Vec<_> = vault
        .list_files(None, true, ".md")
        .unwrap()
        .into_iter()
        .map(|f| f.path)
        .collect();
    assert_eq!(md, ["b.md", "notes/c.md", "notes/deep/d.MD"]);
    let notes = vault.resolve("notes").unwrap();
    let shallow = vault.list_files(Some(&notes), false, "md").unwrap();
    assert_eq!(shallow.len(), 1);
    assert_eq!(shallow[0].path, "notes/c.md");
    assert_eq!(shallow[0].size, 5);
    assert!(shallow[0].modified > 1_600_000_000_000);

    let err = vault
        .list_files(Some(&vault.resolve("b.md").unwrap()), true, "")
        .unwrap_err();
    assert!(matches!(err, VaultError::NotAFolder { .. }));
    let err = vault
        .list_files(Some(&vault.resolve("missing").unwrap()), true, "")
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);
}

#[cfg(unix)]
#[test]
fn list_files_skips_links_leading_outside() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("secret.md"), "s").unwrap();
    let (dir, vault) = vault();
    fs::write(dir.path().join("real.md"), "r").unwrap();
    symlink(outside.path().join("secret.md"), dir.path().join("leak.md")).unwrap();
    symlink(outside.path(), dir.path().join("outdir")).unwrap();
    symlink(dir.path().join("real.md"), dir.path().join("alias.md")).unwrap();
    let all: Vec<_> = vault
        .list_files(None, true, "md")
        .unwrap()
        .into_iter()
        .map(|f| f.path)
        .collect();
    assert_eq!(all, ["alias.md", "real.md"]);
}

#[test]
fn writes_leave_no_temporary_files() {
    let (dir, vault) = vault();
    let p = vault.resolve_for_write("a.md").unwrap();
    for i in 0..5 {
        vault
            .write(&p, format!("v{i}").as_bytes(), Expect::Any, &change())
            .unwrap();
    }
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(names.iter().all(|n| !n.contains("easel-tmp")), "{names:?}");
}

#[test]
fn a_writer_that_holds_the_lock_too_long_makes_others_fail_with_locked() {
    let (_dir, vault) = vault();
    let vault = vault.with_lock_timeout(std::time::Duration::from_millis(50));
    let p = vault.resolve_for_write("busy.md").unwrap();
    let (_, inner) = vault
        .modify(&p, Expect::Any, &change(), |_| {
            // A second writer of the same file while the first holds its lock.
            let inner = vault
                .write(&p, b"inner", Expect::Any, &change())
                .unwrap_err();
            Ok::<_, VaultError>((b"outer".to_vec(), inner))
        })
        .unwrap();
    assert!(matches!(inner, VaultError::Locked { .. }), "{inner}");
    assert_eq!(inner.kind(), ErrorKind::Conflict);
    assert_eq!(vault.read(&p).unwrap().0, b"outer");

    // Other files have their own locks.
    let other = vault.resolve_for_write("other.md").unwrap();
    vault
        .modify(&p, Expect::Any, &change(), |_| {
            vault.write(&other, b"free", Expect::Any, &change())?;
            Ok::<_, VaultError>((b"outer again".to_vec(), ()))
        })
        .unwrap();
    assert_eq!(vault.read(&other).unwrap().0, b"free");
}
