//! Property smoke test for the parser (runs in CI in seconds): random
//! Mermaid-flavoured strings and mutations of real flowcharts must never
//! panic and must finish quickly. The long fuzz run lives in `fuzz/`.

use crate::common;

use std::time::{Duration, Instant};

use flowbench_chart::mermaid::{ParseOptions, parse, parse_with};
use proptest::prelude::*;

/// Fragments that exercise lexer states and grammar corners.
const PIECES: &[&str] = &[
    "graph TD\n",
    "flowchart LR;",
    "graph",
    "flowchart-elk",
    " ",
    "\n",
    ";",
    "A",
    "B1",
    "-->",
    "---",
    "-.->",
    "==>",
    "~~~",
    "<-->",
    "o--o",
    "x--x",
    "-- t -->",
    "== t ==>",
    "-. t .->",
    "|t|",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    "((",
    "))",
    "[[",
    "]]",
    "[(",
    ")]",
    "([",
    "])",
    "{{",
    "}}",
    "[/",
    "/]",
    "[\\",
    "\\]",
    ">",
    "<",
    "(-",
    "-)",
    "[|a:b|",
    "\"",
    "\"`",
    "`\"",
    "&",
    " & ",
    ":::",
    "@{",
    "shape: rect",
    "label: \"x\"",
    "e1@",
    "subgraph ",
    "end",
    "direction LR",
    "style ",
    "classDef ",
    "class ",
    "linkStyle ",
    "default",
    "interpolate basis",
    "click ",
    "call f()",
    "href ",
    "_blank",
    "accTitle: t",
    "accDescr {",
    "%%",
    "%%{init: {\"theme\": \"dark\"}}%%",
    "---\n",
    "#quot;",
    "#35;",
    "fill:#f9f;",
    ",",
    ":",
    "#",
    "*",
    "v",
    "^",
    "开始",
    "é",
    "😀",
    "\r\n",
    "\t",
    "\u{a0}",
    "dev---ops",
];

fn assemble(ix: &[usize]) -> String {
    ix.iter().map(|&i| PIECES[i % PIECES.len()]).collect()
}

fn check(text: &str) {
    let start = Instant::now();
    let r = parse(text);
    let _ = parse_with(text, &ParseOptions { max_edges: 5, max_text_size: Some(200) });
    assert!(start.elapsed() < Duration::from_secs(2), "parse took {:?} on {text:?}", start.elapsed());
    if let Err(e) = r {
        // Spans must stay inside the original text.
        assert!(e.span.start <= e.span.end && e.span.end <= text.len(), "bad span {:?} for {text:?}", e.span);
        assert!(e.span.line >= 1 && e.span.col >= 1);
    }
}

fn seeds() -> Vec<String> {
    let mut out = vec![
        "graph TD\nA[Start] --> B{Is it?}\nB -->|Yes| C[OK]\nB -- No --> D[End]\n".to_string(),
        "flowchart LR\nsubgraph s1 [One]\n a --> b\nend\nstyle a fill:#f9f\nlinkStyle 0 stroke:red\n".to_string(),
        "---\ntitle: x\n---\nflowchart TB\n A@{ shape: diam, label: \"d\" } e1@--> B & C\n e1@{ animate: true }\n"
            .to_string(),
    ];
    if let Some(p) = common::shared("mermaid/conformance.jsonl")
        && let Ok(t) = std::fs::read_to_string(p)
    {
        for line in t.lines().step_by(7) {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(line)
                && let Some(s) = v["text"].as_str()
            {
                out.push(s.to_string());
            }
        }
    }
    out
}

/// Apply byte-level edits on char boundaries: delete, duplicate, insert a piece.
fn mutate(seed: &str, edits: &[(u8, usize, usize)]) -> String {
    let mut s: Vec<char> = seed.chars().collect();
    for &(op, a, b) in edits {
        if s.is_empty() {
            s.extend(PIECES[b % PIECES.len()].chars());
            continue;
        }
        let i = a % s.len();
        let j = (i + b % 8).min(s.len());
        match op % 3 {
            0 => {
                s.drain(i..j);
            }
            1 => {
                let dup: Vec<char> = s[i..j].to_vec();
                s.splice(i..i, dup);
            }
            _ => {
                s.splice(i..i, PIECES[b % PIECES.len()].chars());
            }
        }
    }
    s.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_pieces_never_panic(ix in proptest::collection::vec(0usize..1000, 0..40)) {
        check(&assemble(&ix));
    }

    #[test]
    fn random_unicode_never_panics(s in "\\PC{0,80}") {
        check(&s);
        check(&format!("graph TD\n{s}"));
    }

    #[test]
    fn mutated_corpus_never_panics(pick in 0usize..10_000, edits in proptest::collection::vec((0u8..3, 0usize..10_000, 0usize..1000), 1..6)) {
        let seeds = seeds_cached();
        check(&mutate(&seeds[pick % seeds.len()], &edits));
    }
}

/// 1500 cases per property in CI; `FLOWBENCH_FUZZ_CASES` turns this into a
/// long stable-toolchain fuzz run.
fn cases() -> u32 {
    std::env::var("FLOWBENCH_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1500)
}

fn seeds_cached() -> &'static Vec<String> {
    static SEEDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    SEEDS.get_or_init(seeds)
}
