//! The last guarantee every layout gives: no two boxes overlap. Boxes that are free to move
//! slide along one axis, nearest first, until they clear everything fixed and everything
//! already settled, so each pair is checked once and the loop always ends.

use easel_canvas::Rect;

/// Moves the boxes not marked `fixed` until no two boxes of `rects` overlap and none overlaps
/// an obstacle. `along_x` slides them right, otherwise down. Returns how many moved.
pub fn separate(
    rects: &mut [Rect],
    fixed: &[bool],
    obstacles: &[Rect],
    along_x: bool,
    gap: f64,
) -> usize {
    let mut settled: Vec<Rect> = obstacles.to_vec();
    settled.extend(
        rects
            .iter()
            .zip(fixed)
            .filter(|(_, f)| **f)
            .map(|(r, _)| *r),
    );
    let mut free: Vec<usize> = (0..rects.len()).filter(|&i| !fixed[i]).collect();
    free.sort_by(|&a, &b| {
        let key = |r: &Rect| if along_x { (r.x, r.y) } else { (r.y, r.x) };
        let (ka, kb) = (key(&rects[a]), key(&rects[b]));
        ka.0.total_cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
    });
    let mut moved = 0;
    for i in free {
        let mut r = rects[i];
        let start = r;
        // Each step jumps past the farthest box in the way, so it ends within len steps, and
        // the fallback jumps past everything.
        for _ in 0..=settled.len() {
            let blocking = settled
                .iter()
                .filter(|o| near(o, &r))
                .map(|o| if along_x { o.right() } else { o.bottom() })
                .reduce(f64::max);
            match blocking {
                None => break,
                Some(end) if along_x => r.x = end + gap,
                Some(end) => r.y = end + gap,
            }
        }
        if settled.iter().any(|o| near(o, &r))
            && let Some(all) = settled.iter().copied().reduce(|a, b| a.union(&b))
        {
            if along_x {
                r.x = all.right() + gap;
            } else {
                r.y = all.bottom() + gap;
            }
        }
        if r != start {
            moved += 1;
        }
        rects[i] = r;
        settled.push(r);
    }
    moved
}

/// Overlapping, or closer than a pixel: positions are rounded to whole pixels afterwards, and
/// two boxes that merely touched could overlap by half a pixel once rounded.
fn near(a: &Rect, b: &Rect) -> bool {
    Rect::new(a.x - 1.0, a.y - 1.0, a.width + 2.0, a.height + 2.0).overlaps(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_boxes_clear_fixed_ones() {
        let mut rects = vec![
            Rect::new(0.0, 0.0, 100.0, 100.0),
            Rect::new(50.0, 0.0, 100.0, 100.0),
            Rect::new(60.0, 20.0, 100.0, 100.0),
        ];
        let moved = separate(&mut rects, &[true, false, false], &[], true, 10.0);
        assert_eq!(moved, 2);
        for i in 0..3 {
            for j in i + 1..3 {
                assert!(!rects[i].overlaps(&rects[j]), "{rects:?}");
            }
        }
        assert_eq!(rects[0], Rect::new(0.0, 0.0, 100.0, 100.0));
    }
}
