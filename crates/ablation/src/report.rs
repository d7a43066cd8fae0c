//! Rendering an [`Ablation`] as Markdown (Code-Vision's Table 4 layout plus
//! a paired-statistics table) and CSV (one row per condition × cell). The
//! HTML report is [`super::html`].

use std::fmt::Write as _;

use super::compare::{Ablation, Delta};

/// `Algorithm easy`, `HumanEval-V` (subset without difficulties), `all`.
pub fn column_label(subset: &str, difficulty: &str) -> String {
    match difficulty {
        "all" => subset.to_string(),
        d => format!("{subset} {d}"),
    }
}

/// The table's cells in display order: (subset, difficulty).
pub fn cells(ab: &Ablation) -> Vec<(String, String)> {
    ab.columns.iter().flat_map(|(s, ds)| ds.iter().map(move |d| (s.clone(), d.clone()))).collect()
}

/// A signed figure with one decimal; `0.0` for what rounds to zero.
pub fn signed(x: f64) -> String {
    if x.abs() < 0.05 { "0.0".to_string() } else { format!("{x:+.1}") }
}

/// A p-value for a table: three decimals, `<0.001` below.
pub fn p_value(p: f64) -> String {
    if p < 0.001 { "<0.001".into() } else { format!("{p:.3}") }
}

/// `p=0.412` or `p<0.001`.
pub fn p_equals(p: f64) -> String {
    if p < 0.001 { "p<0.001".into() } else { format!("p={p:.3}") }
}

/// A delta cell: `+3.2 [−2.1, +8.5] p=0.41`.
/// A paired Δ's three table cells: Δ, its 95 % interval, McNemar's p.
pub fn paired_cells(d: &Delta) -> String {
    format!("{} | [{}, {}] | {}", signed(d.delta), signed(d.ci_low), signed(d.ci_high), p_value(d.mcnemar_p))
}

pub fn delta_text(d: &Delta) -> String {
    format!("{} [{}, {}] {}", signed(d.delta), signed(d.ci_low), signed(d.ci_high), p_equals(d.mcnemar_p))
}

/// The Markdown report.
pub fn markdown(ab: &Ablation) -> String {
    let cells = cells(ab);
    let mut md = String::from("# Ablation\n\n");
    let base = ab.conditions.first().map_or("", |c| c.name.as_str());
    let _ = writeln!(
        md,
        "pass@1 (%) per subset × difficulty and condition (Code-Vision's Table 4 layout). Each Δ row is the condition minus `{base}` in \
         percentage points on the problems both runs have, with a 95 % paired bootstrap interval and the exact McNemar p-value.\n"
    );
    md.push_str("| condition |");
    for (s, d) in &cells {
        let _ = write!(md, " {} |", column_label(s, d));
    }
    md.push_str("\n|---|");
    md.push_str(&"---:|".repeat(cells.len()));
    md.push('\n');
    for c in &ab.conditions {
        let _ = write!(md, "| {} |", c.name);
        for (s, d) in &cells {
            match c.table.get(s).and_then(|t| t.get(d)) {
                Some(cell) => {
                    let _ = write!(md, " {:.1} |", cell.pass_at_1);
                }
                None => md.push_str(" — |"),
            }
        }
        md.push('\n');
        if let Some(deltas) = ab.deltas.get(&c.name) {
            let _ = write!(md, "| Δ {} |", c.name);
            for (s, d) in &cells {
                match deltas.get(s).and_then(|t| t.get(d)) {
                    Some(delta) => {
                        let _ = write!(md, " {} |", delta_text(delta));
                    }
                    None => md.push_str(" — |"),
                }
            }
            md.push('\n');
        }
    }
    md.push_str("\n## Paired statistics\n\n");
    md.push_str(
        "Per subset (all difficulties). *Only base* / *only cond.*: problems only one of the two solved (first sample). \
         The sign-flip test uses every sample of every problem (with one sample it is McNemar's test).\n\n",
    );
    md.push_str(
        "| condition | vs | subset | problems | Δ pp | 95 % CI | McNemar p | only base | only cond. | sign-flip p |\n",
    );
    md.push_str("|---|---|---|---:|---:|---|---:|---:|---:|---:|\n");
    for (name, table) in ordered_deltas(ab) {
        for (subset, _) in &ab.columns {
            if let Some(d) = table.get(subset).and_then(|t| t.get("all")) {
                let _ = writeln!(
                    md,
                    "| {name} | {base} | {subset} | {} | {} | {} | {} | {} |",
                    d.tasks,
                    paired_cells(d),
                    d.only_baseline,
                    d.only_condition,
                    p_value(d.paired_p)
                );
            }
        }
    }
    md.push_str("\n## pass@k and errors\n\n| condition | samples | problems |");
    for k in &ab.ks {
        let _ = write!(md, " pass@{k} |");
    }
    md.push_str(" errors (first sample) |\n|---|---:|---:|");
    md.push_str(&"---:|".repeat(ab.ks.len()));
    md.push_str("---|\n");
    for c in &ab.conditions {
        let _ = write!(md, "| {} | {} | {} |", c.name, c.samples, c.tasks);
        for k in &ab.ks {
            match c.pass_at_k.get(&format!("pass@{k}")) {
                Some(p) => {
                    let _ = write!(md, " {p:.1} |");
                }
                None => md.push_str(" — |"),
            }
        }
        let errors: Vec<String> = c.errors.iter().map(|(e, n)| format!("{e} {n}")).collect();
        let _ = writeln!(md, " {} |", errors.join(", "));
    }
    signature_section(&mut md, ab);
    reasoning_section(&mut md, ab);
    coder_section(&mut md, ab);
    memorisation_section(&mut md, ab);
    md
}

/// Per run, pass@1 on originals − on their variants.
fn memorisation_section(md: &mut String, ab: &Ablation) {
    if ab.memorisation.is_empty() {
        return;
    }
    md.push_str(
        "\n## Following the chart or the famous problem\n\n\
         Each original problem against its variants (`flowbench variants`: renamed, a constant or a step of the \
         logic changed, the chart re-drawn) in the same run. Gap is pass@1 on originals − on their variants in \
         percentage points, paired over originals, with a 95 % bootstrap interval and the exact McNemar p-value; \
         *only originals*: originals solved whose variants all failed (first samples).\n\n\
         | run | originals | variants | gap pp | 95 % CI | McNemar p | only originals | only variants |\n\
         |---|---:|---:|---:|---|---:|---:|---:|\n",
    );
    for g in &ab.memorisation {
        let d = &g.gap;
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} |",
            g.run,
            g.originals,
            g.variants,
            paired_cells(d),
            d.only_condition,
            d.only_baseline,
        );
    }
    famous_table(md, &ab.memorisation);
}

/// Per run, the failed variant samples that pass their original's tests.
fn famous_table(md: &mut String, gaps: &[super::memorisation::MemorisationGap]) {
    if gaps.iter().all(|g| g.famous.is_none()) {
        return;
    }
    md.push_str(
        "
Every variant sample that failed was judged again on its original's tests: one that passes there \
         *answered the famous problem* instead of the chart it was shown.\n\n\
         | run | failed variant samples | answered the famous problem | share | by kind (failed / famous) |\n\
         |---|---:|---:|---:|---|\n",
    );
    for g in gaps {
        let Some(f) = &g.famous else { continue };
        let share = if f.failed == 0 {
            "—".to_string()
        } else {
            format!("{:.0} %", 100.0 * f.answered_original as f64 / f.failed as f64)
        };
        let kinds: Vec<String> = f.by_kind.iter().map(|(k, (n, famous))| format!("{k} {n} / {famous}")).collect();
        let _ =
            writeln!(md, "| {} | {} | {} | {} | {} |", g.run, f.failed, f.answered_original, share, kinds.join(", "));
    }
}

/// Per model, each condition against its reasoning-first twin.
fn reasoning_section(md: &mut String, ab: &Ablation) {
    if ab.reasoning.is_empty() {
        return;
    }
    md.push_str(
        "\n## Reasoning first\n\n\
         A `+cot` condition shows the same prompt and asks the model to reason step by step before it writes the \
         program (HumanEval-V's chain-of-thought setting). Δ is `+cot` − plain in percentage points, paired over \
         problems, with a 95 % bootstrap interval and the exact McNemar p-value.\n\n\
         | model | condition | plain run | +cot run | problems | plain pass@1 | +cot pass@1 | Δ +cot − plain | 95 % CI | McNemar p |\n\
         |---|---|---|---|---:|---:|---:|---:|---|---:|\n",
    );
    for p in &ab.reasoning {
        let d = &p.delta;
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {:.1} | {:.1} | {} |",
            p.model,
            p.condition,
            p.plain_run,
            p.cot_run,
            d.tasks,
            p.plain_pass_at_1,
            p.cot_pass_at_1,
            paired_cells(d),
        );
    }
}

/// Per cross-model two-step run, the coder on the reading and on the truth.
fn coder_section(md: &mut String, ab: &Ablation) {
    if ab.coders.is_empty() {
        return;
    }
    md.push_str(
        "\n## Perception in code terms: one coder on each model's reading\n\n\
         `flowchart-then-code --coder C`: the model transcribes the image, C codes from that Mermaid. Beside it, \
         C coding from the true Mermaid (its `mermaid` run). Δ is transcriptions − true Mermaid in percentage \
         points, paired over problems: what the model's reading lost, in programs that pass.\n\n\
         | model (reads) | coder | two-step run | coder's mermaid run | problems | coder on the reading | coder on the true Mermaid | Δ | 95 % CI | McNemar p |\n\
         |---|---|---|---|---:|---:|---:|---:|---|---:|\n",
    );
    for g in &ab.coders {
        match (&g.delta, &g.mermaid_run, g.on_true_mermaid) {
            (Some(d), Some(run), Some(truth)) => {
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {run} | {} | {:.1} | {truth:.1} | {} |",
                    g.model,
                    g.coder,
                    g.two_step_run,
                    d.tasks,
                    g.on_transcriptions,
                    paired_cells(d),
                );
            }
            _ => {
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | — (no `mermaid` run of {}) | — | {:.1} | — | — | — | — |",
                    g.model, g.coder, g.two_step_run, g.coder, g.on_transcriptions,
                );
            }
        }
    }
}

/// Per model, flowchart − signature and the problems the name alone solved.
fn signature_section(md: &mut String, ab: &Ablation) {
    if ab.signature.is_empty() {
        return;
    }
    md.push_str(
        "\n## Reading the chart or remembering the problem\n\n\
         `signature` shows the starter code alone (no image, no Mermaid, no description): what it solves was \
         answered from the name or from memory. Δ is flowchart − signature in percentage points, paired over \
         problems, with a 95 % bootstrap interval and the exact McNemar p-value.\n\n\
         | model | flowchart run | signature run | problems | signature pass@1 | Δ flowchart − signature | 95 % CI | McNemar p | solved by the signature alone |\n\
         |---|---|---|---:|---:|---:|---|---:|---|\n",
    );
    for g in &ab.signature {
        let d = &g.delta;
        let solved =
            if g.solved_by_signature.is_empty() { "—".to_string() } else { g.solved_by_signature.join(", ") };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {:.1} | {} | {solved} |",
            g.model,
            g.flowchart_run,
            g.signature_run,
            d.tasks,
            g.signature_pass_at_1,
            paired_cells(d),
        );
    }
}

/// A condition's deltas: subset → difficulty → delta.
pub type DeltaTable = std::collections::BTreeMap<String, std::collections::BTreeMap<String, Delta>>;

/// Deltas in condition order (the map is keyed by name).
pub fn ordered_deltas(ab: &Ablation) -> Vec<(&str, &DeltaTable)> {
    ab.conditions.iter().filter_map(|c| ab.deltas.get(&c.name).map(|t| (c.name.as_str(), t))).collect()
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

/// One row per condition × cell; delta columns empty for the baseline.
pub fn csv(ab: &Ablation) -> String {
    let mut out = String::from(
        "condition,subset,difficulty,problems,pass_at_1,delta,ci_low,ci_high,mcnemar_p,only_baseline,only_condition,sign_flip_p\n",
    );
    for c in &ab.conditions {
        for (s, d) in cells(ab) {
            let Some(cell) = c.table.get(&s).and_then(|t| t.get(&d)) else { continue };
            let _ = write!(
                out,
                "{},{},{},{},{:.4}",
                csv_field(&c.name),
                csv_field(&s),
                csv_field(&d),
                cell.tasks,
                cell.pass_at_1
            );
            match ab.deltas.get(&c.name).and_then(|t| t.get(&s)).and_then(|t| t.get(&d)) {
                Some(x) => {
                    let _ = writeln!(
                        out,
                        ",{:.4},{:.4},{:.4},{:.6},{},{},{:.6}",
                        x.delta, x.ci_low, x.ci_high, x.mcnemar_p, x.only_baseline, x.only_condition, x.paired_p
                    );
                }
                None => out.push_str(",,,,,,,\n"),
            }
        }
    }
    out
}
