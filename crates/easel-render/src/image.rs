//! Raster images inside scenes: thumbnails made from PNG bytes, and their compositing onto a
//! rasterized scene.
//!
//! resvg draws `<image>` elements only with its `raster-images` feature, which pulls in GIF,
//! WebP and JPEG decoders that nothing here needs. Our images are always PNG, and tiny-skia
//! (already part of resvg) decodes PNG, so the rasterizer draws [`Item::Image`]s itself, over
//! the vector drawing. The SVG text keeps a real `<image>` so browsers show the same picture.

use crate::raster::RenderError;
use crate::scene::Item;
use resvg::tiny_skia::{FilterQuality, Pixmap, PixmapPaint, Transform};

/// A PNG shrunk to fit a box, and the size it takes in the scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Thumbnail {
    /// PNG bytes, `density` times the scene size so that it stays sharp at that scale.
    pub png: Vec<u8>,
    pub width: f32,
    pub height: f32,
}

/// `png` shrunk (never enlarged) to fit `max_width`×`max_height` scene pixels, keeping its
/// aspect ratio, stored at `density` pixels per scene pixel.
pub fn thumbnail(
    png: &[u8],
    max_width: f32,
    max_height: f32,
    density: f32,
) -> Result<Thumbnail, RenderError> {
    let source = decode(png)?;
    let (sw, sh) = (source.width() as f32, source.height() as f32);
    let fit = (max_width / sw).min(max_height / sh).min(1.0);
    let (width, height) = ((sw * fit).max(1.0), (sh * fit).max(1.0));
    let density = density.clamp(0.25, 4.0);
    let (pw, ph) = (
        (width * density).ceil().max(1.0) as u32,
        (height * density).ceil().max(1.0) as u32,
    );
    let mut out = Pixmap::new(pw, ph).ok_or(RenderError::TooLarge {
        width: f64::from(pw),
        height: f64::from(ph),
    })?;
    draw_scaled(&mut out, &source, 0.0, 0.0, pw as f32, ph as f32);
    let png = crate::raster::encode(&out)?;
    Ok(Thumbnail { png, width, height })
}

fn decode(png: &[u8]) -> Result<Pixmap, RenderError> {
    Pixmap::decode_png(png).map_err(|e| RenderError::Image(e.to_string()))
}

/// Draws every image item of `items` onto `pixmap`, which holds the scene at `scale`.
pub(crate) fn composite(
    pixmap: &mut Pixmap,
    items: &[Item],
    scale: f32,
) -> Result<(), RenderError> {
    for item in items {
        if let Item::Image {
            x,
            y,
            width,
            height,
            png,
        } = item
        {
            let image = decode(png)?;
            draw_scaled(
                pixmap,
                &image,
                x * scale,
                y * scale,
                width * scale,
                height * scale,
            );
        }
    }
    Ok(())
}

/// Draws `image` into the rectangle at (`x`, `y`) of `width`×`height` device pixels. Large
/// reductions first halve the image with a box filter, because a bicubic filter alone samples
/// only a few source pixels per target pixel and turns text into noise.
fn draw_scaled(target: &mut Pixmap, image: &Pixmap, x: f32, y: f32, width: f32, height: f32) {
    if !(width >= 1.0 && height >= 1.0) {
        return;
    }
    let mut halved: Option<Pixmap> = None;
    loop {
        let current = halved.as_ref().unwrap_or(image);
        if current.width() as f32 >= 2.0 * width && current.height() as f32 >= 2.0 * height {
            halved = Some(halve(current));
        } else {
            break;
        }
    }
    let source = halved.as_ref().unwrap_or(image);
    let sx = width / source.width() as f32;
    let sy = height / source.height() as f32;
    let paint = PixmapPaint {
        quality: FilterQuality::Bicubic,
        ..PixmapPaint::default()
    };
    target.draw_pixmap(
        0,
        0,
        source.as_ref(),
        &paint,
        Transform::from_row(sx, 0.0, 0.0, sy, x, y),
        None,
    );
}

/// Half the size in each direction, each pixel the mean of a 2×2 block (premultiplied, so
/// transparent pixels do not darken the edges).
fn halve(image: &Pixmap) -> Pixmap {
    let (w, h) = (image.width(), image.height());
    let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
    let Some(mut out) = Pixmap::new(nw, nh) else {
        return image.clone();
    };
    let src = image.data();
    let stride = w as usize * 4;
    let dst = out.data_mut();
    for ty in 0..nh as usize {
        for tx in 0..nw as usize {
            let (x0, y0) = (tx * 2, ty * 2);
            let x1 = (x0 + 1).min(w as usize - 1);
            let y1 = (y0 + 1).min(h as usize - 1);
            for c in 0..4 {
                let sum = u32::from(src[y0 * stride + x0 * 4 + c])
                    + u32::from(src[y0 * stride + x1 * 4 + c])
                    + u32::from(src[y1 * stride + x0 * 4 + c])
                    + u32::from(src[y1 * stride + x1 * 4 + c]);
                dst[(ty * nw as usize + tx) * 4 + c] = ((sum + 2) / 4) as u8;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Scene;

    fn solid(width: u32, height: u32, rgb: (u8, u8, u8)) -> Vec<u8> {
        let mut p = Pixmap::new(width, height).unwrap();
        p.fill(resvg::tiny_skia::Color::from_rgba8(
            rgb.0, rgb.1, rgb.2, 255,
        ));
        p.encode_png().unwrap()
    }

    #[test]
    fn thumbnails_fit_their_box_and_keep_the_aspect_ratio() {
        let t = thumbnail(&solid(800, 400, (200, 0, 0)), 200.0, 200.0, 2.0).unwrap();
        assert_eq!((t.width, t.height), (200.0, 100.0));
        let p = Pixmap::decode_png(&t.png).unwrap();
        assert_eq!((p.width(), p.height()), (400, 200));
        let px = p.pixel(200, 100).unwrap();
        assert_eq!((px.red(), px.green(), px.blue()), (200, 0, 0));
        // Small images are not enlarged.
        let t = thumbnail(&solid(50, 20, (0, 0, 0)), 200.0, 200.0, 1.0).unwrap();
        assert_eq!((t.width, t.height), (50.0, 20.0));
    }

    #[test]
    fn bytes_that_are_not_png_are_an_error() {
        assert!(matches!(
            thumbnail(b"not a png", 10.0, 10.0, 1.0),
            Err(RenderError::Image(_))
        ));
    }

    #[test]
    fn images_are_drawn_into_the_raster() {
        let mut s = Scene::new(100.0, 60.0);
        s.push(Item::Image {
            x: 20.0,
            y: 10.0,
            width: 40.0,
            height: 20.0,
            png: solid(400, 200, (0, 0, 255)),
        });
        let png = s.to_png(2.0).unwrap();
        let p = Pixmap::decode_png(&png).unwrap();
        let inside = p.pixel(80, 40).unwrap();
        assert_eq!((inside.red(), inside.green(), inside.blue()), (0, 0, 255));
        let outside = p.pixel(10, 10).unwrap();
        assert_eq!(
            (outside.red(), outside.green(), outside.blue()),
            (255, 255, 255)
        );
    }
}
