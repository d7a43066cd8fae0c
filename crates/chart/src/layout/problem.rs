//! One layered drawing's input and output: the [`Problem`] the compound
//! layout (`compose`) builds for each level and [`layered::solve`] draws, and
//! the [`Solution`] it gets back (which `exits` and `spread` then adjust).
//! A module of their own so that `layered` and its helpers (`cycles`) and
//! its callers all depend on it rather than on each other.
//!
//! [`layered::solve`]: super::layered::solve

use super::Point;

/// An edge to lay out; `minlen` counts mermaid ranks (`-->` = 1, `--->` = 2).
#[derive(Debug, Clone, Copy)]
pub struct PEdge {
    pub from: usize,
    pub to: usize,
    pub minlen: u32,
    /// Label chip size, placed as a node on the edge's middle rank.
    pub label: Option<(f32, f32)>,
    /// Horizontal offsets of the attach points from the end nodes' centres
    /// (a cluster block is entered at its port, not its centre).
    pub from_dx: f32,
    pub to_dx: f32,
}

/// Where a node must sit in the ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pin {
    Free,
    /// Above every free node (a cluster's entry port).
    Top,
    /// Below every free node (a cluster's exit port).
    Bottom,
    /// One rank below node `v` and at an end of its layer: an exit port
    /// beside its inner item, so the edge leaves through the cluster's side
    /// at that item's level. On the last rank it falls back to `Bottom`.
    After(usize),
    /// One rank above node `v` and at an end of its layer: an entry port
    /// beside its inner item, so an edge coming back from beside the
    /// cluster enters through its side at that level and flows down into
    /// the item. On the first rank it falls back to `Top`.
    Before(usize),
}

/// The graph to draw: node sizes (top-to-bottom frame) and edges.
#[derive(Debug, Clone, Default)]
pub struct Problem {
    pub sizes: Vec<(f32, f32)>,
    pub pins: Vec<Pin>,
    pub edges: Vec<PEdge>,
    /// Vertical chains of nodes (a cluster block cut into one segment per
    /// rank band of its content): consecutive members go on consecutive
    /// ranks, one above the other, so the block spans those ranks.
    pub chains: Vec<Vec<usize>>,
    /// Ranking-only constraints `(u, v)`: `v` at least one mermaid rank
    /// below `u`, with no path drawn (dropped if they would close a cycle).
    pub below: Vec<(usize, usize)>,
    /// Edges to draw forwards where no cycle is left that way (see
    /// [`super::cycles::break_cycles`]), by index.
    pub forward: Vec<usize>,
    pub node_sep: f32,
    pub rank_sep: f32,
    pub edge_sep: f32,
}

/// Node centres, edge paths (source centre … target centre, through the
/// rank bands) and label centres, in a box `[0, width] × [0, height]`.
#[derive(Debug, Clone, Default)]
pub struct Solution {
    pub centers: Vec<Point>,
    pub paths: Vec<Vec<Point>>,
    pub labels: Vec<Option<Point>>,
    pub width: f32,
    pub height: f32,
    pub crossings: u64,
    /// Frame-y extents `(top, bottom)` of the occupied rank bands, in order.
    pub bands: Vec<(f32, f32)>,
    /// Per node of the problem: index of its band in `bands`.
    pub band_of: Vec<usize>,
    /// Per node: `Some(right)` for an `After` port put at the right (or
    /// left) end of its layer, `None` otherwise.
    pub side: Vec<Option<bool>>,
    /// Every chain came out on consecutive ranks, vertically aligned and
    /// crossed by no edge (else the caller must not draw it as one block).
    pub chains_ok: bool,
}
