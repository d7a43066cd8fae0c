//! Fuzzing the CLI's file inputs in-process with proptest: problems and
//! samples JSONL, style TOML and Mermaid text (mutated from real files), fed
//! to the same loaders the commands use. Any panic fails. Quick by default;
//! `FLOWBENCH_FUZZ_SECS=600 cargo test --release --test integration fuzz_inputs:: -- --nocapture`
//! runs for ten minutes and prints how many cases ran.

use std::path::Path;
use std::time::{Duration, Instant};

use flowbench::judge::extract::Extract;
use flowbench::judge::problems_file::load_problems;
use flowbench::judge::samples::{SampleOptions, load_samples};
use flowbench::render::pipeline::Renderer;
use flowbench::render::style::{Style, StyleFile};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

const SEEDS_JSONL: &[&str] = &[
    r#"{"task_id": "add", "entry_point": "add", "call_style": "function", "time_limit_s": 2, "tests": [{"args": [1, 2], "expected": 3}, {"kwargs": {"a": {"__tuple__": [1, 2.5]}}, "expected": {"__set__": [1]}}]}"#,
    r#"{"task_id": "old", "entry_point": "f", "subset": "MATH", "difficulty": "easy", "test": "assert f(2) == 4", "prompt": "def f(x):"}"#,
    r#"{"task_id": "add", "completion": "def add(a, b):\n    return a + b\n", "seed": 123456789012345678901234567890}"#,
    r#"{"task_id": "old", "response": "Here:\n```python\ndef f(x):\n    return x*x\n```", "model": "m"}"#,
];
const SEEDS_TOML: &[&str] = &[
    "node_fill = \"#ffeecc\"\nstroke_width = 2.0\nfont_size = 14\ncurve = \"linear\"\n",
    "theme = \"dark\"\nbackground = \"transparent\"\nnode_spacing = 1e308\n",
];
const SEEDS_MMD: &[&str] = &[
    "flowchart TD\n  A[Start] --> B{x > 0?}\n  B -->|yes| C[\"Do (stuff)\"]\n  B -- no --> D((End))\n  subgraph S [Helper]\n    C --> E>flag]\n  end\n  classDef c fill:#f9f\n  class A c\n  style D fill:blurple\n",
    "graph LR\n  a & b --> c\n  c -.-> d\n  linkStyle 0 stroke:red\n  %% comment\n",
];

/// A seed with random byte-level edits (insert, delete, replace).
fn mutated(seeds: &'static [&'static str]) -> impl Strategy<Value = String> {
    (0..seeds.len(), prop::collection::vec((any::<u16>(), 0u8..3, any::<char>()), 0..12)).prop_map(move |(i, edits)| {
        let mut chars: Vec<char> = seeds[i].chars().collect();
        for (pos, op, c) in edits {
            let at = pos as usize % (chars.len() + 1);
            match op {
                0 => chars.insert(at, c),
                1 if at < chars.len() => {
                    chars.remove(at);
                }
                _ if at < chars.len() => chars[at] = c,
                _ => chars.push(c),
            }
        }
        chars.into_iter().collect()
    })
}

fn one_case(dir: &Path, renderer: &Renderer, jsonl: &str, toml: &str, mmd: &str) {
    let p = dir.join("p.jsonl");
    std::fs::write(&p, format!("{}\n{jsonl}\n", SEEDS_JSONL[0])).expect("write");
    if let Ok((problems, _)) = load_problems(&p) {
        let _ = load_samples(
            std::slice::from_ref(&p),
            &problems,
            SampleOptions { extract: Extract::default(), prefer_response: false },
        );
    }
    let t = dir.join("s.toml");
    std::fs::write(&t, toml).expect("write");
    let mut style = Style::default();
    if let Ok(file) = StyleFile::load(&t) {
        let _ = file.apply(&mut style);
    }
    let fixed = flowbench::mermaid::fix::fix(mmd);
    let _ = flowbench::mermaid::lint::check(&fixed.text);
    if let Ok(chart) = flowbench::mermaid::parse(mmd) {
        let text = flowbench::mermaid::fmt::format(&chart);
        assert!(flowbench::mermaid::parse(&text).is_ok(), "fmt output does not parse: {text:?}");
        let _ = renderer.svg(&chart, &style);
    }
}

#[test]
fn file_inputs_never_panic() {
    let secs: u64 = std::env::var("FLOWBENCH_FUZZ_SECS").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    let dir = tempfile::tempdir().expect("tempdir");
    let renderer = Renderer::default();
    let strategy = (mutated(SEEDS_JSONL), mutated(SEEDS_TOML), mutated(SEEDS_MMD));
    let started = Instant::now();
    let cases = std::cell::Cell::new(0u64);
    // A fresh runner per round: a runner that has passed its cases runs no
    // more. Each round's seed is its number, so a failure can be replayed.
    let mut round: u64 = 0;
    while round == 0 || started.elapsed() < Duration::from_secs(secs) {
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&round.to_le_bytes());
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
        let mut runner =
            TestRunner::new_with_rng(Config { cases: 256, failure_persistence: None, ..Config::default() }, rng);
        runner
            .run(&strategy, |(jsonl, toml, mmd)| {
                cases.set(cases.get() + 1);
                one_case(dir.path(), &renderer, &jsonl, &toml, &mmd);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("fuzz case failed in round {round}: {e}"));
        round += 1;
    }
    println!(
        "fuzz_inputs: {} cases in {round} rounds, {:.0} s, no panic",
        cases.get(),
        started.elapsed().as_secs_f64()
    );
}
