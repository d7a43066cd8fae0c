//! The chooser on small hand-made problems: runs are written out, no
//! sandbox is involved.

use std::time::Duration;

use serde_json::json;

use flowbench_testgen::reference::Cost;

use super::*;

fn value(v: i64) -> Run {
    Run::Value(json!(v), Cost::wall(Duration::ZERO))
}

/// A trial of `model` whose source is `size` characters long.
fn trial(model: &str, size: usize, failed: &[usize], outputs: &[i64]) -> Trial {
    Trial {
        model: model.into(),
        source: "x".repeat(size),
        failed: failed.to_vec(),
        runs: outputs.iter().map(|&v| value(v)).collect(),
    }
}

fn decide(trials: &[Trial]) -> Decision {
    choose(trials, &CompareOptions::default(), |t| t.source.len())
}

#[test]
fn two_models_that_agree_make_the_reference_and_the_simplest_is_chosen() {
    // Check inputs: two originals (expected 1, 2), then three generated.
    let trials = [
        trial("gpt", 50, &[], &[1, 2, 3, 4, 5]),
        trial("claude", 30, &[], &[1, 2, 3, 4, 5]),
        // Passes the originals but differs on a generated input.
        trial("llama", 10, &[], &[1, 2, 3, 9, 5]),
    ];
    let Decision::Accepted { chosen, agreeing, wrong_tests, differences } = decide(&trials) else {
        panic!("expected a reference: {:?}", decide(&trials));
    };
    assert_eq!((chosen, agreeing, wrong_tests), (1, vec![0, 1], vec![]));
    assert_eq!(differences.len(), 1);
    assert_eq!(differences[0].input, 3);
    assert_eq!(differences[0].outputs[0].output, "4");
    assert_eq!(differences[0].outputs[1].models, vec!["llama".to_string()]);
}

#[test]
fn one_model_is_not_evidence() {
    let trials = [trial("gpt", 5, &[], &[1, 2, 3]), trial("gpt", 4, &[], &[1, 2, 3])];
    assert_eq!(decide(&trials), Decision::LeftOut { reason: Reason::OneModel, differences: vec![] });
}

#[test]
fn a_tie_between_disagreeing_models_is_left_out_with_the_inputs() {
    let trials = [trial("a", 5, &[], &[1, 7]), trial("b", 5, &[], &[1, 8])];
    let Decision::LeftOut { reason, differences } = decide(&trials) else { panic!("no reference expected") };
    assert_eq!(reason, Reason::Disagree);
    assert_eq!(differences[0].input, 1);
    let outputs: Vec<&str> = differences[0].outputs.iter().map(|o| o.output.as_str()).collect();
    assert_eq!(outputs, ["7", "8"]);
}

#[test]
fn an_original_test_every_agreeing_program_fails_is_a_wrong_test() {
    // Original 0 expects 1, original 1 expects 99 (wrong): three models
    // return 2 there and agree everywhere; a fourth fails both originals.
    let trials = [
        trial("gpt", 9, &[1], &[1, 2, 5, 6]),
        trial("claude", 8, &[1], &[1, 2, 5, 6]),
        trial("llama", 1, &[0, 1], &[0, 2, 5, 6]),
        trial("gemini", 10, &[1], &[1, 2, 5, 6]),
    ];
    let Decision::Accepted { chosen, agreeing, wrong_tests, .. } = decide(&trials) else {
        panic!("expected a reference")
    };
    assert_eq!((chosen, agreeing, wrong_tests), (1, vec![0, 1, 3], vec![1]));
}

#[test]
fn two_models_failing_the_same_tests_do_not_overturn_them() {
    let trials = [trial("gpt", 9, &[0, 1], &[16, 15, 5]), trial("gemini", 8, &[0, 1], &[16, 15, 5])];
    assert!(matches!(decide(&trials), Decision::LeftOut { reason: Reason::OneModel, .. }));
}

#[test]
fn passing_programs_that_disagree_are_not_outvoted_by_failing_ones() {
    let trials = [
        trial("a", 5, &[], &[1, 7]),
        trial("b", 5, &[], &[1, 8]),
        trial("c", 5, &[0], &[0, 9]),
        trial("d", 5, &[0], &[0, 9]),
        trial("e", 5, &[0], &[0, 9]),
    ];
    assert!(matches!(decide(&trials), Decision::LeftOut { reason: Reason::Disagree, .. }));
}

#[test]
fn only_two_different_values_contradict() {
    let opts = CompareOptions::default();
    assert!(agree(&Run::Raised("ValueError: x".into()), &Run::Raised("IndexError: y".into()), &opts));
    assert!(agree(&Run::Raised("ValueError: x".into()), &value(1), &opts));
    assert!(agree(&Run::TimedOut, &value(1), &opts));
    assert!(agree(&Run::Value(json!(1.0), Cost::wall(Duration::ZERO)), &value(1), &opts));
    assert!(!agree(&value(2), &value(1), &opts));
}

#[test]
fn the_member_with_the_most_values_is_chosen_before_the_shortest() {
    let mut short = trial("gpt", 5, &[], &[1, 2, 3]);
    short.runs[2] = Run::Raised("ZeroDivisionError: division by zero".into());
    let long = trial("claude", 50, &[], &[1, 2, 3]);
    let Decision::Accepted { chosen, agreeing, .. } = decide(&[short, long]) else { panic!("expected a reference") };
    assert_eq!((chosen, agreeing), (1, vec![0, 1]));
}

#[test]
fn a_group_needs_every_member_to_agree() {
    // b agrees with a (a raised where b differs from c), c agrees with a
    // but not with b: c starts a group of its own.
    let mut a = trial("a", 5, &[], &[1, 0]);
    a.runs[1] = Run::TimedOut;
    let groups =
        group(&[a, trial("b", 5, &[], &[1, 2]), trial("c", 5, &[], &[1, 3])], &[0, 1, 2], &CompareOptions::default());
    assert_eq!(groups, vec![vec![0, 1], vec![2]]);
}

#[test]
fn no_sample_near_the_tests_is_no_candidate() {
    let trials = [Trial { model: "a".into(), source: String::new(), failed: vec![0, 1, 2], runs: vec![] }];
    assert_eq!(decide(&trials), Decision::LeftOut { reason: Reason::NoCandidate, differences: vec![] });
}
