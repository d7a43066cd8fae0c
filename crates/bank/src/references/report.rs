//! The references report: every problem's `Entry` as JSON, and a short
//! Markdown summary (counts per subset and kind, the problems left out
//! with their reason, the probable wrong tests with their evidence).
//! Both depend only on the entries, so the same run writes the same bytes.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::{Entry, Kind};

/// Counts per subset.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Counts {
    pub problems: usize,
    pub canonical: usize,
    pub differential: usize,
    pub hand: usize,
    pub left_out: usize,
    /// Problems with at least one probable wrong test, and the tests.
    pub with_wrong_tests: usize,
    pub wrong_tests: usize,
}

/// The JSON report.
#[derive(Debug, Clone, Serialize)]
pub struct Report<'a> {
    pub counts: BTreeMap<String, Counts>,
    pub problems: &'a [Entry],
}

pub fn counts(entries: &[Entry]) -> BTreeMap<String, Counts> {
    let mut all: BTreeMap<String, Counts> = BTreeMap::new();
    for e in entries {
        for key in [e.subset.clone().unwrap_or_else(|| "(no subset)".into()), "all".into()] {
            let c = all.entry(key).or_default();
            c.problems += 1;
            match e.kind {
                Kind::Canonical => c.canonical += 1,
                Kind::Differential => c.differential += 1,
                Kind::Hand => c.hand += 1,
                Kind::LeftOut => c.left_out += 1,
            }
            c.with_wrong_tests += usize::from(!e.wrong_tests.is_empty());
            c.wrong_tests += e.wrong_tests.len();
        }
    }
    all
}

pub fn json(entries: &[Entry]) -> String {
    super::to_json(&Report { counts: counts(entries), problems: entries })
}

pub fn markdown(entries: &[Entry]) -> String {
    let mut md = String::from("# References\n\n");
    md.push_str("| subset | problems | canonical | differential | hand-written | left out | problems with wrong tests | wrong tests |\n");
    md.push_str("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (subset, c) in counts(entries) {
        let _ = writeln!(
            md,
            "| {subset} | {} | {} | {} | {} | {} | {} | {} |",
            c.problems, c.canonical, c.differential, c.hand, c.left_out, c.with_wrong_tests, c.wrong_tests
        );
    }
    md.push_str("\n## Left out\n\n");
    for e in entries.iter().filter(|e| e.kind == Kind::LeftOut) {
        let _ = writeln!(
            md,
            "- `{}` ({}): {}; candidates: {}",
            e.task_id,
            e.subset.as_deref().unwrap_or("-"),
            e.reason.as_deref().unwrap_or("-").lines().next().unwrap_or_default(),
            if e.candidates.is_empty() { "none".into() } else { e.candidates.join(", ") }
        );
        for d in e.differences.iter().take(2) {
            let outs: Vec<String> =
                d.outputs.iter().map(|o| format!("{} → {}", o.models.join("+"), o.output)).collect();
            let _ = writeln!(md, "  - {} `{}`: {}", d.source, cut(&d.input, 120), outs.join("; "));
        }
    }
    md.push_str("\n## Probable wrong tests\n\n");
    md.push_str("| problem | test | input | recorded expected | the references return | agreeing models | samples passing it |\n");
    md.push_str("|---|---:|---|---|---|---|---:|\n");
    for e in entries {
        for w in &e.wrong_tests {
            let _ = writeln!(
                md,
                "| `{}` | {} | `{}` | `{}` | `{}` | {} | {} |",
                e.task_id,
                w.original,
                cut(&w.input, 80),
                cut(&w.expected, 60),
                cut(&w.references_return, 60),
                if e.agreeing.is_empty() { "hand-written".into() } else { e.agreeing.join(", ") },
                w.samples_passing
            );
        }
    }
    md
}

fn cut(text: &str, max: usize) -> String {
    let text = text.replace('|', "\\|").replace('`', "'");
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}
