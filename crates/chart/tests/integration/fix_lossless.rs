//! `check --fix` never changes a label's text: an id with spaces
//! (`My Node[Do stuff]`) becomes `My_Node` keeping "Do stuff", wherever the
//! bare uses (`A --> My Node`) are — before or after the labelled one — and
//! a node written only bare keeps its words as its label.

use std::collections::BTreeMap;

use flowbench_chart::mermaid::{fix::fix, lint::lint, parse};

/// Fix `source`, parse the result and return its node labels by id; the
/// fixed chart must also lint without a `conflicting-label` warning.
fn fixed_labels(source: &str) -> BTreeMap<String, String> {
    let fixed = fix(source);
    let chart = parse(&fixed.text).unwrap_or_else(|e| panic!("fixed text rejected: {e:?}\n{}", fixed.text));
    let conflicts: Vec<_> =
        lint(&chart).into_iter().filter(|d| d.code == "conflicting-label").map(|d| d.message).collect();
    assert!(conflicts.is_empty(), "the fix created label conflicts {conflicts:?}:\n{}", fixed.text);
    chart.nodes.iter().map(|n| (n.id.clone(), n.label.clone())).collect()
}

fn expect(source: &str, want: &[(&str, &str)]) {
    let got = fixed_labels(source);
    for (id, label) in want {
        assert_eq!(got.get(*id).map(String::as_str), Some(*label), "node {id} in the fix of:\n{source}\ngot {got:?}");
    }
}

#[test]
fn a_spaced_id_keeps_its_written_label() {
    // The case: the labelled use first, a bare use after it.
    expect("flowchart TD\n    My Node[Do stuff] --> B\n    A --> My Node\n", &[("My_Node", "Do stuff")]);
    // The bare use first.
    expect("flowchart TD\n    A --> My Node\n    My Node[Do stuff] --> B\n", &[("My_Node", "Do stuff")]);
    // Several bare uses around a labelled one, other shapes.
    expect(
        "flowchart TD\n    Go --> Is Ready\n    Is Ready{Ready?} -->|Yes| Done\n    Is Ready -->|No| Go\n",
        &[("Is_Ready", "Ready?")],
    );
    expect(
        "flowchart LR\n    Start Here([Begin]) --> Read Input\n    Read Input --> Start Here\n",
        &[("Start_Here", "Begin"), ("Read_Input", "Read Input")],
    );
    // Another fix in the same label (parentheses quoted) keeps its text too.
    expect("flowchart TD\n    C --> My Step\n    My Step[Sum (all)] --> D\n", &[("My_Step", "Sum (all)")]);
}

#[test]
fn a_spaced_id_used_only_bare_is_labelled_with_its_words() {
    expect("flowchart TD\n    My Node --> B\n    A --> My Node\n", &[("My_Node", "My Node")]);
    expect("flowchart TD\n    A --> Two Words --> C\n", &[("Two_Words", "Two Words")]);
}
