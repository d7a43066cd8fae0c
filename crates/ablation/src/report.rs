//! Rendering an [`Ablation`] as Markdown (Code-Vision's Table 4 layout plus
//! a paired-statistics table) and CSV (one row per condition × cell). The
//! HTML report is [`super::html`].

use std::fmt::Write as _;

use super::compare::{Ablation, Delta};
use super::section::{Block, Section, Table};

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
    for section in paired_sections(ab) {
        md.push_str(&section.markdown());
    }
    md
}

/// The sections that pair runs (signature, reasoning first, coders,
/// memorisation), each present only when it has rows.
pub fn paired_sections(ab: &Ablation) -> Vec<Section> {
    [signature_section(ab), reasoning_section(ab), coder_section(ab), memorisation_section(ab)]
        .into_iter()
        .flatten()
        .collect()
}

/// A paired Δ's three cells: Δ, its 95 % interval, McNemar's p.
fn paired_cell_list(d: &Delta) -> [String; 3] {
    [signed(d.delta), format!("[{}, {}]", signed(d.ci_low), signed(d.ci_high)), p_value(d.mcnemar_p)]
}

/// A row: the leading cells, then a paired Δ's three, then the trailing.
fn row(lead: &[String], d: &Delta, trail: &[String]) -> Vec<String> {
    lead.iter().cloned().chain(paired_cell_list(d)).chain(trail.iter().cloned()).collect()
}

/// Per run, pass@1 on originals − on their variants.
fn memorisation_section(ab: &Ablation) -> Option<Section> {
    if ab.memorisation.is_empty() {
        return None;
    }
    let mut table = Table::new(&[
        "run",
        "originals:",
        "variants:",
        "gap pp:",
        "95 % CI",
        "McNemar p:",
        "only originals:",
        "only variants:",
    ]);
    for g in &ab.memorisation {
        let d = &g.gap;
        let lead = [g.run.clone(), g.originals.to_string(), g.variants.to_string()];
        table.rows.push(row(&lead, d, &[d.only_condition.to_string(), d.only_baseline.to_string()]));
    }
    let mut blocks = vec![
        Block::Text(
            "Each original problem against its variants (`flowbench variants`: renamed, a constant or a step of the \
             logic changed, the chart re-drawn) in the same run. Gap is pass@1 on originals − on their variants in \
             percentage points, paired over originals, with a 95 % bootstrap interval and the exact McNemar p-value; \
             *only originals*: originals solved whose variants all failed (first samples)."
                .into(),
        ),
        Block::Table(table),
    ];
    blocks.extend(famous_blocks(&ab.memorisation));
    Some(Section { title: "Following the chart or the famous problem".into(), blocks })
}

/// Per run, the failed variant samples that pass their original's tests.
fn famous_blocks(gaps: &[super::memorisation::MemorisationGap]) -> Vec<Block> {
    if gaps.iter().all(|g| g.famous.is_none()) {
        return Vec::new();
    }
    let mut table = Table::new(&[
        "run",
        "failed variant samples:",
        "answered the famous problem:",
        "share:",
        "by kind (failed / famous)",
    ]);
    for g in gaps {
        let Some(f) = &g.famous else { continue };
        let share = if f.failed == 0 {
            "—".to_string()
        } else {
            format!("{:.0} %", 100.0 * f.answered_original as f64 / f.failed as f64)
        };
        let kinds: Vec<String> = f.by_kind.iter().map(|(k, (n, famous))| format!("{k} {n} / {famous}")).collect();
        table.rows.push(vec![
            g.run.clone(),
            f.failed.to_string(),
            f.answered_original.to_string(),
            share,
            kinds.join(", "),
        ]);
    }
    vec![
        Block::Text(
            "Every variant sample that failed was judged again on its original's tests: one that passes there \
             *answered the famous problem* instead of the chart it was shown."
                .into(),
        ),
        Block::Table(table),
    ]
}

/// Per model, each condition against its reasoning-first twin.
fn reasoning_section(ab: &Ablation) -> Option<Section> {
    if ab.reasoning.is_empty() {
        return None;
    }
    let mut table = Table::new(&[
        "model",
        "condition",
        "plain run",
        "+cot run",
        "problems:",
        "plain pass@1:",
        "+cot pass@1:",
        "Δ +cot − plain:",
        "95 % CI",
        "McNemar p:",
    ]);
    for p in &ab.reasoning {
        let lead = [
            p.model.clone(),
            p.condition.clone(),
            p.plain_run.clone(),
            p.cot_run.clone(),
            p.delta.tasks.to_string(),
            format!("{:.1}", p.plain_pass_at_1),
            format!("{:.1}", p.cot_pass_at_1),
        ];
        table.rows.push(row(&lead, &p.delta, &[]));
    }
    let intro = "A `+cot` condition shows the same prompt and asks the model to reason step by step before it writes \
                 the program (HumanEval-V's chain-of-thought setting). Δ is `+cot` − plain in percentage points, \
                 paired over problems, with a 95 % bootstrap interval and the exact McNemar p-value.";
    Some(Section { title: "Reasoning first".into(), blocks: vec![Block::Text(intro.into()), Block::Table(table)] })
}

/// Per cross-model two-step run, the coder on the reading and on the truth.
fn coder_section(ab: &Ablation) -> Option<Section> {
    if ab.coders.is_empty() {
        return None;
    }
    let mut table = Table::new(&[
        "model (reads)",
        "coder",
        "two-step run",
        "coder's mermaid run",
        "problems:",
        "coder on the reading:",
        "coder on the true Mermaid:",
        "Δ:",
        "95 % CI",
        "McNemar p:",
    ]);
    for g in &ab.coders {
        let lead = [g.model.clone(), g.coder.clone(), g.two_step_run.clone()];
        table.rows.push(match (&g.delta, &g.mermaid_run, g.on_true_mermaid) {
            (Some(d), Some(run), Some(truth)) => {
                let mid =
                    [run.clone(), d.tasks.to_string(), format!("{:.1}", g.on_transcriptions), format!("{truth:.1}")];
                row(&[lead.as_slice(), &mid].concat(), d, &[])
            }
            _ => {
                let missing = format!("— (no `mermaid` run of {})", g.coder);
                let rest = [missing, "—".into(), format!("{:.1}", g.on_transcriptions)];
                [lead.as_slice(), &rest, &["—".into(), "—".into(), "—".into(), "—".into()]].concat()
            }
        });
    }
    let intro = "`flowchart-then-code --coder C`: the model transcribes the image, C codes from that Mermaid. Beside \
                 it, C coding from the true Mermaid (its `mermaid` run). Δ is transcriptions − true Mermaid in \
                 percentage points, paired over problems: what the model's reading lost, in programs that pass.";
    Some(Section {
        title: "Perception in code terms: one coder on each model's reading".into(),
        blocks: vec![Block::Text(intro.into()), Block::Table(table)],
    })
}

/// Per model, flowchart − signature and the problems the name alone solved.
fn signature_section(ab: &Ablation) -> Option<Section> {
    if ab.signature.is_empty() {
        return None;
    }
    let mut table = Table::new(&[
        "model",
        "flowchart run",
        "signature run",
        "problems:",
        "signature pass@1:",
        "Δ flowchart − signature:",
        "95 % CI",
        "McNemar p:",
        "solved by the signature alone",
    ]);
    for g in &ab.signature {
        let solved =
            if g.solved_by_signature.is_empty() { "—".to_string() } else { g.solved_by_signature.join(", ") };
        let lead = [
            g.model.clone(),
            g.flowchart_run.clone(),
            g.signature_run.clone(),
            g.delta.tasks.to_string(),
            format!("{:.1}", g.signature_pass_at_1),
        ];
        table.rows.push(row(&lead, &g.delta, &[solved]));
    }
    let intro = "`signature` shows the starter code alone (no image, no Mermaid, no description): what it solves was \
                 answered from the name or from memory. Δ is flowchart − signature in percentage points, paired over \
                 problems, with a 95 % bootstrap interval and the exact McNemar p-value.";
    Some(Section {
        title: "Reading the chart or remembering the problem".into(),
        blocks: vec![Block::Text(intro.into()), Block::Table(table)],
    })
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
