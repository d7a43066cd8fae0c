//! The cluster tree of a chart and, per edge, the levels it is drawn on:
//! an edge is laid out in the innermost cluster containing both ends (its
//! LCA level) between the two items of that level holding its ends, and
//! continues inside each cluster it enters or leaves through a port.

use std::collections::BTreeMap;

use crate::mermaid::Flowchart;

use super::LayoutError;

/// A child of a level: a node or a nested cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Item {
    Node(usize),
    Cluster(usize),
}

/// Parent links and child lists; level `nclusters` is the root.
#[derive(Debug, Clone)]
pub struct Tree {
    pub node_parent: Vec<usize>,
    pub cluster_parent: Vec<usize>,
    pub children: Vec<Vec<Item>>,
    /// Index of each item in its parent's child list.
    pub node_slot: Vec<usize>,
    pub cluster_slot: Vec<usize>,
    pub root: usize,
}

impl Tree {
    /// Builds the tree from subgraph member lists. A node listed in several
    /// subgraphs belongs to the first listed (mermaid lists innermost
    /// first); memberships that would make a cycle are ignored.
    pub fn new(chart: &Flowchart, node_ix: &BTreeMap<&str, usize>, cluster_ix: &BTreeMap<&str, usize>) -> Tree {
        let nc = chart.subgraphs.len();
        let root = nc;
        let mut node_parent = vec![root; chart.nodes.len()];
        let mut cluster_parent = vec![root; nc];
        let mut node_set = vec![false; chart.nodes.len()];
        let mut cluster_set = vec![false; nc];
        for (j, sg) in chart.subgraphs.iter().enumerate() {
            for m in &sg.members {
                if let Some(&c) = cluster_ix.get(m.as_str()) {
                    if c == j || cluster_set[c] {
                        continue;
                    }
                    // Refuse if j is (already) inside c.
                    let mut a = j;
                    let mut cyclic = false;
                    while a != root {
                        if a == c {
                            cyclic = true;
                            break;
                        }
                        a = cluster_parent[a];
                    }
                    if !cyclic {
                        cluster_parent[c] = j;
                        cluster_set[c] = true;
                    }
                } else if let Some(&i) = node_ix.get(m.as_str())
                    && !node_set[i]
                {
                    node_parent[i] = j;
                    node_set[i] = true;
                }
            }
        }
        let mut children = vec![Vec::new(); nc + 1];
        for (c, &p) in cluster_parent.iter().enumerate() {
            children[p].push(Item::Cluster(c));
        }
        for (i, &p) in node_parent.iter().enumerate() {
            children[p].push(Item::Node(i));
        }
        let mut t = Tree {
            node_parent,
            cluster_parent,
            children,
            node_slot: vec![0; chart.nodes.len()],
            cluster_slot: vec![0; nc],
            root,
        };
        // Children in first-appearance order (a cluster appears with its
        // earliest node), which is the order the layout's searches follow.
        let mut first = vec![usize::MAX; nc + 1];
        for l in t.post_order() {
            let f = t.children[l].iter().map(|&it| match it {
                Item::Node(i) => i,
                Item::Cluster(c) => first[c],
            });
            let f = f.min();
            first[l] = f.unwrap_or(usize::MAX);
        }
        for kids in &mut t.children {
            kids.sort_by_key(|&it| match it {
                Item::Node(i) => (i, 1, i),
                Item::Cluster(c) => (first[c], 0, c),
            });
        }
        for kids in &t.children {
            for (s, &it) in kids.iter().enumerate() {
                match it {
                    Item::Node(i) => t.node_slot[i] = s,
                    Item::Cluster(c) => t.cluster_slot[c] = s,
                }
            }
        }
        t
    }

    /// The level directly containing `item`.
    pub fn parent(&self, item: Item) -> usize {
        match item {
            Item::Node(i) => self.node_parent[i],
            Item::Cluster(c) => self.cluster_parent[c],
        }
    }

    /// Index of `item` in its parent's child list.
    pub fn slot(&self, item: Item) -> usize {
        match item {
            Item::Node(i) => self.node_slot[i],
            Item::Cluster(c) => self.cluster_slot[c],
        }
    }

    /// `item` followed by the clusters containing it, innermost first, up to
    /// and including the root level (as `Item::Cluster(root)`).
    pub fn path_up(&self, item: Item) -> Vec<Item> {
        let mut out = vec![item];
        let mut l = self.parent(item);
        loop {
            out.push(Item::Cluster(l));
            if l == self.root {
                return out;
            }
            l = self.cluster_parent[l];
        }
    }

    /// Post-order of cluster levels (children before parents), root last.
    pub fn post_order(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![(self.root, false)];
        while let Some((l, expanded)) = stack.pop() {
            if expanded {
                out.push(l);
                continue;
            }
            stack.push((l, true));
            for it in self.children[l].iter().rev() {
                if let Item::Cluster(c) = *it {
                    stack.push((c, false));
                }
            }
        }
        out
    }
}

/// How one chart edge is drawn across levels.
#[derive(Debug, Clone, PartialEq)]
pub enum Route {
    /// Ends are the same item: a loop beside it at `level`.
    SelfLoop { level: usize, item: Item },
    /// One end is a cluster containing the other: no layered route.
    Degenerate,
    /// Drawn at `level` between `from` and `to`; `up_from` / `up_to` are
    /// the clusters (innermost first) the edge crosses on each side.
    Span { level: usize, from: Item, to: Item, up_from: Vec<usize>, up_to: Vec<usize> },
}

/// Resolves an endpoint id to an item.
pub fn endpoint(
    id: &str,
    edge: usize,
    node_ix: &BTreeMap<&str, usize>,
    cluster_ix: &BTreeMap<&str, usize>,
) -> Result<Item, LayoutError> {
    if let Some(&i) = node_ix.get(id) {
        Ok(Item::Node(i))
    } else if let Some(&c) = cluster_ix.get(id) {
        Ok(Item::Cluster(c))
    } else {
        Err(LayoutError::UnknownEndpoint { edge, id: id.to_string() })
    }
}

/// Finds the level an edge between `a` and `b` is drawn on.
pub fn route(tree: &Tree, a: Item, b: Item) -> Route {
    if a == b {
        return Route::SelfLoop { level: tree.parent(a), item: a };
    }
    let pa = tree.path_up(a);
    let pb = tree.path_up(b);
    // Deepest common element of both upward paths.
    let Some((ia, ib)) = pa.iter().enumerate().find_map(|(ia, x)| pb.iter().position(|y| y == x).map(|ib| (ia, ib)))
    else {
        return Route::Degenerate;
    };
    if ia == 0 || ib == 0 {
        return Route::Degenerate;
    }
    let Item::Cluster(level) = pa[ia] else { return Route::Degenerate };
    let clusters = |p: &[Item]| {
        p.iter().filter_map(|it| if let Item::Cluster(c) = *it { Some(c) } else { None }).collect::<Vec<_>>()
    };
    Route::Span { level, from: pa[ia - 1], to: pb[ib - 1], up_from: clusters(&pa[1..ia]), up_to: clusters(&pb[1..ib]) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mermaid::{Node, Subgraph};

    fn chart() -> Flowchart {
        let node = |id: &str| Node::new(id, id, Default::default(), Default::default());
        let sg = |id: &str, members: &[&str]| Subgraph {
            id: id.into(),
            title: id.into(),
            label_type: Default::default(),
            members: members.iter().map(|s| s.to_string()).collect(),
            direction: None,
            classes: vec![],
            styles: vec![],
            span: Default::default(),
        };
        Flowchart {
            nodes: vec![node("a"), node("b"), node("c")],
            subgraphs: vec![sg("inner", &["a"]), sg("outer", &["inner", "b"])],
            ..Default::default()
        }
    }

    #[test]
    fn routes_climb_to_the_common_level() {
        let ch = chart();
        let nix: BTreeMap<&str, usize> = ch.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
        let cix: BTreeMap<&str, usize> = ch.subgraphs.iter().enumerate().map(|(i, s)| (s.id.as_str(), i)).collect();
        let t = Tree::new(&ch, &nix, &cix);
        assert_eq!(t.node_parent, vec![0, 1, 2]);
        assert_eq!(t.post_order(), vec![0, 1, 2]);
        assert_eq!(
            route(&t, Item::Node(0), Item::Node(2)),
            Route::Span { level: 2, from: Item::Cluster(1), to: Item::Node(2), up_from: vec![0, 1], up_to: vec![] }
        );
        assert_eq!(
            route(&t, Item::Node(0), Item::Node(1)),
            Route::Span { level: 1, from: Item::Cluster(0), to: Item::Node(1), up_from: vec![0], up_to: vec![] }
        );
        assert_eq!(route(&t, Item::Node(0), Item::Cluster(1)), Route::Degenerate);
        assert_eq!(route(&t, Item::Node(2), Item::Node(2)), Route::SelfLoop { level: 2, item: Item::Node(2) });
    }
}
