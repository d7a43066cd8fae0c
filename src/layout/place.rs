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
    fn segments_move_rigidly_and_gaps_stretch() {
        // Two segments [0, 10] and [35, 50]; the second lands 20 lower.
        let p = Place { along_x: false, cross: 5.0, knots: vec![(0.0, 100.0), (10.0, 110.0), (35.0, 155.0), (50.0, 170.0)] };
        assert_eq!(p.apply(Point { x: 1.0, y: 5.0 }), Point { x: 6.0, y: 105.0 });
        assert_eq!(p.apply(Point { x: 0.0, y: 40.0 }).y, 160.0);
        assert_eq!(p.apply(Point { x: 0.0, y: 22.5 }).y, 132.5);
        assert_eq!(p.apply(Point { x: 0.0, y: 60.0 }).y, 180.0);
        let shift = Place { along_x: true, cross: 3.0, knots: vec![(0.0, 4.0)] };
        assert_eq!(shift.apply(Point { x: 1.0, y: 1.0 }), Point { x: 5.0, y: 4.0 });
    }
}
