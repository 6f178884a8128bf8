//! `easel canvas render`: SVG to stdout, PNG and SVG files, and clear refusals.
#![allow(clippy::unwrap_used)]

mod common;
use common::TestVault;

#[test]
fn svg_goes_to_stdout_and_files_take_their_format_from_the_name() {
    let v = TestVault::new();
    let out = v
        .easel()
        .args(["canvas", "render", "Research"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let svg = String::from_utf8(out.stdout).unwrap();
    assert!(svg.starts_with("<svg "), "{svg}");
    assert!(svg.contains(">Research</text>"), "the group label is drawn");

    let png = v.file("out/picture.png");
    std::fs::create_dir_all(png.parent().unwrap()).unwrap();
    let r = v.json(&[
        "canvas",
        "render",
        "Research",
        "--out",
        png.to_str().unwrap(),
        "--scale",
        "2",
    ]);
    assert_eq!(r["format"], "png");
    assert_eq!(
        (r["width"].as_u64(), r["height"].as_u64()),
        (Some(1960), Some(1560))
    );
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(r["bytes"].as_u64(), Some(bytes.len() as u64));
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // Written by the vault's atomic writer, readable like any file the user makes (a
    // tempfile-based writer left 0600 pictures nobody else could open).
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let plain = png.with_file_name("plain.txt");
    std::fs::write(&plain, b"x").unwrap();
    assert_eq!(
        mode(&png),
        mode(&plain),
        "the umask's mode, as for any new file"
    );

    let r = v.json(&["canvas", "render", "Research"]);
    assert_eq!(r["format"], "svg");
    assert!(r["svg"].as_str().unwrap().starts_with("<svg "));
    assert_eq!(r["rev"].as_str().unwrap().len(), 16);
}

#[test]
fn bad_requests_are_refused_with_a_hint() {
    let v = TestVault::new();
    let out = v
        .easel()
        .args(["canvas", "render", "Research", "--out", "x.gif"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("hint: end the --out file name in .png or .svg"),
        "{err}"
    );

    let out = v
        .easel()
        .args(["canvas", "render", "Research", "--scale", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(5));

    let out = v
        .easel()
        .args(["canvas", "render", "Nope"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("error: canvas not found: Nope.canvas"),
        "{err}"
    );
}
