//! Printing `check --against` results: rustc-style diagnostics on the chart
//! with the solution line in a note, or one JSON object per chart.

use crate::author::review::mismatch_diagnostic;
use crate::author::{Program, check_against};
use crate::mermaid::Flowchart;
use crate::mermaid::diagnostic::render_diagnostic;

/// The solution a chart is checked against: its file name, text and reading.
pub struct Solution {
    pub name: String,
    pub code: String,
    pub program: Program,
}

/// Compares and prints; returns the number of mismatches (0: faithful).
pub fn report(name: &str, source: &str, chart: &Flowchart, solution: &Solution, json: bool) -> usize {
    let Solution { name: solution, code, program } = solution;
    let result = check_against(program, chart);
    if json {
        let mismatches: Vec<serde_json::Value> = result
            .mismatches
            .iter()
            .map(|m| {
                let span = m.node.map(|i| chart.nodes[i].span);
                serde_json::json!({
                    "kind": m.kind,
                    "message": m.message,
                    "chart_line": span.map(|s| s.line),
                    "chart_col": span.map(|s| s.col),
                    "code_line": m.code_line,
                })
            })
            .collect();
        let out = serde_json::json!({
            "chart": name,
            "solution": solution,
            "faithful": result.mismatches.is_empty(),
            "similarity": (result.similarity * 1000.0).round() / 1000.0,
            "evidence": result.evidence,
            "mismatches": mismatches,
            "unverifiable": result.unverifiable.iter().map(|u| serde_json::json!({
                "text": u.text,
                "chart_line": chart.nodes[u.node].span.line,
            })).collect::<Vec<_>>(),
        });
        println!("{out}");
    } else {
        for m in &result.mismatches {
            eprint!("{}", render_diagnostic(name, source, &mismatch_diagnostic(m, chart, solution, code)));
        }
        eprintln!("{name}: similarity to {solution}: {:.3}", result.similarity);
    }
    result.mismatches.len()
}
