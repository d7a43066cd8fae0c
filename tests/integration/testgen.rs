//! `flowbench tests gen` / `tests score` end to end: the bank's problems
//! regenerate byte-identically (times aside), every bad input is a clear
//! error naming its problem while the others are still processed, a weak
//! suite scores below a strong one, and `build` refuses stale tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn flowbench(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).current_dir(cwd).output().expect("flowbench runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// `tests score --json ARGS` in `root`: one JSON value per line printed.
fn score_lines(root: &Path, args: &[&str]) -> Vec<serde_json::Value> {
    let out = flowbench(&[&["tests", "score", "--json"], args].concat(), root);
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect()
}

fn problem(root: &Path, name: &str, solution: &str, spec: &str) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("solution.py"), solution).unwrap();
    std::fs::write(dir.join("problem.toml"), spec).unwrap();
    dir
}

/// Tests without their measured times (the one field allowed to vary)
/// and the header without its optional mutation score.
fn without_times(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            let fields = v.as_object_mut().unwrap();
            fields.remove("reference_time_s");
            // The header's mutation scores are there only when `--score` ran.
            fields.remove("mutation");
            fields.remove("originals_mutation");
            v
        })
        .collect()
}

#[test]
fn bank_tests_are_fresh_and_regenerate_identically() {
    let bank = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let tmp = tempfile::tempdir().unwrap();
    for name in ["binary_search", "gcd"] {
        let dir = tmp.path().join(name);
        std::fs::create_dir_all(&dir).unwrap();
        for f in ["solution.py", "problem.toml", "problem.json"] {
            std::fs::copy(bank.join(name).join(f), dir.join(f)).unwrap();
        }
        let out = flowbench(&["tests", "gen", name], tmp.path());
        assert!(out.status.success(), "{}", text(&out));
        assert_eq!(
            without_times(&dir.join("tests.jsonl")),
            without_times(&bank.join(name).join("tests.jsonl")),
            "{name}: committed tests differ from a fresh generation"
        );
    }
}

#[test]
fn bad_inputs_are_named_and_others_still_processed() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    problem(
        root,
        "contra",
        "def f(a: int) -> int:\n    return a\n",
        "entry_point = \"f\"\n[params.a]\ncharset = \"abc\"\n",
    );
    problem(root, "nosuch", "def f(a: int) -> int:\n    return a\n", "entry_point = \"f\"\n[params.b]\nmin = 1\n");
    problem(root, "crash", "def f(a: int) -> int:\n    raise ValueError('no')\n", "entry_point = \"f\"\n");
    problem(
        root,
        "reject",
        "def valid(a):\n    return False\n\ndef f(a: int) -> int:\n    return a\n",
        "entry_point = \"f\"\n",
    );
    problem(root, "syntax", "def f(a: int) -> int\n    return a\n", "entry_point = \"f\"\n");
    problem(
        root,
        "floors",
        "def f(a: int) -> int:\n    return a\n",
        "entry_point = \"f\"\n[params.a]\nmin = 0\nmax = 1\n",
    );
    problem(
        root,
        "good",
        "def f(a: int, b: int) -> int:\n    return a + b if a > b else a - b\n",
        "entry_point = \"f\"\n[params.a]\nmin = 0\nmax = 100\n",
    );
    let out = flowbench(&["tests", "gen", "contra", "nosuch", "crash", "reject", "syntax", "floors", "good"], root);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    for expected in [
        "contra/problem.toml: [params.a]: `charset` does not apply to a parameter of type int",
        "nosuch/problem.toml: [params.b] names no parameter of `f`",
        "crash (crash/solution.py): the reference raises on every input",
        "reject (reject/solution.py): valid() rejects every input",
        "syntax/solution.py:1:21: the solution does not parse",
        "only 2 typical tests, the floor is 5",
        "good: ",
    ] {
        assert!(t.contains(expected), "missing {expected:?} in:\n{t}");
    }
    assert!(root.join("good/tests.jsonl").is_file());
    assert!(!root.join("floors/tests.jsonl").exists(), "tests below the floors are not written");
    let out = flowbench(&["tests", "score", "--json", "good", "syntax"], root);
    let t = text(&out);
    let line = t.lines().find(|l| l.starts_with('{')).expect("a JSON line");
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    assert_eq!(v["problem"], "good");
    assert!(v["mutants"].as_u64().unwrap() >= 5 && v["score"].as_f64().unwrap() >= 0.9, "{t}");
    assert!(t.contains("syntax/solution.py:1:21"), "{t}");
}

/// A clamp problem whose problem.json holds one hand-written test.
fn clamp_with_one_hand_test(root: &Path) -> PathBuf {
    let dir = problem(
        root,
        "clamp",
        "def clamp(x: int, lo: int, hi: int) -> int:\n    if x < lo:\n        return lo\n    if x > hi:\n        return hi\n    return x\n",
        "entry_point = \"clamp\"\nrelations = [\"lo <= hi\"]\n",
    );
    let weak =
        r#"{"task_id":"clamp","entry_point":"clamp","call_style":"function","tests":[{"args":[5,0,10],"expected":5}]}"#;
    std::fs::write(dir.join("problem.json"), weak).unwrap();
    dir
}

/// The header line of a problem's tests.jsonl.
fn tests_header(dir: &Path) -> serde_json::Value {
    serde_json::from_str(std::fs::read_to_string(dir.join("tests.jsonl")).unwrap().lines().next().unwrap()).unwrap()
}

#[test]
fn weak_tests_score_lower_and_reduce_keeps_the_kills() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    clamp_with_one_hand_test(root);
    let out = flowbench(&["tests", "gen", "--reduce", "clamp"], root);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("reduced"), "{}", text(&out));
    let score = |tests: &str| -> f64 { score_lines(root, &["--tests", tests, "clamp"])[0]["score"].as_f64().unwrap() };
    let (original, generated) = (score("problem.json"), score("tests.jsonl"));
    assert!(original < 0.6, "one hand test kills few mutants: {original}");
    assert!(generated >= 0.9, "generated (reduced) tests: {generated}");
    let out = flowbench(&["tests", "score", "--tests", "problem.json", "clamp"], root);
    assert!(text(&out).contains("surviving mutant"), "{}", text(&out));
    // Both suites in one run: the figures each gets alone, labelled.
    let lines = score_lines(root, &["--tests", "problem.json", "--tests", "tests.jsonl", "clamp"]);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!((lines[0]["tests"].as_str(), lines[0]["score"].as_f64()), (Some("problem.json"), Some(original)));
    assert_eq!((lines[1]["tests"].as_str(), lines[1]["score"].as_f64()), (Some("tests.jsonl"), Some(generated)));
}

/// The header of `tests gen --no-strengthen` on a quadratic reference
/// (`pairs`) with the given validation limit and large sizes. The
/// reference's loop turns n²/5 times (at five million counted operations a
/// second, 0.04 s of the limit at 1,000 elements): the generator decides by
/// counted operations, which no load changes, so the prediction is what is
/// tested, not the machine.
const QUADRATIC_PAIRS: &str =
    "def pairs(xs: list[int]) -> int:\n    for _ in range(len(xs) ** 2 // 5):\n        pass\n    return sum(xs)\n";

fn quadratic_pairs_header(limit_s: f64, large_len: &str) -> (serde_json::Value, String) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dir = problem(
        root,
        "pairs",
        QUADRATIC_PAIRS,
        &format!(
            "entry_point = \"pairs\"\nvalidate_time_limit_s = {limit_s}\nlarge_len = {large_len}\n[counts]\nlarge = 6\n[params.xs]\nmin = 0\nmax = 9\n"
        ),
    );
    let out = flowbench(&["tests", "gen", "--no-strengthen", "pairs"], root);
    assert!(out.status.success(), "{}", text(&out));
    (tests_header(&dir), text(&out))
}

/// A large input that a smaller one's time, grown linearly, puts past the
/// limit is not run: a quadratic reference would spend the whole limit on it.
#[test]
fn large_inputs_predicted_past_the_limit_are_not_run() {
    let (header, said) = quadratic_pairs_header(0.5, "[200, 1500, 100000]");
    assert!(
        said.contains("2 large inputs not run (predicted past the limit)"),
        "the 100,000 inputs are not run: {said}"
    );
    // The header counts them as timeouts: whether an input ran to the limit
    // or was predicted to depends on the load, and the file must not.
    assert_eq!(header["dropped"]["timeout"].as_u64(), Some(2), "{header}");
    assert!(header["large"].as_u64().unwrap() >= 3, "{header}");
}

/// Linear growth from the middle size would put the largest inputs under
/// the limit; the growth measured between the two smaller sizes puts them
/// well past it, so they are dropped unrun rather than each run to the limit.
#[test]
fn large_inputs_follow_the_measured_growth_of_the_reference() {
    let (header, said) = quadratic_pairs_header(1.0, "[1000, 2000, 10000]");
    assert!(
        said.contains("2 large inputs not run (predicted past the limit)"),
        "the 10,000 inputs are not run: {said}"
    );
    assert_eq!(header["dropped"]["timeout"].as_u64(), Some(2), "none ran to the limit: {header}");
}

/// A reference too slow for every default large size (10^4–10^5 elements)
/// still gets large tests: `tests gen` searches down to the largest sizes
/// it handles within the limit and says so in the header.
#[test]
fn large_sizes_are_lowered_to_what_a_slow_reference_handles() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dir = problem(
        root,
        "pairs",
        QUADRATIC_PAIRS,
        "entry_point = \"pairs\"\nvalidate_time_limit_s = 0.5\n[params.xs]\nmin = 0\nmax = 9\n",
    );
    let out = flowbench(&["tests", "gen", "--no-strengthen", "pairs"], root);
    assert!(out.status.success(), "{}", text(&out));
    let header = tests_header(&dir);
    assert!(header["large"].as_u64().unwrap() >= 3, "{header}");
    let lowered = header["large_lowered"].as_str().unwrap_or_default();
    assert!(lowered.contains("lengths ≤ 3000"), "{header}");
    let large_lengths: Vec<usize> = std::fs::read_to_string(dir.join("tests.jsonl"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|t| t["category"] == "large")
        .map(|t| t["args"][0].as_array().map_or(0, Vec::len))
        .collect();
    assert!(large_lengths.iter().all(|&n| (1000..=3000).contains(&n)), "{large_lengths:?}");
}

/// A suite a constant-returning program would pass, or one that lost the
/// reference's non-plain results, is refused with its reason and not written.
#[test]
fn degenerate_suites_are_refused_with_the_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    problem(root, "always", "def always(n: int) -> int:\n    return 7\n", "entry_point = \"always\"\n");
    problem(
        root,
        "matcher",
        "import re\n\ndef matcher(s: str):\n    return re.match(r'a+', s)\n",
        "entry_point = \"matcher\"\n[params.s]\ncharset = \"ab\"\n",
    );
    let out = flowbench(&["tests", "gen", "--no-strengthen", "always", "matcher"], root);
    assert!(!out.status.success(), "{}", text(&out));
    let said = text(&out);
    assert!(said.contains("always") && said.contains("expects 7: a program that only returns it would pass"), "{said}");
    assert!(said.contains("matcher") && said.contains("not plain data"), "{said}");
    // A floor missed because the reference raises names an input and its error.
    problem(
        root,
        "halves",
        "def halves(n: int) -> int:\n    assert n % 97 == 0\n    return n // 97\n",
        "entry_point = \"halves\"\n",
    );
    let said = text(&flowbench(&["tests", "gen", "--no-strengthen", "halves"], root));
    assert!(
        said.contains("the reference raised on inputs it was given, e.g. halves(") && said.contains("AssertionError"),
        "{said}"
    );
    assert!(!root.join("always/tests.jsonl").exists() && !root.join("matcher/tests.jsonl").exists());
}

/// `tests gen --score-originals` scores the original tests too, against the
/// same mutants, and records both: the figures `tests score` gives each suite.
#[test]
fn gen_score_originals_records_the_original_tests_score_beside_the_generated_one() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dir = clamp_with_one_hand_test(root);
    let out = flowbench(&["tests", "gen", "--score", "clamp"], root);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        !text(&out).contains("the original tests'") && tests_header(&dir).get("originals_mutation").is_none(),
        "{}",
        text(&out)
    );
    let out = flowbench(&["tests", "gen", "--score-originals", "clamp"], root);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("the original tests'"), "{}", text(&out));
    let header = tests_header(&dir);
    let figures = |v: &serde_json::Value| (v["mutants"].as_u64(), v["equivalent"].as_u64(), v["killed"].as_u64());
    let lines = score_lines(root, &["--tests", "tests.jsonl", "--tests", "problem.json", "clamp"]);
    assert_eq!(figures(&header["mutation"]), figures(&lines[0]), "{header}");
    assert_eq!(figures(&header["originals_mutation"]), figures(&lines[1]), "{header}");
    assert!(
        header["originals_mutation"]["score"].as_f64().unwrap() < header["mutation"]["score"].as_f64().unwrap(),
        "{header}"
    );
}

/// Many mutants share a sandbox job, each in its own globals: a mutant
/// that hangs stops its job, and the others in it must still get their own
/// verdicts (here every mutant but the equivalent ones is killed by one of
/// the three tests, two of them by looping forever).
#[test]
fn mutants_sharing_a_job_keep_their_own_verdicts() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dir = problem(
        root,
        "repeat_add",
        "STEP = 3\n\ndef repeat_add(n: int) -> int:\n    total = 0\n    while n > 0:\n        total += STEP\n        n -= 1\n    return total\n",
        "entry_point = \"repeat_add\"\n[params.n]\nmin = 0\nmax = 50\n",
    );
    let tests = r#"{"task_id":"repeat_add","entry_point":"repeat_add","call_style":"function","tests":[{"args":[0],"expected":0},{"args":[1],"expected":3},{"args":[5],"expected":15}]}"#;
    std::fs::write(dir.join("problem.json"), tests).unwrap();
    let line = &score_lines(root, &["--tests", "problem.json", "repeat_add"])[0];
    let (mutants, equivalent, killed) =
        (line["mutants"].as_u64().unwrap(), line["equivalent"].as_u64().unwrap(), line["killed"].as_u64().unwrap());
    assert!(mutants >= 8, "{line}");
    assert_eq!(killed + equivalent, mutants, "every mutant the three tests can tell apart is killed: {line}");
    let out = flowbench(&["tests", "score", "--tests", "problem.json", "repeat_add"], root);
    assert!(!text(&out).contains("surviving mutant"), "{}", text(&out));
}

/// A hand-written test the reference itself does not pass (outside
/// `valid()`'s domain, or a wrong expected value) fails for every mutant
/// too; it must not count as a kill, or any such test scores a suite 1.0.
#[test]
fn tests_the_reference_fails_kill_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dir = problem(
        root,
        "double",
        "def valid(x):\n    return x >= 0\n\ndef double(x: int) -> int:\n    if x > 3:\n        return x + x\n    return 2 * x\n",
        "entry_point = \"double\"\n[params.x]\nmin = 0\nmax = 100\n",
    );
    let tests = r#"{"task_id":"double","entry_point":"double","call_style":"function","tests":[{"args":[-5],"expected":-10},{"args":[7],"expected":15}]}"#;
    std::fs::write(dir.join("problem.json"), tests).unwrap();
    let line = &score_lines(root, &["--tests", "problem.json", "double"])[0];
    assert!(line["mutants"].as_u64().unwrap() >= 3, "{line}");
    assert_eq!(line["killed"].as_u64(), Some(0), "neither test can tell a mutant from the reference: {line}");
}

#[test]
fn gen_adds_a_test_for_each_mutant_random_inputs_kill() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    // Five random lists rarely hold exactly two 7s (nor two 6s or 8s): the
    // generated inputs leave mutants alive that the random pool kills.
    problem(
        root,
        "pairs",
        "from typing import List\n\ndef pairs(xs: List[int]) -> int:\n    if not xs:\n        return -1\n    if xs.count(7) >= 2:\n        return 1\n    return 0\n",
        "entry_point = \"pairs\"\nseed = 5\n[params.xs]\nlen = [0, 8]\nmin = 0\nmax = 9\n[counts]\ntypical = 5\nlarge = 0\n[floors]\ntypical = 1\nedge = 1\nlarge = 0\n",
    );
    let score = || -> f64 { score_lines(root, &["pairs"])[0]["score"].as_f64().unwrap() };
    let out = flowbench(&["tests", "gen", "--no-strengthen", "pairs"], root);
    assert!(out.status.success(), "{}", text(&out));
    let weak = score();
    assert!(weak < 0.9, "without the mutant-guided step these inputs miss mutants (else change the seed): {weak}");
    let out = flowbench(&["tests", "gen", "pairs"], root);
    assert!(text(&out).contains("added to kill surviving mutants"), "{}", text(&out));
    assert!(std::fs::read_to_string(root.join("pairs/tests.jsonl")).unwrap().contains("kills mutant"));
    assert_eq!(score(), 1.0);
    // `--score` reuses the step's kills: the figures `tests score` finds.
    let out = flowbench(&["tests", "gen", "--score", "pairs"], root);
    assert!(out.status.success(), "{}", text(&out));
    let tests = std::fs::read_to_string(root.join("pairs/tests.jsonl")).unwrap();
    let header: serde_json::Value = serde_json::from_str(tests.lines().next().unwrap()).unwrap();
    let v = &score_lines(root, &["pairs"])[0];
    for key in ["mutants", "equivalent", "killed", "score"] {
        assert_eq!(header["mutation"][key], v[key], "{key}: gen --score {header} vs tests score {v}");
    }
}

/// `build` ships only the tests `tests gen` marked to ship, and the gallery
/// shows both sizes; `tests score` still scores every test. Checked on a
/// copy of the bank's gcd: its tests.jsonl marks some tests
/// `"shipped": false` (the originals, each mutant's first killer, one edge
/// test per kind and the largest inputs ship).
#[test]
fn build_ships_the_shipped_suite_and_the_gallery_shows_both_sizes() {
    let bank = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/gcd");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("bank/gcd");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["solution.py", "problem.toml", "problem.json", "tests.jsonl", "flowchart.mmd", "description.md"] {
        std::fs::copy(bank.join(f), dir.join(f)).unwrap();
    }
    let text_of = |p: &Path| std::fs::read_to_string(p).unwrap();
    let lines: Vec<serde_json::Value> =
        text_of(&dir.join("tests.jsonl")).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let (header, tests) = lines.split_first().unwrap();
    let shipped = tests.iter().filter(|t| t.get("shipped") != Some(&serde_json::json!(false))).count();
    assert!(0 < shipped && shipped < tests.len(), "{shipped} of {}", tests.len());
    assert_eq!(header["shipped"], shipped, "the header counts the shipped tests");
    let out = flowbench(&["build", "--problems", "bank", "-o", "out"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    let record: serde_json::Value =
        serde_json::from_str(text_of(&tmp.path().join("out/math.jsonl")).lines().next().unwrap()).unwrap();
    assert_eq!(record["native_tests"].as_array().unwrap().len(), shipped);
    let gallery = text_of(&tmp.path().join("out/index.html"));
    assert!(gallery.contains(&format!("{shipped} shipped</td><td>of {} generated", tests.len())), "{gallery}");
    let out = flowbench(&["tests", "score", "--tests", "tests.jsonl", "--json", "bank/gcd"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn build_refuses_stale_tests() {
    let bank = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/gcd");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("bank/gcd");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["solution.py", "problem.toml", "problem.json", "tests.jsonl", "flowchart.mmd", "description.md"] {
        std::fs::copy(bank.join(f), dir.join(f)).unwrap();
    }
    let spec = std::fs::read_to_string(dir.join("problem.toml")).unwrap();
    // A comment or [meta] would not change a test (and keeps the tests fresh); the seed does.
    std::fs::write(dir.join("problem.toml"), spec.replacen("seed = 1", "seed = 2", 1)).unwrap();
    let out = flowbench(&["build", "--problems", "bank", "-o", "out"], tmp.path());
    assert!(!out.status.success());
    assert!(text(&out).contains("stale") && text(&out).contains("flowbench tests gen bank/gcd"), "{}", text(&out));
    std::fs::remove_file(dir.join("tests.jsonl")).unwrap();
    let out = flowbench(&["build", "--problems", "bank", "-o", "out"], tmp.path());
    assert!(text(&out).contains("missing; generate it with `flowbench tests gen bank/gcd`"), "{}", text(&out));
}

#[test]
fn check_and_build_report_a_solution_that_does_not_parse_as_tests_gen_does() {
    let bank = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/gcd");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("bank/gcd");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["solution.py", "problem.toml", "problem.json", "tests.jsonl", "flowchart.mmd", "description.md"] {
        std::fs::copy(bank.join(f), dir.join(f)).unwrap();
    }
    let solution = std::fs::read_to_string(dir.join("solution.py")).unwrap();
    std::fs::write(dir.join("solution.py"), solution.replacen("while b != 0:", "while b != 0", 1)).unwrap();
    let said = "bank/gcd/solution.py:3:17: the solution does not parse: expected ':'";
    let out = flowbench(&["tests", "gen", "bank/gcd"], tmp.path());
    assert!(!out.status.success() && text(&out).contains(said), "{}", text(&out));
    for args in [&["check", "bank/gcd"][..], &["build", "--problems", "bank", "-o", "out"]] {
        let out = flowbench(args, tmp.path());
        let all = text(&out);
        assert!(!out.status.success(), "{args:?}: {all}");
        assert_eq!(all.matches(said).count(), 1, "{args:?}: said once: {all}");
        assert!(!all.contains("stale") && !all.contains("fails test"), "{args:?}: only the cause: {all}");
    }
}

/// The generated tests' argument lists (header skipped).
/// Every test line of `dir`'s tests.jsonl (the header left out).
fn test_lines(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("tests.jsonl"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn generated_args(dir: &Path) -> Vec<Vec<serde_json::Value>> {
    test_lines(dir).into_iter().map(|v| v["args"].as_array().unwrap().clone()).collect()
}

fn imported(root: &Path, name: &str, solution: &str, tests: &str) -> PathBuf {
    let dir = problem(root, name, solution, "infer_domain = true\n");
    let entry = solution.split("def ").nth(1).and_then(|s| s.split('(').next()).unwrap();
    std::fs::write(
        dir.join("problem.json"),
        format!(r#"{{"task_id": "{name}", "entry_point": "{entry}", "call_style": "function", "tests": {tests}}}"#),
    )
    .unwrap();
    dir
}

#[test]
fn an_imported_problem_takes_its_domain_from_its_original_tests() {
    // Without `infer_domain`, most random strings make `int(digits)` raise;
    // with it, the alphabet (digits), non-emptiness and the sign (n >= 1)
    // come from the two original tests, and nothing outside them is made.
    let tmp = tempfile::tempdir().unwrap();
    let tests =
        r#"[{"args": ["12", 3], "kwargs": {}, "expected": 36}, {"args": ["907", 1], "kwargs": {}, "expected": 907}]"#;
    let solution = "def scale(digits: str, n: int) -> int:\n    if n < 1:\n        raise ValueError('n must be positive')\n    return int(digits) * n\n";
    let dir = imported(tmp.path(), "digits", solution, tests);
    let out = flowbench(&["tests", "gen", "digits"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    assert!(!text(&out).contains("raised"), "inputs outside the examples' domain were made: {}", text(&out));
    let all = generated_args(&dir);
    assert!(all.len() >= 13, "{} tests", all.len());
    for args in &all {
        let (s, n) = (args[0].as_str().unwrap(), args[1].as_i64().map(i128::from).unwrap_or(i128::MAX));
        assert!(!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()), "{s:?} is not a non-empty digit string");
        assert!(n >= 1, "n = {n}");
    }
    // The header says where each domain came from.
    let header = tests_header(&dir);
    assert_eq!(header["domains"], serde_json::json!({"digits": "examples", "n": "examples"}), "{header}");
    // The spec wins over inference: a written [params.n] allows zero.
    std::fs::write(dir.join("problem.toml"), "infer_domain = true\n[params.n]\nmin = 0\nmax = 5\n").unwrap();
    let out = flowbench(&["tests", "gen", "digits"], tmp.path());
    assert!(text(&out).contains("raised"), "n = 0 was never tried: {}", text(&out));
    let header = tests_header(&dir);
    assert_eq!(header["domains"], serde_json::json!({"digits": "examples", "n": "spec"}), "{header}");
}

#[test]
fn inferred_domains_widen_where_the_statement_is_silent_and_boundary_inputs_reach_the_edges() {
    let tmp = tempfile::tempdir().unwrap();
    // Every example has two equal-length, non-empty lists: unequal lengths
    // and empty lists are inputs all the same (the statement says nothing
    // of either), and the boundary inputs put one list empty beside a
    // non-empty one.
    let equal = r#"[{"args": [[1, 2], [1, 3]], "kwargs": {}, "expected": 1}, {"args": [[4, 5, 6], [4, 5, 6]], "kwargs": {}, "expected": 3}]"#;
    let dir = imported(
        tmp.path(),
        "matches",
        "def matches(xs: list, ys: list) -> int:\n    return sum(1 for i in range(min(len(xs), len(ys))) if xs[i] == ys[i])\n",
        equal,
    );
    let out = flowbench(&["tests", "gen", "matches"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    let all = generated_args(&dir);
    let len = |v: &serde_json::Value| v.as_array().unwrap().len();
    assert!(all.iter().any(|a| len(&a[0]) != len(&a[1])), "no unequal lengths");
    assert!(all.iter().any(|a| len(&a[0]) == 0 && len(&a[1]) > 0), "no empty list beside a non-empty one");
    // The same examples under a statement that says "of equal length".
    let dir = imported(
        tmp.path(),
        "told",
        "def matches(xs: list, ys: list) -> int:\n    \"\"\"Two lists of equal length.\"\"\"\n    return sum(1 for x, y in zip(xs, ys) if x == y)\n",
        equal,
    );
    let out = flowbench(&["tests", "gen", "told"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    assert!(generated_args(&dir).iter().all(|a| len(&a[0]) == len(&a[1])), "unequal lengths made");
    assert_eq!(tests_header(&dir)["domains"], serde_json::json!({"xs": "signature", "ys": "docstring"}));
    // A reference that zips the two assumed equal lengths (zip drops the
    // longer one's tail): they stay equal.
    let dir = imported(
        tmp.path(),
        "zipped",
        "def matches(xs: list, ys: list) -> int:\n    return sum(1 for x, y in zip(xs, ys) if x == y)\n",
        equal,
    );
    assert!(flowbench(&["tests", "gen", "zipped"], tmp.path()).status.success());
    assert!(generated_args(&dir).iter().all(|a| len(&a[0]) == len(&a[1])), "unequal lengths made for zip");
    // Lowercase words in every example: capitals and a blank are inputs
    // unless the statement says "lowercase".
    let words = r#"[{"args": ["abcdefghijklm"], "kwargs": {}, "expected": "ABCDEFGHIJKLM"}, {"args": ["nopqrstuvwxyz"], "kwargs": {}, "expected": "NOPQRSTUVWXYZ"}]"#;
    let shout = |doc: &str| format!("def shout(word: str) -> str:\n    {doc}\n    return word.upper()\n");
    let chars = |dir: &Path| -> String {
        generated_args(dir).iter().filter_map(|a| a[0].as_str().map(str::to_string)).collect::<Vec<_>>().concat()
    };
    let dir = imported(tmp.path(), "shout", &shout("pass"), words);
    assert!(flowbench(&["tests", "gen", "shout"], tmp.path()).status.success());
    let seen = chars(&dir);
    assert!(seen.contains(' ') && seen.chars().any(|c| c.is_ascii_uppercase()), "not widened: {seen:?}");
    let dir = imported(tmp.path(), "lower", &shout("\"\"\"A lowercase word.\"\"\""), words);
    assert!(flowbench(&["tests", "gen", "lower"], tmp.path()).status.success());
    let seen = chars(&dir);
    assert!(!seen.chars().any(|c| c.is_ascii_uppercase()), "capitals made: {seen:?}");
    // Letters beyond ASCII ("ñ" beside the lowercase ones, "Ñ" beside the
    // capitals) are letters to `str.upper`, but not to a reference that
    // reads letters by their codes, nor where the statement says "English".
    let beyond = |seen: &str| seen.chars().filter(|c| !c.is_ascii()).collect::<std::collections::BTreeSet<char>>();
    assert_eq!(beyond(&chars(&dir)), "ñç".chars().collect(), "lowercase only");
    let dir = tmp.path().join("shout");
    assert_eq!(beyond(&chars(&dir)), "ñçÑÇ".chars().collect(), "both cases");
    // And an original example with each word's first consonant beyond
    // ASCII ships, with the reference's answer.
    let example = test_lines(&dir).into_iter().find(|t| t["how"] == "edge: original test 1 with letters beyond ASCII");
    let example = example.expect("no example with letters beyond ASCII");
    assert_eq!(
        (&example["args"][0], &example["expected"]),
        (&serde_json::json!("añcdefghijklm"), &serde_json::json!("AÑCDEFGHIJKLM"))
    );
    assert_ne!(example["shipped"], serde_json::json!(false), "not shipped: {example}");
    let by_codes = "def shout(word: str) -> str:\n    return ''.join(chr(ord(c) - 32) if 97 <= ord(c) <= 122 else c for c in word)\n";
    let dir = imported(tmp.path(), "codes", by_codes, words);
    assert!(flowbench(&["tests", "gen", "codes"], tmp.path()).status.success());
    assert!(beyond(&chars(&dir)).is_empty(), "letters beyond ASCII for a reference by codes");
    let dir = imported(tmp.path(), "english", &shout("\"\"\"An English word.\"\"\""), words);
    assert!(flowbench(&["tests", "gen", "english"], tmp.path()).status.success());
    assert!(beyond(&chars(&dir)).is_empty(), "letters beyond ASCII for English words");
    // Every example's count is at least 1: zero stays out unless the
    // statement says "natural number" (or "non-negative"), and then a
    // `count == 0` that returns every word (Claude 3 Sonnet's HumanEval-117)
    // is caught.
    let counts = r#"[{"args": ["Mary had a lamb", 4], "kwargs": {}, "expected": ["lamb"]}, {"args": ["simple white space", 2], "kwargs": {}, "expected": []}, {"args": ["Hello world", 4], "kwargs": {}, "expected": ["world"]}]"#;
    let words_with = |doc: &str| {
        format!(
            "def select(s: str, n: int) -> list:\n    {doc}\n    return [w for w in s.split() if sum(c.lower() not in 'aeiou' for c in w) == n]\n"
        )
    };
    let zeros = |dir: &Path| generated_args(dir).iter().filter(|a| a[1] == serde_json::json!(0)).count();
    let dir = imported(tmp.path(), "counted", &words_with("pass"), counts);
    assert!(flowbench(&["tests", "gen", "counted"], tmp.path()).status.success());
    assert_eq!(zeros(&dir), 0, "zero made where the statement is silent");
    let dir =
        imported(tmp.path(), "natural", &words_with("\"\"\"Given a string s and a natural number n.\"\"\""), counts);
    assert!(flowbench(&["tests", "gen", "natural"], tmp.path()).status.success());
    assert!(zeros(&dir) > 0, "no n = 0 though the statement says natural number");
    assert_eq!(tests_header(&dir)["domains"]["n"], serde_json::json!("docstring"));
}

/// The tests of `dir` as (how, args, expected).
fn generated_tests(dir: &Path) -> Vec<(String, Vec<serde_json::Value>, serde_json::Value)> {
    test_lines(dir)
        .into_iter()
        .map(|v| {
            (v["how"].as_str().unwrap_or("").to_string(), v["args"].as_array().unwrap().clone(), v["expected"].clone())
        })
        .collect()
}

/// Two wrong programs real models wrote for HumanEval (issue 26) that
/// mutants of the reference do not show: `<=` for "closer than the
/// threshold" (a float gap is rounded, so only numbers on an exact grid
/// can put the threshold on it) and trial division without a square-root
/// bound (only a large prime factor shows it).
#[test]
fn boundary_inputs_put_a_threshold_exactly_on_a_gap_and_a_large_prime_factor_in_reach() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = problem(
        tmp.path(),
        "close",
        "from typing import List\n\n\ndef close(xs: List[float], t: float) -> bool:\n    return any(abs(a - b) < t for i, a in enumerate(xs) for b in xs[i + 1:])\n",
        "entry_point = \"close\"\n[params.xs]\nlen = [0, 8]\nmin = -100.0\nmax = 100.0\n[params.t]\nmin = 0.0\nmax = 50.0\n",
    );
    let out = flowbench(&["tests", "gen", "close"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    let on_gap = |args: &[serde_json::Value]| {
        let xs: Vec<f64> = args[0].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        let t = args[1].as_f64().unwrap();
        let pairs = || xs.iter().enumerate().flat_map(|(i, a)| xs[i + 1..].iter().map(move |b| (a - b).abs()));
        pairs().any(|d| d == t) && pairs().all(|d| d >= t)
    };
    let tests = generated_tests(&dir);
    let exact: Vec<_> = tests.iter().filter(|(how, args, _)| how.contains("exactly") && on_gap(args)).collect();
    assert!(
        !exact.is_empty(),
        "no threshold exactly on the closest gap: {:?}",
        tests.iter().map(|t| &t.0).collect::<Vec<_>>()
    );
    // There the reference says no pair is closer, and `<=` says one is.
    assert!(exact.iter().all(|(_, _, expected)| expected == &serde_json::json!(false)));

    let dir = problem(
        tmp.path(),
        "factors",
        "def factors(n: int) -> list:\n    out, d = [], 2\n    while d * d <= n:\n        while n % d == 0:\n            out.append(d)\n            n //= d\n        d += 1\n    return out + [n] if n > 1 else out\n",
        "entry_point = \"factors\"\n[params.n]\nmin = 2\n",
    );
    let out = flowbench(&["tests", "gen", "factors"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    // 2 * (10^9 + 7): 31,623 steps of the reference's loop, a billion of
    // one that runs to the factor.
    let tests = generated_tests(&dir);
    assert!(
        tests.iter().any(|(_, args, expected)| args[0] == serde_json::json!(2_000_000_014_u64)
            && expected == &serde_json::json!([2, 1_000_000_007])),
        "no large prime factor: {:?}",
        tests.iter().map(|t| &t.0).collect::<Vec<_>>()
    );
}

/// A large input decided by the whole of it: an original example repeated
/// to a quarter of the first large size. Random large lists almost always hold an
/// element over the threshold within their first few, so they pass a
/// program that recurses once per element (a real model's HumanEval-52);
/// the repeated example is under the threshold throughout, and it ships.
#[test]
fn an_example_repeated_to_a_large_size_is_decided_by_the_whole_of_it_and_ships() {
    let tmp = tempfile::tempdir().unwrap();
    let tests = r#"[{"args": [[1, 2, 4, 10], 100], "kwargs": {}, "expected": true}, {"args": [[1, 20, 4, 10], 5], "kwargs": {}, "expected": false}]"#;
    let dir = imported(
        tmp.path(),
        "below",
        "def below(l: list, t: int) -> bool:\n    for e in l:\n        if e >= t:\n            return False\n    return True\n",
        tests,
    );
    let out = flowbench(&["tests", "gen", "below"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    let lines = test_lines(&dir);
    let repeated: Vec<&serde_json::Value> =
        lines.iter().filter(|t| t["how"].as_str().is_some_and(|h| h.contains(" repeated "))).collect();
    // Two: a quarter of the first large size, and stretched to three times
    // the largest (where `l.pop(0)` until the list is empty runs past the
    // limit).
    assert_eq!(repeated.len(), 2, "{:?}", lines.iter().map(|t| &t["how"]).collect::<Vec<_>>());
    for (t, how, len) in [
        (repeated[0], "large: original test 1 repeated 625 times", 2_500),
        (repeated[1], "large: original test 1 repeated 75000 times (stretched)", 300_000),
    ] {
        assert_eq!(t["how"], how);
        assert_eq!(t["category"], "large");
        assert_eq!(t["args"][0].as_array().map(Vec::len), Some(len));
        assert_eq!(t["expected"], true, "decided by its last element");
        assert_ne!(t["shipped"], false, "a repeated example ships");
    }
}

/// A string example is stretched too, to three times the largest large
/// size (300,000 characters), where a program quadratic in the length
/// (`s = s[1:]` in a loop) runs past the limit; it ships.
#[test]
fn a_string_example_is_stretched_to_three_times_the_largest_size_and_ships() {
    let tmp = tempfile::tempdir().unwrap();
    let tests = r#"[{"args": ["hihi"], "kwargs": {}, "expected": 2}]"#;
    let dir = imported(tmp.path(), "count_h", "def count_h(s: str) -> int:\n    return s.count('h')\n", tests);
    let out = flowbench(&["tests", "gen", "count_h"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    let lines = test_lines(&dir);
    let repeated: Vec<(&str, usize, &serde_json::Value, bool)> = lines
        .iter()
        .filter(|t| t["how"].as_str().is_some_and(|h| h.contains(" repeated ")))
        .map(|t| {
            (t["how"].as_str().unwrap(), t["args"][0].as_str().unwrap().len(), &t["expected"], t["shipped"] != false)
        })
        .collect();
    let (a, b) = (serde_json::json!(1_250), serde_json::json!(150_000));
    assert_eq!(
        repeated,
        [
            ("large: original test 1 repeated 625 times", 2_500, &a, true),
            ("large: original test 1 repeated 75000 times (stretched)", 300_000, &b, true)
        ]
    );
}

#[test]
fn graph_and_matrix_generators_keep_their_shapes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = problem(
        tmp.path(),
        "shapes",
        "from typing import List\n\n\ndef f(n: int, edges: List[List[int]], grid: List[List[int]]) -> int:\n    return n + len(edges) + sum(map(sum, grid))\n",
        "entry_point = \"f\"\n[params.n]\nmin = 1\nmax = 60\n\n[params.edges]\ngraph = true\ntree = true\nnodes = \"n\"\n\n[params.grid]\nrows = [1, 6]\ncols = [2, 4]\nmin = -9\nmax = 9\n\n[counts]\nlarge = 3\n",
    );
    let out = flowbench(&["tests", "gen", "shapes"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    for args in generated_args(&dir) {
        let n = args[0].as_u64().unwrap() as usize;
        let edges: Vec<(usize, usize)> = args[1]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e[0].as_u64().unwrap() as usize, e[1].as_u64().unwrap() as usize))
            .collect();
        // A tree over 0..n: n - 1 edges that join every node.
        assert_eq!(edges.len(), n - 1, "n = {n}: {edges:?}");
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(p: &mut [usize], x: usize) -> usize {
            if p[x] == x {
                x
            } else {
                let r = root(p, p[x]);
                p[x] = r;
                r
            }
        }
        for (a, b) in edges {
            assert!(a < n && b < n);
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            assert_ne!(ra, rb, "a cycle: not a tree");
            parent[ra] = rb;
        }
        let grid = args[2].as_array().unwrap();
        assert!((1..=6).contains(&grid.len()), "{} rows", grid.len());
        let width = grid[0].as_array().unwrap().len();
        assert!((2..=4).contains(&width), "{width} columns");
        for row in grid {
            let row = row.as_array().unwrap();
            assert_eq!(row.len(), width, "a ragged matrix");
            assert!(row.iter().all(|x| (-9..=9).contains(&x.as_i64().unwrap())));
        }
    }
}

#[test]
fn patterns_square_permutations_and_offset_lengths_keep_their_shapes() {
    // Formatted strings come from a regular expression, a square matrix
    // holds a permutation of 1..N², and a list is one longer than another.
    let tmp = tempfile::tempdir().unwrap();
    let dir = problem(
        tmp.path(),
        "formats",
        "from typing import List\n\n\ndef f(frac: str, grid: List[List[int]], ops: List[str], nums: List[int]) -> int:\n    return len(frac) + len(grid) + len(ops) + sum(nums)\n",
        "entry_point = \"f\"\nlarge_len = [4, 5, 6]\nrelations = [\"len(nums) == len(ops) + 1\"]\n\n[params.frac]\npattern = '[1-9][0-9]{0,3}/[1-9][0-9]{0,3}'\n\n[params.grid]\nrows = [2, 5]\nsquare = true\npermutation = 1\n\n[params.ops]\nlen = [1, 6]\nelem = { pattern = '\\+|-|//' }\n\n[params.nums]\nsame_len = \"ops + 1\"\nmin = 0\nmax = 9\n\n[counts]\nlarge = 3\n",
    );
    let out = flowbench(&["tests", "gen", "formats"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    let all = generated_args(&dir);
    let fracs: Vec<&str> = all.iter().map(|a| a[0].as_str().unwrap()).collect();
    for args in &all {
        let frac = args[0].as_str().unwrap();
        let parts: Vec<&str> = frac.split('/').collect();
        assert_eq!(parts.len(), 2, "{frac:?}");
        for p in parts {
            assert!(
                (1..=4).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()) && !p.starts_with('0'),
                "{frac:?}"
            );
        }
        let grid = args[1].as_array().unwrap();
        let n = grid.len();
        assert!((2..=5).contains(&n), "{n} rows");
        let mut cells: Vec<u64> = Vec::new();
        for row in grid {
            let row = row.as_array().unwrap();
            assert_eq!(row.len(), n, "not square");
            cells.extend(row.iter().map(|x| x.as_u64().unwrap()));
        }
        cells.sort();
        assert_eq!(cells, (1..=(n * n) as u64).collect::<Vec<_>>(), "not a permutation of 1..N²");
        let ops = args[2].as_array().unwrap();
        assert!((1..=6).contains(&ops.len()));
        assert!(ops.iter().all(|o| ["+", "-", "//"].contains(&o.as_str().unwrap())), "{ops:?}");
        let nums = args[3].as_array().unwrap();
        assert_eq!(nums.len(), ops.len() + 1);
        assert!(nums.iter().all(|x| x.as_u64().unwrap() <= 9));
    }
    // The pattern's edges: fewest repeats with the first and last characters.
    assert!(fracs.contains(&"1/1") && fracs.contains(&"9/9"), "{fracs:?}");
    // A pattern that does not parse is the author's error, named.
    std::fs::write(dir.join("problem.toml"), "entry_point = \"f\"\n[params.frac]\npattern = '[1-'\n").unwrap();
    let out = flowbench(&["tests", "gen", "formats"], tmp.path());
    assert!(!out.status.success() && text(&out).contains("pattern `[1-` does not parse"), "{}", text(&out));
}

/// A pool's calls stop once they have spent the budget (kept inside the
/// sandboxed process, so the pool costs one round of jobs): the later
/// inputs are not run, and with room to spare every input is.
#[test]
fn a_budgeted_run_stops_once_its_calls_have_spent_the_budget() {
    use flowbench::exec::{CallStyle, ExecConfig, Executor, Limits};
    use flowbench::testgen::reference::{Run, run_within_budget, wrap};
    let exec =
        Executor::start(ExecConfig { workers: 2, ..ExecConfig::default() }).unwrap_or_else(|e| panic!("executor: {e}"));
    // 100,000 counted operations a call: 0.02 s of the budget.
    let source =
        wrap("def f(x):\n    for _ in range(100_000):\n        pass\n    return x\n", "f", CallStyle::Function, false);
    let inputs: Vec<Vec<serde_json::Value>> = (0..40).map(|i| vec![serde_json::json!(i)]).collect();
    let limits = Limits { wall: std::time::Duration::from_secs(2), cpu: std::time::Duration::from_secs(2) };
    let runs = run_within_budget(&exec, &source, &inputs, limits, 0.2).unwrap();
    let ran = runs.iter().filter(|r| matches!(r, Run::Value(..))).count();
    assert!((2..=12).contains(&ran), "{ran} of 40 calls of 0.02 s ran on a 0.2 s budget: {runs:?}");
    assert!(runs.iter().all(|r| matches!(r, Run::Value(..) | Run::NotRun)), "{runs:?}");
    let all = run_within_budget(&exec, &source, &inputs[..5], limits, 10.0).unwrap();
    assert!(all.iter().all(|r| matches!(r, Run::Value(..))), "{all:?}");
}

/// `solution`'s `f`, counted, on `inputs` under a 0.2 s limit (a cap of a
/// million operations, the clock backing it at 0.4 s).
fn counted_runs(solution: &str, inputs: &[Vec<serde_json::Value>]) -> Vec<flowbench::testgen::reference::Run> {
    use flowbench::exec::{CallStyle, ExecConfig, Executor, Limits};
    use flowbench::testgen::reference::{run_all, wrap};
    let exec =
        Executor::start(ExecConfig { workers: 1, ..ExecConfig::default() }).unwrap_or_else(|e| panic!("executor: {e}"));
    let source = wrap(solution, "f", CallStyle::Function, false);
    let limit = COUNTED_LIMIT;
    run_all(&exec, &source, inputs, Limits { wall: limit, cpu: limit }).unwrap()
}

const COUNTED_LIMIT: std::time::Duration = std::time::Duration::from_millis(200);

/// A counted call stops at its cap of operations (five million a second of
/// its limit), whatever the clock says, so an input is kept or dropped alike
/// on an idle and a loaded machine; the clock stops only what is not
/// counted (a sleep here, a huge `pow` in earnest), at twice the limit.
#[test]
fn a_counted_call_stops_at_its_cap_of_operations_and_the_clock_only_backs_it() {
    use flowbench::testgen::reference::Run;
    let inputs: Vec<Vec<serde_json::Value>> = [(900_000, 0.0), (1_100_000, 0.0), (10, 0.3), (10, 0.7)]
        .iter()
        .map(|&(t, n)| vec![t.into(), n.into()])
        .collect();
    let runs = counted_runs(
        "import time\n\ndef f(turns, nap):\n    time.sleep(nap)\n    return sum([1 for _ in range(turns)])\n",
        &inputs,
    );
    // The function's call and one per element.
    assert!(matches!(&runs[0], Run::Value(v, cost) if v == 900_000 && cost.ops == Some(900_001)), "{:?}", runs[0]);
    assert_eq!(runs[1], Run::TimedOut, "1.1 million operations are past the cap of a million");
    assert!(matches!(&runs[2], Run::Value(v, cost) if v == 10 && cost.wall > COUNTED_LIMIT), "{:?}", runs[2]);
    assert_eq!(runs[3], Run::TimedOut, "0.7 s is past twice the limit");
}

/// A `for` turn is counted as a tick drawn beside its item, once per turn
/// as a body's tick was: a loop of 900,000 turns spends 900,001
/// operations with the call, and one past the cap ends as "over" (the loop
/// just stops there, and its `else` runs: the wrapper still reads "over").
/// Code at the module's top level (a table built once, a loop) runs outside
/// any call and is not charged to one.
#[test]
fn for_turns_are_counted_once_each_and_module_level_code_runs_uncounted() {
    use flowbench::testgen::reference::Run;
    let inputs: Vec<Vec<serde_json::Value>> = [900_000, 1_100_000].iter().map(|&t| vec![t.into()]).collect();
    let runs = counted_runs(
        "TABLE = [i * i for i in range(1000)]\nfor _k in range(10):\n    TABLE.append(0)\n\n\ndef f(turns):\n    total = 0\n    for i, t in enumerate(range(turns)):\n        total += 1\n    else:\n        total += len(TABLE) - 1010\n    return total\n",
        &inputs,
    );
    assert!(matches!(&runs[0], Run::Value(v, cost) if v == 900_000 && cost.ops == Some(900_001)), "{:?}", runs[0]);
    assert_eq!(runs[1], Run::TimedOut, "1.1 million turns are past the cap of a million");
}

/// The kill search stops a mutant by its count, not the clock: with a
/// reference of a few operations a call, a mutant's cap is the CPU floor's
/// quarter of a million operations, so one that spends 400,000 (about 30 ms,
/// inside the old 50 ms CPU floor) is killed and one that spends 100,000 is
/// not, on any load; a mutant that never ends is killed the same way, the
/// job it shares goes on (its "over" does not end the process), and its
/// later calls are not run, as after a timeout.
#[test]
fn the_kill_search_limits_a_mutant_by_its_count_of_operations() {
    use flowbench::exec::{ExecConfig, Executor};
    use flowbench::judge::compare::CompareOptions;
    use flowbench::testgen::kill::kill_search;
    use flowbench::testgen::reference::wrap;
    let exec =
        Executor::start(ExecConfig { workers: 1, ..ExecConfig::default() }).unwrap_or_else(|e| panic!("executor: {e}"));
    let mutant = |work: &str| {
        let source = format!("def f(n):\n    {work}\n    return n\n");
        wrap(&source, "f", flowbench::exec::CallStyle::Function, false)
    };
    let sources = vec![
        mutant("sum(1 for _ in range(400_000))"),
        mutant("sum(1 for _ in range(100_000))"),
        mutant("while True: pass"),
        mutant("pass"),
    ];
    let tests = answering_their_argument(3);
    let found = kill_search(
        &exec,
        &sources,
        &tests,
        &[0, 0, 0],
        &[0, 1, 2],
        std::time::Duration::from_secs(1),
        &CompareOptions::default(),
        &[],
    )
    .unwrap();
    let killed: Vec<bool> = found.iter().map(|f| !f.killers[0].is_empty()).collect();
    assert_eq!(killed, [true, false, true, false], "400,000 operations past the cap, 100,000 inside it");
    assert_eq!(found[2].verdicts, [(0, true)], "past its cap once, the endless mutant's other calls are not run");
}

/// Tests `f(1)` … `f(count)` that expect their argument back, measured as
/// instant (so only the limits the search sets itself apply).
fn answering_their_argument(count: i64) -> Vec<flowbench::testgen::score::ScoredTest> {
    (1..=count)
        .map(|n| flowbench::testgen::score::ScoredTest {
            args: vec![n.into()],
            expected: n.into(),
            time_s: 1e-6,
            cost_s: 1e-6,
            ops: None,
            timing_only: false,
            widened: None,
        })
        .collect()
}

/// A mutant that raises is killed by that call, whatever the expected value,
/// so its later calls in the step are not run; a test of another suite it
/// skipped runs in the next round, where that suite still needs a killer.
#[test]
fn a_mutant_that_raises_runs_no_more_of_its_step() {
    use flowbench::exec::{ExecConfig, Executor};
    use flowbench::judge::compare::CompareOptions;
    use flowbench::testgen::kill::kill_search;
    use flowbench::testgen::reference::wrap;
    let exec =
        Executor::start(ExecConfig { workers: 1, ..ExecConfig::default() }).unwrap_or_else(|e| panic!("executor: {e}"));
    let source =
        |body: &str| wrap(&format!("def f(n):\n    {body}\n"), "f", flowbench::exec::CallStyle::Function, false);
    let sources = vec![source("raise ValueError(n)"), source("return n")];
    let tests = answering_their_argument(4);
    let found = kill_search(
        &exec,
        &sources,
        &tests,
        &[0, 0, 0, 1],
        &[0, 1, 2, 3],
        std::time::Duration::from_secs(1),
        &CompareOptions::default(),
        &[],
    )
    .unwrap();
    assert_eq!(found[0].killers, [vec![0], vec![3]], "killed in both suites");
    assert_eq!(found[0].verdicts, [(0, true), (3, true)], "suite 0's later tests were not run");
    assert_eq!(found[1].verdicts.len(), 4, "the faithful mutant runs every test");
    assert!(found[1].killers.iter().all(Vec::is_empty));
}

/// A problem compared as a set (`compare_mode = "set"`, as `import` writes
/// for `set(f(x)) == …` tests): a mutant that only changes the order of the
/// result (the sort deleted) is no kill, while in plain mode it is; the
/// generated tests are validated under the same comparison.
#[test]
fn a_mutant_that_only_reorders_a_set_result_is_no_kill() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let solution = "from typing import List\n\ndef common(a: List[int], b: List[int]) -> List[int]:\n    out = []\n    for x in a:\n        if x in b and x not in out:\n            out.append(x)\n    out.sort()\n    return out\n";
    let tests = r#"{"task_id":"common","entry_point":"common","call_style":"function","tests":[{"args":[[5,1,3],[3,5]],"expected":[3,5]},{"args":[[2,2],[2]],"expected":[2]},{"args":[[],[1]],"expected":[]}]}"#;
    let mut killed = Vec::new();
    for mode in ["compare_mode = \"set\"\n", ""] {
        let spec = format!(
            "entry_point = \"common\"\n{mode}[params.a]\nlen = [0, 6]\nmin = 0\nmax = 9\n[params.b]\nlen = [0, 6]\nmin = 0\nmax = 9\n"
        );
        let dir = problem(root, "common", solution, &spec);
        std::fs::write(dir.join("problem.json"), tests).unwrap();
        let line = &score_lines(root, &["--first-order-only", "--tests", "problem.json", "common"])[0];
        killed.push(line["killed"].as_u64().unwrap_or_else(|| panic!("not scored: {line}")));
        // The sort's deletion survives the set comparison, whatever inputs.
        let out = flowbench(&["tests", "score", "--first-order-only", "--tests", "problem.json", "common"], root);
        let shown = text(&out);
        let deleted_sort_killed = !shown.contains("-    out.sort()");
        if mode.is_empty() {
            assert!(deleted_sort_killed, "plain mode kills the mutant that leaves the result unsorted: {shown}");
        }
    }
    assert!(killed[0] < killed[1], "set mode must not count reorderings as kills: {killed:?}");
}

/// An imported problem whose reference raises on any word it does not know
/// falls back to strings made of the words its examples show, and says so.
#[test]
fn a_reference_raising_on_unknown_words_gets_tests_made_of_the_examples_words() {
    let tmp = tempfile::tempdir().unwrap();
    let solution = "def total(notes: str) -> int:\n    value = {'a': 1, 'bb': 2}\n    return sum(value[w] for w in notes.split(' ') if w)\n";
    let tests = r#"[{"args": ["a bb a"], "kwargs": {}, "expected": 4}, {"args": ["bb"], "kwargs": {}, "expected": 2}, {"args": [""], "kwargs": {}, "expected": 0}, {"args": ["a a"], "kwargs": {}, "expected": 2}]"#;
    let dir = imported(tmp.path(), "notes", solution, tests);
    let out = flowbench(&["tests", "gen", "notes"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(tests_header(&dir)["domains"], serde_json::json!({"notes": "examples+words"}));
    for args in generated_args(&dir) {
        let notes = args[0].as_str().unwrap();
        assert!(notes.split(' ').all(|w| w == "a" || w == "bb" || notes.is_empty()), "{notes:?}");
    }
}

#[test]
fn an_imported_problem_keeps_to_its_statements_constraints() {
    // The examples show lowercase letters only, which inference widens to
    // both cases and a blank; the statement's Constraints section (as
    // LeetCode writes it, superscripts lost: "104" is 10^4) says which
    // characters and how long, and bounds the count: tests stay inside.
    let tmp = tempfile::tempdir().unwrap();
    let tests = r#"[{"args": ["L_RL__R", 2], "kwargs": {}, "expected": 5}, {"args": ["_R__LL_", 1], "kwargs": {}, "expected": 4}]"#;
    let solution = "def far(moves: str, k: int) -> int:\n    return abs(moves.count('L') - moves.count('R')) + moves.count('_') - k\n";
    let dir = imported(tmp.path(), "moves", solution, tests);
    std::fs::write(
        dir.join("description.md"),
        "Moves.\n\nConstraints:\n\n * 1 <= moves.length == n <= 50\n * moves consists only of characters 'L', 'R' and '_'.\n * 1 <= k <= 104\n",
    )
    .unwrap();
    let out = flowbench(&["tests", "gen", "moves"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    let all = generated_args(&dir);
    assert!(all.len() >= 13, "{} tests", all.len());
    for args in &all {
        let (s, k) = (args[0].as_str().unwrap(), args[1].as_i64().unwrap_or(i64::MAX));
        assert!((1..=50).contains(&s.len()) && s.chars().all(|c| "LR_".contains(c)), "{s:?} breaks the statement");
        assert!((1..=10_000).contains(&k), "k = {k}");
    }
    assert!(all.iter().any(|a| a[1].as_i64() == Some(10_000)), "the stated bound 10^4 is reached");
    let header = tests_header(&dir);
    assert_eq!(header["domains"], serde_json::json!({"moves": "statement", "k": "statement"}), "{header}");
    // Editing the constraints makes the tests stale for `build`, like any input of theirs.
    let stamp = header["stamp"].clone();
    std::fs::write(dir.join("description.md"), "Constraints:\n\n * 1 <= moves.length <= 20\n").unwrap();
    let out = flowbench(&["tests", "gen", "moves"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    assert_ne!(tests_header(&dir)["stamp"], stamp);
}

#[test]
fn stated_equal_lengths_are_made_equal() {
    // "n == a.length == b.length": the lists are drawn with equal lengths
    // (drawn apart they would rarely match, and the floors would fail).
    let tmp = tempfile::tempdir().unwrap();
    let tests = r#"[{"args": [[1, 2], [3, 4]], "kwargs": {}, "expected": 2}, {"args": [[5], [1]], "kwargs": {}, "expected": 1}]"#;
    let solution = "def wins(a: list, b: list) -> int:\n    return sum(1 for x, y in zip(a, b) if x != y)\n";
    let dir = imported(tmp.path(), "wins", solution, tests);
    std::fs::write(
        dir.join("description.md"),
        "Constraints:\n\n1 <= n == a.length == b.length <= 1000\n1 <= a[i], b[i] <= 109\n",
    )
    .unwrap();
    let out = flowbench(&["tests", "gen", "wins"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    let all = generated_args(&dir);
    let len = |v: &serde_json::Value| v.as_array().unwrap().len();
    assert!(all.iter().all(|a| len(&a[0]) == len(&a[1]) && (1..=1000).contains(&len(&a[0]))), "{all:?}");
    let header = tests_header(&dir);
    assert!(header["edge"].as_u64().unwrap() >= 5, "{header}");
}

#[test]
fn a_count_parameter_sizes_lists_and_trees() {
    // LeetCode's "values.length == n" (an int gives the length) and "n ==
    // coins.length" with a tree over the coins (a list gives the node count).
    let tmp = tempfile::tempdir().unwrap();
    let solution = "def f(n: int, values: list, coins: list, edges: list) -> int:\n    return sum(values) + len(coins) + len(edges)\n";
    problem(
        tmp.path(),
        "counts",
        solution,
        "entry_point = \"f\"\n[params.n]\nmin = 0\nmax = 40\n[params.values]\nsame_len = \"n\"\nmin = 0\nmax = 9\n\
         [params.coins]\nlen = [1, 30]\nmin = 0\nmax = 9\n[params.edges]\ngraph = true\ntree = true\nnodes = \"coins\"\n\
         [counts]\nlarge = 3\n[floors]\nlarge = 0\n",
    );
    let out = flowbench(&["tests", "gen", "counts"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    let all = generated_args(&tmp.path().join("counts"));
    let len = |v: &serde_json::Value| v.as_array().unwrap().len();
    assert!(all.len() >= 10, "{all:?}");
    for a in &all {
        assert_eq!(len(&a[1]) as u64, a[0].as_u64().unwrap(), "{a:?}");
        assert_eq!(len(&a[3]), len(&a[2]) - 1, "a tree over the coins: {a:?}");
    }
}

#[test]
fn a_stated_bound_an_original_breaks_is_widened_not_dropped() {
    // Code-Vision's MATH tests step outside their statements (a 0 below
    // `1 <= nums[i]`, a value above the maximum): the stated domain widens
    // to take them in; dropped, the inferred one reached 10^30 where the
    // statement says 100, and correct programs failed.
    let tmp = tempfile::tempdir().unwrap();
    let tests = r#"[{"args": [[1, 2, 3, 1]], "kwargs": {}, "expected": 2}, {"args": [[0, 1, 1]], "kwargs": {}, "expected": 1}, {"args": [[5, 120]], "kwargs": {}, "expected": 0}]"#;
    let solution = "from typing import List\n\n\ndef pairs(nums: List[int]) -> int:\n    return sum(1 for i in range(len(nums)) for j in range(i) if nums[i] == nums[j])\n";
    let dir = imported(tmp.path(), "pairs", solution, tests);
    std::fs::write(dir.join("description.md"), "Constraints:\n\n1 <= nums.length <= 100\n1 <= nums[i] <= 100\n")
        .unwrap();
    let out = flowbench(&["tests", "gen", "pairs"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    let all = generated_args(&dir);
    for a in &all {
        let nums = a[0].as_array().unwrap();
        assert!((1..=100).contains(&nums.len()), "{a:?}");
        assert!(nums.iter().all(|x| x.as_i64().is_some_and(|x| (0..=120).contains(&x))), "{a:?}");
    }
    assert_eq!(tests_header(&dir)["domains"]["nums"], "statement");
}

#[test]
fn enumerated_values_index_lists_distinct_letters_and_generator_relations() {
    // LeetCode statements Code-Vision's tests broke: "nums consists only of
    // powers of two" (`one_of`), "0 <= nums[i] < nums.length" (`index`),
    // "all letters in word are distinct" and "s only consists of digits at
    // most limit" (a relation with a generator expression over the inputs).
    let tmp = tempfile::tempdir().unwrap();
    let solution = "def f(powers: list, idx: list, word: str, limit: int, s: str) -> int:\n    return len(powers) + len(idx) + len(word) + limit + len(s)\n";
    problem(
        tmp.path(),
        "domains",
        solution,
        "entry_point = \"f\"\nrelations = [\"all(int(ch) <= limit for ch in s)\"]\n\
         [params.powers]\nlen = [1, 40]\none_of = [1, 2, 4, 8, 16, \"2**30\"]\n\
         [params.idx]\nlen = [1, 40]\nindex = 1\n[params.word]\nlen = [1, 26]\ncharset = \"lower\"\ndistinct = true\n\
         [params.limit]\nmin = 1\nmax = 9\n[params.s]\npattern = \"[1-9][0-9]{0,5}\"\n\
         [counts]\nlarge = 3\n[floors]\nlarge = 0\n",
    );
    let out = flowbench(&["tests", "gen", "domains"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    let all = generated_args(&tmp.path().join("domains"));
    assert!(all.len() >= 10, "{all:?}");
    let ints = |v: &serde_json::Value| v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect::<Vec<_>>();
    let mut seen_big = false;
    for a in &all {
        let powers = ints(&a[0]);
        assert!(powers.iter().all(|p| [1, 2, 4, 8, 16, 1 << 30].contains(p)), "{a:?}");
        seen_big |= powers.contains(&(1 << 30));
        let idx = ints(&a[1]);
        assert!(idx.iter().all(|&i| 1 <= i && i <= idx.len() as i64), "{a:?}");
        let word = a[2].as_str().unwrap();
        assert_eq!(word.chars().collect::<std::collections::BTreeSet<_>>().len(), word.len(), "{a:?}");
        let limit = a[3].as_u64().unwrap();
        assert!(a[4].as_str().unwrap().chars().all(|c| u64::from(c.to_digit(10).unwrap()) <= limit), "{a:?}");
    }
    assert!(seen_big, "the largest allowed value is drawn");
}

/// A reviewed disputed test given back to `tests gen --drop-disputed` is
/// left out, listed with its reason in the header, and stays out when the
/// tests are generated again without the file; a line without a reason is
/// refused, naming it.
#[test]
fn a_dropped_disputed_test_stays_dropped_with_its_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let dir = problem(
        root,
        "dbl",
        "def f(a: int) -> int:\n    return 2 * a\n",
        "entry_point = \"f\"\n[params.a]\nmin = 0\nmax = 50\n",
    );
    let read = |dir: &Path| -> (serde_json::Value, Vec<serde_json::Value>) {
        let text = std::fs::read_to_string(dir.join("tests.jsonl")).unwrap();
        let mut lines = text.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap());
        (lines.next().unwrap(), lines.collect())
    };
    let out = flowbench(&["tests", "gen", "--no-strengthen", "dbl"], root);
    assert!(out.status.success(), "{}", text(&out));
    let (_, tests) = read(&dir);
    let disputed = tests.iter().find(|t| t["category"] == "edge").expect("an edge test")["args"].clone();
    let reviewed = root.join("reviewed.jsonl");
    let line = serde_json::json!({"task_id": "dbl", "test": 3, "args": disputed, "reason": "outside the statement"});
    std::fs::write(&reviewed, format!("{line}\n")).unwrap();
    let out = flowbench(&["tests", "gen", "--no-strengthen", "--drop-disputed", "reviewed.jsonl", "dbl"], root);
    assert!(out.status.success(), "{}", text(&out));
    for run in 0..2 {
        let (header, tests) = read(&dir);
        assert!(tests.iter().all(|t| t["args"] != disputed), "run {run}: the disputed input is gone");
        assert_eq!(header["disputed"], serde_json::json!([{"args": disputed, "reason": "outside the statement"}]));
        assert!(header["dropped"]["disputed"].as_u64().unwrap_or(0) >= 1, "{header}");
        // Generated again without the file: the header's list carries over.
        let out = flowbench(&["tests", "gen", "--no-strengthen", "dbl"], root);
        assert!(out.status.success(), "{}", text(&out));
    }
    std::fs::write(&reviewed, format!("{}\n", serde_json::json!({"task_id": "dbl", "args": disputed}))).unwrap();
    let out = flowbench(&["tests", "gen", "--drop-disputed", "reviewed.jsonl", "dbl"], root);
    assert!(!out.status.success());
    assert!(text(&out).contains("reviewed.jsonl:1: no `reason`"), "{}", text(&out));
}
