//! `flowbench tests import` end to end: the real Code-Vision problems (when
//! `../shared` is present) and the CLI's handling of bad input.

use crate::common;

use std::path::Path;
use std::process::Command;

use flowbench::judge::import::{Figures, Source, import_file};

/// Conversion levels reached on Code-Vision's problems.jsonl; a converter
/// change that loses any of them fails here.
const MIN_PROBLEMS_CONVERTED: usize = 431;
const MIN_ASSERTS_CONVERTED: usize = 17_136;
/// The seven problems with no exact native form (random tests, any-of and
/// prefix comparisons), see TEST_STYLES.md.
const EXPECTED_LEGACY: [&str; 7] = [
    "HumanEval-32",
    "HumanEval-38",
    "HumanEval-50",
    "HumanEval-53",
    "1030. Matrix Cells in Distance Order",
    "667. Beautiful Arrangement II",
    "368. Largest Divisible Subset",
];

#[test]
fn codevision_converts_at_the_measured_level() {
    let Some(path) = common::shared("codevision/problems.jsonl") else { return };
    let (problems, outcomes) = import_file(&path, Source::Codevision, Path::new("python3")).expect("import");
    let figures = Figures::from_outcomes(&outcomes);
    println!("{}", figures.table());
    assert_eq!(problems.len(), 438);
    assert!(figures.total.problems_converted >= MIN_PROBLEMS_CONVERTED, "{}", figures.table());
    assert!(figures.total.asserts_converted >= MIN_ASSERTS_CONVERTED, "{}", figures.table());
    assert_eq!(figures.total.asserts, 17_197, "TEST_STYLES.md counts 17,197 asserts");
    let mut legacy: Vec<&str> = outcomes.iter().filter(|o| !o.converted()).map(|o| o.task_id.as_str()).collect();
    legacy.sort_unstable();
    let mut expected = EXPECTED_LEGACY.to_vec();
    expected.sort_unstable();
    assert_eq!(legacy, expected);
    // Every problem keeps its legacy test; converted ones have tests.
    for (p, o) in problems.iter().zip(&outcomes) {
        assert!(p.legacy.is_some(), "{}", p.task_id);
        assert_eq!(p.tests.is_empty(), !o.converted(), "{}", p.task_id);
    }
    // Big ints survive exactly (62. Unique Paths expects C(198, 99)).
    let unique = problems.iter().find(|p| p.task_id == "62. Unique Paths").expect("62 present");
    let big = unique.tests.iter().map(|t| t.expected.to_string()).find(|e| e.len() > 50);
    assert_eq!(big.as_deref(), Some("22750883079422934966181954039568885395604168260154104734000"));
}

/// HumanEval's canonical solutions must pass every converted test, as they
/// pass the legacy asserts: this catches any value or comparison the
/// conversion got wrong (types, tolerance, expansions).
#[test]
fn humaneval_references_pass_the_converted_tests() {
    let Some(path) = common::shared("codevision/problems.jsonl") else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("native.jsonl");
    let run = flowbench().args(["tests", "import"]).arg(&path).arg("-o").arg(&out).output().expect("run");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/check_reference.py");
    let check = Command::new("python3").arg(script).arg(&path).arg(&out).output().expect("python3");
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{stdout}{}", String::from_utf8_lossy(&check.stderr));
    assert!(!stdout.contains("FAIL"), "{stdout}");
    assert!(stdout.contains("checked 1126"), "{stdout}");
}

fn flowbench() -> Command {
    Command::new(env!("CARGO_BIN_EXE_flowbench"))
}

#[test]
fn cli_writes_problems_and_report_for_human_eval_input() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("he.jsonl");
    let rec = serde_json::json!({
        "task_id": "HumanEval/0", "entry_point": "add", "prompt": "def add(a, b):\n",
        "canonical_solution": "    return a + b\n",
        "test": "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(0, 0) == 0\n",
    });
    let bad = serde_json::json!({
        "task_id": "HumanEval/1", "entry_point": "pick", "prompt": "def pick(a):\n",
        "test": "def check(candidate):\n    assert candidate(1) in (1, 2)\n",
    });
    std::fs::write(&input, format!("{rec}\n{bad}\n")).expect("write input");
    let out = dir.path().join("native.jsonl");
    let report = dir.path().join("report.md");
    let run = flowbench()
        .args(["tests", "import", "--from", "human-eval"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .arg("--report")
        .arg(&report)
        .output()
        .expect("run flowbench");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(stderr.contains("| all | 1/2 | 2/3 |"), "{stderr}");
    assert!(stderr.contains("legacy-only (1): HumanEval/1"), "{stderr}");
    let text = std::fs::read_to_string(&out).expect("output written");
    let problems: Vec<flowbench::judge::problem::Problem> =
        text.lines().map(|l| serde_json::from_str(l).expect("valid problem")).collect();
    assert_eq!(problems[0].tests.len(), 2);
    assert_eq!(problems[0].tests[1].category, flowbench::judge::problem::Category::Edge);
    assert_eq!(problems[0].legacy.as_ref().and_then(|l| l.prompt.as_deref()), Some("def add(a, b):\n"));
    assert!(problems[1].tests.is_empty());
    let report = std::fs::read_to_string(&report).expect("report written");
    assert!(report.contains("`HumanEval/1`"), "{report}");
}

#[test]
fn cli_reports_malformed_input_with_file_line_and_column() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("broken.jsonl");
    std::fs::write(&input, "{\"task_id\": \"a\", \"entry_point\": \"f\", \"test\": \"\"}\n{\"task_id\": oops}\n")
        .expect("write input");
    let out = dir.path().join("native.jsonl");
    let run = flowbench().args(["tests", "import"]).arg(&input).arg("-o").arg(&out).output().expect("run");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("broken.jsonl:2:"), "{stderr}");
    assert!(!out.exists(), "no half-written output");
}

/// A made-up Code-Vision MATH problem (`addTwo`) and one sample per
/// body in `samples/MATH/m<i>.jsonl`.
fn made_up_math(dir: &std::path::Path, bodies: &[&str]) -> std::path::PathBuf {
    let problems = dir.join("problems.jsonl");
    let rec = serde_json::json!({
        "subset": "MATH", "task_id": "1. Add Two", "difficulty": "easy", "title": "Add Two",
        "prompt": "easy\nAdd Two\nGiven an integer x, return x + 2.",
        "starter_code": "def addTwo(x: int) -> int:", "entry_point": "addTwo", "call_style": "function",
        "test": "assert addTwo(1) == 3\nassert addTwo(0) == 2\nassert addTwo(-5) == -3\n",
        "canonical_solution": null, "source": "{}",
    });
    std::fs::write(&problems, format!("{rec}\n")).expect("write problems");
    let samples = dir.join("samples/MATH");
    std::fs::create_dir_all(&samples).expect("samples dir");
    for (i, body) in bodies.iter().enumerate() {
        let sample = serde_json::json!({
            "task_id": "1. Add Two", "completion": format!("def addTwo(x: int) -> int:\n    {body}\n"),
            "response": "", "passed": true, "result": "passed",
        });
        std::fs::write(samples.join(format!("m{i}.jsonl")), format!("{sample}\n")).expect("write sample");
    }
    problems
}

/// `import codevision --subset MATH` with references from `dir/samples`.
fn import_math(dir: &std::path::Path, extra: &[&std::ffi::OsStr]) -> (bool, String) {
    let run = flowbench()
        .args(["import", "codevision"])
        .arg(dir.join("problems.jsonl"))
        .args(["--subset", "MATH", "-o"])
        .arg(dir.join("out"))
        .arg("--references-from")
        .arg(dir.join("samples"))
        .args(extra)
        .output()
        .expect("run flowbench");
    (run.status.success(), String::from_utf8_lossy(&run.stderr).into_owned())
}

/// The single problem directory `import` wrote under `dir/out`.
fn only_problem_dir(dir: &std::path::Path) -> std::path::PathBuf {
    let mut dirs: Vec<_> =
        std::fs::read_dir(dir.join("out")).expect("out").flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs.remove(0)
}

/// `import codevision --references-from`, end to end on a made-up MATH
/// problem: two models' samples agree, so a reference is chosen; the report
/// goes to a directory that does not exist yet (it is made, and the chosen
/// reference is never lost to a missing folder).
#[test]
fn codevision_references_report_in_a_new_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    made_up_math(dir.path(), &["return x + 2", "y = x\n    return y + 1 + 1"]);
    let report = dir.path().join("not/yet/there/MATH.json");
    let (ok, stderr) = import_math(dir.path(), &["--report".as_ref(), report.as_os_str()]);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("1 differential"), "{stderr}");
    assert!(report.is_file() && report.with_extension("md").is_file(), "{stderr}");
    let chosen = std::fs::read_to_string(only_problem_dir(dir.path()).join("solution.py")).expect("solution.py");
    assert!(chosen.contains("def addTwo"), "{chosen}");
    // A run stopped after the record (written first) and before the
    // solution it names: the rerun chooses again, never calling what it
    // finds canonical.
    std::fs::remove_file(only_problem_dir(dir.path()).join("solution.py")).expect("remove");
    let (ok, stderr) = import_math(dir.path(), &[]);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("1 differential"), "chosen again: {stderr}");
    assert_eq!(std::fs::read_to_string(only_problem_dir(dir.path()).join("solution.py")).ok(), Some(chosen));
}

/// A hand reference written after a first run left the problem out is
/// used by the rerun (the recorded "left out" is not simply read back),
/// and editing it makes the next rerun use the new text.
#[test]
fn codevision_hand_reference_added_later_is_used_on_rerun() {
    let dir = tempfile::tempdir().expect("tempdir");
    made_up_math(dir.path(), &["return x + 2"]);
    let (ok, stderr) = import_math(dir.path(), &[]);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("1 left out"), "one model only: {stderr}");
    let problem = only_problem_dir(dir.path());
    assert!(!problem.join("solution.py").exists());
    let hand = dir.path().join("hand");
    std::fs::create_dir_all(&hand).expect("hand dir");
    let name = problem.file_name().expect("name").to_string_lossy().into_owned();
    std::fs::write(hand.join(format!("{name}.py")), "def addTwo(x: int) -> int:\n    return 2 + x\n").expect("hand");
    let (ok, stderr) = import_math(dir.path(), &["--hand-refs".as_ref(), hand.as_os_str()]);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("1 hand-written"), "{stderr}");
    let solution = std::fs::read_to_string(problem.join("solution.py")).expect("solution.py");
    assert!(solution.contains("return 2 + x"), "{solution}");
    std::fs::write(hand.join(format!("{name}.py")), "def addTwo(x: int) -> int:\n    return x - -2\n").expect("edit");
    let (ok, stderr) = import_math(dir.path(), &["--hand-refs".as_ref(), hand.as_os_str()]);
    assert!(ok, "{stderr}");
    let solution = std::fs::read_to_string(problem.join("solution.py")).expect("solution.py");
    assert!(solution.contains("return x - -2"), "the edited hand reference: {solution}");
    // A chosen reference whose solution.py was removed is written again.
    std::fs::remove_file(problem.join("solution.py")).expect("remove");
    let (ok, stderr) = import_math(dir.path(), &["--hand-refs".as_ref(), hand.as_os_str()]);
    assert!(ok, "{stderr}");
    assert!(problem.join("solution.py").is_file(), "solution.py restored: {stderr}");
}

/// When the samples cannot even be compared (the hand spec names the hand
/// reference's parameter, which the candidates call otherwise), the hand
/// reference settles the problem instead of it being left out.
#[test]
fn codevision_hand_reference_settles_a_problem_whose_samples_cannot_be_compared() {
    let dir = tempfile::tempdir().expect("tempdir");
    made_up_math(dir.path(), &["return x + 2", "y = x\n    return y + 1 + 1"]);
    let (specs, hand) = (dir.path().join("specs"), dir.path().join("hand"));
    for d in [&specs, &hand] {
        std::fs::create_dir_all(d).expect("dir");
    }
    std::fs::write(specs.join("1__Add_Two.toml"), "[params.value]\nmin = 0\nmax = 9\n").expect("spec");
    std::fs::write(hand.join("1__Add_Two.py"), "def addTwo(value: int) -> int:\n    return value + 2\n").expect("hand");
    let args = ["--specs".as_ref(), specs.as_os_str(), "--hand-refs".as_ref(), hand.as_os_str()];
    let (ok, stderr) = import_math(dir.path(), &args);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("1 hand-written") && stderr.contains("0 left out"), "{stderr}");
    let problem = only_problem_dir(dir.path());
    let entry = std::fs::read_to_string(problem.join("reference.json")).expect("reference.json");
    assert!(entry.contains("no_inputs"), "why the samples did not settle it: {entry}");
    let solution = std::fs::read_to_string(problem.join("solution.py")).expect("solution.py");
    assert!(solution.contains("return value + 2"), "{solution}");
}
