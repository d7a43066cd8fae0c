//! Whole-program judging speed: 1,000 stdio runs of a trivial Python program
//! (100 samples × 10 tests of "print twice the number read"), judged by the
//! library as `flowbench judge` does (`judge_all` on an executor with one
//! worker per core). The target is ≤ 10 s on the project's 2-core machine;
//! the figure printed excludes the workers' start-up, which is measured and
//! printed on its own.
//!
//! Run: `nice cargo bench --bench stdio_speed` (or `scripts/bench-stdio.sh`
//! for the command line end to end).

use std::path::Path;
use std::time::{Duration, Instant};

use flowbench::exec::{ExecConfig, Executor};
use flowbench::judge::native::TimePolicy;
use flowbench::judge::problems_file::parse_problems;
use flowbench::judge::run::{Clock, JudgeSettings, Mode, judge_all};
use flowbench::judge::samples::Sample;
use serde_json::json;

const TESTS: usize = 10;
const SAMPLES: usize = 100;

fn main() {
    let tests: Vec<_> =
        (0..TESTS).map(|i| json!({"stdin": format!("{i}\n"), "stdout": format!("{}\n", 2 * i)})).collect();
    let line = json!({"task_id": "double", "call_style": "stdio", "tests": tests}).to_string();
    let (set, diags) = parse_problems(Path::new("bench"), &line);
    assert!(diags.is_empty(), "{diags:?}");
    let problem = &set.by_id["double"];
    // Distinct sources, as distinct samples of a model would be.
    let samples: Vec<Sample> = (0..SAMPLES)
        .map(|k| Sample {
            fields: Default::default(),
            task_id: "double".into(),
            model: "bench".into(),
            code: format!("print(int(input()) * 2)  # sample {k}\n"),
            index: k,
            key: format!("bench/double#{k}"),
        })
        .collect();
    let work: Vec<_> = samples.iter().map(|s| (problem, s)).collect();
    let settings = JudgeSettings {
        mode: Mode::Auto,
        strict_types: false,
        legacy_limit: Duration::from_secs(3),
        time: TimePolicy { default: Duration::from_secs(3), floor: Duration::from_secs(1), factor: 4.0 },
        clock: Clock::Wall,
    };
    let t = Instant::now();
    let exec = Executor::start(ExecConfig { stop_after_timeout: true, ..ExecConfig::default() })
        .unwrap_or_else(|e| panic!("{e}"));
    let startup = t.elapsed();
    let workers = exec.config().workers;
    for round in 1..=3 {
        let t = Instant::now();
        let mut passed = 0;
        judge_all(&work, &settings, &exec, workers, |_, _, r| {
            if r.is_ok_and(|(v, _, _)| v.passed && v.tests_passed == Some(TESTS)) {
                passed += 1;
            }
        });
        let took = t.elapsed();
        assert_eq!(passed, SAMPLES, "every sample passes every test");
        println!(
            "round {round}: {} stdio runs judged in {took:.2?} ({:.2?}/run) on {workers} workers; worker start-up {startup:.2?}; target ≤ 10 s",
            TESTS * SAMPLES,
            took / (TESTS * SAMPLES) as u32
        );
    }
}
