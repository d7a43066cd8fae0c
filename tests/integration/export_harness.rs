//! `flowbench export` end to end: the command line's refusals (fast lane),
//! and the bank's exports loaded by the real harness libraries (heavy lane:
//! `datasets`, `inspect_ai`, pandas and Pillow as VLMEvalKit reads its TSV,
//! installed into a scratch venv by `scripts/export-harness-venv.sh`; the
//! tests skip with one message when the package index is unreachable), and
//! harness outputs judged by `flowbench judge` with the verdicts of the
//! equivalent samples JSONL.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value as Json;

fn flowbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).output().expect("flowbench runs")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

#[test]
fn export_refuses_a_directory_that_is_no_dist_and_an_unknown_harness() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = flowbench(&["export", s(dir.path()), "--to", "hf", "-o", s(&dir.path().join("out"))]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&dir.path().join("manifest.json").display().to_string()), "{err}");
    let out = flowbench(&["export", s(dir.path()), "--to", "lm-eval", "-o", "x"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The bank built once for every heavy test of this module, with the
/// harness venv's python; `None` (after one message) when the package index
/// cannot be reached.
struct Bench {
    _dir: tempfile::TempDir,
    dist: PathBuf,
    root: PathBuf,
    python: PathBuf,
}

fn bench() -> Option<&'static Bench> {
    static BENCH: OnceLock<Option<Bench>> = OnceLock::new();
    BENCH.get_or_init(make_bench).as_ref()
}

fn make_bench() -> Option<Bench> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let venv = Command::new("bash").arg(repo.join("scripts/export-harness-venv.sh")).output().expect("bash runs");
    if venv.status.code() == Some(3) {
        eprintln!("skipping: {}", String::from_utf8_lossy(&venv.stderr).trim());
        return None;
    }
    assert!(venv.status.success(), "venv: {}", String::from_utf8_lossy(&venv.stderr));
    let python = PathBuf::from(String::from_utf8_lossy(&venv.stdout).trim());
    let dir = tempfile::tempdir().expect("tempdir");
    let dist = dir.path().join("dist");
    let problems = repo.join("problems");
    let built = flowbench(&["build", "--problems", s(&problems), "-o", s(&dist)]);
    assert!(built.status.success(), "build: {}", String::from_utf8_lossy(&built.stderr));
    let root = dir.path().to_path_buf();
    Some(Bench { _dir: dir, dist, root, python })
}

impl Bench {
    fn records(&self) -> usize {
        flowbench::bank::dist_record::read_dist(&self.dist).expect("dist").0.len()
    }

    fn export(&self, to: &str) -> PathBuf {
        let out = self.root.join(to);
        if !out.exists() {
            let done = flowbench(&["export", s(&self.dist), "--to", to, "-o", s(&out)]);
            assert!(done.status.success(), "export {to}: {}", String::from_utf8_lossy(&done.stderr));
        }
        out
    }

    /// Runs a mode of `tests/support/export_harness.py`; its JSON line.
    fn py(&self, args: &[&str]) -> Json {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/export_harness.py");
        let out = self.harness_command(&self.python).arg(script).args(args).output().expect("python runs");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let stdout = String::from_utf8_lossy(&out.stdout);
        serde_json::from_str(stdout.lines().last().unwrap_or_default()).expect("a JSON line")
    }

    /// A command in the harness venv, offline, its caches under the bench.
    fn harness_command(&self, program: &Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.env("FLOWBENCH", env!("CARGO_BIN_EXE_flowbench"))
            .env("HF_HOME", self.root.join("hf-home"))
            .env("HF_DATASETS_OFFLINE", "1")
            .env("HF_HUB_OFFLINE", "1")
            .env("INSPECT_LOG_DIR", self.root.join("logs"));
        cmd
    }

    /// Each sample's verdict (`passed`, error class) by task id, from
    /// `flowbench judge` on `samples` (any format it reads).
    fn verdicts(&self, problems: &Path, samples: &Path) -> BTreeMap<String, (bool, Json)> {
        let results = self.root.join(format!("{}.results.jsonl", samples.file_name().expect("name").to_string_lossy()));
        let out = flowbench(&["judge", "--problems", s(problems), "--samples", s(samples), "-o", s(&results)]);
        let _ = out.status; // exit 1 says a sample failed; the verdicts are what is compared
        let text = std::fs::read_to_string(&results).unwrap_or_else(|e| {
            panic!("{}: {e}: {}", results.display(), String::from_utf8_lossy(&out.stderr));
        });
        text.lines()
            .map(|l| serde_json::from_str::<Json>(l).expect("json"))
            .map(|r| {
                (r["task_id"].as_str().unwrap_or_default().to_string(), (r["passed"] == true, r["error_class"].clone()))
            })
            .collect()
    }
}

#[test]
#[ignore = "heavy: builds the bank and installs datasets into a scratch venv"]
fn hf_export_loads_in_datasets_with_every_image_decoded() {
    let Some(bench) = bench() else { return };
    let out = bench.export("hf");
    let found = bench.py(&["hf", s(&out)]);
    assert_eq!(found["rows"], bench.records());
    assert_eq!(found["images"], bench.records());
}

#[test]
#[ignore = "heavy: builds the bank, installs inspect_ai and judges every sample in the sandbox twice"]
fn inspect_task_scores_none_on_the_mock_model_and_all_on_the_reference() {
    let Some(bench) = bench() else { return };
    let out = bench.export("inspect");
    let n = bench.records();
    let mock = bench.py(&["inspect-mock", s(&out), s(&bench.root.join("mock-logs"))]);
    assert_eq!(
        (mock["status"].as_str(), mock["scored"].as_u64(), mock["correct"].as_u64()),
        (Some("success"), Some(n as u64), Some(0))
    );
    let inspect = bench.python.with_file_name("inspect");
    let logs = bench.root.join("reference-logs");
    let run = bench
        .harness_command(&inspect)
        // A relative task path: inspect globs it, and Python 3.11's glob takes no absolute pattern.
        .current_dir(&out)
        .args(["eval", "flowbench_inspect.py", "-T", "solver=reference", "--model", "mockllm/model"])
        .args(["--log-dir", s(&logs), "--display", "none"])
        .output()
        .expect("inspect runs");
    assert!(run.status.success(), "inspect eval: {}", String::from_utf8_lossy(&run.stderr));
    let log = only_file(&logs, "eval");
    let jsonl = bench.root.join("reference-log.jsonl");
    let reference = bench.py(&["log-samples", s(&log), s(&jsonl)]);
    assert_eq!(
        (reference["scored"].as_u64(), reference["correct"].as_u64()),
        (Some(n as u64), Some(n as u64)),
        "{reference}"
    );
    assert_eq!(reference["first_failures"], 0);
    // The log judged again by `flowbench judge`, as the JSONL it stands for.
    let problems = out.join("problems.jsonl");
    let from_log = bench.verdicts(&problems, &log);
    assert_eq!(from_log.len(), n);
    assert!(from_log.values().all(|(passed, _)| *passed));
    assert_eq!(from_log, bench.verdicts(&problems, &jsonl));
}

#[test]
#[ignore = "heavy: builds the bank, installs pandas and Pillow, judges a prediction file"]
fn vlmevalkit_tsv_reads_as_its_loader_reads_it_and_predictions_are_judged() {
    let Some(bench) = bench() else { return };
    let out = bench.export("vlmevalkit");
    let n = bench.records();
    let pred = bench.root.join("model_FlowBench.tsv");
    let found = bench.py(&["vlmevalkit", s(&out), s(&pred)]);
    assert_eq!(found["rows"], n);
    let problems = out.join("FlowBench.problems.jsonl");
    let from_tsv = bench.verdicts(&problems, &pred);
    assert_eq!(from_tsv.len(), n);
    assert_eq!(from_tsv.values().filter(|(passed, _)| *passed).count(), n.div_ceil(2));
    assert_eq!(from_tsv, bench.verdicts(&problems, &PathBuf::from(format!("{}.jsonl", s(&pred)))));
    let xlsx = pred.with_extension("xlsx");
    assert_eq!(bench.verdicts(&problems, &xlsx), from_tsv, "the .xlsx prediction file judges as its .tsv");
    let expected = n.div_ceil(2) as f64 / n as f64;
    for file in [&pred, &xlsx] {
        let score = bench.py(&["vlm-evaluate", s(&out), s(file)]);
        assert_eq!(score["samples"], n);
        assert!((score["pass@1"].as_f64().expect("pass@1") - expected).abs() < 1e-9, "{score}");
    }
}

/// The one file with extension `ext` in `dir`.
fn only_file(dir: &Path, ext: &str) -> PathBuf {
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("log dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files.into_iter().next().expect("one")
}
