//! What the compound layout's steps share: the chart-wide [`Ctx`] (the
//! cluster tree, each edge's route and orientation, sizes, ports) that
//! `compose` builds and `reentry` completes, and the [`Block`] each level is
//! laid out into, which `exits` and `assemble` read. A module of their own
//! so that those steps depend on it rather than on `compose`, which calls
//! them.

use std::collections::BTreeMap;

use crate::mermaid::{Direction, Flowchart};
use crate::text::TextBlock;

use super::place::Place;
use super::tree::{Item, Route, Tree};
use super::{LayoutOptions, Point};

/// One laid-out level, in its own coordinates (origin top-left).
#[derive(Debug, Default)]
pub(super) struct Block {
    pub(super) w: f32,
    pub(super) h: f32,
    /// Centres of the level's items, by slot.
    pub(super) pos: Vec<Point>,
    /// Border point of this cluster's port, per crossing edge.
    pub(super) ports: BTreeMap<usize, Point>,
    /// Path pieces drawn at this level, per edge.
    pub(super) pieces: BTreeMap<usize, Vec<Point>>,
    pub(super) labels: BTreeMap<usize, Point>,
    /// Rank-axis extents (output coordinates, frame order) of the segments
    /// this block is cut into when a port leaves through its side; empty
    /// when it is always one item.
    pub(super) segs: Vec<(f32, f32)>,
    /// Per crossing edge: the segment its port is on.
    pub(super) port_seg: BTreeMap<usize, usize>,
    /// Where each child cluster lands in this level.
    pub(super) places: BTreeMap<usize, Place>,
}

pub(super) struct Ctx<'a> {
    pub(super) chart: &'a Flowchart,
    pub(super) opts: &'a LayoutOptions,
    pub(super) tree: Tree,
    pub(super) routes: Vec<Route>,
    /// Per edge: its resolved `from` and `to`.
    pub(super) ends: Vec<(Item, Item)>,
    pub(super) node_sizes: Vec<(f32, f32)>,
    pub(super) edge_labels: Vec<Option<TextBlock>>,
    pub(super) titles: Vec<TextBlock>,
    /// Per edge: does the common level draw it upwards (reversed)?
    pub(super) reversed: Vec<bool>,
    /// Per level: (edge, inner item, port is at the frame top).
    pub(super) ports: Vec<Vec<(usize, Item, bool)>>,
    /// Per edge: does it come back into a cluster through its side (see
    /// [`super::reentry::side_entries`])?
    pub(super) side_entry: Vec<bool>,
    /// Per level: inner items `(u, v)` to draw `v` two ranks below `u`
    /// (a side entry's target below the exit that leads round to it).
    pub(super) below: Vec<Vec<(Item, Item)>>,
    pub(super) dirs: Vec<Direction>,
}
