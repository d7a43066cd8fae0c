//! Flowcharts of whole programs: `draw` a stdio reference (module code
//! that reads standard input and prints, or runs a `main()`), and the chart
//! reads back: `chart2py` writes module code, and `check --against` finds
//! it faithful and, run as a program in the sandbox, passing every test of
//! the problem. The programs are the stdio fixture corpus's references
//! (tests/fixtures/stdio), written for the judge's tests, not for these.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn flowbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).output().expect("flowbench runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stdio");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("reference.py").is_file() && p.join("problem.json").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// The drawn chart of `dir`'s reference at `detail`, written to `out`.
fn draw(dir: &Path, detail: &str, out: &Path) -> String {
    let reference = dir.join("reference.py");
    let drawn = flowbench(&["draw", "--detail", detail, reference.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(drawn.status.success(), "{}: {}", dir.display(), text(&drawn));
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn drawn_programs_read_back_and_pass_their_tests() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = fixtures();
    assert!(dirs.len() >= 8, "the stdio fixture corpus has 8 problems");
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_str().unwrap();
        for detail in ["high", "medium"] {
            let chart_path = tmp.path().join(format!("{name}-{detail}.mmd"));
            let chart = draw(dir, detail, &chart_path);
            let chart_arg = chart_path.to_str().unwrap();
            // Lint-clean, and reading and printing are parallelograms.
            let lint = flowbench(&["check", chart_arg]);
            assert!(lint.status.success() && text(&lint).contains("0 warning(s)"), "{name}: {}", text(&lint));
            assert!(chart.contains("[/\""), "{name}: no Input/Output node:\n{chart}");
            assert!(chart.contains("A([\"Start\"])"), "{name}: a program starts at a plain Start:\n{chart}");
            // chart2py writes module code, not a function named __main__.
            let program = flowbench(&["chart2py", chart_arg]);
            assert!(program.status.success(), "{name}: {}", text(&program));
            let code = String::from_utf8_lossy(&program.stdout);
            assert!(!code.contains("def __main__") && !code.contains("\nreturn"), "{name}:\n{code}");
            // Run as a program on the problem's tests, in the sandbox.
            let reference = dir.join("reference.py");
            let problem = dir.join("problem.json");
            let checked = flowbench(&[
                "check",
                chart_arg,
                "--against",
                reference.to_str().unwrap(),
                "--tests",
                problem.to_str().unwrap(),
                "--json",
            ]);
            let report: serde_json::Value = serde_json::from_slice(&checked.stdout)
                .unwrap_or_else(|e| panic!("{name} {detail}: {e}: {}", text(&checked)));
            assert_eq!(report["execution"]["outcome"], "passed", "{name} {detail}: {report}");
            if detail == "high" {
                // One statement per box: the form that reads back exactly.
                assert_eq!(report["faithful"], true, "{name}: {report}");
            }
        }
    }
}

/// A chart that computes something else is caught by the run.
#[test]
fn a_changed_program_chart_fails_its_tests() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stdio/sum_cases");
    let path = tmp.path().join("sum_cases.mmd");
    let chart = draw(&dir, "high", &path);
    assert!(chart.contains("a + b"), "{chart}");
    std::fs::write(&path, chart.replace("a + b", "a - b")).unwrap();
    let reference = dir.join("reference.py");
    let checked = flowbench(&[
        "check",
        path.to_str().unwrap(),
        "--against",
        reference.to_str().unwrap(),
        "--tests",
        dir.join("problem.json").to_str().unwrap(),
        "--json",
    ]);
    assert!(!checked.status.success());
    let report: serde_json::Value = serde_json::from_slice(&checked.stdout).unwrap();
    assert_eq!(report["execution"]["outcome"], "failed", "{report}");
}
