//! Decision exits: an edge that leaves (or enters) a diamond sideways uses
//! the diamond's left or right vertex, as mermaid draws it.

use super::context::Ctx;
use super::problem::{Problem, Solution};
use super::tree::Item;
use super::{Point, Rect};

/// How far a sideways exit's diagonal keeps from other boxes.
const CLEARANCE: f32 = 4.0;

/// Decision exits: an edge that leaves (or enters) a diamond towards a
/// point clearly to one side uses the diamond's left or right vertex, as in
/// mermaid, unless that diagonal would cut through another box of the level.
/// `nboxes`: nodes `0..nboxes` are boxes a diagonal must not cut.
pub(super) fn diamond_exits(
    cx: &Ctx,
    l: usize,
    p: &Problem,
    sol: &mut Solution,
    meta: &[(usize, bool, bool, Option<usize>)],
    nboxes: usize,
) {
    let items = &cx.tree.children[l];
    let is_diamond = |v: usize| matches!(items.get(v), Some(Item::Node(i)) if matches!(cx.chart.nodes[*i].shape, crate::mermaid::Shape::Diam));
    if !(0..items.len()).any(is_diamond) {
        return;
    }
    let rect_of = |c: Point, (w, h): (f32, f32)| Rect { x: c.x - w / 2.0, y: c.y - h / 2.0, width: w, height: h };
    let mut boxes: Vec<(usize, Rect)> = (0..nboxes).map(|v| (v, rect_of(sol.centers[v], p.sizes[v]))).collect();
    for (k, lp) in sol.labels.iter().enumerate() {
        if let (Some(c), Some(sz)) = (lp, p.edges[k].label) {
            boxes.push((usize::MAX - k, rect_of(*c, sz)));
        }
    }
    // Sorted by top edge so each test only visits boxes in its y-range
    // (one rank gap), never the whole level.
    boxes.sort_by(|a, b| a.1.y.total_cmp(&b.1.y).then(a.0.cmp(&b.0)));
    let max_h = boxes.iter().map(|(_, r)| r.height).fold(0.0, f32::max);
    for (k, e) in p.edges.iter().enumerate() {
        if meta[k].3.is_some() {
            continue;
        }
        for at_start in [true, false] {
            let v = if at_start { e.from } else { e.to };
            if !is_diamond(v) {
                continue;
            }
            let pts = &mut sol.paths[k];
            if !at_start {
                pts.reverse();
            }
            let c = sol.centers[v];
            let hw = p.sizes[v].0 / 2.0;
            // Only the leg to the next rank gap may be replaced, and never
            // one carrying the edge's label.
            let leg_ok = pts.len() >= 3
                && (pts[1].x - c.x).abs() < 1e-3
                && (pts[1].y - c.y).abs() <= p.sizes[v].1 / 2.0 + p.rank_sep
                && sol.labels[k]
                    .is_none_or(|lp| (lp.x - c.x).abs() > 1e-3 || (lp.y - c.y).abs() > (pts[1].y - c.y).abs());
            if leg_ok && (pts[2].x - c.x).abs() > hw {
                let side = Point { x: c.x + hw * (pts[2].x - c.x).signum(), y: c.y };
                let other = if at_start { e.to } else { e.from };
                let (lo, hi) = (side.y.min(pts[2].y), side.y.max(pts[2].y));
                let start = boxes.partition_point(|(_, r)| r.y < lo - max_h - CLEARANCE);
                // The drawn edge leaves along the vertex's axis over a
                // stub first (`ports`), and must clear boxes by a margin.
                let stub = Point { x: side.x + super::ports::STUB * (pts[2].x - c.x).signum(), y: side.y };
                let clear = |r: Rect| Rect {
                    x: r.x - CLEARANCE,
                    y: r.y - CLEARANCE,
                    width: r.width + 2.0 * CLEARANCE,
                    height: r.height + 2.0 * CLEARANCE,
                };
                let blocked = boxes[start..].iter().take_while(|(_, r)| r.y <= hi + CLEARANCE).any(|&(b, r)| {
                    b != v && b != other && b != usize::MAX - k && super::metrics::segment_hits(stub, pts[2], &clear(r))
                });
                if !blocked {
                    pts[1] = side;
                }
            }
            if !at_start {
                pts.reverse();
            }
        }
    }
}
