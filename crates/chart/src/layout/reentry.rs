//! Clusters entered again after a detour through a sibling: which edges
//! come back in through a cluster's side rather than as back edges (the
//! compound layout in `compose` then pins their ports and ranks).

use super::context::Ctx;
use super::tree::{Item, Route};

/// Edges that come back into a cluster beside it. `X → C` at level `l` is
/// a back edge there only because `C` leads round to `X` through exits of
/// inner items `u` (C → … → X); when the edge's inner target `v` reaches
/// none of those `u` inside `C`, that is no loop: drawn as a back edge,
/// `v` would sit level with `u` and be entered from below (a decision
/// above the call that leads to it). Such an edge goes forwards instead,
/// into `C`'s side at `v`'s level, and `C` draws `v` two ranks below each
/// `u`, so that `X` fits beside it in between (as dagre's joint ranking
/// has it). Only single-cluster entries: `v` is a child of `C`.
pub(super) fn side_entries(cx: &mut Ctx, level_edges: &[Vec<usize>]) {
    let tree = &cx.tree;
    let reach = |next: &[Vec<usize>], a: usize, b: usize| {
        let mut seen = vec![false; next.len()];
        let mut stack = vec![a];
        while let Some(x) = stack.pop() {
            if x == b {
                return true;
            }
            if !std::mem::replace(&mut seen[x], true) {
                stack.extend(&next[x]);
            }
        }
        false
    };
    // Per level: slot adjacency (forward edges only, or all edges).
    let adjacency = |l: usize, forward_only: bool| {
        let mut next = vec![Vec::new(); tree.children[l].len()];
        for &e in &level_edges[l] {
            if let Route::Span { from, to, .. } = &cx.routes[e]
                && !(forward_only && cx.reversed[e])
            {
                next[tree.slot(*from)].push(tree.slot(*to));
            }
        }
        next
    };
    let mut found: Vec<(usize, usize, Item, Item)> = Vec::new();
    for (l, es) in level_edges.iter().enumerate() {
        let mut forward = None;
        for &e in es {
            let Route::Span { from: x, to: Item::Cluster(c), up_to, .. } = &cx.routes[e] else { continue };
            if !cx.reversed[e] || up_to.len() != 1 {
                continue;
            }
            let next = forward.get_or_insert_with(|| adjacency(l, true));
            let v = cx.ends[e].1;
            let exits: Vec<Item> = es
                .iter()
                .filter_map(|&f| match &cx.routes[f] {
                    Route::Span { from: Item::Cluster(c2), to: y, up_from, .. }
                        if c2 == c && !cx.reversed[f] && reach(next, tree.slot(*y), tree.slot(*x)) =>
                    {
                        Some(if up_from.len() >= 2 { Item::Cluster(up_from[up_from.len() - 2]) } else { cx.ends[f].0 })
                    }
                    _ => None,
                })
                .collect();
            let inside = adjacency(*c, false);
            if !exits.is_empty() && exits.iter().all(|&u| !reach(&inside, tree.slot(v), tree.slot(u))) {
                found.extend(exits.iter().map(|&u| (e, *c, u, v)));
            }
        }
    }
    for (e, c, u, v) in found {
        cx.side_entry[e] = true;
        cx.reversed[e] = false;
        if !cx.below[c].contains(&(u, v)) {
            cx.below[c].push((u, v));
        }
    }
}
