//! `check --against`: is a chart faithful to its solution?
//!
//! The solution is drawn at `--detail high` (the reference chart, each node
//! tied to a solution line); the reference and the chart are read the same
//! way ([`Graph`], then [`facts`]) and their facts compared facet by facet,
//! one function each: the Input node's names with the parameters
//! ([`Comparison::inputs`]); helper subgraphs with the helper functions
//! ([`Comparison::helpers`]); per function, decisions with conditions and
//! loops, matched by meaning ([`Comparison::decisions`]), each as a loop or an
//! `if` ([`Comparison::loops`]) at the same loop depth
//! ([`Comparison::nesting`]) with its Yes and No branches leading where the
//! code's do ([`Comparison::branches`]); exits with returns and raises
//! ([`Comparison::outputs`]); and whether the chart reads as structured code
//! at all ([`Comparison::structure`]). Box wording and how many statements
//! share a box are not compared: that is `--detail` (running the chart,
//! [`super::execute`], checks what the boxes compute).
//!
//! [`check_against_with`] adds that run when the problem's tests are at
//! hand.
//!
//! A condition in prose (`Is ch a vowel?`) is matched by its words, or by
//! its place when its words say nothing; such facts are listed as
//! unverifiable. The similarity in `--json` is 2·matched / (reference facts +
//! chart facts) over parameters, decisions, exits and helpers; a fact
//! matched only by its place, or that differs in kind, depth or branches,
//! counts half.

mod flow;
mod steps;

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use flowbench_chart::mermaid::Flowchart;

use super::behaviour::{Behaviour, InputCache, run_behaviour};
use super::draw::{Detail, Drawn, draw};
use super::execute::{Execution, NoRun};
use super::expr::Expr;
use super::facts::{Cond, Decision, Exit, FnFacts, Landmark, Loop, Value, code_words, facts};
use super::graph::Graph;
use super::reader::Program;

/// Which facet a mismatch is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MismatchKind {
    Inputs,
    Outputs,
    Decisions,
    Loops,
    Nesting,
    Branches,
    Helpers,
    Structure,
    /// What a box computes, or the order of two boxes.
    Steps,
    /// The chart, run as a program, fails one of the problem's tests.
    Behaviour,
}

impl MismatchKind {
    /// The stable short code (`inputs`, `outputs`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            MismatchKind::Inputs => "inputs",
            MismatchKind::Outputs => "outputs",
            MismatchKind::Decisions => "decisions",
            MismatchKind::Loops => "loops",
            MismatchKind::Nesting => "nesting",
            MismatchKind::Branches => "branches",
            MismatchKind::Helpers => "helpers",
            MismatchKind::Structure => "structure",
            MismatchKind::Steps => "steps",
            MismatchKind::Behaviour => "behaviour",
        }
    }
}

/// One way the chart differs from the code.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Mismatch {
    pub kind: MismatchKind,
    pub message: String,
    /// Index of the chart node it concerns, if any.
    #[serde(skip)]
    pub node: Option<usize>,
    /// Solution line it concerns, if any in particular.
    pub code_line: Option<u32>,
}

/// How far a chart's faithfulness was established.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Evidence {
    /// The chart ran as a program on the problem's tests.
    Executed,
    /// Its structure and the facts written as code were compared.
    Structural,
    /// Nothing it says could be checked as code (prose throughout).
    Unverifiable,
}

/// A chart fact written in prose: compared by words or place only.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Unverified {
    #[serde(skip)]
    pub node: usize,
    pub text: String,
}

/// The comparison's result.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    pub mismatches: Vec<Mismatch>,
    pub similarity: f64,
    pub evidence: Evidence,
    pub unverifiable: Vec<Unverified>,
    /// What running the chart on the problem's tests showed, when it ran.
    #[serde(skip)]
    pub execution: Option<Execution>,
    /// What running the chart beside the code on made inputs showed.
    #[serde(skip)]
    pub behaviour: Option<Behaviour>,
    /// Structural differences of a chart whose program agrees with the code
    /// on every input: said, never a refusal.
    pub notes: Vec<Mismatch>,
    /// Prose lines of boxes and the code statements their words matched:
    /// the chart's program runs those statements in their place.
    #[serde(skip)]
    pub borrowed: Vec<Borrowed>,
    /// Chart nodes whose fact is written as code (a box, a condition, a
    /// returned value): where a chart that cannot run is still checked.
    #[serde(skip)]
    pub said_in_code: Vec<usize>,
    /// Differences a chart that cannot run leaves unchecked (at prose
    /// nodes, or about what it does not show: [`add_behaviour`]'s lenient
    /// check): no refusal, but said, and a reviewer that can ask for a
    /// better chart (`author`) still sends them.
    pub unchecked: Vec<Mismatch>,
}

/// A chart line in prose (`Sort meetings by start time`) and the code
/// statement its words stand for (`meetings = sorted(…)`).
#[derive(Debug, Clone, PartialEq)]
pub struct Borrowed {
    /// The chart node.
    pub node: usize,
    /// The line as written.
    pub text: String,
    pub code: String,
}

/// How a chart decision relates to a code decision.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Rel {
    /// The same condition (or loop).
    Same,
    /// The same condition, negated: the chart's branches are the other way
    /// round.
    Negated,
    /// One side is prose; its words cover the other's this well.
    Words(f64),
    /// Both are code and differ; they share this share of their names.
    Differs(f64),
    /// Paired by place only (prose that says nothing matchable).
    Place,
}

/// A code decision and the chart decision standing for it.
#[derive(Debug, Clone, Copy)]
struct Pair {
    code: usize,
    chart: usize,
    rel: Rel,
}

/// The problem's tests a chart is run on, and how.
pub struct Tests<'t> {
    pub problem: &'t flowbench_judge::problems_file::LoadedProblem,
    pub settings: &'t flowbench_judge::run::JudgeSettings,
    pub sandbox: &'t dyn flowbench_judge::run::Sandbox,
}

/// [`check_against`], then, with `tests`, the chart run as a program on
/// them ([`super::execute`]): a pass makes the evidence `executed`; a
/// failing test is a [`MismatchKind::Behaviour`] mismatch with its
/// counterexample. `Err`: the sandbox could not run (the facts compared
/// so far are lost to no one: call [`check_against`] for them).
pub fn check_against_with(program: &Program, chart: &Flowchart, tests: Option<&Tests>) -> Result<Report, NoRun> {
    let mut report = check_against(program, chart);
    if let Some(t) = tests {
        add_execution(&mut report, program, chart, t)?;
    }
    Ok(report)
}

/// The run of [`check_against_with`] added to a [`check_against`] report;
/// on `Err` (the sandbox failed) the report is left as it was, so a caller
/// can still show the facts compared.
pub fn add_execution(report: &mut Report, program: &Program, chart: &Flowchart, t: &Tests) -> Result<(), NoRun> {
    let ran = super::execute::run_chart(program, chart, t.problem, t.settings, t.sandbox)?;
    match &ran {
        Execution::Passed { .. } => {
            report.evidence = Evidence::Executed;
            forgive_drawn_comprehensions(program, report);
        }
        Execution::Failed(c) => report.mismatches.push(Mismatch {
            kind: MismatchKind::Behaviour,
            message: format!("the chart, run as a program, fails a test of {}: {c}", t.problem.problem.task_id),
            node: None,
            code_line: None,
        }),
        Execution::NotCode(_) => {}
    }
    report.execution = Some(ran);
    Ok(())
}

/// Where the chart runs beside the code on inputs made from the solution
/// ([`super::behaviour`]).
pub struct Behave<'b> {
    /// The solution's text (the reference that runs).
    pub source: &'b str,
    pub sandbox: &'b dyn flowbench_judge::run::Sandbox,
    pub cache: &'b InputCache,
    /// The problem's `problem.toml`, when the solution has one: the made
    /// inputs keep to what it allows ([`super::inputs::find_inputs`]).
    pub spec: Option<&'b flowbench_testgen::spec::TestSpec>,
}

impl std::fmt::Debug for Behave<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Behave").field("source", &self.source).finish_non_exhaustive()
    }
}

/// Behaviour decides ([`super::behaviour`]): with `tests`, the chart runs
/// on the problem's tests first ([`add_execution`]; a failure is the
/// counterexample); then beside the code on inputs made from the
/// solution. A chart whose program agrees everywhere is faithful: its
/// structural mismatches become [`Report::notes`] and the evidence
/// `executed`. A disagreement is a [`MismatchKind::Behaviour`] error
/// with its counterexample, located at the element the structural
/// comparison names (the other mismatches stay beside it). A chart that
/// is no program, or a solution no input could be made for, leaves the
/// structural comparison to decide, and the report says why.
pub fn add_behaviour(
    report: &mut Report,
    program: &Program,
    chart: &Flowchart,
    tests: Option<&Tests>,
    behave: &Behave,
) -> Result<(), NoRun> {
    // The solution supplies the signature a chart runs with: how the chart
    // names (or words) its inputs is a note.
    let (inputs, rest): (Vec<Mismatch>, Vec<Mismatch>) =
        std::mem::take(&mut report.mismatches).into_iter().partition(|m| m.kind == MismatchKind::Inputs);
    report.mismatches = rest;
    report.notes.extend(inputs);
    if let Some(t) = tests {
        flowbench_support::timings::time("against tests", || add_execution(report, program, chart, t))?;
        if matches!(report.execution, Some(Execution::NotCode(_))) {
            lenient(report);
        }
        if !matches!(report.execution, Some(Execution::Passed { .. })) {
            return Ok(());
        }
    }
    let ran = run_behaviour(program, chart, &report.borrowed, behave).map_err(|e| NoRun::Sandbox(e.to_string()))?;
    let passed_tests = matches!(report.execution, Some(Execution::Passed { .. }));
    match &ran {
        Behaviour::Agreed(_) => agreed(report),
        Behaviour::NoInputs(_) if passed_tests => agreed(report),
        Behaviour::Differs(d, a) => {
            let element = report.mismatches.iter().find(|m| m.node.is_some()).or(report.mismatches.first());
            let (mut node, mut code_line) = element.map_or((None, None), |m| (m.node, m.code_line));
            // Where the structure names no element, the trace's suspects
            // place the error. Where it does, it stays: a changed condition
            // spoils the inputs that end at a later step, which the trace
            // then blames.
            let mut at = String::new();
            if node.is_none() && !d.suspects.is_empty() {
                (node, code_line) = (Some(d.suspects[0]), None);
            }
            if let Some(n) = node.filter(|n| d.suspects.contains(n))
                && let Some(label) = chart.nodes.get(n).map(|c| super::labels::on_one_line(&c.label, " "))
            {
                at = format!("; most likely at `{}`", label.trim());
            }
            let message = format!(
                "the chart, run beside the code, differs: {d} ({} of {} made inputs agreed; inputs from {}){at}",
                a.agreed, a.inputs, a.origin
            );
            report.evidence = Evidence::Executed;
            report.mismatches.insert(0, Mismatch { kind: MismatchKind::Behaviour, message, node, code_line });
        }
        Behaviour::NotCode(_) => lenient(report),
        Behaviour::NoInputs(_) => {}
    }
    report.behaviour = Some(ran);
    Ok(())
}

/// A chart that cannot run is checked leniently: a difference stays an
/// error only where the chart says its side in code (a box, a condition or
/// a returned value written as code, [`Report::said_in_code`]), for there
/// the labels allow the check. A difference about a node in prose, or about
/// something the chart does not show (a prose node may stand for it), is
/// what running the chart would decide: it is kept apart
/// ([`Report::unchecked`]), and the evidence says how little was checked.
/// A chart that does not read as a program at all stays refused.
fn lenient(report: &mut Report) {
    let checked = |m: &Mismatch| match m.kind {
        MismatchKind::Structure | MismatchKind::Behaviour => true,
        _ => m.node.is_some_and(|n| report.said_in_code.binary_search(&n).is_ok()),
    };
    let (kept, unverified): (Vec<Mismatch>, Vec<Mismatch>) =
        std::mem::take(&mut report.mismatches).into_iter().partition(checked);
    report.mismatches = kept;
    report.unchecked = unverified;
}

/// The chart's program agreed with the code everywhere it ran: faithful.
fn agreed(report: &mut Report) {
    report.evidence = Evidence::Executed;
    report.notes.append(&mut report.mismatches);
}

/// A comprehension may be drawn as the loop it stands for (`result = []`,
/// a loop, `result.append(…)`), which the facts cannot equate with one
/// expression. When the chart passed every test and every mismatch is the
/// comprehension's (its line, or a chart element no code line stands for),
/// the run is the evidence and the mismatches go.
fn forgive_drawn_comprehensions(program: &Program, report: &mut Report) {
    let mut lines = Vec::new();
    for f in std::iter::once(&program.entry).chain(&program.helpers) {
        comprehension_lines(&f.body, &mut lines);
    }
    let structural = |m: &Mismatch| {
        matches!(m.kind, MismatchKind::Decisions | MismatchKind::Loops | MismatchKind::Outputs | MismatchKind::Steps)
    };
    let about_it = |m: &Mismatch| m.code_line.is_none_or(|l| lines.contains(&l));
    let names_it = report.mismatches.iter().any(|m| m.code_line.is_some_and(|l| lines.contains(&l)));
    if names_it && report.mismatches.iter().all(|m| structural(m) && about_it(m)) {
        report.mismatches.clear();
    }
}

/// Lines of statements holding a comprehension (`[f(x) for x in xs]`).
fn comprehension_lines(body: &[super::reader::Stmt], out: &mut Vec<u32>) {
    use super::reader::Stmt;
    let holds =
        |text: &str| super::expr::parse(text).is_some_and(|e| e.to_string().contains(" for ") && text.contains(" in "));
    for s in body {
        match s {
            Stmt::Return { line, value: Some(v) } if holds(v) => out.push(*line),
            Stmt::Simple { line, text } if text.split_once('=').is_some_and(|(_, v)| holds(v)) => out.push(*line),
            Stmt::If { then, otherwise, .. } => {
                comprehension_lines(then, out);
                comprehension_lines(otherwise, out);
            }
            Stmt::While { body, .. } | Stmt::For { body, .. } => comprehension_lines(body, out),
            _ => {}
        }
    }
}

/// Compare `chart` with `program`.
pub fn check_against(program: &Program, chart: &Flowchart) -> Report {
    let reference = draw(program, Detail::High);
    let fail = |message: String| Report {
        mismatches: vec![Mismatch { kind: MismatchKind::Structure, message, node: None, code_line: None }],
        similarity: 0.0,
        evidence: Evidence::Unverifiable,
        unverifiable: Vec::new(),
        execution: None,
        behaviour: None,
        notes: Vec::new(),
        borrowed: Vec::new(),
        said_in_code: Vec::new(),
        unchecked: Vec::new(),
    };
    let code_graph = match Graph::new(&reference.chart) {
        Ok(g) => g,
        Err(e) => return fail(format!("the solution's own chart does not read back: {}", e.message)),
    };
    let chart_graph = match Graph::new(chart) {
        Ok(g) => g.without_helper_calls(),
        Err(e) => return fail(format!("the chart does not read as a program: {}", e.message)),
    };
    let (code, drawn) = (facts(&code_graph), facts(&chart_graph));
    let mut c = Comparison {
        program,
        reference: &reference,
        out: Vec::new(),
        matched: 0.0,
        code_facts: 0,
        chart_facts: 0,
        verified: 0,
        unverifiable: Vec::new(),
        written_in_code: written_in_code(&drawn.functions),
        borrowed: Vec::new(),
    };
    c.inputs(&code.functions[0], &drawn.functions[0]);
    for (r, g) in c.helpers(&code.functions, &drawn.functions) {
        let (rf, gf) = (&code.functions[r], &drawn.functions[g]);
        let pairs = c.decisions(rf, gf);
        c.loops(rf, gf, &pairs);
        c.nesting(rf, gf, &pairs);
        let exits = c.outputs(rf, gf);
        c.branches(rf, gf, &pairs, &exits);
        let step_pairs = c.steps(rf, gf);
        for p in &step_pairs {
            let (r, g) = (&rf.statements[p.code], &gf.statements[p.chart]);
            if g.code.is_none() {
                // The reference chart's line as drawn is the code's own
                // text; the canonical form is for comparing, not running.
                let code = r.text.clone();
                c.borrowed.push(Borrowed { node: g.origin, text: g.text.clone(), code });
            }
        }
        c.across_tests(rf, gf, &pairs);
        let side = |graph, function, facts| flow::Side { graph, function, facts };
        c.flow(side(&code_graph, r, rf), side(&chart_graph, g, gf), &step_pairs, &pairs);
    }
    c.structure(&chart_graph);
    let total = (c.code_facts + c.chart_facts).max(1) as f64;
    let evidence =
        if c.verified == 0 && c.code_facts + c.chart_facts > 0 { Evidence::Unverifiable } else { Evidence::Structural };
    Report {
        mismatches: c.out,
        similarity: (2.0 * c.matched / total).min(1.0),
        evidence,
        unverifiable: c.unverifiable,
        execution: None,
        behaviour: None,
        notes: Vec::new(),
        borrowed: c.borrowed,
        said_in_code: said_in_code(&drawn.functions),
        unchecked: Vec::new(),
    }
}

/// The state of one comparison: mismatches and the similarity's counts.
struct Comparison<'p> {
    program: &'p Program,
    reference: &'p Drawn,
    out: Vec<Mismatch>,
    matched: f64,
    code_facts: usize,
    chart_facts: usize,
    /// Facts matched as code (not by words or place).
    verified: usize,
    unverifiable: Vec<Unverified>,
    borrowed: Vec<Borrowed>,
    /// Whether the chart's boxes are written as code (three lines in four,
    /// over all its functions): then a code step no box mentions is missing,
    /// not said in other words. Counted over the whole chart because a
    /// helper may have no box but its return.
    written_in_code: bool,
}

/// The chart nodes of `functions` whose fact is code: a box's statement, a
/// decision's condition, an Output's value (or its `raise`, or a bare
/// return) — unless a prose box of its function names a variable the value
/// reads, as written or with the boxes before it put in, for then the prose
/// may make it (`Append key to result`, then `Return result`).
fn said_in_code(functions: &[FnFacts]) -> Vec<usize> {
    let mut nodes: Vec<usize> = functions
        .iter()
        .flat_map(|f| {
            let prose: HashSet<&str> = f
                .statements
                .iter()
                .filter(|s| s.code.is_none())
                .flat_map(|s| s.words.iter().map(String::as_str))
                .collect();
            let made_in_prose = move |e: &Exit| match &e.value {
                Value::Code(forms) => forms.iter().any(|v| code_words(v).iter().any(|w| prose.contains(w.as_str()))),
                Value::Prose(_) => true,
                Value::Raise(_) | Value::Nothing => false,
            };
            let boxes = f.statements.iter().filter(|s| s.code.is_some()).map(|s| s.origin);
            let decisions = f.decisions.iter().filter(|d| matches!(d.cond, Cond::Code(_))).map(|d| d.origin);
            let exits = f.exits.iter().filter(move |e| !made_in_prose(e)).map(|e| e.origin);
            boxes.chain(decisions).chain(exits)
        })
        .collect();
    nodes.sort_unstable();
    nodes.dedup();
    nodes
}

/// See [`Comparison::written_in_code`].
fn written_in_code(functions: &[FnFacts]) -> bool {
    let lines = functions.iter().flat_map(|f| &f.statements);
    let (code, all) = lines.fold((0, 0), |(c, a), s| (c + usize::from(s.code.is_some()), a + 1));
    all > 0 && code * 4 >= all * 3
}

impl Comparison<'_> {
    /// The solution line of a reference chart node.
    fn line(&self, origin: usize) -> Option<u32> {
        self.reference.lines.get(&self.reference.chart.nodes[origin].id).copied().filter(|&l| l > 0)
    }

    fn push(&mut self, kind: MismatchKind, message: String, node: Option<usize>, code_line: Option<u32>) {
        self.out.push(Mismatch { kind, message, node, code_line });
    }

    /// The Input node's names against the entry's parameters.
    fn inputs(&mut self, _code: &FnFacts, chart: &FnFacts) {
        let entry = &self.program.entry;
        let params: Vec<String> = entry
            .params
            .iter()
            .map(|p| p.name.trim_start_matches('*').to_owned())
            .filter(|n| n != "/" && !n.is_empty())
            .collect();
        self.code_facts += params.len();
        let line = Some(entry.line);
        let Some(node) = chart.input else {
            if !params.is_empty() {
                self.push(
                    MismatchKind::Inputs,
                    format!("no Input node names the parameters ({})", params.join(", ")),
                    None,
                    line,
                );
            }
            return;
        };
        let named: Vec<&String> = chart.input_parts.iter().flat_map(|p| &p.words).collect();
        self.chart_facts +=
            params.len().max(chart.input_parts.iter().filter(|p| p.name.is_some()).count().min(params.len() + 1));
        for p in &params {
            if named.contains(&p) {
                self.matched += 1.0;
                self.verified += 1;
            } else {
                self.push(
                    MismatchKind::Inputs,
                    format!("the Input node does not name parameter `{p}`"),
                    Some(node),
                    line,
                );
            }
        }
        // Extra names only count in a list of names; prose (`gigs as start,
        // length, pay`) may name the parts of a parameter.
        let listed = chart.input_parts.iter().all(|p| p.name.is_some());
        for n in chart.input_parts.iter().filter(|_| listed).filter_map(|p| p.name.as_ref()) {
            if !params.contains(n) {
                let message = format!("the Input node names `{n}`, which is not a parameter");
                self.push(MismatchKind::Inputs, message, Some(node), line);
            }
        }
    }

    /// Helper functions against the chart's functions, by name; returns the
    /// function pairs to compare (the entries first).
    fn helpers(&mut self, code: &[FnFacts], chart: &[FnFacts]) -> Vec<(usize, usize)> {
        let mut pairs = vec![(0, 0)];
        let last = |a: &str| a.rsplit('.').next().unwrap_or(a).to_lowercase();
        let same = |a: &str, b: &str| last(a) == last(b);
        self.code_facts += code.len() - 1;
        self.chart_facts += chart.len() - 1;
        for (r, f) in code.iter().enumerate().skip(1) {
            match (1..chart.len()).find(|&g| same(&f.name, &chart[g].name) && !pairs.iter().any(|p| p.1 == g)) {
                Some(g) => {
                    pairs.push((r, g));
                    self.matched += 1.0;
                    self.verified += 1;
                }
                None => {
                    let helper = self.program.helpers.iter().find(|h| same(&h.qual, &f.name));
                    // A module-level function the entry calls is, to a
                    // chart of the entry, a library call: drawing it is
                    // optional. A nested one is part of the entry.
                    if helper.is_some_and(|h| h.parent.is_none() && h.method.is_none()) {
                        self.code_facts -= 1;
                        continue;
                    }
                    let line = helper.map(|h| h.line);
                    self.push(
                        MismatchKind::Helpers,
                        format!("helper `{}` has no subgraph in the chart", f.name),
                        None,
                        line,
                    );
                }
            }
        }
        for (g, f) in chart.iter().enumerate().skip(1) {
            if !pairs.iter().any(|p| p.1 == g) {
                let what =
                    if f.name.is_empty() { "a helper subgraph".to_owned() } else { format!("subgraph `{}`", f.name) };
                self.push(MismatchKind::Helpers, format!("{what} is no function of the code"), f.input, None);
            }
        }
        pairs
    }

    /// Decisions matched by meaning, then words, then place; what is left
    /// over on either side is a mismatch.
    fn decisions(&mut self, code: &FnFacts, chart: &FnFacts) -> Vec<Pair> {
        self.code_facts += code.decisions.len();
        self.chart_facts += chart.decisions.len();
        for d in chart.decisions.iter().filter(|d| matches!(d.cond, Cond::Prose(_)) && !is_code_loop(d)) {
            self.unverifiable.push(Unverified { node: d.origin, text: d.text.clone() });
        }
        let mut candidates = Vec::new();
        for (i, r) in code.decisions.iter().enumerate() {
            for (j, g) in chart.decisions.iter().enumerate() {
                if let Some(rel) = relate(r, g) {
                    let base = match rel {
                        Rel::Same | Rel::Negated => 3.0,
                        Rel::Words(w) => 1.0 + w,
                        Rel::Differs(s) => 0.4 + 0.5 * s,
                        Rel::Place => 0.0,
                    };
                    let rank = |k: usize, n: usize| k as f64 / n.max(1) as f64;
                    let tie = 0.05 * f64::from(u8::from(r.looping.is_some() == g.looping.is_some()))
                        + 0.03 * f64::from(u8::from(r.depth == g.depth))
                        - 0.01 * (rank(i, code.decisions.len()) - rank(j, chart.decisions.len())).abs();
                    candidates.push((base + tie, i, j, rel));
                }
            }
        }
        candidates.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        let (mut code_used, mut chart_used) = (vec![false; code.decisions.len()], vec![false; chart.decisions.len()]);
        let mut pairs = Vec::new();
        for (_, i, j, rel) in candidates {
            if !code_used[i] && !chart_used[j] {
                code_used[i] = true;
                chart_used[j] = true;
                pairs.push(Pair { code: i, chart: j, rel });
            }
        }
        // Prose that matched nothing by its words stands for what is left
        // in its place: same kind, same depth, in order.
        for (j, g) in chart.decisions.iter().enumerate() {
            if chart_used[j] || !matches!(g.cond, Cond::Prose(_)) {
                continue;
            }
            let free = (0..code.decisions.len()).find(|&i| {
                !code_used[i]
                    && code.decisions[i].looping.is_some() == g.looping.is_some()
                    && code.decisions[i].depth == g.depth
            });
            if let Some(i) = free {
                code_used[i] = true;
                chart_used[j] = true;
                pairs.push(Pair { code: i, chart: j, rel: Rel::Place });
            }
        }
        for p in &pairs {
            let (r, g) = (&code.decisions[p.code], &chart.decisions[p.chart]);
            match p.rel {
                Rel::Same | Rel::Negated => {
                    self.matched += 1.0;
                    self.verified += 1;
                }
                Rel::Words(_) => self.matched += 1.0,
                Rel::Place => self.matched += 0.5,
                Rel::Differs(_) => {
                    self.matched += 0.5;
                    let message = differs_message(r, g);
                    self.push(MismatchKind::Decisions, message, Some(g.origin), self.line(r.origin));
                }
            }
        }
        for (i, r) in code.decisions.iter().enumerate().filter(|(i, _)| !code_used[*i]) {
            if r.simple && summarised(r, chart) {
                continue;
            }
            let _ = i;
            let what = if r.looping.is_some() { "loop" } else { "condition" };
            let message = format!("the code's {what} `{}` has no decision in the chart", r.text);
            self.push(MismatchKind::Decisions, message, None, self.line(r.origin));
        }
        for g in chart.decisions.iter().enumerate().filter(|(j, _)| !chart_used[*j]).map(|(_, g)| g) {
            let message = format!("decision `{}` matches no condition or loop in the code", g.text);
            self.push(MismatchKind::Decisions, message, Some(g.origin), None);
        }
        pairs.sort_by_key(|p| p.code);
        pairs
    }

    /// Each matched decision is a loop in the chart where it is one in the
    /// code, drawn with its cycle.
    fn loops(&mut self, code: &FnFacts, chart: &FnFacts, pairs: &[Pair]) {
        for p in pairs {
            let (r, g) = (&code.decisions[p.code], &chart.decisions[p.chart]);
            let line = self.line(r.origin);
            let message = match (r.looping.is_some(), g.looping.is_some() || g.cycle) {
                (true, false) => format!("`{}` is a loop in the code but no edge leads back to it", g.text),
                (false, true) => format!("`{}` is an `if` in the code but the chart loops back to it", g.text),
                (true, true) if r.cycle && !g.cycle => format!("loop `{}` has no edge back to it", g.text),
                _ => continue,
            };
            self.matched -= 0.5;
            self.push(MismatchKind::Loops, message, Some(g.origin), line);
        }
    }

    /// Each matched decision sits inside as many loops as in the code.
    fn nesting(&mut self, code: &FnFacts, chart: &FnFacts, pairs: &[Pair]) {
        for p in pairs {
            let (r, g) = (&code.decisions[p.code], &chart.decisions[p.chart]);
            if r.depth != g.depth && r.cycle == g.cycle {
                let message =
                    format!("`{}` is inside {} loop(s) in the chart, {} in the code", g.text, g.depth, r.depth);
                self.matched -= 0.5;
                self.push(MismatchKind::Nesting, message, Some(g.origin), self.line(r.origin));
            }
        }
    }

    /// Every code exit has a chart exit with its value, and every chart
    /// exit is one of the code's; returns, per chart exit, the code exits it
    /// stands for.
    fn outputs(&mut self, code: &FnFacts, chart: &FnFacts) -> Vec<Vec<usize>> {
        self.code_facts += code.exits.len();
        self.chart_facts += chart.exits.len();
        for e in chart.exits.iter().filter(|e| matches!(e.value, Value::Prose(_))) {
            self.unverifiable.push(Unverified { node: e.origin, text: e.text.clone() });
        }
        let mut stands_for: Vec<Vec<usize>> = vec![Vec::new(); chart.exits.len()];
        for (i, r) in code.exits.iter().enumerate() {
            for (j, g) in chart.exits.iter().enumerate() {
                if same_exit(r, g) {
                    stands_for[j].push(i);
                }
            }
        }
        // Prose exits left over stand for the code's exits left over, in order.
        let mut left: Vec<usize> =
            (0..code.exits.len()).filter(|i| !stands_for.iter().any(|s| s.contains(i))).collect();
        for (j, g) in chart.exits.iter().enumerate() {
            if stands_for[j].is_empty() && matches!(g.value, Value::Prose(_)) && !left.is_empty() {
                stands_for[j].push(left.remove(0));
            }
        }
        // `return sorted(a) == sorted(b)` drawn as a decision on it, with
        // `Return True` and `Return False` on its branches (one of them
        // perhaps shared with the code's own `return False`): they stand for
        // the one return, and where they sit is for `branches` to check.
        let literal = |word: &str| -> Vec<usize> {
            (0..chart.exits.len()).filter(|&j| is_literal(&chart.exits[j], word)).collect()
        };
        let (yes, no) = (literal("True"), literal("False"));
        let unpaired = |js: &[usize]| js.iter().any(|&j| stands_for[j].is_empty());
        if !yes.is_empty() && !no.is_empty() && (unpaired(&yes) || unpaired(&no)) {
            let tests: Vec<usize> =
                (0..code.exits.len()).filter(|&i| is_test(&code.exits[i]) && left_over(&stands_for, i)).collect();
            for i in tests {
                yes.iter().chain(&no).for_each(|&j| stands_for[j].push(i));
            }
        }
        // A bare `return` is the chart's End.
        let mut unsaid = Vec::new();
        for (i, r) in code.exits.iter().enumerate() {
            let hits: Vec<usize> = (0..chart.exits.len()).filter(|&j| stands_for[j].contains(&i)).collect();
            if !hits.is_empty() {
                self.matched += 1.0;
                if hits.iter().any(|&j| !matches!(chart.exits[j].value, Value::Prose(_))) {
                    self.verified += 1;
                }
            } else if r.value != Value::Nothing {
                unsaid.push(r);
            }
        }
        let foreign: Vec<&Exit> = (0..chart.exits.len())
            .filter(|&j| stands_for[j].is_empty() && chart.exits[j].value != Value::Nothing)
            .map(|j| &chart.exits[j])
            .collect();
        if let ([r], [g]) = (unsaid.as_slice(), foreign.as_slice()) {
            // One value each side left over: the Output stands where the
            // code's return does, and one error names both.
            let message =
                format!("Output `{}` is not a value the code returns (the code {})", g.text.trim(), describe_exit(r));
            self.push(MismatchKind::Outputs, message, Some(g.origin), self.line(r.origin));
            return stands_for;
        }
        for r in unsaid {
            let message = format!("the code {} but no Output node says so", describe_exit(r));
            self.push(MismatchKind::Outputs, message, None, self.line(r.origin));
        }
        for g in foreign {
            let message = format!("Output `{}` is not a value the code returns", g.text.trim());
            self.push(MismatchKind::Outputs, message, Some(g.origin), None);
        }
        stands_for
    }

    /// The Yes and No branches of each matched decision lead where the
    /// code's do: to the matching decision or exit, or they are swapped.
    fn branches(&mut self, code: &FnFacts, chart: &FnFacts, pairs: &[Pair], exits: &[Vec<usize>]) {
        let of_code: HashMap<usize, usize> = pairs.iter().map(|p| (p.code, p.chart)).collect();
        let place = |r: Landmark, g: Landmark| -> Option<bool> {
            match (r, g) {
                (Landmark::Decision(a), Landmark::Decision(b)) => of_code.get(&a).map(|&x| x == b),
                (Landmark::Exit(a), Landmark::Exit(b)) => match (&code.exits[a].value, &chart.exits[b].value) {
                    (Value::Nothing, Value::Nothing) => Some(true),
                    // An exit that matched nothing is reported by
                    // `outputs`; where it sits says nothing more.
                    _ if exits[b].is_empty() || !exits.iter().any(|s| s.contains(&a)) => None,
                    _ => Some(exits[b].contains(&a)),
                },
                (Landmark::End, Landmark::End) => Some(true),
                (Landmark::End, Landmark::Exit(b)) => Some(chart.exits[b].value == Value::Nothing),
                (Landmark::Exit(a), Landmark::End) => Some(code.exits[a].value == Value::Nothing),
                (Landmark::Nothing, _) | (_, Landmark::Nothing) => None,
                (Landmark::Decision(a), _) if !of_code.contains_key(&a) => None,
                _ => Some(false),
            }
        };
        for p in pairs {
            let (r, g) = (&code.decisions[p.code], &chart.decisions[p.chart]);
            let (gy, gn) = if p.rel == Rel::Negated { (&g.no, &g.yes) } else { (&g.yes, &g.no) };
            let straight = (place(r.yes.landmark, gy.landmark), place(r.no.landmark, gn.landmark));
            let crossed = (place(r.yes.landmark, gn.landmark), place(r.no.landmark, gy.landmark));
            let ok = |x: (Option<bool>, Option<bool>)| x.0 != Some(false) && x.1 != Some(false);
            let both = |x: (Option<bool>, Option<bool>)| x.0 == Some(true) && x.1 == Some(true);
            // Prose conditions may be worded either way round.
            let free_polarity = matches!(p.rel, Rel::Words(_) | Rel::Place);
            if ok(straight) && (both(straight) || !both(crossed)) {
                if r.yes.landmark == r.no.landmark && !free_polarity && swapped_by_boxes(r, gy, gn) {
                    self.swapped(g, r);
                }
                continue;
            }
            if free_polarity && ok(crossed) {
                continue;
            }
            if both(crossed) || (ok(crossed) && !ok(straight)) {
                self.swapped(g, r);
                continue;
            }
            let (which, rl, gl) = if straight.0 == Some(false) {
                ("Yes", r.yes.landmark, gy.landmark)
            } else {
                ("No", r.no.landmark, gn.landmark)
            };
            let which = if p.rel == Rel::Negated { if which == "Yes" { "No" } else { "Yes" } } else { which };
            // The code's landmark by the chart's name for it, where it has one.
            let code_place = match rl {
                Landmark::Decision(a) => {
                    of_code.get(&a).map_or_else(|| describe(code, rl), |&b| describe(chart, Landmark::Decision(b)))
                }
                _ => describe(code, rl),
            };
            let message = format!(
                "the {which} branch of `{}` leads to {} where the code goes to {code_place}",
                g.text,
                describe(chart, gl)
            );
            self.matched -= 0.5;
            self.push(MismatchKind::Branches, message, Some(g.origin), self.line(r.origin));
        }
    }

    fn swapped(&mut self, g: &Decision, r: &Decision) {
        self.matched -= 0.5;
        let message = format!("the Yes and No branches of `{}` are swapped", g.text);
        self.push(MismatchKind::Branches, message, Some(g.origin), self.line(r.origin));
    }

    /// Whether the chart reads as structured code (prose labels aside,
    /// which make it no program but are not a fault of its structure).
    fn structure(&mut self, chart: &Graph) {
        if let Err(e) = super::chart2py::graph_to_python(chart, None)
            && !e.prose
        {
            let message = format!("the chart does not read as structured code: {}", e.message);
            self.push(MismatchKind::Structure, message, e.node, None);
        }
    }
}

/// Whether a chart decision is an iteration (its words are a loop's, not a
/// condition's).
fn is_code_loop(d: &Decision) -> bool {
    matches!(&d.looping, Some(Loop::Count(_)) | Some(Loop::Each { target: Some(_), iter: Some(_) }))
}

/// How a chart decision relates to a code decision, if they can stand for
/// each other at all.
fn relate(r: &Decision, g: &Decision) -> Option<Rel> {
    // Two counters, or an `enumerate` loop drawn as a counter over its index.
    let counted = |l: &Option<Loop>| match l {
        Some(Loop::Count(c)) => Some(c.clone()),
        Some(each) => each.enumerate_count(),
        None => None,
    };
    let counts = matches!(r.looping, Some(Loop::Count(_))) || matches!(g.looping, Some(Loop::Count(_)));
    if counts && let (Some(a), Some(b)) = (counted(&r.looping), counted(&g.looping)) {
        // `for _ in range(n)` names no counter; a chart must name one.
        if a.var != b.var && a.var != "_" {
            return None;
        }
        let starts = a.start.is_none() || b.start.is_none() || a.start == b.start;
        return Some(if starts && a.stop == b.stop && a.step == b.step { Rel::Same } else { Rel::Differs(1.0) });
    }
    match (&r.looping, &g.looping) {
        (Some(Loop::Each { target: ta, iter: ia }), Some(Loop::Each { target: tb, iter: ib }))
            if ta.is_some() && ta == tb =>
        {
            return Some(match (ia, ib) {
                (Some(x), Some(y)) if x == y => Rel::Same,
                (Some(_), Some(_)) => Rel::Differs(0.8),
                _ => Rel::Words(0.9),
            });
        }
        _ => {}
    }
    match (&r.cond, &g.cond) {
        (Cond::Code(a), Cond::Code(b)) => {
            let (a, b) = (&with_items(a, r), &with_items(b, g));
            if a == b {
                return Some(Rel::Same);
            }
            if super::expr::negate(a) == *b {
                return Some(Rel::Negated);
            }
            let share = jaccard(&code_words(a), &code_words(b));
            (share >= 0.5).then_some(Rel::Differs(share))
        }
        (a, b) => {
            let (wa, wb) = (cond_words(a, r), cond_words(b, g));
            let w = coverage(&wa, &wb).min(1.0);
            let back = coverage(&wb, &wa);
            (w >= 0.6 && back >= 0.3).then_some(Rel::Words(w))
        }
    }
}

/// `e` with each item an enclosing `enumerate` binds said as its element
/// (`v` as `xs[i]`, [`Decision::items`]), so that either side's form matches.
fn with_items(e: &Expr, d: &Decision) -> Expr {
    let said = d.items.iter().fold(e.clone(), |e, (name, element)| super::expr::substitute(&e, name, element));
    super::expr::canon(&said)
}

/// The words a decision is matched by.
fn cond_words(c: &Cond, d: &Decision) -> Vec<String> {
    let mut w = match c {
        Cond::Code(e) => code_words(e),
        Cond::Prose(w) => w.clone(),
    };
    if let Some(Loop::Each { target, iter }) = &d.looping {
        for e in target.iter().chain(iter) {
            w.extend(code_words(e));
        }
    }
    if let Some(Loop::Count(c)) = &d.looping {
        w.push(c.var.to_lowercase());
        w.extend(code_words(&c.stop.0));
    }
    w.sort();
    w.dedup();
    w
}

/// Share of `want`'s words that `have` has (a name also counts when each
/// of its parts is there: `is_open` in `… both open`).
fn coverage(want: &[String], have: &[String]) -> f64 {
    if want.is_empty() {
        return if have.is_empty() { 1.0 } else { 0.0 };
    }
    let found = want
        .iter()
        .filter(|w| {
            have.contains(w)
                || (w.contains('_') && w.split('_').filter(|p| p.len() > 2).all(|p| have.iter().any(|h| h == p)))
        })
        .count();
    found as f64 / want.len() as f64
}

fn jaccard(a: &[String], b: &[String]) -> f64 {
    let inter = a.iter().filter(|w| b.contains(w)).count();
    let union = a.len() + b.iter().filter(|w| !a.contains(w)).count();
    if union == 0 { 1.0 } else { inter as f64 / union as f64 }
}

/// Whether a chart box summarises a simple code loop in one line
/// (`dp[i][0] = i for i in 0..m`): it names the loop variable with `for`/
/// `each`/`every`/`all` and a name the loop assigns.
fn summarised(r: &Decision, chart: &FnFacts) -> bool {
    let var = match &r.looping {
        Some(Loop::Count(c)) => vec![c.var.to_lowercase()],
        Some(Loop::Each { target: Some(t), .. }) => code_words(t),
        _ => return false,
    };
    chart.steps.iter().any(|(_, text)| {
        let raw: Vec<&str> = text.split(|c: char| !(c.is_alphanumeric() || c == '_')).collect();
        let iterates = ["for", "each", "every", "all"].iter().any(|k| raw.contains(k));
        let words = super::facts::words(text);
        iterates
            && var.iter().all(|v| words.contains(v))
            && r.body_names.iter().any(|n| words.contains(&n.to_lowercase()))
    })
}

/// Both branches of the code decision meet at once (an `if` without
/// `else`, or an `if`/`else` whose branches join): swapped if the chart's
/// boxes do the code's work on the other branch, one branch's at least,
/// the other's not on its own side (a branch said in prose tells neither).
fn swapped_by_boxes(r: &Decision, gy: &super::facts::Sig, gn: &super::facts::Sig) -> bool {
    // Steps both branches share (a counter's step after the join) say
    // nothing about which branch is which.
    let own = |a: &Vec<String>, b: &Vec<String>| a.iter().filter(|x| !b.contains(x)).cloned().collect::<Vec<String>>();
    let (ry, rn, cy, cn) = (
        &own(&r.yes.steps, &r.no.steps),
        &own(&r.no.steps, &r.yes.steps),
        &own(&gy.steps, &gn.steps),
        &own(&gn.steps, &gy.steps),
    );
    let j = |a: &Vec<String>, b: &Vec<String>| jaccard(a, b);
    let (yes_crossed, no_crossed) = (j(ry, cn).total_cmp(&j(ry, cy)), j(rn, cy).total_cmp(&j(rn, cn)));
    let crossed = [yes_crossed, no_crossed];
    ry != rn && crossed.contains(&Ordering::Greater) && !crossed.contains(&Ordering::Less)
}

fn differs_message(r: &Decision, g: &Decision) -> String {
    if let (Some(Loop::Count(a)), Some(Loop::Count(b))) = (&r.looping, &g.looping) {
        return format!("loop `{}` counts {} where the code counts {}", g.text, describe_count(b), describe_count(a));
    }
    match (&r.cond, &g.cond) {
        (Cond::Code(a), Cond::Code(b)) => format!("`{}` tests `{b}` where the code tests `{a}`", g.text),
        _ => format!("`{}` is not the code's `{}`", g.text, r.text),
    }
}

fn describe_count(c: &super::facts::Count) -> String {
    let stop = match c.stop.1 {
        0 => c.stop.0.to_string(),
        k if matches!(&c.stop.0, Expr::Num(n) if n == "0") => k.to_string(),
        k if k > 0 => format!("{} + {k}", c.stop.0),
        k => format!("{} - {}", c.stop.0, -k),
    };
    let start = c.start.as_ref().map_or("?".to_owned(), ToString::to_string);
    format!("{} from {start} while {} {stop} by {}", c.var, if c.step > 0 { "<" } else { ">" }, c.step)
}

fn same_exit(r: &Exit, g: &Exit) -> bool {
    match (&r.value, &g.value) {
        (Value::Code(a), Value::Code(b)) => a.iter().any(|x| b.contains(x)),
        (Value::Raise(a), Value::Raise(b)) => a == b || a.rsplit('.').next() == b.rsplit('.').next(),
        (Value::Nothing, Value::Nothing) => true,
        (Value::Code(a), Value::Prose(w)) => {
            let want = code_words(&a[0]);
            coverage(&want, w) >= 0.75 && !want.is_empty()
        }
        (Value::Raise(a), Value::Prose(w)) => w.contains(&a.to_lowercase()),
        _ => false,
    }
}

/// Whether a code exit returns a test (`a == b`, `x in seen`, `not s`,
/// `p and q`): a value a chart may draw as a decision with `True` and
/// `False` returns.
fn is_test(e: &Exit) -> bool {
    let Value::Code(forms) = &e.value else { return false };
    forms
        .first()
        .is_some_and(|v| matches!(v, Expr::Cmp(..) | Expr::Bool(..)) || matches!(v, Expr::Unary(op, _) if op == "not"))
}

/// Whether no chart exit stands for code exit `i` yet.
fn left_over(stands_for: &[Vec<usize>], i: usize) -> bool {
    !stands_for.iter().any(|s| s.contains(&i))
}

/// Whether a chart exit returns exactly the constant `word`.
fn is_literal(e: &Exit, word: &str) -> bool {
    matches!(&e.value, Value::Code(forms) if matches!(forms.first(), Some(Expr::Name(n)) if n == word))
}

fn describe_exit(e: &Exit) -> String {
    match &e.value {
        Value::Code(v) => format!("returns `{}`", v[0]),
        Value::Raise(name) => format!("raises `{name}`"),
        _ => format!("returns `{}`", e.text),
    }
}

fn describe(f: &FnFacts, l: Landmark) -> String {
    match l {
        Landmark::Decision(d) => format!("`{}`", f.decisions[d].text),
        Landmark::Exit(e) => format!("`{}`", f.exits[e].text.trim()),
        Landmark::End => "the end".into(),
        Landmark::Nothing => "nothing".into(),
    }
}
