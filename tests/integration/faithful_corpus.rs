//! `check --against` on the hand-written faithfulness corpus
//! (`tests/faithfulness/`): charts written in the conventions LLMs use, each
//! with one realistic wrong twin whose `entry.toml` says which element is
//! wrong. The faithful charts must all pass; the wrong twins must be
//! flagged (≥ 95 %), the flagged element named (≥ 90 %): a diagnostic
//! mentions its label or its solution line.
//!
//! Entries whose `entry.toml` says `split = "held-back"` are skipped: they
//! are not tuned on, and `scripts/faithfulness-report.sh --split held-back`
//! reports them apart. Every chart is checked as `check --against` checks
//! it: on the problem's tests when there are some, then beside the code on
//! inputs made from the solution (`source = "local"` entries have no tests).
//!
//! `FLOWBENCH_FAITH_CORPUS` points at another copy of the corpus (while it
//! is being written elsewhere).

use crate::common;

use std::path::{Path, PathBuf};

use flowbench::author::against::{Behave, Evidence, add_behaviour};
use flowbench::author::behaviour::{Behaviour, InputCache};
use flowbench::author::execute::{Execution, judge_settings, sandbox_config};
use flowbench::author::{Report, Tests, check_against, read_program};
use flowbench::exec::LazyExecutor;
use flowbench::judge::problems_file::{LoadedProblem, ProblemSet, load_problems, parse_problem};
use flowbench::mermaid::parse;
use serde_json::Value;

/// One corpus entry, read.
struct Entry {
    name: String,
    source: String,
    entry_point: String,
    faithful: String,
    wrong: String,
    kind: String,
    element: String,
    /// An inserted decision's label (`extra-condition`): naming it names
    /// the error too.
    condition: String,
    line: Option<u32>,
    /// Every label carries code (`code_labelled`): the chart should run.
    code_labelled: bool,
    /// The problem whose tests the charts run on (none for a local entry).
    problem: Option<LoadedProblem>,
}

fn corpus_dir() -> PathBuf {
    std::env::var_os("FLOWBENCH_FAITH_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/faithfulness"))
}

/// The solution of `source` (`bank:<problem>`, `humaneval:<task_id>`, or
/// `local`: `solution.py` in the entry's directory, `entry_point` and
/// `class` in its `entry.toml`) and its entry point (`Class.name` for a
/// method); `None` for HumanEval when the shared data is absent.
fn solution(source: &str, dir: &Path, meta: &toml::Table) -> Option<(String, String)> {
    if source == "local" {
        let code =
            std::fs::read_to_string(dir.join("solution.py")).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let name = meta["entry_point"].as_str().expect("entry_point");
        let entry = match meta.get("class").and_then(|c| c.as_str()) {
            Some(class) => format!("{class}.{name}"),
            None => name.to_owned(),
        };
        return Some((code, entry));
    }
    if let Some(problem) = source.strip_prefix("bank:") {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems").join(problem);
        let code = std::fs::read_to_string(dir.join("solution.py")).unwrap_or_else(|e| panic!("{problem}: {e}"));
        let meta: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("problem.json")).expect("problem.json"))
                .expect("problem.json is JSON");
        return Some((code, meta["entry_point"].as_str().expect("entry_point").to_owned()));
    }
    let task = source.strip_prefix("humaneval:").unwrap_or_else(|| panic!("unknown source {source}"));
    let path = common::shared("codevision/problems.jsonl")?;
    let text = std::fs::read_to_string(path).expect("problems.jsonl");
    let problem = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("json"))
        .find(|p| p["task_id"] == task)
        .unwrap_or_else(|| panic!("{task} not in problems.jsonl"));
    let s = |k: &str| problem[k].as_str().unwrap_or_default().to_owned();
    Some((s("prompt") + &s("canonical_solution"), s("entry_point")))
}

/// The problem of `source`: the bank's `problem.json`, or the HumanEval
/// record of the shared `problems.jsonl` (loaded once into `humaneval`).
fn problem(source: &str, humaneval: &mut Option<ProblemSet>) -> Option<LoadedProblem> {
    if source == "local" {
        return None;
    }
    if let Some(name) = source.strip_prefix("bank:") {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems").join(name).join("problem.json");
        return Some(parse_problem(&std::fs::read_to_string(&path).expect("problem.json")).expect("a problem"));
    }
    let task = source.strip_prefix("humaneval:").expect("humaneval source");
    let set = humaneval.get_or_insert_with(|| {
        load_problems(&common::shared("codevision/problems.jsonl").expect("shared data")).expect("problems").0
    });
    Some(set.by_id.get(task).cloned().unwrap_or_else(|| panic!("{task} not in problems.jsonl")))
}

fn entries(dir: &Path) -> Vec<Entry> {
    let mut humaneval = None;
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("corpus").flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    let mut out = Vec::new();
    for d in dirs {
        let name = d.file_name().unwrap().to_string_lossy().into_owned();
        let read = |f: &str| std::fs::read_to_string(d.join(f)).unwrap_or_else(|e| panic!("{name}/{f}: {e}"));
        let meta: toml::Table = read("entry.toml").parse().unwrap_or_else(|e| panic!("{name}/entry.toml: {e}"));
        if meta.get("split").and_then(|s| s.as_str()) == Some("held-back") {
            continue;
        }
        let source = meta["source"].as_str().expect("source");
        let Some((code, entry_point)) = solution(source, &d, &meta) else { continue };
        let wrong = meta["wrong"].as_table().expect("[wrong]");
        let (faithful, wrong_chart) = (read("faithful.mmd"), read("wrong.mmd"));
        out.push(Entry {
            name,
            source: code,
            entry_point,
            faithful,
            wrong: wrong_chart,
            kind: wrong["kind"].as_str().unwrap_or_default().to_owned(),
            element: wrong.get("element").and_then(|v| v.as_str()).unwrap_or_default().to_owned(),
            condition: wrong.get("condition").and_then(|v| v.as_str()).unwrap_or_default().to_owned(),
            line: wrong.get("line").and_then(|v| v.as_integer()).and_then(|l| u32::try_from(l).ok()),
            code_labelled: meta.get("code_labelled").and_then(|v| v.as_bool()).unwrap_or(false),
            problem: problem(source, &mut humaneval),
        });
    }
    out
}

/// Labels compared without quotes, backticks, `<br>` and spacing.
fn plain(text: &str) -> String {
    text.replace("<br>", " ").replace(['"', '`'], "").split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// Whether a diagnostic names the wrong element: its label (or the
/// inserted condition's) or its line.
fn names_element(report: &Report, e: &Entry) -> bool {
    let labels: Vec<String> = [&e.element, &e.condition].iter().map(|l| plain(l)).filter(|l| !l.is_empty()).collect();
    report
        .mismatches
        .iter()
        .any(|m| labels.iter().any(|l| plain(&m.message).contains(l)) || (e.line.is_some() && m.code_line == e.line))
}

#[test]
#[ignore = "heavy: the faithful corpus and its wrong twins, each run against its solution"]
fn faithful_charts_pass_and_wrong_twins_are_flagged_by_name() {
    let dir = corpus_dir();
    if !dir.exists() {
        eprintln!("skipping: no faithfulness corpus at {}", dir.display());
        return;
    }
    // Half the corpus draws HumanEval problems from the shared data: the
    // figures and their floors are the whole corpus's, never a part's.
    if common::shared("codevision/problems.jsonl").is_none() {
        return;
    }
    let entries = entries(&dir);
    assert!(!entries.is_empty(), "no entries in {}", dir.display());
    let (mut false_alarms, mut flagged, mut named) = (Vec::new(), 0, 0);
    let (mut missed, mut unnamed) = (Vec::new(), Vec::new());
    let (sandbox, settings, cache) = (LazyExecutor::new(sandbox_config()), judge_settings(), InputCache::default());
    let (mut code_labelled, mut ran, mut not_run) = (0, 0, Vec::new());
    let (mut agreed, mut counterexamples) = (0, 0);
    for e in &entries {
        let program =
            read_program(&e.source, Some(&e.entry_point)).unwrap_or_else(|err| panic!("{}: {}", e.name, err.message));
        let tests = e.problem.as_ref().map(|problem| Tests { problem, settings: &settings, sandbox: &sandbox });
        let behave = Behave { source: &e.source, sandbox: &sandbox, cache: &cache, spec: None };
        let check = |text: &str, which: &str| {
            let chart = parse(text).unwrap_or_else(|err| panic!("{}/{which}.mmd: {err}", e.name));
            let mut report = check_against(&program, &chart);
            add_behaviour(&mut report, &program, &chart, tests.as_ref(), &behave)
                .unwrap_or_else(|err| panic!("sandbox: {err}"));
            report
        };
        let faithful = check(&e.faithful, "faithful");
        let passed = matches!(faithful.execution, Some(Execution::Passed { .. }))
            && !matches!(faithful.behaviour, Some(Behaviour::Differs(..)));
        if matches!(faithful.behaviour, Some(Behaviour::Agreed(_))) || passed {
            agreed += 1;
        }
        if e.code_labelled {
            code_labelled += 1;
            if faithful.evidence == Evidence::Executed {
                ran += 1;
            } else {
                not_run.push(format!("{}: {:?} {:?}", e.name, faithful.execution, faithful.behaviour));
            }
        }
        if !faithful.mismatches.is_empty() {
            let messages: Vec<&str> = faithful.mismatches.iter().map(|m| m.message.as_str()).collect();
            false_alarms.push(format!("{}: {}", e.name, messages.join(" | ")));
        }
        let wrong = check(&e.wrong, "wrong");
        if wrong.mismatches.is_empty() {
            missed.push(format!("{} ({})", e.name, e.kind));
            continue;
        }
        flagged += 1;
        counterexamples +=
            usize::from(wrong.mismatches.iter().any(|m| m.kind == flowbench::author::MismatchKind::Behaviour));
        if names_element(&wrong, e) {
            named += 1;
        } else {
            unnamed.push(format!("{} ({}: `{}`)", e.name, e.kind, e.element));
        }
    }
    let total = entries.len();
    let share = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    println!(
        "faithfulness corpus: {total} entries; false alarms {}/{total}; wrong twins flagged {flagged}/{total} ({:.1} %); element named {named}/{flagged} ({:.1} %)",
        false_alarms.len(),
        share(flagged, total),
        share(named, flagged)
    );
    println!(
        "chart2py: {ran}/{code_labelled} code-labelled faithful charts ran ({:.1} %); {agreed}/{total} faithful charts agreed with the reference ({:.1} %); {counterexamples}/{flagged} flagged twins with a counterexample",
        share(ran, code_labelled),
        share(agreed, total)
    );
    println!("not run or failed: {not_run:?}");
    println!("missed: {missed:?}");
    println!("unnamed: {unnamed:?}");
    // Issue 57's bar is 0 false alarms, ≥ 95 % flagged and ≥ 90 % named;
    // until it is reached these floors keep what is reached from slipping,
    // and any false alarm fails.
    assert!(false_alarms.is_empty(), "faithful charts flagged:\n{}", false_alarms.join("\n"));
    // The bar is the whole corpus's; the bank's entries alone (no shared
    // data) hold more of the prose charts the check cannot run.
    let flagged_floor = if common::shared("codevision/problems.jsonl").is_some() { FLAGGED_FLOOR } else { 90.0 };
    assert!(share(flagged, total) >= flagged_floor, "wrong twins flagged {flagged}/{total}: missed {missed:?}");
    assert!(share(named, flagged) >= NAMED_FLOOR, "element named {named}/{flagged}: {unnamed:?}");
    assert!(share(ran, code_labelled) >= RAN_FLOOR, "chart2py ran {ran}/{code_labelled}: {not_run:?}");
}

/// Issue 57's bars are ≥ 95 % of the wrong twins flagged with a
/// counterexample and the element named in ≥ 90 % of those flagged; the
/// tuned split (148 entries, `scripts/faithfulness-report.sh`) has 96.6 %
/// flagged, 88.1 % of those with a counterexample, 91.6 % named. A twin
/// that cannot run is judged leniently (a difference at a prose node is
/// left unchecked), so the twins in prose are the ones missed. These floors
/// keep what is reached from slipping.
const FLAGGED_FLOOR: f64 = 95.0;
const NAMED_FLOOR: f64 = 90.0;
/// Issue 25's bar: chart2py turns ≥ 80 % of the code-labelled faithful
/// charts into programs that run (on the problem's tests or made inputs).
const RAN_FLOOR: f64 = 80.0;

/// Issue 57: the 24 shared Code-Vision-style anchors, with no tests beside
/// them, pass — none refused — and with `executed` evidence (inputs made
/// from each solution, the chart's program agreeing with it on every one):
/// every one of them, so none passes on the structure alone.
#[test]
#[ignore = "heavy: every anchor run beside its solution in the sandbox"]
fn anchors_pass_by_behaviour_without_tests() {
    let Some(dir) = common::shared("anchors/codevision-style") else {
        eprintln!("skipping: no shared anchors");
        return;
    };
    let mut charts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("anchors")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mmd"))
        .collect();
    charts.sort();
    assert!(charts.len() >= 24, "{} anchors", charts.len());
    let (sandbox, cache) = (LazyExecutor::new(sandbox_config()), InputCache::default());
    let (mut failed, mut unrun) = (Vec::new(), Vec::new());
    for chart_path in &charts {
        let source = std::fs::read_to_string(chart_path.with_extension("py")).expect("the anchor's solution");
        let program = read_program(&source, None).expect("reads");
        let chart = parse(&std::fs::read_to_string(chart_path).expect("chart")).expect("parses");
        let mut report = check_against(&program, &chart);
        let behave = Behave { source: &source, sandbox: &sandbox, cache: &cache, spec: None };
        add_behaviour(&mut report, &program, &chart, None, &behave).expect("sandbox");
        let name = chart_path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        if !report.mismatches.is_empty() {
            failed.push(format!("{name}: refused: {:?} {:?}", report.behaviour, report.mismatches));
        } else if report.evidence != Evidence::Executed {
            unrun.push(name);
        }
    }
    assert!(failed.is_empty(), "anchors refused:\n{}", failed.join("\n"));
    assert!(unrun.is_empty(), "anchors passed on the structure alone, not run: {unrun:?}");
}
