//! Edges that meet one side of a node get attach points of their own.
//!
//! The layered paths leave and enter every node at the middle of its top or
//! bottom side, so a node with several edges on one side had them all end in
//! one point: arrowheads piled up and, where the curve came in obliquely,
//! looked like stray ticks. dagre spreads them naturally (each edge is
//! clipped along its own line to the node centre); here the attach points
//! are spread along the side in the order of where the edges go next, so
//! they neither cross nor share a point.

use std::collections::BTreeMap;

use super::Point;
use super::problem::{Problem, Solution};

/// Share of a node's width one side's attach points may use: diamonds
/// narrow toward their vertices, so theirs stay close to the middle.
const SHARE_BOX: f32 = 0.5;
const SHARE_DIAMOND: f32 = 0.3;
/// Largest gap between neighbouring attach points.
const MAX_STEP: f32 = 16.0;

/// One edge end on a side: where the edge goes next (x), the edge, and
/// whether this is its start.
type End = (f32, usize, bool);

/// A node whose sides may take spread attach points (cluster blocks and
/// their ports may not: their edges must meet the port inside).
#[derive(Debug, Clone, Copy)]
pub(super) struct Attachable {
    pub width: f32,
    pub height: f32,
    pub diamond: bool,
}

/// Spreads the attach points of every side that two or more edges share.
/// `nodes[v]` is `None` for items whose attach points are fixed.
pub(super) fn spread_sides(p: &Problem, sol: &mut Solution, nodes: &[Option<Attachable>]) {
    // (node, bottom side?) → the edge ends on that side.
    let mut sides: BTreeMap<(usize, bool), Vec<End>> = BTreeMap::new();
    for (k, e) in p.edges.iter().enumerate() {
        for at_start in [true, false] {
            let v = if at_start { e.from } else { e.to };
            if !matches!(nodes.get(v), Some(Some(_))) || e.from == e.to {
                continue;
            }
            let c = sol.centers[v];
            let pts = &sol.paths[k];
            if pts.len() < 2 {
                continue;
            }
            let next = if at_start { pts[1] } else { pts[pts.len() - 2] };
            if (next.x - c.x).abs() > 1e-3 || (next.y - c.y).abs() < 1e-3 {
                continue; // leaves sideways (a diamond's vertex exit) or degenerate
            }
            // The leg to the rank gap must not carry the edge's label.
            if sol.labels[k].is_some_and(|lp| (lp.x - c.x).abs() < 1e-3 && (lp.y - c.y).abs() <= (next.y - c.y).abs()) {
                continue;
            }
            let beyond = if pts.len() > 2 { if at_start { pts[2] } else { pts[pts.len() - 3] } } else { next };
            sides.entry((v, next.y > c.y)).or_default().push((beyond.x, k, at_start));
        }
    }
    for ((v, below), mut group) in sides {
        let Some(Some(node)) = nodes.get(v) else { continue };
        if group.len() < 2 {
            continue;
        }
        group.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        let share = if node.diamond { SHARE_DIAMOND } else { SHARE_BOX };
        let gaps = (group.len() - 1) as f32;
        let span = (node.width * share).min(MAX_STEP * gaps);
        let c = sol.centers[v];
        let side_y = if below { c.y + node.height / 2.0 } else { c.y - node.height / 2.0 };
        for (i, &(_, k, at_start)) in group.iter().enumerate() {
            let dx = -span / 2.0 + span * i as f32 / gaps;
            let pts = &mut sol.paths[k];
            let n = pts.len();
            if n > 2 {
                let leg = if at_start { 1 } else { n - 2 };
                pts[leg].x += dx;
            } else {
                // A straight edge: give it a point on the side to bend at.
                let at = if at_start { 1 } else { n - 1 };
                pts.insert(at, Point { x: c.x + dx, y: side_y });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::layered::solve;
    use crate::layout::problem::{PEdge, Pin};

    fn edge(from: usize, to: usize) -> PEdge {
        PEdge { from, to, minlen: 1, label: None, from_dx: 0.0, to_dx: 0.0 }
    }

    fn attach_point(sol: &Solution, k: usize, at_start: bool) -> Point {
        let pts = &sol.paths[k];
        if at_start { pts[1] } else { pts[pts.len() - 2] }
    }

    #[test]
    fn edges_sharing_a_side_get_distinct_points_in_order() {
        // Three sources above one target: one straight, two bent.
        let p = Problem {
            sizes: vec![(80.0, 40.0); 4],
            pins: vec![Pin::Free; 4],
            edges: vec![edge(0, 3), edge(1, 3), edge(2, 3)],
            node_sep: 50.0,
            rank_sep: 50.0,
            edge_sep: 20.0,
            chains: Vec::new(),
            below: Vec::new(),
            forward: Vec::new(),
        };
        let mut sol = solve(&p);
        let box_node = Some(Attachable { width: 80.0, height: 40.0, diamond: false });
        spread_sides(&p, &mut sol, &[box_node; 4]);
        let mut xs: Vec<(f32, f32)> = (0..3).map(|k| (sol.paths[k][0].x, attach_point(&sol, k, false).x)).collect();
        xs.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert!(xs.windows(2).all(|w| w[0].1 < w[1].1), "attach points follow the sources' order: {xs:?}");
        let c = sol.centers[3].x;
        assert!(xs.iter().all(|&(_, x)| (x - c).abs() <= 20.0 + 1e-3), "within the middle of the side: {xs:?}");
    }

    #[test]
    fn a_lone_edge_and_fixed_nodes_keep_the_middle() {
        let p = Problem {
            sizes: vec![(80.0, 40.0); 3],
            pins: vec![Pin::Free; 3],
            edges: vec![edge(0, 2), edge(1, 2)],
            node_sep: 50.0,
            rank_sep: 50.0,
            edge_sep: 20.0,
            chains: Vec::new(),
            below: Vec::new(),
            forward: Vec::new(),
        };
        let mut sol = solve(&p);
        let before = sol.paths.clone();
        spread_sides(&p, &mut sol, &[Some(Attachable { width: 80.0, height: 40.0, diamond: false }), None, None]);
        assert_eq!(sol.paths, before);
    }
}
