//! Layered (Sugiyama) layout: [`crate::mermaid::Flowchart`] → [`Geometry`].
//!
//! Positions are in user units (1 unit = 1 px at scale 1), origin top-left,
//! y downwards. Every vector is in the same order as the model's, so index
//! `i` of `Geometry::nodes` is `chart.nodes[i]`.
//!
//! # How it works
//!
//! Turns a `Flowchart` into a `Geometry` (node boxes with their `TextBlock`s, edge polylines clipped to the shapes
//! with label boxes, cluster boxes with titles; vectors index-aligned with the model). Node sizes follow mermaid's
//! shape geometry (`shapes::shape_size`, shared with render). Clusters are laid out bottom-up as blocks (`compose`,
//! `tree`): each level is one layered drawing; an edge entering a cluster gets a port node pinned to its first
//! rank, one leaving it a port one rank below its inner item at the end of that layer, so it exits through the
//! cluster's side at that item's level (from the last rank: through the bottom). In its parent, a cluster with side
//! exits spans as many ranks as its content has rank bands, as a vertical chain of aligned segment nodes (`place`
//! moves the content rigidly per segment, stretching only the gaps), so what follows it sits beside it as in
//! mermaid; if a chain would be crossed or come out ragged, that level falls back to one-node blocks with bottom
//! exits. An edge that comes back into a cluster after a detour through a sibling (helper 2 calls helper 1, then
//! decides on its result; found by `reentry`) is no loop: it enters through the cluster's side one rank above its
//! target (`Pin::Before`), the cluster draws that target two ranks below the exit leading round to it (a
//! `Problem::below` constraint through a spacer band, so the sibling fits beside it in between), and the parent
//! draws it forwards (`Problem::forward`, honoured by `cycles`, the level's cycle breaking with blocks counted as
//! one item) when no cycle is left that way. The pieces of each edge are joined; a cluster keeps its own
//! `direction` only when no edge crosses its border (mermaid's rule). Every level is drawn top-to-bottom
//! (`layered`) and mapped to TB/BT/LR/RL (`frame`) by the phases, each a small module: `acyclic` (cycle breaking
//! inside strongly connected components only, reversing the edges that point backwards in reading order from each
//! loop's entry, then, in components of up to 100 nodes, pointing forwards again each reversed edge that closes no
//! cycle, so no forward edge is drawn upwards), `rank` (longest path plus tightening, lengths doubled so edge
//! labels get a middle rank as in dagre; on 100+ nodes cost-neutral nodes go to the least-loaded rank), dummy
//! chains with sized label nodes, `order` (depth-first initial order, barycentre sweeps plus transpose,
//! Fenwick-tree crossing count; small layerings are swept from four starts, the order and its mirror with both tie
//! biases, best kept; back edges' dummies then move to the layer ends where that adds no crossing, so loops swing
//! round the outside; after what a block's side edges lead to is pulled beside it, crossed neighbours swap back,
//! `order::untangle`), `position` (Brandes–Köpf) or, when that comes out more than 1.5× wider, `relax`
//! (least-squares edge stretch under the separation constraints, layer by layer with pool-adjacent-violators: large
//! charts stay compact) and rank bands; paths run vertically through bands and diagonally only between them, so
//! they cannot cut nodes. Self-loops, parallel edges and diamond side exits are handled at the level; then `spread`
//! gives edges that share a side of a node attach points of their own, ordered by where they go (so arrowheads
//! never pile up in one point). On the absolute drawing, `sideways` first lets a back edge whose route climbs
//! beside its box leave from that side of the box (level with its middle, where that cuts no node and crosses no
//! more edges), then `ports` gives every edge end on a node its own attach point (ends on one side or diamond
//! vertex 20 px apart, an outgoing start and an incoming end on a box side 60 px, in path order, or in the order of
//! up to five ends that crosses fewest edges) with a 12 px stub along the side's normal or the vertex's axis, so
//! heads arrive steeply and no outgoing start sits beside an incoming end, and triples any corner whose basis
//! smoothing would cut a node or another edge's label (the B-spline then passes through the corner; the polyline is
//! routed clear); before that, `tracks` moves one of two edges running along one line (and its label) aside, so
//! neither reads as the other nor crosses its label. A cluster title goes where the fewest drawn edges cross it.
//! `grid` is the flat uniform grid behind these passes and the metrics (no allocation per lookup). `curve` holds
//! the drawn curve (`Curve`, arrow pull-back, d3's basis/step/ Catmull–Rom as `Seg`ments, flattening) that render
//! writes and `drawn` turns into a `Drawing` (node outlines, flattened curves, heads, label chips, titles);
//! `metrics` measures a `Drawing`, i.e. the picture as drawn (overlaps, edges through nodes, labels/titles crossed,
//! drawn crossings, junctions, stacked/shallow heads, shared decision exits, length, bends) and lists the
//! ambiguous-picture `Defect`s `build` refuses. `examples/anchor_defects` reads mermaid-cli's SVGs into a
//! `Drawing`, so `scripts/anchor-defects.sh` counts both tools with the same code. Charts above
//! `LayoutOptions::max_nodes` (20,000) are refused with `LayoutError::TooLarge`.

use serde::{Deserialize, Serialize};

use crate::mermaid::{Direction, Flowchart};
use crate::text::{Fonts, TextBlock, TextStyle};

/// A point in user units.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
pub struct Point {
    pub x: f32,
    pub y: f32,
}

/// An axis-aligned rectangle; `x`, `y` is the top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

impl Rect {
    /// The part of segment `p`–`q` inside this rectangle, as the range of
    /// `t` (0 at `p`, 1 at `q`), or `None` when it misses (Liang–Barsky).
    /// Layout metrics test edges against nodes with it; the rasteriser
    /// clips lines to a band.
    pub fn clip_segment(&self, p: Point, q: Point) -> Option<(f32, f32)> {
        let (dx, dy) = (q.x - p.x, q.y - p.y);
        let (x1, y1) = (self.x + self.width, self.y + self.height);
        let (mut t0, mut t1) = (0.0f32, 1.0f32);
        for (pk, qk) in [(-dx, p.x - self.x), (dx, x1 - p.x), (-dy, p.y - self.y), (dy, y1 - p.y)] {
            if pk == 0.0 {
                if qk < 0.0 {
                    return None;
                }
            } else {
                let t = qk / pk;
                if pk < 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
            }
        }
        (t0 <= t1).then_some((t0, t1))
    }
}

/// The positioned drawing of a whole chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Geometry {
    /// Size of the drawing including the outer margin.
    pub width: f32,
    pub height: f32,
    pub nodes: Vec<PlacedNode>,
    pub edges: Vec<RoutedEdge>,
    pub clusters: Vec<PlacedCluster>,
}

/// A node's box and its laid-out label.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlacedNode {
    /// Bounding box of the shape.
    pub rect: Rect,
    pub label: TextBlock,
}

/// An edge's path and its label.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoutedEdge {
    /// Points the curve passes through, from the source boundary to the
    /// target boundary (already clipped to the shapes).
    pub points: Vec<Point>,
    /// Box of the label chip, centred on the path.
    pub label: Option<(Rect, TextBlock)>,
}

/// A subgraph's box and its title.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlacedCluster {
    pub rect: Rect,
    pub title: (Rect, TextBlock),
}

/// Tunables of the layout, with mermaid's defaults.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LayoutOptions {
    /// Horizontal gap between neighbouring nodes (mermaid `nodeSpacing`).
    pub node_spacing: f32,
    /// Vertical gap between ranks (mermaid `rankSpacing`).
    pub rank_spacing: f32,
    /// Gap between parallel edge segments (dagre `edgesep`).
    pub edge_spacing: f32,
    /// Label font size and wrapping.
    pub text: TextStyle,
    /// Overrides the chart's own direction (render's `--direction`).
    pub direction: Option<Direction>,
    /// Empty border around the drawing.
    pub margin: f32,
    /// Space between a cluster's border and its contents.
    pub cluster_padding: f32,
    /// Charts with more nodes are refused (see [`LayoutError::TooLarge`]).
    pub max_nodes: usize,
    /// Smooth curves (mermaid's) or right angles (`orthogonal`).
    #[serde(default)]
    pub routing: orthogonal::Routing,
}

impl Default for LayoutOptions {
    fn default() -> Self {
        LayoutOptions {
            node_spacing: 50.0,
            rank_spacing: 50.0,
            edge_spacing: 20.0,
            text: TextStyle::default(),
            direction: None,
            margin: 8.0,
            cluster_padding: 8.0,
            max_nodes: DEFAULT_MAX_NODES,
            routing: orthogonal::Routing::Spline,
        }
    }
}

/// Default node limit: layout time grows about as E log E, and 10,000 nodes
/// finish well inside 30 s; raise [`LayoutOptions::max_nodes`] for more.
pub const DEFAULT_MAX_NODES: usize = 20_000;

/// Why a chart cannot be laid out.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LayoutError {
    #[error("chart has {nodes} nodes, more than the layout limit of {limit} (raise LayoutOptions::max_nodes)")]
    TooLarge { nodes: usize, limit: usize },
    #[error("edge {edge} refers to unknown node or subgraph `{id}`")]
    UnknownEndpoint { edge: usize, id: String },
}

/// Lays out `chart`: sizes every label with `fonts`, then places nodes,
/// clusters, edges and edge labels. Deterministic for a given input.
pub fn layout(chart: &Flowchart, opts: &LayoutOptions, fonts: &Fonts) -> Result<Geometry, LayoutError> {
    if chart.nodes.len() > opts.max_nodes {
        return Err(LayoutError::TooLarge { nodes: chart.nodes.len(), limit: opts.max_nodes });
    }
    let mut g = compose::layout(chart, opts, fonts)?;
    if opts.routing == orthogonal::Routing::Orthogonal {
        orthogonal::route(&mut g);
    }
    Ok(g)
}

pub mod acyclic;
mod assemble;
mod compose;
mod context;
pub mod curve;
mod cycles;
pub mod drawn;
mod exits;
pub mod frame;
pub mod graph;
mod grid;
pub mod layered;
pub mod metrics;
pub mod order;
pub mod orthogonal;
mod place;
mod ports;
pub mod position;
pub mod problem;
pub mod rank;
mod reentry;
pub mod relax;
pub mod shapes;
mod sideways;
mod spread;
#[cfg(test)]
mod tests;
mod tracks;
pub mod tree;
