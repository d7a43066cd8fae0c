//! What a `variants` run made: a line per problem and the totals (how many
//! problems got two or more variants, one, none; per kind).

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Kind, ProblemReport};

/// The totals of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub problems: usize,
    pub with_two_or_more: usize,
    pub with_at_least_one: usize,
    /// Problems with no variant, each with why.
    pub without: BTreeMap<String, String>,
    /// Kind → variants kept.
    pub kept_by_kind: BTreeMap<String, usize>,
    /// Kind → problems with at least the wanted count.
    pub complete_by_kind: BTreeMap<String, usize>,
}

impl Summary {
    pub fn of(reports: &[ProblemReport], kinds: &[Kind], count: usize) -> Summary {
        let mut kept_by_kind = BTreeMap::new();
        let mut complete_by_kind = BTreeMap::new();
        for kind in kinds {
            let per: Vec<usize> = reports.iter().map(|r| r.kept.iter().filter(|k| k.kind == *kind).count()).collect();
            kept_by_kind.insert(kind.as_str().to_string(), per.iter().sum());
            complete_by_kind.insert(kind.as_str().to_string(), per.iter().filter(|&&n| n >= count).count());
        }
        Summary {
            problems: reports.len(),
            with_two_or_more: reports.iter().filter(|r| r.kept.len() >= 2).count(),
            with_at_least_one: reports.iter().filter(|r| !r.kept.is_empty()).count(),
            without: reports
                .iter()
                .filter(|r| r.kept.is_empty())
                .map(|r| (r.problem.clone(), r.short.join("; ")))
                .collect(),
            kept_by_kind,
            complete_by_kind,
        }
    }

    /// The totals as printed at the end of a run.
    pub fn text(&self) -> String {
        let pct = |n: usize| if self.problems == 0 { 0.0 } else { 100.0 * n as f64 / self.problems as f64 };
        let kinds: Vec<String> = self.kept_by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let mut out = format!(
            "{} problems: {} ({:.1} %) with ≥ 2 variants, {} ({:.1} %) with ≥ 1; kept by kind: {}",
            self.problems,
            self.with_two_or_more,
            pct(self.with_two_or_more),
            self.with_at_least_one,
            pct(self.with_at_least_one),
            kinds.join(", ")
        );
        for (problem, why) in &self.without {
            out.push_str(&format!("\n  no variant of {problem}: {why}"));
        }
        out
    }
}

/// One problem's line: kept variants, or why a kind fell short.
pub fn line(r: &ProblemReport) -> String {
    let kept: Vec<String> = r.kept.iter().map(|k| format!("{} ({})", k.name, k.change)).collect();
    let mut out = format!("{}: {} kept", r.problem, r.kept.len());
    if !kept.is_empty() {
        out.push_str(&format!(": {}", kept.join(", ")));
    }
    for s in &r.short {
        out.push_str(&format!("; {s}"));
    }
    out
}
