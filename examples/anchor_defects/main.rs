//! Counts the drawn-picture defects of `layout::metrics` on every chart of
//! a folder of anchors (default `../shared/anchors/codevision-style`), for
//! flowbench's drawing and for mermaid-cli's (read from `NAME.mmdc.svg`),
//! with the same measuring code, and prints one table row per chart
//! (`flowbench/mermaid-cli`) and the totals; charts without a mermaid-cli
//! SVG (the problem bank's) show flowbench's figure and `-`.
//! `scripts/anchor-defects.sh` runs it on the anchors and on the bank.

mod mmdc_svg;

use flowbench::layout::drawn::Drawing;
use flowbench::layout::metrics::{Metrics, measure};
use flowbench::render::pipeline::Renderer;
use flowbench::render::style::{Style, apply_chart_config};
use flowbench::text::Fonts;

/// A column: its name and the counter it shows.
type Column = (&'static str, fn(&Metrics) -> usize);

/// The counters shown, with their column names.
const COLUMNS: [Column; 12] = [
    ("through", |m| m.edges_through_nodes),
    ("lbl-ovl", |m| m.label_overlaps),
    ("lbl-x", |m| m.labels_crossed),
    ("off", |m| m.labels_off_edge),
    ("title-x", |m| m.titles_crossed),
    ("cross", |m| m.edge_crossings),
    ("junct", |m| m.near_junctions),
    ("stack", |m| m.stacked_heads),
    ("<25°", |m| m.shallow_heads),
    ("<10°", |m| m.flat_heads),
    ("exits", |m| m.shared_exits),
    ("n-ovl", |m| m.node_overlaps),
];

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "../shared/anchors/codevision-style".into());
    let mut charts = Vec::new();
    if let Err(e) = find_charts(std::path::Path::new(&dir), &mut charts) {
        eprintln!("{dir}: {e}");
        std::process::exit(2);
    }
    charts.sort();
    let renderer = Renderer::new(Fonts::embedded());
    print!("{:<28}", "chart (flowbench/mmdc)");
    COLUMNS.iter().for_each(|(n, _)| print!("{n:>9}"));
    println!();
    let (mut ours_total, mut theirs_total) = ([0usize; 12], [0usize; 12]);
    let (mut failed, mut compared) = (false, 0);
    for path in &charts {
        let name = chart_name(path);
        match measure_both(&renderer, path) {
            Ok((ours, theirs)) => {
                print!("{name:<28}");
                compared += usize::from(theirs.is_some());
                for (k, (_, f)) in COLUMNS.iter().enumerate() {
                    let a = f(&ours);
                    ours_total[k] += a;
                    let b = theirs.as_ref().map(f);
                    theirs_total[k] += b.unwrap_or(0);
                    print!("{:>9}", format!("{a}/{}", b.map_or("-".to_string(), |b| b.to_string())));
                }
                println!();
            }
            Err(e) => {
                eprintln!("{name}: {e}");
                failed = true;
            }
        }
    }
    print!("{:<28}", "TOTAL");
    (0..COLUMNS.len()).for_each(|k| print!("{:>9}", format!("{}/{}", ours_total[k], theirs_total[k])));
    println!();
    println!("({} charts, {compared} with a mermaid-cli SVG beside them)", charts.len());
    if failed {
        std::process::exit(1);
    }
}

/// The `.mmd` files under `dir`, any depth (a problem bank keeps one
/// chart per problem folder).
fn find_charts(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.is_dir() {
            find_charts(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "mmd") {
            out.push(p);
        }
    }
    Ok(())
}

/// The chart's file stem, or its folder's name when the stem says nothing
/// (`problems/gcd/flowchart.mmd`).
fn chart_name(path: &std::path::Path) -> String {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy().to_string();
    match (stem.as_str(), path.parent().and_then(|p| p.file_name())) {
        ("flowchart", Some(dir)) => dir.to_string_lossy().to_string(),
        _ => stem,
    }
}

/// flowbench's figures, and mermaid-cli's where `NAME.mmdc.svg` is beside
/// the chart.
fn measure_both(renderer: &Renderer, path: &std::path::Path) -> Result<(Metrics, Option<Metrics>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let chart = flowbench::mermaid::parse(&text).map_err(|e| format!("{e:?}"))?;
    let mut style = Style::default();
    apply_chart_config(&mut style, &chart.config);
    let out = renderer.svg(&chart, &style).map_err(|e| e.to_string())?;
    let ours = measure(&Drawing::from_layout(&chart, &out.geometry, style.curve)).0;
    let svg_path = path.with_extension("mmdc.svg");
    if !svg_path.exists() {
        return Ok((ours, None));
    }
    let svg = std::fs::read_to_string(&svg_path).map_err(|e| format!("{}: {e}", svg_path.display()))?;
    Ok((ours, Some(measure(&mmdc_svg::read(&svg, &chart)?).0)))
}
