//! Code-Vision's Table 1 for a built bank: problems, average tests and
//! average flowchart nodes and edges per subset × difficulty, with a total
//! row per subset and one for the whole bank. Variants (`flowbench
//! variants`) are counted apart, one row per kind (`variants: logic`), after
//! the bank's total: they are copies of problems already counted.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::dist_record::DistRecord;
use super::meta::subset_order;

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub subset: String,
    /// `easy` | `medium` | `hard`, or `all` for a total row.
    pub difficulty: String,
    pub problems: usize,
    pub avg_tests: f64,
    pub avg_nodes: f64,
    pub avg_edges: f64,
}

#[derive(Default)]
struct Sums {
    problems: usize,
    tests: usize,
    nodes: usize,
    edges: usize,
}

impl Sums {
    fn add(&mut self, r: &DistRecord) {
        self.problems += 1;
        self.tests += r.test_count();
        self.nodes += r.nodes;
        self.edges += r.edges;
    }

    fn row(&self, subset: &str, difficulty: &str) -> Row {
        // Rounded so the manifest's floats print the same everywhere.
        let avg =
            |x: usize| if self.problems == 0 { 0.0 } else { (x as f64 / self.problems as f64 * 100.0).round() / 100.0 };
        Row {
            subset: subset.into(),
            difficulty: difficulty.into(),
            problems: self.problems,
            avg_tests: avg(self.tests),
            avg_nodes: avg(self.nodes),
            avg_edges: avg(self.edges),
        }
    }
}

const DIFFICULTIES: [&str; 3] = ["easy", "medium", "hard"];

/// The rows: per subset (built-ins first) each difficulty that occurs,
/// then the subset's total; last, the total over all subsets.
pub fn table1(records: &[DistRecord]) -> Vec<Row> {
    let mut by: BTreeMap<(usize, String), BTreeMap<usize, Sums>> = BTreeMap::new();
    let mut all = Sums::default();
    let mut variants: BTreeMap<&str, Sums> = BTreeMap::new();
    for r in records {
        if let Some(kind) = &r.variant_kind {
            variants.entry(kind.as_str()).or_default().add(r);
            continue;
        }
        let (order, name) = subset_order(&r.subset);
        let d = DIFFICULTIES.iter().position(|d| *d == r.difficulty).unwrap_or(DIFFICULTIES.len());
        by.entry((order, name.to_string())).or_default().entry(d).or_default().add(r);
        all.add(r);
    }
    let mut rows = Vec::new();
    for ((_, subset), levels) in &by {
        let mut total = Sums::default();
        for (d, sums) in levels {
            rows.push(sums.row(subset, DIFFICULTIES.get(*d).copied().unwrap_or("other")));
            total.problems += sums.problems;
            total.tests += sums.tests;
            total.nodes += sums.nodes;
            total.edges += sums.edges;
        }
        rows.push(total.row(subset, "all"));
    }
    rows.push(all.row("all", "all"));
    for (kind, sums) in &variants {
        rows.push(sums.row(&format!("variants: {kind}"), "all"));
    }
    rows
}

/// The table as Markdown.
pub fn markdown(rows: &[Row]) -> String {
    let mut md = String::from(
        "| subset | difficulty | problems | avg tests | avg nodes | avg edges |\n|---|---|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let bold = |s: &str| if r.difficulty == "all" { format!("**{s}**") } else { s.to_string() };
        md.push_str(&format!(
            "| {} | {} | {} | {:.2} | {:.2} | {:.2} |\n",
            bold(&r.subset),
            bold(&r.difficulty),
            r.problems,
            r.avg_tests,
            r.avg_nodes,
            r.avg_edges
        ));
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(subset: &str, difficulty: &str, nodes: usize, variant_kind: Option<&str>) -> DistRecord {
        DistRecord {
            subset: subset.into(),
            difficulty: difficulty.into(),
            nodes,
            variant_of: variant_kind.map(|_| "gcd".to_string()),
            variant_kind: variant_kind.map(str::to_string),
            ..Default::default()
        }
    }

    #[test]
    fn variants_are_counted_apart_from_the_bank() {
        let rows = table1(&[
            record("math", "easy", 4, None),
            record("math", "easy", 6, None),
            record("math", "easy", 9, Some("logic")),
            record("math", "easy", 9, Some("constants")),
            record("math", "easy", 7, Some("logic")),
        ]);
        let find = |s: &str| rows.iter().find(|r| r.subset == s).expect(s);
        assert_eq!((find("all").problems, find("all").avg_nodes), (2, 5.0));
        assert_eq!((find("variants: logic").problems, find("variants: logic").avg_nodes), (2, 8.0));
        assert_eq!(find("variants: constants").problems, 1);
        assert_eq!(rows.last().map(|r| r.subset.as_str()), Some("variants: logic"));
    }
}
