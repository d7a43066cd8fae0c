//! `chart2py`: a chart → a Python program, from its [`Graph`] reading.
//!
//! Structured control flow is recovered with the classic reading of a
//! reducible flow graph: a decision that is the target of a back edge, or is
//! worded as an iteration (`More x in xs?`, `Next x in nums?`), heads a loop
//! (its Yes edge is the body, its No edge the loop's exit); any other
//! decision is an `if` whose branches meet at its immediate post-dominator.
//! Inside a loop body, reaching the loop's decision is `continue` and
//! reaching its exit is `break`. When an `if` has no meeting point and its
//! Yes branch always jumps away, the No branch follows un-nested. Labels are
//! read as code by the reading (flowbench's wording and plain-English
//! wording alike); a label that stays prose makes the chart no program.

use std::collections::{HashMap, HashSet};

use super::expr::{self, Stmt};
use super::facts::target_names;
use super::graph::{Branch, Function, Graph, GraphError, Kind, is_identifier};
use super::labels;
use super::prose::{Line, is_word};

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
pub fn chart_to_python(chart: &flowbench_chart::mermaid::Flowchart) -> Result<String, GraphError> {
    graph_to_python(&Graph::new(chart)?, None)
}

/// The entry function's name and parameters when they come from elsewhere
/// (`check --against` knows them from the solution).
pub struct Signature<'s> {
    pub name: &'s str,
    pub params: &'s [String],
    /// Helpers the solution defines inside the entry: a method's helper
    /// that reads the method's variables must sit inside it too.
    pub nested: &'s [String],
}

/// The call a traced program ([`graph_to_traced_python`]) makes where a
/// node's code runs: `__fb_hit__(2 * node)` before it, `__fb_hit__(2 * node
/// + 1)` first in a decision's Yes branch (`node`: the chart's node index).
pub const TRACE_HIT: &str = "__fb_hit__";

/// Python defining [`TRACE_HIT`] and the set it fills, `__fb_hits__`.
const TRACE_DEF: &str = "__fb_hits__ = set()\n\n\ndef __fb_hit__(k):\n    __fb_hits__.add(k)";

/// Writes a reading as Python; `entry` overrides the entry's signature.
pub fn graph_to_python(g: &Graph, entry: Option<Signature>) -> Result<String, GraphError> {
    write_program(g, entry, false)
}

/// [`graph_to_python`] with each node recording that it ran
/// ([`TRACE_HIT`]): which parts of a chart an input runs, for telling
/// where a wrong chart goes wrong.
pub fn graph_to_traced_python(g: &Graph, entry: Option<Signature>) -> Result<String, GraphError> {
    let program = write_program(g, entry, true)?;
    Ok(format!("{TRACE_DEF}\n\n\n{program}"))
}

fn write_program(g: &Graph, entry: Option<Signature>, trace: bool) -> Result<String, GraphError> {
    let mut hoisted: Vec<String> = Vec::new();
    let mut bodies: HashMap<usize, Vec<String>> = HashMap::new();
    for (fi, f) in g.functions.iter().enumerate() {
        let params = match (&entry, fi) {
            (Some(s), 0) => s.params.to_vec(),
            _ => f.params.clone().unwrap_or_default(),
        };
        let mut w = Writer {
            g,
            out: Vec::new(),
            hoisted: &mut hoisted,
            ipdom: HashMap::new(),
            bodies: HashMap::new(),
            budget: 0,
            scope: HashSet::new(),
            params: params.iter().map(|p| bare_name(p)).collect(),
            trace,
            reads_result: false,
        };
        if let Some(first) = f.entry {
            let (nodes, back) = g.search(first);
            w.scope = in_scope(g, &params, &nodes);
            w.reads_result = reads_name(g, &nodes, "result");
            // Duplicated tails (an `if` whose branches never meet) are allowed,
            // but a chart that would unfold without end is not code.
            w.budget = 64 * nodes.len() + 256;
            w.ipdom = g.post_dominators(&nodes, &back);
            w.bodies = g.loop_bodies(&back);
            w.walk(Some(first), &HashMap::new(), 1)?;
        }
        if w.out.is_empty() {
            w.out.push("    pass".into());
        }
        bodies.insert(fi, w.out);
    }
    let mut program: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    for h in hoisted {
        if seen.insert(h.clone()) {
            program.push(h);
        }
    }
    // The helpers a reading calls (a conversion test).
    for (name, def) in super::prose::HELPERS.iter().rev() {
        if bodies.values().flatten().any(|l| l.contains(name)) {
            program.insert(0, (*def).to_owned());
        }
    }
    if is_program(g, entry.as_ref()) {
        return program_to_python(g, &bodies, program);
    }
    let mut defs = Defs { g, bodies: &bodies, entry, out: &mut program };
    let entry_name = defs.name(0);
    let (class, _) = split_qual(&entry_name);
    // Helpers nested nowhere go inside a plain entry (so they see its
    // variables, as inline helpers do); beside a method's class otherwise.
    let top: Vec<usize> = (1..g.functions.len()).filter(|&fi| defs.top_level(fi)).collect();
    for fi in top {
        defs.emit(fi, 0)?;
    }
    match class {
        Some(c) => {
            defs.out.push(format!("class {c}:"));
            let methods: Vec<usize> = (0..g.functions.len())
                .filter(|&fi| g.functions[fi].parent.is_none() && split_qual(&defs.name(fi)).0 == Some(c))
                .collect();
            for fi in methods {
                defs.emit(fi, 1)?;
            }
        }
        None => defs.emit(0, 0)?,
    }
    Ok(program.join("\n") + "\n")
}

/// Whether the chart is a whole program: its entry is named
/// [`labels::PROGRAM`], or its Start names nothing and no Input node names
/// parameters (`draw`'s drawing of module code that reads stdin).
fn is_program(g: &Graph, entry: Option<&Signature>) -> bool {
    let f = &g.functions[0];
    match entry {
        Some(s) => s.name == labels::PROGRAM,
        None => {
            let has_input = f.input.is_some_and(|i| g.nodes[i].kind == Kind::Input);
            (f.name.is_empty() || f.name == labels::PROGRAM)
                && !has_input
                && f.params.as_ref().is_none_or(Vec::is_empty)
        }
    }
}

/// A whole program: helpers as module-level functions, then the entry's
/// body as module code.
fn program_to_python(
    g: &Graph,
    bodies: &HashMap<usize, Vec<String>>,
    mut program: Vec<String>,
) -> Result<String, GraphError> {
    let mut defs = Defs { g, bodies, entry: None, out: &mut program };
    for fi in (1..g.functions.len()).filter(|&fi| g.functions[fi].parent.is_none()) {
        defs.emit(fi, 0)?;
    }
    let body = bodies.get(&0).map(Vec::as_slice).unwrap_or_default();
    // Reaching End is the walk's `return`: nothing at the end of the
    // module, the end of the program (`raise SystemExit`) anywhere else.
    let body = match body.last() {
        Some(last) if last == "    return" => &body[..body.len() - 1],
        _ => body,
    };
    for line in body {
        let line = line.strip_prefix("    ").unwrap_or(line);
        match line.strip_suffix("return") {
            Some(indent) if indent.trim().is_empty() => program.push(format!("{indent}raise SystemExit")),
            _ => program.push(line.to_owned()),
        }
    }
    if program.is_empty() {
        program.push("pass".into());
    }
    Ok(program.join("\n") + "\n")
}

fn split_qual(name: &str) -> (Option<&str>, &str) {
    match name.split_once('.') {
        Some((c, m)) => (Some(c), m),
        None => (None, name),
    }
}

struct Defs<'g, 'o> {
    g: &'g Graph<'g>,
    bodies: &'o HashMap<usize, Vec<String>>,
    entry: Option<Signature<'o>>,
    out: &'o mut Vec<String>,
}

impl Defs<'_, '_> {
    fn entry_is_method(&self) -> bool {
        let name = self.entry.as_ref().map_or(self.g.functions[0].name.as_str(), |s| s.name);
        name.contains('.')
    }

    /// A helper defined at module level: a method entry's plain helpers.
    fn top_level(&self, fi: usize) -> bool {
        let f = &self.g.functions[fi];
        f.parent.is_none() && !f.name.contains('.') && self.entry_is_method() && !self.nested_by_code(&f.name)
    }

    /// Whether the solution defines helper `name` inside its entry.
    fn nested_by_code(&self, name: &str) -> bool {
        self.entry.as_ref().is_some_and(|s| s.nested.iter().any(|n| n == name))
    }

    /// Whether `h` is defined inside `f`.
    fn nested_in(&self, h: usize, f: usize) -> bool {
        let (hf, ff) = (&self.g.functions[h], &self.g.functions[f]);
        let name = self.name(f);
        let (class, short) = split_qual(&name);
        match &hf.parent {
            Some(p) => p == &name || (class.is_some() && p == short),
            None => {
                f == 0
                    && h != 0
                    && !hf.name.contains('.')
                    && (!self.entry_is_method() || self.nested_by_code(&hf.name))
                    && ff.subgraph.is_none()
            }
        }
    }

    fn name(&self, fi: usize) -> String {
        match (&self.entry, fi) {
            (Some(s), 0) => s.name.to_owned(),
            _ => self.g.functions[fi].name.clone(),
        }
    }

    /// `def` line, nested helpers, then the body, at `depth` levels of indent.
    fn emit(&mut self, fi: usize, depth: usize) -> Result<(), GraphError> {
        let f: &Function = &self.g.functions[fi];
        let pad = "    ".repeat(depth);
        let name = self.name(fi);
        let (class, short) = split_qual(&name);
        if short.is_empty() || !short.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return Err(GraphError {
                message: "the Start terminal does not name the function (`Start: name`)".into(),
                node: f.start,
                prose: true,
            });
        }
        let mut params = match (&self.entry, fi) {
            (Some(s), 0) => s.params.to_vec(),
            _ => f.params.clone().ok_or_else(|| GraphError {
                message: format!("cannot read the parameters of `{short}` (name them plainly: `Input: a, b`)"),
                node: f.input.or(f.start),
                prose: true,
            })?,
        };
        if class.is_some() {
            params.insert(0, "self".into());
        }
        self.out.push(format!("{pad}def {short}({}):", params.join(", ")));
        for h in 0..self.g.functions.len() {
            if h != fi && self.nested_in(h, fi) {
                self.emit(h, depth + 1)?;
            }
        }
        for line in self.bodies.get(&fi).into_iter().flatten() {
            self.out.push(format!("{pad}{line}"));
        }
        Ok(())
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
    /// The function's parameters and the names its steps assign: what a
    /// loop worded without code may iterate over.
    scope: HashSet<String>,
    /// The function's parameters (bare names): a loop that names no
    /// iterable in scope iterates over the only one.
    params: Vec<String>,
    /// Whether each node's code records that it ran ([`TRACE_HIT`]).
    trace: bool,
    /// Whether some code of the chart reads a name `result`.
    reads_result: bool,
}

/// The parameters (bare names: annotations and defaults dropped) and the
/// names assigned by the code of `nodes` (as `facts` reads an assignment).
fn in_scope(g: &Graph, params: &[String], nodes: &[usize]) -> HashSet<String> {
    let mut names: Vec<String> = params.iter().map(|p| bare_name(p)).collect();
    for &n in nodes {
        if let Kind::Steps(lines) = &g.nodes[n].kind {
            for code in lines.iter().filter_map(|l| l.code.as_deref()) {
                if let Some(Stmt::Assign(targets, _)) = expr::parse_stmt(code) {
                    targets.iter().for_each(|t| target_names(t, &mut names));
                }
            }
        }
    }
    names.into_iter().collect()
}

/// Whether the code of `nodes` (boxes, tests, returned values) reads `name`.
fn reads_name(g: &Graph, nodes: &[usize], name: &str) -> bool {
    let reads = |code: &str| {
        expr::tokenize(code).is_some_and(|toks| toks.iter().any(|t| *t == expr::Tok::Name(name.to_owned())))
    };
    nodes.iter().any(|&n| match &g.nodes[n].kind {
        Kind::Steps(lines) => lines.iter().filter_map(|l| l.code.as_deref()).any(reads),
        Kind::Decision { test, .. } => test.code.as_deref().is_some_and(reads),
        Kind::Return(Some(line)) => line.code.as_deref().is_some_and(reads),
        _ => false,
    })
}

/// A parameter's name, its annotation, default and stars dropped.
fn bare_name(param: &str) -> String {
    param.split([':', '=']).next().unwrap_or("").trim().trim_start_matches('*').to_owned()
}

/// Words Python reads as names that are no variable: keywords, constants,
/// the types a test names (`isinstance(item, list)`).
const NOT_VARIABLES: [&str; 21] = [
    "and",
    "or",
    "not",
    "in",
    "is",
    "if",
    "else",
    "for",
    "lambda",
    "None",
    "True",
    "False",
    "list",
    "str",
    "int",
    "float",
    "dict",
    "tuple",
    "set",
    "bool",
    labels::CALL_RESULT,
];

/// A loop worded without code, resolved: `for target in iter`, its body
/// starting at `body`.
struct WordedLoop {
    target: String,
    iter: String,
    body: usize,
}

impl Writer<'_, '_> {
    /// In a traced program, the record that node `n` ran (`branch`: its
    /// Yes branch). Outside the budget: a chart the plain reading writes,
    /// the traced one writes too.
    fn hit(&mut self, depth: usize, n: usize, branch: bool) {
        if self.trace {
            let id = 2 * self.g.nodes[n].origin + usize::from(branch);
            self.out.push(format!("{}{TRACE_HIT}({id})", "    ".repeat(depth)));
        }
    }

    fn line(&mut self, depth: usize, text: &str) {
        self.budget = self.budget.saturating_sub(1);
        let pad = "    ".repeat(depth);
        for l in text.lines() {
            self.out.push(format!("{pad}{l}"));
        }
    }

    fn err(&self, node: usize, message: &str) -> GraphError {
        let origin = self.g.nodes[node].origin;
        GraphError {
            message: format!("node {}: {message}", self.g.chart.nodes[origin].id),
            node: Some(origin),
            prose: false,
        }
    }

    /// An error in a label's wording rather than in the flow.
    fn prose_err(&self, node: usize, message: &str) -> GraphError {
        GraphError { prose: true, ..self.err(node, message) }
    }

    /// A label's code — as written, or as the chart around it settles its
    /// words ([`Self::in_context`]) — or the error that it is prose.
    fn code(&self, node: usize, line: &Line) -> Result<String, GraphError> {
        let origin = self.g.nodes[node].origin;
        let borrowed = self.g.borrowed.iter().any(|(n, text)| *n == origin && *text == line.text);
        match &line.code {
            // Words read in the chart's context say more than the code
            // line the words were paired with.
            Some(code) if borrowed => Ok(self.in_context(line).unwrap_or_else(|| code.clone())),
            Some(code) => Ok(code.clone()),
            None => self.in_context(line).ok_or_else(|| self.prose_err(node, &format!("`{}` is not code", line.text))),
        }
    }

    /// Wordings whose code depends on what else the chart holds: what a
    /// name is set to, which lists there are, which functions it defines.
    fn in_context(&self, line: &Line) -> Option<String> {
        let counted = || {
            let e = super::prose::counted_entry(&line.text)?;
            self.is_mapping(&e.map).then(|| format!("{}[{}] {}= {}", e.map, e.key, e.op, e.by))
        };
        // `Has x been seen before?` where the chart keeps a `seen`.
        let seen = || {
            let (subject, collection) = super::prose::seen_before(&line.text)?;
            self.scope.contains(collection).then(|| format!("{subject} in {collection}"))
        };
        (self.added_to_number_or_text(line).or_else(|| self.appended_to_the_list(line)))
            .or_else(counted)
            .or_else(seen)
            .or_else(|| {
                let arity = |name: &str| {
                    let f = self.g.functions.iter().find(|f| f.name == name)?;
                    Some(f.params.as_ref().map_or(1, Vec::len))
                };
                super::prose::property_tested(&line.text, &arity)
            })
    }

    /// `Add X to total` as `total += X` when every code box that sets
    /// `total` sets a number (or every one a string): adding to a number
    /// or a text is one thing, while adding to a list or a set may append,
    /// extend or insert.
    fn added_to_number_or_text(&self, line: &Line) -> Option<String> {
        let (value, name) = super::prose::added_to(&line.text)?;
        let kinds: HashSet<Option<&str>> = self
            .values_set()
            .into_iter()
            .filter(|(set_name, _)| *set_name == name)
            .map(|(_, set)| match set {
                expr::Expr::Num(_) => Some("number"),
                expr::Expr::Str(_) => Some("string"),
                _ => None,
            })
            .collect();
        (kinds.len() == 1 && !kinds.contains(&None)).then(|| format!("{name} += {value}"))
    }

    /// `Append ch` with no list named: the chart's one list (the one name
    /// its code boxes set to a list display, `out = []`).
    fn appended_to_the_list(&self, line: &Line) -> Option<String> {
        let value = super::prose::appended(&line.text)?;
        let lists: HashSet<String> = (self.values_set().into_iter())
            .filter(|(_, set)| matches!(set, expr::Expr::List(_)))
            .map(|(name, _)| name)
            .collect();
        let [list] = Vec::from_iter(lists).try_into().ok()?;
        Some(format!("{list}.append({value})"))
    }

    /// Whether the chart sets `name` to a mapping (`{}`, `dict()`).
    fn is_mapping(&self, name: &str) -> bool {
        let dict = |e: &expr::Expr| match e {
            expr::Expr::Dict(_) => true,
            expr::Expr::Call(f, args) => args.is_empty() && **f == expr::Expr::Name("dict".into()),
            _ => false,
        };
        self.values_set().iter().any(|(set, value)| set == name && dict(value))
    }

    /// `freq[w] += 1` where the chart set `freq = {}`: a count kept in a
    /// mapping, which pseudo-code starts at zero for a new key (Python's
    /// `dict` would raise), so it runs as `freq[w] = freq.get(w, 0) + 1`.
    fn counted_from_zero(&self, code: &str) -> Option<String> {
        let Some(Stmt::Aug(expr::Expr::Index(map, _), op, _)) = expr::parse_stmt(code) else { return None };
        let expr::Expr::Name(map) = *map else { return None };
        if !matches!(op.as_str(), "+" | "-") || !self.is_mapping(&map) {
            return None;
        }
        let (target, value) = code.split_once(&format!(" {op}= "))?;
        let key = target.trim().strip_prefix(map.as_str())?.trim().strip_prefix('[')?.strip_suffix(']')?;
        Some(format!("{map}[{key}] = {map}.get({key}, 0) {op} ({})", value.trim()))
    }

    /// Each name a code box of the chart assigns, with the value it sets.
    fn values_set(&self) -> Vec<(String, expr::Expr)> {
        (self.g.nodes.iter())
            .flat_map(|node| match &node.kind {
                Kind::Steps(lines) => lines.iter().filter_map(|l| l.code.as_deref()).collect(),
                _ => Vec::new(),
            })
            .filter_map(|code| match expr::parse_stmt(code)? {
                Stmt::Assign(targets, set) => Some((targets, set)),
                _ => None,
            })
            .flat_map(|(targets, set)| {
                targets.into_iter().filter_map(move |t| match t {
                    expr::Expr::Name(name) => Some((name, set.clone())),
                    _ => None,
                })
            })
            .collect()
    }

    /// Emits the flow from `at` until it stops; returns whether every path
    /// ended in a jump (`return`, `break`, `continue`) rather than a join.
    fn walk(&mut self, mut at: Option<usize>, stops: &HashMap<usize, Stop>, depth: usize) -> Result<bool, GraphError> {
        let g = self.g;
        if depth > 90 {
            return Err(GraphError {
                message: "the chart nests deeper than Python allows".into(),
                node: at.map(|n| g.nodes[n].origin),
                prose: false,
            });
        }
        loop {
            if self.budget == 0 {
                return Err(GraphError {
                    message: "the chart's flow does not close into structured code (its reading never ends)".into(),
                    node: at.map(|n| g.nodes[n].origin),
                    prose: false,
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
            match &g.nodes[n].kind {
                Kind::End => {
                    self.line(depth, "return");
                    return Ok(true);
                }
                Kind::Return(value) => {
                    let text = match value {
                        Some(v) => format!("return {}", self.code(n, v)?),
                        None => "return".to_owned(),
                    };
                    self.hit(depth, n, false);
                    self.line(depth, &text);
                    return Ok(true);
                }
                Kind::Start => return Err(self.err(n, "a Start terminal inside the flow")),
                Kind::Input | Kind::Steps(_) => {
                    if let Kind::Steps(lines) = &g.nodes[n].kind {
                        self.hit(depth, n, false);
                        for l in lines {
                            let s = self.code(n, l)?;
                            let s = self.counted_from_zero(&s).unwrap_or(s);
                            if (s.starts_with("import ") || s.starts_with("from ")) && !s.contains('\n') {
                                self.hoisted.push(s);
                            } else if matches!(expr::parse(&s), Some(expr::Expr::Call(..))) {
                                // A later box may say `the result of the call`.
                                self.line(depth, &format!("{} = {s}", labels::CALL_RESULT));
                                // `return n * result` after `Compute
                                // factorial of n - 1`: a `result` nothing
                                // assigns is the call's.
                                if !self.scope.contains("result") && self.reads_result {
                                    self.line(depth, &format!("result = {}", labels::CALL_RESULT));
                                }
                            } else {
                                self.line(depth, &s);
                            }
                        }
                    }
                    match g.nodes[n].succ.as_slice() {
                        [] => return Ok(false),
                        [(t, _)] => at = Some(*t),
                        _ => return Err(self.err(n, "a process box with more than one outgoing edge")),
                    }
                }
                Kind::Decision { .. } => match self.decision(n, stops, depth)? {
                    Next::At(t) => at = t,
                    Next::Done(jumps) => return Ok(jumps),
                },
            }
        }
    }

    /// A for-each loop worded without its iterable or its variable (`More
    /// words left?` → `Take the next word w`): the iterable is the name in
    /// scope that the loop's words say (`words`, or `word` pluralised); the
    /// variable is the name ending a first body step that takes the next
    /// one (`… next word w`), a step that is then the loop's own and not
    /// emitted, or else the loop's own trailing name when it names the
    /// iterable's items in code the body uses.
    fn worded_loop(&self, n: usize, e: &super::prose::ForEach, yes: usize) -> Option<WordedLoop> {
        let words: Vec<&str> = self.g.label(n).split(|c: char| !is_word(c)).filter(|w| !w.is_empty()).collect();
        // `More words w after the first?`, `… from the second`: the items
        // but the first.
        let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        let but_first = lower.windows(3).any(|w| w == ["after", "the", "first"] || w == ["from", "the", "second"]);
        let found = self.worded_loop_items(n, e, yes, &words)?;
        match but_first {
            // An index counted over the rest would start at 1: not said.
            true if found.iter.starts_with("enumerate(") => None,
            true => Some(WordedLoop { iter: format!("{}[1:]", found.iter), ..found }),
            false => Some(found),
        }
    }

    /// [`Self::worded_loop`] over all the items.
    fn worded_loop_items(&self, n: usize, e: &super::prose::ForEach, yes: usize, words: &[&str]) -> Option<WordedLoop> {
        // A label that names its iterable in words (`… of (y, x): down, up,
        // …`) is read as it says or not at all: the guesses below (the only
        // parameter, the names the body reads) are for labels naming none,
        // but for a variable beside an iterable read as code (`Any
        // characters left in text?`).
        let names_iterable = words.iter().any(|w| ["in", "of", "over", "from"].contains(&w.to_lowercase().as_str()));
        let iter = e
            .iter
            .clone()
            .or_else(|| {
                words.iter().find_map(|w| {
                    [w.to_string(), format!("{w}s"), format!("{w}es")].into_iter().find(|c| self.scope.contains(c))
                })
            })
            .or_else(|| match self.params.as_slice() {
                [only] if !names_iterable => Some(only.clone()),
                _ => None,
            })?;
        if let Some((target, body)) = self.next_item_step(yes, &iter) {
            return Some(WordedLoop { target, iter, body });
        }
        // The loop's own name, when the body reads it and nothing else
        // undefined; else the variables the body reads that nothing
        // defines: one, or several in the order the label says them (`Any
        // interval start, end left?`; `index i and temperature t` counts
        // its items).
        let named = e.target.clone().filter(|t| is_identifier(t) && self.used_in_loop(n, t));
        let free = if names_iterable && e.iter.is_none() { Vec::new() } else { self.free_in_loop(n) };
        if let Some(target) = named.clone().filter(|t| free.iter().all(|f| f == t)) {
            return Some(WordedLoop { target, iter, body: yes });
        }
        let at = |name: &String| words.iter().position(|w| w == name);
        let said: Option<Vec<(usize, &String)>> = free.iter().map(|v| at(v).map(|p| (p, v))).collect();
        let (target, iter) = match (free.as_slice(), said) {
            ([one], _) if named.is_none() => (one.clone(), iter),
            ([_, _, ..], Some(mut said)) => {
                said.sort();
                let first = said[0].0;
                let counted = said.len() == 2 && first > 0 && words[first - 1].eq_ignore_ascii_case("index");
                let target = said.iter().map(|(_, v)| v.as_str()).collect::<Vec<_>>().join(", ");
                (target, if counted { format!("enumerate({iter})") } else { iter })
            }
            _ => (named?, iter),
        };
        Some(WordedLoop { target, iter, body: yes })
    }

    /// A loop body's first step that only takes the next item and names it
    /// (`ch = next character`, `Take the next word w`): the name, and where
    /// the body goes on after it (the step is the loop's own, not emitted).
    fn next_item_step(&self, yes: usize, iter: &str) -> Option<(String, usize)> {
        let Kind::Steps(lines) = &self.g.nodes[yes].kind else { return None };
        let ([line], [(after, _)]) = (lines.as_slice(), self.g.nodes[yes].succ.as_slice()) else { return None };
        if line.code.is_some() || !line.text.to_lowercase().split_whitespace().any(|w| w == "next") {
            return None;
        }
        let text = line.text.trim().trim_end_matches(['.', ':']);
        let named = match text.split_once('=') {
            Some((target, _)) => target.trim(),
            None => text.rsplit(' ').next().unwrap_or(""),
        };
        (is_identifier(named) && named != iter && !self.scope.contains(named)).then(|| (named.to_owned(), *after))
    }

    /// The names the code of loop `n`'s body reads (not calls, not
    /// attributes) that are not in scope: the loop's own variables when
    /// its label does not name them in code.
    fn free_in_loop(&self, n: usize) -> Vec<String> {
        // Variables of loops inside the body are theirs, not this loop's.
        let mut inner: Vec<String> = Vec::new();
        for &b in self.bodies.get(&n).into_iter().flatten().filter(|&&b| b != n) {
            if let Kind::Decision { each: Some(e), .. } = &self.g.nodes[b].kind
                && let Some(target) = e.target.as_deref().and_then(expr::parse)
            {
                target_names(&target, &mut inner);
            }
        }
        let mut free: Vec<String> = Vec::new();
        let codes = self.body_codes(n);
        for code in &codes {
            let toks = expr::tokenize(code).unwrap_or_default();
            for (k, tok) in toks.iter().enumerate() {
                let expr::Tok::Name(name) = tok else { continue };
                let op = |i: Option<usize>, o: &str| i.and_then(|i| toks.get(i)) == Some(&expr::Tok::Op(o.into()));
                let read = !op(k.checked_sub(1), ".") && !op(Some(k + 1), "(") && !op(Some(k + 1), "=");
                let defined = self.scope.contains(name) || inner.contains(name);
                if read && !defined && !NOT_VARIABLES.contains(&name.as_str()) && !free.contains(name) {
                    free.push(name.clone());
                }
            }
        }
        free.sort();
        free
    }

    /// Whether the code of loop `n`'s body reads `name`.
    fn used_in_loop(&self, n: usize, name: &str) -> bool {
        self.body_codes(n).iter().any(|code| code.split(|c: char| !is_word(c)).any(|w| w == name))
    }

    /// The code of loop `n`'s body, its own decision left out: each line as
    /// written or as the chart settles its words.
    fn body_codes(&self, n: usize) -> Vec<String> {
        let read = |l: &Line| l.code.clone().or_else(|| self.in_context(l));
        let body = self.bodies.get(&n).into_iter().flatten().filter(|&&b| b != n);
        body.flat_map(|&b| match &self.g.nodes[b].kind {
            Kind::Steps(lines) => lines.iter().filter_map(read).collect(),
            Kind::Decision { test, each } => {
                read(test).into_iter().chain(each.as_ref().and_then(|e| e.iter.clone())).collect()
            }
            Kind::Return(Some(line)) => read(line).into_iter().collect(),
            _ => Vec::new(),
        })
        .collect()
    }

    /// Emits a loop or an `if` at decision `n`; says where the flow goes on.
    fn decision(&mut self, n: usize, stops: &HashMap<usize, Stop>, depth: usize) -> Result<Next, GraphError> {
        let g = self.g;
        let Kind::Decision { test, each } = &g.nodes[n].kind else { return Err(self.err(n, "not a decision")) };
        let missing = |which: &str| self.err(n, &format!("decision `{}` has no {which} edge", g.label(n).trim()));
        let mut yes = g.branch(n, Branch::Yes).ok_or_else(|| missing("Yes"))?;
        let mut no = g.branch(n, Branch::No).ok_or_else(|| missing("No"))?;
        let for_loop = match each {
            Some(e) => match (&e.target, &e.iter) {
                // `More numbers in nums?` → `Take the next number x`: the
                // step names the item the label only describes.
                (Some(t), Some(i)) => match self.next_item_step(yes, i) {
                    Some((named, body)) if !self.used_in_loop(n, t) => {
                        yes = body;
                        Some((named, i.clone()))
                    }
                    _ => Some((t.clone(), i.clone())),
                },
                _ => match self.worded_loop(n, e, yes) {
                    Some(l) => {
                        yes = l.body;
                        Some((l.target, l.iter))
                    }
                    None => {
                        return Err(
                            self.prose_err(n, &format!("the loop `{}` does not say what it iterates over", test.text))
                        );
                    }
                },
            },
            None => None,
        };
        if let Some(body) = self.bodies.get(&n).filter(|_| for_loop.is_none()) {
            let cond = self.code(n, test)?;
            // A loop that repeats on No (`b == 0?` No → …): `while not`.
            let negate = !body.contains(&yes) && body.contains(&no);
            if negate {
                std::mem::swap(&mut yes, &mut no);
            }
            self.hit(depth, n, false);
            self.line(depth, &if negate { format!("while not ({cond}):") } else { format!("while {cond}:") });
        }
        if for_loop.is_some() || self.bodies.contains_key(&n) {
            if let Some((target, iter)) = &for_loop {
                self.hit(depth, n, false);
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
        let cond = self.code(n, test)?;
        self.hit(depth, n, false);
        self.line(depth, &format!("if {cond}:"));
        self.hit(depth + 1, n, true);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn translate(chart: &str, name: &str, params: &[&str]) -> Result<String, GraphError> {
        let chart = flowbench_chart::mermaid::parse(chart).expect("parses");
        let params: Vec<String> = params.iter().map(|p| p.to_string()).collect();
        graph_to_python(&Graph::new(&chart)?, Some(Signature { name, params: &params, nested: &[] }))
    }

    #[test]
    fn a_loop_naming_no_variable_takes_the_one_its_body_reads() {
        // `More items?` names neither; the body reads `item`, and `ch`,
        // which the inner loop defines.
        let chart = "flowchart TD\n  A([Start]) --> B[total = 0]\n  B --> C{More items?}\n  \
                     C -- Yes --> D{\"More ch in item?\"}\n  D -- Yes --> E[\"total = total + len(ch)\"]\n  E --> D\n  \
                     D -- No --> C\n  C -- No --> F[/Return total/]\n";
        let program = translate(chart, "count", &["items"]).expect("translates");
        assert!(program.contains("for item in items:\n"), "{program}");
        assert!(program.contains("for ch in item:\n"), "{program}");
        // Two undefined names, said in the label's order, after `index`.
        let indexed = "flowchart TD\n  A([Start]) --> B[best = 0]\n  B --> C{Next index i and value v?}\n  \
                       C -- Yes --> D[best = best + i * v]\n  D --> C\n  C -- No --> F[/Return best/]\n";
        let program = translate(indexed, "weighted", &["values"]).expect("translates");
        assert!(program.contains("for i, v in enumerate(values):\n"), "{program}");
        // An iterable in code beside words: the variable is the body's.
        let worded = "flowchart TD\n  A([Start]) --> B[n = 0]\n  B --> C{Any characters left in text?}\n  \
                      C -- Yes --> D[\"n = n + ord(ch)\"]\n  D --> C\n  C -- No --> F[/Return n/]\n";
        let program = translate(worded, "total", &["text", "k"]).expect("translates");
        assert!(program.contains("for ch in text:\n"), "{program}");
    }

    #[test]
    fn a_loop_worded_without_code_iterates_the_name_its_words_say() {
        let chart = "flowchart TD\n  A([Start]) --> B{More words left?}\n  B -- Yes --> C[Take the next word w]\n  \
                     C --> D{Is the length of w odd?}\n  D -- Yes --> E[/Return False/]\n  D -- No --> B\n  \
                     B -- No --> F[/Return True/]\n";
        let program = translate(chart, "all_even", &["words"]).expect("translates");
        assert!(program.contains("for w in words:\n"), "{program}");
        assert!(program.contains("if (len(w)) % 2 == 1:"), "{program}");
        assert!(!program.to_lowercase().contains("next word"), "{program}");
        // `word` pluralised names the iterable too; a loop naming nothing in
        // scope stays unread, with its node named.
        let singular = chart.replace("More words left?", "Another word?");
        assert!(translate(&singular, "all_even", &["words"]).expect("translates").contains("for w in words:"));
        // The variable from an assignment in words.
        let assigned = chart.replace("Take the next word w", "w = next word");
        assert!(translate(&assigned, "all_even", &["words"]).expect("translates").contains("for w in words:"));
        // Naming nothing in scope, it iterates over the only parameter;
        // with several, it stays unread, with its node named.
        assert!(translate(chart, "all_even", &["items"]).expect("translates").contains("for w in items:"));
        let error = translate(chart, "all_even", &["items", "k"]).expect_err("no iterable in scope");
        assert!(error.prose && error.message.starts_with("node B:"), "{error:?}");
    }

    #[test]
    fn a_helper_terminal_naming_its_function_beside_start_is_its_start() {
        let chart = "flowchart TD\n  A([Start]) --> B{\"check(s)\"}\n  B -- Yes --> C[/Return 1/]\n  \
                     B -- No --> D[/Return 0/]\n  subgraph H [\"check(t)\"]\n    K0([check start]) --> K1{\"t == ''\"}\n    \
                     K1 -- Yes --> K2[return True]\n    K1 -- No --> K3[return False]\n  end\n";
        let program = translate(chart, "f", &["s"]).expect("translates");
        assert!(program.contains("def check(t):\n"), "{program}");
    }

    #[test]
    fn adding_to_a_name_set_to_a_number_is_a_sum_and_to_a_list_unread() {
        let chart = "flowchart TD\n  A([Start]) --> B[total = 0]\n  B --> C{More x in xs?}\n  \
                     C -- Yes --> D[Add x to total]\n  D --> C\n  C -- No --> E[/Return total/]\n";
        let program = translate(chart, "f", &["xs"]).expect("translates");
        assert!(program.contains("total += x\n"), "{program}");
        let listed = chart.replace("B[total = 0]", "B[\"total = []\"]");
        let error = translate(&listed, "f", &["xs"]).expect_err("append or extend: not said");
        assert!(error.prose && error.message.starts_with("node D:"), "{error:?}");
    }

    #[test]
    fn a_loop_after_the_first_item_iterates_the_rest() {
        let chart = "flowchart TD\n  A([Start]) --> D[\"prefix = words[0]\"]\n  D --> E{\"More words w after the first?\"}\n  \
                     E -->|Yes| F[\"prefix = prefix + w\"]\n  F --> E\n  E -->|No| H[/Return prefix/]\n";
        let program = translate(chart, "joined", &["words"]).expect("translates");
        assert!(program.contains("for w in words[1:]:\n"), "{program}");
    }

    #[test]
    fn a_loop_that_only_describes_its_item_takes_the_name_its_first_step_gives() {
        let chart = "flowchart TD\n  A([Start]) --> B[/Read nums/]\n  B --> C[best = 0]\n  \
                     C --> D{More numbers in nums?}\n  D -- Yes --> E[Take next number x]\n  \
                     E --> F[best = best + x]\n  F --> D\n  D -- No --> G[/Return best/]\n";
        let program = translate(chart, "total", &["nums"]).expect("translates");
        assert!(program.contains("for x in nums:\n"), "{program}");
        assert!(!program.to_lowercase().contains("next number"), "{program}");
    }

    #[test]
    fn a_reading_that_calls_a_helper_defines_it() {
        let chart = "flowchart TD\n  A([Start]) --> B[\"out = []\"]\n  B --> C{More t in ts?}\n  \
                     C -- Yes --> D{Can t be converted to int?}\n  D -- Yes --> E[Append int of t to out]\n  \
                     E --> C\n  D -- No --> C\n  C -- No --> F[/Return out/]\n";
        let program = translate(chart, "ints", &["ts"]).expect("translates");
        assert!(program.starts_with("def __fb_converts__(kind, x):\n"), "{program}");
        assert!(program.contains("if __fb_converts__(int, t):"), "{program}");
        assert!(
            !translate(chart.replace("Can t be converted to int?", "t > 0?").as_str(), "ints", &["ts"])
                .expect("translates")
                .contains("__fb_converts__"),
            "only the helpers used"
        );
    }

    #[test]
    fn a_call_drawn_as_a_box_gives_its_value_to_the_box_that_says_so() {
        let chart = "flowchart TD\n  A([Start skip_sum with n]) --> B{Is n zero or less?}\n  \
                     B -- Yes --> C[/Return 0/]\n  B -- No --> D[Recursive call: skip_sum of n - 2]\n  \
                     D --> E[/Return n plus the result of the recursive call/]\n";
        let program = translate(chart, "skip_sum", &["n"]).expect("translates");
        assert!(program.contains("if (n) <= 0:"), "{program}");
        let call = format!("{} = skip_sum(n - 2)", labels::CALL_RESULT);
        assert!(program.contains(&call), "{program}");
        assert!(program.contains(&format!("return (n) + ({})", labels::CALL_RESULT)), "{program}");
    }

    #[test]
    fn words_the_chart_around_them_settles() {
        // `Append ch` with no list named: the chart's one list.
        let chart = "flowchart TD\n  A([Start]) --> B[\"out = []\"]\n  B --> C{More ch in text?}\n  \
                     C -- Yes --> D[Append ch unchanged]\n  D --> C\n  C -- No --> F[/Return out/]\n";
        let program = translate(chart, "chars", &["text"]).expect("translates");
        assert!(program.contains("out.append(ch)"), "{program}");
        // With two lists, which one is not said.
        let two = chart.replace("out = []", "out = [], seen = []");
        let error = translate(&two, "chars", &["text"]).expect_err("which list");
        assert!(error.message.contains("`Append ch unchanged` is not code"), "{}", error.message);
        // `Is n prime?` calls the chart's own `is_prime`; without one, unread.
        let helper = "flowchart TD\n  A([Start]) --> B{Is n prime?}\n  B -- Yes --> C[/Return 1/]\n  \
                      B -- No --> D[/Return 0/]\n  subgraph H [\"is_prime(k)\"]\n    \
                      H1([Start is_prime]) --> H2[/Return k > 1/]\n  end\n";
        let program = translate(helper, "flag", &["n"]).expect("translates");
        assert!(program.contains("if is_prime(n):"), "{program}");
        let without = helper.replace("is_prime", "check");
        assert!(translate(&without, "flag", &["n"]).is_err());
        // A count kept in a mapping the chart starts empty starts at zero.
        let counts = "flowchart TD\n  A([Start]) --> B[\"freq = {}\"]\n  B --> C{For each word w in words}\n  \
                      C -- next --> D[Increase freq of w by 1]\n  D --> C\n  C -- done --> F[/Return freq/]\n";
        let program = translate(counts, "tally", &["words"]).expect("translates");
        assert!(program.contains("freq[w] = freq.get(w, 0) + (1)"), "{program}");
        // `result` nothing assigns, after a call drawn as a box: the call's.
        let recursion = "flowchart TD\n  A([fact n]) --> B{n <= 1?}\n  B -->|Yes| C([return 1])\n  \
                         B -->|No| D[Compute fact of n - 1 recursively]\n  D --> E([return n * result])\n";
        let program = translate(recursion, "fact", &["n"]).expect("translates");
        assert!(program.contains(&format!("result = {}", labels::CALL_RESULT)), "{program}");
    }
}
