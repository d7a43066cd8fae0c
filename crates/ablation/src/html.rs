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

/// A coordinate as the SVGs print it: at most two decimals, trailing zeros
/// dropped, never `-0`. Sums such as `20 + 200 × (1 − 0.8)` come out as
/// `59.99999999999999` in full precision; rounded, the report reads cleanly
/// and its bytes do not hang on the last bit of a float.
fn num(v: f64) -> String {
    let fixed = format!("{v:.2}");
    let trimmed = if fixed.contains('.') { fixed.trim_end_matches('0').trim_end_matches('.') } else { &fixed };
    if trimmed == "-0" { "0".to_string() } else { trimmed.to_string() }
}

/// The opening tag of a chart `width` × `height` px (whole pixels).
fn svg_open(width: f64, height: f64) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="11">"#
    )
}

/// Grouped bars: pass@1 per cell, one bar per condition.
pub fn bars_svg(ab: &Ablation) -> String {
    let cells = cells(ab);
    let n = ab.conditions.len().max(1);
    let (bar, gap, left, top, height) = (14.0, 18.0, 40.0, 20.0, 200.0);
    let group = bar * n as f64 + gap;
    // Wide enough for the bars and for the legend (130 px per condition).
    let width = (left + group * cells.len() as f64 + 10.0).max(left + 130.0 * n as f64);
    let mut svg = svg_open(width, top + height + 110.0);
    for t in (0..=100).step_by(20) {
        let y = top + height * (1.0 - f64::from(t) / 100.0);
        let (x1, x2, text_x, text_y) = (num(left), num(width), num(left - 4.0), num(y + 4.0));
        let y = num(y);
        let _ = write!(svg, r##"<line x1="{x1}" x2="{x2}" y1="{y}" y2="{y}" stroke="#ddd"/>"##);
        let _ = write!(svg, r#"<text x="{text_x}" y="{text_y}" text-anchor="end">{t}</text>"#);
    }
    for (i, (s, d)) in cells.iter().enumerate() {
        let x0 = left + gap / 2.0 + group * i as f64;
        for (j, c) in ab.conditions.iter().enumerate() {
            let Some(cell) = c.table.get(s).and_then(|t| t.get(d)) else { continue };
            let h = height * cell.pass_at_1 / 100.0;
            let _ = write!(
                svg,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{} · {}: {:.1} % of {}</title></rect>"#,
                num(x0 + bar * j as f64),
                num(top + height - h),
                num(bar),
                num(h),
                COLOURS[j % COLOURS.len()],
                esc(&c.name),
                esc(&column_label(s, d)),
                cell.pass_at_1,
                cell.tasks
            );
        }
        let cx = x0 + bar * n as f64 / 2.0;
        let label = esc(&column_label(s, d));
        let (cx, cy) = (num(cx), num(top + height + 12.0));
        let _ = write!(svg, r#"<text transform="translate({cx},{cy}) rotate(-40)" text-anchor="end">{label}</text>"#);
    }
    for (j, c) in ab.conditions.iter().enumerate() {
        let x = left + 130.0 * j as f64;
        let colour = COLOURS[j % COLOURS.len()];
        let (name, text_x, x) = (esc(&c.name), num(x + 14.0), num(x));
        let _ = write!(svg, r#"<rect x="{x}" y="2" width="10" height="10" fill="{colour}"/>"#);
        let _ = write!(svg, r#"<text x="{text_x}" y="11">{name}</text>"#);
    }
    svg.push_str("</svg>");
    svg
}

/// Forest plot: each condition's delta per subset with its 95 % interval.
pub fn forest_svg(ab: &Ablation) -> String {
    let rows: Vec<(String, f64, f64, f64, f64)> = ordered_deltas(ab)
        .into_iter()
        .flat_map(|(name, table)| {
            ab.columns.iter().filter_map(move |(s, _)| {
                table
                    .get(s)
                    .and_then(|t| t.get("all"))
                    .map(|d| (format!("{name} · {s}"), d.delta, d.ci_low, d.ci_high, d.mcnemar_p))
            })
        })
        .collect();
    let span = rows.iter().map(|r| r.2.abs().max(r.3.abs())).fold(5.0f64, f64::max).ceil();
    let (left, plot, row_h, top) = (220.0, 360.0, 22.0, 24.0);
    let height = top + row_h * rows.len() as f64 + 30.0;
    let x = |v: f64| left + plot * (v + span) / (2.0 * span);
    let mut svg = svg_open(left + plot + 90.0, height);
    let (zero, axis_top, axis_bottom) = (num(x(0.0)), num(top - 8.0), num(height - 22.0));
    let _ = write!(
        svg,
        r##"<line x1="{zero}" x2="{zero}" y1="{axis_top}" y2="{axis_bottom}" stroke="#888" stroke-dasharray="3,3"/>"##
    );
    for t in [-span, -span / 2.0, 0.0, span / 2.0, span] {
        let _ = write!(svg, r#"<text x="{}" y="{}" text-anchor="middle">{t:+.0}</text>"#, num(x(t)), num(height - 8.0));
    }
    let title = "Δ pass@1 vs baseline (percentage points, 95 % CI)";
    let _ = write!(svg, r#"<text x="{zero}" y="12" text-anchor="middle">{title}</text>"#);
    for (i, (label, d, lo, hi, p)) in rows.iter().enumerate() {
        let y_mid = top + row_h * i as f64 + row_h / 2.0;
        let (y, y_text) = (num(y_mid), y_mid + 4.0);
        let colour = if *p < 0.05 { "#c0392b" } else { "#2c3e50" };
        let _ = write!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text><line x1="{}" x2="{}" y1="{y}" y2="{y}" stroke="{colour}" stroke-width="2"/><circle cx="{}" cy="{y}" r="4" fill="{colour}"><title>{d:+.1} [{lo:+.1}, {hi:+.1}] McNemar {}</title></circle><text x="{}" y="{}">{}</text>"#,
            num(left - 8.0),
            num(y_text),
            esc(label),
            num(x(*lo)),
            num(x(*hi)),
            num(x(*d)),
            p_equals(*p),
            num(left + plot + 8.0),
            num(y_text),
            p_equals(*p)
        );
    }
    svg.push_str("</svg>");
    svg
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;margin:1em 0}\
td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}td:first-child,th:first-child{text-align:left}\
.txt{text-align:left}.pass{color:#1e7a34}.fail{color:#b03a2e}details img{max-width:420px;border:1px solid #ddd}pre{background:#f6f6f6;padding:6px;max-width:520px;overflow:auto}\
.problem{display:flex;gap:1em;align-items:flex-start}\
.renderings{display:flex;gap:1em;align-items:flex-start;overflow-x:auto}.renderings figure{margin:0}\
.renderings img{max-width:280px;border:1px solid #ddd}";

/// The whole page.
pub fn html(ab: &Ablation, problems: &[ProblemView]) -> String {
    html_with(ab, problems, "")
}

/// The whole page with `extra` HTML (another module's sections) after the
/// charts, before the per-problem list (which can be long).
pub fn html_with(ab: &Ablation, problems: &[ProblemView], extra: &str) -> String {
    let mut h = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>flowbench ablation</title><style>{STYLE}</style></head><body>"
    );
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
                        let _ = write!(
                            h,
                            "<td{class}>{:+.1}<br><small>[{:+.1}, {:+.1}] {}</small></td>",
                            x.delta,
                            x.ci_low,
                            x.ci_high,
                            p_equals(x.mcnemar_p)
                        );
                    }
                    None => h.push_str("<td>—</td>"),
                }
            }
            h.push_str("</tr>");
        }
    }
    h.push_str("</table>");
    let _ = write!(h, "<h2>Chart</h2>{}<h2>Paired differences</h2>{}{extra}", bars_svg(ab), forest_svg(ab));
    h.push_str("<h2>Problems</h2><table><tr><th>problem</th><th>subset</th><th>difficulty</th>");
    for c in &ab.conditions {
        let _ = write!(h, "<th>{}</th>", esc(&c.name));
    }
    h.push_str("</tr>");
    for p in problems {
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td>",
            esc(&p.task_id),
            esc(&p.subset),
            esc(p.difficulty.as_deref().unwrap_or(""))
        );
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
            let _ = write!(
                h,
                "<tr><td colspan=\"{}\"><details{open}><summary>flowchart</summary><div class=\"problem\">",
                3 + ab.conditions.len()
            );
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::{Run, TaskScore, compare_runs};

    fn run(name: &str, passed: &[bool]) -> Run {
        let scores = passed.iter().enumerate().map(|(i, &ok)| {
            let (subset, c) = ("basic".to_string(), usize::from(ok));
            let score = TaskScore { subset, difficulty: None, n: 1, c, first_passed: ok, first_error: None };
            (format!("t{i}"), score)
        });
        Run { name: name.into(), scores: scores.collect() }
    }

    /// The first attribute value of `svg` holding a number with more than
    /// two decimals (texts such as `p=1.000` are not coordinates).
    fn long_decimal(svg: &str) -> Option<&str> {
        let long = |n: &str| n.split_once('.').is_some_and(|(_, decimals)| decimals.len() > 2);
        let mut values = svg.split("=\"").skip(1).filter_map(|rest| rest.split('"').next());
        values.find(|v| v.split(|c: char| !c.is_ascii_digit() && c != '.').any(long))
    }

    #[test]
    fn coordinates_print_with_two_decimals_at_most() {
        let printed = [59.99999999999999, 12.5, 146.666_666, -0.001, 100.0].map(num);
        assert_eq!(printed, ["60", "12.5", "146.67", "0", "100"]);
        let order: Vec<String> = (0..3).map(|i| format!("t{i}")).collect();
        let runs = [run("flowchart", &[true, true, false]), run("text", &[true, false, false])];
        let ab = compare_runs(&runs, &order, &[1]);
        let bars = bars_svg(&ab);
        assert!(bars.contains(r#"y1="60" y2="60""#), "the 80 % grid line: {bars}");
        for svg in [bars, forest_svg(&ab)] {
            assert_eq!(long_decimal(&svg), None, "{svg}");
        }
    }
}
