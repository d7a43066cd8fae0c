//! Where a child cluster's block lands in its parent. A block drawn as one
//! item is just shifted; a block cut into segments (one per rank band of its
//! content, so edges can leave it at an inner rank) has each segment placed
//! on its own parent rank: along the rank axis the segments move rigidly and
//! the gaps between them may stretch, a monotone piecewise-linear map, so
//! vertical path legs stay vertical and nothing moves closer together.

use super::Point;

/// Child-local → parent-local coordinates of one cluster block.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Place {
    /// The parent's ranks run along x (LR/RL) rather than y.
    pub along_x: bool,
    /// Shift across the rank axis.
    pub cross: f32,
    /// `(child, parent)` coordinate pairs along the rank axis, sorted;
    /// linear between pairs, slope 1 beyond the ends.
    pub knots: Vec<(f32, f32)>,
}

impl Place {
    /// Maps a child-local point into the parent's coordinates.
    pub fn apply(&self, p: Point) -> Point {
        if self.along_x {
            Point { x: map(&self.knots, p.x), y: p.y + self.cross }
        } else {
            Point { x: p.x + self.cross, y: map(&self.knots, p.y) }
        }
    }
}

/// The segments a block with side exits is cut into: one per rank band
/// (frame-y extents `bands`, mapped to the output rank axis by `to_axis`)
/// from the band of the level's first box (item or child segment) to its
/// last, the first and last reaching the block's ends (0 and `extent`:
/// padding and title strip). Bands before and after hold only ports and
/// label rows; they join the end segments, so the parent does not stretch
/// the cluster around rows of nothing (a bottom exit's port, as a segment
/// of its own, once left a rank-high gap). Returns the segments and the
/// range of bands they stand for (segment `i` is band `start + i`).
pub(super) fn segments(
    bands: &[(f32, f32)],
    boxes: impl Iterator<Item = usize> + Clone,
    extent: f32,
    to_axis: impl Fn(f32) -> f32,
) -> (Vec<(f32, f32)>, std::ops::RangeInclusive<usize>) {
    let all: Vec<(f32, f32)> = bands
        .iter()
        .map(|&(t, b)| {
            let (a, z) = (to_axis(t), to_axis(b));
            (a.min(z), a.max(z))
        })
        .collect();
    let n = all.len();
    let (lo, hi) = match (boxes.clone().min(), boxes.max()) {
        (Some(lo), Some(hi)) if hi < n => (lo, hi),
        _ => (0, n.saturating_sub(1)),
    };
    let span = |r: std::ops::RangeInclusive<usize>| {
        all[r].iter().fold((f32::INFINITY, f32::NEG_INFINITY), |a, s| (a.0.min(s.0), a.1.max(s.1)))
    };
    let mut segs = if n == 0 { Vec::new() } else { all[lo..=hi].to_vec() };
    if let Some(last) = segs.len().checked_sub(1) {
        if last == 0 {
            segs[0] = span(0..=n - 1);
        } else {
            segs[0] = span(0..=lo);
            segs[last] = span(hi..=n - 1);
        }
    }
    // The ends of the block (in output order, whichever band that is)
    // take the padding and title strip.
    let first = segs.iter().enumerate().min_by(|a, b| a.1.0.total_cmp(&b.1.0)).map(|x| x.0);
    let last = segs.iter().enumerate().max_by(|a, b| a.1.1.total_cmp(&b.1.1)).map(|x| x.0);
    if let (Some(f), Some(z)) = (first, last) {
        segs[f].0 = 0.0;
        segs[z].1 = extent;
    }
    (segs, lo..=hi)
}

fn map(knots: &[(f32, f32)], v: f32) -> f32 {
    let i = knots.partition_point(|k| k.0 <= v);
    if i == 0 {
        return knots.first().map_or(v, |k| v - k.0 + k.1);
    }
    let a = knots[i - 1];
    match knots.get(i) {
        Some(&b) if b.0 - a.0 > 1e-6 => a.1 + (v - a.0) * (b.1 - a.1) / (b.0 - a.0),
        _ => v - a.0 + a.1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_and_label_rows_join_the_end_segments() {
        // Bands: top port, label row, two boxes, label row, bottom port.
        let bands = [(0.0, 0.0), (25.0, 25.0), (50.0, 100.0), (125.0, 150.0), (175.0, 175.0), (200.0, 200.0)];
        let (segs, kept) = segments(&bands, [2usize, 3, 2].into_iter(), 230.0, |y| y);
        assert_eq!(segs, vec![(0.0, 100.0), (125.0, 230.0)]);
        assert_eq!(kept, 2..=3);
        // Mapped in reverse (BT): the ends swap, the title end is at 0.
        let (segs, _) = segments(&bands, [2usize, 3].into_iter(), 230.0, |y| 200.0 - y);
        assert_eq!(segs, vec![(100.0, 230.0), (0.0, 75.0)]);
        // One box band: one segment, the whole block.
        let (segs, kept) = segments(&bands, [3usize].into_iter(), 230.0, |y| y);
        assert_eq!((segs, kept), (vec![(0.0, 230.0)], 3..=3));
    }

    #[test]
    fn segments_move_rigidly_and_gaps_stretch() {
        // Two segments [0, 10] and [35, 50]; the second lands 20 lower.
        let p = Place {
            along_x: false,
            cross: 5.0,
            knots: vec![(0.0, 100.0), (10.0, 110.0), (35.0, 155.0), (50.0, 170.0)],
        };
        assert_eq!(p.apply(Point { x: 1.0, y: 5.0 }), Point { x: 6.0, y: 105.0 });
        assert_eq!(p.apply(Point { x: 0.0, y: 40.0 }).y, 160.0);
        assert_eq!(p.apply(Point { x: 0.0, y: 22.5 }).y, 132.5);
        assert_eq!(p.apply(Point { x: 0.0, y: 60.0 }).y, 180.0);
        let shift = Place { along_x: true, cross: 3.0, knots: vec![(0.0, 4.0)] };
        assert_eq!(shift.apply(Point { x: 1.0, y: 1.0 }), Point { x: 5.0, y: 4.0 });
    }
}
