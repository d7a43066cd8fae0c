//! Converter tests on representative asserts of each Code-Vision subset
//! (needs `python3` on PATH, like the judge itself).

use std::path::Path;

use serde_json::json;

use super::*;
use crate::problem::Category;

fn record(task_id: &str, entry_point: &str, style: CallStyle, subset: &str, test: &str) -> Record {
    Record {
        task_id: task_id.into(),
        entry_point: entry_point.into(),
        test: test.into(),
        prompt: Some(format!("def {entry_point}(x):\n    \"\"\"doc\"\"\"\n")),
        starter_code: None,
        call_style: Some(style),
        subset: Some(subset.into()),
        difficulty: None,
    }
}

fn convert_one(r: Record) -> (Problem, Outcome) {
    let (mut p, mut o) = import_records(&[r], Source::Codevision, Path::new("python3")).expect("converter runs");
    (p.remove(0), o.remove(0))
}

fn humaneval(body: &str) -> (Problem, Outcome) {
    let test = format!("\nMETADATA = {{}}\n\ndef check(candidate):\n{body}\n");
    convert_one(record("HumanEval-X", "f", CallStyle::Function, "HumanEval-V", &test))
}

fn math(test: &str) -> (Problem, Outcome) {
    convert_one(record("1. Test", "f", CallStyle::Function, "MATH", test))
}

#[test]
fn humaneval_values_keep_their_python_types() {
    let (p, o) = humaneval(
        "    assert candidate((1, 2), {1: 'a'}) == (3, 'x')\n\
         \x20   assert candidate([1.0, 2.5], float('nan')) == {2, 1}\n\
         \x20   assert candidate(b'ab') is None\n\
         \x20   assert True, 'This prints if this assert fails'\n",
    );
    assert!(o.converted(), "{:?}", o.failures);
    assert_eq!((o.asserts, o.asserts_converted, o.asserts_dropped), (4, 3, 1));
    assert_eq!(p.tests[0].args, vec![json!({"__tuple__": [1, 2]}), json!({"__dict__": [[1, "a"]]})]);
    assert_eq!(p.tests[0].expected, json!({"__tuple__": [3, "x"]}));
    assert_eq!(p.tests[1].args, vec![json!([1.0, 2.5]), json!({"__float__": "nan"})]);
    assert_eq!(p.tests[1].expected, json!({"__set__": [1, 2]}));
    assert_eq!(p.tests[2].args, vec![json!({"__bytes__": "YWI="})]);
    assert_eq!(p.tests[2].expected, json!(null));
    // Floats stay floats in the JSON text: 1.0 is not written as 1.
    assert!(serde_json::to_string(&p.tests[1].args).unwrap_or_default().contains("1.0"));
    let legacy = p.legacy.expect("legacy kept");
    assert!(legacy.check_entry_point);
    assert!(legacy.prompt.is_some());
}

#[test]
fn humaneval_comparators_map_exactly_or_not_at_all() {
    let (p, o) = humaneval(
        "    assert abs(candidate(1.33) - 0.33) < 1e-6\n\
         \x20   assert candidate([3, 2, 3], 9) is True\n\
         \x20   assert not candidate(5)\n\
         \x20   assert candidate(7)\n\
         \x20   assert tuple(candidate([5, 6])) == tuple([2, 6])\n",
    );
    assert!(o.converted(), "{:?}", o.failures);
    assert_eq!(p.float_tolerance, Some(1e-6));
    let compares: Vec<(Compare, serde_json::Value)> = p.tests.iter().map(|t| (t.compare, t.expected.clone())).collect();
    assert_eq!(
        compares,
        vec![
            (Compare::Eq, json!(0.33)),
            (Compare::Is, json!(true)),
            (Compare::Truthy, json!(false)),
            (Compare::Truthy, json!(true)),
            (Compare::Eq, json!([2, 6])),
        ]
    );
}

#[test]
fn loops_over_constants_expand_and_tautologies_drop() {
    let (p, o) = humaneval(
        "    for x in range(2, 5):\n        assert candidate(x, x + 1) == str(x)\n\
         \x20   assert tuple(candidate([1, 2, 3])) == tuple(f([1, 2, 3]))\n",
    );
    assert!(o.converted(), "{:?}", o.failures);
    assert_eq!(p.tests.len(), 3);
    assert_eq!(p.tests[2].args, vec![json!(4), json!(5)]);
    assert_eq!(p.tests[2].expected, json!("4"));
    assert_eq!(o.asserts_dropped, 1);
}

#[test]
fn random_or_helper_based_tests_stay_legacy() {
    let (p, o) = humaneval(
        "    import random\n    for _ in range(3):\n        x = random.randint(0, 9)\n        assert candidate(x) == x\n",
    );
    assert!(!o.converted());
    assert!(p.tests.is_empty());
    assert!(p.legacy.is_some());
    assert!(o.failures.iter().any(|n| n.line == 5 && n.reason.contains("import random")), "{:?}", o.failures);
    // A helper from the prompt is not a constant.
    let (_, o) = humaneval("    assert candidate(encode('abc')) == 'abc'\n");
    assert!(o.failures.iter().any(|n| n.reason.contains("calls encode")), "{:?}", o.failures);
    // Attribute access never reaches eval (no `().__class__` escapes).
    let (_, o) = humaneval("    assert candidate(().__class__) == 1\n");
    assert!(!o.converted());
    // Runaway constants fail the problem instead of exhausting the machine.
    let (_, o) = humaneval("    assert candidate([0] * 10**10) == 1\n");
    assert!(!o.converted());
    let (_, o) = humaneval("    assert candidate(10**10**10) == 1\n");
    assert!(o.failures.iter().any(|n| n.reason.contains("unbounded power")), "{:?}", o.failures);
    // Values without a native encoding.
    let (_, o) = humaneval("    assert candidate(1) == 1j\n");
    assert!(o.failures.iter().any(|n| n.reason.contains("complex")), "{:?}", o.failures);
}

#[test]
fn algorithm_kwargs_come_from_test_input() {
    let test = "\nmy_solution = Solution()\n\ntest_input = { \"nums\": [1, 3, 3, 2] }\n\
                assert my_solution.isGood(**test_input) == True\n\n\
                test_input = { \"nums\": [], \"k\": 5 }\nassert my_solution.isGood(**test_input) == False\n";
    let (p, o) = convert_one(record("weekly-1", "isGood", CallStyle::SolutionMethod, "Algorithm", test));
    assert!(o.converted(), "{:?}", o.failures);
    assert_eq!(p.call_style, CallStyle::SolutionMethod);
    assert_eq!(p.tests[0].kwargs.get("nums"), Some(&json!([1, 3, 3, 2])));
    assert!(p.tests[0].args.is_empty());
    assert_eq!(p.tests[1].category, Category::Edge);
    let legacy = p.legacy.expect("legacy kept");
    assert!(!legacy.check_entry_point);
    assert_eq!(legacy.prompt, None);
}

#[test]
fn math_constant_expressions_are_evaluated_once() {
    let test = "assert f(121) == True  # palindrome\n\n# Boundary test cases\nassert f(0) == True\n\n\
                # Large number test cases\nbig = \"1\" * 1000\nassert f(big) == False\n\
                assert f([9] * 1000, 10**9) == 2**70\nassert f([i for i in range(1, 5)]) == 10\n";
    let (p, o) = math(test);
    assert!(o.converted(), "{:?}", o.failures);
    assert_eq!(p.tests.len(), 5);
    assert_eq!(p.tests[1].category, Category::Edge);
    assert_eq!(p.tests[2].args[0].as_str().map(str::len), Some(1000));
    assert_eq!(p.tests[2].category, Category::Large);
    // 2**70 is beyond 64 bits and must survive exactly.
    assert_eq!(p.tests[3].expected.to_string(), "1180591620717411303424");
    assert_eq!(p.tests[4].args, vec![json!([1, 2, 3, 4])]);
    assert_eq!(p.tests[0].category, Category::Typical);
}

#[test]
fn math_any_of_and_prefix_asserts_stay_legacy() {
    for test in [
        "assert f(3, 2) == [1, 2, 3] or f(3, 2) == [1, 3, 2]\n",
        "assert f([1, 2, 3]) in [[1, 2], [1, 3]]\n",
        "assert f(2)[:1] == [1]\nassert f(3) == [1]\n",
    ] {
        let (p, o) = math(test);
        assert!(!o.converted(), "{test}");
        assert!(p.tests.is_empty());
        assert_eq!(o.failures[0].line, 1);
    }
}

#[test]
fn report_lists_every_legacy_problem_with_reasons() {
    let (_, bad) = math("assert f(1) in [1, 2]\n");
    let (_, good) = math("assert f(1) == 1\n");
    let report = write_report(&[bad.clone(), good]);
    assert!(report.contains("`1. Test` (MATH): 0 of 1 asserts convert"), "{report}");
    assert!(report.contains("line 1: any-of"), "{report}");
    let figures = Figures::from_outcomes(&[bad]);
    assert_eq!(figures.total.problems_converted, 0);
}

#[test]
fn set_and_sorted_comparisons_become_the_problems_compare_mode() {
    let (p, o) = humaneval(
        "    assert set(candidate([3, 1, 3])) == set([1, 3])\n\
         \x20   assert candidate([]) == []\n",
    );
    assert!(o.converted(), "{:?}", o.failures);
    assert_eq!(p.compare_mode, CompareMode::Set);
    assert_eq!(p.tests[0].expected, json!({"__set__": [1, 3]}));
    assert_eq!(p.tests[1].compare, Compare::Eq);
    let (p, o) = humaneval("    assert sorted(candidate('ba')) == ['a', 'b']\n");
    assert!(o.converted(), "{:?}", o.failures);
    assert_eq!(p.compare_mode, CompareMode::Sorted);
    // A set of the result compared with a list is always false in Python:
    // no native form, the problem stays legacy.
    let (_, o) = humaneval("    assert set(candidate([1])) == [1]\n");
    assert!(!o.converted());
    // Without a wrapper the order counts.
    let (p, _) = humaneval("    assert candidate([1]) == [1]\n");
    assert_eq!(p.compare_mode, CompareMode::Plain);
}

#[test]
fn isclose_and_tests_importing_math_convert_to_a_tolerance() {
    let (p, o) = humaneval(
        "    import math\n\
         \x20   assert math.isclose(candidate(2), math.sqrt(2), rel_tol=1e-7)\n\
         \x20   assert math.isclose(0.5, candidate(0.25), rel_tol=1e-7)\n",
    );
    assert!(o.converted(), "{:?}", o.failures);
    assert_eq!(p.float_tolerance, Some(1e-7));
    assert_eq!(p.tests[0].expected, json!(std::f64::consts::SQRT_2));
    assert_eq!(p.tests[1].args, vec![json!(0.25)]);
    // `from math import isclose` at module level, abs_tol the larger one.
    let test =
        "from math import isclose\n\ndef check(candidate):\n    assert isclose(candidate(1), 1.0, abs_tol=1e-3)\n";
    let (p, o) = convert_one(record("HumanEval-Y", "f", CallStyle::Function, "HumanEval-V", test));
    assert!(o.converted(), "{:?}", o.failures);
    assert_eq!(p.float_tolerance, Some(1e-3));
    // isclose not imported: not read as math's.
    let (_, o) = humaneval("    assert isclose(candidate(1), 1.0)\n");
    assert!(!o.converted());
}
