//! Any text as Mermaid, DOT or an outline: the parsers never panic, an accepted diagram always
//! becomes a valid canvas without overlaps, and exporting it again gives text that imports.
#![no_main]

use easel_convert::{Format, export, import};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let format = [Format::Mermaid, Format::Dot, Format::Outline][usize::from(which) % 3];
    let Ok(imported) = import(text, format, None) else {
        return;
    };
    assert!(
        easel_canvas::validate(&imported.canvas).is_valid(),
        "an import made an invalid canvas"
    );
    assert_eq!(
        easel_layout_overlaps(&imported.canvas),
        0,
        "an import made overlapping nodes"
    );
    if format != Format::Outline {
        let again = export(&imported.canvas, format);
        assert!(
            import(&again.text, format, None).is_ok(),
            "an export does not import: {}",
            again.text
        );
    }
});

fn easel_layout_overlaps(c: &easel_canvas::Canvas) -> usize {
    let rects: Vec<_> = c
        .nodes()
        .iter()
        .filter(|n| n.kind().as_str() != "group")
        .filter_map(|n| n.rect())
        .collect();
    let mut n = 0;
    for (i, a) in rects.iter().enumerate() {
        n += rects[i + 1..].iter().filter(|b| a.overlaps(b)).count();
    }
    n
}
