//! Layered (Sugiyama) layout: [`crate::mermaid::Flowchart`] → [`Geometry`].
//!
//! Positions are in user units (1 unit = 1 px at scale 1), origin top-left,
//! y downwards. Every vector is in the same order as the model's, so index
//! `i` of `Geometry::nodes` is `chart.nodes[i]`.

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
    compose::layout(chart, opts, fonts)
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
