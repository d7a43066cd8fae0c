//! `check --against`: is a chart faithful to its solution?
//!
//! The solution is drawn at `--detail high` (the reference chart, each node
//! tied to a solution line) and both charts are read as control flow
//! ([`Graph`]). Compared: the Input node's names with the parameters; Output
//! nodes with the `return` values (one to one); decisions with the
//! conditions (matched by their words), each as a loop or an `if`, at the same
//! loop depth, with its Yes and No branches leading where the code's do;
//! helper subgraphs with the helper functions. Each difference is a
//! [`Mismatch`] pointing at a chart node and a solution line. Box wording and
//! how many statements share a box are not compared: that is `--detail`.
//!
//! The similarity in `--json` is 2·matched / (reference facts + chart facts)
//! over those facts (parameters, outputs, decisions, helpers); a decision that
//! matches but differs in kind, depth or branches counts half.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::mermaid::Flowchart;

use super::draw::{Detail, draw};
use super::graph::{Graph, Role, role};
use super::labels;
use super::reader::Program;

/// One way the chart differs from the code.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Mismatch {
    /// Stable short code: `inputs`, `outputs`, `decisions`, `loops`,
    /// `nesting`, `branches`, `helpers`, `structure`.
    pub kind: &'static str,
    pub message: String,
    /// Index of the chart node it concerns, if any.
    #[serde(skip)]
    pub node: Option<usize>,
    /// Solution line it concerns (0: none in particular).
    pub code_line: u32,
}

/// The comparison's result.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    pub mismatches: Vec<Mismatch>,
    pub similarity: f64,
}

/// What a chart says, per node kind, read from its graph.
struct Facts {
    roles: Vec<Role>,
    /// Decisions that head a loop (back-edge targets or `More … in …?`).
    loops: HashSet<usize>,
    /// Targets of back edges (the loops drawn with their cycle).
    cycles: HashSet<usize>,
    /// Number of loops around each node.
    depth: Vec<usize>,
    /// Names of each node's Yes and No successors' words.
    succ: Vec<Vec<(usize, Option<String>)>>,
    labels: Vec<String>,
    /// Subgraph titles.
    titles: Vec<String>,
    in_subgraph: Vec<bool>,
}

fn facts(chart: &Flowchart) -> Facts {
    let labels: Vec<String> = chart.nodes.iter().map(|n| n.label.clone()).collect();
    let roles: Vec<Role> = chart.nodes.iter().map(|n| role(n.shape, &n.label)).collect();
    let index: HashMap<&str, usize> = chart.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    let mut succ = vec![Vec::new(); chart.nodes.len()];
    for e in chart.edges.iter().filter(|e| e.stroke != crate::mermaid::Stroke::Invisible) {
        if let (Some(&f), Some(&t)) = (index.get(e.from.as_str()), index.get(e.to.as_str())) {
            succ[f].push((t, e.label.clone()));
        }
    }
    let mut in_subgraph = vec![false; chart.nodes.len()];
    for sg in &chart.subgraphs {
        for m in &sg.members {
            if let Some(&i) = index.get(m.as_str()) {
                in_subgraph[i] = true;
            }
        }
    }
    // Back edges from a depth-first search of every start (Start terminals,
    // then nodes without predecessors, then anything left).
    let mut has_pred = vec![false; chart.nodes.len()];
    succ.iter().flatten().for_each(|&(t, _)| has_pred[t] = true);
    let mut roots: Vec<usize> = (0..chart.nodes.len()).filter(|&i| roles[i] == Role::Start).collect();
    roots.extend((0..chart.nodes.len()).filter(|&i| !has_pred[i] && roles[i] != Role::Start));
    roots.extend(0..chart.nodes.len());
    let (_, back) = super::graph::depth_first(&succ, &roots);
    let cycles: HashSet<usize> = back.iter().map(|&(_, h)| h).collect();
    let mut loops = cycles.clone();
    loops.extend(
        (0..chart.nodes.len()).filter(|&i| roles[i] == Role::Decision && labels::parse_for(labels[i].trim()).is_some()),
    );
    // Natural loop of each back edge: the header and what reaches the tail without passing it.
    let mut pred = vec![Vec::new(); chart.nodes.len()];
    succ.iter().enumerate().for_each(|(f, ts)| ts.iter().for_each(|&(t, _)| pred[t].push(f)));
    let mut bodies: HashMap<usize, BTreeSet<usize>> = HashMap::new();
    for &(tail, head) in &back {
        let body = bodies.entry(head).or_insert_with(|| BTreeSet::from([head]));
        let mut stack = vec![tail];
        while let Some(v) = stack.pop() {
            if body.insert(v) {
                stack.extend(pred[v].iter().copied());
            }
        }
    }
    let mut depth = vec![0; chart.nodes.len()];
    for (head, body) in &bodies {
        for &v in body {
            if v != *head {
                depth[v] += 1;
            }
        }
    }
    Facts {
        roles,
        loops,
        cycles,
        depth,
        succ,
        labels,
        titles: chart.subgraphs.iter().map(|s| s.title.clone()).collect(),
        in_subgraph,
    }
}

/// Words of a label for matching: identifiers, numbers and operators, with
/// the fixed wording (`Is`, `More`, `Return`, `?`) and blanks dropped.
fn words(label: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let flush = |cur: &mut String, out: &mut Vec<String>| {
        if !cur.is_empty() {
            out.push(std::mem::take(cur));
        }
    };
    for c in label.replace(labels::BR, " ").chars() {
        if c.is_alphanumeric() || c == '_' || c == '.' {
            cur.push(c);
        } else {
            flush(&mut cur, &mut out);
            if !c.is_whitespace() && c != '?' && c != '"' && c != '\'' {
                out.push(c.to_string());
            }
        }
    }
    flush(&mut cur, &mut out);
    out.retain(|w| !matches!(w.as_str(), "Is" | "More" | "Return" | "Output"));
    out
}

/// Fraction of `reference`'s words that `given` has.
fn coverage(reference: &[String], given: &[String]) -> f64 {
    if reference.is_empty() {
        return if given.is_empty() { 1.0 } else { 0.0 };
    }
    let have: HashSet<&String> = given.iter().collect();
    reference.iter().filter(|w| have.contains(w)).count() as f64 / reference.len() as f64
}

/// Jaccard similarity of two word sets.
fn jaccard(a: &[String], b: &[String]) -> f64 {
    let (a, b): (HashSet<&String>, HashSet<&String>) = (a.iter().collect(), b.iter().collect());
    let union = a.union(&b).count();
    if union == 0 { 1.0 } else { a.intersection(&b).count() as f64 / union as f64 }
}

/// A node's words for branch comparison (terminals by role).
fn signature(f: &Facts, n: usize) -> Vec<String> {
    match &f.roles[n] {
        Role::End => vec!["@end".into()],
        Role::Start => vec!["@start".into()],
        _ => words(&f.labels[n]),
    }
}

/// Compare `chart` with `program`.
pub fn check_against(program: &Program, chart: &Flowchart) -> Report {
    let reference = draw(program, Detail::High);
    let r = facts(&reference.chart);
    let g = facts(chart);
    let line_of = |i: usize| reference.lines.get(&reference.chart.nodes[i].id).copied().unwrap_or(0);
    let mut out: Vec<Mismatch> = Vec::new();
    let (mut matched, mut ref_total, mut given_total) = (0.0f64, 0usize, 0usize);
    let mm = |kind, message: String, node, code_line| Mismatch { kind, message, node, code_line };

    // Inputs vs parameters.
    let entry_input = (0..g.labels.len()).find(|&i| g.roles[i] == Role::Input && !g.in_subgraph[i]);
    let params: Vec<String> = program
        .entry
        .params
        .iter()
        .map(|p| p.name.trim_start_matches('*').to_owned())
        .filter(|n| n != "/" && !n.is_empty())
        .collect();
    ref_total += params.len();
    match entry_input {
        None => out.push(mm(
            "inputs",
            format!("no Input node names the parameters ({})", params.join(", ")),
            None,
            program.entry.line,
        )),
        Some(i) => {
            let named: Vec<String> = labels::parse_input(g.labels[i].trim())
                .map(|ps| {
                    ps.iter()
                        .map(|p| p.split(['=', ' ', ':']).next().unwrap_or("").trim_start_matches('*').to_owned())
                        .collect()
                })
                .unwrap_or_else(|| words(&g.labels[i]));
            let named_set: HashSet<&String> = named.iter().collect();
            given_total += params.len().max(named.len().min(params.len() + 1));
            for p in &params {
                if named_set.contains(p) {
                    matched += 1.0;
                } else {
                    out.push(mm(
                        "inputs",
                        format!("the Input node does not name parameter `{p}`"),
                        Some(i),
                        program.entry.line,
                    ));
                }
            }
            if labels::parse_input(g.labels[i].trim()).is_some() {
                let param_set: HashSet<&String> = params.iter().collect();
                for n in named.iter().filter(|n| !param_set.contains(n)) {
                    out.push(mm(
                        "inputs",
                        format!("the Input node names `{n}`, which is not a parameter"),
                        Some(i),
                        program.entry.line,
                    ));
                }
            }
        }
    }

    // Outputs vs returns, one to one by value.
    let outputs =
        |f: &Facts| -> Vec<usize> { (0..f.labels.len()).filter(|&i| matches!(f.roles[i], Role::Output(_))).collect() };
    let (r_out, g_out) = (outputs(&r), outputs(&g));
    ref_total += r_out.len();
    given_total += g_out.len();
    let mut used = HashSet::new();
    for &ri in &r_out {
        let rw = words(&r.labels[ri]);
        let hit = g_out
            .iter()
            .copied()
            .filter(|gi| !used.contains(gi))
            .find(|&gi| coverage(&rw, &words(&g.labels[gi])) == 1.0);
        match hit {
            Some(gi) => {
                used.insert(gi);
                matched += 1.0;
            }
            None => out.push(mm(
                "outputs",
                format!(
                    "the code returns `{}` but no Output node says so",
                    r.labels[ri].trim_start_matches(labels::RETURN).trim()
                ),
                None,
                line_of(ri),
            )),
        }
    }
    for &gi in g_out.iter().filter(|gi| !used.contains(gi)) {
        out.push(mm("outputs", format!("Output `{}` is not a value the code returns", g.labels[gi]), Some(gi), 0));
    }

    // Decisions: matched by words, then kind, depth and branches.
    let decisions =
        |f: &Facts| -> Vec<usize> { (0..f.labels.len()).filter(|&i| f.roles[i] == Role::Decision).collect() };
    let (r_dec, g_dec) = (decisions(&r), decisions(&g));
    ref_total += r_dec.len();
    given_total += g_dec.len();
    let mut used = HashSet::new();
    let mut pairs = Vec::new();
    let rank =
        |list: &[usize], i: usize| list.iter().position(|&x| x == i).unwrap_or(0) as f64 / list.len().max(1) as f64;
    for &ri in &r_dec {
        let rw = words(&r.labels[ri]);
        let best = g_dec
            .iter()
            .copied()
            .filter(|gi| !used.contains(gi))
            .map(|gi| {
                let gw = words(&g.labels[gi]);
                let (found, extra) = (coverage(&rw, &gw), coverage(&gw, &rw));
                // Equal words: prefer the same loop depth, kind and place.
                let tie = 0.01 * f64::from(u8::from(r.depth[ri] == g.depth[gi]))
                    + 0.01 * f64::from(u8::from(r.loops.contains(&ri) == g.loops.contains(&gi)))
                    - 0.001 * (rank(&r_dec, ri) - rank(&g_dec, gi)).abs();
                (gi, if found >= 0.75 && extra >= 0.5 { found + extra + tie } else { 0.0 })
            })
            .filter(|&(_, s)| s > 0.0)
            .max_by(|a, b| a.1.total_cmp(&b.1));
        match best {
            Some((gi, _)) => {
                used.insert(gi);
                pairs.push((ri, gi));
            }
            None => {
                let what = if r.loops.contains(&ri) { "loop" } else { "condition" };
                out.push(mm(
                    "decisions",
                    format!("the code's {what} `{}` has no decision in the chart", r.labels[ri].trim_end_matches('?')),
                    None,
                    line_of(ri),
                ));
            }
        }
    }
    for &gi in g_dec.iter().filter(|gi| !used.contains(gi)) {
        out.push(mm(
            "decisions",
            format!("decision `{}` matches no condition or loop in the code", g.labels[gi]),
            Some(gi),
            0,
        ));
    }
    let (r_loops, g_loops) = (r.loops.len(), g.loops.len());
    if r_loops != g_loops {
        out.push(mm(
            "loops",
            format!("the chart has {g_loops} loop(s) (cycles through a decision), the code {r_loops}"),
            None,
            program.entry.line,
        ));
    }
    for (ri, gi) in pairs {
        let line = line_of(ri);
        let mut ok = 1.0;
        match (r.loops.contains(&ri), g.loops.contains(&gi)) {
            (true, false) => {
                out.push(mm(
                    "loops",
                    format!("`{}` is a loop in the code but no edge leads back to it", g.labels[gi]),
                    Some(gi),
                    line,
                ));
                ok = 0.5;
            }
            (false, true) => {
                out.push(mm(
                    "loops",
                    format!("`{}` is an `if` in the code but the chart loops back to it", g.labels[gi]),
                    Some(gi),
                    line,
                ));
                ok = 0.5;
            }
            (true, true) if r.cycles.contains(&ri) && !g.cycles.contains(&gi) => {
                out.push(mm("loops", format!("loop `{}` has no edge back to it", g.labels[gi]), Some(gi), line));
                ok = 0.5;
            }
            _ => {}
        }
        if r.depth[ri] != g.depth[gi] {
            out.push(mm(
                "nesting",
                format!(
                    "`{}` is inside {} loop(s) in the chart, {} in the code",
                    g.labels[gi], g.depth[gi], r.depth[ri]
                ),
                Some(gi),
                line,
            ));
            ok = 0.5;
        }
        let branch = |f: &Facts, n: usize, l: &str| {
            f.succ[n]
                .iter()
                .find(|(_, el)| el.as_deref().is_some_and(|x| x.trim().eq_ignore_ascii_case(l)))
                .map(|&(t, _)| t)
        };
        let (gy, gn) = (branch(&g, gi, labels::YES), branch(&g, gi, labels::NO));
        let (ry, rn) = (branch(&r, ri, labels::YES), branch(&r, ri, labels::NO));
        match (gy, gn) {
            (Some(gy), Some(gn)) => {
                if let (Some(ry), Some(rn)) = (ry, rn) {
                    let (sy, sn) = (signature(&g, gy), signature(&g, gn));
                    let (ty, tn) = (signature(&r, ry), signature(&r, rn));
                    if jaccard(&tn, &sy) > jaccard(&ty, &sy) && jaccard(&ty, &sn) > jaccard(&tn, &sn) {
                        out.push(mm(
                            "branches",
                            format!("the Yes and No branches of `{}` are swapped", g.labels[gi]),
                            Some(gi),
                            line,
                        ));
                        ok = 0.5;
                    }
                }
            }
            _ => {
                let missing = if gy.is_none() { labels::YES } else { labels::NO };
                out.push(mm(
                    "branches",
                    format!("decision `{}` has no {missing} branch", g.labels[gi]),
                    Some(gi),
                    line,
                ));
                ok = 0.5;
            }
        }
        matched += ok;
    }

    // Helpers vs subgraphs, by name.
    let helpers: Vec<&super::reader::Func> = program.helpers.iter().collect();
    ref_total += helpers.len();
    given_total += g.titles.len();
    let mut used = HashSet::new();
    for h in helpers {
        let hit = (0..g.titles.len())
            .filter(|i| !used.contains(i))
            .find(|&i| words(&g.titles[i]).iter().any(|w| *w == h.name || *w == h.qual));
        match hit {
            Some(i) => {
                used.insert(i);
                matched += 1.0;
            }
            None => out.push(mm("helpers", format!("helper `{}` has no subgraph in the chart", h.name), None, h.line)),
        }
    }
    for i in (0..g.titles.len()).filter(|i| !used.contains(i)) {
        out.push(mm("helpers", format!("subgraph `{}` is no function of the code", g.titles[i]), None, 0));
    }

    // A chart that cannot be read as a program is not faithful either.
    if let Err(e) = Graph::new(chart).and_then(|_| super::chart2py::chart_to_python(chart).map(|_| ())) {
        out.push(mm("structure", format!("the chart does not read as structured code: {}", e.message), e.node, 0));
    }
    let total = (ref_total + given_total).max(1) as f64;
    Report { mismatches: out, similarity: (2.0 * matched / total).min(1.0) }
}
