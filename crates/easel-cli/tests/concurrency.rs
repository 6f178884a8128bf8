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
