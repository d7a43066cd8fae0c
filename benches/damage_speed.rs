//! What raster damage adds per image: each damage key alone and each `scan`
//! preset, on the Code-Vision-style anchors' PNGs at the default size
//! (scale 1), best of several runs: what the damage adds to drawing and
//! encoding the undamaged PNG, written as `build` writes it (a JPEG when
//! the damage ends in the `jpeg` step, else a PNG) and as a PNG keeping the
//! JPEG's artefacts (`render -o x.png`), and its steps alone. The budget is
//! 20 ms per image, as written.
//! Run: `cargo bench --bench damage_speed` (reads `../shared/anchors`, or
//! `$FLOWBENCH_SHARED/anchors`; the machine is shared, so re-run and take
//! the best). `cargo bench --bench damage_speed -- scan jpeg` runs only the
//! rows whose name contains one of the words (and skips the blur table).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use flowbench::render::damage::{Damage, RasterFormat};
use flowbench::render::pipeline::{Output, Renderer};
use flowbench::render::style::Style;
use image::RgbImage;

fn anchors() -> Option<PathBuf> {
    let shared = std::env::var_os("FLOWBENCH_SHARED").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("../shared"));
    let dir = shared.join("anchors/codevision-style");
    dir.is_dir().then_some(dir)
}

/// Process CPU time: on a machine shared with other builds, wall time
/// counts the waits for a core; CPU time counts the work.
fn cpu_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec into `ts`, which lives here.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Best of `runs` runs of `f`: (wall time, CPU time).
fn best_of(runs: usize, mut f: impl FnMut()) -> (Duration, Duration) {
    (0..runs)
        .map(|_| {
            let (t, c) = (Instant::now(), cpu_time());
            f();
            (t.elapsed(), cpu_time() - c)
        })
        .fold((Duration::MAX, Duration::MAX), |(w, c), (tw, tc)| (w.min(tw), c.min(tc)))
}

fn main() {
    let Some(dir) = anchors() else {
        eprintln!("skipping: no ../shared/anchors/codevision-style (set FLOWBENCH_SHARED)");
        return;
    };
    let renderer = Renderer::default();
    let style = Style::default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("anchors")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mmd"))
        .collect();
    files.sort();
    let outs: Vec<Output> = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).expect("chart");
            let chart = flowbench::mermaid::parse(&text).expect("parses");
            renderer.svg_for_png(&chart, &style).expect("drawn")
        })
        .collect();
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
    // Words after `--` pick rows; cargo passes its own `--bench` flag too.
    let filters: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let cases: Vec<(&str, Damage)> = cases
        .into_iter()
        .filter(|(name, _)| filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str())))
        .collect();
    let n = outs.len() as f64;
    let per_image = |t: Duration| t.as_secs_f64() * 1e3 / n;
    let clean = best_of(3, || {
        for o in &outs {
            renderer.png_of(o, 1.0).expect("png");
        }
    });
    let px: u64 = outs.iter().map(|o| (o.geometry.width.ceil() * o.geometry.height.ceil()) as u64).sum();
    println!("{} anchors at scale 1, {:.0} kpx on average", outs.len(), px as f64 / n / 1e3);
    println!("undamaged PNG (draw + encode): {:.1} ms / image CPU, {:.1} wall", per_image(clean.1), per_image(clean.0));
    println!("ms per image; CPU time (wall time, which counts waits on a shared machine)");
    println!("{:<20} {:>22} {:>22} {:>22}", "damage", "adds, as written", "adds, as PNG", "damage steps alone");
    for (name, d) in &cases {
        let damaged: Vec<Output> = outs.iter().map(|o| Output { damage: d.clone(), ..o.clone() }).collect();
        let written = best_of(3, || {
            for o in &damaged {
                renderer.raster_of(o, 1.0).expect("image");
            }
        });
        let as_png = match d.format() {
            RasterFormat::Png => written,
            RasterFormat::Jpeg => best_of(3, || {
                for o in &damaged {
                    renderer.png_of(o, 1.0).expect("png");
                }
            }),
        };
        // The damage steps alone, on pixels drawn beforehand.
        let drawn: Vec<RgbImage> = outs.iter().map(|o| raster(&renderer, o, d)).collect();
        let steps = best_of(3, || {
            for img in &drawn {
                d.apply(img.clone()).expect("damage");
            }
        });
        let cell = |cpu: Duration, wall: Duration| format!("{:.1} ({:.1})", per_image(cpu), per_image(wall));
        let added = |(wall, cpu): (Duration, Duration)| cell(cpu.saturating_sub(clean.1), wall.saturating_sub(clean.0));
        println!(
            "{:<20} {:>22} {:>22} {:>22}",
            name,
            format!("{} {}", added(written), d.format().extension()),
            added(as_png),
            cell(steps.1, steps.0)
        );
    }
    if filters.is_empty() {
        let drawn: Vec<RgbImage> = outs.iter().map(|o| raster(&renderer, o, &Damage::default())).collect();
        blur_alternatives(&drawn, per_image);
    }
}

/// The blur options measured against each other on the same drawn pixels:
/// flowbench's (the `blur` key: integer separable Gaussian to 3σ, flat
/// blocks skipped), `image`'s Gaussian (integer separable; its kernel size
/// follows OpenCV's rule, 3 taps up to σ 0.8), `image`'s `fast_blur` (three
/// box passes), imageproc's `gaussian_blur_f32` (f32 separable).
fn blur_alternatives(drawn: &[RgbImage], per_image: impl Fn(Duration) -> f64) {
    println!("blur alone, ms per image CPU (wall)");
    println!(
        "{:<6} {:>16} {:>16} {:>16} {:>20}",
        "sigma", "flowbench", "image blur", "image fast_blur", "imageproc f32"
    );
    for sigma in [0.4f32, 0.8, 2.0] {
        let ours = Damage { blur: sigma, ..Damage::default() };
        let timed = |f: &dyn Fn(&RgbImage)| {
            let (wall, cpu) = best_of(3, || drawn.iter().for_each(f));
            format!("{:.1} ({:.1})", per_image(cpu), per_image(wall))
        };
        let flowbench = timed(&|img| drop(ours.apply(img.clone()).expect("blur")));
        let image_blur = timed(&|img| drop(image::DynamicImage::ImageRgb8(img.clone()).blur(sigma)));
        let fast = timed(&|img| drop(image::imageops::fast_blur(img, sigma)));
        let f32_blur = timed(&|img| drop(imageproc::filter::gaussian_blur_f32(img, sigma)));
        println!("{sigma:<6} {flowbench:>16} {image_blur:>16} {fast:>16} {f32_blur:>20}");
    }
}

/// `o` drawn as RGB at the scale `d` draws it.
fn raster(renderer: &Renderer, o: &Output, d: &Damage) -> RgbImage {
    let none = Output { damage: Damage { downscale: d.downscale, ..Damage::default() }, ..o.clone() };
    let bytes = renderer.png_of(&none, 1.0).expect("png");
    image::load_from_memory(&bytes).expect("decode").into_rgb8()
}
