//! Renders a canvas file to SVG and PNG: `cargo run -p easel-render --example render_canvas -- FILE.canvas OUT`
//! (writes OUT.svg and OUT.png).
use easel_canvas::Canvas;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(input), Some(out)) = (args.next(), args.next()) else {
        return Err("usage: render_canvas FILE.canvas OUT".into());
    };
    let canvas = Canvas::parse(&std::fs::read_to_string(&input)?)?;
    let scene = easel_render::render_canvas(&canvas);
    std::fs::write(format!("{out}.svg"), scene.to_svg())?;
    std::fs::write(format!("{out}.png"), scene.to_png(1.0)?)?;
    Ok(())
}
