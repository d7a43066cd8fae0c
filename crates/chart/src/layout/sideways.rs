//! Back edges leave their box from a side. The layered route starts a back
//! edge at the box's upstream side (its top, in a top-down chart), right
//! beside the arrow coming in there, so the two read as one line passing
//! the box. When the route then swings out beyond the box's side to climb
//! round what it skips, it leaves from that side instead, level with the
//! box's middle, and heads straight for the climb.

use super::grid::Grid;
use super::metrics::segment_hits;
use super::ports::{STUB, attachable, polyline_crossings};
use super::shapes::clip;
use super::{Point, Rect, RoutedEdge};
use crate::mermaid::{Direction, Flowchart, Shape};

/// Room (px) a rerouted first leg keeps from another edge's label: the
/// drawn curve swings a little wider than the straight leg.
const LABEL_CLEARANCE: f32 = 8.0;

/// Reroutes the start of every back edge from a box (not a decision: its
/// exits already use its vertices) whose route climbs beside the box,
/// where the new first leg cuts no other node and crosses no more edges
/// than the old one. `ends[k]`: the nodes edge
/// `k` starts and ends at; `dir`: the chart's drawing direction.
pub(super) fn leave_sideways(
    chart: &Flowchart,
    rects: &[Rect],
    edges: &mut [RoutedEdge],
    ends: &[(Option<usize>, Option<usize>)],
    dir: Direction,
) {
    // Flow axis and its sign: y down for TB, x right for LR, ...
    let (vertical, sign) = match dir {
        Direction::TB => (true, 1.0),
        Direction::BT => (true, -1.0),
        Direction::LR => (false, 1.0),
        Direction::RL => (false, -1.0),
    };
    let along = |p: Point| if vertical { p.y } else { p.x };
    let across = |p: Point| if vertical { p.x } else { p.y };
    let make = |al: f32, ac: f32| if vertical { Point { x: ac, y: al } } else { Point { x: al, y: ac } };
    let mut grid: Option<Grid> = None;
    let mut rerouted: Vec<(usize, usize, Point)> = Vec::new();
    for (k, e) in edges.iter().enumerate() {
        let (Some(v), target) = ends[k] else { continue };
        let shape = chart.nodes[v].shape;
        if Some(v) == target
            || e.label.is_some()
            || e.points.len() < 3
            || matches!(shape, Shape::Diam)
            || !attachable(shape)
        {
            continue;
        }
        let r = rects[v];
        let (lo, hi) = if vertical { (r.x, r.x + r.width) } else { (r.y, r.y + r.height) };
        let mid = if vertical { r.y + r.height / 2.0 } else { r.x + r.width / 2.0 };
        // A back edge starts on the upstream side and heads upstream.
        let start = e.points[0];
        if (along(start) - mid) * sign >= 0.0 || (along(e.points[1]) - along(start)) * sign >= 0.0 {
            continue;
        }
        // The first point clearly beside the box, and on which side.
        let Some(j) = e.points.iter().position(|&p| across(p) > hi + STUB || across(p) < lo - STUB) else { continue };
        let to_high = across(e.points[j]) > hi;
        let side = clip(shape, &r, make(mid, if to_high { hi + 1.0 } else { lo - 1.0 }));
        // Only if the climb really starts upstream of the box's middle
        // (else the route already runs beside it).
        if (along(e.points[j]) - mid) * sign > 0.0 {
            continue;
        }
        let grid = grid.get_or_insert_with(|| Grid::new(rects));
        let leg = [side, e.points[j]];
        let area = super::drawn::bounds(&leg);
        let mut cut = false;
        grid.for_each_near(&area, |i| {
            if i != v && Some(i) != target && segment_hits(leg[0], leg[1], &rects[i]) {
                cut = true;
            }
        });
        if cut {
            continue;
        }
        rerouted.push((k, j, side));
    }
    apply_where_no_worse(edges, rerouted);
}

/// Applies the proposed first legs (edge, index of the first point beside
/// the box, side point) only where the new leg crosses no more edges than
/// the old one and no other edge's label (a decision's `Yes` chip beside
/// the climb).
fn apply_where_no_worse(edges: &mut [RoutedEdge], rerouted: Vec<(usize, usize, Point)>) {
    for (k, j, side) in rerouted {
        let (old, new) = (edges[k].points[..=j].to_vec(), [side, edges[k].points[j]]);
        let (mut before, mut after, mut through_label) = (0, 0, false);
        for (o, other) in edges.iter().enumerate() {
            if o != k {
                before += polyline_crossings(&old, &other.points);
                after += polyline_crossings(&new, &other.points);
                through_label |= other.label.as_ref().is_some_and(|(r, _)| {
                    let clear = Rect {
                        x: r.x - LABEL_CLEARANCE,
                        y: r.y - LABEL_CLEARANCE,
                        width: r.width + 2.0 * LABEL_CLEARANCE,
                        height: r.height + 2.0 * LABEL_CLEARANCE,
                    };
                    segment_hits(new[0], new[1], &clear)
                });
            }
        }
        if after <= before && !through_label {
            edges[k].points.splice(0..j, [side]);
        }
    }
}
