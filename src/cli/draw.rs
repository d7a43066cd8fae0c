//! `flowbench draw solution.py…`: draw reference solutions' flowcharts.
//! Several solutions are read by one `python3` per thread (its start-up is
//! most of the cost of reading one), each chart written to `-O DIR`.
//!
//! Exit codes: 0 written, 2 an unreadable solution (syntax error, no
//! function; the others are still drawn).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;

use super::choices::Detail;
use crate::author::{Program, ReadError, draw, read_programs};

use super::mmd_io::{read_source, write_source};

#[derive(Debug, clap::Args)]
pub struct DrawArgs {
    /// Python solutions; `-` reads standard input.
    #[arg(required = true)]
    pub solutions: Vec<PathBuf>,
    /// Function to draw (`name` or `Class.name`) [default: the first
    /// `Solution` method, else the last top-level function].
    #[arg(long)]
    pub entry: Option<String>,
    /// How many straight-line statements share a box (`high`: one each,
    /// the form `chart2py` reads back exactly).
    #[arg(long, value_enum, default_value_t = Detail::Medium)]
    pub detail: Detail,
    /// Write the chart here instead of standard output (one solution).
    #[arg(short, long, conflicts_with = "out_dir")]
    pub output: Option<PathBuf>,
    /// Write each chart to DIR/<solution stem>.mmd (several solutions).
    #[arg(short = 'O', long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Python processes reading solutions at once [default: the cores].
    #[arg(short = 'j', long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
}

pub fn run(args: DrawArgs) -> anyhow::Result<ExitCode> {
    if args.solutions.len() > 1 && args.out_dir.is_none() {
        anyhow::bail!("{} solutions: give -O DIR for their charts", args.solutions.len());
    }
    // A chart is named after its solution's file, or, when those names
    // collide (a bank's `*/solution.py`), after the solution's directory.
    let stem = |s: &Path| Path::new(s.file_stem().unwrap_or(s.as_os_str())).to_path_buf();
    let parent = |s: &Path| {
        let dir = s
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        let dir = dir.canonicalize().unwrap_or(dir);
        dir.file_name().map(PathBuf::from).unwrap_or_else(|| stem(s))
    };
    let stems: Vec<PathBuf> = args.solutions.iter().map(|s| stem(s)).collect();
    let unique = stems.iter().collect::<std::collections::HashSet<_>>().len() == stems.len();
    let targets: Vec<Option<PathBuf>> = args
        .solutions
        .iter()
        .zip(&stems)
        .map(|(s, name)| match &args.out_dir {
            Some(dir) => Some(dir.join(if unique { name.clone() } else { parent(s) }).with_extension("mmd")),
            None => args.output.clone(),
        })
        .collect();
    let inputs: Vec<&Path> = args.solutions.iter().map(PathBuf::as_path).collect();
    for target in targets.iter().flatten() {
        crate::outfile::refuse_overwrite("the chart", target, &inputs)?;
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = targets.iter().flatten().find(|t| !seen.insert(t.as_path())) {
        anyhow::bail!("two solutions would both be drawn to {} (same file name)", dup.display());
    }
    let sources = args.solutions.iter().map(|p| read_source(p)).collect::<anyhow::Result<Vec<String>>>()?;
    let jobs = args.jobs.map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), usize::from);
    let programs = read_in_parallel(&sources, args.entry.as_deref(), jobs)?;
    let mut failed = 0;
    for ((path, target), program) in args.solutions.iter().zip(&targets).zip(programs) {
        let name = path.display().to_string();
        let program = match program {
            Ok(p) => p,
            Err(e) => {
                let at = if e.line > 0 { format!(":{}", e.line) } else { String::new() };
                eprintln!("error: {name}{at}: {}", e.message);
                failed += 1;
                continue;
            }
        };
        let text = crate::mermaid::fmt::format(&draw(&program, args.detail.into()).chart);
        match target {
            Some(out) => write_source(out, &text).with_context(|| format!("writing the chart of {name}"))?,
            None => print!("{text}"),
        }
    }
    Ok(if failed > 0 { ExitCode::from(2) } else { ExitCode::SUCCESS })
}

/// Reads the sources in `jobs` contiguous chunks, one python3 each.
fn read_in_parallel(
    sources: &[String],
    entry: Option<&str>,
    jobs: usize,
) -> anyhow::Result<Vec<Result<Program, ReadError>>> {
    let all: Vec<(String, Option<String>)> = sources.iter().map(|s| (s.clone(), entry.map(str::to_owned))).collect();
    let chunk = all.len().div_ceil(jobs.clamp(1, all.len().max(1))).max(1);
    let results: Vec<Result<Vec<Result<Program, ReadError>>, ReadError>> = std::thread::scope(|scope| {
        all.chunks(chunk)
            .map(|c| scope.spawn(move || read_programs(c)))
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| Err(ReadError { message: "the reader thread panicked".into(), line: 0 }))
            })
            .collect()
    });
    let mut out = Vec::with_capacity(all.len());
    for r in results {
        out.extend(r.map_err(|e| anyhow::anyhow!("{e}"))?);
    }
    Ok(out)
}
