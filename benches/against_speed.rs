//! `check --against` per chart, the executed check included: each chart
//! of the faithfulness corpus's bank entries (faithful and wrong twin) is
//! compared with its solution and, when it reads as code, run on the
//! problem's tests in the sandbox; the 24 Code-Vision-style anchors (no
//! tests) are compared only. The sandbox is started once, before timing,
//! as `check` with several charts, `author`'s rounds and the corpus test
//! use it; its start is printed apart. Target: median ≤ 100 ms a chart.
//!
//! Run: `nice cargo bench --bench against_speed` (needs `flowbench env`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use flowbench::author::execute::{Execution, judge_settings, sandbox_config};
use flowbench::author::{Tests, check_against_with, read_program};
use flowbench::exec::LazyExecutor;
use flowbench::judge::problems_file::{LoadedProblem, parse_problem};
use flowbench::mermaid::parse;

/// (solution, chart, the problem when the chart has tests).
fn work(root: &Path) -> Vec<(String, String, Option<LoadedProblem>)> {
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("tests/faithfulness"))
        .expect("corpus")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let meta = std::fs::read_to_string(dir.join("entry.toml")).expect("entry.toml");
        let Some(name) = meta.lines().find_map(|l| l.strip_prefix("source = \"bank:")) else { continue };
        let problem_dir = root.join("problems").join(name.trim_end_matches('"'));
        let solution = std::fs::read_to_string(problem_dir.join("solution.py")).expect("solution");
        let problem = parse_problem(&std::fs::read_to_string(problem_dir.join("problem.json")).expect("problem"))
            .expect("problem.json");
        for chart in ["faithful.mmd", "wrong.mmd"] {
            let text = std::fs::read_to_string(dir.join(chart)).expect("chart");
            out.push((solution.clone(), text, Some(problem.clone())));
        }
    }
    let anchors = std::env::var_os("FLOWBENCH_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared"))
        .join("anchors/codevision-style");
    let mut charts: Vec<PathBuf> = std::fs::read_dir(&anchors)
        .map(|d| d.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "mmd")).collect())
        .unwrap_or_default();
    charts.sort();
    for chart in charts {
        let solution = std::fs::read_to_string(chart.with_extension("py")).expect("anchor solution");
        out.push((solution, std::fs::read_to_string(&chart).expect("chart"), None));
    }
    out
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = work(root);
    let sandbox = LazyExecutor::new(sandbox_config());
    let settings = judge_settings();
    let started = Instant::now();
    sandbox.get().expect("the sandbox starts (flowbench env)");
    let start_time = started.elapsed();
    let (mut times, mut executed) = (Vec::new(), 0);
    for (solution, chart, problem) in &work {
        let t = Instant::now();
        let program = read_program(solution, None).expect("solution reads");
        let chart = parse(chart).expect("chart parses");
        let tests = problem.as_ref().map(|problem| Tests { problem, settings: &settings, sandbox: &sandbox });
        let report = check_against_with(&program, &chart, tests.as_ref()).expect("sandbox runs");
        times.push(t.elapsed());
        executed += usize::from(matches!(report.execution, Some(Execution::Passed { .. } | Execution::Failed(_))));
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let n = times.len();
    println!(
        "check --against: {n} charts ({executed} run on their tests); median {:.1} ms, p90 {:.1} ms, slowest {:.1} ms a chart; sandbox start {:.0} ms once",
        ms(times[n / 2]),
        ms(times[n * 9 / 10]),
        ms(times[n - 1]),
        ms(start_time)
    );
}
