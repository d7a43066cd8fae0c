//! The plain layered-graph representation every phase works on: nodes with
//! sizes, edges with minimum lengths, adjacency as index vectors (never hash
//! maps, so iteration order is fixed by construction order).

/// A node to place: a real node, a cluster block, a label or a dummy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LNode {
    pub w: f32,
    pub h: f32,
    /// Dummies (edge bends, labels) pack closer than real nodes.
    pub dummy: bool,
}

/// A directed edge with its minimum rank span.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LEdge {
    pub from: usize,
    pub to: usize,
    pub minlen: u32,
}

/// Directed multigraph with per-node in/out edge lists.
#[derive(Debug, Clone, Default)]
pub struct LGraph {
    pub nodes: Vec<LNode>,
    pub edges: Vec<LEdge>,
    pub out_edges: Vec<Vec<usize>>,
    pub in_edges: Vec<Vec<usize>>,
}

impl LGraph {
    /// Builds the adjacency lists for `nodes` and `edges`.
    pub fn new(nodes: Vec<LNode>, edges: Vec<LEdge>) -> LGraph {
        let mut g = LGraph {
            out_edges: vec![Vec::new(); nodes.len()],
            in_edges: vec![Vec::new(); nodes.len()],
            nodes,
            edges: Vec::new(),
        };
        for e in edges {
            g.add_edge(e);
        }
        g
    }

    /// Adds a node, returning its index.
    pub fn add_node(&mut self, n: LNode) -> usize {
        self.nodes.push(n);
        self.out_edges.push(Vec::new());
        self.in_edges.push(Vec::new());
        self.nodes.len() - 1
    }

    /// Adds an edge, returning its index.
    pub fn add_edge(&mut self, e: LEdge) -> usize {
        let i = self.edges.len();
        self.out_edges[e.from].push(i);
        self.in_edges[e.to].push(i);
        self.edges.push(e);
        i
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}
