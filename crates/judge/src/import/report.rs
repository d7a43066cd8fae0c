//! Conversion figures (per subset) and the `--report` file listing every
//! problem that stays legacy, so nobody has to trust an unexplained rate.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::Outcome;

/// Counts for one subset (or for all problems).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubsetFigures {
    pub problems: usize,
    pub problems_converted: usize,
    pub asserts: usize,
    pub asserts_converted: usize,
    pub asserts_dropped: usize,
    pub tests: usize,
}

impl SubsetFigures {
    fn add(&mut self, o: &Outcome) {
        self.problems += 1;
        self.problems_converted += usize::from(o.converted());
        self.asserts += o.asserts;
        self.asserts_converted += o.asserts_converted;
        self.asserts_dropped += o.asserts_dropped;
        self.tests += o.tests;
    }

    /// Share of asserts that converted or were no-ops, in percent.
    pub fn assert_rate(&self) -> f64 {
        if self.asserts == 0 {
            return 0.0;
        }
        100.0 * (self.asserts_converted + self.asserts_dropped) as f64 / self.asserts as f64
    }
}

/// Figures per subset (sorted by name) plus the total.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Figures {
    pub subsets: BTreeMap<String, SubsetFigures>,
    pub total: SubsetFigures,
}

impl Figures {
    /// Aggregates the outcomes of one import.
    pub fn from_outcomes(outcomes: &[Outcome]) -> Self {
        let mut f = Figures::default();
        for o in outcomes {
            f.subsets.entry(o.subset.clone()).or_default().add(o);
            f.total.add(o);
        }
        f
    }

    /// A Markdown table, printed on stderr and at the top of the report.
    pub fn table(&self) -> String {
        let mut s = String::from(
            "| subset | problems converted | asserts converted | no-op asserts dropped | asserts converted+dropped | native tests |\n|---|---:|---:|---:|---:|---:|\n",
        );
        let rows = self.subsets.iter().map(|(k, v)| (k.as_str(), v)).chain([("all", &self.total)]);
        for (name, f) in rows {
            let _ = writeln!(
                s,
                "| {name} | {}/{} | {}/{} | {} | {:.2} % | {} |",
                f.problems_converted,
                f.problems,
                f.asserts_converted,
                f.asserts,
                f.asserts_dropped,
                f.assert_rate(),
                f.tests
            );
        }
        s
    }
}

/// Markdown report: figures, then every legacy-only problem with the line
/// and reason of each unconverted assert, then every dropped assert.
pub fn write_report(outcomes: &[Outcome]) -> String {
    let figures = Figures::from_outcomes(outcomes);
    let mut s = String::from("# flowbench tests import report\n\n");
    s.push_str(&figures.table());
    s.push_str("\n## Problems kept legacy-only (all-or-nothing per problem)\n\n");
    let legacy: Vec<&Outcome> = outcomes.iter().filter(|o| !o.converted()).collect();
    if legacy.is_empty() {
        s.push_str("None.\n");
    }
    for o in legacy {
        let _ =
            writeln!(s, "- `{}` ({}): {} of {} asserts convert", o.task_id, o.subset, o.asserts_converted, o.asserts);
        for n in &o.failures {
            let _ = writeln!(s, "  - line {}: {}", n.line, n.reason);
        }
    }
    s.push_str("\n## Asserts dropped as no-ops\n\n");
    let dropped: Vec<&Outcome> = outcomes.iter().filter(|o| !o.dropped.is_empty()).collect();
    if dropped.is_empty() {
        s.push_str("None.\n");
    }
    for o in dropped {
        let lines: Vec<String> = o.dropped.iter().map(|n| format!("line {}: {}", n.line, n.reason)).collect();
        let _ = writeln!(s, "- `{}`: {}", o.task_id, lines.join("; "));
    }
    s
}
