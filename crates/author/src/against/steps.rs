//! The `steps` facet: what the boxes do, line by line. A chart line written
//! as code is paired with the code's statement of the same meaning
//! (canonical form: `x += 1` is `x = x + 1`); prose lines are paired by
//! their words. What is left over is a mismatch only where the chart says
//! something else: a box assigning what a code statement assigns, but
//! differently (the wrong variable or value); a statement of the code that
//! no line of a chart written in code mentions (a missing step); two
//! dependent steps of one straight run drawn the other way round.
//!
//! Counters of loops are not steps (`i = 0` … `i = i + 1` around a test is
//! how a chart draws `for i in range(n)`), and a chart may name an
//! intermediate the code does not have (`count = sum(xs)`, `Output: count`).

use crate::facts::{Cond, Decision, FnFacts, Loop, Statement, code_words, words};

use super::{Comparison, MismatchKind, Rel, coverage};

/// A code statement and the chart line standing for it.
#[derive(Clone, Copy)]
pub(super) struct Pair {
    pub code: usize,
    pub chart: usize,
}

impl Comparison<'_> {
    /// Compares the boxes of one function pair; returns which chart line
    /// stands for which code statement.
    pub(super) fn steps(&mut self, code: &FnFacts, chart: &FnFacts) -> Vec<Pair> {
        // A counter's steps count where both sides draw them; where one
        // side iterates over `range` they are the other's way of drawing it.
        let counters = counters(&code.decisions, &chart.decisions);
        let drawn_by = |f: &FnFacts, v: &String| f.statements.iter().any(|s| s.writes.len() == 1 && &s.writes[0] == v);
        let one_sided: Vec<&String> = counters.iter().filter(|v| drawn_by(code, v) != drawn_by(chart, v)).collect();
        let counted = |s: &Statement| !s.writes.is_empty() && !s.writes.iter().all(|w| one_sided.contains(&w));
        let code_steps: Vec<usize> = (0..code.statements.len()).filter(|&i| counted(&code.statements[i])).collect();
        let chart_steps: Vec<usize> = (0..chart.statements.len())
            .filter(|&j| chart.statements[j].code.is_none() || counted(&chart.statements[j]))
            .collect();
        let mut pairs = same_code(code, chart, &code_steps, &chart_steps);
        pairs.extend(same_words(code, chart, &code_steps, &chart_steps, &pairs));
        let differing = self.differing(code, chart, &code_steps, &chart_steps, &pairs);
        let paired = |i: usize| pairs.iter().any(|p| p.code == i) || differing.contains(&i);
        if self.written_in_code {
            // A constant (`DIGITS = '0123…'`) is data the chart may leave out.
            for &i in code_steps.iter().filter(|&&i| !paired(i) && !code.statements[i].reads.is_empty()) {
                let s = &code.statements[i];
                if !mentioned(s, chart) {
                    let message = format!("the code's step `{}` has no box in the chart", s.text);
                    self.matched -= 0.5;
                    self.push(MismatchKind::Steps, message, None, self.line(s.origin));
                }
            }
        }
        self.order(code, chart, &pairs);
        pairs
    }

    /// Chart lines in code assigning what an unpaired code statement
    /// assigns, with another value: each is reported; returns the code
    /// statements so accounted for.
    fn differing(
        &mut self,
        code: &FnFacts,
        chart: &FnFacts,
        code_steps: &[usize],
        chart_steps: &[usize],
        pairs: &[Pair],
    ) -> Vec<usize> {
        let mut used = Vec::new();
        for &j in chart_steps.iter().filter(|&&j| !pairs.iter().any(|p| p.chart == j)) {
            let g = &chart.statements[j];
            let Some(gc) = &g.code else { continue };
            let same_writes = |i: &usize| {
                let r = &code.statements[*i];
                !pairs.iter().any(|p| p.code == *i) && !used.contains(i) && sorted(&r.writes) == sorted(&g.writes)
            };
            let Some(i) = code_steps.iter().copied().filter(same_writes).max_by(|&a, &b| {
                let share = |i: usize| coverage(&code.statements[i].reads, &g.reads);
                share(a).total_cmp(&share(b)).then(b.cmp(&a))
            }) else {
                continue;
            };
            used.push(i);
            let r = &code.statements[i];
            // `out.append(letter)` after `letter = rotate(ch, 'a')`: the
            // chart names a value the code computes in place.
            let known = |n: &String| {
                code.statements.iter().any(|c| c.reads.contains(n) || c.writes.contains(n))
                    || code.decisions.iter().any(|d| words(&d.text).contains(&n.to_lowercase()))
                    || code.input_parts.iter().any(|p| p.name.as_ref() == Some(n))
            };
            if !means_otherwise(r, g) || !g.reads.iter().all(known) {
                continue;
            }
            let message = format!("box `{}` computes `{gc}` where the code has `{}`", g.text, r.text);
            self.matched -= 0.5;
            self.push(MismatchKind::Steps, message, Some(g.origin), self.line(r.origin));
        }
        used
    }

    /// A step drawn on the other side of a test: the code updates a value
    /// and then tests it, the chart tests first and updates on a branch (or
    /// the other way round). Only code steps writing what the test reads
    /// count, so a step drawn on both branches instead of before the test
    /// is not reported.
    pub(super) fn across_tests(&mut self, code: &FnFacts, chart: &FnFacts, pairs: &[super::Pair]) {
        for p in pairs.iter().filter(|p| matches!(p.rel, Rel::Same | Rel::Negated)) {
            let (r, g) = (&code.decisions[p.code], &chart.decisions[p.chart]);
            let Cond::Code(test) = &g.cond else { continue };
            let mut tested = Vec::new();
            crate::expr::names(test, &mut tested);
            let (gy, gn) = if p.rel == Rel::Negated { (&g.no, &g.yes) } else { (&g.yes, &g.no) };
            let on_code_branch = |step: &String| r.yes.steps.contains(step) || r.no.steps.contains(step);
            let on_chart_branch = |step: &String| gy.steps.contains(step) || gn.steps.contains(step);
            let moved = [(&r.yes, gy), (&r.no, gn)].into_iter().find_map(|(rs, gs)| {
                let after = gs.steps.iter().find(|s| !rs.steps.contains(s) && !on_code_branch(s));
                let before = rs.steps.iter().find(|s| !gs.steps.contains(s) && !on_chart_branch(s));
                after.map(|s| (s, true)).or(before.map(|s| (s, false)))
            });
            let Some((step, drawn_after)) = moved else { continue };
            let find = |f: &FnFacts| f.statements.iter().find(|c| c.code.as_ref() == Some(step)).cloned();
            let (Some(rs), Some(gs)) = (find(code), find(chart)) else { continue };
            if !rs.writes.iter().any(|w| tested.contains(w)) {
                continue;
            }
            let message = if drawn_after {
                format!("`{}` comes after the test `{}` in the chart; the code does it before testing", gs.text, g.text)
            } else {
                format!(
                    "`{}` comes before the test `{}` in the chart; the code does it on a branch of it",
                    gs.text, g.text
                )
            };
            self.matched -= 0.5;
            self.push(MismatchKind::Steps, message, Some(gs.origin), self.line(rs.origin));
        }
    }

    /// Two dependent statements of one straight run drawn the other way
    /// round in one straight run of the chart.
    fn order(&mut self, code: &FnFacts, chart: &FnFacts, pairs: &[Pair]) {
        let mut reported = Vec::new();
        for a in pairs {
            for b in pairs {
                let (ra, rb) = (&code.statements[a.code], &code.statements[b.code]);
                let (ga, gb) = (&chart.statements[a.chart], &chart.statements[b.chart]);
                let in_order = ra.block == rb.block && ra.place < rb.place;
                let drawn_reversed = ga.block == gb.block && gb.place < ga.place;
                if !in_order || !drawn_reversed || !depends(ra, rb) || reported.contains(&ga.block) {
                    continue;
                }
                reported.push(ga.block);
                let message = format!(
                    "`{}` comes before `{}` in the chart; the code does them the other way round",
                    gb.text, ga.text
                );
                self.matched -= 0.5;
                self.push(MismatchKind::Steps, message, Some(gb.origin), self.line(rb.origin));
            }
        }
    }
}

/// The loop counters of either side: `for i in range(…)` and a counting
/// `while` draw their counter's steps differently.
fn counters(code: &[Decision], chart: &[Decision]) -> Vec<String> {
    let mut out = Vec::new();
    for d in code.iter().chain(chart) {
        match &d.looping {
            Some(Loop::Count(c)) => out.push(c.var.clone()),
            Some(Loop::Each { target: Some(t), .. }) => out.extend(code_words(t)),
            _ => {}
        }
    }
    out
}

/// Pairs by canonical code, in order.
fn same_code(code: &FnFacts, chart: &FnFacts, code_steps: &[usize], chart_steps: &[usize]) -> Vec<Pair> {
    let mut pairs: Vec<Pair> = Vec::new();
    for &i in code_steps {
        let want = &code.statements[i].code;
        let free = chart_steps
            .iter()
            .copied()
            .find(|&j| chart.statements[j].code == *want && !pairs.iter().any(|p| p.chart == j));
        if let Some(j) = free {
            pairs.push(Pair { code: i, chart: j });
        }
    }
    pairs
}

/// Prose lines paired with the unpaired code statement whose words they
/// cover best (`Set mid to the floor of the average of lo and hi` for
/// `mid = (lo + hi) // 2`).
fn same_words(
    code: &FnFacts,
    chart: &FnFacts,
    code_steps: &[usize],
    chart_steps: &[usize],
    taken: &[Pair],
) -> Vec<Pair> {
    let mut candidates = Vec::new();
    for &j in chart_steps.iter().filter(|&&j| chart.statements[j].code.is_none()) {
        for &i in code_steps.iter().filter(|&&i| !taken.iter().any(|p| p.code == i)) {
            let want = gist(&code.statements[i].text);
            let have: Vec<String> = chart.statements[j].words.iter().map(|w| stem(w)).collect();
            let score = coverage(&want, &have);
            if score >= 0.6 {
                candidates.push((score, i, j));
            }
        }
    }
    candidates.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut pairs: Vec<Pair> = Vec::new();
    for (_, i, j) in candidates {
        if !pairs.iter().any(|p| p.code == i || p.chart == j) {
            pairs.push(Pair { code: i, chart: j });
        }
    }
    pairs
}

/// Whether some line of the chart says what the statement computes: every
/// word of its value in one box, decision or output (`count = sum(xs)` is
/// said by `Output: sum(xs)`), or most of its words in a prose line.
fn mentioned(s: &Statement, chart: &FnFacts) -> bool {
    let all = gist(&s.text);
    let parts: Vec<String> = value_parts(s).iter().map(|p| squeeze(p)).collect();
    // A box's lines together (`i = len(a) - 1`, `j = len(b) - 1` say
    // `i, j = len(a) - 1, len(b) - 1`); code must hold each computed value.
    let boxes = chart.statements.iter().map(|g| {
        let lines: Vec<&Statement> = chart.statements.iter().filter(|h| h.origin == g.origin).collect();
        let code: String = lines.iter().filter_map(|h| h.code.as_deref()).map(squeeze).collect::<Vec<_>>().join(";");
        // Words stand for a statement only in prose: a code line says what
        // it computes (`merged.extend(left[i:])` is not `…(right[j:])`).
        let prose = lines.iter().filter(|h| h.code.is_none());
        let have: Vec<String> = prose.flat_map(|h| h.words.iter().map(|w| stem(w))).collect();
        (code, have)
    });
    let holds = |code: &str| !parts.is_empty() && parts.iter().all(|p| code.contains(p.as_str()));
    // A prose line naming what the step writes stands for it (`Keep only
    // letters and digits of s, lower-cased, as t` for `t = [c.lower() …]`).
    let names_what_it_writes = |have: &[String]| s.writes.iter().any(|w| have.contains(&stem(&w.to_lowercase())));
    boxes.into_iter().any(|(code, have)| {
        holds(&code) || (!all.is_empty() && coverage(&all, &have) >= 0.75) || names_what_it_writes(&have)
    }) || chart.decisions.iter().any(|d| holds(&squeeze(&d.text)))
        || chart.exits.iter().any(|e| holds(&squeeze(&e.text)))
}

/// What a statement computes, as canonical code: an assignment's value
/// (each of a tuple's), an augmented assignment's operand, a method
/// call's arguments (`out.append(x)` computes `x`).
fn value_parts(s: &Statement) -> Vec<String> {
    use crate::expr::{Expr, Stmt, parse_stmt};
    let Some(stmt) = s.code.as_deref().and_then(parse_stmt) else { return Vec::new() };
    match stmt {
        Stmt::Assign(_, Expr::Tuple(vs)) => vs.iter().map(ToString::to_string).collect(),
        Stmt::Assign(_, v) | Stmt::Aug(_, _, v) => vec![v.to_string()],
        Stmt::Expr(Expr::Call(f, args)) if matches!(*f, Expr::Attr(..)) => {
            args.iter().map(|a| a.value.to_string()).collect()
        }
        Stmt::Expr(e) => vec![e.to_string()],
        Stmt::Keyword(_) => Vec::new(),
    }
}

/// Code without spacing and parentheses, for containment.
fn squeeze(code: &str) -> String {
    code.chars().filter(|c| !c.is_whitespace() && !matches!(c, '(' | ')')).collect()
}

/// The words that carry a statement's meaning for prose: no one-letter
/// names or numbers (a lambda's `m`, an index `0`), no Python plumbing
/// (`key=lambda`), stemmed (`sorted` is said by `Sort`).
fn gist(text: &str) -> Vec<String> {
    words(text)
        .into_iter()
        .filter(|w| w.chars().count() > 1 && !w.chars().all(|c| c.is_ascii_digit()))
        .filter(|w| {
            !["lambda", "key", "self", "len", "int", "str", "not", "and", "or", "in", "none", "true", "false"]
                .contains(&w.as_str())
        })
        .map(|w| stem(&w))
        .collect()
}

fn stem(w: &str) -> String {
    for suffix in ["ing", "ed"] {
        if w.len() > suffix.len() + 3
            && let Some(base) = w.strip_suffix(suffix)
        {
            return base.to_owned();
        }
    }
    w.to_owned()
}

/// One statement must run before the other: the first writes what the
/// second reads or writes, or reads what the second writes.
fn depends(a: &Statement, b: &Statement) -> bool {
    let meets = |x: &[String], y: &[String]| x.iter().any(|n| y.contains(n));
    meets(&a.writes, &b.reads) || meets(&a.writes, &b.writes) || meets(&a.reads, &b.writes)
}

/// Whether two statements assigning the same names differ in what they
/// read or in their operators and constants, not only in grouping
/// (`t += a - b` and `t = t + a - b`) or keywords (`f(x=1)`, `f(1)`).
fn means_otherwise(r: &Statement, g: &Statement) -> bool {
    let symbols = |s: &Statement| {
        let code = s.code.as_deref().unwrap_or("");
        let code = regex_free_keywords(code);
        let mut v: Vec<char> = code.chars().filter(|c| !c.is_whitespace() && !matches!(c, '(' | ')')).collect();
        v.sort_unstable();
        v
    };
    sorted(&r.reads) != sorted(&g.reads) || symbols(r) != symbols(g)
}

/// `f(key=1)` as `f(1)`: keyword names dropped (`==` kept).
fn regex_free_keywords(code: &str) -> String {
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::new();
    let mut word = String::new();
    for (k, &c) in chars.iter().enumerate() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        let keyword =
            c == '=' && chars.get(k + 1) != Some(&'=') && k > 0 && !matches!(chars[k - 1], '=' | '!' | '<' | '>');
        let inside_call = out.contains('(');
        if !(keyword && inside_call && !word.is_empty()) {
            out.push_str(&word);
            out.push(c);
        }
        word.clear();
    }
    out.push_str(&word);
    out
}

fn sorted(v: &[String]) -> Vec<&String> {
    let mut out: Vec<&String> = v.iter().collect();
    out.sort();
    out.dedup();
    out
}
