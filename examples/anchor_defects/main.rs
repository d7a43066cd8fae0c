//! Counts the drawn-picture defects of `layout::metrics` on every chart of
//! a folder of anchors (default `../shared/anchors/codevision-style`), for
//! flowbench's drawing and for mermaid-cli's (read from `NAME.mmdc.svg`),
//! with the same measuring code, and prints one table row per chart
//! (`flowbench/mermaid-cli`) and the totals. `scripts/anchor-defects.sh`
//! runs it.

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
    let mut charts: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(rd) => {
            rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "mmd")).collect()
        }
        Err(e) => {
            eprintln!("{dir}: {e}");
            std::process::exit(2);
        }
    };
    charts.sort();
    let renderer = Renderer::new(Fonts::embedded());
    print!("{:<28}", "chart (flowbench/mmdc)");
    COLUMNS.iter().for_each(|(n, _)| print!("{n:>9}"));
    println!();
    let (mut ours_total, mut theirs_total) = ([0usize; 12], [0usize; 12]);
    let mut failed = false;
    for path in &charts {
        let name = path.file_stem().unwrap_or_default().to_string_lossy().to_string();
        let result = (|| -> Result<(Metrics, Metrics), String> {
            let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
            let chart = flowbench::mermaid::parse(&text).map_err(|e| format!("{e:?}"))?;
            let mut style = Style::default();
            apply_chart_config(&mut style, &chart.config);
            let out = renderer.svg(&chart, &style).map_err(|e| e.to_string())?;
            let ours = measure(&Drawing::from_layout(&chart, &out.geometry, style.curve)).0;
            let svg_path = path.with_extension("mmdc.svg");
            let svg = std::fs::read_to_string(&svg_path).map_err(|e| format!("{}: {e}", svg_path.display()))?;
            let theirs = measure(&mmdc_svg::read(&svg, &chart)?).0;
            Ok((ours, theirs))
        })();
        match result {
            Ok((ours, theirs)) => {
                print!("{name:<28}");
                for (k, (_, f)) in COLUMNS.iter().enumerate() {
                    let (a, b) = (f(&ours), f(&theirs));
                    ours_total[k] += a;
                    theirs_total[k] += b;
                    print!("{:>9}", format!("{a}/{b}"));
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
    if failed {
        std::process::exit(1);
    }
}
