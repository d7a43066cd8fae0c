//! `check --against` on a seeded corpus of wrong charts: each solution's
//! drawn chart is mutated the ways chart authors go wrong (drop a branch,
//! swap Yes/No, remove a loop's back edge, drop a helper, wrong return) and
//! must be flagged (≥ 95 %), while every chart `draw` produces, at every
//! detail, must pass with similarity 1. Prints both figures.

use crate::common;

use std::collections::HashSet;
use std::path::Path;

use flowbench::author::{Detail, Program, check_against, draw, read_program};
use flowbench::mermaid::{Flowchart, Shape, fmt::format, parse};
use serde_json::Value;

fn solutions() -> Vec<(String, String, Option<String>)> {
    let mut out = Vec::new();
    let bank = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let mut dirs: Vec<_> =
        std::fs::read_dir(&bank).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    for d in dirs {
        let p: Value = serde_json::from_str(&std::fs::read_to_string(d.join("problem.json")).unwrap()).unwrap();
        out.push((
            p["task_id"].as_str().unwrap().into(),
            std::fs::read_to_string(d.join("solution.py")).unwrap(),
            p["entry_point"].as_str().map(String::from),
        ));
    }
    if let Some(dir) = common::shared("anchors/codevision-style") {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "py"))
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|p| {
            (p.file_stem().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap(), None)
        }));
    }
    if let Some(path) = common::shared("codevision/problems.jsonl") {
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let p: Value = serde_json::from_str(line).unwrap();
            if p["subset"] == "HumanEval-V" {
                let s = |k: &str| p[k].as_str().unwrap_or_default().to_owned();
                out.push((s("task_id"), s("prompt") + &s("canonical_solution"), Some(s("entry_point"))));
            }
        }
    }
    out
}

fn idx(c: &Flowchart, id: &str) -> usize {
    c.nodes.iter().position(|n| n.id == id).unwrap()
}

/// Removes nodes no longer reachable from any Start terminal.
fn prune(c: &mut Flowchart) {
    let mut seen: HashSet<String> =
        c.nodes.iter().filter(|n| n.label.starts_with("Start")).map(|n| n.id.clone()).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for e in &c.edges {
            if seen.contains(&e.from) && seen.insert(e.to.clone()) {
                changed = true;
            }
        }
    }
    c.nodes.retain(|n| seen.contains(&n.id));
    c.edges.retain(|e| seen.contains(&e.from) && seen.contains(&e.to));
    for sg in &mut c.subgraphs {
        sg.members.retain(|m| seen.contains(m));
    }
    c.subgraphs.retain(|sg| !sg.members.is_empty());
}

fn is_loop(c: &Flowchart, id: &str) -> bool {
    // A decision with an edge into it from a node defined after it.
    let at = idx(c, id);
    c.edges.iter().any(|e| e.to == id && idx(c, &e.from) > at)
}

fn decisions(c: &Flowchart) -> Vec<String> {
    c.nodes.iter().filter(|n| n.shape == Shape::Diam).map(|n| n.id.clone()).collect()
}

/// The mutants of one chart: (kind, chart).
fn mutants(c: &Flowchart) -> Vec<(&'static str, Flowchart)> {
    let mut out = Vec::new();
    let ifs: Vec<String> = decisions(c).into_iter().filter(|d| !is_loop(c, d)).collect();
    if let Some(d) = ifs.first() {
        let mut m = c.clone();
        m.edges.retain(|e| !(e.from == *d && e.label.as_deref() == Some("Yes")));
        prune(&mut m);
        out.push(("drop a branch", m));
    }
    // Swap where the two branches lead to different places.
    if let Some(d) = ifs.iter().find(|d| {
        let t: Vec<&String> = c.edges.iter().filter(|e| e.from == **d).map(|e| &e.to).collect();
        t.len() == 2 && t[0] != t[1]
    }) {
        let mut m = c.clone();
        for e in m.edges.iter_mut().filter(|e| e.from == *d) {
            e.label = Some(if e.label.as_deref() == Some("Yes") { "No" } else { "Yes" }.into());
        }
        out.push(("swap Yes/No", m));
    }
    if let Some(d) = decisions(c).into_iter().find(|d| is_loop(c, d)) {
        let mut m = c.clone();
        let at = idx(c, &d);
        let before: Vec<usize> =
            (0..m.edges.len()).filter(|&i| m.edges[i].to == d && idx(c, &m.edges[i].from) > at).collect();
        for i in before.into_iter().rev() {
            m.edges.remove(i);
        }
        out.push(("remove a back edge", m));
    }
    if !c.subgraphs.is_empty() {
        let mut m = c.clone();
        let gone: HashSet<String> = m.subgraphs[0].members.iter().cloned().collect();
        m.nodes.retain(|n| !gone.contains(&n.id));
        m.edges.retain(|e| !gone.contains(&e.from) && !gone.contains(&e.to));
        m.subgraphs.remove(0);
        out.push(("drop a helper", m));
    }
    if let Some(i) = c.nodes.iter().position(|n| n.shape == Shape::LeanR && n.label.starts_with("Return")) {
        let mut m = c.clone();
        m.nodes[i].label = if m.nodes[i].label == "Return None" { "Return 0".into() } else { "Return None".into() };
        out.push(("wrong return", m));
    }
    out
}

#[test]
#[ignore = "heavy: every bank solution drawn, mutated and checked by running it"]
fn seeded_wrong_charts_are_flagged_and_drawn_charts_pass() {
    let sols = solutions();
    let (mut drawn, mut passed, mut seeded, mut flagged) = (0usize, 0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    let mut missed = Vec::new();
    let mut per_kind: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    for (name, source, entry) in &sols {
        let program: Program = read_program(source, entry.as_deref()).unwrap_or_else(|e| panic!("{name}: {e}"));
        for detail in [Detail::Low, Detail::Medium, Detail::High] {
            let chart = parse(&format(&draw(&program, detail).chart)).unwrap();
            let r = check_against(&program, &chart);
            drawn += 1;
            if r.mismatches.is_empty() && r.similarity == 1.0 {
                passed += 1;
            } else {
                failures.push(format!("{name} {detail:?}: {:.3} {:?}", r.similarity, r.mismatches));
            }
        }
        let chart = parse(&format(&draw(&program, Detail::Medium).chart)).unwrap();
        for (kind, m) in mutants(&chart) {
            // Mutants go through text like any chart a user checks.
            let m = parse(&format(&m)).unwrap_or_else(|e| panic!("{name} {kind}: {e}"));
            let r = check_against(&program, &m);
            seeded += 1;
            let slot = per_kind.entry(kind).or_default();
            slot.1 += 1;
            if r.mismatches.is_empty() {
                missed.push(format!("{name}: {kind}"));
            } else {
                flagged += 1;
                slot.0 += 1;
            }
        }
    }
    println!(
        "check --against: drawn charts passing {passed}/{drawn}; seeded wrong charts flagged {flagged}/{seeded} ({:.1} %) {per_kind:?}",
        100.0 * flagged as f64 / seeded as f64
    );
    println!("missed: {missed:?}");
    assert!(failures.is_empty(), "drawn charts flagged:\n{}", failures.join("\n"));
    assert!(seeded >= 50, "only {seeded} seeded charts");
    assert!(flagged as f64 >= 0.95 * seeded as f64, "flagged {flagged}/{seeded}: {missed:?}");
}

#[test]
fn a_valid_precondition_is_neither_the_entry_nor_a_helper() {
    // `valid(...)` is tests gen's input filter (problems/README.md): a chart of
    // the solution must not have to draw it, wherever it is defined.
    for source in [
        "def valid(n: int) -> bool:\n    return n >= 0\n\n\ndef half(n: int) -> int:\n    return n // 2\n",
        "def half(n: int) -> int:\n    return n // 2\n\n\ndef valid(n: int) -> bool:\n    return n >= 0\n",
    ] {
        let program = read_program(source, None).unwrap();
        assert_eq!(program.entry.name, "half");
        assert!(program.helpers.is_empty(), "{:?}", program.helpers.iter().map(|h| &h.name).collect::<Vec<_>>());
        let chart = parse(
            "flowchart TD\n    A([Start]) --> B[/Input n/]\n    B --> C[/\"Return n // 2\"/]\n    C --> D([End])\n",
        )
        .unwrap();
        let r = check_against(&program, &chart);
        assert!(r.mismatches.is_empty(), "{:?}", r.mismatches);
    }
    // Asked for by name, it is still drawable.
    let program = read_program("def valid(n: int) -> bool:\n    return n >= 0\n", Some("valid")).unwrap();
    assert_eq!(program.entry.name, "valid");
}

/// A chart that cannot run (a prose box) is checked leniently by `check
/// --against`: a difference at a prose node is left unchecked, no refusal;
/// `author`'s review, which can ask for a better chart, still sends it.
#[test]
fn a_chart_that_cannot_run_leaves_prose_differences_unchecked_but_author_sends_them() {
    use flowbench::author::against::{Behave, add_behaviour};
    use flowbench::author::behaviour::InputCache;
    use flowbench::author::execute::sandbox_config;
    use flowbench::author::review::review_with;
    use flowbench::exec::LazyExecutor;
    let source = "def count_big(xs, n):\n    count = 0\n    for x in xs:\n        if x > n:\n            count += 1\n    return count\n";
    let program = read_program(source, None).unwrap();
    // The loop is left out: a difference about what the chart does not
    // show, which its prose box (that the reader cannot run) might say.
    let chart = "flowchart TD\n    A([Start]) --> B[Tidy the numbers up first]\n    B --> C[count = 0]\n    C --> G[/Return count/]\n";
    let (sandbox, cache) = (LazyExecutor::new(sandbox_config()), InputCache::default());
    let behave = Behave { source, sandbox: &sandbox, cache: &cache, spec: None };
    let mut report = check_against(&program, &parse(chart).unwrap());
    add_behaviour(&mut report, &program, &parse(chart).unwrap(), None, &behave).unwrap();
    assert!(report.mismatches.is_empty(), "{:?}", report.mismatches);
    assert!(!report.unchecked.is_empty(), "the worded condition is left unchecked: {report:?}");
    let reply = format!("```mermaid\n{chart}```\n");
    let review = review_with(&reply, &program, "s.py", source, Some(&behave));
    assert!(review.diagnostics.iter().any(|d| d.contains("against-")), "{:?}", review.diagnostics);
}

/// `return sorted(a) == sorted(b)` drawn as a decision on the test with
/// `Return True` and `Return False` on its branches (one `Return False`
/// shared with an earlier `return False`) is that return, not two foreign
/// Outputs; a `True` that stands for nothing in the code still is one.
#[test]
fn a_returned_test_drawn_as_a_decision_with_true_and_false_returns_is_that_return() {
    let source =
        "def is_anagram(a, b):\n    if len(a) != len(b):\n        return False\n    return sorted(a) == sorted(b)\n";
    let program = read_program(source, None).unwrap();
    let chart = "flowchart TD\n    A([Start]) --> B[/Input a, b/]\n    B --> C{\"len(a) != len(b)?\"}\n    C -->|Yes| D[/Return False/]\n    C -->|No| F{\"sorted(a) == sorted(b)?\"}\n    F -->|Yes| G[/Return True/]\n    F -->|No| D\n";
    let r = check_against(&program, &parse(chart).unwrap());
    assert!(r.mismatches.iter().all(|m| m.kind != flowbench::author::MismatchKind::Outputs), "{:?}", r.mismatches);
    let plain = "def f(a, b):\n    if len(a) != len(b):\n        return False\n    return len(a) + 1\n";
    let r = check_against(&read_program(plain, None).unwrap(), &parse(chart).unwrap());
    assert!(r.mismatches.iter().any(|m| m.kind == flowbench::author::MismatchKind::Outputs), "{:?}", r.mismatches);
}
