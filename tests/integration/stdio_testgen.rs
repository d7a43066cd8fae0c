//! `flowbench tests gen` on whole-program (stdio) problems: standard inputs
//! generated from `[stdin] format`, validated by running the reference
//! program in the sandbox, meeting the floors with a mutation score of at
//! least 0.90 (the mutants reach module-level code), identical on a second
//! run, and a bad format named by file and line. The references are the
//! stdio fixture corpus's (tests/fixtures/stdio), written for the judge's
//! tests, not for these.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn flowbench(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).current_dir(cwd).output().expect("flowbench runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stdio").join(name)
}

/// A problem directory: the fixture's reference and `problem.json`, and
/// the given format.
fn problem(root: &Path, name: &str, format: &str) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(fixture(name).join("reference.py"), dir.join("solution.py")).unwrap();
    std::fs::copy(fixture(name).join("problem.json"), dir.join("problem.json")).unwrap();
    std::fs::write(dir.join("problem.toml"), format!("seed = 1\n\n[stdin]\nformat = \"\"\"\n{format}\"\"\"\n"))
        .unwrap();
    dir
}

fn lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

const SUM_CASES: &str = "t: int 1..10**4\nrepeat t:\n    a b: int -10**9..10**9\n";
const GRID_PATHS: &str = "r c: int 1..300\ng: grid[r][c] \"..#\"\n";
const WORD_FREQ: &str = "n: int 1..10**4\nrepeat n:\n    w: str 1..3 \"abc\"\n";

#[test]
fn generated_stdio_suites_meet_the_floors_and_kill_the_mutants() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, format) in [("sum_cases", SUM_CASES), ("grid_paths", GRID_PATHS), ("word_freq", WORD_FREQ)] {
        let dir = problem(tmp.path(), name, format);
        let out = flowbench(&["tests", "gen", "--score", name], tmp.path());
        assert!(out.status.success(), "{name}: {}", text(&out));
        let all = lines(&dir.join("tests.jsonl"));
        let header = &all[0];
        for (category, floor) in [("typical", 5), ("edge", 5), ("large", 3)] {
            assert!(header[category].as_u64().unwrap() >= floor, "{name}: {category} under its floor: {header}");
        }
        let score = header["mutation"]["score"].as_f64().unwrap();
        assert!(score >= 0.90, "{name}: mutation score {score}: {header}");
        assert!(header["mutation"]["mutants"].as_u64().unwrap() >= 5, "{name}: module-level code was not mutated");
        // Every original test is kept: the reference's output matches it
        // (trailing whitespace aside).
        let originals = all.iter().filter(|t| t["how"].as_str().is_some_and(|h| h.starts_with("original"))).count();
        let problem: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("problem.json")).unwrap()).unwrap();
        assert_eq!(originals, problem["tests"].as_array().unwrap().len(), "{name}: {header}");
        for t in &all[1..] {
            assert!(t["args"][0].is_string() && t["expected"].is_string(), "{name}: {t}");
        }
    }
}

/// The grid's generated inputs hold what the format says: a line `r c`
/// in range, then r lines of c characters of the alphabet.
#[test]
fn generated_inputs_follow_the_format_and_regenerate_identically() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = problem(tmp.path(), "grid_paths", GRID_PATHS);
    let run = || {
        let out = flowbench(&["tests", "gen", "grid_paths"], tmp.path());
        assert!(out.status.success(), "{}", text(&out));
        lines(&dir.join("tests.jsonl"))
            .into_iter()
            .map(|mut v| {
                v.as_object_mut().unwrap().remove("reference_time_s");
                v
            })
            .collect::<Vec<_>>()
    };
    let first = run();
    assert_eq!(first, run(), "a second generation differs");
    let mut shapes = std::collections::BTreeSet::new();
    for t in first[1..].iter().filter(|t| !t["how"].as_str().unwrap().starts_with("original")) {
        let stdin = t["args"][0].as_str().unwrap();
        let mut rows = stdin.lines();
        let dims: Vec<usize> = rows.next().unwrap().split(' ').map(|x| x.parse().unwrap()).collect();
        let (r, c) = (dims[0], dims[1]);
        assert!((1..=300).contains(&r) && (1..=300).contains(&c), "{stdin:.40}");
        let grid: Vec<&str> = rows.collect();
        assert_eq!(grid.len(), r, "{stdin:.40}");
        assert!(grid.iter().all(|row| row.len() == c && row.chars().all(|ch| ch == '.' || ch == '#')));
        shapes.insert((t["category"].as_str().unwrap().to_string(), r.min(2), c >= 100));
    }
    assert!(shapes.iter().any(|(cat, _, wide)| cat == "large" && *wide), "no large grid: {shapes:?}");
    assert!(shapes.iter().any(|(cat, r, _)| cat == "edge" && *r == 1), "no one-row edge grid: {shapes:?}");
}

#[test]
fn a_bad_format_is_named_by_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    problem(tmp.path(), "sum_cases", "t: int 1..10\nrepeat t:\n    a: int[m] 0..9\n");
    let out = flowbench(&["tests", "gen", "sum_cases"], tmp.path());
    assert!(!out.status.success());
    let said = text(&out);
    assert!(
        said.contains(
            "sum_cases/problem.toml:7: [stdin] format: the size `m` reads `m`, which no earlier line defines"
        ),
        "{said}"
    );
    assert_eq!(said.matches("no earlier line defines").count(), 1, "printed once: {said}");
    assert!(!tmp.path().join("sum_cases/tests.jsonl").exists());
    // A stdio problem without a format says what is missing.
    std::fs::write(tmp.path().join("sum_cases/problem.toml"), "seed = 1\n").unwrap();
    let said = text(&flowbench(&["tests", "gen", "sum_cases"], tmp.path()));
    assert!(said.contains("sum_cases/problem.toml: a whole-program (stdio) problem needs `[stdin] format`"), "{said}");
}

/// A format the spec cannot say: `gen.py SEED CATEGORY` prints one input;
/// it runs in the sandbox, its inputs are validated like generated ones,
/// and a generator that fails is named with the seed.
#[test]
fn a_gen_py_makes_the_inputs_when_there_is_no_format() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = problem(tmp.path(), "sum_cases", "t: int 1..5\nrepeat t:\n    a b: int 0..9\n");
    std::fs::write(dir.join("problem.toml"), "seed = 1\n").unwrap();
    let generator = "import random, sys\n\
        seed, category = int(sys.argv[1]), sys.argv[2]\n\
        r = random.Random(seed)\n\
        t = {'typical': r.randint(1, 5), 'edge': 1, 'large': 20000}[category]\n\
        top = 0 if category == 'edge' and seed % 2 else 10**9\n\
        print(t)\n\
        for _ in range(t):\n    print(r.randint(-top, top), r.randint(-top, top))\n";
    std::fs::write(dir.join("gen.py"), generator).unwrap();
    let out = flowbench(&["tests", "gen", "--score", "sum_cases"], tmp.path());
    assert!(out.status.success(), "{}", text(&out));
    let all = lines(&dir.join("tests.jsonl"));
    let header = &all[0];
    for (category, floor) in [("typical", 5), ("edge", 1), ("large", 3)] {
        assert!(header[category].as_u64().unwrap() >= floor, "{category}: {header}");
    }
    assert!(header["mutation"]["score"].as_f64().unwrap() >= 0.90, "{header}");
    assert!(all.iter().any(|t| t["how"].as_str().is_some_and(|h| h.starts_with("gen.py seed"))));
    // Editing gen.py makes the tests stale for `build`: the stamp covers it.
    let stamp = header["stamp"].clone();
    std::fs::write(dir.join("gen.py"), generator.replace("10**9", "10**8")).unwrap();
    assert!(flowbench(&["tests", "gen", "sum_cases"], tmp.path()).status.success());
    assert_ne!(lines(&dir.join("tests.jsonl"))[0]["stamp"], stamp);
    std::fs::write(
        dir.join("gen.py"),
        "import sys\nif sys.argv[2] == 'edge':\n    raise ValueError('no edges')\nprint(1)\nprint(1, 2)\n",
    )
    .unwrap();
    let said = text(&flowbench(&["tests", "gen", "sum_cases"], tmp.path()));
    assert!(said.contains("sum_cases/gen.py: seed ") && said.contains("(edge): ValueError: no edges"), "{said}");
}
