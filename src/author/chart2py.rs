//! `chart2py`: a chart → a Python program, from the graph alone.
//!
//! Structured control flow is recovered with the classic reading of a
//! reducible flow graph: a decision that is the target of a back edge, or is
//! worded `More x in xs?`, heads a loop (its Yes edge is the body, its No edge
//! the loop's exit); any other decision is an `if` whose branches meet at its
//! immediate post-dominator. Inside a loop body, reaching the loop's decision
//! is `continue` and reaching its exit is `break`. When an `if` has no
//! meeting point and its Yes branch always jumps away, the No branch follows
//! un-nested. Labels carry the code, worded as [`super::labels`] writes them.

use std::collections::{HashMap, HashSet};

use super::graph::{Function, Graph, GraphError, Role};
use super::labels;

/// What reaching a node means in the current context.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stop {
    /// The branches of an `if` meet here: the branch ends, nothing emitted.
    Join,
    /// The innermost loop's decision.
    Continue,
    /// The innermost loop's exit.
    Break,
    /// The decision or exit of an enclosing (not innermost) loop.
    OuterLoop,
}

/// Translate a chart into a Python program.
pub fn chart_to_python(chart: &crate::mermaid::Flowchart) -> Result<String, GraphError> {
    let g = Graph::new(chart)?;
    let mut hoisted: Vec<String> = Vec::new();
    let mut bodies: HashMap<String, Vec<String>> = HashMap::new();
    for f in &g.functions {
        let (nodes, back) = g.search(f.start);
        // Duplicated tails (an `if` whose branches never meet) are allowed,
        // but a chart that would unfold without end is not code.
        let budget = 64 * nodes.len() + 256;
        let mut w = Writer {
            g: &g,
            out: Vec::new(),
            hoisted: &mut hoisted,
            ipdom: g.post_dominators(&nodes, &back),
            bodies: g.loop_bodies(&back),
            budget,
        };
        let mut first = g.succ[f.start].first().map(|&(t, _)| t);
        if let Some(t) = first.filter(|&t| g.roles[t] == Role::Input) {
            first = g.succ[t].first().map(|&(t, _)| t);
        }
        w.walk(first, &HashMap::new(), 1)?;
        if w.out.is_empty() {
            w.out.push("    pass".into());
        }
        bodies.insert(f.name.clone(), w.out);
    }
    let mut program: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    for h in hoisted {
        if seen.insert(h.clone()) {
            program.push(h);
        }
    }
    let entry = &g.functions[0];
    let (class, _) = split_qual(&entry.name);
    // Module-level helpers, then the entry (with its class's methods).
    for f in g.functions.iter().skip(1).filter(|f| f.parent.is_none() && split_qual(&f.name).0.is_none()) {
        emit_def(&g, f, &bodies, 0, &mut program);
    }
    match class {
        Some(c) => {
            program.push(format!("class {c}:"));
            for f in g.functions.iter().filter(|f| f.parent.is_none() && split_qual(&f.name).0 == Some(c)) {
                emit_def(&g, f, &bodies, 1, &mut program);
            }
        }
        None => emit_def(&g, entry, &bodies, 0, &mut program),
    }
    Ok(program.join("\n") + "\n")
}

fn split_qual(name: &str) -> (Option<&str>, &str) {
    match name.split_once('.') {
        Some((c, m)) => (Some(c), m),
        None => (None, name),
    }
}

/// `def` line, nested helpers, then the body, at `depth` levels of indent.
fn emit_def(g: &Graph, f: &Function, bodies: &HashMap<String, Vec<String>>, depth: usize, out: &mut Vec<String>) {
    let pad = "    ".repeat(depth);
    let (class, name) = split_qual(&f.name);
    let mut params = f.params.clone();
    if class.is_some() {
        params.insert(0, "self".into());
    }
    out.push(format!("{pad}def {name}({}):", params.join(", ")));
    for nested in g.functions.iter().filter(|h| {
        h.parent.as_deref() == Some(f.name.as_str()) || (class.is_some() && h.parent.as_deref() == Some(name))
    }) {
        emit_def(g, nested, bodies, depth + 1, out);
    }
    for line in bodies.get(&f.name).into_iter().flatten() {
        out.push(format!("{pad}{line}"));
    }
}

/// Where the flow goes after a decision.
enum Next {
    /// On at this node (`None`: the function's exit).
    At(Option<usize>),
    /// Nowhere: both branches ended; whether both ended in jumps.
    Done(bool),
}

struct Writer<'g, 'h> {
    g: &'g Graph<'g>,
    out: Vec<String>,
    hoisted: &'h mut Vec<String>,
    ipdom: HashMap<usize, Option<usize>>,
    /// Natural loop of each loop decision.
    bodies: HashMap<usize, HashSet<usize>>,
    /// Lines (and nesting) left before the reading is declared endless.
    budget: usize,
}

impl Writer<'_, '_> {
    fn line(&mut self, depth: usize, text: &str) {
        self.budget = self.budget.saturating_sub(1);
        let pad = "    ".repeat(depth);
        for l in text.lines() {
            self.out.push(format!("{pad}{l}"));
        }
    }

    fn err(&self, node: usize, message: &str) -> GraphError {
        GraphError { message: format!("node {}: {message}", self.g.chart.nodes[node].id), node: Some(node) }
    }

    /// Emits the flow from `at` until it stops; returns whether every path
    /// ended in a jump (`return`, `break`, `continue`) rather than a join.
    fn walk(&mut self, mut at: Option<usize>, stops: &HashMap<usize, Stop>, depth: usize) -> Result<bool, GraphError> {
        let g = self.g;
        if depth > 90 {
            return Err(GraphError { message: "the chart nests deeper than Python allows".into(), node: at });
        }
        loop {
            if self.budget == 0 {
                return Err(GraphError {
                    message: "the chart's flow does not close into structured code (its reading never ends)".into(),
                    node: at,
                });
            }
            let Some(n) = at else {
                self.line(depth, "return");
                return Ok(true);
            };
            match stops.get(&n) {
                Some(Stop::Join) => return Ok(false),
                Some(Stop::Continue) => {
                    self.line(depth, "continue");
                    return Ok(true);
                }
                Some(Stop::Break) => {
                    self.line(depth, "break");
                    return Ok(true);
                }
                Some(Stop::OuterLoop) => return Err(self.err(n, "a jump out of more than one loop has no Python form")),
                None => {}
            }
            match &g.roles[n] {
                Role::End => {
                    self.line(depth, "return");
                    return Ok(true);
                }
                Role::Output(value) => {
                    let text = match value {
                        Some(v) => format!("return {v}"),
                        None => "return".to_owned(),
                    };
                    self.line(depth, &text);
                    return Ok(true);
                }
                Role::Start => return Err(self.err(n, "a Start terminal inside the flow")),
                Role::Input | Role::Process => {
                    if g.roles[n] == Role::Process {
                        for s in labels::statements(&g.chart.nodes[n].label) {
                            if (s.starts_with("import ") || s.starts_with("from ")) && !s.contains('\n') {
                                self.hoisted.push(s);
                            } else {
                                self.line(depth, &s);
                            }
                        }
                    }
                    match g.succ[n].as_slice() {
                        [] => return Ok(false),
                        [(t, _)] => at = Some(*t),
                        _ => return Err(self.err(n, "a process box with more than one outgoing edge")),
                    }
                }
                Role::Decision => match self.decision(n, stops, depth)? {
                    Next::At(t) => at = t,
                    Next::Done(jumps) => return Ok(jumps),
                },
            }
        }
    }

    /// Emits a loop or an `if` at decision `n`; says where the flow goes on.
    fn decision(&mut self, n: usize, stops: &HashMap<usize, Stop>, depth: usize) -> Result<Next, GraphError> {
        let g = self.g;
        let label = g.chart.nodes[n].label.trim();
        let mut yes = g.branch(n, labels::YES).ok_or_else(|| self.err(n, "a decision without a Yes edge"))?;
        let mut no = g.branch(n, labels::NO).ok_or_else(|| self.err(n, "a decision without a No edge"))?;
        let for_loop = labels::parse_for(label);
        let cond = label.strip_suffix('?').unwrap_or(label).trim();
        if let Some(body) = self.bodies.get(&n).filter(|_| for_loop.is_none()) {
            // A loop that repeats on No (`b == 0?` No → …): `while not`.
            let negate = !body.contains(&yes) && body.contains(&no);
            if negate {
                std::mem::swap(&mut yes, &mut no);
            }
            self.line(depth, &if negate { format!("while not ({cond}):") } else { format!("while {cond}:") });
        }
        if for_loop.is_some() || self.bodies.contains_key(&n) {
            if let Some((target, iter)) = for_loop {
                self.line(depth, &format!("for {target} in {iter}:"));
            }
            let mut inner: HashMap<usize, Stop> =
                stops.iter().map(|(&k, &v)| (k, if matches!(v, Stop::Join) { v } else { Stop::OuterLoop })).collect();
            inner.insert(n, Stop::Continue);
            inner.insert(no, Stop::Break);
            let body_start = self.out.len();
            self.block(Some(yes), &inner, depth + 1)?;
            // A `continue` that ends the body is what the loop does anyway.
            let last = format!("{}continue", "    ".repeat(depth + 1));
            if self.out.len() > body_start + 1 && self.out.last() == Some(&last) {
                self.out.pop();
            }
            return Ok(Next::At(Some(no)));
        }
        self.line(depth, &format!("if {cond}:"));
        let join = self.ipdom.get(&n).copied().flatten();
        let mut inner = stops.clone();
        if let Some(j) = join {
            inner.entry(j).or_insert(Stop::Join);
        }
        let yes_jumps = self.block(Some(yes), &inner, depth + 1)?;
        if join.is_none() && yes_jumps {
            return Ok(Next::At(Some(no))); // the No branch follows un-nested
        }
        if join != Some(no) {
            self.line(depth, "else:");
            let no_jumps = self.block(Some(no), &inner, depth + 1)?;
            if join.is_none() {
                // The branches never meet: nothing follows the `if`.
                return Ok(Next::Done(yes_jumps && no_jumps));
            }
        }
        Ok(Next::At(join))
    }

    /// A nested block: `pass` when it emits nothing.
    fn block(&mut self, at: Option<usize>, stops: &HashMap<usize, Stop>, depth: usize) -> Result<bool, GraphError> {
        let before = self.out.len();
        let jumps = self.walk(at, stops, depth)?;
        if self.out.len() == before {
            self.line(depth, "pass");
        }
        Ok(jumps)
    }
}
