//! Conformance against mermaid 12.3.0's own verdicts on
//! `../shared/mermaid/conformance.jsonl`: accept/reject agreement and, for
//! texts both accept, equal vertex/edge/subgraph counts. Every remaining
//! mismatch must be listed (id + reason) in `docs/conformance-mismatches.md`,
//! and every listed id must still mismatch, so the list stays true.

use crate::common;

use flowbench_chart::mermaid::parse;
use serde_json::Value;

/// Minimum agreement, in percent, for both figures.
const MIN_AGREEMENT: f64 = 99.5;

#[test]
fn conformance_with_mermaid_12_3() {
    let Some(path) = common::shared("mermaid/conformance.jsonl") else {
        return;
    };
    let text = std::fs::read_to_string(&path).expect("read conformance.jsonl");
    let (mut total, mut verdict_ok, mut accepted_both, mut counts_ok) = (0usize, 0usize, 0usize, 0usize);
    let mut mismatches: Vec<(String, String)> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let row: Value = serde_json::from_str(line).expect("jsonl row");
        let id = row["id"].as_str().unwrap_or("?").to_string();
        let src = row["text"].as_str().unwrap_or_default();
        let target = &row["target"];
        let want_ok = target["result"] == "ok";
        total += 1;
        let got = parse(src);
        if got.is_ok() != want_ok {
            let why = match &got {
                Ok(_) => format!("accepted; mermaid: {}", target["error"]),
                Err(e) => format!("rejected ({e}); mermaid accepts"),
            };
            mismatches.push((id, why));
            continue;
        }
        verdict_ok += 1;
        if let Ok(fc) = got {
            accepted_both += 1;
            let have = (fc.nodes.len() as u64, fc.edges.len() as u64, fc.subgraphs.len() as u64);
            let want = (
                target["nodes"].as_u64().unwrap_or(0),
                target["edges"].as_u64().unwrap_or(0),
                target["subgraphs"].as_u64().unwrap_or(0),
            );
            if have == want {
                counts_ok += 1;
            } else {
                mismatches.push((id, format!("counts (nodes, edges, subgraphs) {have:?}, mermaid {want:?}")));
            }
        }
    }
    let verdict_pct = 100.0 * verdict_ok as f64 / total.max(1) as f64;
    let counts_pct = 100.0 * counts_ok as f64 / accepted_both.max(1) as f64;
    println!("conformance: {total} texts");
    println!("conformance: accept/reject agreement {verdict_ok}/{total} = {verdict_pct:.2}%");
    println!("conformance: count agreement on accepted texts {counts_ok}/{accepted_both} = {counts_pct:.2}%");
    for (id, why) in &mismatches {
        println!("mismatch {id}: {why}");
    }
    let listed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/conformance-mismatches.md"))
        .unwrap_or_default();
    let unlisted: Vec<&String> =
        mismatches.iter().map(|(id, _)| id).filter(|id| !listed.contains(id.as_str())).collect();
    assert!(unlisted.is_empty(), "mismatches missing from docs/conformance-mismatches.md: {unlisted:?}");
    let stale: Vec<&str> = listed
        .lines()
        .filter_map(|l| l.strip_prefix("- `")?.split('`').next())
        .filter(|id| !mismatches.iter().any(|(m, _)| m == id))
        .collect();
    assert!(stale.is_empty(), "listed in docs/conformance-mismatches.md but agreeing now: {stale:?}");
    assert!(verdict_pct >= MIN_AGREEMENT, "accept/reject agreement {verdict_pct:.2}% < {MIN_AGREEMENT}%");
    assert!(counts_pct >= MIN_AGREEMENT, "count agreement {counts_pct:.2}% < {MIN_AGREEMENT}%");
}
