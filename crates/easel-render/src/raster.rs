//! SVG to PNG with resvg, using only the bundled font.

use crate::font::{BOLD, FAMILY, REGULAR};
use crate::scene::Scene;
use resvg::tiny_skia;
use resvg::usvg::{self, FontResolver, fontdb};
use std::sync::{Arc, OnceLock};

/// Larger images are refused rather than allocated: 16384² RGBA is already 1 GiB.
pub const MAX_SIDE: u32 = 16_384;

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("the SVG could not be read: {0}")]
    Svg(String),
    #[error("the image would be {} pixels, more than {MAX_SIDE} on a side", pixels(*width, *height))]
    TooLarge { width: f64, height: f64 },
    #[error("the image has no area ({width}×{height})")]
    Empty { width: f32, height: f32 },
    #[error("the PNG could not be encoded: {0}")]
    Encode(String),
    #[error("an embedded image is not a readable PNG: {0}")]
    Image(String),
}

/// `1200×800`, or `1.0e12×800` when a side is too long to read as digits.
fn pixels(width: f64, height: f64) -> String {
    let side = |v: f64| {
        if v.abs() < 1e9 {
            format!("{}", v.ceil())
        } else {
            format!("{v:.1e}")
        }
    };
    format!("{}×{}", side(width), side(height))
}

impl RenderError {
    pub fn hint(&self) -> String {
        match self {
            RenderError::Svg(_) => "this is a bug in the view that made the SVG; please report it with the SVG attached".into(),
            RenderError::TooLarge { .. } => {
                "show fewer nodes (a smaller depth or max_nodes) or render at a smaller scale".into()
            }
            RenderError::Empty { .. } => "there is nothing to draw; add nodes first".into(),
            RenderError::Encode(_) => "retry; if it persists, report it".into(),
            RenderError::Image(_) => {
                "pass PNG bytes for the image (e.g. a view's .png file), or leave the image out".into()
            }
        }
    }
}

/// The bundled faces, loaded once per process.
fn fonts() -> &'static (Arc<fontdb::Database>, Option<fontdb::ID>) {
    static FONTS: OnceLock<(Arc<fontdb::Database>, Option<fontdb::ID>)> = OnceLock::new();
    FONTS.get_or_init(|| {
        let mut db = fontdb::Database::new();
        db.load_font_data(REGULAR.to_vec());
        db.load_font_data(BOLD.to_vec());
        db.set_sans_serif_family(FAMILY);
        let regular = db.query(&fontdb::Query {
            families: &[fontdb::Family::Name(FAMILY)],
            ..fontdb::Query::default()
        });
        (Arc::new(db), regular)
    })
}

/// Options whose font resolver never gives up: a family or weight that is not bundled falls
/// back to DejaVu Sans, because resvg silently drops text it has no font for.
fn options() -> usvg::Options<'static> {
    let (db, regular) = fonts();
    let regular = *regular;
    let default_select = FontResolver::default_font_selector();
    usvg::Options {
        fontdb: db.clone(),
        font_family: FAMILY.to_owned(),
        font_resolver: FontResolver {
            select_font: Box::new(move |font, db| default_select(font, db).or(regular)),
            select_fallback: FontResolver::default_fallback_selector(),
        },
        ..usvg::Options::default()
    }
}

/// Rasterizes SVG text to PNG bytes at `scale` (2.0 for sharp images on high-density screens).
pub fn svg_to_png(svg: &str, scale: f32) -> Result<Vec<u8>, RenderError> {
    encode(&svg_to_pixmap(svg, scale, None)?)
}

/// PNG bytes of a rasterized pixmap: RGB when every pixel is opaque (a view on its background
/// is), RGBA otherwise, deflated at level 1 after the Up filter. tiny-skia's own `encode_png`
/// deflates at level 6 with adaptive filters: on a 2744×2820 architecture view that took 115
/// ms against 18 ms here, for a file 27% smaller (565 against 771 kB; png's `Fast` level is as
/// quick but makes 1.35 MB).
pub(crate) fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, RenderError> {
    let pixels = pixmap.pixels();
    let (color, data) = if pixels.iter().all(|p| p.alpha() == u8::MAX) {
        let mut rgb = Vec::with_capacity(pixels.len() * 3);
        for p in pixels {
            rgb.extend_from_slice(&[p.red(), p.green(), p.blue()]);
        }
        (png::ColorType::Rgb, rgb)
    } else {
        (png::ColorType::Rgba, pixmap.clone().take_demultiplied())
    };
    let fail = |e: png::EncodingError| RenderError::Encode(e.to_string());
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(color);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_deflate_compression(png::DeflateCompression::Level(1));
    encoder.set_filter(png::Filter::Up);
    let mut writer = encoder.write_header().map_err(fail)?;
    writer.write_image_data(&data).map_err(fail)?;
    writer.finish().map_err(fail)?;
    Ok(out)
}

/// `background` fills the whole pixmap first: its last column and row, rounded up from a
/// fractional size, are otherwise left transparent, and the image would need an alpha channel.
fn svg_to_pixmap(
    svg: &str,
    scale: f32,
    background: Option<tiny_skia::Color>,
) -> Result<tiny_skia::Pixmap, RenderError> {
    let tree =
        usvg::Tree::from_str(svg, &options()).map_err(|e| RenderError::Svg(e.to_string()))?;
    let size = tree.size();
    let (w, h) = (size.width() * scale, size.height() * scale);
    if !(w >= 1.0 && h >= 1.0) {
        return Err(RenderError::Empty {
            width: w,
            height: h,
        });
    }
    let too_large = RenderError::TooLarge {
        width: f64::from(w),
        height: f64::from(h),
    };
    if !(w <= MAX_SIDE as f32 && h <= MAX_SIDE as f32) {
        return Err(too_large);
    }
    let (width, height) = (w.ceil() as u32, h.ceil() as u32);
    let mut pixmap = tiny_skia::Pixmap::new(width, height).ok_or(too_large)?;
    if let Some(color) = background {
        pixmap.fill(color);
    }
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

impl Scene {
    /// The scene as PNG bytes at `scale`. Images are drawn last, over everything else.
    pub fn to_png(&self, scale: f32) -> Result<Vec<u8>, RenderError> {
        // SVG itself rejects a zero size, with a less useful message.
        let (width, height) = (self.width * scale, self.height * scale);
        if !(width >= 1.0 && height >= 1.0) {
            return Err(RenderError::Empty { width, height });
        }
        // Checked before any SVG is written: a side that does not even fit an f32 would be
        // written as "inf" and then blamed on the SVG.
        if !(width <= MAX_SIDE as f32 && height <= MAX_SIDE as f32) {
            return Err(RenderError::TooLarge {
                width: f64::from(width),
                height: f64::from(height),
            });
        }
        // Images are composited below, so the SVG handed to resvg leaves them out: it was
        // built without image decoding and would warn about every one.
        let shapes = Scene {
            items: self
                .items
                .iter()
                .filter(|i| !matches!(i, crate::scene::Item::Image { .. }))
                .cloned()
                .collect(),
            background: self.background.clone(),
            ..*self
        };
        let mut pixmap = svg_to_pixmap(&shapes.to_svg(), scale, hex_color(&self.background))?;
        crate::image::composite(&mut pixmap, &self.items, scale)?;
        encode(&pixmap)
    }
}

/// An opaque `#rrggbb` colour; anything else is `None`.
fn hex_color(color: &str) -> Option<tiny_skia::Color> {
    let hex = color.strip_prefix('#').filter(|h| h.len() == 6)?;
    let channel = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some(tiny_skia::Color::from_rgba8(
        channel(0)?,
        channel(2)?,
        channel(4)?,
        u8::MAX,
    ))
}

/// Whether a rasterized text run produced any glyphs, for tests that guard against text
/// silently vanishing.
#[cfg(test)]
pub(crate) fn text_has_glyphs(svg: &str) -> bool {
    let Ok(tree) = usvg::Tree::from_str(svg, &options()) else {
        return false;
    };
    fn walk(group: &usvg::Group) -> bool {
        group.children().iter().any(|node| match node {
            usvg::Node::Text(t) => t
                .layouted()
                .iter()
                .any(|span| !span.positioned_glyphs.is_empty()),
            usvg::Node::Group(g) => walk(g),
            _ => false,
        })
    }
    walk(tree.root())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::font::TextStyle;

    #[test]
    fn unknown_font_families_fall_back_to_the_bundled_font() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="5" y="25" font-family="No Such Font" font-size="14">Hello</text></svg>"#;
        assert!(text_has_glyphs(svg), "text must not vanish");
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="5" y="25" font-family="monospace" font-weight="900" font-style="italic" font-size="14">Hello</text></svg>"#;
        assert!(text_has_glyphs(svg), "text must not vanish");
    }

    #[test]
    fn scenes_rasterize_to_png_at_scale() {
        let mut s = Scene::new(120.0, 40.0);
        s.boxed(2.0, 2.0, 100.0, 30.0, "#eef", "#336");
        s.text(8.0, 22.0, "Hello", TextStyle::regular(14.0), "#000");
        let png = s.to_png(2.0).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        // IHDR width and height, big-endian, at bytes 16..24.
        let w = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
        let h = u32::from_be_bytes([png[20], png[21], png[22], png[23]]);
        assert_eq!((w, h), (240, 80));
    }

    #[test]
    fn opaque_scenes_are_rgb_and_transparent_pixels_keep_their_alpha() {
        // A fractional size: the rounded-up last column and row get the background too.
        let s = Scene::new(100.5, 40.25);
        let png = s.to_png(1.0).unwrap();
        assert_eq!(png[25], 2, "IHDR colour type: RGB");
        let back = tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert_eq!((back.width(), back.height()), (101, 41));
        assert!(
            back.pixels()
                .iter()
                .all(|p| p.alpha() == 255 && p.red() == 255)
        );

        let mut p = tiny_skia::Pixmap::new(3, 2).unwrap();
        p.fill(tiny_skia::Color::from_rgba8(10, 200, 30, 128));
        let png = encode(&p).unwrap();
        assert_eq!(png[25], 6, "IHDR colour type: RGBA");
        let back = tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert_eq!((back.width(), back.height()), (3, 2));
        for (a, b) in p.data().iter().zip(back.data()) {
            assert!(a.abs_diff(*b) <= 1, "{a} against {b}");
        }
    }

    #[test]
    fn only_six_digit_hex_colours_fill_the_background() {
        assert!(hex_color("#ffffff").is_some());
        assert!(hex_color("#fff").is_none());
        assert!(hex_color("white").is_none());
        assert!(hex_color("#gg0000").is_none());
    }

    #[test]
    fn absurd_sizes_are_refused_not_allocated() {
        let s = Scene::new(100_000.0, 10.0);
        assert!(matches!(s.to_png(1.0), Err(RenderError::TooLarge { .. })));
        let s = Scene::new(0.0, 10.0);
        assert!(matches!(s.to_png(1.0), Err(RenderError::Empty { .. })));
    }
}
