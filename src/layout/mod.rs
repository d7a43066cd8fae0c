//! Layered (Sugiyama) layout: [`crate::mermaid::Flowchart`] → [`Geometry`].
//!
//! Positions are in user units (1 unit = 1 px at scale 1), origin top-left,
//! y downwards. Every vector is in the same order as the model's, so index
//! `i` of `Geometry::nodes` is `chart.nodes[i]`.

use serde::{Deserialize, Serialize};

use crate::text::TextBlock;

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
