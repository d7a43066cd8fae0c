//! The transcription scorer on the bank's charts: a chart read right
//! scores 1 however it is written (its own text, `fmt`'s canonical form,
//! ids renamed, statements reordered), and each misreading of the
//! `noisy-transcriber` costs exactly the counts it should.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use flowbench::author::graph::Branch;
use flowbench::mermaid::{Flowchart, fmt::format, parse};
use flowbench::transcription::chart::View;
use flowbench::transcription::noise::{Edit, applicable, apply, noisy};
use flowbench::transcription::{Counts, Score, Source};
use proptest::prelude::*;

/// Every chart of the bank, by problem name.
fn bank() -> &'static BTreeMap<String, (String, Flowchart)> {
    static BANK: std::sync::OnceLock<BTreeMap<String, (String, Flowchart)>> = std::sync::OnceLock::new();
    BANK.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
        let mut out = BTreeMap::new();
        for entry in std::fs::read_dir(&dir).expect("problems/") {
            let path: PathBuf = entry.expect("entry").path().join("flowchart.mmd");
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            let chart = parse(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
            let name = path.parent().and_then(Path::file_name).expect("name").to_string_lossy().into_owned();
            out.insert(name, (text, chart));
        }
        assert!(out.len() >= 50, "the bank has {} charts", out.len());
        out
    })
}

fn assert_perfect(name: &str, how: &str, s: &Score) {
    let all = [s.node_f1, s.node_f1_strict, s.edge_f1, s.triple_f1_strict, s.triple_f1_relaxed];
    assert!(
        s.parsed
            && all.iter().all(|&f| f == 1.0)
            && s.branch_accuracy.is_none_or(|a| a == 1.0)
            && s.subgraph_recovery.is_none_or(|a| a == 1.0)
            && s.back_edges_found == s.back_edges_total,
        "{name} ({how}): {s:#?}"
    );
}

/// `chart` with every id renamed (`v0`, `v1`, … in a shuffled order) and
/// its nodes and edges reordered, as Mermaid text.
fn renamed_and_reordered(chart: &Flowchart, seed: u64) -> String {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut order: Vec<usize> = (0..chart.nodes.len()).collect();
    rng.shuffle(&mut order);
    let new_id: HashMap<&str, String> =
        order.iter().enumerate().map(|(k, &i)| (chart.nodes[i].id.as_str(), format!("v{k}"))).collect();
    let rename = |id: &str| new_id.get(id).cloned().unwrap_or_else(|| id.to_string());
    let mut out = chart.clone();
    out.nodes = order.iter().map(|&i| chart.nodes[i].clone()).collect();
    for n in &mut out.nodes {
        n.id = rename(&n.id);
    }
    rng.shuffle(&mut out.edges);
    for e in &mut out.edges {
        (e.from, e.to) = (rename(&e.from), rename(&e.to));
        e.user_id = false;
        e.id = String::new();
    }
    for s in &mut out.subgraphs {
        s.members = s.members.iter().map(|m| rename(m)).collect();
    }
    format(&out)
}

#[test]
fn every_bank_chart_scores_one_against_itself_and_its_canonical_form() {
    for (name, (text, chart)) in bank() {
        let source = Source::of(chart);
        assert_perfect(name, "its own text", &source.score_reply(text));
        assert_perfect(name, "fmt", &source.score_reply(&format!("```mermaid\n{}```\n", format(chart))));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
    #[test]
    fn renamed_ids_and_reordered_statements_score_one(pick in 0usize..1000, seed in any::<u64>()) {
        let (name, (_, chart)) = bank().iter().nth(pick % bank().len()).expect("a chart");
        let text = renamed_and_reordered(chart, seed);
        assert_perfect(name, &format!("renamed and reordered, seed {seed}:\n{text}"), &Source::of(chart).score_reply(&text));
    }
}

/// Source edges touching `node` (a self loop once).
fn touching(view: &View, node: usize) -> Vec<usize> {
    (0..view.edges.len()).filter(|&i| view.edges[i].from == Some(node) || view.edges[i].to == Some(node)).collect()
}

/// The counts `edit` must leave, from the perfect ones, by what it does.
fn expected(chart: &Flowchart, perfect: Counts, edit: &Edit) -> Counts {
    let view = View::new(chart);
    let index = |id: &str| chart.nodes.iter().position(|n| n.id == id).expect("node");
    let back = view.back_edges();
    let branch = |i: usize| {
        let e = &view.edges[i];
        e.branch != Branch::Next && e.from.is_some_and(|f| view.decision[f])
    };
    let mut c = perfect;
    let lose_edges = |c: &mut Counts, lost: &[usize]| {
        c.edges_matched -= lost.len();
        c.triples_matched_strict -= lost.len();
        c.triples_matched_relaxed -= lost.len();
        c.branches_correct -= lost.iter().filter(|&&i| branch(i)).count();
        c.back_edges_found -= lost.iter().filter(|i| back.contains(i)).count();
    };
    let in_subgraphs = |id: &str| chart.subgraphs.iter().filter(|s| s.members.iter().any(|m| m == id)).count();
    match edit {
        Edit::DropEdge { from, to } => {
            let i = chart.edges.iter().position(|e| &e.from == from && &e.to == to).expect("edge");
            c.edges_transcribed -= 1;
            lose_edges(&mut c, &[i]);
        }
        Edit::SwapBranches { .. } => {
            c.triples_matched_strict -= 2;
            c.triples_matched_relaxed -= 2;
            c.branches_correct -= 2;
        }
        Edit::RenameNode { node } => {
            c.nodes_matched -= 1;
            c.nodes_matched_strict -= 1;
            lose_edges(&mut c, &touching(&view, index(node)));
            c.subgraphs_recovered -= in_subgraphs(node);
        }
        Edit::DropSubgraphStep { node } => {
            c.nodes_transcribed -= 1;
            c.nodes_matched -= 1;
            c.nodes_matched_strict -= 1;
            c.edges_transcribed -= 1;
            lose_edges(&mut c, &touching(&view, index(node)));
            c.subgraphs_recovered -= in_subgraphs(node);
        }
    }
    c
}

#[test]
fn each_noisy_edit_lowers_exactly_the_counts_it_should() {
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for (name, (text, chart)) in bank() {
        let source = Source::of(chart);
        let perfect = source.score_reply(text).counts;
        for edit in applicable(chart) {
            *kinds.entry(edit.kind()).or_default() += 1;
            let got = source.score_reply(&format(&apply(chart, &edit))).counts;
            let want = expected(chart, perfect, &edit);
            if got != want {
                failures.push(format!("{name}: {edit:?}\n  got  {got:?}\n  want {want:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} edit(s) cost the wrong counts:\n{}", failures.len(), failures.join("\n"));
    for kind in ["drop-edge", "swap-branches", "rename-node", "drop-subgraph-step"] {
        assert!(kinds.get(kind).is_some_and(|&n| n > 0), "no {kind} edit in the bank: {kinds:?}");
    }
}

#[test]
fn the_noisy_stand_in_is_seeded_and_records_a_real_edit() {
    let (_, chart) = bank().values().next().expect("a chart");
    let (a, edit_a) = noisy(chart, 7).expect("an edit");
    let (b, edit_b) = noisy(chart, 7).expect("an edit");
    assert_eq!((format(&a), &edit_a), (format(&b), &edit_b));
    assert_ne!(format(&a), format(chart), "{edit_a:?} changed nothing");
    let kinds: std::collections::BTreeSet<&str> =
        (0..64).filter_map(|seed| noisy(chart, seed)).map(|(_, e)| e.kind()).collect();
    assert!(kinds.len() >= 3, "seeds pick few kinds: {kinds:?}");
}
