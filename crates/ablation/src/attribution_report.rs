//! The attribution section of the reports ([`super::attribution`]) as
//! Markdown and HTML, and the HTML's side-by-side view of a failed
//! problem: the source chart beside the model's transcription, both drawn
//! by flowbench's own renderer, what the scorer left unmatched in red.
//!
//! # How it works
//!
//! The highlight is a `style` on the unmatched elements, added to the
//! parsed charts before drawing ([`flowbench_transcription::unmatched`] gives
//! the node and edge indices), so it goes through the renderer's own
//! whitelisted declarations. Each SVG is embedded as a `data:` image so
//! the two drawings' ids cannot collide in the page.

use std::fmt::Write as _;

use base64::Engine as _;
use htmlize::escape_text;

use super::attribution::{Attribution, Cell, Section};
use super::report::column_label;
use flowbench_chart::mermaid::Flowchart;
use flowbench_chart::render::pipeline::{RenderError, Renderer};
use flowbench_chart::render::style::Style;
use flowbench_transcription::chart::View;
use flowbench_transcription::{Source, Unread, read_reply};

/// The Markdown heading of the section.
pub const HEADING: &str = "## Perception or reasoning: attribution of code failures";

fn share(x: Option<f64>) -> String {
    x.map_or("—".into(), |v| format!("{:.0} %", 100.0 * v))
}

fn corr(x: Option<f64>) -> String {
    x.map_or("—".into(), |v| format!("{v:+.3}"))
}

/// Cells in display order: per subset its difficulties then `all`, the
/// overall `all` last.
fn cells(a: &Attribution) -> Vec<(&str, &str, &Cell)> {
    let mut out = Vec::new();
    for (subset, ds) in a.table.iter().filter(|(s, _)| s.as_str() != "all") {
        for (d, cell) in ds.iter().filter(|(d, _)| d.as_str() != "all") {
            out.push((subset.as_str(), d.as_str(), cell));
        }
        if let Some(cell) = ds.get("all") {
            out.push((subset.as_str(), "all", cell));
        }
    }
    if let Some(cell) = a.table.get("all").and_then(|t| t.get("all")) {
        out.push(("all", "all", cell));
    }
    out
}

/// The Markdown section; empty when there is nothing to say (no
/// transcribe run and no code run waiting for one).
pub fn markdown(section: &Section) -> String {
    if section.pairs.is_empty() && section.omitted.is_empty() {
        return String::new();
    }
    let mut md = format!("\n{HEADING}\n\n");
    for line in &section.omitted {
        let _ = writeln!(md, "- omitted: {line}");
    }
    for a in &section.pairs {
        let _ = writeln!(
            md,
            "\n### {}: transcriptions `{}` against code `{}` ({})\n\n\"Read right\": {}. \"Coded right\": {}. A code failure on a chart \
             read right is a *reasoning* failure, on a chart read wrong a *perception* failure.\n",
            a.model, a.transcribe_run, a.code_run, a.code_condition, a.read_right_means, a.coded_right_means
        );
        md.push_str(
            "| cell | problems | read ✓ coded ✓ | read ✓ coded ✗ | read ✗ coded ✓ | read ✗ coded ✗ | reasoning share | perception share |\n\
             |---|---:|---:|---:|---:|---:|---:|---:|\n",
        );
        for (s, d, c) in cells(a) {
            let t = &c.table;
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                column_label(s, d),
                c.problems,
                t.read_right_coded_right,
                t.read_right_coded_wrong,
                t.read_wrong_coded_right,
                t.read_wrong_coded_wrong,
                share(c.reasoning_share),
                share(c.perception_share)
            );
        }
        let _ = writeln!(
            md,
            "\nRelaxed triple F1 against pass rate over {} problems: Pearson r {}, Spearman ρ {} (ranks, ties averaged).\n",
            a.correlation.problems,
            corr(a.correlation.pearson),
            corr(a.correlation.spearman)
        );
        md.push_str("| chart element | missed | of | rate |\n|---|---:|---:|---:|\n");
        for (name, missed, total) in a.errors.rows() {
            let rate = if total == 0 { "—".into() } else { format!("{:.1} %", 100.0 * missed as f64 / total as f64) };
            let _ = writeln!(md, "| {name} | {missed} | {total} | {rate} |");
        }
        let failed: Vec<String> = a
            .problems
            .iter()
            .filter_map(|p| p.failure.map(|f| format!("{} ({f}, F1 {:.2})", p.task_id, p.triple_f1)))
            .collect();
        if !failed.is_empty() {
            let _ = writeln!(md, "\nCode failures: {}.", failed.join(", "));
        }
    }
    md
}

/// A failed problem drawn for the HTML: the source chart and the model's
/// transcription with what the scorer left unmatched highlighted.
#[derive(Debug)]
pub struct SideBySide {
    pub code_run: String,
    pub task_id: String,
    pub failure: String,
    pub triple_f1: f64,
    pub drawings: SideBySideDrawings,
}

const HIGHLIGHT_NODE: [&str; 3] = ["fill:#fde0dc", "stroke:#d62728", "stroke-width:3px"];
const HIGHLIGHT_EDGE: [&str; 2] = ["stroke:#d62728", "stroke-width:3px"];

fn highlight(chart: &Flowchart, nodes: &[usize], edges: &[usize]) -> Flowchart {
    let mut chart = chart.clone();
    for &i in nodes {
        chart.nodes[i].styles.extend(HIGHLIGHT_NODE.iter().map(|s| s.to_string()));
    }
    for &i in edges {
        chart.edges[i].styles.extend(HIGHLIGHT_EDGE.iter().map(|s| s.to_string()));
    }
    chart
}

/// Why a side-by-side view shows a reason instead of a drawing.
#[derive(Debug, thiserror::Error)]
pub enum NotDrawn {
    #[error("not drawn: {0}")]
    Render(RenderError),
    /// The reply holds no chart to draw.
    #[error(transparent)]
    Unread(#[from] Unread),
}

fn draw(renderer: &Renderer, chart: &Flowchart) -> Result<String, NotDrawn> {
    let out = renderer.svg(chart, &Style::default()).map_err(NotDrawn::Render)?;
    Ok(format!("data:image/svg+xml;base64,{}", base64::engine::general_purpose::STANDARD.encode(out.svg)))
}

/// Draws `source` beside the chart in `reply`, unmatched elements in red.
pub fn side_by_side(renderer: &Renderer, source: &Flowchart, reply: &str) -> SideBySideDrawings {
    let prepared = Source::of(source);
    match read_reply(reply) {
        Ok((read, _)) => {
            let u = prepared.unmatched(&View::new(&read));
            SideBySideDrawings {
                source: draw(renderer, &highlight(source, &u.source_nodes, &u.source_edges)),
                transcription: draw(renderer, &highlight(&read, &u.transcribed_nodes, &u.transcribed_edges)),
                unmatched_nodes: (u.source_nodes.len(), u.transcribed_nodes.len()),
                unmatched_edges: (u.source_edges.len(), u.transcribed_edges.len()),
            }
        }
        Err(why) => SideBySideDrawings {
            source: draw(renderer, &highlight(source, &(0..source.nodes.len()).collect::<Vec<_>>(), &[])),
            transcription: Err(why.into()),
            unmatched_nodes: (source.nodes.len(), 0),
            unmatched_edges: (source.edges.len(), 0),
        },
    }
}

/// The drawings [`side_by_side`] makes.
#[derive(Debug)]
pub struct SideBySideDrawings {
    pub source: Result<String, NotDrawn>,
    pub transcription: Result<String, NotDrawn>,
    pub unmatched_nodes: (usize, usize),
    pub unmatched_edges: (usize, usize),
}

fn esc(s: &str) -> String {
    escape_text(s).into_owned()
}

/// Style rules the section adds to the page.
pub const STYLE: &str = ".sbs{display:flex;gap:1.5em;align-items:flex-start;margin:.5em 0 1.5em}\
.sbs figure{margin:0}.sbs img{max-width:520px;max-height:720px;border:1px solid #ddd;background:#fff}\
.sbs figcaption{font-size:90%;color:#444}.unread{color:#b03a2e;max-width:420px}";

/// The HTML section: per pair the tables, the correlation, the element
/// error rates and the side-by-side views of its failed problems.
pub fn html(section: &Section, views: &[SideBySide]) -> String {
    if section.pairs.is_empty() && section.omitted.is_empty() {
        return String::new();
    }
    let mut h = format!("<style>{STYLE}</style><h2 id=\"attribution\">Perception or reasoning</h2>");
    for line in &section.omitted {
        let _ = write!(h, "<p><em>omitted:</em> {}</p>", esc(line));
    }
    for a in &section.pairs {
        pair_html(&mut h, a);
        let mine: Vec<&SideBySide> = views.iter().filter(|v| v.code_run == a.code_run).collect();
        if !mine.is_empty() {
            let _ = write!(
                h,
                "<h4>Failed problems: the source chart beside {}'s transcription (unmatched in red)</h4>",
                esc(&a.model)
            );
        }
        for v in mine {
            side_by_side_html(&mut h, v);
        }
    }
    h
}

fn pair_html(h: &mut String, a: &Attribution) {
    let _ = write!(
        h,
        "<h3 id=\"attribution-{}\">{} — <code>{}</code> read, <code>{}</code> coded ({})</h3><p>Read right: {}. Coded right: {}. \
         A code failure on a chart read right is a <b>reasoning</b> failure, on a chart read wrong a <b>perception</b> failure.</p>",
        esc(&a.code_run),
        esc(&a.model),
        esc(&a.transcribe_run),
        esc(&a.code_run),
        esc(&a.code_condition),
        esc(&a.read_right_means),
        esc(a.coded_right_means)
    );
    h.push_str(
        "<table><tr><th>cell</th><th>problems</th><th>read ✓ coded ✓</th><th>read ✓ coded ✗</th><th>read ✗ coded ✓</th>\
         <th>read ✗ coded ✗</th><th>reasoning share</th><th>perception share</th></tr>",
    );
    for (s, d, c) in cells(a) {
        let t = &c.table;
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&column_label(s, d)),
            c.problems,
            t.read_right_coded_right,
            t.read_right_coded_wrong,
            t.read_wrong_coded_right,
            t.read_wrong_coded_wrong,
            share(c.reasoning_share),
            share(c.perception_share)
        );
    }
    let _ = write!(
        h,
        "</table><p>Relaxed triple F1 against pass rate over {} problems: Pearson r {}, Spearman ρ {} (ranks, ties averaged).</p>",
        a.correlation.problems,
        corr(a.correlation.pearson),
        corr(a.correlation.spearman)
    );
    h.push_str("<table><tr><th>chart element</th><th>missed</th><th>of</th><th>rate</th></tr>");
    for (name, missed, total) in a.errors.rows() {
        let rate = if total == 0 { "—".into() } else { format!("{:.1} %", 100.0 * missed as f64 / total as f64) };
        let _ = write!(h, "<tr><td>{name}</td><td>{missed}</td><td>{total}</td><td>{rate}</td></tr>");
    }
    h.push_str("</table>");
}

fn side_by_side_html(h: &mut String, v: &SideBySide) {
    let d = &v.drawings;
    let _ = write!(
        h,
        "<p><b>{}</b> — {} failure, relaxed triple F1 {:.2}; unmatched: {} source / {} transcribed nodes, {} source / {} transcribed edges.</p><div class=\"sbs\">",
        esc(&v.task_id),
        esc(&v.failure),
        v.triple_f1,
        d.unmatched_nodes.0,
        d.unmatched_nodes.1,
        d.unmatched_edges.0,
        d.unmatched_edges.1
    );
    for (caption, drawing) in [("source chart", &d.source), ("the model's transcription", &d.transcription)] {
        match drawing {
            Ok(url) => {
                let _ = write!(
                    h,
                    "<figure><img alt=\"{caption}\" src=\"{}\"><figcaption>{caption}</figcaption></figure>",
                    esc(url)
                );
            }
            Err(why) => {
                let _ = write!(
                    h,
                    "<figure><p class=\"unread\">{}</p><figcaption>{caption}</figcaption></figure>",
                    esc(&why.to_string())
                );
            }
        }
    }
    h.push_str("</div>");
}
