//! A writer process for the crate's crash and multi-process tests (`tests/crash.rs`,
//! `tests/concurrency.rs`), which spawn it through `CARGO_BIN_EXE_easel-vault-test-writer`
//! and kill it or wait for it. Not a tool for people.
//!
//! - `crash VAULT`: rewrite `big.md` with 256 KiB versions ([`version`]) until killed;
//! - `append VAULT TAG BARRIER COUNT`: wait until COUNT writers announced themselves in the
//!   BARRIER folder, then append lines `TAG<a|b>-<k>` (k < 15) to `log.md` from two threads
//!   through `Vault::modify`.

use std::error::Error;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use easel_vault::{Change, Expect, Vault, VaultError};

/// The size of every version `crash` writes.
const SIZE: usize = 256 * 1024;

/// Version `v`: a header naming it, then one repeated letter, always [`SIZE`] bytes. The test
/// has its own copy of this function and checks the file against it.
fn version(v: usize) -> Vec<u8> {
    let mut bytes = format!("version {v}\n").into_bytes();
    // `v % 26` is below 26, so the letter stays within `a..=z`.
    bytes.resize(SIZE, b'a' + u8::try_from(v % 26).unwrap_or(0));
    bytes
}

fn crash(vault: &Vault) -> Result<(), Box<dyn Error>> {
    let p = vault.resolve_for_write("big.md")?;
    let change = Change::new("cli", "test.crash", "write until killed");
    for v in (0..26).cycle() {
        vault.write(&p, &version(v), Expect::Any, &change)?;
    }
    Ok(())
}

fn append(vault: &Vault, tag: &str, barrier: &PathBuf, count: usize) -> Result<(), Box<dyn Error>> {
    std::fs::write(barrier.join(tag), "")?;
    let start = Instant::now();
    while std::fs::read_dir(barrier)?.count() < count {
        if start.elapsed() > Duration::from_secs(60) {
            return Err("the other writers never started".into());
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let p = vault.resolve_for_write("log.md")?;
    std::thread::scope(|s| {
        let halves: Vec<_> = ["a", "b"]
            .into_iter()
            .map(|half| {
                let p = &p;
                s.spawn(move || -> Result<(), VaultError> {
                    for k in 0..15 {
                        let line = format!("{tag}{half}-{k}\n");
                        let change = Change::new("thread", "test.append", line.trim_end());
                        vault.modify(p, Expect::Any, &change, |old| {
                            let mut bytes = old.unwrap_or_default().to_vec();
                            bytes.extend_from_slice(line.as_bytes());
                            Ok::<_, VaultError>((bytes, ()))
                        })?;
                    }
                    Ok(())
                })
            })
            .collect();
        for half in halves {
            half.join().map_err(|_| "a writer thread panicked")??;
        }
        Ok(())
    })
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: easel-vault-test-writer crash VAULT | append VAULT TAG BARRIER COUNT";
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["crash", dir] => crash(&Vault::open(dir)?),
        ["append", dir, tag, barrier, count] => append(
            &Vault::open(dir)?,
            tag,
            &PathBuf::from(barrier),
            count.parse()?,
        ),
        _ => Err(usage.into()),
    }
}
