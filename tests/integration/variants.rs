//! `flowbench variants` end to end on problems of the bank (written before
//! this command): every kept variant is checked property by property on
//! the output — a complete problem naming its original and kind, a changed
//! solution whose chart is the re-drawn, lint-clean one, fresh tests meeting
//! the floors with a mutation score ≥ 0.90, and the ORIGINAL reference
//! failing them (run here, outside flowbench, on the recorded first
//! difference and on every test) — a score proven only as a lower bound
//! says so and `tests score` finds the exact one no lower — the same seed
//! gives the same variants and tests at 2 and 6 threads, and `build` takes
//! the variant directories like any problem.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use flowbench::author::{Detail, draw_source};
use flowbench::mermaid::lint::{Checked, check};
use serde_json::Value;

/// Bank problems whose values are plain JSON (so the original can be run
/// here directly) and whose tests generate quickly.
const PROBLEMS: [&str; 2] = ["gcd", "caesar_shift"];

fn flowbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).output().expect("flowbench runs")
}

fn bank(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("problems").join(name)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn variants(out: &Path, jobs: &str) -> Output {
    let dirs: Vec<String> = PROBLEMS.iter().map(|p| bank(p).display().to_string()).collect();
    let mut args: Vec<&str> = vec!["variants"];
    args.extend(dirs.iter().map(String::as_str));
    args.extend(["--kinds", "rename,constants,logic", "--count", "1", "--seed", "7", "-q", "-j", jobs, "-o"]);
    args.push(out.to_str().expect("utf-8"));
    flowbench(&args)
}

/// What the original reference answers on each argument list (run by
/// python3 here: the bank's own reference is trusted code).
fn original_answers(original: &str, entry: &str, args: &[Value]) -> Vec<Value> {
    let script = format!(
        "import json, sys\n{original}\nfor a in json.loads(sys.stdin.read()):\n    try:\n        print(json.dumps({entry}(*a)))\n    except Exception as e:\n        print(json.dumps('raised ' + type(e).__name__))\n"
    );
    let mut child = Command::new("python3")
        .args(["-c", &script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    use std::io::Write as _;
    child.stdin.take().expect("stdin").write_all(Value::Array(args.to_vec()).to_string().as_bytes()).expect("write");
    let out = child.wait_with_output().expect("python3 ends");
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("json")).collect()
}

fn tests_of(dir: &Path) -> (Value, Vec<Value>) {
    let text = read(&dir.join("tests.jsonl"));
    let mut lines = text.lines().map(|l| serde_json::from_str::<Value>(l).expect("json line"));
    let header = lines.next().expect("header");
    (header, lines.collect())
}

/// `flowbench tests score --json` on a variant: the exact mutation score of
/// its tests.jsonl.
fn exact_score(dir: &Path) -> f64 {
    let out = flowbench(&["tests", "score", "--json", dir.to_str().expect("utf-8")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let line: Value = serde_json::from_str(text.lines().next().expect("a line")).expect("json");
    line["score"].as_f64().expect("score")
}

/// A tests.jsonl without its measured times (the reference's, which vary
/// with the machine's load): what must be the same for a seed.
fn without_times(text: &str) -> String {
    text.lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).expect("json line");
            if let Some(o) = v.as_object_mut() {
                o.remove("reference_time_s");
            }
            v.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One kept variant, property by property; whether its mutation score was
/// proven as a lower bound.
fn check_variant(out: &Path, kept: &Value) -> bool {
    let name = kept["name"].as_str().expect("name");
    let dir = out.join(name);
    let (task, kind) = name.split_once('~').expect("<task>~<kind><k>");
    let original = bank(task);
    assert!(["rename1", "constants1", "logic1"].contains(&kind), "{name}");
    for file in ["solution.py", "problem.toml", "problem.json", "description.md", "flowchart.mmd", "tests.jsonl"] {
        assert!(dir.join(file).is_file(), "{name}: {file} missing");
    }
    let meta = flowbench::bank::meta::read_meta(&flowbench::bank::ProblemDir::read(&dir)).expect("[meta] reads");
    assert_eq!(meta.variant_of.as_deref(), Some(task));
    assert_eq!(meta.variant_kind.as_deref(), Some(kind.trim_end_matches('1')));
    let problem: Value = serde_json::from_str(&read(&dir.join("problem.json"))).expect("problem.json");
    assert_eq!(problem["task_id"], name);
    // A changed solution, drawn again: the chart is the solution's own.
    let solution = read(&dir.join("solution.py"));
    let entry = problem["entry_point"].as_str().expect("entry point");
    assert_ne!(solution, read(&original.join("solution.py")));
    let original_problem: Value = serde_json::from_str(&read(&original.join("problem.json"))).expect("json");
    let original_entry = original_problem["entry_point"].as_str().expect("entry point");
    if kind == "rename1" {
        // Neutral names everywhere: the old entry point is gone from the
        // solution, the starter code and the chart; the entry point is `f`.
        assert_eq!(entry, "f");
        let starter = problem["starter_code"].as_str().expect("starter");
        for text in [solution.as_str(), starter] {
            assert!(!text.contains(original_entry), "{name}: {original_entry} in {text}");
        }
        assert!(starter.contains("def f("), "{starter}");
    }
    let chart = read(&dir.join("flowchart.mmd"));
    assert_eq!(chart, draw_source(&solution, Some(entry), Detail::Medium).expect("draws"));
    assert_ne!(chart, read(&original.join("flowchart.mmd")));
    match check(&chart) {
        Checked::Ok { warnings, .. } => assert!(warnings.is_empty(), "{name}: lint warnings {warnings:?}"),
        Checked::Err(d) => panic!("{name}: the chart does not parse: {}", d.message),
    }
    // Tests regenerated: floors (5 typical, 5 edge by default), score.
    let (header, tests) = tests_of(&dir);
    assert!(header["typical"].as_u64() >= Some(5) && header["edge"].as_u64() >= Some(5), "{name}: {header}");
    let mutation = &header["mutation"];
    let score = mutation["score"].as_f64().expect("mutation score recorded");
    assert!(score >= 0.90, "{name}: mutation score {score}");
    let count = |k: &str| mutation[k].as_u64().expect("a count") as f64;
    assert_eq!(score, count("killed") / (count("mutants") - count("equivalent")), "{name}: {mutation}");
    let bound = mutation["bound"] == "lower";
    if bound {
        // A bound is never printed as the exact score, and is one: the
        // exact score (`tests score`) is at least as high.
        assert_eq!(kept["mutation_score_at_least"].as_f64(), Some(score), "{name}: {kept}");
        assert!(kept.get("mutation_score").is_none(), "{name}: {kept}");
        let exact = exact_score(&dir);
        assert!(exact >= score, "{name}: exact score {exact} below the recorded bound {score}");
    } else {
        assert!(mutation.get("bound").is_none(), "{name}: {mutation}");
        assert_eq!(kept["mutation_score"].as_f64(), Some(score));
    }
    // The original reference fails them: on the recorded first difference…
    // (a renamed variant's harness calls `f`, which the original lacks: the
    // check below calls the original by its own name, so there the
    // answers agree and only the name differs)
    let original_solution = read(&original.join("solution.py"));
    if kind == "rename1" {
        let first = &kept["first_difference"];
        assert!(first["original"].as_str().is_some_and(|s| s.contains("NameError")), "{name}: {first}");
        let all: Vec<Value> = tests.iter().map(|t| t["args"].clone()).collect();
        let answers = original_answers(&original_solution, original_entry, &all);
        assert!(answers.iter().zip(&tests).all(|(a, t)| a == &t["expected"]), "{name}: same behaviour");
        return bound;
    }
    let first = &kept["first_difference"];
    let args = first["args"].as_array().expect("args").clone();
    let answer = &original_answers(&original_solution, original_entry, &[Value::Array(args.clone())])[0];
    assert_eq!(answer, &first["original"], "{name}: the recorded original answer");
    assert_ne!(answer, &first["variant"], "{name}: the original must differ there");
    assert!(tests.iter().any(|t| t["args"] == Value::Array(args.clone()) && t["expected"] == first["variant"]));
    // …and on at least the stated share of every test.
    let all: Vec<Value> = tests.iter().map(|t| t["args"].clone()).collect();
    let answers = original_answers(&original_solution, original_entry, &all);
    let differ = answers.iter().zip(&tests).filter(|(a, t)| *a != &t["expected"]).count();
    assert!(
        differ as f64 >= 0.2 * tests.len() as f64,
        "{name}: the original differs on only {differ} of {}",
        tests.len()
    );
    bound
}

#[test]
fn variants_are_complete_problems_the_original_fails_and_build_takes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("variants");
    let run = variants(&out, "2");
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(run.status.success(), "{stdout}{}", String::from_utf8_lossy(&run.stderr));
    let summary: Value = serde_json::from_str(&read(&out.join("variants.json"))).expect("variants.json");
    let problems = summary["problems"].as_array().expect("problems");
    assert_eq!(problems.len(), PROBLEMS.len());
    let (mut kept, mut bounds) = (0, 0);
    for p in problems {
        for k in p["kept"].as_array().expect("kept") {
            bounds += usize::from(check_variant(&out, k));
            kept += 1;
        }
        // A kind that fell short says why.
        let wanted = 3;
        let have = p["kept"].as_array().map_or(0, Vec::len);
        assert_eq!(p["short"].as_array().map_or(0, Vec::len), wanted - have, "{p}");
    }
    assert!(kept >= 5, "{stdout}");
    assert!(bounds >= 1, "no variant's score was proven as a bound: that path went unchecked");
    assert!(stdout.contains(&format!("{} problems:", PROBLEMS.len())), "{stdout}");
    // Discarded directories are gone: only kept variants are left.
    let dirs = std::fs::read_dir(&out).expect("out").filter(|e| e.as_ref().is_ok_and(|e| e.path().is_dir())).count();
    assert_eq!(dirs, kept);

    // The same seed, other thread count: the same variants, the same files
    // (times aside).
    let again = tmp.path().join("again");
    assert!(variants(&again, "6").status.success());
    assert_eq!(read(&again.join("variants.json")), read(&out.join("variants.json")));
    for p in problems {
        for k in p["kept"].as_array().expect("kept") {
            let name = k["name"].as_str().expect("name");
            for file in ["solution.py", "flowchart.mmd", "problem.toml", "problem.json"] {
                assert_eq!(read(&again.join(name).join(file)), read(&out.join(name).join(file)), "{name}/{file}");
            }
            let tests = |root: &Path| without_times(&read(&root.join(name).join("tests.jsonl")));
            assert_eq!(tests(&again), tests(&out), "{name}/tests.jsonl");
        }
    }

    // `build` takes the variant directories like any problem.
    let dist = tmp.path().join("dist");
    let build = flowbench(&["build", "--problems", out.to_str().expect("utf-8"), "-o", dist.to_str().expect("utf-8")]);
    assert!(build.status.success(), "{}", String::from_utf8_lossy(&build.stderr));
}

/// What a whole program prints on `stdin` (run by python3 here: the bank's
/// own references and their variants are trusted code).
fn program_output(source: &str, stdin: &str) -> String {
    let mut child = Command::new("python3")
        .args(["-c", source])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    use std::io::Write as _;
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write");
    String::from_utf8_lossy(&child.wait_with_output().expect("python3 ends").stdout).into_owned()
}

/// A whole-program (stdio) problem gets variants of every kind: stdio tests
/// in its problem.json, its chart drawn from the program's first line, the
/// variant's own tests reproduced by its program, the original failing the
/// changed kinds' tests and passing the renamed one's, and `build` takes
/// them.
#[test]
fn a_whole_program_problem_has_variants_of_every_kind() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("variants");
    let dir = bank("above_average");
    let run = flowbench(&[
        "variants",
        dir.to_str().expect("utf-8"),
        "--kinds",
        "rename,constants,logic",
        "--seed",
        "7",
        "-q",
        "-j",
        "2",
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let summary: Value = serde_json::from_str(&read(&out.join("variants.json"))).expect("variants.json");
    let problem = &summary["problems"][0];
    let kept = problem["kept"].as_array().expect("kept");
    assert_eq!(kept.len(), 3, "{problem}");
    let original = read(&dir.join("solution.py"));
    for k in kept {
        let name = k["name"].as_str().expect("name");
        let variant = out.join(name);
        let json: Value = serde_json::from_str(&read(&variant.join("problem.json"))).expect("problem.json");
        assert_eq!(json["call_style"], "stdio", "{name}");
        let carried = json["tests"].as_array().expect("tests");
        assert!(!carried.is_empty() && carried.iter().all(|t| t["stdin"].is_string() && t["stdout"].is_string()));
        let solution = read(&variant.join("solution.py"));
        assert_ne!(solution, original, "{name}");
        let chart = read(&variant.join("flowchart.mmd"));
        assert_eq!(chart, draw_source(&solution, None, Detail::Medium).expect("draws"), "{name}");
        assert!(read(&variant.join("description.md")).contains("standard input"), "{name}");
        let (_, tests) = tests_of(&variant);
        let mut differ = 0;
        for t in &tests {
            let stdin = t["args"][0].as_str().expect("stdin text");
            assert_eq!(program_output(&solution, stdin), t["expected"].as_str().expect("text"), "{name}: {stdin:?}");
            differ += usize::from(program_output(&original, stdin) != t["expected"].as_str().expect("text"));
        }
        if k["kind"] == "rename" {
            // Called by no name: the original cannot be told apart.
            assert_eq!(differ, 0, "{name}");
            assert_eq!(k["first_difference"], Value::Null, "{name}");
            assert!(original.contains("scores") && !solution.contains("scores"), "{name}: names kept");
        } else {
            assert!(differ as f64 >= 0.2 * tests.len() as f64, "{name}: the original differs on {differ}");
        }
    }
    let dist = tmp.path().join("dist");
    let build = flowbench(&["build", "--problems", out.to_str().expect("utf-8"), "-o", dist.to_str().expect("utf-8")]);
    assert!(build.status.success(), "{}", String::from_utf8_lossy(&build.stderr));
}
