//! The diagnostic of every error-producing pitfall probe, snapshotted under
//! `snapshots/diagnostics/` (one `.snap` per probe), and each must carry a
//! pitfall hint.

use crate::corpus;

use flowbench_chart::mermaid::{diagnostic::render, parse};

#[test]
fn every_rejected_pitfall_probe_gets_a_located_diagnostic_with_a_hint() {
    let Some(cases) = corpus::load() else { return };
    let probes: Vec<_> = cases.iter().filter(|c| c.kind == "pitfall" && !c.ok).collect();
    let (mut rendered, mut accepted, mut without_hint) = (0, Vec::new(), Vec::new());
    let mut wrong_pitfall = Vec::new();
    let mut pitfalls = std::collections::BTreeSet::new();
    for case in &probes {
        let err = match parse(&case.text) {
            Ok(_) => {
                // a conformance miss of the parser, counted there
                accepted.push(case.id.as_str());
                continue;
            }
            Err(e) => e,
        };
        let path = format!("{}.mmd", case.id);
        let out = render(&path, &case.text, &err);
        assert!(out.contains(&format!("{path}:{}:", err.span.line)) || out.contains(&format!("{path}:")), "{out}");
        let want = case.pitfall.clone().unwrap_or_default();
        if !out.starts_with(&format!("[{want}]")) {
            wrong_pitfall.push(format!("{} (want {want}): {}", case.id, out.lines().next().unwrap_or("")));
        }
        if out.contains("Help:") {
            pitfalls.insert(case.pitfall.clone().unwrap_or_default());
        } else {
            without_hint.push(case.id.as_str());
        }
        insta::with_settings!({
            snapshot_path => "../../../../snapshots/diagnostics",
            prepend_module_to_snapshot => false,
            description => case.text.chars().take(300).collect::<String>(),
        }, {
            insta::assert_snapshot!(case.id.as_str(), out);
        });
        rendered += 1;
    }
    eprintln!(
        "pitfall diagnostics: {rendered}/{} rejected probes rendered, {} with a hint, {} naming the probe's own pitfall, pitfalls covered: {pitfalls:?}; accepted by our parser (not rendered): {accepted:?}",
        probes.len(),
        rendered - without_hint.len(),
        rendered - wrong_pitfall.len()
    );
    assert!(wrong_pitfall.is_empty(), "hints for the wrong pitfall:\n{}", wrong_pitfall.join("\n"));
    assert!(without_hint.is_empty(), "probes without a pitfall hint: {without_hint:?}");
    assert!(rendered > 0);
}
