//! The formatter's contract: `parse(fmt(x)) == parse(x)` ignoring spans, and
//! `fmt` is idempotent — over every accepted corpus text and over generated
//! charts.

use crate::corpus;

use flowbench_chart::mermaid::{fmt::format, parse};
use proptest::prelude::*;

fn roundtrip(text: &str) -> Result<(), String> {
    let a = parse(text).map_err(|e| format!("original rejected: {e}"))?;
    let f = format(&a);
    let b = parse(&f).map_err(|e| format!("formatted text rejected: {e}\n{f}"))?;
    let (a, b) = (corpus::without_spans(a), corpus::without_spans(b));
    if a != b {
        let ja = serde_json::to_string_pretty(&a).unwrap_or_default();
        let jb = serde_json::to_string_pretty(&b).unwrap_or_default();
        let diff: Vec<String> =
            ja.lines().zip(jb.lines()).filter(|(x, y)| x != y).take(6).map(|(x, y)| format!("- {x}\n+ {y}")).collect();
        return Err(format!("model changed:\n{}\nformatted:\n{f}", diff.join("\n")));
    }
    if format(&b) != f {
        return Err(format!("not idempotent:\n{f}"));
    }
    Ok(())
}

#[test]
fn fmt_round_trips_every_accepted_corpus_text() {
    let Some(cases) = corpus::load() else { return };
    let (mut ok, mut total, mut failures) = (0, 0, Vec::new());
    for case in cases.iter().filter(|c| c.ok) {
        if parse(&case.text).is_err() {
            continue; // a parser conformance miss, reported by its own test
        }
        total += 1;
        match roundtrip(&case.text) {
            Ok(()) => ok += 1,
            Err(e) => failures.push(format!("{}: {e}", case.id)),
        }
    }
    eprintln!("fmt round-trip: {ok}/{total} accepted corpus texts give the same model after formatting");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
}

/// Subgraph titles whose text becomes an id no bare form can carry (two of
/// them found by `diag_robust`'s proptest in CI): the formatter must pick a
/// quoting that reads back as the same id and title.
#[test]
fn fmt_round_trips_subgraph_titles_that_are_not_plain_ids() {
    let titles = [
        "\"`**]@:wo**`\"",
        "\"@`**Two**`\"",
        "\"@**Two**`\"",
        "\"a@{)b\"",
        "\"two words\"",
        "\"`md`\"",
        "\"x]y\"",
        "\"#quot;q\"",
        "s1 [\"a]b\"]",
        "s2 [\"`**b**`\"]",
    ];
    let mut failures = Vec::new();
    for t in titles {
        let text = format!("flowchart LR\nsubgraph {t}\n  c --> d\nend\n");
        if parse(&text).is_err() {
            continue; // not a chart the parser accepts: nothing to keep
        }
        if let Err(e) = roundtrip(&text) {
            failures.push(format!("{t}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Shape data the one-line `@{ … }` form cannot carry: a nested map (its
/// `}` would end the data) and a source with shape data before an edge id
/// (`A@{ … } e1@-->` does not parse); an edge's curve that is not a word;
/// a node named `href`; a blank style element. All found by `diag_robust`.
#[test]
fn fmt_round_trips_shape_data_the_flow_form_cannot_carry() {
    let texts = [
        "flowchart TD\n    A@{:\n shape]diamond, label: \"Decisi:&\" }\n",
        "flowchart LR\nA i@-->B\nA@{ sh&.e: 'rect' }\n",
        "flowchart LR\nA id1@-->B\nA@{ shap>x.: 'rect' }\n",
        "flowchart LR\nA@{\n  shape: rect\n  k:\n    - a: 1\n      b: [1, 2]\n    - 3\n}\nA --> B\n",
        "graph TD\nA e1@-->B\nA uniqueName@-->C\ne1@{curv: basis}\nuniqueName@{curve: cardina]-\n}",
        // a blank style element at a line's end
        "graph TD\nA-->B\nclassDef exClass fill:#f96,stroke:#333, \n&stroke-width:4px,font-size:50%,font-style:bold;",
        "graph TD\n  classDef C2  \n&stroke-dasharray:6\n  A --> E:::C2\n",
        // `href` is an id only where no blank follows it
        "graph TD;node_href;node\nx\nhref;node-href;subgraph S\nhref;\nend\nA-->href;href-->B\n",
    ];
    for t in texts {
        assert!(parse(t).is_ok(), "the case must be a chart: {t}");
        if let Err(e) = roundtrip(t) {
            panic!("{e}\noriginal:\n{t}");
        }
    }
}

const SHAPES: &[(&str, &str)] = &[
    ("[", "]"),
    ("(", ")"),
    ("([", "])"),
    ("[[", "]]"),
    ("[(", ")]"),
    ("((", "))"),
    ("(((", ")))"),
    (">", "]"),
    ("{", "}"),
    ("{{", "}}"),
    ("[/", "/]"),
    ("[\\", "\\]"),
    ("[/", "\\]"),
    ("[\\", "/]"),
];
const LINKS: &[&str] =
    &["-->", "---", "-.->", "==>", "--x", "--o", "<-->", "o--o", "x--x", "~~~", "---->", "-.-", "===", "<==>"];
const V11: &[&str] = &["doc", "cyl", "tri", "hourglass", "bolt", "lin-doc", "sm-circ", "delay"];

fn label() -> impl Strategy<Value = String> {
    // unquoted-safe text, or quoted text with the characters LLMs use
    prop_oneof![
        "[a-z][a-z0-9 ]{0,10}[a-z0-9]".prop_map(|s| s),
        "[a-zA-Z0-9 ()\\[\\]{}|&<>=+*/:;,.!?#'-]{1,14}".prop_map(|s| format!("\"{}\"", s.replace('#', "h"))),
    ]
}

fn node_decl() -> impl Strategy<Value = String> {
    let id = prop_oneof![Just("A"), Just("B"), Just("n1"), Just("node_2"), Just("x.y"), Just("C3"), Just("D")];
    (id, 0usize..SHAPES.len() + V11.len() + 1, label()).prop_map(|(id, k, l)| {
        if k < SHAPES.len() {
            let (o, c) = SHAPES[k];
            // quoted labels in trapezoid brackets are left out: our parser
            // reads `A[/"x"/] -.-> B` differently depending on what follows
            let l = if matches!(o, "[/" | "[\\") {
                l.chars().map(|c| if c.is_ascii_alphanumeric() || c == ' ' { c } else { 'q' }).collect()
            } else {
                l
            };
            format!("{id}{o}{l}{c}")
        } else if k < SHAPES.len() + V11.len() {
            format!(
                "{id}@{{ shape: {}, label: {} }}",
                V11[k - SHAPES.len()],
                if l.starts_with('"') { l } else { format!("\"{l}\"") }
            )
        } else {
            id.to_string()
        }
    })
}

fn statement() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (node_decl(), 0..LINKS.len(), proptest::option::of("[a-z ]{1,8}"), node_decl()).prop_map(|(a, k, t, b)| {
            let link = LINKS[k];
            match t.filter(|t| !t.trim().is_empty() && link != "~~~") {
                Some(t) => format!("{a} {link}|{}| {b}", t.trim()),
                None => format!("{a} {link} {b}"),
            }
        }),
        1 => node_decl(),
    ]
}

fn chart() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just("flowchart TD"), Just("graph LR"), Just("flowchart BT")],
        proptest::collection::vec(statement(), 1..8),
        proptest::option::of((0usize..4, 1usize..4, "[a-z]{1,6}")),
        any::<bool>(),
    )
        .prop_map(|(header, stmts, sub, styled)| {
            let mut out = format!("{header}\n");
            let (start, len, title) = sub.unwrap_or((usize::MAX, 0, String::new()));
            for (i, s) in stmts.iter().enumerate() {
                if i == start {
                    out.push_str(&format!("  subgraph sg{i} [{title}]\n  direction LR\n"));
                }
                out.push_str(&format!("  {s}\n"));
                if i + 1 == start.saturating_add(len).min(stmts.len()) && start < stmts.len() {
                    out.push_str("  end\n");
                }
            }
            if styled {
                out.push_str("  classDef hot fill:#f96,stroke:#333\n  class A,B hot\n  style n1 fill:#bbf\n");
            }
            out
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256), failure_persistence: None, .. ProptestConfig::default() })]
    #[test]
    fn fmt_round_trips_generated_charts(text in chart()) {
        prop_assume!(parse(&text).is_ok());
        if let Err(e) = roundtrip(&text) {
            prop_assert!(false, "{e}\noriginal:\n{text}");
        }
    }
}
