//! What a chart says about its program, for `check --against`: per
//! function, the parameters, every decision (its condition in canonical
//! form, whether and how it loops, its loop depth, where its branches lead)
//! and every exit (returned values, raises).
//!
//! Read from a [`Graph`] — the chart's, or the reference chart `draw` makes
//! of the solution — after rewrites that make equivalent drawings equal:
//! `if a: if b:` with one shared `else` is `if a and b:` (a chart draws
//! `while stack and x > y` as two diamonds); a test whose branches return
//! `True` and `False` is `return test`; a counting `while` (`i = 1`,
//! `i <= m?`, `i = i + 1`) and `for i in range(1, m + 1)` are the same
//! count. Conditions compare by [`expr::canon`]; a condition in prose keeps
//! its words.

use std::collections::{HashMap, HashSet};

use super::expr::{self, Expr, Stmt};
use super::graph::{Branch, Graph, Kind, depth_first, natural_loops};
use super::prose::{self, InputPart};

/// The facts of every function, the entry first.
pub struct Facts {
    pub functions: Vec<FnFacts>,
}

pub struct FnFacts {
    pub name: String,
    /// The chart node naming the parameters, and what it says.
    pub input: Option<usize>,
    pub input_parts: Vec<InputPart>,
    pub decisions: Vec<Decision>,
    pub exits: Vec<Exit>,
    /// Every line of every box: (chart node, its words), for loops a chart
    /// summarises in one box (`dp[i][0] = i for i in 0..m`).
    pub steps: Vec<(usize, String)>,
    /// Every line of every box as a statement, in the flow's order.
    pub statements: Vec<Statement>,
}

/// One line of a box, for comparing what the boxes do.
#[derive(Debug, Clone)]
pub struct Statement {
    pub origin: usize,
    /// The line as written.
    pub text: String,
    /// Canonical code (`x += 1` is `x = x + 1`), if the line is code.
    pub code: Option<String>,
    /// Names it assigns or mutates (`a[i] = …`, `a.append(…)` write `a`).
    pub writes: Vec<String>,
    pub reads: Vec<String>,
    /// Words of the line, for prose.
    pub words: Vec<String>,
    /// The straight run of boxes it is in, and its place in that run.
    pub block: usize,
    pub place: usize,
}

/// A condition: canonical code, or the words of prose.
#[derive(Debug, Clone, PartialEq)]
pub enum Cond {
    Code(Expr),
    Prose(Vec<String>),
}

/// How a loop decision iterates.
#[derive(Debug, Clone, PartialEq)]
pub enum Loop {
    /// `for target in iter` (either unknown when the chart does not say).
    Each { target: Option<Expr>, iter: Option<Expr> },
    /// A count from `start` by `step` while below (above) `stop`.
    Count(Count),
    /// Any other `while`.
    While,
}

impl Loop {
    /// The count an `enumerate` loop makes of its index (`for i, v in
    /// enumerate(xs)` counts `i` from 0 below `len(xs)`), as a chart that
    /// draws it as a counter says it.
    pub fn enumerate_count(&self) -> Option<Count> {
        let Loop::Each { target: Some(Expr::Tuple(target)), iter: Some(Expr::Call(f, args)) } = self else {
            return None;
        };
        match (&target[..], &**f, &args[..]) {
            ([Expr::Name(i), _], Expr::Name(enumerate), [seq]) if enumerate == "enumerate" && seq.keyword.is_none() => {
                let len = Expr::Call(
                    Box::new(Expr::Name("len".into())),
                    vec![expr::Arg { keyword: None, value: seq.value.clone() }],
                );
                let stop = (expr::canon(&len), 0);
                Some(Count { var: i.clone(), start: Some(Expr::Num("0".into())), stop, step: 1 })
            }
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Count {
    pub var: String,
    pub start: Option<Expr>,
    /// The first value not reached: an expression plus a constant
    /// (`i <= m` stops at `m` + 1).
    pub stop: (Expr, i64),
    pub step: i64,
}

/// One decision of a function.
#[derive(Debug, Clone)]
pub struct Decision {
    /// The chart node (for a merged `a and b`, the first diamond).
    pub origin: usize,
    pub text: String,
    pub cond: Cond,
    pub looping: Option<Loop>,
    /// Whether an edge leads back to it (a loop drawn with its cycle).
    pub cycle: bool,
    /// Loops around it.
    pub depth: usize,
    pub yes: Sig,
    pub no: Sig,
    /// A loop whose body has no decision and no exit (which a chart may
    /// draw as one box).
    pub simple: bool,
    /// Names assigned in a loop's body.
    pub body_names: Vec<String>,
    /// Names an enclosing `for i, v in enumerate(xs)` binds to an element
    /// of its sequence, with that element (`v`, `xs[i]`): a chart that
    /// draws the loop as a counter says `xs[i]` where the code says `v`.
    pub items: Vec<(String, Expr)>,
}

/// Where a branch leads: the first decision or exit on its way, and the
/// statements of the boxes before it (canonical code, or a prose line as
/// written).
#[derive(Debug, Clone, PartialEq)]
pub struct Sig {
    pub landmark: Landmark,
    pub steps: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Landmark {
    /// The decision with this index in [`FnFacts::decisions`].
    Decision(usize),
    /// The exit with this index in [`FnFacts::exits`].
    Exit(usize),
    /// The function's end (falling off it).
    End,
    Nothing,
}

/// A way out of a function.
#[derive(Debug, Clone)]
pub struct Exit {
    pub origin: usize,
    pub text: String,
    pub value: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// The value and its forms with the boxes before it substituted in
    /// (`area` after `area = abs(s) / 2` is also `abs(s) / 2`).
    Code(Vec<Expr>),
    Prose(Vec<String>),
    /// A `raise`, by the exception's name.
    Raise(String),
    /// `return` / `return None`.
    Nothing,
}

/// The facts of a reading.
pub fn facts(g: &Graph) -> Facts {
    let mut work = Work::new(g);
    let mut functions = Vec::new();
    for f in &g.functions {
        let reach = f.entry.map(|e| work.reach(e)).unwrap_or_default();
        work.collapse_boolean_returns(&reach);
        work.merge_short_circuits(&reach);
        let input_parts = match f.input.filter(|&i| g.nodes[i].kind == Kind::Input) {
            Some(i) => prose::input(g.label(i)),
            None => f.params.iter().flatten().map(|p| part(p)).collect(),
        };
        let mut ff = FnFacts {
            name: f.name.clone(),
            input: f.input.map(|i| g.nodes[i].origin),
            input_parts,
            decisions: Vec::new(),
            exits: Vec::new(),
            steps: Vec::new(),
            statements: Vec::new(),
        };
        if let Some(entry) = f.entry {
            work.read_function(entry, &mut ff);
        }
        functions.push(ff);
    }
    Facts { functions }
}

fn part(p: &str) -> InputPart {
    let name = p.split(['=', ':']).next().unwrap_or("").trim().trim_start_matches('*').to_owned();
    InputPart { words: vec![name.clone()], name: Some(name) }
}

/// A mutable copy of the reading's nodes, rewritten for comparison.
struct Work<'g> {
    g: &'g Graph<'g>,
    kind: Vec<Kind>,
    succ: Vec<Vec<(usize, Branch)>>,
    /// Nodes rewritten away.
    gone: Vec<bool>,
}

impl<'g> Work<'g> {
    fn new(g: &'g Graph<'g>) -> Work<'g> {
        Work {
            g,
            kind: g.nodes.iter().map(|n| n.kind.clone()).collect(),
            succ: g.nodes.iter().map(|n| n.succ.clone()).collect(),
            gone: vec![false; g.nodes.len()],
        }
    }

    fn targets(&self) -> Vec<Vec<usize>> {
        self.succ.iter().map(|s| s.iter().map(|&(t, _)| t).collect()).collect()
    }

    fn reach(&self, entry: usize) -> Vec<usize> {
        depth_first(&self.targets(), &[entry]).0
    }

    fn branch(&self, n: usize, b: Branch) -> Option<usize> {
        self.succ[n].iter().find(|(_, x)| *x == b).map(|&(t, _)| t)
    }

    fn preds(&self, n: usize) -> Vec<usize> {
        (0..self.succ.len()).filter(|&p| !self.gone[p] && self.succ[p].iter().any(|&(t, _)| t == n)).collect()
    }

    fn code_of(&self, n: usize) -> Option<Expr> {
        match &self.kind[n] {
            Kind::Decision { test, each: None } => test.code.as_deref().and_then(expr::parse),
            _ => None,
        }
    }

    fn returns_literal(&self, n: usize, literal: &str) -> bool {
        matches!(&self.kind[n], Kind::Return(Some(l)) if l.code.as_deref() == Some(literal))
    }

    /// `if c: return True else: return False` → `return c`.
    fn collapse_boolean_returns(&mut self, reach: &[usize]) {
        let (_, back) = depth_first(&self.targets(), &reach[..reach.len().min(1)]);
        for &d in reach {
            let (Some(y), Some(n)) = (self.branch(d, Branch::Yes), self.branch(d, Branch::No)) else { continue };
            if back.iter().any(|&(_, h)| h == d) {
                continue;
            }
            let Some(cond) = self.code_of(d) else { continue };
            let value = if self.returns_literal(y, "True") && self.returns_literal(n, "False") {
                cond
            } else if self.returns_literal(y, "False") && self.returns_literal(n, "True") {
                Expr::Unary("not".into(), Box::new(cond))
            } else {
                continue;
            };
            let text = value.to_string();
            self.kind[d] = Kind::Return(Some(prose::Line { text: text.clone(), code: Some(text) }));
            self.succ[d].clear();
        }
    }

    /// `a? Yes→ b? …` where `b` has no other way in and both share an
    /// outcome: one decision `a and b` (or `a or b`, with negations as the
    /// branches say).
    fn merge_short_circuits(&mut self, reach: &[usize]) {
        let mut changed = true;
        while changed {
            changed = false;
            for &d1 in reach {
                if self.gone[d1] || !self.is_test(d1) {
                    continue;
                }
                for first in [Branch::Yes, Branch::No] {
                    let other = if first == Branch::Yes { Branch::No } else { Branch::Yes };
                    let (Some(d2), Some(x)) = (self.branch(d1, first), self.branch(d1, other)) else { continue };
                    if d2 == d1 || !self.is_test(d2) || self.preds(d2) != [d1] {
                        continue;
                    }
                    let (Some(p), Some(q)) = (self.branch(d2, Branch::Yes), self.branch(d2, Branch::No)) else {
                        continue;
                    };
                    // d1 `first`→ d2, d1 `other`→ x; d2 Yes→ p, No→ q.
                    // How `x` is reached decides the operator and c2's sign.
                    let (same_q, same_p) = (self.same_place(q, x), self.same_place(p, x));
                    let (c2, rest) = match (first, same_q, same_p) {
                        (Branch::Yes, true, _) => (self.cond_expr(d2, false), p),
                        (Branch::Yes, _, true) => (self.cond_expr(d2, true), q),
                        (_, _, true) => (self.cond_expr(d2, false), q),
                        (_, true, _) => (self.cond_expr(d2, true), p),
                        _ => continue,
                    };
                    let c1 = self.cond_expr(d1, false);
                    let (op, c1) = if first == Branch::Yes { ("and", c1) } else { ("or", c1) };
                    let merged = merge_conds(op, c1, c2);
                    let (yes, no) = if first == Branch::Yes { (rest, x) } else { (x, rest) };
                    self.kind[d1] = Kind::Decision { test: merged, each: None };
                    self.succ[d1] = vec![(yes, Branch::Yes), (no, Branch::No)];
                    self.succ[d2].clear();
                    self.gone[d2] = true;
                    changed = true;
                    break;
                }
            }
        }
    }

    /// Whether two nodes are the same place to go: the same node, or two
    /// exits with the same value (`return True` drawn twice).
    fn same_place(&self, a: usize, b: usize) -> bool {
        if a == b {
            return true;
        }
        match (&self.kind[a], &self.kind[b]) {
            (Kind::Return(x), Kind::Return(y)) => {
                let canon = |l: &Option<prose::Line>| {
                    l.as_ref().map(|l| l.code.as_deref().and_then(expr::parse).map(|e| expr::canon(&e)))
                };
                let (cx, cy) = (canon(x), canon(y));
                cx == cy && cx.is_none_or(|c| c.is_some())
            }
            (Kind::End, Kind::End) => true,
            _ => false,
        }
    }

    /// A plain test (not worded as an iteration).
    fn is_test(&self, n: usize) -> bool {
        matches!(self.kind[n], Kind::Decision { each: None, .. })
    }

    /// The condition of `n` (negated if asked) as a line.
    fn cond_expr(&self, n: usize, negate: bool) -> prose::Line {
        let Kind::Decision { test, .. } = &self.kind[n] else { unreachable!("is_test checked") };
        match (test.code.as_deref().and_then(expr::parse), negate) {
            (Some(e), true) => {
                let c = Expr::Unary("not".into(), Box::new(e)).to_string();
                prose::Line { text: format!("not ({})", test.text), code: Some(c) }
            }
            (Some(e), false) => prose::Line { text: test.text.clone(), code: Some(e.to_string()) },
            (None, _) => prose::Line { text: test.text.clone(), code: None },
        }
    }

    /// The item a `for i, v in enumerate(xs)` loop headed at `head` binds,
    /// as `v` and `xs[i]`.
    fn enumerated_item(&self, head: usize) -> Option<(String, Expr)> {
        let Kind::Decision { each: Some(each), .. } = &self.kind[head] else { return None };
        let (Some(Expr::Tuple(target)), Some(Expr::Call(f, args))) =
            (each.target.as_deref().and_then(expr::parse), each.iter.as_deref().and_then(expr::parse))
        else {
            return None;
        };
        match (&target[..], &*f, &args[..]) {
            ([Expr::Name(i), Expr::Name(v)], Expr::Name(enumerate), [seq])
                if enumerate == "enumerate" && seq.keyword.is_none() =>
            {
                let element = Expr::Index(Box::new(seq.value.clone()), Box::new(Expr::Name(i.clone())));
                Some((v.clone(), element))
            }
            _ => None,
        }
    }

    /// Reads one function's decisions and exits.
    fn read_function(&self, entry: usize, ff: &mut FnFacts) {
        let (order, back) = depth_first(&self.targets(), &[entry]);
        let bodies = self.loop_bodies(&back);
        let heads: HashSet<usize> = back.iter().map(|&(_, h)| h).collect();
        let mut decision_at = HashMap::new();
        let mut exit_at = HashMap::new();
        let mut blocks = Blocks::default();
        for &n in &order {
            match &self.kind[n] {
                Kind::Decision { .. } => {
                    decision_at.insert(n, decision_at.len());
                }
                Kind::Return(_) => {
                    exit_at.insert(n, exit_at.len());
                }
                Kind::Steps(lines) if lines.iter().any(|l| is_raise(l.code.as_deref())) => {
                    exit_at.insert(n, exit_at.len());
                }
                _ => {}
            }
        }
        for &n in &order {
            let origin = self.g.nodes[n].origin;
            match &self.kind[n] {
                Kind::Decision { test, each } => {
                    let around: Vec<usize> =
                        bodies.iter().filter(|(h, body)| **h != n && body.contains(&n)).map(|(h, _)| *h).collect();
                    let depth = around.len();
                    let items = around.iter().filter_map(|&h| self.enumerated_item(h)).collect();
                    let cond = match test.code.as_deref().and_then(expr::parse) {
                        Some(e) if each.is_none() => Cond::Code(expr::canon(&e)),
                        _ => Cond::Prose(words(&test.text)),
                    };
                    let looping = match each {
                        Some(e) => Some(each_loop(e)),
                        None if heads.contains(&n) => {
                            Some(self.count_loop(n, &cond, &bodies[&n]).unwrap_or(Loop::While))
                        }
                        None => None,
                    };
                    let body = bodies.get(&n);
                    let simple = body.is_some_and(|b| {
                        b.iter().all(|&v| v == n || !matches!(self.kind[v], Kind::Decision { .. } | Kind::Return(_)))
                    });
                    let body_names = body
                        .map(|b| {
                            b.iter().filter(|&&v| v != n).flat_map(|&v| self.assigned(v).unwrap_or_default()).collect()
                        })
                        .unwrap_or_default();
                    let sig = |b: Branch| self.signature(self.branch(n, b), &decision_at, &exit_at);
                    // Named as drawn (`Is n even?`), unless merged or
                    // rewritten from several nodes.
                    let label = self.g.label(n).trim();
                    let drawn = n < self.g.chart.nodes.len() && prose::question(label) == test.text;
                    let text = if drawn { super::labels::on_one_line(label, " ") } else { test.text.clone() };
                    ff.decisions.push(Decision {
                        origin,
                        text,
                        cond,
                        looping,
                        cycle: heads.contains(&n),
                        depth,
                        yes: sig(Branch::Yes),
                        no: sig(Branch::No),
                        simple,
                        body_names,
                        items,
                    });
                }
                Kind::Return(value) => {
                    let value = match value {
                        None => Value::Nothing,
                        Some(l) => match l.code.as_deref().and_then(expr::parse) {
                            Some(e) if is_none(&e) => Value::Nothing,
                            Some(e) => Value::Code(self.forms(n, e)),
                            None => Value::Prose(words(&l.text)),
                        },
                    };
                    let text = self.g.label(n).to_owned();
                    ff.exits.push(Exit { origin, text, value });
                }
                Kind::Steps(lines) => {
                    for l in lines {
                        ff.steps.push((origin, l.text.to_lowercase()));
                    }
                    let block = self.block_of(n, &mut blocks);
                    for l in lines {
                        let place = blocks.len_of(block);
                        ff.statements.push(statement(origin, l, block, place));
                    }
                    if let Some(code) = lines.iter().find_map(|l| l.code.as_deref().filter(|c| is_raise(Some(c)))) {
                        let name = code["raise".len()..]
                            .trim()
                            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                            .next()
                            .unwrap_or("")
                            .to_owned();
                        ff.exits.push(Exit { origin, text: code.to_owned(), value: Value::Raise(name) });
                    }
                }
                _ => {}
            }
        }
    }

    /// The straight run of boxes `n` is in: its predecessor's, when that
    /// is a box leading only to `n` and `n` has no other way in.
    fn block_of(&self, n: usize, blocks: &mut Blocks) -> usize {
        let preds = self.preds(n);
        let run = match preds.as_slice() {
            [p] if matches!(self.kind[*p], Kind::Steps(_)) && self.succ[*p].len() == 1 => blocks.of.get(p).copied(),
            _ => None,
        };
        let block = run.unwrap_or_else(|| {
            blocks.sizes.push(0);
            blocks.sizes.len() - 1
        });
        blocks.of.insert(n, block);
        block
    }

    fn loop_bodies(&self, back: &HashSet<(usize, usize)>) -> HashMap<usize, HashSet<usize>> {
        let edges = self.succ.iter().enumerate().flat_map(|(f, s)| s.iter().map(move |&(t, _)| (f, t)));
        natural_loops(self.succ.len(), edges, back)
    }

    /// Names a box assigns (`None`: it has prose).
    fn assigned(&self, n: usize) -> Option<Vec<String>> {
        let Kind::Steps(lines) = &self.kind[n] else { return Some(Vec::new()) };
        let mut out = Vec::new();
        for l in lines {
            let code = l.code.as_deref()?;
            match expr::parse_stmt(code) {
                Some(Stmt::Assign(targets, _)) => targets.iter().for_each(|t| target_names(t, &mut out)),
                Some(Stmt::Aug(t, _, _)) => target_names(&t, &mut out),
                Some(Stmt::Expr(Expr::Call(f, _))) => {
                    if let Expr::Attr(obj, _) = *f {
                        target_names(&obj, &mut out);
                    }
                }
                _ => {}
            }
        }
        Some(out)
    }

    /// Where a branch leads: boxes walked through until a decision, an exit
    /// or the end.
    fn signature(
        &self,
        from: Option<usize>,
        decision_at: &HashMap<usize, usize>,
        exit_at: &HashMap<usize, usize>,
    ) -> Sig {
        let mut steps = Vec::new();
        let mut at = from;
        let mut seen = HashSet::new();
        while let Some(n) = at {
            if !seen.insert(n) {
                break;
            }
            if let Some(&d) = decision_at.get(&n) {
                return Sig { landmark: Landmark::Decision(d), steps };
            }
            if let Some(&e) = exit_at.get(&n) {
                return Sig { landmark: Landmark::Exit(e), steps };
            }
            match &self.kind[n] {
                Kind::End => return Sig { landmark: Landmark::End, steps },
                Kind::Steps(lines) => {
                    steps.extend(lines.iter().map(canonical_statement));
                    at = self.succ[n].first().map(|&(t, _)| t);
                }
                Kind::Input => at = self.succ[n].first().map(|&(t, _)| t),
                _ => break,
            }
        }
        let landmark = if at.is_none() && from.is_some() { Landmark::End } else { Landmark::Nothing };
        Sig { landmark, steps }
    }

    /// A returned value and its forms with the assignments of the boxes
    /// before it substituted in, nearest first: along every way in, so an
    /// `Output: answer` that two branches reach with `answer = '-' + text`
    /// and `answer = text` has both values.
    fn forms(&self, n: usize, value: Expr) -> Vec<Expr> {
        let mut forms = vec![expr::canon(&value)];
        self.forms_back(n, value, 8, &mut forms);
        forms
    }

    fn forms_back(&self, at: usize, value: Expr, budget: usize, forms: &mut Vec<Expr>) {
        if budget == 0 || forms.len() >= 32 {
            return;
        }
        for p in self.preds(at) {
            let Kind::Steps(lines) = &self.kind[p] else { continue };
            let mut current = value.clone();
            for l in lines.iter().rev() {
                let Some(Stmt::Assign(targets, v)) = l.code.as_deref().and_then(expr::parse_stmt) else { continue };
                for t in &targets {
                    current = substitute_target(&current, t, &v);
                }
                let c = expr::canon(&current);
                if !forms.contains(&c) {
                    forms.push(c);
                }
            }
            self.forms_back(p, current, budget - 1, forms);
        }
    }

    /// A `while` that counts: `v < stop` (or `<=`, or downwards) with a
    /// step `v += c` in the body and the start the last `v = …` before it.
    fn count_loop(&self, head: usize, cond: &Cond, body: &HashSet<usize>) -> Option<Loop> {
        let Cond::Code(Expr::Cmp(a, rest)) = cond else { return None };
        let [(op, b)] = rest.as_slice() else { return None };
        let (var, up) = match (&**a, b) {
            (Expr::Name(v), _) => (v.clone(), true),
            (_, Expr::Name(v)) => (v.clone(), false),
            _ => return None,
        };
        let bound = if up { b.clone() } else { (**a).clone() };
        let step = body.iter().filter(|&&v| v != head).find_map(|&v| self.step_of(v, &var))?;
        if (step > 0) != up {
            return None;
        }
        // `v < b` stops at b; `v <= b` at b + 1; `b < v` (down) at b; `b <= v` at b - 1.
        let inclusive = op == "<=";
        let (e, k) = split_constant(&bound);
        let stop = (e, k + if inclusive { if up { 1 } else { -1 } } else { 0 });
        Some(Loop::Count(Count { var: var.clone(), start: self.start_of(head, body, &var), stop, step }))
    }

    /// `v += c`, `v -= c`, `v = v + c`, `Increment v` in box `n`.
    fn step_of(&self, n: usize, var: &str) -> Option<i64> {
        let Kind::Steps(lines) = &self.kind[n] else { return None };
        lines.iter().find_map(|l| {
            let stmt = expr::parse_stmt(l.code.as_deref()?)?;
            let (op, amount) = match stmt {
                Stmt::Aug(Expr::Name(t), op, v) if t == var => (op, v),
                Stmt::Assign(ts, Expr::Bin(op, l, r))
                    if ts == [Expr::Name(var.to_owned())] && *l == Expr::Name(var.to_owned()) =>
                {
                    (op, *r)
                }
                _ => return None,
            };
            let Expr::Num(c) = amount else { return None };
            let c: i64 = c.parse().ok()?;
            match op.as_str() {
                "+" => Some(c),
                "-" => Some(-c),
                _ => None,
            }
        })
    }

    /// The last `var = …` on the way into the loop (one way in only).
    fn start_of(&self, head: usize, body: &HashSet<usize>, var: &str) -> Option<Expr> {
        let mut at = head;
        for _ in 0..12 {
            let outside: Vec<usize> = self.preds(at).into_iter().filter(|p| !body.contains(p) || at != head).collect();
            let [p] = outside.as_slice() else { return None };
            if let Kind::Steps(lines) = &self.kind[*p] {
                for l in lines.iter().rev() {
                    if let Some(Stmt::Assign(ts, v)) = l.code.as_deref().and_then(expr::parse_stmt) {
                        for t in &ts {
                            match (t, &v) {
                                (Expr::Name(n), _) if n == var => return Some(expr::canon(&v)),
                                (Expr::Tuple(names), Expr::Tuple(vs)) if names.len() == vs.len() => {
                                    if let Some(k) = names.iter().position(|x| *x == Expr::Name(var.to_owned())) {
                                        return Some(expr::canon(&vs[k]));
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                }
            } else if !matches!(self.kind[*p], Kind::Input | Kind::Start) {
                return None;
            }
            at = *p;
        }
        None
    }
}

/// Straight runs of boxes: each box's run, and how many lines each run has.
#[derive(Default)]
struct Blocks {
    of: HashMap<usize, usize>,
    sizes: Vec<usize>,
}

impl Blocks {
    /// The next place in run `b` (counting the line being placed).
    fn len_of(&mut self, b: usize) -> usize {
        self.sizes[b] += 1;
        self.sizes[b] - 1
    }
}

/// A box line as a [`Statement`].
fn statement(origin: usize, l: &prose::Line, block: usize, place: usize) -> Statement {
    let stmt = l.code.as_deref().and_then(expr::parse_stmt);
    let (mut writes, mut reads) = (Vec::new(), Vec::new());
    match &stmt {
        Some(Stmt::Assign(targets, v)) => {
            targets.iter().for_each(|t| target_names(t, &mut writes));
            targets.iter().for_each(|t| target_reads(t, &mut reads));
            expr::names(v, &mut reads);
        }
        Some(Stmt::Aug(t, _, v)) => {
            target_names(t, &mut writes);
            expr::names(t, &mut reads);
            expr::names(v, &mut reads);
        }
        Some(Stmt::Expr(e)) => {
            if let Expr::Call(f, _) = e
                && let Expr::Attr(obj, _) = &**f
            {
                target_names(obj, &mut writes);
            }
            expr::names(e, &mut reads);
        }
        _ => {}
    }
    let code = stmt.is_some().then(|| canonical_statement(l));
    Statement { origin, text: l.text.clone(), code, writes, reads, words: words(&l.text), block, place }
}

/// What an assignment target reads (`a[i] = …` reads `i`).
fn target_reads(t: &Expr, out: &mut Vec<String>) {
    match t {
        Expr::Index(x, i) => {
            target_reads(x, out);
            expr::names(i, out);
        }
        Expr::Attr(x, _) => target_reads(x, out),
        Expr::Tuple(v) | Expr::List(v) => v.iter().for_each(|x| target_reads(x, out)),
        _ => {}
    }
}

/// `value` with what `target = v` assigned substituted in: a name, or the
/// names of a tuple target at once (through placeholders, since `a, b = b,
/// a` is simultaneous).
fn substitute_target(value: &Expr, target: &Expr, v: &Expr) -> Expr {
    match (target, v) {
        (Expr::Name(name), _) => expr::substitute(value, name, v),
        (Expr::Tuple(ts), Expr::Tuple(vs)) if ts.len() == vs.len() => {
            let mut tmp = value.clone();
            for (k, t) in ts.iter().enumerate() {
                if let Expr::Name(name) = t {
                    tmp = expr::substitute(&tmp, name, &Expr::Name(format!("\u{0}{k}")));
                }
            }
            for (k, v) in vs.iter().enumerate() {
                tmp = expr::substitute(&tmp, &format!("\u{0}{k}"), v);
            }
            tmp
        }
        _ => value.clone(),
    }
}

/// `for` wording as a loop; over `range(…)` it is a count.
fn each_loop(e: &prose::ForEach) -> Loop {
    let target = e.target.as_deref().and_then(expr::parse);
    let iter = e.iter.as_deref().and_then(expr::parse);
    if let (Some(Expr::Name(var)), Some(Expr::Call(f, args))) = (&target, &iter)
        && matches!(&**f, Expr::Name(n) if n == "range")
        && args.iter().all(|a| a.keyword.is_none())
    {
        let arg = |i: usize| args.get(i).map(|a| a.value.clone());
        let (start, stop, step) = match args.len() {
            1 => (Some(Expr::Num("0".into())), arg(0), Some(1)),
            2 => (arg(0), arg(1), Some(1)),
            3 => (arg(0), arg(1), arg(2).and_then(|s| constant(&s))),
            _ => (None, None, None),
        };
        if let (Some(stop), Some(step)) = (stop, step) {
            let start = start.map(|s| expr::canon(&s));
            return Loop::Count(Count { var: var.clone(), start, stop: split_constant(&stop), step });
        }
    }
    Loop::Each { target: target.map(|t| expr::canon(&t)), iter: iter.map(|i| expr::canon(&i)) }
}

/// An integer literal (with its sign).
fn constant(e: &Expr) -> Option<i64> {
    match e {
        Expr::Num(n) => n.parse().ok(),
        Expr::Unary(op, x) if op == "-" => constant(x).map(|v| -v),
        _ => None,
    }
}

/// `m + 1` → (`m`, 1); `n` → (`n`, 0); `5` → (`0`, 5).
fn split_constant(e: &Expr) -> (Expr, i64) {
    if let Some(k) = constant(e) {
        return (Expr::Num("0".into()), k);
    }
    if let Expr::Bin(op, l, r) = e
        && let Some(k) = constant(r)
    {
        let (base, more) = split_constant(l);
        match op.as_str() {
            "+" => return (base, more + k),
            "-" => return (base, more - k),
            _ => {}
        }
    }
    (expr::canon(e), 0)
}

fn is_raise(code: Option<&str>) -> bool {
    code.is_some_and(|c| c == "raise" || c.starts_with("raise "))
}

fn is_none(e: &Expr) -> bool {
    matches!(e, Expr::Name(n) if n == "None")
}

/// A statement in a form that ignores spelling: `x += 1` is `x = x + 1`,
/// values canonical; prose as written.
fn canonical_statement(l: &prose::Line) -> String {
    let Some(code) = l.code.as_deref() else { return l.text.to_lowercase() };
    match expr::parse_stmt(code) {
        Some(Stmt::Assign(targets, v)) => {
            let ts: Vec<String> = targets.iter().map(|t| expr::canon(t).to_string()).collect();
            format!("{} = {}", ts.join(" = "), expr::canon(&v))
        }
        Some(Stmt::Aug(t, op, v)) => {
            let value = Expr::Bin(op, Box::new(t.clone()), Box::new(v));
            format!("{} = {}", expr::canon(&t), expr::canon(&value))
        }
        Some(Stmt::Expr(e)) => expr::canon(&e).to_string(),
        _ => code.to_owned(),
    }
}

/// The variables an assignment target writes (`a[i]` writes `a`).
pub(crate) fn target_names(t: &Expr, out: &mut Vec<String>) {
    match t {
        Expr::Name(n) => out.push(n.clone()),
        Expr::Tuple(v) | Expr::List(v) => v.iter().for_each(|x| target_names(x, out)),
        Expr::Index(x, _) | Expr::Attr(x, _) | Expr::Unary(_, x) => target_names(x, out),
        _ => {}
    }
}

/// The words of a label for matching prose: identifiers, numbers and their
/// parts (`is_open` → `is_open`, `open`), lowercased, a plural `s` dropped,
/// without the question's filler words.
pub fn words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |w: &str| {
        let w = w.to_lowercase();
        let w = if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") { w[..w.len() - 1].to_owned() } else { w };
        if !w.is_empty() && !FILLER.contains(&w.as_str()) && !out.contains(&w) {
            out.push(w);
        }
    };
    for word in super::labels::on_one_line(text, " ").split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')) {
        let word = word.trim_matches('.');
        if word.is_empty() {
            continue;
        }
        push(word);
        if word.contains('_') || word.contains('.') {
            word.split(['_', '.']).for_each(&mut push);
        }
    }
    out
}

const FILLER: [&str; 14] =
    ["is", "are", "the", "a", "an", "of", "to", "more", "next", "each", "for", "does", "do", "any"];

/// The identifiers and numbers of a piece of code (its words for matching).
pub fn code_words(e: &Expr) -> Vec<String> {
    words(&e.to_string())
        .into_iter()
        .filter(|w| !["not", "and", "or", "in", "none", "true", "false", "len"].contains(&w.as_str()))
        .collect()
}

/// Merges two conditions with `and`/`or` (prose if either is).
fn merge_conds(op: &str, a: prose::Line, b: prose::Line) -> prose::Line {
    let text = format!("{} {op} {}", a.text, b.text);
    let code = match (a.code, b.code) {
        (Some(x), Some(y)) => Some(format!("({x}) {op} ({y})")),
        _ => None,
    };
    prose::Line { text, code }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Facts {
        let chart = flowbench_chart::mermaid::parse(text).unwrap();
        facts(&Graph::new(&chart).unwrap())
    }

    #[test]
    fn a_counting_while_is_a_range_count() {
        let drawn = read(
            "flowchart TD\n A([Start]) --> B[/Input: s/]\n B --> C[i = 1]\n C --> D{\"i < len(s)?\"}\n D -->|Yes| E[\"x = s[i]\"]\n E --> F[i = i + 1]\n F --> D\n D -->|No| G[/Return x/]\n",
        );
        let worded = read(
            "flowchart TD\n A([Start]) --> B[/Input: s/]\n B --> D{\"More i in range(1, len(s))?\"}\n D -->|Yes| E[\"x = s[i]\"]\n E --> D\n D -->|No| G[/Return x/]\n",
        );
        let (a, b) = (&drawn.functions[0].decisions[0], &worded.functions[0].decisions[0]);
        assert_eq!(a.looping, b.looping);
        assert!(matches!(&a.looping, Some(Loop::Count(c)) if c.step == 1 && c.start == Some(Expr::Num("1".into()))));
    }

    #[test]
    fn an_enumerate_loop_is_the_count_of_its_index_and_its_item_the_element() {
        let each = read(
            "flowchart TD\n A([Start]) --> B[best = 0]\n B --> C{\"More i, v in enumerate(values)?\"}\n C -->|Yes| D{\"v >= values[best]?\"}\n D -->|Yes| E[best = i] --> C\n D -->|No| C\n C -->|No| R[/Return best/]\n",
        );
        let counter = read(
            "flowchart TD\n A([Start]) --> B[best = 0; i = 0]\n B --> C{i < len of values?}\n C -->|No| R[/Return best/]\n C -->|Yes| D{\"values[i] >= values[best]?\"}\n D -->|Yes| E[best = i] --> F[i = i + 1]\n D -->|No| F\n F --> C\n",
        );
        let (each, counter) = (&each.functions[0].decisions, &counter.functions[0].decisions);
        let Some(Loop::Count(count)) = &counter[0].looping else { panic!("a count: {:?}", counter[0].looping) };
        assert_eq!(each[0].looping.as_ref().and_then(Loop::enumerate_count).as_ref(), Some(count));
        let element = Expr::Index(Box::new(Expr::Name("values".into())), Box::new(Expr::Name("i".into())));
        assert_eq!(each[1].items, vec![("v".to_string(), element)]);
        assert!(counter[1].items.is_empty());
    }

    #[test]
    fn two_diamonds_with_a_shared_exit_are_one_and() {
        let f = read(
            "flowchart TD\n A([Start]) --> B{a?}\n B -->|Yes| C{b?}\n B -->|No| E[/Return 0/]\n C -->|No| E\n C -->|Yes| D[/Return 1/]\n",
        );
        let d = &f.functions[0].decisions;
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].cond, Cond::Code(expr::canon(&expr::parse("a and b").unwrap())));
    }

    #[test]
    fn boolean_returns_collapse() {
        let f = read(
            "flowchart TD\n A([Start]) --> B{x > 0?}\n B -->|Yes| C[/Return True/]\n B -->|No| D[/Return False/]\n",
        );
        assert!(f.functions[0].decisions.is_empty());
        assert!(
            matches!(&f.functions[0].exits[0].value, Value::Code(v) if v[0] == expr::canon(&expr::parse("0 < x").unwrap()))
        );
    }
}
