//! Clean layouts: every accepted chart of the conformance corpus with at
//! most 500 edges is parsed and laid out; node–node overlaps, label
//! overlaps, labels crossed by other edges and edges through non-incident
//! nodes must all be zero, measured on the drawn curves (basis). Prints
//! the totals and the crossing count. Every edge label must also sit on
//! its own edge.

use crate::common;

use flowbench_chart::layout::{LayoutOptions, layout, metrics::metrics};
use flowbench_chart::text::Fonts;

#[test]
fn conformance_charts_lay_out_cleanly() {
    let Some(path) = common::shared("mermaid/conformance.jsonl") else { return };
    let text = std::fs::read_to_string(&path).expect("read conformance corpus");
    let fonts = Fonts::embedded();
    let opts = LayoutOptions::default();
    let (mut charts, mut parse_failures, mut crossings, mut bends) = (0usize, 0usize, 0usize, 0usize);
    let mut bad: Vec<String> = Vec::new();
    for line in text.lines() {
        let rec: serde_json::Value = serde_json::from_str(line).expect("corpus line is JSON");
        let target = &rec["target"];
        if target["result"] != "ok" || target["edges"].as_u64().unwrap_or(0) > 500 {
            continue;
        }
        let id = rec["id"].as_str().unwrap_or("?");
        let Ok(chart) = flowbench_chart::mermaid::parse(rec["text"].as_str().unwrap_or("")) else {
            parse_failures += 1;
            continue;
        };
        let g = match layout(&chart, &opts, &fonts) {
            Ok(g) => g,
            Err(e) => {
                bad.push(format!("{id}: layout error {e}"));
                continue;
            }
        };
        charts += 1;
        let m = metrics(&chart, &g);
        crossings += m.edge_crossings;
        bends += m.bends;
        if m.node_overlaps + m.label_overlaps + m.edges_through_nodes + m.labels_off_edge + m.labels_crossed > 0 {
            bad.push(format!(
                "{id}: node overlaps {}, label overlaps {}, edges through nodes {}, labels off their edge {}, labels crossed {}",
                m.node_overlaps, m.label_overlaps, m.edges_through_nodes, m.labels_off_edge, m.labels_crossed
            ));
        }
    }
    println!(
        "laid out {charts} charts ({parse_failures} accepted charts our parser rejects); edge crossings {crossings}, bends {bends}; unclean {}",
        bad.len()
    );
    assert_eq!(parse_failures, 0, "accepted charts must parse");
    assert!(charts > 900, "too few charts laid out: {charts}");
    assert!(bad.is_empty(), "unclean layouts:\n{}", bad.join("\n"));
}
