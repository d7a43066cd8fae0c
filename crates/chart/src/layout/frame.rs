//! Direction handling: every level is laid out top to bottom in a "frame";
//! these maps turn sizes into the frame and frame points back into the
//! chart's direction (LR is TB with x and y exchanged, BT and RL mirrored).

use crate::mermaid::Direction;

use super::Point;

/// A `(w, h)` size as seen in the top-to-bottom frame.
pub fn size_in(dir: Direction, (w, h): (f32, f32)) -> (f32, f32) {
    match dir {
        Direction::TB | Direction::BT => (w, h),
        Direction::LR | Direction::RL => (h, w),
    }
}

/// A frame point in output coordinates, the frame being `fw × fh`.
pub fn point_out(dir: Direction, p: Point, fw: f32, fh: f32) -> Point {
    let _ = fw;
    match dir {
        Direction::TB => p,
        Direction::BT => Point { x: p.x, y: fh - p.y },
        Direction::LR => Point { x: p.y, y: p.x },
        Direction::RL => Point { x: fh - p.y, y: p.x },
    }
}

/// The output offset of a point from a box centre, measured along the
/// frame's x axis (how far from the centre an edge attaches).
pub fn frame_dx(dir: Direction, offset: Point) -> f32 {
    match dir {
        Direction::TB | Direction::BT => offset.x,
        Direction::LR | Direction::RL => offset.y,
    }
}

/// Which side of a box (in output terms) the frame's top is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Top,
    Bottom,
    Left,
    Right,
}

/// The output side the frame's top (`top = true`) or bottom maps to.
pub fn side_of(dir: Direction, top: bool) -> Side {
    match (dir, top) {
        (Direction::TB, true) | (Direction::BT, false) => Side::Top,
        (Direction::TB, false) | (Direction::BT, true) => Side::Bottom,
        (Direction::LR, true) | (Direction::RL, false) => Side::Left,
        (Direction::LR, false) | (Direction::RL, true) => Side::Right,
    }
}

/// The output side the frame's right (`right = true`) or left maps to.
pub fn side_of_x(dir: Direction, right: bool) -> Side {
    match (dir, right) {
        (Direction::TB | Direction::BT, true) => Side::Right,
        (Direction::TB | Direction::BT, false) => Side::Left,
        (Direction::LR | Direction::RL, true) => Side::Bottom,
        (Direction::LR | Direction::RL, false) => Side::Top,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transforms_round_trip_sides() {
        let p = Point { x: 1.0, y: 2.0 };
        assert_eq!(point_out(Direction::TB, p, 10.0, 20.0), p);
        assert_eq!(point_out(Direction::BT, p, 10.0, 20.0), Point { x: 1.0, y: 18.0 });
        assert_eq!(point_out(Direction::LR, p, 10.0, 20.0), Point { x: 2.0, y: 1.0 });
        assert_eq!(point_out(Direction::RL, p, 10.0, 20.0), Point { x: 18.0, y: 1.0 });
        assert_eq!(size_in(Direction::LR, (3.0, 4.0)), (4.0, 3.0));
        // The frame's top (y = 0) lands on the side side_of names.
        assert_eq!(side_of(Direction::RL, true), Side::Right);
        assert_eq!(point_out(Direction::RL, Point { x: 0.0, y: 0.0 }, 10.0, 20.0).x, 20.0);
    }
}
