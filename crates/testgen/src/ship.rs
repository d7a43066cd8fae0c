//! The shipped suite: the part of a generated suite that `build` puts in
//! the benchmark. A full suite (70–130 tests a problem on HumanEval) is
//! what scoring wants; a benchmark wants few tests that keep every kill,
//! so that judging stays cheap and a reader can see what each test is for.
//!
//! # How it works
//!
//! Nothing is run again: the selection reads what generation already
//! knows. A test ships when it is
//! - one of the problem's original tests (its author's own examples);
//! - the first test, in cost order, that kills some mutant (the kill
//!   search runs tests cheapest first and stops a mutant at its first
//!   kill, so that test is known for every killed mutant and does not
//!   depend on the machine's load), or a test the mutant-guided step added
//!   to kill one;
//! - the first edge test of its kind (`edge: empty`, `boundary: count =
//!   len(xs) + 1`, … with the numbers in the name ignored): mutants of the
//!   reference miss the boundaries a *different* wrong program crosses
//!   (issue 26: a blank string, two empty lists, a count equal to a
//!   length), so every kind of edge keeps one representative — one for
//!   each answer when the suite's answers are few (`true`/`false`,
//!   `"YES"`/`"NO"`): a program that gives one of them too often
//!   passes every test whose answer it happens to give (HumanEval-110's
//!   `exchange` counting lst1's evens too says `"YES"` right, and is
//!   caught only by an edge of the same kind whose answer is `"NO"`);
//! - every value-class test (`boundary: n=9007199254740993 (value
//!   class)`): each value is its own class (a prime, a prime power,
//!   10^k ± 1, the first integer a float cannot hold), and a wrong
//!   algorithm breaks on one class and not another (trial division without
//!   a square-root bound passes 10001 and runs for minutes on 2 · (10^9 + 7));
//! - one of the largest inputs (by the length of their encoding, so the
//!   choice is the same on every machine) up to the large floor: a slow
//!   but correct-looking program is caught only by the heaviest input.
//!   Not every large test: the others add no catch on the HumanEval
//!   yardstick, only false alarms (a 1 s quadratic reference's input on
//!   which a correct `while`-loop version of it takes over 4 s);
//! - and then the earliest tests of any category still below its floor.
//!
//! The rest stay in `tests.jsonl`, marked `"shipped": false`, for
//! `tests score` and the variants' screening.

use std::collections::{BTreeMap, BTreeSet};

use flowbench_problem::problem::Category;

use super::generate::{Generated, args_key};
use super::score::Known;
use super::spec::Floors;
use super::tests_file::GeneratedTest;

/// Where a test of the generated suite came from, as `select` needs it.
pub struct Kills<'a> {
    /// Each mutant's verdicts on the tests generation ran it on.
    pub known: &'a [Known],
    /// Tests from this index on were added by the mutant-guided step to
    /// kill a survivor.
    pub added_from: usize,
}

/// Indices (in order) of the tests to ship.
pub fn select(tests: &[GeneratedTest], kills: &Kills, floors: &Floors) -> BTreeSet<usize> {
    let mut chosen: BTreeSet<usize> = (0..tests.len()).filter(|&i| tests[i].how.starts_with("original test")).collect();
    chosen.extend(first_killers(&tests[..kills.added_from.min(tests.len())], kills.known));
    chosen.extend(kills.added_from..tests.len());
    chosen.extend(edge_kinds(tests));
    chosen.extend(largest(tests, floors.large));
    chosen.extend(repeated(tests));
    fill_floors(tests, floors, &mut chosen);
    chosen
}

/// For each mutant, the first test in cost order (the kill search's:
/// shortest encoding first) that kills it.
fn first_killers(tests: &[GeneratedTest], known: &[Known]) -> BTreeSet<usize> {
    let keys: Vec<String> = tests.iter().map(|t| args_key(&t.args)).collect();
    let mut order: Vec<usize> = (0..tests.len()).collect();
    order.sort_by_key(|&i| (keys[i].len(), i));
    known
        .iter()
        .filter_map(|verdicts| order.iter().copied().find(|&i| verdicts.get(&keys[i]).copied().unwrap_or(false)))
        .collect()
}

/// The first edge test of each kind, and of each answer within a kind
/// when the suite's answers are few (`FEW_ANSWERS`).
fn edge_kinds(tests: &[GeneratedTest]) -> Vec<usize> {
    let answers: BTreeSet<String> = tests.iter().map(|t| t.expected.to_string()).collect();
    let few = answers.len() <= FEW_ANSWERS;
    let mut first: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (i, t) in tests.iter().enumerate() {
        if t.category == Category::Edge {
            let answer = if few { t.expected.to_string() } else { String::new() };
            first.entry((kind_of(&t.how), answer)).or_insert(i);
        }
    }
    first.into_values().collect()
}

/// At most this many distinct answers in a whole suite (`true`/`false`,
/// `"YES"`/`"NO"`, a verdict of three) make each answer worth a test of
/// every edge kind: with more (numbers, lists, words) one test of a kind
/// is enough, and one per answer would ship nearly every test.
const FEW_ANSWERS: usize = 4;

/// A test's kind: how it was made, digits left out (`edge: 2 blanks
/// leading` and `edge: 3 blanks leading` are one kind), except that each
/// value of a value class is a kind of its own (`boundary.py` labels them).
fn kind_of(how: &str) -> String {
    if how.ends_with("(value class)") {
        return how.to_string();
    }
    how.chars().filter(|c| !c.is_ascii_digit()).collect()
}

/// The `n` large tests with the longest encodings.
fn largest(tests: &[GeneratedTest], n: usize) -> Vec<usize> {
    let mut large: Vec<(usize, usize)> = tests
        .iter()
        .enumerate()
        .filter(|(_, t)| t.category == Category::Large)
        .map(|(i, t)| (args_key(&t.args).len(), i))
        .collect();
    large.sort_by_key(|&(len, i)| (std::cmp::Reverse(len), i));
    large.into_iter().take(n).map(|(_, i)| i).collect()
}

/// The large tests made by repeating an example (`large: original test 1
/// repeated 625 times`, `main.py`'s `repeated_examples`, and the
/// stretched one, `stretched_examples`): each is decided by the whole of
/// it, where a random large input (which [`largest`] chooses from) is
/// mostly decided by its first elements, so they catch a program
/// recursing once per element (HumanEval-52's `below_threshold(l[1:],
/// t)`) and, stretched, one quadratic where the reference is linear.
fn repeated(tests: &[GeneratedTest]) -> Vec<usize> {
    (0..tests.len())
        .filter(|&i| tests[i].category == Category::Large && tests[i].how.contains(REPEATED_EXAMPLE))
        .collect()
}

/// What the label of a large test made by repeating an example says.
const REPEATED_EXAMPLE: &str = " repeated ";

/// Adds the earliest tests of each category still below its floor.
fn fill_floors(tests: &[GeneratedTest], floors: &Floors, chosen: &mut BTreeSet<usize>) {
    for (cat, floor) in
        [(Category::Typical, floors.typical), (Category::Edge, floors.edge), (Category::Large, floors.large)]
    {
        let mut have = chosen.iter().filter(|&&i| tests[i].category == cat).count();
        for (i, t) in tests.iter().enumerate() {
            if have >= floor {
                break;
            }
            if t.category == cat && chosen.insert(i) {
                have += 1;
            }
        }
    }
}

/// Marks the tests of `generated` that ship (the others are kept for
/// scoring only) and records their count in the header when it is fewer
/// than all; returns that count.
pub fn mark(generated: &mut Generated, kills: &Kills, floors: &Floors) -> Option<usize> {
    let chosen = select(&generated.tests, kills, floors);
    for (i, t) in generated.tests.iter_mut().enumerate() {
        t.shipped = chosen.contains(&i);
    }
    generated.header.shipped = (chosen.len() < generated.tests.len()).then_some(chosen.len());
    generated.header.shipped
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn test(category: Category, arg: serde_json::Value, how: &str) -> GeneratedTest {
        GeneratedTest {
            category,
            args: vec![arg],
            expected: json!(0),
            reference_time_s: 0.0,
            reference_ops: None,
            how: how.into(),
            widened: None,
            shipped: true,
        }
    }

    /// Nine tests, floors of one each, two mutants:
    /// - mutant 0 is killed by tests 1 (`[1, 2]`, 6 characters) and 2
    ///   (`[7]`, 5 characters): its first killer in cost order is 2;
    /// - mutant 1 is killed by test 1 only;
    /// - the edge tests 3 and 4 are one kind (`edge: N blanks`), so 3 ships
    ///   and 4 does not;
    /// - the value-class tests 6 and 7 are two kinds, so both ship;
    /// - tests 5 and 8 are large and the floor is one: 5, the longer,
    ///   ships; test 0 is an original.
    ///
    /// So all but 4 and 8 ship; they are kept for scoring only.
    #[test]
    fn ships_originals_first_killers_one_edge_per_kind_every_value_class_and_the_largest() {
        let tests = vec![
            test(Category::Typical, json!([0]), "original test 1"),
            test(Category::Typical, json!([1, 2]), "random, size 2"),
            test(Category::Typical, json!([7]), "random, size 1"),
            test(Category::Edge, json!(" a"), "edge: 1 blanks leading"),
            test(Category::Edge, json!("  a"), "edge: 2 blanks leading"),
            test(Category::Large, json!(vec![9; 50]), "large: size 50"),
            test(Category::Edge, json!(97), "boundary: n=97 (value class)"),
            test(Category::Edge, json!(9007199254740993_u64), "boundary: n=9007199254740993 (value class)"),
            test(Category::Large, json!(vec![1; 10]), "large: size 10"),
        ];
        let key = |i: usize| args_key(&tests[i].args);
        let known = vec![
            Known::from([(key(1), true), (key(2), true), (key(0), false)]),
            Known::from([(key(0), false), (key(2), false), (key(1), true)]),
        ];
        let floors = Floors { typical: 1, edge: 1, large: 1 };
        let shipped = select(&tests, &Kills { known: &known, added_from: tests.len() }, &floors);
        assert_eq!(shipped.into_iter().collect::<Vec<_>>(), vec![0, 1, 2, 3, 5, 6, 7]);
    }

    /// Four edge tests of one kind and two of another, answered `"YES"`
    /// or `"NO"`: the first of each answer in each kind ships.
    #[test]
    fn an_edge_kind_ships_once_per_few_valued_answer() {
        let mut tests: Vec<_> =
            (0..4).map(|i| test(Category::Edge, json!([i]), &format!("edge: lst2 empty {i}"))).collect();
        for (t, answer) in tests.iter_mut().zip(["YES", "YES", "NO", "NO"]) {
            t.expected = json!(answer);
        }
        tests.extend((0..2).map(|i| test(Category::Edge, json!([i]), "edge: n=3")));
        tests[4].expected = json!("NO");
        tests[5].expected = json!("YES");
        let floors = Floors { typical: 0, edge: 0, large: 0 };
        let shipped = select(&tests, &Kills { known: &[], added_from: tests.len() }, &floors);
        assert_eq!(shipped.into_iter().collect::<Vec<_>>(), vec![0, 2, 4, 5]);
        // With five answers in the suite, one test of each kind is enough.
        tests[5].expected = json!("MAYBE");
        tests.push(test(Category::Typical, json!([9]), "random, size 1"));
        tests[6].expected = json!("NEVER");
        tests[1].expected = json!("ALWAYS");
        let shipped = select(&tests, &Kills { known: &[], added_from: tests.len() }, &floors);
        assert_eq!(shipped.into_iter().collect::<Vec<_>>(), vec![0, 4]);
    }

    #[test]
    fn floors_are_filled_from_the_earliest_tests() {
        let tests: Vec<_> = (0..4).map(|i| test(Category::Typical, json!(i), &format!("random, size {i}"))).collect();
        let floors = Floors { typical: 2, edge: 0, large: 0 };
        let shipped = select(&tests, &Kills { known: &[], added_from: 4 }, &floors);
        assert_eq!(shipped.into_iter().collect::<Vec<_>>(), vec![0, 1]);
    }
}
