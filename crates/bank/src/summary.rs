//! The per-problem listing of a build (`dist/summary.md`, `summary.json`):
//! chart size, tests and diagnostics of every problem, built or not.

use serde::{Deserialize, Serialize};

use super::build::{ProblemReport, TestCounts};

/// Pretty JSON with a trailing newline (artefacts are meant to be diffed).
pub fn to_json<T: Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_default();
    s.push('\n');
    s
}

/// The bank-wide summary.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Summary {
    pub problems: usize,
    pub ok: usize,
    pub nodes: usize,
    pub edges: usize,
    pub decisions: usize,
    pub tests: TestCounts,
    /// The limit the records' legacy programs are kept well under (human-
    /// eval's); each report says how many tests its legacy code carries
    /// and their recorded reference time.
    pub legacy_limit_s: f64,
    pub reports: Vec<ProblemReport>,
}

impl Summary {
    /// Totals over `reports` (kept in the given order).
    pub fn new(reports: Vec<ProblemReport>) -> Summary {
        let mut s = Summary {
            problems: reports.len(),
            legacy_limit_s: super::legacy_suite::HUMAN_EVAL_LIMIT_S,
            ..Summary::default()
        };
        for r in &reports {
            s.ok += usize::from(r.ok);
            s.nodes += r.nodes;
            s.edges += r.edges;
            s.decisions += r.decisions;
            s.tests.typical += r.tests.typical;
            s.tests.edge += r.tests.edge;
            s.tests.large += r.tests.large;
        }
        s.reports = reports;
        s
    }

    /// A Markdown table of the bank, one row per problem.
    pub fn markdown(&self) -> String {
        let mut md = String::from(
            "# Problem bank\n\n| problem | ok | nodes | edges | decisions | tests (typical/edge/large) | lint warnings |\n|---|---|---:|---:|---:|---|---:|\n",
        );
        for r in &self.reports {
            md.push_str(&format!(
                "| {} | {} | {} | {} | {} | {}/{}/{} | {} |\n",
                r.name,
                if r.ok { "yes" } else { "**no**" },
                r.nodes,
                r.edges,
                r.decisions,
                r.tests.typical,
                r.tests.edge,
                r.tests.large,
                r.warnings
            ));
        }
        md.push_str(&format!(
            "\n{} of {} problems built; {} tests ({} typical, {} edge, {} large).\n",
            self.ok,
            self.problems,
            self.tests.total(),
            self.tests.typical,
            self.tests.edge,
            self.tests.large
        ));
        md
    }
}
