//! The `flow` facet: which step's value each step reads. Two steps swapped
//! across boxes, a decision or a loop's end (`evens.sort()` drawn after the
//! loop that reads `evens`, `idx += 1` drawn before the write it indexes)
//! leave every box's text intact; what changes is which assignment of a
//! name reaches the step that reads it.
//!
//! # How it works
//!
//! On each side, definitions are propagated forward through the function's
//! graph with its back edges cut (one iteration's flow: a loop's previous
//! iteration reaches every step on both sides alike); a plain assignment
//! replaces a name's definitions, a mutation (`a.append(x)`, `a[i] = x`)
//! adds to them. For every statement paired with a chart line, the
//! definitions reaching each name it reads are compared, counting only
//! definitions paired on both sides: a missing or extra step is the
//! `steps` facet's to report, not this one's.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::expr::{Expr, Stmt, names, parse_stmt};
use crate::facts::{Cond, Decision, FnFacts, Loop, Statement};
use crate::graph::{Graph, Kind};

use super::steps::Pair;
use super::{Comparison, MismatchKind};

/// Per statement: the statements defining each name it reads (`None`: the
/// statement is on no forward path the reading follows).
type Reaching = Vec<Option<Defs>>;

/// Each name's defining statements.
type Defs = HashMap<String, BTreeSet<usize>>;

/// One side of the comparison: a function's graph and facts.
pub(super) struct Side<'a> {
    pub graph: &'a Graph<'a>,
    pub function: usize,
    pub facts: &'a FnFacts,
}

/// Which chart line stands for which code statement, in the forms the
/// comparison asks for (computed once per function pair).
struct Pairing<'p> {
    steps: &'p [Pair],
    chart_of: HashMap<usize, usize>,
    paired: HashSet<usize>,
}

/// Something that reads names: a statement or a decision, with what
/// reaches it on each side (the code's copies of it all count).
struct Reader<'d> {
    text: &'d str,
    origin: usize,
    names: Vec<String>,
    code: Vec<&'d Defs>,
    chart: &'d Defs,
}

impl Comparison<'_> {
    /// Compares what reaches each paired statement's and decision's reads.
    pub(super) fn flow(&mut self, code: Side, chart: Side, steps: &[Pair], decisions: &[super::Pair]) {
        let ((code_in, code_tests), (chart_in, chart_tests)) = (reaching(&code), reaching(&chart));
        let pairing = Pairing {
            steps,
            chart_of: steps.iter().map(|p| (p.code, p.chart)).collect(),
            paired: steps.iter().map(|p| p.chart).collect(),
        };
        let chart_of = &pairing.chart_of;
        let (cs, gs) = (&code.facts.statements, &chart.facts.statements);
        let mut readers = Vec::new();
        for p in steps.iter().filter(|p| cs[p.code].code.is_some() && gs[p.chart].code.is_some()) {
            let (r, g) = (&cs[p.code], &gs[p.chart]);
            // The code's copies of this statement the chart draws once (the
            // tails of an `if` merged into one box): what reaches any copy.
            let copies: Vec<Option<&Defs>> = (0..cs.len())
                .filter(|&k| k == p.code || (cs[k].code == r.code && !chart_of.contains_key(&k)))
                .map(|k| code_in[k].as_ref())
                .collect();
            let (Some(copies), Some(have)) =
                (copies.into_iter().collect::<Option<Vec<_>>>(), chart_in[p.chart].as_ref())
            else {
                continue;
            };
            let names = r.reads.iter().filter(|n| g.reads.contains(n)).cloned().collect();
            readers.push(Reader { text: &g.text, origin: g.origin, names, code: copies, chart: have });
        }
        for p in decisions {
            let (r, g) = (&code.facts.decisions[p.code], &chart.facts.decisions[p.chart]);
            let (Some(want), Some(have)) = (code_tests.get(&r.origin), chart_tests.get(&g.origin)) else { continue };
            let names = tested(r).into_iter().filter(|n| tested(g).contains(n)).collect();
            readers.push(Reader { text: &g.text, origin: g.origin, names, code: vec![want], chart: have });
        }
        let mut reported: HashSet<usize> = HashSet::new();
        for reader in readers {
            self.compare_reaching(&reader, code.facts, chart.facts, &pairing, &mut reported);
        }
    }

    /// Reports the first name whose reaching definitions differ.
    fn compare_reaching(
        &mut self,
        reader: &Reader,
        code: &FnFacts,
        chart: &FnFacts,
        pairing: &Pairing,
        reported: &mut HashSet<usize>,
    ) {
        let Pairing { steps, chart_of, paired } = pairing;
        // A definition counts for `name` when its chart line writes `name`
        // (a tuple drawn as two boxes pairs with one of them).
        let writes = |d: usize, name: &String| chart.statements[d].writes.contains(name);
        for name in &reader.names {
            let want: BTreeSet<usize> = reader
                .code
                .iter()
                .filter_map(|m| m.get(name))
                .flatten()
                .filter_map(|d| chart_of.get(d).copied())
                .filter(|&d| writes(d, name))
                .collect();
            let have: BTreeSet<usize> = reader
                .chart
                .get(name)
                .into_iter()
                .flatten()
                .copied()
                .filter(|d| paired.contains(d) && writes(*d, name))
                .collect();
            if want == have {
                continue;
            }
            // The step the chart puts on the wrong side of the reader.
            let (moved, before) = match want.difference(&have).next() {
                Some(&d) => (d, false),
                None => (*have.difference(&want).next().expect("sets differ"), true),
            };
            let m = &chart.statements[moved];
            if self.out.iter().any(|x| x.node == Some(m.origin) || x.node == Some(reader.origin)) {
                return; // said already (`order`, `across_tests`)
            }
            if !reported.insert(moved) || !reported.insert(reader.origin) {
                return;
            }
            let message = if before {
                format!(
                    "`{}` comes before `{}` in the chart, which reads its `{name}`; the code does it after",
                    m.text, reader.text
                )
            } else {
                format!(
                    "`{}` comes after `{}` in the chart, which reads `{name}`; the code does it before",
                    m.text, reader.text
                )
            };
            let code_line =
                steps.iter().find(|q| q.chart == moved).and_then(|q| self.line(code.statements[q.code].origin));
            self.matched -= 0.5;
            self.push(MismatchKind::Steps, message, Some(m.origin), code_line);
            return;
        }
    }
}

/// The names a decision reads: its condition's, or a loop's iterable's.
fn tested(d: &Decision) -> Vec<String> {
    let mut out = Vec::new();
    match (&d.looping, &d.cond) {
        (Some(Loop::Each { iter: Some(iter), .. }), _) => names(iter, &mut out),
        (Some(Loop::Each { .. }), _) => {}
        (_, Cond::Code(e)) => names(e, &mut out),
        (_, Cond::Prose(_)) => {}
    }
    out
}

/// Definitions reaching each statement of one side, within an iteration,
/// and reaching each decision node (by node).
fn reaching(side: &Side) -> (Reaching, HashMap<usize, Defs>) {
    let (g, f) = (side.graph, side.facts);
    let mut out: Reaching = vec![None; f.statements.len()];
    let mut tests: HashMap<usize, Defs> = HashMap::new();
    let Some(entry) = g.functions[side.function].entry else { return (out, tests) };
    let mut at: HashMap<usize, Vec<usize>> = HashMap::new();
    for (k, s) in f.statements.iter().enumerate() {
        at.entry(s.origin).or_default().push(k);
    }
    for ks in at.values_mut() {
        ks.sort_by_key(|&k| f.statements[k].place);
    }
    let (nodes, back) = g.search(entry);
    let forward = |n: usize| -> Vec<usize> {
        g.nodes[n].succ.iter().map(|&(t, _)| t).filter(|&t| !back.contains(&(n, t))).collect()
    };
    let mut waiting: HashMap<usize, usize> = HashMap::new();
    for &n in &nodes {
        for t in forward(n) {
            *waiting.entry(t).or_default() += 1;
        }
    }
    let mut state: HashMap<usize, Defs> = HashMap::new();
    let mut ready = vec![entry];
    let mut done: HashSet<usize> = HashSet::new();
    let mut placed: HashSet<usize> = HashSet::new();
    let split: HashSet<usize> =
        (0..g.nodes.len()).filter(|&n| g.nodes[n].origin != n).map(|n| g.nodes[n].origin).collect();
    while let Some(n) = ready.pop() {
        if !done.insert(n) {
            continue;
        }
        let mut defs = state.remove(&n).unwrap_or_default();
        if matches!(g.nodes[n].kind, Kind::Decision { .. }) {
            tests.insert(n, defs.clone());
        }
        // A box the reading split (a conditional expression's two
        // branches) defines its lines once, at the first part reached, and
        // what reaches them is not known line by line.
        let origin = g.nodes[n].origin;
        if matches!(g.nodes[n].kind, Kind::Steps(_)) && placed.insert(origin) {
            for &k in at.get(&origin).into_iter().flatten() {
                let s = &f.statements[k];
                if !split.contains(&origin) {
                    out[k] = Some(s.reads.iter().filter_map(|r| defs.get(r).map(|d| (r.clone(), d.clone()))).collect());
                }
                define(&mut defs, s, k);
            }
        }
        for t in forward(n) {
            let into = state.entry(t).or_default();
            for (name, ds) in &defs {
                into.entry(name.clone()).or_default().extend(ds);
            }
            let left = waiting.get_mut(&t).expect("counted above");
            *left -= 1;
            if *left == 0 {
                ready.push(t);
            }
        }
    }
    (out, tests)
}

/// Applies statement `k`'s writes: an assignment to a plain name replaces
/// its definitions; anything else (`a.append(x)`, `a[i] = x`) adds one.
fn define(defs: &mut Defs, s: &Statement, k: usize) {
    let replaced = replaced_names(s);
    for w in &s.writes {
        let entry = defs.entry(w.clone()).or_default();
        if replaced.contains(w) {
            entry.clear();
        }
        entry.insert(k);
    }
}

/// Plain names a statement assigns outright (`x = …`, `a, b = …`).
fn replaced_names(s: &Statement) -> Vec<String> {
    let Some(stmt) = s.code.as_deref().and_then(parse_stmt) else { return Vec::new() };
    let mut out = Vec::new();
    let mut add = |e: &Expr| match e {
        Expr::Name(n) => out.push(n.clone()),
        Expr::Tuple(items) | Expr::List(items) => {
            out.extend(items.iter().filter_map(|i| if let Expr::Name(n) = i { Some(n.clone()) } else { None }))
        }
        _ => {}
    };
    match &stmt {
        Stmt::Assign(targets, _) => targets.iter().for_each(&mut add),
        Stmt::Aug(target, _, _) => add(target),
        _ => {}
    }
    out
}
