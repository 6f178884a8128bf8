//! Whole pictures: the shared Obsidian fixture and the example vault's canvases drawn to SVG
//! (snapshotted) and PNG (decoded, sized, and checked for drawn text).
#![allow(clippy::unwrap_used)]

use easel_canvas::Canvas;
use easel_render::{Scene, TextStyle, render_canvas};

fn decode(png: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    // A picture on an opaque background is stored as RGB; both come back as RGBA here.
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf
            .chunks(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        other => panic!("unexpected colour type {other:?}"),
    };
    (info.width, info.height, rgba)
}

fn canvas(path: &str) -> Canvas {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    Canvas::parse(&std::fs::read_to_string(format!("{root}/{path}")).unwrap()).unwrap()
}

#[test]
fn the_obsidian_fixture_draws_every_node_and_edge() {
    let c = canvas("crates/easel-canvas/tests/data/obsidian-layout.canvas");
    let scene = render_canvas(&c);
    let svg = scene.to_svg();
    insta::assert_snapshot!("obsidian_fixture_svg", svg);
    let (w, h, _) = decode(&scene.to_png(1.0).unwrap());
    assert_eq!(
        (w, h),
        (scene.width.ceil() as u32, scene.height.ceil() as u32)
    );
}

#[test]
fn example_canvases_rasterize() {
    for path in [
        "examples/vault/Research.canvas",
        "examples/vault/boards/Project plan.canvas",
    ] {
        let scene = render_canvas(&canvas(path));
        let (w, h, pixels) = decode(&scene.to_png(2.0).unwrap());
        assert_eq!(
            (w, h),
            (
                (scene.width * 2.0).ceil() as u32,
                (scene.height * 2.0).ceil() as u32
            )
        );
        let dark = pixels
            .chunks(4)
            .filter(|p| p[0] < 80 && p[1] < 80 && p[2] < 80)
            .count();
        assert!(
            dark > 500,
            "{path}: text should leave dark pixels, found {dark}"
        );
    }
}

#[test]
fn text_is_drawn_in_the_bundled_font_whatever_the_system_has() {
    // A white picture with black text: the text must produce black pixels, and the box that
    // the measured width predicts must contain them all.
    let style = TextStyle::regular(20.0);
    let label = "Impact: merge_settings()";
    let width = style.width(label);
    let mut scene = Scene::new(width + 40.0, 40.0);
    scene.text(20.0, 28.0, label, style, "#000000");
    let (w, _, pixels) = decode(&scene.to_png(1.0).unwrap());
    let inked: Vec<u32> = pixels
        .chunks(4)
        .enumerate()
        .filter(|(_, p)| p[0] < 128)
        .map(|(i, _)| i as u32 % w)
        .collect();
    assert!(
        inked.len() > 200,
        "text vanished: {} dark pixels",
        inked.len()
    );
    let (min, max) = (inked.iter().min().unwrap(), inked.iter().max().unwrap());
    assert!(
        *min >= 19 && *max as f32 <= 20.0 + width + 1.0,
        "ink from {min} to {max}, measured {width}"
    );
    assert!(
        (*max - *min) as f32 > width * 0.9,
        "ink from {min} to {max}, measured {width}"
    );
}

#[test]
fn an_empty_canvas_is_a_small_blank_picture() {
    let scene = render_canvas(&Canvas::parse(r#"{"nodes":[],"edges":[]}"#).unwrap());
    assert!(scene.items.is_empty());
    decode(&scene.to_png(1.0).unwrap());
}

#[test]
fn nodes_beyond_any_board_are_left_out_not_blamed_on_the_svg() {
    // A 1e308-wide box used to become an "inf" SVG size and a "please report this bug" error.
    let c = Canvas::parse(
        r#"{"nodes":[
        {"id":"a","type":"text","text":"kept","x":0,"y":0,"width":200,"height":80},
        {"id":"huge","type":"text","text":"t","x":0,"y":0,"width":1e308,"height":50},
        {"id":"far","type":"text","text":"t","x":1e400,"y":0,"width":10,"height":10}]}"#,
    )
    .unwrap();
    let scene = render_canvas(&c);
    assert!(
        scene.width < 1000.0 && scene.height < 1000.0,
        "{}x{}",
        scene.width,
        scene.height
    );
    let (w, h, _) = decode(&scene.to_png(1.0).unwrap());
    assert!(w > 200 && h > 80);
}

#[test]
fn a_scene_too_large_for_a_picture_is_refused_with_its_size() {
    let scene = Scene::new(f32::INFINITY, 100.0);
    let err = scene.to_png(1.0).unwrap_err();
    assert!(
        matches!(err, easel_render::RenderError::TooLarge { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("inf×100"), "{err}");
    let err = Scene::new(40_000.0, 100.0).to_png(1.0).unwrap_err();
    assert!(err.to_string().contains("40000×100"), "{err}");
}
