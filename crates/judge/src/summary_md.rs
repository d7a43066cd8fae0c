//! Markdown rendering of a [`Summary`] (written next to the results file
//! and printed at the end of a run).

use std::fmt::Write as _;

use super::summary::Summary;
use super::verdict::{Class, ErrorClass};

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "—".to_string(), |v| format!("{v:.1}"))
}

/// The whole summary as Markdown.
pub fn render_markdown(s: &Summary, ks: &[usize]) -> String {
    let mut out = String::new();
    let modes: Vec<String> = s.modes.iter().map(|(m, n)| format!("{m} {n}")).collect();
    let _ = writeln!(out, "# Judge summary\n");
    let _ = writeln!(
        out,
        "{} samples, {} passed, {} models; modes: {}.",
        s.samples,
        s.passed,
        s.models.len(),
        modes.join(", ")
    );
    if s.weak_sandbox > 0 {
        let _ = writeln!(
            out,
            "**WEAK SANDBOX: {} samples were judged with weaker isolation (--allow-weak-sandbox).**",
            s.weak_sandbox
        );
    }
    if s.modes.contains_key("legacy") {
        let _ = writeln!(out, "Legacy verdicts: in-process asserts, not tamper-proof.");
    }
    let counted = if s.counted_as_passed.is_empty() { "none".to_string() } else { s.counted_as_passed.join(", ") };
    let _ = writeln!(
        out,
        "Headline figures: {} (failure classes counted as passed: {counted}; `judge --count` chooses).",
        s.headline
    );
    let _ = writeln!(out, "\n## pass@k (unbiased estimator, %)\n");
    let mut header = "| model | samples | tasks |".to_string();
    let mut rule = "|---|---:|---:|".to_string();
    for k in ks {
        let _ = write!(header, " pass@{k} |");
        rule.push_str("---:|");
    }
    let _ = writeln!(out, "{header} test-case avg. |\n{rule}---:|");
    for (model, m) in &s.models {
        let mut row = format!("| {model} | {} | {} |", m.samples, m.tasks);
        for k in ks {
            let _ = write!(row, " {} |", pct(m.pass_at_k.get(&format!("pass@{k}")).copied()));
        }
        let _ = writeln!(out, "{row} {} |", pct(m.test_case_average));
    }
    render_table(&mut out, s);
    render_classes(&mut out, s);
    render_errors(&mut out, s);
    let _ = writeln!(out, "\n## Timing\n");
    let _ = writeln!(out, "{} timed out; summed job wall time {:.1} s.", s.timed_out, s.total_time_s);
    if !s.near_limit.is_empty() {
        let _ = writeln!(out, "Passed within 2x of the limit (timing-sensitive): {}.", s.near_limit.join("; "));
    }
    if let Some(a) = &s.agreement {
        let _ = writeln!(out, "\n## Agreement with recorded verdicts\n");
        let _ = writeln!(out, "{}/{} ({:.2} %) agree.", a.agree, a.compared, a.percent);
        if !a.disagreements.is_empty() {
            let _ = writeln!(out, "\n| model | task | recorded | judged | time (s) |\n|---|---|---|---|---:|");
            for d in &a.disagreements {
                let cut = |t: &str| super::verdict::truncate(t, 80).replace('|', "\\|").replace('\n', " ");
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {:.2} |",
                    d.model,
                    d.task_id,
                    cut(&d.recorded),
                    cut(&d.judged),
                    d.time_s
                );
            }
        }
    }
    out
}

/// pass@1 per subset × difficulty, Code-Vision Table 2 layout.
fn render_table(out: &mut String, s: &Summary) {
    let _ = writeln!(out, "\n## pass@1 by subset and difficulty (%)\n");
    let mut header = "| model |".to_string();
    let mut rule = "|---|".to_string();
    let mut cols: Vec<(String, String)> = Vec::new();
    for (subset, diffs) in &s.columns {
        for d in diffs {
            let _ = write!(header, " {subset} {d} |");
            cols.push((subset.clone(), d.clone()));
        }
        let _ = write!(header, " {subset}{} |", if diffs.is_empty() { "" } else { " all" });
        cols.push((subset.clone(), "all".into()));
    }
    if s.columns.len() > 1 {
        header.push_str(" Avg. |");
    }
    for _ in 0..cols.len() + usize::from(s.columns.len() > 1) {
        rule.push_str("---:|");
    }
    let _ = writeln!(out, "{header}\n{rule}");
    for (model, m) in &s.models {
        let mut row = format!("| {model} |");
        for (subset, d) in &cols {
            let _ = write!(row, " {} |", pct(m.table.get(subset).and_then(|c| c.get(d)).map(|c| c.pass_at_1)));
        }
        if s.columns.len() > 1 {
            let _ = write!(row, " {} |", pct(m.average));
        }
        let _ = writeln!(out, "{row}");
    }
}

/// Failure classes and pass@1 three ways, when some sample has a class.
fn render_classes(out: &mut String, s: &Summary) {
    if s.classes.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n## Failure classes and pass@1 three ways\n");
    let _ = writeln!(
        out,
        "`wrong`: fails a correctness test within the statement; `slow`: fails only large tests, by time, memory or \
         recursion depth; `widened`: fails only inputs beyond what the statement and its examples show. pass@1 (%) \
         strict, without `slow`, and within the statement (without `slow` and `widened`).\n"
    );
    let mut header = "| model |".to_string();
    let mut rule = "|---|".to_string();
    for class in Class::ALL {
        let _ = write!(header, " {} |", class.label());
        rule.push_str("---:|");
    }
    let _ = writeln!(out, "{header} strict | without slow | within statement |\n{rule}---:|---:|---:|");
    for (model, m) in &s.models {
        let mut row = format!("| {model} |");
        for class in Class::ALL {
            let _ = write!(row, " {} |", m.classes.get(class.label()).copied().unwrap_or(0));
        }
        let w = m.pass_at_1_three_ways;
        let _ = writeln!(
            out,
            "{row} {} | {} | {} |",
            pct(w.map(|w| w.strict)),
            pct(w.map(|w| w.without_slow)),
            pct(w.map(|w| w.within_statement))
        );
    }
}

/// Error taxonomy: classes × models.
fn render_errors(out: &mut String, s: &Summary) {
    let _ = writeln!(out, "\n## Errors (samples per class)\n");
    let mut header = "| class |".to_string();
    let mut rule = "|---|".to_string();
    for model in s.models.keys() {
        let _ = write!(header, " {model} |");
        rule.push_str("---:|");
    }
    let _ = writeln!(out, "{header} total |\n{rule}---:|");
    for class in ErrorClass::ALL {
        let label = class.label();
        let total = s.errors.get(label).copied().unwrap_or(0);
        let mut row = format!("| {label} |");
        for m in s.models.values() {
            let _ = write!(row, " {} |", m.errors.get(label).copied().unwrap_or(0));
        }
        let _ = writeln!(out, "{row} {total} |");
    }
}
