//! `tests score` beyond first-order mutants: a suite that kills every
//! first-order mutant can still miss a higher-order or an
//! alternative-algorithm mutant, which a stronger suite kills; the figures
//! are the same on every run.

use std::path::Path;
use std::process::{Command, Output};

fn flowbench(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).current_dir(cwd).output().expect("flowbench runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn write(root: &Path, name: &str, solution: &str, spec: &str, suites: &[(&str, &str)]) {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("solution.py"), solution).unwrap();
    std::fs::write(dir.join("problem.toml"), spec).unwrap();
    for (file, tests) in suites {
        let json =
            format!(r#"{{"task_id":"{name}","entry_point":"{name}","call_style":"function","tests":[{tests}]}}"#);
        std::fs::write(dir.join(file), json).unwrap();
    }
}

/// `count_above(xs, t)` counts the elements above `t`. The weak suite is
/// one test, `count_above([-5, 5, -4, -3, 4], -5) == 4`: an element equal to
/// `t` and four above it. Each first-order mutant alone answers otherwise
/// (`n = -1` gives 3, `n = 1` gives 5, `x >= t` gives 5, `x < t` 0, a
/// deleted `n += 1` 0, `return None`…), so the first-order score is 1.000.
/// The higher-order mutant `n = -1` with `x >= t` counts the equal element
/// too and starts one short: 5 − 1 = 4, it survives. The strong suite adds
/// `count_above([1, 2], 0) == 2`, where it answers 1. With 14 first-order
/// mutants every pair fits the sample, so this pair is scored whatever the
/// seed.
const COUNT_ABOVE: &str = "def count_above(xs: list[int], t: int) -> int:\n    n = 0\n    for x in xs:\n        if x > t:\n            n += 1\n    return n\n";
const MASKED_PAIR: &str = "constant 0 -> -1 (line 2) + comparison Gt -> GtE (line 4)";

/// `largest(xs)` with `best = xs[0]`. The weak suite `[3, 1, 2] → 3`,
/// `[5] → 5`, `[1, 5, 2] → 5` kills every first-order mutant that is not
/// equivalent (`xs[1]` fails on `[5]`, `x < best` on `[3, 1, 2]`, a deleted
/// `best = x` on `[1, 5, 2]`; `xs[-1]` and `x >= best` give the same maximum
/// on every input). The alternative-algorithm mutant that starts the
/// accumulator at 0 answers every test alike, as every value is positive;
/// the strong suite adds `[-3, -1] → -1`, where it answers 0.
const LARGEST: &str = "def largest(xs: list[int]) -> int:\n    best = xs[0]\n    for x in xs:\n        if x > best:\n            best = x\n    return best\n";
const ZERO_START: &str = "accumulator starts at 0 instead of `xs[0]`";

fn problems(root: &Path) {
    let weak = r#"{"args":[[-5,5,-4,-3,4],-5],"expected":4}"#;
    write(
        root,
        "count_above",
        COUNT_ABOVE,
        "entry_point = \"count_above\"\n[params.xs]\nlen = [0, 6]\nmin = -5\nmax = 5\n[params.t]\nmin = -5\nmax = 5\n",
        &[("weak.json", weak), ("strong.json", &format!(r#"{weak},{{"args":[[1,2],0],"expected":2}}"#))],
    );
    let weak = r#"{"args":[[3,1,2]],"expected":3},{"args":[[5]],"expected":5},{"args":[[1,5,2]],"expected":5}"#;
    write(
        root,
        "largest",
        LARGEST,
        "entry_point = \"largest\"\n[params.xs]\nlen = [1, 6]\nmin = -50\nmax = 50\n",
        &[("weak.json", weak), ("strong.json", &format!(r#"{weak},{{"args":[[-3,-1]],"expected":-1}}"#))],
    );
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect()
}

#[test]
fn a_suite_killing_every_first_order_mutant_can_miss_a_pair_and_an_alternative() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    problems(root);
    let args = ["tests", "score", "--tests", "weak.json", "--tests", "strong.json", "count_above", "largest"];
    let out = flowbench(&args, root);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    let heads =
        ["count_above (weak.json)", "count_above (strong.json)", "largest (weak.json)", "largest (strong.json)"];
    let at: Vec<usize> = heads.iter().map(|h| said.find(h).unwrap_or_else(|| panic!("no {h}:\n{said}"))).collect();
    let (count_weak, count_strong) = (&said[at[0]..at[1]], &said[at[1]..at[2]]);
    let (largest_weak, largest_strong) = (&said[at[2]..at[3]], &said[at[3]..]);
    for weak in [count_weak, largest_weak] {
        assert!(!weak.contains("surviving mutant"), "the weak suites kill every first-order mutant:\n{said}");
    }
    assert!(count_weak.contains(&format!("surviving higher-order mutant (line 2, {MASKED_PAIR})")), "{said}");
    assert!(!count_strong.contains(MASKED_PAIR), "{said}");
    assert!(largest_weak.contains(&format!("surviving alternative-algorithm mutant (line 2, {ZERO_START})")), "{said}");
    assert!(!largest_strong.contains(ZERO_START), "{said}");
    assert!(said.contains("overall (weak.json) over 2 problems: first-order"), "{said}");

    let mut json = args.to_vec();
    json.insert(2, "--json");
    let first = flowbench(&json, root);
    let lines = json_lines(&first);
    let find = |problem: &str, suite: &str| {
        lines.iter().find(|l| l["problem"] == problem && l["tests"] == suite).unwrap_or_else(|| panic!("{lines:?}"))
    };
    for (problem, set) in [("count_above", "higher_order"), ("largest", "alternative")] {
        let (weak, strong) = (find(problem, "weak.json"), find(problem, "strong.json"));
        assert_eq!(weak["score"].as_f64(), Some(1.0), "{weak}");
        assert!(weak[set]["score"].as_f64().unwrap() < 1.0, "{weak}");
        assert!(strong[set]["killed"].as_u64() > weak[set]["killed"].as_u64(), "{weak}\n{strong}");
    }
    let overall: Vec<_> = lines.iter().filter(|l| l["overall"] == true).collect();
    assert_eq!(overall.len(), 2, "one closing line per suite: {lines:?}");
    assert_eq!(overall[0]["problems"], 2);
    assert!(overall[0]["higher_order"]["killed"].as_u64() < overall[1]["higher_order"]["killed"].as_u64());

    let again = flowbench(&json, root);
    assert_eq!(
        String::from_utf8_lossy(&again.stdout),
        String::from_utf8_lossy(&first.stdout),
        "same seed, same figures"
    );
}
