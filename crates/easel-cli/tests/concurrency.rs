//! Many writers at once, and writers that die mid-write.
#![allow(clippy::unwrap_used)]

mod common;
use common::TestVault;
use std::process::{Command, Stdio};
use std::time::Duration;

fn easel_bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("easel")
}

#[test]
fn twenty_processes_adding_nodes_at_once_lose_none() {
    let v = TestVault::new();
    let children: Vec<_> = (0..20)
        .map(|i| {
            Command::new(easel_bin())
                .arg("--vault")
                .arg(v.path())
                .args(["canvas", "add-node", "Research", "--type", "text", "--text"])
                .arg(format!("writer {i}"))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let r = v.json(&["canvas", "read", "Research"]);
    assert_eq!(r["nodeCount"], 26);
    for i in 0..20 {
        let text = format!("writer {i}");
        assert!(
            r["nodes"]
                .as_array()
                .unwrap()
                .iter()
                .any(|n| n["text"] == text.as_str()),
            "lost {text}"
        );
    }
    assert_eq!(v.json(&["ledger", "--limit", "100"])["total"], 20);
    assert!(
        v.json(&["canvas", "validate", "Research"])["valid"]
            .as_bool()
            .unwrap()
    );
}

#[test]
fn a_writer_killed_mid_write_leaves_the_old_or_the_new_file() {
    let v = TestVault::new();
    // A canvas large enough that a write takes a while.
    let old = easel_canvas::synth::grid_canvas(8_000);
    std::fs::write(v.file("big.canvas"), &old).unwrap();
    let data = v.file("new.json");
    let new_nodes = easel_canvas::synth::grid_canvas(10_000);
    std::fs::write(&data, new_nodes.replacen("{\n\t\"nodes\"", "{\"nodes\"", 1)).unwrap();
    let expected_new = {
        let mut c = easel_canvas::Canvas::parse(&old).unwrap();
        let full = easel_canvas::Canvas::parse(&new_nodes).unwrap();
        let nodes = full.nodes().iter().map(|n| n.fields().clone()).collect();
        let edges = full.edges().iter().map(|e| e.fields().clone()).collect();
        c.replace(Some(nodes), Some(edges), &mut easel_canvas::IdGen::new())
            .unwrap();
        c.to_obsidian_string()
    };
    let mut outcomes = (0, 0);
    for delay_ms in [5u64, 20, 40, 60, 80, 120, 160, 250] {
        std::fs::write(v.file("big.canvas"), &old).unwrap();
        let mut child = Command::new(easel_bin())
            .arg("--vault")
            .arg(v.path())
            .args(["canvas", "update", "big", "--data"])
            .arg(&data)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        let now = std::fs::read_to_string(v.file("big.canvas")).unwrap();
        if now == old {
            outcomes.0 += 1;
        } else {
            assert_eq!(
                now.len(),
                expected_new.len(),
                "a mix of old and new after {delay_ms} ms"
            );
            assert!(
                now == expected_new,
                "unexpected content after {delay_ms} ms"
            );
            outcomes.1 += 1;
        }
        // Whatever happened, the vault is usable: a temp file left behind is not a canvas.
        let listed = v.json(&["canvas", "list"]);
        assert_eq!(listed["total"], 2, "{listed}");
    }
    assert_eq!(outcomes.0 + outcomes.1, 8);
}

/// The revisions of the canvas's recorded changes, oldest first: `(rev_before, rev_after)`.
fn recorded_revs(v: &TestVault) -> Vec<(Option<String>, Option<String>)> {
    let ledger = v.json(&["ledger", "--limit", "100000"]);
    let mut revs: Vec<_> = ledger["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let rev = |k: &str| e[k].as_str().map(str::to_owned);
            (rev("rev_before"), rev("rev_after"))
        })
        .collect();
    revs.reverse();
    revs
}

#[test]
fn writers_killed_at_any_moment_keep_the_ledger_and_undo_whole() {
    let v = TestVault::new();
    let original = std::fs::read(v.file("Research.canvas")).unwrap();
    let rev_of = |bytes: &[u8]| easel_vault::Rev::of(bytes).to_string();
    let add_node = |i: usize| {
        let mut cmd = Command::new(easel_bin());
        cmd.arg("--vault")
            .arg(v.path())
            .args(["canvas", "add-node", "Research", "--type", "text", "--text"])
            .arg(format!("note {i}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        cmd
    };
    // How long one whole call takes here, so the kills spread over all of it: start-up,
    // reading, saving the blob, staging, renaming, confirming.
    let start = std::time::Instant::now();
    assert!(add_node(0).status().unwrap().success());
    let whole = start.elapsed().as_micros().max(1) as u64;
    let mut rng = fastrand::Rng::new();

    let (mut kills, mut finished) = (0, 1);
    for i in 1..400 {
        if kills >= 24 {
            break;
        }
        let mut child = add_node(i).spawn().unwrap();
        std::thread::sleep(Duration::from_micros(rng.u64(whole / 3..whole * 11 / 10)));
        if child.try_wait().unwrap().is_some() {
            finished += 1;
        } else {
            child.kill().unwrap();
            kills += 1;
        }
        child.wait().unwrap();

        // Whatever the moment, the file is a whole canvas, and the ledger's changes form one
        // unbroken chain from the original file to the file as it is now.
        let now = std::fs::read(v.file("Research.canvas")).unwrap();
        easel_canvas::Canvas::parse(std::str::from_utf8(&now).unwrap()).unwrap();
        let revs = recorded_revs(&v);
        let mut expected = Some(rev_of(&original));
        for (k, (before, after)) in revs.iter().enumerate() {
            assert_eq!(
                before, &expected,
                "change {k} does not start where the last ended"
            );
            expected = after.clone();
        }
        assert_eq!(
            expected,
            Some(rev_of(&now)),
            "the file has a change the ledger does not know (after {kills} kills)"
        );
    }
    assert!(
        kills >= 24,
        "only {kills} of the calls were still running when killed"
    );
    // How many kills landed between an entry and its confirmation: informative only, since
    // where a kill lands is up to the scheduler.
    let ledger = std::fs::read_to_string(v.file(".easel/ledger.jsonl")).unwrap();
    let unconfirmed = ledger
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|l| l["id"].as_str().map(str::to_owned))
        .filter(|id| !ledger.contains(&format!("{{\"done\":\"{id}\"}}")))
        .count();
    eprintln!("{kills} kills, {finished} calls finished, {unconfirmed} entries left unconfirmed");

    // Undo walks back over every recorded change to the original bytes.
    let changes = recorded_revs(&v).len();
    for _ in 0..changes {
        v.easel().arg("undo").assert().success();
    }
    assert_eq!(std::fs::read(v.file("Research.canvas")).unwrap(), original);
    let out = v.easel().arg("undo").output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The killed writers' temporary files went with the next write.
    let left: Vec<_> = std::fs::read_dir(v.file(".easel/tmp")).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}
