//! Whole-program (stdio) problems judged end to end by `flowbench judge`
//! in the real sandbox: every candidate of the fixture corpus
//! (`tests/fixtures/stdio/`, see its README) gets the verdict its
//! `expected.json` names under the problem's checker, and the same
//! candidates under another checker show the checker is what decides.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stdio")
}

/// The fixture problems: (name, problem JSON, expected verdict per candidate).
fn corpus() -> Vec<(String, Value, BTreeMap<String, String>)> {
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(fixtures()).expect("fixtures").map(|e| e.expect("entry").path()).collect();
    dirs.sort();
    for dir in dirs.into_iter().filter(|d| d.join("problem.json").exists()) {
        let read = |name: &str| -> Value {
            serde_json::from_str(&std::fs::read_to_string(dir.join(name)).expect(name)).expect("json")
        };
        let expected = read("expected.json");
        let verdicts = expected["verdicts"]
            .as_object()
            .expect("verdicts")
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().expect("verdict").to_string()))
            .collect();
        let name = dir.file_name().expect("name").to_string_lossy().into_owned();
        out.push((name, read("problem.json"), verdicts));
    }
    out
}

fn candidate(problem: &str, name: &str) -> String {
    std::fs::read_to_string(fixtures().join(problem).join(format!("{name}.py"))).expect("candidate source")
}

fn flowbench(args: &[&str]) -> Output {
    flowbench_env(&[], args)
}

fn flowbench_env(env: &[(&str, &str)], args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).envs(env.iter().copied()).args(args).output().expect("flowbench runs")
}

/// Judges `samples` (task, model, code) against `problems`; the results by
/// (task, model).
fn judge(dir: &Path, problems: &[Value], samples: &[(String, String, String)]) -> BTreeMap<(String, String), Value> {
    judge_with(dir, problems, samples, &[])
}

/// [`judge`] with environment variables for `flowbench`; a sample whose
/// model starts with `cpp-` is C++ (`language: cpp`).
fn judge_with(
    dir: &Path,
    problems: &[Value],
    samples: &[(String, String, String)],
    env: &[(&str, &str)],
) -> BTreeMap<(String, String), Value> {
    let problems_path = dir.join("problems.jsonl");
    let samples_path = dir.join("samples.jsonl");
    let out = dir.join("results.jsonl");
    let _ = std::fs::remove_file(&out);
    std::fs::write(&problems_path, problems.iter().map(|p| format!("{p}\n")).collect::<String>()).expect("write");
    let lines: String = samples
        .iter()
        .map(|(task, model, code)| {
            let mut sample = json!({"task_id": task, "model": model, "completion": code});
            if model.starts_with("cpp-") {
                sample["language"] = json!("cpp");
            }
            format!("{sample}\n")
        })
        .collect();
    std::fs::write(&samples_path, lines).expect("write samples");
    let path = |p: &Path| p.to_str().expect("utf-8 path").to_string();
    let run = flowbench_env(
        env,
        &[
            "judge",
            "--problems",
            &path(&problems_path),
            "--samples",
            &path(&samples_path),
            "--prelude",
            "none",
            "-j",
            "2",
            "-q",
            "-o",
            &path(&out),
        ],
    );
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    std::fs::read_to_string(&out)
        .expect("results")
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("result line"))
        .map(|v| ((v["task_id"].as_str().unwrap_or("").into(), v["model"].as_str().unwrap_or("").into()), v))
        .collect()
}

/// The verdict as `expected.json` spells it: `passed` or the error class.
fn verdict(result: &Value) -> String {
    if result["passed"] == Value::Bool(true) {
        "passed".into()
    } else {
        result["error_class"].as_str().unwrap_or("?").into()
    }
}

#[test]
#[ignore = "heavy: the whole stdio fixture corpus judged in the sandbox"]
fn every_fixture_candidate_gets_its_verdict() {
    let corpus = corpus();
    assert!(corpus.len() >= 8, "at least 8 fixture problems");
    let dir = tempfile::tempdir().expect("tempdir");
    let problems: Vec<Value> = corpus.iter().map(|(_, p, _)| p.clone()).collect();
    let mut samples = Vec::new();
    for (name, _, verdicts) in &corpus {
        for model in verdicts.keys() {
            samples.push((name.clone(), model.clone(), candidate(name, model)));
        }
    }
    let results = judge(dir.path(), &problems, &samples);
    let mut wrong = Vec::new();
    for (name, problem, verdicts) in &corpus {
        let total = problem["tests"].as_array().expect("tests").len();
        for (model, expected) in verdicts {
            let r = &results[&(name.clone(), model.clone())];
            assert_eq!(r["mode"], "stdio");
            assert_eq!(r["tests_total"], total);
            if verdict(r) != *expected {
                wrong.push(format!("{name}/{model}: expected {expected}, got {} ({})", verdict(r), r["result"]));
            }
            // "Wrong on one case" and "too slow on the large case" pass the rest.
            if (model == "wrong_one" || model == "too_slow") && r["tests_passed"] != total - 1 {
                wrong.push(format!("{name}/{model}: {} of {total} tests passed, not all but one", r["tests_passed"]));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let slow = &results[&("prime_check".to_string(), "too_slow".to_string())];
    assert_eq!(slow["first_failure"]["test"], 5, "the large test is the one that times out");
    let wrong_pair = &results[&("pair_sum".to_string(), "wrong_pair".to_string())];
    assert_eq!(wrong_pair["first_failure"]["got"], "1 7\n", "what the candidate printed is shown");
}

/// (problem, candidate, checker, verdict) judged with the problem's checker
/// replaced: layout differences fail only under `exact`, other number
/// formats pass only under `float`, and the custom checker's problem shows
/// its candidates print answers other than the expected one.
const UNDER_OTHER_CHECKERS: &[(&str, &str, &str, &str)] = &[
    ("sum_cases", "trailing_spaces", "exact", "wrong answer"),
    ("sum_cases", "trailing_spaces", "lines", "passed"),
    ("sum_cases", "float_format", "float", "passed"),
    ("prefix_sums", "trailing_spaces", "exact", "wrong answer"),
    ("prefix_sums", "trailing_spaces", "tokens", "passed"),
    ("grid_paths", "trailing_spaces", "lines", "passed"),
    ("grid_paths", "trailing_spaces", "tokens", "passed"),
    ("word_freq", "trailing_spaces", "exact", "wrong answer"),
    ("prime_check", "trailing_spaces", "lines", "wrong answer"),
    ("mean_stddev", "float_format", "tokens", "wrong answer"),
    ("mean_stddev", "float_format", "exact", "wrong answer"),
    ("circle_areas", "float_format", "lines", "wrong answer"),
    ("circle_areas", "trailing_spaces", "exact", "wrong answer"),
    ("circle_areas", "trailing_spaces", "lines", "passed"),
    ("circle_areas", "reference", "exact", "passed"),
    // The custom checker accepts answers other than the expected output.
    ("pair_sum", "correct", "tokens", "wrong answer"),
    ("pair_sum", "correct_other", "tokens", "wrong answer"),
    ("pair_sum", "reference", "tokens", "passed"),
];

#[test]
fn the_checker_decides_format_verdicts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let corpus: BTreeMap<String, Value> = corpus().into_iter().map(|(n, p, _)| (n, p)).collect();
    let mut problems = Vec::new();
    let mut samples = Vec::new();
    for (name, model, checker, _) in UNDER_OTHER_CHECKERS {
        let task = format!("{name}@{checker}");
        if !problems.iter().any(|p: &Value| p["task_id"] == task.as_str()) {
            let mut p = corpus[*name].clone();
            p["task_id"] = json!(task);
            p["checker"] = json!(checker);
            if let Some(map) = p.as_object_mut() {
                map.remove("checker_program");
            }
            problems.push(p);
        }
        samples.push((task, model.to_string(), candidate(name, model)));
    }
    let results = judge(dir.path(), &problems, &samples);
    let wrong: Vec<String> = UNDER_OTHER_CHECKERS
        .iter()
        .filter_map(|(name, model, checker, want)| {
            let got = verdict(&results[&(format!("{name}@{checker}"), model.to_string())]);
            (got != *want).then(|| format!("{name}/{model} under {checker}: expected {want}, got {got}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn bad_stdio_problems_are_reported_by_line_and_skipped() {
    let dir = tempfile::tempdir().expect("tempdir");
    let problems = dir.path().join("problems.jsonl");
    std::fs::write(
        &problems,
        concat!(
            r#"{"task_id": "ok", "call_style": "stdio", "tests": [{"stdin": "", "stdout": "1\n"}]}"#,
            "\n",
            r#"{"task_id": "odd", "call_style": "stdio", "checker": "fuzzy", "tests": [{"stdin": "", "stdout": ""}]}"#,
            "\n",
            r#"{"task_id": "none", "call_style": "stdio", "checker": "custom", "tests": [{"stdin": "", "stdout": ""}]}"#,
            "\n"
        ),
    )
    .expect("write");
    let samples = dir.path().join("s.jsonl");
    std::fs::write(&samples, "{\"task_id\": \"ok\", \"completion\": \"print(1)\"}\n").expect("write");
    let out = dir.path().join("r.jsonl");
    let p = |p: &Path| p.to_str().expect("utf-8").to_string();
    let run = flowbench(&["judge", "--problems", &p(&problems), "--samples", &p(&samples), "-q", "-o", &p(&out)]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("problems.jsonl:2: odd: unknown checker \"fuzzy\""), "{stderr}");
    assert!(stderr.contains("problems.jsonl:3: none: checker `custom` needs a `checker_program`"), "{stderr}");
    let results = std::fs::read_to_string(&out).expect("results");
    assert!(results.contains("\"passed\":true"), "the good problem is judged: {results}");
}

#[test]
#[ignore = "heavy: compiles every C++ candidate with g++, then judges it in the sandbox"]
fn cpp_candidates_get_their_verdicts_and_compile_once() {
    if Command::new("g++").arg("--version").output().is_err() {
        let _ = std::io::Write::write_all(&mut std::io::stderr(), b"skipping: no g++ on PATH\n");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache");
    let cache_env = cache.to_str().expect("utf-8").to_string();
    let mut problems = Vec::new();
    let mut samples = Vec::new();
    let mut expected = Vec::new();
    for (name, problem, _) in corpus() {
        let want: Value = serde_json::from_str(
            &std::fs::read_to_string(fixtures().join(&name).join("expected.json")).expect("expected.json"),
        )
        .expect("json");
        let cpp = want["cpp"].as_object().unwrap_or_else(|| panic!("{name}: expected.json has no `cpp` table"));
        problems.push(problem);
        for (kind, verdict) in cpp {
            let source = std::fs::read_to_string(fixtures().join(&name).join(format!("{kind}.cpp"))).expect("cpp");
            samples.push((name.clone(), format!("cpp-{kind}"), source));
            expected.push((name.clone(), format!("cpp-{kind}"), verdict.as_str().expect("verdict").to_string()));
        }
    }
    assert!(problems.len() >= 8 && expected.len() == 4 * problems.len(), "four C++ candidates for each problem");
    let check = |results: &BTreeMap<(String, String), Value>| {
        let wrong: Vec<String> = expected
            .iter()
            .filter_map(|(task, model, want)| {
                let got = verdict(&results[&(task.clone(), model.clone())]);
                (got != *want).then(|| format!("{task}/{model}: expected {want}, got {got}"))
            })
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    };
    check(&judge_with(dir.path(), &problems, &samples, &[("XDG_CACHE_HOME", &cache_env)]));
    let cached: Vec<String> = std::fs::read_dir(cache.join("flowbench/cpp"))
        .expect("compile cache")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    let count = |ext: &str| cached.iter().filter(|n| n.ends_with(ext)).count();
    assert_eq!((count(".bin"), count(".err")), (expected.len() / 4 * 3, expected.len() / 4), "{cached:?}");

    // Again with a `g++` that reports the same version but cannot compile:
    // every executable and compile error comes from the cache.
    let version = String::from_utf8_lossy(&Command::new("g++").arg("--version").output().expect("g++").stdout)
        .lines()
        .next()
        .unwrap_or("")
        .to_string();
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).expect("bin");
    let marker = dir.path().join("compiled");
    let fake = format!(
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo '{}'; exit 0; fi\ntouch '{}'\nexit 99\n",
        version.replace('\'', ""),
        marker.display()
    );
    std::fs::write(bin.join("g++"), fake).expect("fake g++");
    std::fs::set_permissions(bin.join("g++"), std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("chmod");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    check(&judge_with(dir.path(), &problems, &samples, &[("XDG_CACHE_HOME", &cache_env), ("PATH", &path)]));
    assert!(!marker.exists(), "a cached source was compiled again");
}
