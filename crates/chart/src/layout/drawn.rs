//! The picture as drawn, reduced to what quality figures need: node
//! outlines, each edge's flattened curve (arrow pull-back and curve
//! interpolation applied, exactly as render writes it), arrowheads, edge
//! label chips and cluster titles. [`super::metrics`] measures a
//! [`Drawing`]; it can be built from a layout ([`Drawing::from_layout`]) or
//! by a tool reading another renderer's SVG, so both are counted by the
//! same code.

use std::collections::BTreeMap;

use super::curve::{Curve, drawn_curve};
use super::shapes::outline_polygon;
use super::{Geometry, Point, Rect};
use crate::mermaid::{ArrowHead, Flowchart, Shape, Stroke};

/// Length of the pieces curves are flattened into: short enough that a
/// piece never skips across a node corner or a label chip.
pub const FLATTEN_STEP: f32 = 2.0;

/// A node's drawn outline.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnNode {
    /// The model's id (names the node in reports).
    pub id: String,
    /// Convex outline polygon, vertices in order.
    pub outline: Vec<Point>,
    /// Whether it is a decision (diamond): its exits must be distinct.
    pub decision: bool,
}

/// An edge's drawn curve.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnEdge {
    /// Source and target node (index into [`Drawing::nodes`]); `None` for a
    /// subgraph end.
    pub from: Option<usize>,
    pub to: Option<usize>,
    /// The curve as drawn, flattened to pieces of at most [`FLATTEN_STEP`].
    pub curve: Vec<Point>,
    /// Arrowheads at the start and end.
    pub head_start: bool,
    pub head_end: bool,
    /// The label chip.
    pub label: Option<Rect>,
    /// Interior points of the routing polyline.
    pub corners: usize,
}

/// A subgraph box and its title.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnCluster {
    pub id: String,
    pub rect: Rect,
    pub title: Option<Rect>,
}

/// Everything a reader sees that quality figures look at.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Drawing {
    pub nodes: Vec<DrawnNode>,
    pub edges: Vec<DrawnEdge>,
    pub clusters: Vec<DrawnCluster>,
}

impl DrawnNode {
    /// Bounding box of the outline.
    pub fn rect(&self) -> Rect {
        bounds(&self.outline)
    }
}

/// Bounding box of some points (zero-sized at the origin when empty).
pub fn bounds(pts: &[Point]) -> Rect {
    let Some(first) = pts.first() else { return Rect::default() };
    let (mut lo, mut hi) = (*first, *first);
    for p in pts {
        lo = Point { x: lo.x.min(p.x), y: lo.y.min(p.y) };
        hi = Point { x: hi.x.max(p.x), y: hi.y.max(p.y) };
    }
    Rect { x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y }
}

impl Drawing {
    /// The drawing render makes of `g` with default curve `curve`.
    pub fn from_layout(chart: &Flowchart, g: &Geometry, curve: Curve) -> Drawing {
        let ids: BTreeMap<&str, usize> = chart.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
        let nodes = chart
            .nodes
            .iter()
            .zip(&g.nodes)
            .map(|(n, placed)| DrawnNode {
                id: n.id.clone(),
                outline: outline_polygon(n.shape, &placed.rect),
                decision: matches!(n.shape, Shape::Diam),
            })
            .collect();
        let edges = chart
            .edges
            .iter()
            .zip(&g.edges)
            .enumerate()
            .map(|(i, (e, routed))| {
                let visible = e.stroke != Stroke::Invisible && routed.points.len() >= 2;
                DrawnEdge {
                    from: ids.get(e.from.as_str()).copied(),
                    to: ids.get(e.to.as_str()).copied(),
                    curve: if visible {
                        drawn_curve(chart, i, &routed.points, curve, FLATTEN_STEP)
                    } else {
                        Vec::new()
                    },
                    head_start: visible && e.head_start == ArrowHead::Arrow,
                    head_end: visible && e.head_end == ArrowHead::Arrow,
                    label: routed.label.as_ref().filter(|(r, b)| r.width > 0.0 && !b.lines.is_empty()).map(|l| l.0),
                    corners: routed.points.len().saturating_sub(2),
                }
            })
            .collect();
        let clusters = chart
            .subgraphs
            .iter()
            .zip(&g.clusters)
            .map(|(s, c)| DrawnCluster {
                id: s.id.clone(),
                rect: c.rect,
                title: (c.title.0.width > 0.0).then_some(c.title.0),
            })
            .collect();
        Drawing { nodes, edges, clusters }
    }
}
