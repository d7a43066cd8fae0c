//! The self-contained HTML report: tables, two SVG charts drawn here
//! (pass@1 bars per cell and condition; a forest plot of the paired deltas
//! with their intervals) and a per-problem section with the image, the
//! Mermaid text and each condition's verdict. No scripts, no network.

use std::fmt::Write as _;

use htmlize::escape_text;

use super::compare::Ablation;
use super::report::{cells, column_label, ordered_deltas, p_equals};

/// What the report shows about one problem.
#[derive(Debug, Clone, Default)]
pub struct ProblemView {
    pub task_id: String,
    pub subset: String,
    pub difficulty: Option<String>,
    /// The flowchart as a `data:` URL, when the bench has images.
    pub image: Option<String>,
    pub mermaid: Option<String>,
    /// Per condition (report order): samples, passed, first failure's class.
    pub verdicts: Vec<Option<(usize, usize, Option<String>)>>,
}

const COLOURS: [&str; 6] = ["#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#a463f2"];

fn esc(s: &str) -> String {
    escape_text(s).into_owned()
}

/// Grouped bars: pass@1 per cell, one bar per condition.
pub fn bars_svg(ab: &Ablation) -> String {
    let cells = cells(ab);
    let n = ab.conditions.len().max(1);
    let (bar, gap, left, top, height) = (14.0, 18.0, 40.0, 20.0, 200.0);
    let group = bar * n as f64 + gap;
    // Wide enough for the bars and for the legend (130 px per condition).
    let width = (left + group * cells.len() as f64 + 10.0).max(left + 130.0 * n as f64);
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{:.0}" viewBox="0 0 {width:.0} {:.0}" font-family="sans-serif" font-size="11">"#,
        top + height + 110.0,
        top + height + 110.0
    );
    for t in (0..=100).step_by(20) {
        let y = top + height * (1.0 - f64::from(t) / 100.0);
        let _ = write!(svg, r##"<line x1="{left}" x2="{width:.0}" y1="{y}" y2="{y}" stroke="#ddd"/><text x="{}" y="{}" text-anchor="end">{t}</text>"##, left - 4.0, y + 4.0);
    }
    for (i, (s, d)) in cells.iter().enumerate() {
        let x0 = left + gap / 2.0 + group * i as f64;
        for (j, c) in ab.conditions.iter().enumerate() {
            let Some(cell) = c.table.get(s).and_then(|t| t.get(d)) else { continue };
            let h = height * cell.pass_at_1 / 100.0;
            let _ = write!(
                svg,
                r#"<rect x="{:.1}" y="{:.1}" width="{bar}" height="{h:.1}" fill="{}"><title>{} · {}: {:.1} % of {}</title></rect>"#,
                x0 + bar * j as f64,
                top + height - h,
                COLOURS[j % COLOURS.len()],
                esc(&c.name),
                esc(&column_label(s, d)),
                cell.pass_at_1,
                cell.tasks
            );
        }
        let cx = x0 + bar * n as f64 / 2.0;
        let _ = write!(svg, r#"<text transform="translate({cx:.1},{:.1}) rotate(-40)" text-anchor="end">{}</text>"#, top + height + 12.0, esc(&column_label(s, d)));
    }
    for (j, c) in ab.conditions.iter().enumerate() {
        let x = left + 130.0 * j as f64;
        let _ = write!(svg, r#"<rect x="{x}" y="2" width="10" height="10" fill="{}"/><text x="{}" y="11">{}</text>"#, COLOURS[j % COLOURS.len()], x + 14.0, esc(&c.name));
    }
    svg.push_str("</svg>");
    svg
}

/// Forest plot: each condition's delta per subset with its 95 % interval.
pub fn forest_svg(ab: &Ablation) -> String {
    let rows: Vec<(String, f64, f64, f64, f64)> = ordered_deltas(ab)
        .into_iter()
        .flat_map(|(name, table)| {
            ab.columns.iter().filter_map(move |(s, _)| table.get(s).and_then(|t| t.get("all")).map(|d| (format!("{name} · {s}"), d.delta, d.ci_low, d.ci_high, d.mcnemar_p)))
        })
        .collect();
    let span = rows.iter().map(|r| r.2.abs().max(r.3.abs())).fold(5.0f64, f64::max).ceil();
    let (left, plot, row_h, top) = (220.0, 360.0, 22.0, 24.0);
    let height = top + row_h * rows.len() as f64 + 30.0;
    let x = |v: f64| left + plot * (v + span) / (2.0 * span);
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{height:.0}" viewBox="0 0 {:.0} {height:.0}" font-family="sans-serif" font-size="11">"#,
        left + plot + 90.0,
        left + plot + 90.0
    );
    let _ = write!(svg, r##"<line x1="{0:.1}" x2="{0:.1}" y1="{1}" y2="{2:.1}" stroke="#888" stroke-dasharray="3,3"/>"##, x(0.0), top - 8.0, height - 22.0);
    for t in [-span, -span / 2.0, 0.0, span / 2.0, span] {
        let _ = write!(svg, r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{t:+.0}</text>"#, x(t), height - 8.0);
    }
    let _ = write!(svg, r#"<text x="{:.1}" y="12" text-anchor="middle">Δ pass@1 vs baseline (percentage points, 95 % CI)</text>"#, x(0.0));
    for (i, (label, d, lo, hi, p)) in rows.iter().enumerate() {
        let y = top + row_h * i as f64 + row_h / 2.0;
        let colour = if *p < 0.05 { "#c0392b" } else { "#2c3e50" };
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text><line x1="{:.1}" x2="{:.1}" y1="{y:.1}" y2="{y:.1}" stroke="{colour}" stroke-width="2"/><circle cx="{:.1}" cy="{y:.1}" r="4" fill="{colour}"><title>{d:+.1} [{lo:+.1}, {hi:+.1}] McNemar {}</title></circle><text x="{:.1}" y="{:.1}">{}</text>"#,
            left - 8.0,
            y + 4.0,
            esc(label),
            x(*lo),
            x(*hi),
            x(*d),
            p_equals(*p),
            left + plot + 8.0,
            y + 4.0,
            p_equals(*p)
        );
    }
    svg.push_str("</svg>");
    svg
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;margin:1em 0}\
td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}td:first-child,th:first-child{text-align:left}\
.pass{color:#1e7a34}.fail{color:#b03a2e}details img{max-width:420px;border:1px solid #ddd}pre{background:#f6f6f6;padding:6px;max-width:520px;overflow:auto}\
.problem{display:flex;gap:1em;align-items:flex-start}";

/// The whole page.
pub fn html(ab: &Ablation, problems: &[ProblemView]) -> String {
    let mut h = format!("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>flowbench ablation</title><style>{STYLE}</style></head><body>");
    h.push_str("<h1>Ablation</h1><h2>pass@1 (%)</h2><table><tr><th>condition</th>");
    let cells = cells(ab);
    for (s, d) in &cells {
        let _ = write!(h, "<th>{}</th>", esc(&column_label(s, d)));
    }
    h.push_str("</tr>");
    for c in &ab.conditions {
        let _ = write!(h, "<tr><td>{}</td>", esc(&c.name));
        for (s, d) in &cells {
            match c.table.get(s).and_then(|t| t.get(d)) {
                Some(cell) => {
                    let _ = write!(h, "<td>{:.1}</td>", cell.pass_at_1);
                }
                None => h.push_str("<td>—</td>"),
            }
        }
        h.push_str("</tr>");
        if let Some(deltas) = ab.deltas.get(&c.name) {
            let _ = write!(h, "<tr><td>Δ {}</td>", esc(&c.name));
            for (s, d) in &cells {
                match deltas.get(s).and_then(|t| t.get(d)) {
                    Some(x) => {
                        let class = if x.mcnemar_p < 0.05 { " class=\"fail\"" } else { "" };
                        let _ = write!(h, "<td{class}>{:+.1}<br><small>[{:+.1}, {:+.1}] {}</small></td>", x.delta, x.ci_low, x.ci_high, p_equals(x.mcnemar_p));
                    }
                    None => h.push_str("<td>—</td>"),
                }
            }
            h.push_str("</tr>");
        }
    }
    h.push_str("</table>");
    let _ = write!(h, "<h2>Chart</h2>{}<h2>Paired differences</h2>{}", bars_svg(ab), forest_svg(ab));
    h.push_str("<h2>Problems</h2><table><tr><th>problem</th><th>subset</th><th>difficulty</th>");
    for c in &ab.conditions {
        let _ = write!(h, "<th>{}</th>", esc(&c.name));
    }
    h.push_str("</tr>");
    for p in problems {
        let _ = write!(h, "<tr><td>{}</td><td>{}</td><td>{}</td>", esc(&p.task_id), esc(&p.subset), esc(p.difficulty.as_deref().unwrap_or("")));
        for v in &p.verdicts {
            match v {
                Some((n, c, _)) if *c > 0 => {
                    let _ = write!(h, "<td class=\"pass\">✓ {c}/{n}</td>");
                }
                Some((n, _, err)) => {
                    let _ = write!(h, "<td class=\"fail\">✗ 0/{n} {}</td>", esc(err.as_deref().unwrap_or("")));
                }
                None => h.push_str("<td>—</td>"),
            }
        }
        h.push_str("</tr>");
        if p.image.is_some() || p.mermaid.is_some() {
            // Problems the conditions disagree on are the ones a reader
            // wants to see the chart of: those open unfolded.
            let solved: Vec<Option<bool>> = p.verdicts.iter().map(|v| v.as_ref().map(|(_, c, _)| *c > 0)).collect();
            let split = solved.iter().flatten().any(|x| *x) && solved.iter().flatten().any(|x| !*x);
            let open = if split { " open" } else { "" };
            let _ = write!(h, "<tr><td colspan=\"{}\"><details{open}><summary>flowchart</summary><div class=\"problem\">", 3 + ab.conditions.len());
            if let Some(img) = &p.image {
                let _ = write!(h, "<img alt=\"{}\" src=\"{}\">", esc(&p.task_id), esc(img));
            }
            if let Some(m) = &p.mermaid {
                let _ = write!(h, "<pre>{}</pre>", esc(m));
            }
            h.push_str("</div></details></td></tr>");
        }
    }
    h.push_str("</table></body></html>\n");
    h
}
