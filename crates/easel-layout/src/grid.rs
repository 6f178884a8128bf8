//! `grid`: boxes packed in rows (columns when the direction is right), in the order given.

use crate::flat::Axes;

/// Top-left corners of `sizes` packed in a near-square grid: each column as wide as its widest
/// box and each row as tall as its tallest, so boxes of mixed sizes never overlap.
pub(crate) fn place(sizes: &[(f64, f64)], axes: Axes, spacing: f64) -> Vec<(f64, f64)> {
    let n = sizes.len();
    if n == 0 {
        return Vec::new();
    }
    let per_line = (n as f64).sqrt().ceil().max(1.0) as usize;
    // Along a line the boxes advance on the cross axis; lines stack on the main axis.
    let lines = n.div_ceil(per_line);
    let mut cross_len = vec![0.0f64; per_line];
    let mut main_len = vec![0.0f64; lines];
    for (i, &s) in sizes.iter().enumerate() {
        let (m, c) = axes.lens(s);
        let (line, slot) = (i / per_line, i % per_line);
        cross_len[slot] = cross_len[slot].max(c);
        main_len[line] = main_len[line].max(m);
    }
    let starts = |lens: &[f64]| -> Vec<f64> {
        let mut at = 0.0;
        lens.iter()
            .map(|l| {
                let s = at;
                at += l + spacing;
                s
            })
            .collect()
    };
    let cross_at = starts(&cross_len);
    let main_at = starts(&main_len);
    (0..n)
        .map(|i| {
            // Rows of a grid read left to right: down means rows, right means columns.
            let (line, slot) = (i / per_line, i % per_line);
            let (main, cross) = (main_at[line], cross_at[slot]);
            axes.xy(main, cross)
        })
        .collect()
}
