//! `flowbench tests score --labelled FILE`: each suite judged by programs
//! labelled correct or wrong, its TPR and TNR per problem and overall.
//! Wiring only: the rates are `judge::labelled`'s, the verdicts the
//! judge's (native mode, CPU-time limits, numbers coerced, as the
//! yardstick's re-judge runs them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;

use crate::exec::{ExecConfig, LazyExecutor};
use crate::judge::labelled::{Misjudged, Rates, label_of, rate};
use crate::judge::legacy::CODEVISION_PRELUDE;
use crate::judge::native::TimePolicy;
use crate::judge::problems_file::parse_problems;
use crate::judge::run::{Clock, JudgeSettings, Mode};
use crate::judge::samples::{SampleOptions, load_samples};
use crate::judge::summary::Counting;
use crate::testgen::tests_file::{self, TESTS};

/// What `--labelled` needs from `tests score`'s options.
pub struct Labelled<'a> {
    pub file: &'a Path,
    pub dirs: &'a [PathBuf],
    /// The suites, by name (`tests.jsonl`, `problem.json`, or a path).
    pub suites: &'a [String],
    pub json: bool,
    pub jobs: Option<usize>,
    pub counting: Counting,
}

/// Scores every suite by the labelled programs; prints per problem and
/// overall rates, then each program a suite judged against its label.
pub fn run(l: Labelled) -> anyhow::Result<ExitCode> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = l.jobs.unwrap_or(cores).max(1);
    let mut cfg = ExecConfig {
        workers,
        human_eval_compat: true,
        coerce_numbers: true,
        stop_after_timeout: true,
        ..ExecConfig::default()
    }
    .with_interpreter(None, None);
    cfg.prelude = CODEVISION_PRELUDE.to_string();
    let sandbox = LazyExecutor::new(cfg);
    let settings = JudgeSettings {
        mode: Mode::Native,
        strict_types: false,
        legacy_limit: Duration::from_secs(3),
        time: TimePolicy { default: Duration::from_secs(3), floor: Duration::from_secs(1), factor: 4.0 },
        clock: Clock::Cpu,
    };
    let mut unlabelled = 0;
    for suite in l.suites {
        let (lines, missing) = problems_of(l.dirs, suite);
        for m in &missing {
            eprintln!("warning: {m}");
        }
        let (problems, diags) = parse_problems(Path::new(suite), &lines.join("\n"));
        for d in &diags {
            eprintln!("warning: {d}");
        }
        let opts = SampleOptions { extract: Default::default(), prefer_response: false };
        let (samples, sample_diags) = load_samples(&[l.file.to_path_buf()], &problems, opts)?;
        let mut labelled = Vec::new();
        for s in samples {
            match label_of(&s) {
                Ok(correct) => labelled.push((s, correct)),
                Err(e) => {
                    unlabelled += 1;
                    eprintln!("warning: {e}");
                }
            }
        }
        if suite == &l.suites[0] {
            for d in &sample_diags {
                eprintln!("warning: {d}");
            }
        }
        let (per_task, misjudged) = rate(&problems, &labelled, &settings, &sandbox, workers, l.counting);
        print!("{}", report(suite, &per_task, &misjudged, l.json));
    }
    Ok(if unlabelled == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// One native problem line per directory for `suite` (its problem.json with
/// the suite's tests: a tests.jsonl's shipped ones, each with its purpose),
/// and why a directory has none.
fn problems_of(dirs: &[PathBuf], suite: &str) -> (Vec<String>, Vec<String>) {
    let mut lines = Vec::new();
    let mut missing = Vec::new();
    for dir in dirs {
        match problem_line(dir, suite) {
            Ok(line) => lines.push(line),
            Err(e) => missing.push(format!("{}: {e:#}", dir.display())),
        }
    }
    (lines, missing)
}

fn problem_line(dir: &Path, suite: &str) -> anyhow::Result<String> {
    let path = dir.join("problem.json");
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let mut problem: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
    let given = Path::new(suite);
    let tests_path = if given.is_relative() && !given.exists() { dir.join(given) } else { given.to_path_buf() };
    if tests_path.file_name().is_some_and(|n| n == TESTS) {
        let (_, tests) = tests_file::read(&tests_path)?;
        let shipped: Vec<_> = tests.into_iter().filter(|t| t.shipped).collect();
        let cases: Vec<serde_json::Value> = shipped
            .iter()
            .map(|t| {
                let mut case = serde_json::json!({"args": t.args, "expected": t.expected, "category": t.category});
                if let Some(w) = &t.widened {
                    case["widened"] = w.clone().into();
                }
                case
            })
            .collect();
        let slowest = shipped.iter().map(|t| t.reference_time_s).fold(0.0, f64::max);
        problem["tests"] = cases.into();
        problem["reference_time_s"] = slowest.into();
    }
    Ok(problem.to_string())
}

fn report(suite: &str, per_task: &BTreeMap<String, Rates>, misjudged: &[Misjudged], json: bool) -> String {
    let pct = |r: Option<f64>| r.map_or_else(|| "—".to_string(), |r| format!("{:.1} %", 100.0 * r));
    let mut total = Rates::default();
    let mut out = String::new();
    for (task, r) in per_task {
        total.add(r);
        if json {
            out += &format!(
                "{}\n",
                serde_json::json!({"problem": task, "tests": suite, "tpr": r.tpr(), "tnr": r.tnr(), "rates": r})
            );
        } else {
            out += &format!(
                "{task} ({suite}): TPR {} ({} of {} correct accepted), TNR {} ({} of {} wrong rejected)\n",
                pct(r.tpr()),
                r.correct_accepted,
                r.correct,
                pct(r.tnr()),
                r.wrong_rejected,
                r.wrong
            );
        }
    }
    if json {
        out += &format!(
            "{}\n",
            serde_json::json!({"overall": true, "tests": suite, "problems": per_task.len(), "tpr": total.tpr(), "tnr": total.tnr(), "rates": total, "misjudged": misjudged})
        );
    } else {
        out += &format!(
            "overall ({suite}) over {} problems: TPR {} ({} of {} correct accepted), TNR {} ({} of {} wrong rejected){}\n",
            per_task.len(),
            pct(total.tpr()),
            total.correct_accepted,
            total.correct,
            pct(total.tnr()),
            total.wrong_rejected,
            total.wrong,
            if total.unjudged > 0 { format!("; {} not judged", total.unjudged) } else { String::new() }
        );
        for m in misjudged {
            out += &format!("  {} {} labelled {}: {}\n", m.task_id, m.sample_key, m.label, m.result);
        }
    }
    out
}
