//! `draw`: a solution's [`Program`] → a Code-Vision-style [`Flowchart`].
//!
//! The entry function runs from a `Start` terminal through an Input node
//! naming its parameters to an `End` terminal; every `return` is an Output
//! node. Each helper (module-level, nested, or another method of the class)
//! is a subgraph with its own `Start: name(params)` terminal, and an `End`
//! terminal when its body can fall off the end or raise. Decisions carry the
//! condition, loops are a decision with a visible back edge, `break` and
//! `continue` are edges. Labels follow [`labels`] so `chart2py` can read the
//! chart back.
//!
//! A whole program (module code that reads input or prints, entry
//! [`labels::PROGRAM`]) starts at a plain `Start` with no parameters; each
//! statement that reads input or prints is a parallelogram of its own (the
//! Input and Output nodes of a flowchart), labelled with its code, and a
//! `for _ in range(t)` over the test cases is a loop like any other.

use std::collections::HashMap;

use flowbench_chart::mermaid::{Direction, Edge, Flowchart, LabelType, Node, Shape, Span, Subgraph};

use super::labels;
use super::reader::{Func, Program, Stmt};

/// How many straight-line statements one process box may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Detail {
    /// Every straight-line run is one box.
    Low,
    /// Up to two statements per box: Code-Vision's density, where a box
    /// holds one step or a pair of set-up assignments.
    #[default]
    Medium,
    /// One statement per box (the form `chart2py` round-trips exactly).
    High,
}

impl Detail {
    /// Whether a statement may share a box at this detail: at `medium` only
    /// short one-line statements do (two long ones wrapped into one box
    /// read as one run-on statement).
    fn joinable(self, text: &str) -> bool {
        self != Detail::Medium || (text.chars().count() <= 40 && !text.contains('\n'))
    }

    fn run_cap(self) -> usize {
        match self {
            Detail::Low => usize::MAX,
            Detail::Medium => 2,
            Detail::High => 1,
        }
    }
}

/// A drawn chart and, for each node id, the solution line it stands for
/// (what `check --against` points at).
#[derive(Debug, Clone)]
pub struct Drawn {
    pub chart: Flowchart,
    pub lines: HashMap<String, u32>,
}

/// Draw `program` at the given detail.
pub fn draw(program: &Program, detail: Detail) -> Drawn {
    let mut b = Builder {
        chart: Flowchart { direction: Direction::TB, ..Flowchart::default() },
        lines: HashMap::new(),
        detail,
        next: 0,
        io_shapes: false,
    };
    let entry = &program.entry;
    let whole_program = entry.qual == labels::PROGRAM;
    b.io_shapes = whole_program;
    let pending = if whole_program {
        // A whole program: a plain Start, its input read by statements.
        vec![(b.node(Shape::Stadium, labels::START.to_owned(), entry.line), None)]
    } else {
        let start = b.node(Shape::Stadium, labels::start(&entry.qual), entry.line);
        let mut pending = vec![(start, None)];
        let input = b.node(Shape::LeanR, labels::input(&entry.params), entry.line);
        b.connect(&mut pending, &input);
        pending
    };
    let preamble_and_body: Vec<Stmt> = program.preamble.iter().chain(&entry.body).cloned().collect();
    let mut flow = Flow { loops: Vec::new(), to_end: Vec::new(), end_line: entry.line };
    let mut pending = b.block(&preamble_and_body, pending, &mut flow);
    pending.append(&mut flow.to_end);
    let end = b.node(Shape::Stadium, labels::END.to_owned(), flow.end_line);
    b.connect(&mut pending, &end);
    for helper in &program.helpers {
        b.helper(helper);
    }
    Drawn { chart: b.chart, lines: b.lines }
}

/// Edges still to be drawn to whatever node comes next: (from, label).
type Pending = Vec<(String, Option<&'static str>)>;

struct Flow {
    /// Innermost last: (loop decision id, pending `break` edges).
    loops: Vec<(String, Pending)>,
    /// Edges to the function's End (returns, raises).
    to_end: Pending,
    end_line: u32,
}

struct Builder {
    chart: Flowchart,
    lines: HashMap<String, u32>,
    detail: Detail,
    next: usize,
    /// Whether statements that read input or print are drawn as
    /// Input/Output parallelograms, each in a box of its own (whole
    /// programs, where reading and printing are the I/O).
    io_shapes: bool,
}

impl Builder {
    /// A node with a fresh id (`A`…`Z`, `AA`, …) and a quoted label.
    fn node(&mut self, shape: Shape, label: String, line: u32) -> String {
        let mut n = self.next;
        self.next += 1;
        let mut id = String::new();
        loop {
            id.insert(0, (b'A' + (n % 26) as u8) as char);
            if n < 26 {
                break;
            }
            n = n / 26 - 1;
        }
        self.chart.nodes.push(Node::new(id.clone(), label, LabelType::String, shape));
        self.lines.insert(id.clone(), line);
        id
    }

    /// Draws every pending edge to `to`; afterwards `to` is what is pending.
    fn connect(&mut self, pending: &mut Pending, to: &str) {
        for (from, label) in pending.drain(..) {
            self.edge(&from, to, label);
        }
        pending.push((to.to_owned(), None));
    }

    fn edge(&mut self, from: &str, to: &str, label: Option<&'static str>) {
        let id = format!("L_{from}_{to}_{}", self.chart.edges.len());
        let mut e = Edge::new(id, from, to);
        e.head_end = flowbench_chart::mermaid::ArrowHead::Arrow;
        e.label = label.map(str::to_owned);
        self.chart.edges.push(e);
    }

    /// Draws `stmts` after `pending`; returns the edges leaving the block.
    fn block(&mut self, stmts: &[Stmt], mut pending: Pending, flow: &mut Flow) -> Pending {
        let mut i = 0;
        while i < stmts.len() {
            if pending.is_empty() {
                break; // the rest of the block cannot run (after return/break/…)
            }
            let stmt = &stmts[i];
            i += 1;
            match stmt {
                Stmt::Simple { line, text } if self.io_shapes && labels::is_io(text) => {
                    let id = self.node(Shape::LeanR, labels::statement(text), *line);
                    self.connect(&mut pending, &id);
                }
                Stmt::Simple { line, text } => {
                    let mut texts = vec![labels::statement(text)];
                    let joinable = self.detail.joinable(text);
                    while texts.len() < self.detail.run_cap() && joinable {
                        match stmts.get(i) {
                            Some(Stmt::Simple { text, .. })
                                if self.detail.joinable(text) && !(self.io_shapes && labels::is_io(text)) =>
                            {
                                texts.push(labels::statement(text));
                                i += 1;
                            }
                            _ => break,
                        }
                    }
                    let id = self.node(Shape::Rect, texts.join(labels::BR), *line);
                    self.connect(&mut pending, &id);
                }
                Stmt::If { line, cond, then, otherwise } => {
                    let id = self.node(Shape::Diam, labels::decision(cond), *line);
                    self.connect(&mut pending, &id);
                    let mut yes = self.block(then, vec![(id.clone(), Some(labels::YES))], flow);
                    let mut no = self.block(otherwise, vec![(id.clone(), Some(labels::NO))], flow);
                    yes.append(&mut no);
                    pending = yes;
                }
                Stmt::While { line, cond, body } => {
                    pending = self.looped(labels::decision(cond), *line, body, pending, flow);
                }
                Stmt::For { line, target, iter, body } => {
                    pending = self.looped(labels::for_loop(target, iter), *line, body, pending, flow);
                }
                Stmt::Break { .. } => {
                    if let Some((_, breaks)) = flow.loops.last_mut() {
                        breaks.append(&mut pending);
                    }
                }
                Stmt::Continue { .. } => {
                    if let Some((header, _)) = flow.loops.last() {
                        let header = header.clone();
                        for (from, label) in pending.drain(..) {
                            self.edge(&from, &header, label);
                        }
                    }
                }
                Stmt::Return { line, value } => {
                    let id = self.node(Shape::LeanR, labels::output(value.as_deref()), *line);
                    self.connect(&mut pending, &id);
                    flow.to_end.append(&mut pending);
                }
                Stmt::Raise { line, text } => {
                    let id = self.node(Shape::Rect, labels::statement(text), *line);
                    self.connect(&mut pending, &id);
                    flow.to_end.append(&mut pending);
                }
            }
        }
        pending
    }

    /// A loop: decision, body with a back edge, and the No exit plus breaks
    /// as what follows.
    fn looped(&mut self, label: String, line: u32, body: &[Stmt], mut pending: Pending, flow: &mut Flow) -> Pending {
        let id = self.node(Shape::Diam, label, line);
        self.connect(&mut pending, &id);
        flow.loops.push((id.clone(), Vec::new()));
        let back = self.block(body, vec![(id.clone(), Some(labels::YES))], flow);
        for (from, label) in back {
            self.edge(&from, &id, label);
        }
        let (_, mut breaks) = flow.loops.pop().expect("pushed above");
        let mut out = vec![(id, Some(labels::NO))];
        out.append(&mut breaks);
        out
    }

    /// A helper as a subgraph: its own Start terminal, body, and End.
    fn helper(&mut self, f: &Func) {
        let first = self.chart.nodes.len();
        let start = self.node(Shape::Stadium, labels::helper_start(&f.qual, &f.params), f.line);
        let mut flow = Flow { loops: Vec::new(), to_end: Vec::new(), end_line: f.line };
        let mut pending = self.block(&f.body, vec![(start, None)], &mut flow);
        // Returns are Output nodes that end the helper's flow; an End is
        // needed only for falling off the end or raising.
        let mut ends: Pending = flow.to_end.into_iter().filter(|(from, _)| !self.is_output(from)).collect();
        pending.append(&mut ends);
        if !pending.is_empty() {
            let end = self.node(Shape::Stadium, labels::END.to_owned(), f.line);
            self.connect(&mut pending, &end);
        }
        let members = self.chart.nodes[first..].iter().map(|n| n.id.clone()).collect();
        let title = match (&f.method, &f.parent) {
            (Some(_), _) => format!("{}{}", labels::METHOD, f.qual),
            (None, Some(parent)) => format!("{}{}{}{parent})", labels::HELPER, f.name, labels::NESTED),
            (None, None) => format!("{}{}", labels::HELPER, f.name),
        };
        let id = format!("H{}", self.chart.subgraphs.len() + 1);
        self.chart.subgraphs.push(Subgraph {
            id,
            title,
            label_type: LabelType::String,
            members,
            direction: None,
            classes: Vec::new(),
            styles: Vec::new(),
            span: Span::default(),
        });
    }

    fn is_output(&self, id: &str) -> bool {
        self.chart.nodes.iter().rev().find(|n| n.id == id).is_some_and(|n| n.shape == Shape::LeanR)
    }
}
