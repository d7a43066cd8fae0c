//! Every `(* example: … *)` in `grammar/flowchart.ebnf` parses, and every
//! `(* rejects: … *)` is rejected, so the written grammar stays true.

use flowbench_chart::mermaid::parse;

fn unescape(s: &str) -> String {
    s.replace("\\n", "\n")
}

#[test]
fn grammar_examples_parse() {
    let g = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../grammar/flowchart.ebnf"))
        .expect("grammar file");
    let (mut ok, mut bad) = (0, 0);
    let mut failures = Vec::new();
    for line in g.lines() {
        let line = line.trim();
        if let Some(ex) = line.strip_prefix("(* example: ").and_then(|l| l.strip_suffix(" *)")) {
            ok += 1;
            if let Err(e) = parse(&unescape(ex)) {
                failures.push(format!("example should parse: {ex}\n  -> {e}"));
            }
        } else if let Some(ex) = line.strip_prefix("(* rejects: ").and_then(|l| l.strip_suffix(" *)")) {
            bad += 1;
            if parse(&unescape(ex)).is_ok() {
                failures.push(format!("example should be rejected: {ex}"));
            }
        }
    }
    assert!(ok >= 30 && bad >= 15, "too few examples found ({ok} accepted, {bad} rejected)");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
