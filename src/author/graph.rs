//! The control-flow reading of a chart, from the graph alone: which node
//! plays which part (by shape and the [`super::labels`] wording), successors
//! with their Yes/No labels, functions (the entry's `Start` and one per
//! helper subgraph), loop headers (targets of depth-first back edges) and
//! immediate post-dominators (where the two branches of a decision meet).
//! `chart2py` and `check --against` both read charts through this.

use std::collections::{HashMap, HashSet};

use crate::mermaid::{Flowchart, Shape};

use super::labels;

/// What a node does in the flow.
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    Start,
    End,
    Input,
    Output(Option<String>),
    Decision,
    Process,
}

/// One function of the chart.
#[derive(Debug, Clone)]
pub struct Function {
    /// Index of its Start terminal.
    pub start: usize,
    /// Qualified name from the Start label (`f`, `Solution.f`).
    pub name: String,
    /// Parameters from the helper's Start label, or the entry's Input node.
    pub params: Vec<String>,
    /// The function it is nested in (helpers titled `… (nested in f)`).
    pub parent: Option<String>,
    /// Index of the subgraph that holds it (`None`: the entry).
    pub subgraph: Option<usize>,
}

/// The graph view of a chart.
pub struct Graph<'a> {
    pub chart: &'a Flowchart,
    pub roles: Vec<Role>,
    /// Outgoing edges: (target, edge label).
    pub succ: Vec<Vec<(usize, Option<String>)>>,
    pub functions: Vec<Function>,
}

/// A chart that cannot be read as a program, pointing at a node.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphError {
    pub message: String,
    pub node: Option<usize>,
}

impl<'a> Graph<'a> {
    /// Reads roles, successors and functions.
    pub fn new(chart: &'a Flowchart) -> Result<Graph<'a>, GraphError> {
        let index: HashMap<&str, usize> = chart.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
        let mut succ = vec![Vec::new(); chart.nodes.len()];
        // Invisible links are layout hints, not flow.
        for e in chart.edges.iter().filter(|e| e.stroke != crate::mermaid::Stroke::Invisible) {
            let (Some(&f), Some(&t)) = (index.get(e.from.as_str()), index.get(e.to.as_str())) else {
                return Err(GraphError {
                    message: format!("edge {} → {} joins a subgraph, not a node", e.from, e.to),
                    node: None,
                });
            };
            succ[f].push((t, e.label.clone()));
        }
        let roles = chart.nodes.iter().map(|n| role(n.shape, &n.label)).collect();
        let mut member_of: HashMap<&str, usize> = HashMap::new();
        for (s, sg) in chart.subgraphs.iter().enumerate() {
            for m in &sg.members {
                member_of.insert(m, s);
            }
        }
        let mut g = Graph { chart, roles, succ, functions: Vec::new() };
        for (i, n) in chart.nodes.iter().enumerate() {
            if g.roles[i] != Role::Start {
                continue;
            }
            let (name, params) = labels::parse_start(&n.label).unwrap_or_else(|| (String::new(), None));
            let subgraph = member_of.get(n.id.as_str()).copied();
            let parent = subgraph.and_then(|s| {
                let title = &chart.subgraphs[s].title;
                let at = title.find(labels::NESTED)?;
                Some(title[at + labels::NESTED.len()..].trim_end_matches(')').to_owned())
            });
            let params = match params {
                Some(p) => p,
                None => match g.succ[i].first().map(|&(t, _)| t) {
                    Some(t) if g.roles[t] == Role::Input => {
                        labels::parse_input(&chart.nodes[t].label).unwrap_or_default()
                    }
                    _ => Vec::new(),
                },
            };
            g.functions.push(Function { start: i, name, params, parent, subgraph });
        }
        // The entry (outside every subgraph) first.
        g.functions.sort_by_key(|f| f.subgraph.is_some());
        if g.functions.first().is_none_or(|f| f.subgraph.is_some()) {
            return Err(GraphError { message: "no Start terminal outside the helper subgraphs (a terminal is a stadium whose label starts with Start: `A([\"Start: name\"])`)".into(), node: None });
        }
        Ok(g)
    }

    /// The successor along the edge labelled `label` (case-insensitive).
    pub fn branch(&self, n: usize, label: &str) -> Option<usize> {
        self.succ[n]
            .iter()
            .find(|(_, l)| l.as_deref().is_some_and(|l| l.trim().eq_ignore_ascii_case(label)))
            .map(|&(t, _)| t)
    }

    /// The natural loop of each loop decision: the decision and every node
    /// that reaches one of its back edges' tails without passing it.
    pub fn loop_bodies(&self, back: &HashSet<(usize, usize)>) -> HashMap<usize, HashSet<usize>> {
        let mut pred = vec![Vec::new(); self.succ.len()];
        self.succ.iter().enumerate().for_each(|(f, ts)| ts.iter().for_each(|&(t, _)| pred[t].push(f)));
        let mut bodies: HashMap<usize, HashSet<usize>> = HashMap::new();
        for &(tail, head) in back {
            let body = bodies.entry(head).or_insert_with(|| HashSet::from([head]));
            let mut stack = vec![tail];
            while let Some(v) = stack.pop() {
                if body.insert(v) {
                    stack.extend(pred[v].iter().copied());
                }
            }
        }
        bodies
    }

    /// Nodes reachable from `start` in depth-first preorder, and the set of
    /// back edges (to a node still on the depth-first stack).
    pub fn search(&self, start: usize) -> (Vec<usize>, HashSet<(usize, usize)>) {
        depth_first(&self.succ, &[start])
    }

    /// Immediate post-dominator of each reachable node: where the paths
    /// from it that do not jump away meet. A `return` (an edge into an Output
    /// node) leaves a node's post-dominators unconstrained; a back edge goes
    /// to a virtual "next iteration" node of its loop. `None`: every path
    /// returns, or the paths meet only at a next iteration or never.
    pub fn post_dominators(&self, nodes: &[usize], back: &HashSet<(usize, usize)>) -> HashMap<usize, Option<usize>> {
        let pos: HashMap<usize, usize> = nodes.iter().enumerate().map(|(i, &n)| (n, i)).collect();
        let k = nodes.len();
        // Set members: nodes at their position, and at `k + pos(h)` the
        // virtual next-iteration node of loop decision h.
        let width = 2 * k;
        let mut has_succ = vec![false; k];
        let mut succs: Vec<Vec<usize>> = vec![Vec::new(); k];
        for (i, &v) in nodes.iter().enumerate() {
            has_succ[i] = !self.succ[v].is_empty();
            for &(w, _) in &self.succ[v] {
                let Some(&j) = pos.get(&w) else { continue };
                if back.contains(&(v, w)) {
                    succs[i].push(k + j);
                } else if !matches!(self.roles[w], Role::Output(_)) {
                    succs[i].push(j);
                }
            }
        }
        // `None` is the universal set (no constraint), the fixpoint's start.
        let mut pdom: Vec<Option<Vec<bool>>> = vec![None; k];
        let mut changed = true;
        while changed {
            changed = false;
            for i in (0..k).rev() {
                let mut acc: Option<Vec<bool>> = if has_succ[i] { None } else { Some(vec![false; width]) };
                for &j in &succs[i] {
                    let other = if j >= k {
                        let mut v = vec![false; width];
                        v[j] = true;
                        Some(v)
                    } else {
                        pdom[j].clone()
                    };
                    if let Some(other) = other {
                        match &mut acc {
                            None => acc = Some(other),
                            Some(a) => a.iter_mut().zip(&other).for_each(|(b, &o)| *b &= o),
                        }
                    }
                }
                if let Some(a) = &mut acc {
                    a[i] = true;
                }
                if acc != pdom[i] {
                    pdom[i] = acc;
                    changed = true;
                }
            }
        }
        let size = |j: usize| {
            if j >= k { 1 } else { pdom[j].as_ref().map_or(usize::MAX, |s| s.iter().filter(|&&b| b).count()) }
        };
        (0..k)
            .map(|i| {
                // The strict post-dominator with the most post-dominators of
                // its own is the nearest; a virtual one means no meeting node.
                let nearest =
                    pdom[i].as_ref().and_then(|set| (0..width).filter(|&j| j != i && set[j]).max_by_key(|&j| size(j)));
                (nodes[i], nearest.filter(|&j| j < k).map(|j| nodes[j]))
            })
            .collect()
    }
}

/// A node's role from its shape and wording.
pub fn role(shape: Shape, label: &str) -> Role {
    let first = label.split(|c: char| !c.is_alphanumeric()).find(|w| !w.is_empty()).unwrap_or("").to_lowercase();
    match shape {
        Shape::Stadium | Shape::Circle | Shape::DblCirc | Shape::Rounded if first == "start" || first == "begin" => {
            Role::Start
        }
        Shape::Stadium | Shape::Circle | Shape::DblCirc | Shape::Rounded if first == "end" || first == "stop" => {
            Role::End
        }
        Shape::Diam | Shape::Hex => Role::Decision,
        Shape::LeanR | Shape::LeanL if first == "input" => Role::Input,
        Shape::LeanR | Shape::LeanL if first == "return" || first == "output" => output(label),
        _ if label.starts_with("Return ") || label == labels::RETURN => output(label),
        _ => Role::Process,
    }
}

/// An Output node's value: the label after its first word.
fn output(label: &str) -> Role {
    let value = label
        .split_once(' ')
        .map(|(_, v)| v.trim().trim_start_matches(':').trim().to_owned())
        .filter(|v| !v.is_empty());
    Role::Output(value)
}

/// Depth-first search from each of `roots` in turn (state shared, so a node
/// is visited once): the nodes in preorder, and the back edges (to a node
/// still on the stack), i.e. the edges that close cycles.
pub fn depth_first(succ: &[Vec<(usize, Option<String>)>], roots: &[usize]) -> (Vec<usize>, HashSet<(usize, usize)>) {
    let (mut state, mut order, mut back) = (vec![0u8; succ.len()], Vec::new(), HashSet::new());
    for &root in roots {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        order.push(root);
        let mut stack = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&(w, _)) = succ[v].get(*next) {
                *next += 1;
                match state[w] {
                    0 => {
                        state[w] = 1;
                        order.push(w);
                        stack.push((w, 0));
                    }
                    1 => {
                        back.insert((v, w));
                    }
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    (order, back)
}
