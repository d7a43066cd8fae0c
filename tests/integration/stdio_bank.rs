//! The bank's whole-program (stdio) problems, end to end: each has a
//! generated suite meeting the floors with a mutation score of at least
//! 0.90 (read from the committed `tests.jsonl` headers, whose stamps must be
//! fresh); each chart is what `draw` makes of its reference, and the chart
//! read back by `chart2py` passes every generated test under the problem's
//! checker; `build` makes stdio records the judge runs (the reference
//! passes, wrong programs fail); and a problem directory `import apps`
//! writes builds as it is.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

fn flowbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).output().expect("flowbench runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The bank's problem directories whose `problem.json` is a whole program.
fn stdio_problems() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let mut dirs: Vec<PathBuf> = flowbench::bank::problem_dirs(&root)
        .expect("the bank")
        .into_iter()
        .filter(|d| read_json(&d.join("problem.json"))["call_style"] == "stdio")
        .collect();
    dirs.sort();
    dirs
}

fn name(dir: &Path) -> String {
    dir.file_name().unwrap().to_string_lossy().into_owned()
}

/// A native stdio problem line holding every generated test of `dir`.
fn generated_problem(dir: &Path) -> Value {
    let mut problem = read_json(&dir.join("problem.json"));
    let tests: Vec<Value> = jsonl(&dir.join("tests.jsonl"))[1..]
        .iter()
        .map(|t| json!({"stdin": t["args"][0], "stdout": t["expected"], "category": t["category"]}))
        .collect();
    problem["tests"] = Value::Array(tests);
    problem
}

/// Judges `samples` (task, model, completion) on the problems file; results
/// by (task, model).
fn judge(dir: &Path, problems: &Path, samples: &[(String, &str, String)]) -> Vec<Value> {
    let samples_path = dir.join("samples.jsonl");
    let lines: String = samples
        .iter()
        .map(|(task, model, code)| json!({"task_id": task, "model": model, "completion": code}).to_string() + "\n")
        .collect();
    std::fs::write(&samples_path, lines).unwrap();
    let out = dir.join("results.jsonl");
    let run = flowbench(&[
        "judge",
        "--problems",
        s(problems),
        "--samples",
        s(&samples_path),
        "--clock",
        "cpu",
        "--prelude",
        "none",
        "-q",
        "-o",
        s(&out),
    ]);
    assert!(run.status.success(), "{}", text(&run));
    jsonl(&out)
}

#[test]
fn bank_stdio_problems_meet_the_floors_with_a_mutation_score_of_090() {
    let dirs = stdio_problems();
    assert!(dirs.len() >= 10, "the bank has {} stdio problems, not 10", dirs.len());
    let mut formats = String::new();
    let mut checkers = Vec::new();
    for dir in &dirs {
        let name = name(dir);
        let meta = flowbench::bank::meta::read_meta(&flowbench::bank::ProblemDir::read(dir)).expect("[meta]");
        assert_eq!(meta.subset, "stdio", "{name}");
        let problem = read_json(&dir.join("problem.json"));
        assert!(!problem["tests"].as_array().unwrap().is_empty(), "{name}: no hand-written tests");
        checkers.push(problem["checker"].as_str().unwrap_or("tokens").to_string());
        let spec = std::fs::read_to_string(dir.join("problem.toml")).unwrap();
        assert!(spec.contains("[stdin]") && !spec.contains("[floors]"), "{name}: a format, the default floors");
        formats.push_str(&spec);
        // Fresh: generated from the solution, spec and tests as committed.
        let files = flowbench::bank::ProblemDir::read(dir);
        let mut bank = flowbench::bank::load(&files).expect("loads");
        assert!(flowbench::bank::spec::apply_generated(&mut bank, &files).expect("tests.jsonl is fresh"), "{name}");
        let header = &jsonl(&dir.join("tests.jsonl"))[0];
        for (category, floor) in [("typical", 5), ("edge", 5), ("large", 3)] {
            assert!(header[category].as_u64().unwrap() >= floor, "{name}: {category} under its floor: {header}");
        }
        let mutation = &header["mutation"];
        assert!(mutation["score"].as_f64().unwrap() >= 0.90, "{name}: {header}");
        assert!(mutation["mutants"].as_u64().unwrap() >= 5, "{name}: too few mutants to score: {header}");
    }
    // Varied: test cases, a grid, strings; float, line and token answers.
    for shape in ["repeat t:", "grid[", ": str "] {
        assert!(formats.contains(shape), "no problem reads `{shape}`");
    }
    for checker in ["float", "lines", "tokens"] {
        assert!(checkers.iter().any(|c| c == checker), "no problem is checked by `{checker}`: {checkers:?}");
    }
}

#[test]
fn bank_program_charts_are_drawn_and_read_back_pass_every_generated_test() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = stdio_problems();
    let mut problems = String::new();
    let mut samples = Vec::new();
    for dir in &dirs {
        let name = name(dir);
        let chart = dir.join("flowchart.mmd");
        let drawn = flowbench(&["draw", s(&dir.join("solution.py"))]);
        assert!(drawn.status.success(), "{name}: {}", text(&drawn));
        let committed = std::fs::read_to_string(&chart).unwrap();
        assert_eq!(String::from_utf8_lossy(&drawn.stdout), committed, "{name}: flowchart.mmd is not what draw makes");
        let lint = flowbench(&["check", s(&chart)]);
        assert!(lint.status.success() && text(&lint).contains("0 warning(s)"), "{name}: {}", text(&lint));
        let program = flowbench(&["chart2py", s(&chart)]);
        assert!(program.status.success(), "{name}: {}", text(&program));
        samples.push((name.clone(), "chart2py", String::from_utf8_lossy(&program.stdout).into_owned()));
        // Not vacuous: a program that reads its input and prints nothing fails.
        samples.push((name, "silent", "import sys\nsys.stdin.read()\n".to_string()));
        problems.push_str(&(generated_problem(dir).to_string() + "\n"));
    }
    let path = tmp.path().join("stdio.jsonl");
    std::fs::write(&path, problems).unwrap();
    let results = judge(tmp.path(), &path, &samples);
    assert_eq!(results.len(), 2 * dirs.len());
    for r in &results {
        let chart = r["model"] == "chart2py";
        assert_eq!(r["passed"], chart, "{} {}: {}", r["task_id"], r["model"], r["result"]);
        assert_eq!(r["mode"], "stdio");
        if chart {
            assert!(r["tests_total"].as_u64().unwrap() >= 13, "{r}: every generated test ran");
        }
    }
}

#[test]
fn built_stdio_records_are_judged_the_reference_passes_and_wrong_programs_fail() {
    let tmp = tempfile::tempdir().unwrap();
    let bank = tmp.path().join("bank");
    let dirs = stdio_problems();
    for dir in &dirs {
        let to = bank.join(name(dir));
        std::fs::create_dir_all(&to).unwrap();
        for file in ["flowchart.mmd", "solution.py", "problem.json", "problem.toml", "description.md", "tests.jsonl"] {
            std::fs::copy(dir.join(file), to.join(file)).unwrap();
        }
    }
    let dist = tmp.path().join("dist");
    let built = flowbench(&["build", "--problems", s(&bank), "-o", s(&dist), "-j", "2"]);
    assert!(built.status.success(), "{}", text(&built));
    let table1 = std::fs::read_to_string(dist.join("table1.md")).unwrap();
    assert!(table1.contains(&format!("| **stdio** | **all** | {} |", dirs.len())), "{table1}");
    let gallery = std::fs::read_to_string(dist.join("index.html")).unwrap();
    let records = jsonl(&dist.join("stdio.jsonl"));
    assert_eq!(records.len(), dirs.len());
    let mut samples = Vec::new();
    for (r, dir) in records.iter().zip(&dirs) {
        let task = r["task_id"].as_str().unwrap().to_string();
        assert_eq!(task, name(dir));
        assert!(gallery.contains(&task), "{task} not in the gallery");
        assert_eq!((r["call_style"].as_str(), r["entry_point"].as_str()), (Some("stdio"), Some("__main__")));
        let tests = r["stdio_tests"].as_array().unwrap();
        let shipped = jsonl(&dir.join("tests.jsonl")).iter().skip(1).filter(|t| t["shipped"] != false).count();
        assert_eq!(tests.len(), shipped, "{task}: every shipped test");
        assert!(tests.iter().all(|t| t["stdin"].is_string() && t["stdout"].is_string()), "{task}");
        assert_eq!(r["checker"], read_json(&dir.join("problem.json"))["checker"], "{task}");
        assert!(dist.join(r["image"].as_str().unwrap()).is_file(), "{task}: no image");
        // HumanEval's shape: prompt + canonical solution is the program.
        let program = format!("{}{}", r["prompt"].as_str().unwrap(), r["canonical_solution"].as_str().unwrap());
        samples.push((task.clone(), "reference", program));
        samples.push((task.clone(), "off_by_one", off_by_one(r["canonical_solution"].as_str().unwrap())));
    }
    let results = judge(tmp.path(), &dist.join("stdio.jsonl"), &samples);
    assert_eq!(results.len(), samples.len());
    for r in &results {
        let reference = r["model"] == "reference";
        assert_eq!(r["passed"], reference, "{} {}: {}", r["task_id"], r["model"], r["result"]);
        if !reference {
            assert_eq!(r["error_class"], "wrong answer", "{r}");
        }
    }
}

/// The reference made wrong the way a misread chart is: every `print(`
/// prints one thing more, so each program prints its answers and a stray
/// token after each.
fn off_by_one(solution: &str) -> String {
    assert!(solution.contains("print("), "{solution}");
    solution.replace("print(", "print(-1, ")
}

#[test]
fn an_imported_apps_problem_builds_as_imported_and_is_judged() {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/apps/apps_strings.jsonl");
    let bank = tmp.path().join("imported");
    let imported = flowbench(&["import", "apps", s(&fixture), "-o", s(&bank)]);
    assert_eq!(imported.status.code(), Some(1), "the fixture's broken record is reported: {}", text(&imported));
    for id in ["4001", "4002", "4003"] {
        let meta = flowbench::bank::meta::read_meta(&flowbench::bank::ProblemDir::read(&bank.join(id)))
            .expect("[meta] written");
        assert_eq!(meta.subset, "apps");
        assert!(bank.join(id).join("flowchart.mmd").is_file(), "{id}: no chart drawn");
    }
    let dist = tmp.path().join("dist");
    let built = flowbench(&["build", "--problems", s(&bank), "-o", s(&dist), "-j", "2"]);
    // The call-based records need generated tests first (their spec says
    // so); the whole programs build on their own tests.
    let said = text(&built);
    assert_eq!(built.status.code(), Some(1), "{said}");
    assert!(said.contains("failed: 4004, 4005") && said.contains("built 3 of 5 problems"), "{said}");
    let records = jsonl(&dist.join("apps.jsonl"));
    let ids: Vec<&str> = records.iter().map(|r| r["task_id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["4001", "4002", "4003"]);
    let mut samples = Vec::new();
    for r in &records {
        let task = r["task_id"].as_str().unwrap().to_string();
        samples.push((task.clone(), "reference", r["canonical_solution"].as_str().unwrap().to_string()));
        samples.push((task, "wrong", "print(1)\n".to_string()));
    }
    let results = judge(tmp.path(), &dist.join("apps.jsonl"), &samples);
    assert_eq!(results.len(), 6);
    for r in &results {
        assert_eq!(r["passed"], r["model"] == "reference", "{} {}: {}", r["task_id"], r["model"], r["result"]);
    }
}
