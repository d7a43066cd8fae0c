//! `flowbench render`: one chart to SVG/PNG, a batch in parallel, or one
//! chart in a sweep of styles. Failures are reported per file (with
//! `file:line:col` for syntax errors) without stopping the batch; the exit
//! code is 1 if any chart failed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use rayon::prelude::*;

use crate::mermaid::Flowchart;
use crate::progress::Progress as _;
use crate::render::pipeline::Renderer;
use crate::render::style::{self, StyleFile, SweepEntry};
use crate::text::Fonts;
use crate::timings;

/// Output format of batch renders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Svg,
    Png,
    /// JPEG at the style's `jpeg` quality (90 without one), its damage
    /// done before the one encoding.
    Jpg,
}

/// JPEG quality of a `.jpg` output whose style sets no `jpeg`.
const DEFAULT_JPEG_QUALITY: u8 = 90;

#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// Mermaid files (`.mmd`, `.mermaid`), model JSON files (`.json`, as
    /// printed by `flowbench parse`), or directories searched recursively for Mermaid files.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Output file for a single chart; `.svg`, `.png` or `.jpg` (`-` writes SVG to stdout).
    #[arg(short = 'o', long, conflicts_with = "out_dir")]
    output: Option<PathBuf>,
    /// Output directory for a batch or a sweep (files keep the inputs' relative names; same-named
    /// inputs from different directories go under as many of their parent directories as tells them apart).
    #[arg(short = 'O', long = "out-dir")]
    out_dir: Option<PathBuf>,
    /// Format of files written with `-O`; without it, PNG, or JPEG for a style whose damage ends in
    /// the JPEG step (`scan`, `jpeg`): that step's file, as a camera writes it.
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Palette: default, neutral, dark or forest (overrides the chart's own config).
    #[arg(long)]
    theme: Option<String>,
    /// TOML style file (colours, stroke widths, font_size, node_spacing, rank_spacing, curve…).
    #[arg(long)]
    style: Option<PathBuf>,
    /// Font file (TTF/OTF) used to measure and draw labels instead of the embedded Liberation Sans.
    #[arg(long)]
    font: Option<PathBuf>,
    /// Override every chart's direction: TB, TD, BT, LR or RL.
    #[arg(long)]
    direction: Option<String>,
    /// Edge curve: basis, linear, step, stepBefore, stepAfter, catmullRom.
    #[arg(long)]
    curve: Option<String>,
    /// Edge routing: spline (mermaid's curves) or orthogonal (right angles).
    #[arg(long)]
    routing: Option<String>,
    /// PNG pixels per SVG unit.
    #[arg(long, default_value_t = 1.0)]
    scale: f32,
    /// Page colour (CSS colour) or `transparent` [default: the theme's: white, or #333 for dark].
    #[arg(long)]
    background: Option<String>,
    /// Render the input in every style of this TOML file ([[style]] tables and/or a [grid]) into `-O DIR`.
    #[arg(long, requires = "out_dir")]
    sweep: Option<PathBuf>,
    /// Print one JSON line of layout metrics per chart on stdout.
    #[arg(long)]
    metrics: bool,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    jobs: Option<usize>,
    /// Refuse PNGs with more pixels than this (memory guard).
    #[arg(long, default_value_t = crate::render::png::DEFAULT_MAX_PIXELS)]
    max_pixels: u64,
    /// Refuse charts with more edges than this. mermaid stops at 500; render
    /// allows generated charts far beyond that by default.
    #[arg(long, default_value_t = DEFAULT_MAX_EDGES)]
    max_edges: usize,
    /// Refuse charts with more nodes than this (time guard).
    #[arg(long, default_value_t = crate::layout::DEFAULT_MAX_NODES)]
    max_nodes: usize,
}

/// Render's default edge limit: enough for 10,000-node generated charts.
pub const DEFAULT_MAX_EDGES: usize = 100_000;

/// One file to produce.
struct Job {
    input: PathBuf,
    output: Option<PathBuf>,
    format: Format,
    sweep: Option<SweepEntry>,
}

pub fn run(args: RenderArgs) -> anyhow::Result<ExitCode> {
    let t_start = std::time::Instant::now();
    let cli_style = StyleFile {
        theme: args.theme.clone(),
        background: args.background.clone(),
        curve: args.curve.clone(),
        routing: args.routing.clone(),
        direction: args.direction.clone(),
        ..StyleFile::default()
    };
    // Name the flag in the error (`--background: `x` is not a colour`).
    cli_style.apply(&mut style::Style::default()).map_err(|e| anyhow::anyhow!("--{e}"))?;
    let file_style = args.style.as_deref().map(StyleFile::load).transpose()?;
    let fonts = timings::time("fonts", || match &args.font {
        Some(p) => {
            let bytes = std::fs::read(p).with_context(|| format!("{}: cannot read font", p.display()))?;
            Fonts::with_user_font(bytes).with_context(|| format!("{}", p.display()))
        }
        None => Ok(Fonts::embedded()),
    })?;
    let mut renderer = Renderer::new(fonts);
    renderer.max_nodes = args.max_nodes;
    renderer.max_pixels = args.max_pixels;
    let jobs = plan(&args, &|sweep| natural_format(file_style.as_ref(), sweep, &cli_style))?;

    let ctx = Ctx { renderer: &renderer, file_style: file_style.as_ref(), cli_style: &cli_style, args: &args };
    let results: Vec<Result<Option<String>, String>> = if jobs.len() == 1 && args.jobs.is_none() {
        // One chart: no pool of our own and no progress bar; starting worker
        // threads costs more than a small chart takes to render (a large
        // PNG still rasterises in parallel on rayon's global pool).
        jobs.iter().map(|job| ctx.render(job)).collect()
    } else {
        render_batch(&ctx, &jobs, args.jobs)?
    };

    let mut failed = 0usize;
    for r in &results {
        match r {
            Ok(Some(metrics)) => println!("{metrics}"),
            Ok(None) => {}
            Err(e) => {
                failed += 1;
                eprintln!("error: {e}");
            }
        }
    }
    if let (Some(sweep), Some(dir)) = (&args.sweep, &args.out_dir) {
        write_sweep_index(dir, &jobs, sweep)?;
    }
    if jobs.len() > 1 {
        eprintln!("rendered {} of {} charts", jobs.len() - failed, jobs.len());
    }
    timings::report("total", t_start);
    Ok(if failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Renders jobs in parallel on a pool of `threads` (`-j`) with a progress
/// bar, results in job order.
fn render_batch(
    ctx: &Ctx,
    jobs: &[Job],
    threads: Option<usize>,
) -> anyhow::Result<Vec<Result<Option<String>, String>>> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.unwrap_or(0)).build()?;
    let bar = super::progress::bar(jobs.len() as u64, "charts", jobs.len() < 2);
    let results = pool.install(|| {
        jobs.par_iter()
            .map(|job| {
                let r = ctx.render(job);
                bar.advance();
                r
            })
            .collect()
    });
    bar.finish();
    Ok(results)
}

struct Ctx<'a> {
    renderer: &'a Renderer,
    file_style: Option<&'a StyleFile>,
    cli_style: &'a StyleFile,
    args: &'a RenderArgs,
}

impl Ctx<'_> {
    /// Render one job; the error string already names the file.
    fn render(&self, job: &Job) -> Result<Option<String>, String> {
        let name = job.input.display().to_string();
        let chart = timings::time("parse", || load_chart(&job.input, self.args.max_edges))?;
        let mut st = style::Style::default();
        style::apply_chart_config(&mut st, &chart.config);
        let layers = [self.file_style, job.sweep.as_ref().map(|s| &s.style), Some(self.cli_style)];
        style::apply_layers(&mut st, &layers).map_err(|e| format!("{name}: {e}"))?;
        let to_png_file = matches!(job.format, Format::Png | Format::Jpg)
            && job.output.as_ref().is_some_and(|p| p.as_os_str() != "-");
        if to_png_file {
            self.renderer.check_png(&chart, &st, self.args.scale).map_err(|e| format!("{name}: {e}"))?;
        }
        let out = if to_png_file { self.renderer.svg_for_png(&chart, &st) } else { self.renderer.svg(&chart, &st) };
        let out = out.map_err(|e| format!("{name}: {e}"))?;
        match (&job.output, job.format) {
            (None, _) => {}
            (Some(p), _) if p.as_os_str() == "-" => print!("{}", out.svg),
            (Some(p), Format::Svg) => write(p, out.svg.as_bytes())?,
            (Some(p), Format::Png) => {
                let png = self.renderer.png_of(&out, self.args.scale).map_err(|e| format!("{name}: {e}"))?;
                timings::time("write", || write(p, &png))?;
            }
            (Some(p), Format::Jpg) => {
                let quality = out.damage.jpeg.unwrap_or(DEFAULT_JPEG_QUALITY);
                let jpg = self.renderer.jpeg_of(&out, self.args.scale, quality).map_err(|e| format!("{name}: {e}"))?;
                timings::time("write", || write(p, &jpg))?;
            }
        }
        if !self.args.metrics {
            return Ok(None);
        }
        let m = crate::layout::metrics::metrics_drawn(&chart, &out.geometry, st.curve);
        let mut v = serde_json::to_value(&m).map_err(|e| format!("{name}: {e}"))?;
        if let Some(obj) = v.as_object_mut() {
            obj.insert("file".into(), serde_json::Value::String(name));
            if let Some(s) = &job.sweep {
                obj.insert("style".into(), serde_json::Value::String(s.name.clone()));
            }
        }
        Ok(Some(v.to_string()))
    }
}

/// Atomic (temp file + rename): a render killed while writing leaves the
/// previous image or none, never a truncated one.
fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    crate::outfile::write_atomic(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Read a chart: Mermaid text is parsed (errors as `file:line:col: …`),
/// `.json` is taken as an already-parsed model.
pub fn load_chart(path: &Path, max_edges: usize) -> Result<Flowchart, String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    if path.extension().is_some_and(|e| e == "json") {
        return serde_json::from_str(&text).map_err(|e| format!("{name}:{}:{}: {e}", e.line(), e.column()));
    }
    let opts = crate::mermaid::ParseOptions { max_edges, ..Default::default() };
    crate::mermaid::parse_with(&text, &opts)
        .map_err(|e| format!("{name}:{}:{}: {}", e.span.line, e.span.col, e.message))
}

/// Whether a file found in a directory is a chart. Only Mermaid files: a
/// problem directory's `problem.json` is no model, so model JSON is taken
/// only when named on the command line.
fn is_mermaid(p: &Path) -> bool {
    p.extension().and_then(|e| e.to_str()).is_some_and(|e| matches!(e, "mmd" | "mermaid"))
}

/// Inputs expanded (directories recursively, sorted) as `(file, name
/// relative to the input root)`.
fn expand(inputs: &[PathBuf]) -> anyhow::Result<Vec<(PathBuf, PathBuf)>> {
    let mut out = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut stack = vec![input.clone()];
            let mut found = Vec::new();
            while let Some(dir) = stack.pop() {
                for entry in std::fs::read_dir(&dir).with_context(|| format!("{}", dir.display()))? {
                    let p = entry?.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if is_mermaid(&p) {
                        found.push(p);
                    }
                }
            }
            found.sort();
            for p in found {
                let rel = p.strip_prefix(input).map(Path::to_path_buf).unwrap_or_else(|_| p.clone());
                out.push((p, rel));
            }
        } else if input.exists() {
            let rel = PathBuf::from(input.file_name().unwrap_or(input.as_os_str()));
            out.push((input.clone(), rel));
        } else {
            bail!("{}: no such file or directory", input.display());
        }
    }
    Ok(out)
}

/// The format a chart is written in without `--format`: its damage's
/// ([`crate::render::damage::Damage::format`]: JPEG when it ends in the JPEG
/// step), with the sweep style `sweep` between the style file and the flags.
/// (A chart's own config sets no damage; a bad layer is PNG here and its
/// error is reported when the chart is drawn.)
fn natural_format(file: Option<&StyleFile>, sweep: Option<&StyleFile>, cli: &StyleFile) -> Format {
    let mut st = style::Style::default();
    match style::apply_layers(&mut st, &[file, sweep, Some(cli)]).map(|()| st.damage.format()) {
        Ok(crate::render::damage::RasterFormat::Jpeg) => Format::Jpg,
        _ => Format::Png,
    }
}

/// The jobs, refused when an output would overwrite an input or two jobs
/// would still write the same file (the same chart given twice, `x.mmd`
/// beside `x.mermaid`, two sweep styles of one name).
/// `natural` gives the format of a `-O` file without `--format`, by the
/// sweep style it is drawn in (if any).
fn plan(args: &RenderArgs, natural: &dyn Fn(Option<&StyleFile>) -> Format) -> anyhow::Result<Vec<Job>> {
    let jobs = plan_jobs(args, natural)?;
    let inputs: Vec<&Path> = jobs
        .iter()
        .map(|j| j.input.as_path())
        .chain(args.style.as_deref())
        .chain(args.sweep.as_deref())
        .chain(args.font.as_deref())
        .collect();
    let mut seen: std::collections::HashMap<&Path, &Job> = std::collections::HashMap::new();
    for job in &jobs {
        let Some(out) = &job.output else { continue };
        crate::outfile::refuse_overwrite("output", out, &inputs)?;
        if let Some(other) = seen.insert(out.as_path(), job) {
            bail!(
                "{} and {} would both render to {}; give each chart once, rename one, or render them separately",
                other.describe(),
                job.describe(),
                out.display()
            );
        }
    }
    Ok(jobs)
}

impl Job {
    /// The input, and the sweep style when there is one.
    fn describe(&self) -> String {
        match &self.sweep {
            Some(s) => format!("{} (style {})", self.input.display(), s.name),
            None => self.input.display().to_string(),
        }
    }
}

/// The format `-o OUT` names by its extension (`-`: SVG on stdout).
fn output_format(out: &Path) -> anyhow::Result<Format> {
    if out.as_os_str() == "-" {
        return Ok(Format::Svg);
    }
    Ok(match out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("svg") => Format::Svg,
        Some("png") => Format::Png,
        Some("jpg" | "jpeg") => Format::Jpg,
        _ => bail!("{}: output must end in .svg, .png or .jpg", out.display()),
    })
}

fn plan_jobs(args: &RenderArgs, natural: &dyn Fn(Option<&StyleFile>) -> Format) -> anyhow::Result<Vec<Job>> {
    let files = expand(&args.inputs)?;
    if files.is_empty() {
        bail!("no charts found (looked for .mmd and .mermaid files)");
    }
    if let Some(out) = &args.output {
        if files.len() != 1 {
            bail!("-o takes exactly one input; use -O DIR for {} charts", files.len());
        }
        let format = output_format(out)?;
        return Ok(vec![Job { input: files[0].0.clone(), output: Some(out.clone()), format, sweep: None }]);
    }
    let format = |sweep: Option<&SweepEntry>| args.format.unwrap_or_else(|| natural(sweep.map(|e| &e.style)));
    let ext = |f: Format| match f {
        Format::Svg => "svg",
        Format::Png => "png",
        Format::Jpg => "jpg",
    };
    let Some(dir) = &args.out_dir else {
        if args.metrics {
            return Ok(files
                .into_iter()
                .map(|(input, _)| Job { input, output: None, format: format(None), sweep: None })
                .collect());
        }
        bail!("give -o OUT.svg|png|jpg for one chart or -O DIR for several");
    };
    // Same-named inputs from different directories keep apart, in both
    // modes: each output is named by as much of its input's path as it takes.
    let names = crate::outfile::distinct_names(&files);
    let inputs = files.into_iter().map(|(input, _)| input).zip(names);
    if let Some(sweep) = &args.sweep {
        let text = std::fs::read_to_string(sweep).with_context(|| format!("{}", sweep.display()))?;
        let entries = style::parse_sweep(&text).map_err(|e| anyhow::anyhow!("{}: {e}", sweep.display()))?;
        let mut jobs = Vec::new();
        for (input, name) in inputs {
            for e in &entries {
                let f = format(Some(e));
                let out = dir.join(suffixed(&name, &format!("{}.{}", e.name, ext(f))));
                jobs.push(Job { input: input.clone(), output: Some(out), format: f, sweep: Some(e.clone()) });
            }
        }
        return Ok(jobs);
    }
    let f = format(None);
    let job = |(input, name): (PathBuf, PathBuf)| Job {
        output: Some(dir.join(suffixed(&name, ext(f)))),
        input,
        format: f,
        sweep: None,
    };
    Ok(inputs.map(job).collect())
}

/// `name.suffix`, kept whole where `with_extension` would replace a dot in
/// the name (`v1.2` → `v1.2.png`, not `v1.png`).
fn suffixed(name: &Path, suffix: &str) -> PathBuf {
    let mut s = name.as_os_str().to_owned();
    s.push(".");
    s.push(suffix);
    PathBuf::from(s)
}

/// `index.html` next to a sweep's images: one grid per chart, each cell
/// captioned with its style, for eyeballing robustness at a glance.
fn write_sweep_index(dir: &Path, jobs: &[Job], sweep: &Path) -> anyhow::Result<()> {
    use std::fmt::Write as _;
    let mut html = String::from(
        "<!doctype html><meta charset=utf-8><title>flowbench sweep</title><style>body{font-family:sans-serif}.g{display:flex;flex-wrap:wrap;gap:12px}figure{margin:0;border:1px solid #ccc;padding:4px}img{max-width:360px;display:block}</style>\n",
    );
    let _ = writeln!(html, "<h1>Sweep {}</h1>", crate::render::xml::esc(&sweep.display().to_string()));
    let mut current: Option<&Path> = None;
    for job in jobs {
        if current != Some(job.input.as_path()) {
            if current.is_some() {
                html.push_str("</div>\n");
            }
            let _ = write!(html, "<h2>{}</h2><div class=g>", crate::render::xml::esc(&job.input.display().to_string()));
            current = Some(&job.input);
        }
        let (Some(out), Some(entry)) = (&job.output, &job.sweep) else { continue };
        let rel = out.strip_prefix(dir).unwrap_or(out).display().to_string();
        let _ = write!(
            html,
            "<figure><img src=\"{0}\"><figcaption>{1}</figcaption></figure>",
            crate::render::xml::esc(&rel),
            crate::render::xml::esc(&entry.name)
        );
    }
    html.push_str("</div>\n");
    crate::outfile::write_atomic(&dir.join("index.html"), html.as_bytes())
        .with_context(|| format!("{}", dir.display()))?;
    Ok(())
}
