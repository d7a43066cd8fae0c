//! The one reading of a chart, whatever its conventions: what each node does
//! (by its shape and wording, read by [`super::labels`]' conventions and
//! [`super::prose`]' plain-English ones), its successors with their Yes/No
//! branches, and the functions: the entry (from the first `Start`) and one
//! per helper subgraph, with the helper's calls and returns cut out of the
//! flow. A helper may be drawn standalone with its own `Start` (flowbench's
//! convention) or inline, the caller's edge running into the subgraph and
//! the helper's returns running back out to where the caller goes on
//! (Code-Vision's); both read as the same functions.
//!
//! `chart2py` writes a [`Graph`] as Python; `check --against` reads its
//! facts ([`super::facts`]). Loop headers (targets of depth-first back
//! edges), natural loops and immediate post-dominators are computed here.

use std::collections::{HashMap, HashSet};

use flowbench_chart::mermaid::{Flowchart, Shape, Stroke};

use super::expr;
use super::labels;
use super::prose::{self, ForEach, Line};

/// Which way an edge leaves a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Branch {
    Next,
    Yes,
    No,
}

/// What a node does.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Start,
    End,
    /// The entry's parameters.
    Input,
    Steps(Vec<Line>),
    /// A test: its condition (or a loop's wording), and the iteration when
    /// worded as one (`More x in xs?`).
    Decision {
        test: Line,
        each: Option<ForEach>,
    },
    /// `None`: a bare `Return`.
    Return(Option<Line>),
}

/// One node of the reading.
#[derive(Debug, Clone)]
pub struct Node {
    /// The chart node it stands for (a node the reading adds, such as the
    /// test on a helper's result, stands for the call's node).
    pub origin: usize,
    pub kind: Kind,
    pub succ: Vec<(usize, Branch)>,
}

/// One function of the chart.
#[derive(Debug, Clone)]
pub struct Function {
    /// `name`, or `Class.name` for a method.
    pub name: String,
    /// Parameters as Python source, when the chart names them plainly.
    pub params: Option<Vec<String>>,
    /// The node naming the parameters (Input, or the Start that lists them).
    pub input: Option<usize>,
    pub start: Option<usize>,
    /// The first node of the body (`None`: an empty function).
    pub entry: Option<usize>,
    /// The subgraph holding it (`None`: the entry function).
    pub subgraph: Option<usize>,
    /// The function it is nested in (flowbench's `(nested in f)` titles).
    pub parent: Option<String>,
}

/// The reading of a chart.
pub struct Graph<'a> {
    pub chart: &'a Flowchart,
    /// Chart nodes first (same indices), then nodes the reading added.
    pub nodes: Vec<Node>,
    /// The entry first.
    pub functions: Vec<Function>,
    /// Prose box lines (chart node, text) given the code line their words
    /// matched (`check --against`'s pairing): a reading of the words in
    /// the chart's own context, when there is one, goes first.
    pub borrowed: Vec<(usize, String)>,
}

/// A chart that cannot be read as a program, pointing at a node.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphError {
    pub message: String,
    pub node: Option<usize>,
    /// The flow is fine but a label is prose (not code): the chart is no
    /// program, though its structure may be faithful.
    pub prose: bool,
}

impl<'a> Graph<'a> {
    /// The reading with the lines that call a reading's helpers
    /// ([`prose::HELPER_PREFIX`]) as prose again: what the structural
    /// comparison reads, since such code does the words' work but is not
    /// the solution's own.
    pub fn without_helper_calls(mut self) -> Graph<'a> {
        let scrub = |l: &mut Line| {
            if l.code.as_deref().is_some_and(|c| c.contains(prose::HELPER_PREFIX)) {
                l.code = None;
            }
        };
        for node in &mut self.nodes {
            match &mut node.kind {
                Kind::Steps(lines) => lines.iter_mut().for_each(scrub),
                Kind::Decision { test, .. } => scrub(test),
                Kind::Return(Some(l)) => scrub(l),
                _ => {}
            }
        }
        self
    }

    /// Reads a chart: node kinds, branches, functions, calls cut.
    pub fn new(chart: &'a Flowchart) -> Result<Graph<'a>, GraphError> {
        let index: HashMap<&str, usize> = chart.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
        let mut edges = Vec::new();
        // Invisible links are layout hints, not flow.
        for (k, e) in chart
            .edges
            .iter()
            .enumerate()
            .filter(|(_, e)| e.stroke != Stroke::Invisible && !is_call_annotation(chart, e))
        {
            let (Some(&f), Some(&t)) = (index.get(e.from.as_str()), index.get(e.to.as_str())) else {
                return Err(GraphError {
                    message: format!("edge {} → {} joins a subgraph, not a node", e.from, e.to),
                    node: None,
                    prose: false,
                });
            };
            edges.push(FlowEdge { from: f, to: t, label: e.label.clone(), order: k });
        }
        let mut out_degree = vec![0; chart.nodes.len()];
        edges.iter().for_each(|e| out_degree[e.from] += 1);
        let mut in_degree = vec![0; chart.nodes.len()];
        edges.iter().for_each(|e| in_degree[e.to] += 1);
        let nodes: Vec<Node> = chart
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let mut k = kind(n.shape, &n.label, out_degree[i]);
                if in_degree[i] == 0 && is_bare_signature(n.shape, &n.label) {
                    k = Kind::Start;
                }
                Node { origin: i, kind: k, succ: Vec::new() }
            })
            .collect();
        let mut g = Graph { chart, nodes, functions: Vec::new(), borrowed: Vec::new() };
        let member_of = g.find_functions(&edges)?;
        g.link(&edges, &member_of);
        g.absorb_call_boxes();
        g.end_dangling_iterations();
        g.expand_conditionals();
        Ok(g)
    }

    /// The successor along `branch`.
    pub fn branch(&self, n: usize, branch: Branch) -> Option<usize> {
        self.nodes[n].succ.iter().find(|(_, b)| *b == branch).map(|&(t, _)| t)
    }

    /// Successor lists (targets only), for the searches.
    pub fn targets(&self) -> Vec<Vec<usize>> {
        self.nodes.iter().map(|n| n.succ.iter().map(|&(t, _)| t).collect()).collect()
    }

    /// Nodes reachable from `start` in depth-first preorder, and the back
    /// edges (to a node still on the depth-first stack).
    pub fn search(&self, start: usize) -> (Vec<usize>, HashSet<(usize, usize)>) {
        depth_first(&self.targets(), &[start])
    }

    /// The chart text of node `n`'s label.
    pub fn label(&self, n: usize) -> &str {
        &self.chart.nodes[self.nodes[n].origin].label
    }

    /// Finds the functions; returns each node's function (`None`: in no
    /// function's flow, e.g. a stray note).
    fn find_functions(&mut self, edges: &[FlowEdge]) -> Result<Vec<Option<usize>>, GraphError> {
        let chart = self.chart;
        let n = chart.nodes.len();
        let index: HashMap<&str, usize> = chart.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
        let sub_index: HashMap<&str, usize> =
            chart.subgraphs.iter().enumerate().map(|(i, s)| (s.id.as_str(), i)).collect();
        // Innermost subgraph of each node, and each subgraph's parent.
        let mut node_sub = vec![None; n];
        let mut sub_parent = vec![None; chart.subgraphs.len()];
        for (s, sg) in chart.subgraphs.iter().enumerate() {
            for m in &sg.members {
                if let Some(&i) = index.get(m.as_str()) {
                    node_sub[i] = Some(s);
                } else if let Some(&c) = sub_index.get(m.as_str()) {
                    sub_parent[c] = Some(s);
                }
            }
        }
        let is_function = |s: usize| {
            let sg = &chart.subgraphs[s];
            let has_start = (0..n).any(|i| node_sub[i] == Some(s) && self.nodes[i].kind == Kind::Start);
            let first = sg.title.split(|c: char| !c.is_alphanumeric()).find(|w| !w.is_empty()).unwrap_or("");
            let lead = matches!(
                first.to_lowercase().as_str(),
                "helper" | "function" | "method" | "def" | "procedure" | "subroutine"
            );
            // A subgraph no flow runs into is drawn apart: a function.
            let inside = |id: &str| index.get(id).is_some_and(|&i| node_sub[i] == Some(s));
            let apart = sg.members.iter().any(|m| inside(m))
                && !edges.iter().any(|e| node_sub[e.to] == Some(s) && node_sub[e.from] != Some(s));
            has_start || lead || apart || prose::signature(&sg.title).is_some_and(|(_, p)| p.is_some())
        };
        let function_sub: Vec<bool> = (0..chart.subgraphs.len()).map(is_function).collect();
        // The function subgraph a node belongs to: its nearest enclosing one.
        let owner = |i: usize| {
            let mut s = node_sub[i];
            while let Some(x) = s {
                if function_sub[x] {
                    return Some(x);
                }
                s = sub_parent[x];
            }
            None
        };
        // Without a Start terminal the entry begins at its Input, or else
        // at the first node nothing leads to.
        let root = |i: usize| owner(i).is_none() && !edges.iter().any(|e| e.to == i);
        let entry_start = (0..n)
            .find(|&i| self.nodes[i].kind == Kind::Start && owner(i).is_none())
            .or_else(|| (0..n).find(|&i| root(i) && self.nodes[i].kind == Kind::Input))
            .or_else(|| (0..n).find(|&i| root(i) && !matches!(self.nodes[i].kind, Kind::End)));
        let Some(entry_start) = entry_start else {
            return Err(GraphError {
                message: "no Start terminal outside the helper subgraphs (a terminal is a stadium whose label starts with Start: `A([\"Start: name\"])`)".into(),
                node: None,
                prose: false,
            });
        };
        let mut member_of: Vec<Option<usize>> = vec![None; n];
        self.functions.push(self.function_at(Some(entry_start), None));
        // Other top-level Starts are functions of their own, with the nodes
        // they reach.
        let mut succ = vec![Vec::new(); n];
        edges.iter().for_each(|e| succ[e.from].push(e.to));
        for s in (0..n).filter(|&i| self.nodes[i].kind == Kind::Start && owner(i).is_none() && i != entry_start) {
            let f = self.functions.len();
            self.functions.push(self.function_at(Some(s), None));
            let (reach, _) = depth_first(&succ, &[s]);
            for v in reach.into_iter().filter(|&v| owner(v).is_none()) {
                member_of[v] = Some(f);
            }
        }
        for (s, _) in function_sub.iter().enumerate().filter(|(_, f)| **f) {
            let f = self.functions.len();
            let start = (0..n).find(|&i| owner(i) == Some(s) && self.nodes[i].kind == Kind::Start);
            self.functions.push(self.function_at(start, Some(s)));
            (0..n).filter(|&i| owner(i) == Some(s)).for_each(|i| member_of[i] = Some(f));
        }
        for (i, m) in member_of.iter_mut().enumerate() {
            if m.is_none() && owner(i).is_none() {
                *m = Some(0);
            }
        }
        // The entry's flow wins over a second Start's reach.
        let (entry_reach, _) = depth_first(&succ, &[entry_start]);
        for v in entry_reach.into_iter().filter(|&v| owner(v).is_none()) {
            member_of[v] = Some(0);
        }
        Ok(member_of)
    }

    /// A function from its Start (if any) and subgraph (if any).
    fn function_at(&self, start: Option<usize>, subgraph: Option<usize>) -> Function {
        let chart = self.chart;
        let title = subgraph.map(|s| chart.subgraphs[s].title.as_str()).unwrap_or("");
        let from_start = start.and_then(|s| {
            let label = &chart.nodes[s].label;
            labels::parse_start(label)
                .filter(|(name, _)| !name.is_empty() && !name.contains(' '))
                .or_else(|| prose::signature(label).filter(|(name, _)| !name.eq_ignore_ascii_case("start")))
        });
        let from_title = prose::signature(title);
        let (name, params) = match (from_start, from_title) {
            (Some((name, Some(p))), _) => (name, Some(p)),
            (Some((name, None)), Some((_, p))) if subgraph.is_some() => (name, p),
            (Some((name, None)), _) => (name, None),
            (None, Some((name, p))) => (name, p),
            (None, None) => (String::new(), None),
        };
        let name = match title.strip_prefix(labels::METHOD) {
            Some(qual) if !name.contains('.') => qual.split_whitespace().next().unwrap_or(&name).to_owned(),
            _ => name,
        };
        let parent =
            title.find(labels::NESTED).map(|at| title[at + labels::NESTED.len()..].trim_end_matches(')').to_owned());
        let params = params.map(|ps| ps.into_iter().filter(|p| !p.is_empty()).collect());
        Function { name, params, input: start, start, entry: None, subgraph, parent }
    }

    /// Builds the successor lists: flow within each function, calls and
    /// returns between functions turned into the caller's own flow.
    fn link(&mut self, edges: &[FlowEdge], member_of: &[Option<usize>]) {
        let func = |i: usize| member_of[i];
        // Entries: after Start (and the Input right after it).
        for f in 0..self.functions.len() {
            let entry = self.functions[f].start.and_then(|s| {
                let first = edges.iter().find(|e| e.from == s && func(e.to) == Some(f)).map(|e| e.to)?;
                if self.nodes[first].kind == Kind::Input {
                    self.functions[f].input = Some(first);
                    if self.functions[f].params.is_none() {
                        self.functions[f].params = params_of(&self.chart.nodes[first].label);
                    }
                    return edges.iter().find(|e| e.from == first).map(|e| e.to).or(Some(usize::MAX));
                }
                Some(first)
            });
            self.functions[f].entry = entry.filter(|&e| e != usize::MAX);
        }
        for f in 1..self.functions.len() {
            if self.functions[f].start.is_some() {
                continue;
            }
            // No Start: the member the callers' edges run into, else the
            // first member nothing inside leads to.
            let members: Vec<usize> = (0..member_of.len()).filter(|&i| func(i) == Some(f)).collect();
            let called = edges.iter().find(|e| {
                func(e.to) == Some(f) && func(e.from) != Some(f) && !matches!(self.nodes[e.from].kind, Kind::Return(_))
            });
            let unreached =
                members.iter().copied().find(|&m| !edges.iter().any(|e| e.to == m && func(e.from) == Some(f)));
            self.functions[f].entry = called.map(|e| e.to).or(unreached).or(members.first().copied());
        }
        let mut calls: HashMap<usize, Vec<&FlowEdge>> = HashMap::new();
        let mut returns: HashMap<usize, Vec<&FlowEdge>> = HashMap::new();
        for e in edges {
            let (Some(a), Some(b)) = (func(e.from), func(e.to)) else { continue };
            let into_entry = self.functions[b].entry == Some(e.to) || self.functions[b].start == Some(e.to);
            if a == b {
                if Some(e.from) == self.functions[a].start
                    || Some(e.from) == self.functions[a].input && self.functions[a].input != self.functions[a].start
                {
                    continue; // Start → Input → entry is the function's head, not flow
                }
                let branch = branch_of(e.label.as_deref());
                self.nodes[e.from].succ.push((e.to, branch));
            } else if into_entry && b != 0 && !matches!(self.nodes[e.from].kind, Kind::Return(_) | Kind::End) {
                calls.entry(b).or_default().push(e);
            } else if self.nodes[e.to].kind != Kind::End {
                returns.entry(a).or_default().push(e);
            }
        }
        self.fix_branches();
        for f in 1..self.functions.len() {
            let Some(sites) = calls.get(&f) else { continue };
            let back = returns.remove(&f).unwrap_or_default();
            for (site, rets) in pair_calls(sites, &back) {
                self.return_to_caller(site, &rets);
            }
        }
    }

    /// A decision's two edges that are not worded Yes/No (`Done`, `Next`,
    /// unlabelled): the exit-like word is No, the other Yes.
    fn fix_branches(&mut self) {
        for node in &mut self.nodes {
            if !matches!(node.kind, Kind::Decision { .. }) || node.succ.len() != 2 {
                continue;
            }
            let (a, b) = (node.succ[0].1, node.succ[1].1);
            match (a, b) {
                (Branch::Yes, Branch::Next) => node.succ[1].1 = Branch::No,
                (Branch::Next, Branch::Yes) => node.succ[0].1 = Branch::No,
                (Branch::No, Branch::Next) => node.succ[1].1 = Branch::Yes,
                (Branch::Next, Branch::No) => node.succ[0].1 = Branch::Yes,
                _ => {}
            }
        }
    }

    /// The caller `site` goes on where the helper's returns `rets` lead: one
    /// place, or (returns of `True`/`False`, or of a value/`None`) a test on
    /// the call's result.
    fn return_to_caller(&mut self, site: usize, rets: &[&FlowEdge]) {
        let mut targets: Vec<usize> = Vec::new();
        for r in rets {
            if !targets.contains(&r.to) {
                targets.push(r.to);
            }
        }
        let var = rets.iter().find_map(|r| {
            r.label.as_deref().map(str::trim).filter(|l| is_identifier(l) && branch_of(Some(l)) == Branch::Next)
        });
        let call = self.call_of(site);
        if let (Some(v), Some(c), Kind::Steps(lines)) = (var, &call, &mut self.nodes[site].kind)
            && lines.len() == 1
            && lines[0].code.as_deref() == Some(c.as_str())
        {
            lines[0].code = Some(format!("{v} = {c}"));
        }
        match targets.as_slice() {
            [] => {}
            [t] => self.nodes[site].succ.push((*t, Branch::Next)),
            _ => {
                let value = |r: &&FlowEdge| match &self.nodes[r.from].kind {
                    Kind::Return(Some(l)) => l.code.clone().unwrap_or_default(),
                    Kind::Return(None) => "None".into(),
                    _ => String::new(),
                };
                let falsy = |v: &str| matches!(v, "False" | "None");
                let yes: Vec<usize> = rets.iter().filter(|r| !falsy(&value(r))).map(|r| r.to).collect();
                let no: Vec<usize> = rets.iter().filter(|r| falsy(&value(r))).map(|r| r.to).collect();
                let split = |v: &[usize]| v.iter().all(|t| *t == v[0]) && !v.is_empty();
                let (test, ok) = if split(&yes) && split(&no) && yes[0] != no[0] {
                    let nones = rets.iter().filter(|r| value(r) == "None").count();
                    let tested = var.map(str::to_owned).or(call.clone());
                    let code = tested.map(|t| {
                        if nones > 0 && nones == no.len() && var.is_some() { format!("{t} is not None") } else { t }
                    });
                    (code, true)
                } else {
                    (None, false)
                };
                let text = test
                    .clone()
                    .unwrap_or_else(|| format!("what {} returns", self.chart.nodes[self.nodes[site].origin].label));
                let decision = Kind::Decision { test: Line { text, code: test }, each: None };
                let (y, n) = if ok { (yes[0], no[0]) } else { (targets[0], targets[1]) };
                // A call with an assignment stays a step; the test follows.
                let at = if var.is_some() || !matches!(self.nodes[site].kind, Kind::Steps(_)) {
                    let new = self.nodes.len();
                    self.nodes.push(Node { origin: self.nodes[site].origin, kind: decision, succ: Vec::new() });
                    self.nodes[site].succ.push((new, Branch::Next));
                    new
                } else {
                    self.nodes[site].kind = decision;
                    site
                };
                self.nodes[at].succ.extend([(y, Branch::Yes), (n, Branch::No)]);
            }
        }
    }

    /// The call a call site's box makes (`Call f(x)` → `f(x)`; `b = f(x)`
    /// → `f(x)`), as code.
    fn call_of(&self, site: usize) -> Option<String> {
        let Kind::Steps(lines) = &self.nodes[site].kind else { return None };
        let code = lines.last()?.code.as_deref()?;
        match expr::parse_stmt(code)? {
            expr::Stmt::Expr(expr::Expr::Call(..)) => Some(code.to_owned()),
            expr::Stmt::Assign(_, v @ expr::Expr::Call(..)) => Some(v.to_string()),
            _ => None,
        }
    }

    /// `Call dfs(v)` followed by the test `dfs(v) returned True?` is one
    /// call: the box goes, its predecessors lead to the test.
    fn absorb_call_boxes(&mut self) {
        for b in 0..self.nodes.len() {
            let Kind::Steps(lines) = &self.nodes[b].kind else { continue };
            let [line] = lines.as_slice() else { continue };
            let worded = line.text.to_lowercase();
            if !(worded.starts_with("call ") || worded.starts_with("recursive") || worded.starts_with("recursively")) {
                continue;
            }
            let (Some(call), [(next, _)]) = (line.code.as_deref(), self.nodes[b].succ.as_slice()) else { continue };
            let next = *next;
            let tests_it = match &self.nodes[next].kind {
                Kind::Decision { test, .. } => test.code.as_deref().is_some_and(|c| contains_call(c, call)),
                _ => false,
            };
            if !tests_it {
                continue;
            }
            for node in &mut self.nodes {
                node.succ.iter_mut().filter(|(t, _)| *t == b).for_each(|(t, _)| *t = next);
            }
            for f in &mut self.functions {
                if f.entry == Some(b) {
                    f.entry = Some(next);
                }
            }
            self.nodes[b].succ.clear();
        }
    }

    /// `x = a if c else b`, `xs.append(a if c else b)` and `return a if c
    /// else b` as the decision `c` with a box on each branch: the same
    /// program, drawn either way (charts draw the test as a diamond).
    fn expand_conditionals(&mut self) {
        let mut n = 0;
        // Nodes added here are visited too: a box's later lines may hold
        // another conditional.
        while n < self.nodes.len() {
            self.expand_conditional(n);
            n += 1;
        }
    }

    fn expand_conditional(&mut self, n: usize) {
        let (test, yes, no, rest) = match &self.nodes[n].kind {
            Kind::Steps(lines) => {
                let split = |l: &Line| l.code.as_deref().and_then(expr::parse_stmt).and_then(split_conditional);
                let Some((k, (c, a, b))) = lines.iter().enumerate().find_map(|(k, l)| split(l).map(|x| (k, x))) else {
                    return;
                };
                let rest = lines[k + 1..].to_vec();
                let before = lines[..k].to_vec();
                let (c, a, b) = (c, Kind::Steps(vec![code_line(a)]), Kind::Steps(vec![code_line(b)]));
                if !before.is_empty() {
                    // The lines before stay in this box, which now leads
                    // to the test.
                    self.nodes[n].kind = Kind::Steps(before);
                    let origin = self.nodes[n].origin;
                    let succ = std::mem::take(&mut self.nodes[n].succ);
                    self.nodes.push(Node { origin, kind: Kind::Steps(Vec::new()), succ });
                    let test_node = self.nodes.len() - 1;
                    self.nodes[n].succ = vec![(test_node, Branch::Next)];
                    self.fill_test(test_node, c, a, b, rest);
                    return;
                }
                (c, a, b, rest)
            }
            Kind::Return(Some(l)) => match l.code.as_deref().and_then(expr::parse) {
                Some(expr::Expr::IfExp(c, a, b)) => {
                    let (a, b) =
                        (Kind::Return(Some(code_line(a.to_string()))), Kind::Return(Some(code_line(b.to_string()))));
                    (*c, a, b, Vec::new())
                }
                _ => return,
            },
            _ => return,
        };
        self.fill_test(n, test, yes, no, rest);
    }

    /// Makes `n` the test `c` with `yes` and `no` on its branches, both
    /// going on to the box of `rest` (if any) and then to `n`'s successors.
    fn fill_test(&mut self, n: usize, c: expr::Expr, yes: Kind, no: Kind, rest: Vec<Line>) {
        let (origin, mut succ) = (self.nodes[n].origin, std::mem::take(&mut self.nodes[n].succ));
        if !rest.is_empty() {
            self.nodes.push(Node { origin, kind: Kind::Steps(rest), succ });
            succ = vec![(self.nodes.len() - 1, Branch::Next)];
        }
        let first = self.nodes.len();
        self.nodes.push(Node { origin, kind: yes, succ: succ.clone() });
        self.nodes.push(Node { origin, kind: no, succ });
        let text = c.to_string();
        self.nodes[n].kind = Kind::Decision { test: Line { text: text.clone(), code: Some(text) }, each: None };
        self.nodes[n].succ = vec![(first, Branch::Yes), (first + 1, Branch::No)];
    }

    /// A `More x in xs?` with no No edge: the iteration runs out into the
    /// end of its function (`for s in strings: … return s` with the
    /// implicit `return None` after it, which charts leave undrawn).
    fn end_dangling_iterations(&mut self) {
        for n in 0..self.nodes.len() {
            let iterates = matches!(&self.nodes[n].kind, Kind::Decision { each: Some(_), .. });
            let has = |b: Branch| self.nodes[n].succ.iter().any(|&(_, x)| x == b);
            if iterates && has(Branch::Yes) && !has(Branch::No) && !has(Branch::Next) {
                let origin = self.nodes[n].origin;
                self.nodes.push(Node { origin, kind: Kind::End, succ: Vec::new() });
                let end = self.nodes.len() - 1;
                self.nodes[n].succ.push((end, Branch::No));
            }
        }
    }

    /// The natural loop of each loop header: the header and every node that
    /// reaches one of its back edges' tails without passing it.
    pub fn loop_bodies(&self, back: &HashSet<(usize, usize)>) -> HashMap<usize, HashSet<usize>> {
        let edges = self.nodes.iter().enumerate().flat_map(|(f, n)| n.succ.iter().map(move |&(t, _)| (f, t)));
        natural_loops(self.nodes.len(), edges, back)
    }

    /// Immediate post-dominator of each reachable node: where the paths
    /// from it that do not jump away meet. A `return` (an edge into a Return
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
            has_succ[i] = !self.nodes[v].succ.is_empty();
            for &(w, _) in &self.nodes[v].succ {
                let Some(&j) = pos.get(&w) else { continue };
                if back.contains(&(v, w)) {
                    succs[i].push(k + j);
                } else if !matches!(self.nodes[w].kind, Kind::Return(_)) {
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

/// A visible edge between two chart nodes; `order` is its place in the text.
struct FlowEdge {
    from: usize,
    to: usize,
    label: Option<String>,
    order: usize,
}

/// Pairs a helper's call sites with its return edges: one caller takes them
/// all; several take each return edge written after their call edge, the
/// nearest (how a chart draws a helper called twice inline).
fn pair_calls<'e>(sites: &[&'e FlowEdge], rets: &[&'e FlowEdge]) -> Vec<(usize, Vec<&'e FlowEdge>)> {
    let mut callers: Vec<usize> = Vec::new();
    for s in sites {
        if !callers.contains(&s.from) {
            callers.push(s.from);
        }
    }
    if callers.len() == 1 {
        return vec![(callers[0], rets.to_vec())];
    }
    let mut paired: Vec<(usize, Vec<&FlowEdge>)> = callers.iter().map(|&c| (c, Vec::new())).collect();
    for r in rets {
        let caller = sites.iter().filter(|s| s.order < r.order).max_by_key(|s| s.order).unwrap_or(&sites[0]).from;
        if let Some(slot) = paired.iter_mut().find(|(c, _)| *c == caller) {
            slot.1.push(r);
        }
    }
    // Two callers drawn before one shared way back (`F --> R1`, `H --> R1`,
    // `R2 --> J`): the way back serves both.
    for slot in paired.iter_mut().filter(|(_, r)| r.is_empty()) {
        slot.1 = rets.to_vec();
    }
    paired
}

/// The parameters an Input node names, as Python (`name=default`), when
/// every part is a plain name with at most a type, remark or default.
fn params_of(label: &str) -> Option<Vec<String>> {
    let parts = prose::input(label);
    if parts.iter().any(|p| p.name.is_none()) {
        return None;
    }
    let first_line = labels::break_lines(label)[0].trim();
    let exact = labels::parse_input(first_line)
        .or_else(|| labels::parse_input(&first_line.replacen(':', ": ", 1).replacen(":  ", ": ", 1)));
    match exact {
        Some(ps) if ps.len() == parts.len() => Some(ps),
        _ => parts.into_iter().map(|p| p.name).collect(),
    }
}

/// Whether `s` is one identifier (keywords included).
pub(crate) fn is_identifier(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Whether the condition `cond` makes the call `call`.
fn contains_call(cond: &str, call: &str) -> bool {
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    squeeze(cond).contains(&squeeze(call))
}

/// A dotted edge from a call to the helper it calls (`D -.calls.-> M1`,
/// `E -.-> K0`): a note on the drawing, not a way the flow goes.
/// An unlabelled dotted edge is one only when it runs into another
/// subgraph (a dotted back edge inside one function is still flow).
fn is_call_annotation(chart: &Flowchart, e: &flowbench_chart::mermaid::Edge) -> bool {
    if e.stroke != Stroke::Dotted {
        return false;
    }
    let label = e.label.as_deref().unwrap_or("").trim().to_lowercase();
    let holder = |id: &str| chart.subgraphs.iter().position(|s| s.members.iter().any(|m| m == id));
    match label.as_str() {
        "call" | "calls" | "invokes" | "uses" => true,
        "" => holder(&e.to).is_some() && holder(&e.to) != holder(&e.from),
        _ => false,
    }
}

/// A statement whose value is a conditional expression: the test and the
/// statement with each of its values.
fn split_conditional(stmt: expr::Stmt) -> Option<(expr::Expr, String, String)> {
    use expr::{Expr, Stmt};
    let with = |targets: &[Expr], v: &Expr| {
        let ts: Vec<String> = targets.iter().map(ToString::to_string).collect();
        format!("{} = {v}", ts.join(" = "))
    };
    match stmt {
        Stmt::Assign(targets, Expr::IfExp(c, a, b)) => Some((*c, with(&targets, &a), with(&targets, &b))),
        Stmt::Expr(Expr::Call(f, args)) => match args.as_slice() {
            [arg] if arg.keyword.is_none() => {
                let Expr::IfExp(c, a, b) = &arg.value else { return None };
                let call =
                    |v: &Expr| Expr::Call(f.clone(), vec![expr::Arg { keyword: None, value: v.clone() }]).to_string();
                Some(((**c).clone(), call(a), call(b)))
            }
            _ => None,
        },
        _ => None,
    }
}

fn code_line(code: String) -> Line {
    Line { text: code.clone(), code: Some(code) }
}

/// The branch an edge label names.
pub fn branch_of(label: Option<&str>) -> Branch {
    let Some(l) = label else { return Branch::Next };
    let l = l.trim().trim_matches(['"', '\'']).trim().to_lowercase();
    match l.as_str() {
        "yes" | "y" | "true" | "t" | "1" | "ok" | "✓" | "✔" | "✅" | "found" | "more" | "next" | "loop" | "each"
        | "repeat" | "continue" => Branch::Yes,
        "no" | "n" | "false" | "f" | "0" | "✗" | "✘" | "❌" | "else" | "otherwise" | "done" | "finished" | "end"
        | "exit" | "no more" | "not found" | "none" | "none left" | "all done" | "end loop" | "loop done" | "stop" => {
            Branch::No
        }
        _ => Branch::Next,
    }
}

/// A node's kind from its shape and wording. A node with two or more
/// outgoing edges is a decision whatever its shape (a `For each` box with
/// `next`/`done` edges).
/// A terminal that only names a function (`([below_thousand(k)])`, a
/// helper's entry as Code-Vision draws it), or names it beside the word
/// start (`([check start])`): a start when nothing leads in.
fn is_bare_signature(shape: Shape, label: &str) -> bool {
    let terminal = matches!(shape, Shape::Stadium | Shape::Circle | Shape::DblCirc | Shape::Rounded);
    let text = label.trim();
    let is_start = |w: &str| ["start", "begin"].iter().any(|s| w.eq_ignore_ascii_case(s));
    let named_start = match text.split_whitespace().collect::<Vec<_>>().as_slice() {
        [a, b] => is_start(a) && is_identifier(b) || is_start(b) && is_identifier(a),
        _ => false,
    };
    terminal
        && (named_start
            || text.ends_with(')')
                && prose::signature(text).is_some_and(|(name, _)| text.starts_with(&name) && !name.contains('.')))
}

pub fn kind(shape: Shape, label: &str, out_degree: usize) -> Kind {
    let first =
        label.split(|c: char| !(c.is_alphanumeric() || c == '_')).find(|w| !w.is_empty()).unwrap_or("").to_lowercase();
    let diamond = matches!(shape, Shape::Diam | Shape::Hex);
    // `start = first_at.get(…)` is a statement, not a terminal.
    let assigns = matches!(first.as_str(), "start" | "begin" | "end" | "stop" | "finish")
        && prose::statements(label).iter().all(|l| {
            l.code
                .as_deref()
                .is_some_and(|c| matches!(expr::parse_stmt(c), Some(expr::Stmt::Assign(..) | expr::Stmt::Aug(..))))
        });
    let trimmed = label.trim_start();
    let worded = |w: &str| {
        trimmed.len() >= w.len()
            && trimmed[..w.len()].eq_ignore_ascii_case(w)
            && trimmed[w.len()..].chars().next().is_none_or(|c| c == ':' || c == ' ')
    };
    // `Start trying odd divisors from d = 3` is a step: a terminal is one
    // or two words, or names its function (`Start: f(x)`, `Begin f(x)`).
    let terminal = label.split_whitespace().count() <= 2 || label.contains(':') || label.contains('(');
    if !diamond && !assigns {
        match first.as_str() {
            "start" | "begin" if terminal => return Kind::Start,
            "end" | "stop" | "finish" if label.split_whitespace().count() <= 2 => return Kind::End,
            _ => {}
        }
        if worded("input") || worded("inputs") || worded("given") {
            return Kind::Input;
        }
        if prose::reads_inputs(label, matches!(shape, Shape::LeanR | Shape::LeanL)) {
            return Kind::Input;
        }
        // A return may leave by several edges (back to several callers).
        if worded("return") || worded("returns") || worded("output") || worded("print") || worded("display") {
            return Kind::Return(prose::output(label));
        }
        // A last box saying `… and return that letter` ends its function.
        let says_return = label.split(|c: char| !c.is_alphanumeric()).any(|w| w.eq_ignore_ascii_case("return"));
        if out_degree == 0 && says_return && !diamond {
            let lower = label.to_lowercase();
            let at = lower.rfind("return").unwrap_or(0);
            return Kind::Return(prose::output(&label[at..]));
        }
    }
    if diamond || out_degree >= 2 {
        // Code stated after the question is the test, whatever its words.
        let each = if prose::code_after_question(label).is_some() { None } else { prose::for_each(label) };
        let code = if each.is_some() { None } else { prose::condition(label) };
        return Kind::Decision { test: Line { text: prose::question(label), code }, each };
    }
    Kind::Steps(prose::statements(label))
}

/// Depth-first search from each of `roots` in turn (state shared, so a node
/// is visited once): the nodes in preorder, and the back edges (to a node
/// still on the stack), i.e. the edges that close cycles.
pub fn depth_first(succ: &[Vec<usize>], roots: &[usize]) -> (Vec<usize>, HashSet<(usize, usize)>) {
    let (mut state, mut order, mut back) = (vec![0u8; succ.len()], Vec::new(), HashSet::new());
    for &root in roots {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        order.push(root);
        let mut stack = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&w) = succ[v].get(*next) {
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

/// The natural loop of each back edge's head in a graph of `n` nodes with
/// `edges` (from, to): the head and every node that reaches a tail of one of
/// its back edges without passing the head.
pub(super) fn natural_loops(
    n: usize,
    edges: impl Iterator<Item = (usize, usize)>,
    back: &HashSet<(usize, usize)>,
) -> HashMap<usize, HashSet<usize>> {
    let mut pred = vec![Vec::new(); n];
    for (f, t) in edges {
        pred[t].push(f);
    }
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
