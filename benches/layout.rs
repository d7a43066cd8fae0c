//! Layout time for generated 100 / 1,000 / 10,000-node flowcharts (and the
//! large anchor charts), with the growth ratio next to E log E's.
//! Run: `cargo bench --bench layout` (best of several runs per size; the
//! machine is shared, so re-run and take the best).

use std::time::{Duration, Instant};

use flowbench::layout::{LayoutOptions, layout};
use flowbench::mermaid::{Direction, Edge, Flowchart, LabelType, Node, Shape};
use flowbench::text::Fonts;

/// A deterministic flowchart-like graph: a main chain with forward
/// branches, some back edges (loops), ~20 % diamonds with Yes/No labels.
fn generated(n: usize) -> Flowchart {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut rnd = move |m: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % m as u64) as usize
    };
    let mut c = Flowchart { direction: Direction::TB, ..Default::default() };
    for i in 0..n {
        let diamond = rnd(5) == 0;
        c.nodes.push(Node {
            id: format!("n{i}"),
            label: if diamond { format!("Check {i}?") } else { format!("Step {i} of the process") },
            label_type: LabelType::Text,
            shape: if diamond { Shape::Diam } else { Shape::Rect },
            classes: vec![],
            styles: vec![],
            click: None,
            extra: serde_json::Value::Null,
            span: Default::default(),
        });
    }
    let edge = |c: &mut Flowchart, a: usize, b: usize, label: Option<&str>| {
        c.edges.push(Edge {
            label: label.map(str::to_string),
            ..Edge::new(format!("L{}", c.edges.len()), format!("n{a}"), format!("n{b}"))
        });
    };
    for i in 0..n.saturating_sub(1) {
        if c.nodes[i].shape == Shape::Diam {
            edge(&mut c, i, i + 1, Some("Yes"));
            let j = (i + 2 + rnd(15)).min(n - 1);
            edge(&mut c, i, j, Some("No"));
        } else {
            edge(&mut c, i, i + 1, None);
        }
        if rnd(10) == 0 && i > 5 {
            let back = i - 1 - rnd(5);
            edge(&mut c, i, back, None);
        }
    }
    c
}

fn best_of(runs: usize, chart: &Flowchart, fonts: &Fonts) -> Duration {
    let opts = LayoutOptions::default();
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            let g = layout(chart, &opts, fonts).expect("layout");
            std::hint::black_box(&g);
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let fonts = Fonts::embedded();
    println!(
        "{:>8} {:>8} {:>12} {:>10} {:>12} {:>14}",
        "nodes", "edges", "layout (s)", "growth", "E log E gr.", "ns / E log E"
    );
    let mut prev: Option<(f64, f64)> = None;
    for (n, runs) in [(100, 10), (1_000, 5), (10_000, 2)] {
        let chart = generated(n);
        let e = chart.edges.len() as f64;
        let t = best_of(runs, &chart, &fonts).as_secs_f64();
        let elog = e * e.ln();
        let (growth, model) = prev.map_or((String::from("-"), String::from("-")), |(pt, pe)| {
            (format!("{:.1}x", t / pt), format!("{:.1}x", elog / pe))
        });
        // Time per unit of E log E: flat across sizes means E log E growth.
        let per = t * 1e9 / elog;
        println!("{n:>8} {:>8} {t:>12.4} {growth:>10} {model:>12} {per:>14.1}", chart.edges.len());
        prev = Some((t, elog));
    }
    // The anchor charts, parsed with the real front end, when present.
    let root = std::env::var_os("FLOWBENCH_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../shared").into());
    for name in ["random200", "grid200", "random1000"] {
        let path = root.join(format!("anchors/charts/{name}.mmd"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!("{name}: skipped ({} not found)", path.display());
            continue;
        };
        let popts = flowbench::mermaid::ParseOptions { max_edges: usize::MAX, ..Default::default() };
        match flowbench::mermaid::parse_with(&text, &popts) {
            Ok(chart) => {
                let t = best_of(5, &chart, &fonts).as_secs_f64();
                // Drawing size matters as much as time: PNG cost is per pixel.
                let g = layout(&chart, &LayoutOptions::default(), &fonts).expect("layout");
                let mpx = f64::from(g.width) * f64::from(g.height) / 1e6;
                println!(
                    "{name:>10}: {} nodes, {} edges, layout {t:.4} s, drawing {:.0} x {:.0} ({mpx:.1} Mpx)",
                    chart.nodes.len(),
                    chart.edges.len(),
                    g.width,
                    g.height
                );
            }
            Err(e) => println!("{name}: parse error {e}"),
        }
    }
}
