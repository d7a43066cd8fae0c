//! `build` over the embedded bank: every problem builds, artefacts are
//! byte-identical across runs, and a wrong test or a bad chart is caught.

use std::path::Path;
use std::time::Duration;

use flowbench::bank::build::{BuildOptions, Builder, ProblemReport};
use flowbench::exec::{ExecConfig, Executor};
use flowbench::render::pipeline::Renderer;

fn build_all(bank: &Path, out: &Path, executor: &Executor, renderer: &Renderer) -> Vec<ProblemReport> {
    let builder = Builder {
        renderer,
        sandbox: executor,
        opts: BuildOptions { out: out.to_path_buf(), deny_warnings: true, force: true, time_limit: Duration::from_secs(10), allow_ambiguous: false },
    };
    flowbench::bank::problem_dirs(bank).unwrap().iter().map(|d| builder.build(d)).collect()
}

fn executor() -> Executor {
    Executor::start(ExecConfig { workers: 1, ..ExecConfig::default() }).expect("sandbox starts")
}

#[test]
fn embedded_bank_builds_deterministically() {
    let bank = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (executor, renderer) = (executor(), Renderer::default());
    let first = build_all(&bank, a.path(), &executor, &renderer);
    assert!(first.len() >= 5, "the bank has problems");
    for r in &first {
        assert!(r.ok, "{} did not build: {:?}", r.name, r.diagnostics);
        assert_eq!(r.reference_passed, r.tests.typical + r.tests.edge + r.tests.large);
        assert!(r.decisions >= 1, "{} has a decision", r.name);
    }
    let second = build_all(&bank, b.path(), &executor, &renderer);
    assert_eq!(first, second);
    // Each image is what `flowbench render` makes of the built chart, so
    // re-rendering a benchmark reproduces it.
    for r in &first {
        let dir = a.path().join(&r.name);
        let png = dir.join("again.png");
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_flowbench"))
            .args(["render", "-o"])
            .arg(&png)
            .arg(dir.join("flowchart.mmd"))
            .status()
            .expect("flowbench runs");
        assert!(status.success());
        assert!(std::fs::read(&png).unwrap() == std::fs::read(dir.join("flowchart.png")).unwrap(), "{}: render differs from build", r.name);
    }
    for r in &first {
        for f in &r.outputs {
            let (x, y) = (std::fs::read(a.path().join(f)).unwrap(), std::fs::read(b.path().join(f)).unwrap());
            assert!(x == y, "{f} differs between two builds");
        }
    }
}

#[test]
fn wrong_expected_value_and_bad_chart_fail_the_problem() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/gcd");
    let bank = tempfile::tempdir().unwrap();
    let wrong = bank.path().join("wrong");
    std::fs::create_dir(&wrong).unwrap();
    std::fs::copy(src.join("flowchart.mmd"), wrong.join("flowchart.mmd")).unwrap();
    std::fs::copy(src.join("solution.py"), wrong.join("solution.py")).unwrap();
    let problem = std::fs::read_to_string(src.join("problem.json")).unwrap().replacen("\"expected\": 6", "\"expected\": 7", 1);
    std::fs::write(wrong.join("problem.json"), problem).unwrap();
    let bad = bank.path().join("bad_chart");
    std::fs::create_dir(&bad).unwrap();
    std::fs::write(bad.join("flowchart.mmd"), "flowchart TD\n  A[gcd(a, b)] --> B\n").unwrap();
    std::fs::copy(src.join("solution.py"), bad.join("solution.py")).unwrap();
    std::fs::copy(src.join("problem.json"), bad.join("problem.json")).unwrap();

    let out = tempfile::tempdir().unwrap();
    let reports = build_all(bank.path(), out.path(), &executor(), &Renderer::default());
    let by = |n: &str| reports.iter().find(|r| r.name == n).unwrap();
    let w = by("wrong");
    assert!(!w.ok);
    assert!(w.diagnostics.iter().any(|d| d.contains("reference solution fails test 1")), "{:?}", w.diagnostics);
    assert!(!out.path().join("wrong/problem.json").exists(), "an unproven problem is not published");
    let b = by("bad_chart");
    assert!(!b.ok);
    assert!(b.diagnostics.iter().any(|d| d.contains("flowchart.mmd:2:")), "{:?}", b.diagnostics);
}
