//! The Hugging Face dataset card (`README.md`): YAML front matter (a config
//! per subset, the features, the licence, task categories) and a body made
//! from the manifest and summary: Table 1, how the benchmark was built, how
//! to score it, and each subset's provenance and licence.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::Condition;
use crate::hf::{COLUMNS, Column};
use crate::source::Source;

/// Licences the Hub knows by id (lower case); any other is `other`.
const HUB_LICENCES: [&str; 8] =
    ["mit", "apache-2.0", "bsd-2-clause", "bsd-3-clause", "cc-by-4.0", "cc-by-sa-4.0", "cc0-1.0", "unlicense"];

/// The whole card.
pub fn card(source: &Source, condition: Condition) -> String {
    let mut out = front_matter(source);
    out.push_str(&body(source, condition));
    out
}

/// The YAML front matter, `---` to `---`.
pub fn front_matter(source: &Source) -> String {
    let mut y = String::from("---\n");
    let licences: BTreeSet<String> =
        source.subsets().iter().flat_map(|s| s.licences.iter().map(|l| l.to_lowercase())).collect();
    match licences.iter().next() {
        Some(l) if licences.len() == 1 && HUB_LICENCES.contains(&l.as_str()) => {
            let _ = writeln!(y, "license: {l}");
        }
        _ => y.push_str("license: other\nlicense_name: per-subset (see Provenance and licences)\n"),
    }
    y.push_str("pretty_name: flowbench\nlanguage:\n- en\n");
    y.push_str("task_categories:\n- image-text-to-text\n- text-generation\n");
    y.push_str("tags:\n- code\n- flowchart\n- mermaid\n- code-generation\n");
    y.push_str("configs:\n");
    for subset in source.subsets().iter().map(|s| &s.name) {
        let _ = writeln!(y, "- config_name: {subset}\n  data_files:\n  - split: test\n    path: data/{subset}.parquet");
    }
    y.push_str("dataset_info:\n");
    for subset in source.subsets() {
        let _ = writeln!(y, "- config_name: {}\n  features:", subset.name);
        for c in COLUMNS {
            let dtype = if c == Column::Image { "image" } else { "string" };
            let _ = writeln!(y, "  - name: {}\n    dtype: {dtype}", c.name());
        }
        let _ = writeln!(y, "  splits:\n  - name: test\n    num_examples: {}", subset.records);
    }
    y.push_str("---\n\n");
    y
}

fn body(source: &Source, condition: Condition) -> String {
    let m = &source.manifest;
    let mut b = String::from("# flowbench\n\n");
    b.push_str(
        "Code generation from flowcharts: each problem is a reference solution's flowchart (an image, its \
         Mermaid text and a description) and the starter code of the function (or whole program) to write. \
         A model's code is judged by running it on the problem's tests in a sandbox.\n\n",
    );
    let _ = writeln!(
        b,
        "This export: {} problems in {} subsets; images in style `{}`; the `prompt` column is the `{}` \
         condition's text (as `flowbench prompts` sends it).\n",
        source.len(),
        source.subsets().len(),
        source.style,
        condition.name()
    );
    b.push_str("## Table 1\n\n| subset | difficulty | problems | avg tests | avg nodes | avg edges |\n|---|---|---:|---:|---:|---:|\n");
    for r in &m.table1 {
        let _ = writeln!(
            b,
            "| {} | {} | {} | {:.1} | {:.1} | {:.1} |",
            r.subset, r.difficulty, r.problems, r.avg_tests, r.avg_nodes, r.avg_edges
        );
    }
    b.push_str(&built(source));
    b.push_str(&left_out(source));
    b.push_str(SCORING);
    b.push_str(&provenance(source));
    b
}

/// How the benchmark was built: version, styles, limits, mutation scores.
fn built(source: &Source) -> String {
    let m = &source.manifest;
    let mut b = String::from("\n## How it was built\n\n");
    let _ = writeln!(
        b,
        "Built by flowbench {} (`flowbench build`): {} of {} problems proven (every chart parsed and \
         lint-checked{}, rendered, and its reference run on every test in the sandbox under {} s a test).",
        m.flowbench_version,
        m.built,
        m.problems,
        if m.options.deny_warnings { ", warnings denied" } else { "" },
        m.options.time_limit_s
    );
    b.push_str("\nStyles drawn (this export carries the images of one; re-export with `--style ID` for another):\n\n");
    for s in &m.options.styles {
        let _ = writeln!(b, "- `{}`{}", s.id, if s.name.is_empty() { String::new() } else { format!(": {}", s.name) });
    }
    let scores: Vec<f64> =
        source.summary.reports.iter().filter_map(|r| r.mutation_score.or(r.mutation_score_at_least)).collect();
    let tests: usize = source.summary.reports.iter().map(|r| r.tests.typical + r.tests.edge + r.tests.large).sum();
    let _ = writeln!(
        b,
        "\nTests: {tests} in all (typical, edge and large inputs; generated tests are kept only when the \
         reference passes them and they meet the floors of `tests gen`)."
    );
    if !scores.is_empty() {
        let mean = scores.iter().sum::<f64>() / scores.len() as f64;
        let min = scores.iter().copied().fold(f64::INFINITY, f64::min);
        let _ = writeln!(
            b,
            "Mutation score (share of the reference's mutants the tests kill), over the {} problems with one: \
             mean {mean:.3}, lowest {min:.3}.",
            scores.len()
        );
    }
    b
}

/// What the source had that this dataset does not, and why: problems the
/// bank never held (the manifest's `left_out`) and problems whose build
/// failed (their first error).
fn left_out(source: &Source) -> String {
    let m = &source.manifest;
    if m.left_out.is_empty() && m.failed.is_empty() {
        return String::new();
    }
    let mut b = String::from("\n## Left out\n\n");
    let _ = writeln!(b, "{} problems of the source are not in this dataset:\n", m.left_out.len() + m.failed.len());
    for l in &m.left_out {
        let _ = writeln!(b, "- `{}`: {}", l.task_id, one_line(&l.reason));
    }
    for name in &m.failed {
        let report = source.summary.reports.iter().find(|r| &r.name == name);
        let why = report
            .and_then(|r| r.failure.as_ref())
            .map_or("its build failed".to_string(), |d| format!("its build failed: {}", one_line(d)));
        let _ = writeln!(b, "- `{name}`: {why}");
    }
    b
}

/// `text` on one Markdown line: breaks made spaces, at most 300 characters.
fn one_line(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(300) {
        Some((cut, _)) => format!("{}…", &flat[..cut]),
        None => flat,
    }
}

const SCORING: &str = "
## How to score it

Scoring runs untrusted code: use flowbench's sandboxed judge (`cargo install --path .` in the flowbench
repository), in native mode (the tests' values are compared in the judge, never in the candidate's process).

- **Any samples file**: `flowbench judge --problems problems.jsonl --samples samples.jsonl -o results.jsonl`,
  one JSON line per sample with `task_id` and `completion` (code) or `response` (a reply to extract code
  from); `problems.jsonl` is the rows' `task_id`, `entry_point`, `test` and `native_tests` (or the dist's
  record files). pass@k and the error classes go to `results.md`.
- **inspect_ai**: `flowbench export DIST --to inspect -o OUT`, then `inspect eval OUT/flowbench_inspect.py
  --model …` (`-T solver=reference` checks the export end to end without a model). Its scorer calls
  `flowbench judge`; `flowbench judge --samples LOG.eval` judges a log again.
- **VLMEvalKit**: `flowbench export DIST --to vlmevalkit -o OUT` writes `FlowBench.tsv` and
  `flowbench_vlmevalkit.py` (a dataset class whose `evaluate` calls `flowbench judge`; the registration steps
  are in its docstring); `flowbench judge --samples PRED.xlsx` (or `.tsv`) judges a prediction file.
";

/// Each subset's sources and licences, from its records.
fn provenance(source: &Source) -> String {
    let mut b = String::from("\n## Provenance and licences\n\n");
    for subset in source.subsets() {
        let sources = listed(&subset.sources, "source");
        let licences = listed(&subset.licences, "licence");
        let _ = writeln!(
            b,
            "- `{}` ({} problems): from {}; licence {}.{}",
            subset.name,
            subset.records,
            sources,
            licences,
            if subset.sources.iter().chain(&subset.licences).any(|s| s.to_lowercase().contains("leetcode")) {
                " LeetCode problem statements: for research use only."
            } else {
                ""
            }
        );
    }
    b.push_str(
        "\nEach row's `source` and `licence` columns say where its problem comes from. The flowcharts, images \
         and tests were made by flowbench from the reference solutions.\n",
    );
    b
}

/// A set's values, comma-separated (`unstated` when there are none); past
/// a few (a source per problem), their count and the first two.
fn listed(values: &BTreeSet<String>, column: &str) -> String {
    const SHOWN: usize = 4;
    let all: Vec<&str> = values.iter().map(String::as_str).collect();
    match all.len() {
        0 => "unstated".into(),
        n if n <= SHOWN => all.join(", "),
        n => format!("{n} {column}s, such as {} and {} (each row's `{column}` names its own)", all[0], all[1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_values_are_listed_and_many_counted() {
        let set = |n: usize| (0..n).map(|i| format!("LeetCode {i}")).collect::<BTreeSet<String>>();
        assert_eq!(listed(&set(0), "source"), "unstated");
        assert_eq!(listed(&set(2), "source"), "LeetCode 0, LeetCode 1");
        assert_eq!(
            listed(&set(148), "source"),
            "148 sources, such as LeetCode 0 and LeetCode 1 (each row's `source` names its own)"
        );
    }
}
