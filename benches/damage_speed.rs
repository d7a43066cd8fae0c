//! What raster damage adds per image: each damage key alone and each `scan`
//! preset, on the Code-Vision-style anchors' PNGs at the default size
//! (scale 1), best of several runs. The budget is 20 ms per image.
//! Run: `cargo bench --bench damage_speed` (reads `../shared/anchors`, or
//! `$FLOWBENCH_SHARED/anchors`; the machine is shared, so re-run and take
//! the best).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use flowbench::render::damage::Damage;
use flowbench::render::pipeline::Renderer;
use flowbench::render::style::Style;

fn anchors() -> Option<PathBuf> {
    let shared = std::env::var_os("FLOWBENCH_SHARED").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("../shared"));
    let dir = shared.join("anchors/codevision-style");
    dir.is_dir().then_some(dir)
}

fn best_of(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let Some(dir) = anchors() else {
        eprintln!("skipping: no ../shared/anchors/codevision-style (set FLOWBENCH_SHARED)");
        return;
    };
    let renderer = Renderer::default();
    let style = Style::default();
    let mut pngs = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("anchors")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mmd"))
        .collect();
    files.sort();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("chart");
        let chart = flowbench::mermaid::parse(&text).expect("parses");
        let out = renderer.svg_for_png(&chart, &style).expect("drawn");
        pngs.push(renderer.png_of(&out, 1.0).expect("png"));
    }
    let cases: Vec<(&str, Damage)> = vec![
        ("greyscale", Damage { greyscale: true, ..Damage::default() }),
        ("paper 0.7", Damage { paper: 0.7, ..Damage::default() }),
        ("rotate 1.5", Damage { rotate: 1.5, ..Damage::default() }),
        ("perspective 0.012", Damage { perspective: 0.012, ..Damage::default() }),
        ("blur 0.8", Damage { blur: 0.8, ..Damage::default() }),
        ("noise 12", Damage { noise: 12.0, ..Damage::default() }),
        ("downscale 512", Damage { downscale: Some(512), ..Damage::default() }),
        ("jpeg 45", Damage { jpeg: Some(45), ..Damage::default() }),
        ("scan light", Damage::scan("light").expect("preset")),
        ("scan medium", Damage::scan("medium").expect("preset")),
        ("scan heavy", Damage::scan("heavy").expect("preset")),
    ];
    let px: u64 = pngs
        .iter()
        .map(|p| {
            let (w, h) =
                (u32::from_be_bytes(p[16..20].try_into().unwrap()), u32::from_be_bytes(p[20..24].try_into().unwrap()));
            u64::from(w) * u64::from(h)
        })
        .sum();
    println!("{} anchor PNGs at scale 1, {:.0} kpx on average", pngs.len(), px as f64 / pngs.len() as f64 / 1e3);
    println!("{:<20} {:>12}", "damage", "ms / image");
    for (name, d) in &cases {
        let t = best_of(3, || {
            for p in &pngs {
                d.apply(p).expect("damage");
            }
        });
        println!("{:<20} {:>12.1}", name, t.as_secs_f64() * 1e3 / pngs.len() as f64);
    }
}
