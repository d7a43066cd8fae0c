//! The conformance corpus (`../shared/mermaid/conformance.jsonl`) as records.
#![allow(dead_code)]

use flowbench_chart::mermaid::Flowchart;

/// One corpus text with mermaid 12.3's verdict.
pub struct Case {
    pub id: String,
    pub kind: String,
    pub pitfall: Option<String>,
    pub text: String,
    pub ok: bool,
    /// (nodes, edges, subgraphs) when mermaid accepted the text.
    pub counts: Option<(usize, usize, usize)>,
}

/// All cases, or `None` when the shared data is absent (see `common::shared`).
pub fn load() -> Option<Vec<Case>> {
    let path = crate::common::shared("mermaid/conformance.jsonl")?;
    let text = std::fs::read_to_string(path).expect("conformance.jsonl is readable");
    let cases = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("each corpus line is JSON");
            let t = &v["target"];
            let n = |k: &str| t[k].as_u64().map(|x| x as usize);
            let ok = t["result"] == "ok";
            Case {
                id: v["id"].as_str().unwrap_or_default().to_string(),
                kind: v["kind"].as_str().unwrap_or_default().to_string(),
                pitfall: v["pitfall"].as_str().map(String::from),
                text: v["text"].as_str().unwrap_or_default().to_string(),
                ok,
                counts: if ok {
                    n("nodes").zip(n("edges")).zip(n("subgraphs")).map(|((a, b), c)| (a, b, c))
                } else {
                    None
                },
            }
        })
        .collect();
    Some(cases)
}

/// Counts of a model as mermaid reports them.
pub fn counts(c: &Flowchart) -> (usize, usize, usize) {
    (c.nodes.len(), c.edges.len(), c.subgraphs.len())
}

/// The model with every span zeroed, for comparisons "ignoring spans".
pub fn without_spans(mut c: Flowchart) -> Flowchart {
    for n in &mut c.nodes {
        n.span = Default::default();
    }
    for e in &mut c.edges {
        e.span = Default::default();
    }
    for s in &mut c.subgraphs {
        s.span = Default::default();
    }
    c
}
