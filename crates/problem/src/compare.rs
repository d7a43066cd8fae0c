//! Comparison of a returned value with an expected one: Python `==` on the
//! decoded values, with three deliberate exceptions (see docs/guide/judging.md,
//! "Values and comparison"):
//!
//! 1. a list equals a tuple with equal elements (a flowchart rarely fixes the
//!    container type) unless `strict_types`;
//! 2. when either side is a float, numbers match within
//!    `|got − exp| ≤ tol · max(1, |exp|)` (`tol = 0`: Python's exact `==`);
//! 3. an expected NaN is matched by a NaN (Python says `nan != nan`).
//!
//! Python's numeric tower is kept: `1 == 1.0`, `True == 1`, `set == frozenset`.
//! `strict_types` additionally separates `bool` from `int`/`float`.
//!
//! A problem may also say that the order of its result does not matter
//! ([`CompareMode`]: its original tests compare `set(f(x))` or `sorted(f(x))`):
//! then a returned sequence is compared as a set or a multiset, wherever
//! results are compared (the judge, test validation, the mutant kills).

use std::collections::BTreeMap;

use super::value::{Int, Value};

/// Knobs of the comparison; one per problem (tolerance, mode) and run (types).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CompareOptions {
    /// Relative float tolerance; 0 for exact.
    pub float_tolerance: f64,
    /// Distinguish list from tuple and bool from numbers.
    pub strict_types: bool,
    /// Whether the result's order counts (the problem's, default: it does).
    pub mode: CompareMode,
}

/// How a problem's result is compared as a whole: as returned, or as the
/// set or the sorted list of its elements, as the original tests'
/// `set(f(x)) == …` and `sorted(f(x)) == …` do. Only the top-level result
/// is reordered; its elements compare as usual. An expected value that is
/// not a list, tuple or set (a number, a string, `None`) compares as
/// usual, so a problem answering "no solution" with `None` keeps working.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CompareMode {
    /// Python `==` with the native rules.
    #[default]
    Plain,
    /// `set(got) == set(expected)`: order and repetitions do not count.
    Set,
    /// `sorted(got) == sorted(expected)`: order does not count, repetitions do.
    Sorted,
}

impl CompareMode {
    /// Serde helper: the default is left out of files.
    pub fn is_plain(&self) -> bool {
        *self == CompareMode::Plain
    }

    /// The looser of two modes (a problem whose tests compare some results
    /// as sets and others as they are takes the set comparison).
    pub fn loosest(self, other: CompareMode) -> CompareMode {
        use CompareMode::*;
        match (self, other) {
            (Set, _) | (_, Set) => Set,
            (Sorted, _) | (_, Sorted) => Sorted,
            _ => Plain,
        }
    }
}

/// Default relative tolerance for floats.
pub const DEFAULT_FLOAT_TOLERANCE: f64 = 1e-6;

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions { float_tolerance: DEFAULT_FLOAT_TOLERANCE, strict_types: false, mode: CompareMode::Plain }
    }
}

/// Whether `got` (the candidate's result) passes for `expected`, under the
/// problem's [`CompareMode`].
pub fn values_equal(got: &Value, expected: &Value, opts: &CompareOptions) -> bool {
    let Some(want) = elements(expected).filter(|_| opts.mode != CompareMode::Plain) else {
        return value_equal(got, expected, opts);
    };
    // `set(got)` of a number raises in Python: not a pass.
    let Some(have) = elements(got) else { return false };
    match opts.mode {
        CompareMode::Set => set_equal(&distinct(have, opts), &distinct(want, opts), opts),
        _ => set_equal(have, want, opts),
    }
}

/// The elements of a list, tuple or set (what `set(x)` and `sorted(x)`
/// iterate in a result); `None` for anything else.
fn elements(v: &Value) -> Option<&[Value]> {
    match v {
        Value::List(x) | Value::Tuple(x) | Value::Set(x) | Value::FrozenSet(x) => Some(x),
        _ => None,
    }
}

/// `items` without repetitions (the first of equal elements kept).
fn distinct(items: &[Value], opts: &CompareOptions) -> Vec<Value> {
    let mut seen = std::collections::HashSet::new();
    items.iter().filter(|x| seen.insert(key_of(x, opts.strict_types))).cloned().collect()
}

/// Python `==` with the native rules, at any depth.
fn value_equal(got: &Value, expected: &Value, opts: &CompareOptions) -> bool {
    use Value::*;
    match (got, expected) {
        (None, None) => true,
        (Str(a), Str(b)) => a == b,
        (Bytes(a), Bytes(b)) => a == b,
        (Bool(_) | Int(_) | Float(_), Bool(_) | Int(_) | Float(_)) => numbers_equal(got, expected, opts),
        (List(a), List(b)) | (Tuple(a), Tuple(b)) => seq_equal(a, b, opts),
        (List(a), Tuple(b)) | (Tuple(a), List(b)) => !opts.strict_types && seq_equal(a, b, opts),
        (Set(a) | FrozenSet(a), Set(b) | FrozenSet(b)) => set_equal(a, b, opts),
        (Dict(a), Dict(b)) => dict_equal(a, b, opts),
        _ => false,
    }
}

fn seq_equal(a: &[Value], b: &[Value], opts: &CompareOptions) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| value_equal(x, y, opts))
}

fn as_int(v: &Value) -> Option<Int> {
    match v {
        Value::Bool(b) => Some(Int::from_i64(i64::from(*b))),
        Value::Int(i) => Some(i.clone()),
        _ => None,
    }
}

fn as_f64(v: &Value) -> f64 {
    match v {
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::Int(i) => i.to_f64(),
        Value::Float(f) => *f,
        _ => f64::NAN,
    }
}

fn numbers_equal(got: &Value, expected: &Value, opts: &CompareOptions) -> bool {
    let is_bool = |v: &Value| matches!(v, Value::Bool(_));
    if opts.strict_types && is_bool(got) != is_bool(expected) {
        return false;
    }
    match (got, expected) {
        (Value::Float(g), Value::Float(e)) => floats_equal(*g, *e, opts.float_tolerance),
        (Value::Float(g), other) | (other, Value::Float(g)) if !matches!(other, Value::Float(_)) => {
            let Some(i) = as_int(other) else { return false };
            if opts.float_tolerance == 0.0 {
                return i.equals_float_exactly(*g);
            }
            let (g, e) = if matches!(got, Value::Float(_)) { (*g, as_f64(other)) } else { (as_f64(other), *g) };
            floats_equal(g, e, opts.float_tolerance)
        }
        _ => as_int(got) == as_int(expected),
    }
}

fn floats_equal(got: f64, expected: f64, tol: f64) -> bool {
    if expected.is_nan() || got.is_nan() {
        return expected.is_nan() && got.is_nan();
    }
    if got == expected {
        return true;
    }
    if tol == 0.0 || got.is_infinite() || expected.is_infinite() {
        return false;
    }
    (got - expected).abs() <= tol * expected.abs().max(1.0)
}

/// A canonical, injective text key for hashable values, consistent with
/// [`values_equal`] when no tolerance is involved. Used to compare sets and
/// dict keys in O(n log n) instead of pairwise.
fn canonical_key(v: &Value, strict: bool, out: &mut String) {
    match v {
        Value::None => out.push('N'),
        Value::Bool(b) if strict => out.push_str(if *b { "B1" } else { "B0" }),
        Value::Bool(b) => out.push_str(if *b { "i1," } else { "i0," }),
        Value::Int(i) => {
            out.push('i');
            out.push_str(&i.to_string());
            out.push(',');
        }
        Value::Float(f) if f.is_finite() && f.fract() == 0.0 => {
            out.push('i');
            out.push_str(&Int::parse(&format!("{f:.0}")).map(|i| i.to_string()).unwrap_or_default());
            out.push(',');
        }
        Value::Float(f) if f.is_nan() => out.push_str("fnan,"),
        Value::Float(f) => {
            out.push('f');
            out.push_str(&f.to_bits().to_string());
            out.push(',');
        }
        Value::Str(s) => out.push_str(&serde_json::Value::String(s.clone()).to_string()),
        Value::Bytes(b) => {
            out.push('b');
            out.push_str(&serde_json::Value::from(b.clone()).to_string());
        }
        Value::List(items) | Value::Tuple(items) => {
            out.push(match (v, strict) {
                (Value::List(_), true) => 'L',
                _ => 'T',
            });
            out.push('(');
            for item in items {
                canonical_key(item, strict, out);
                out.push(';');
            }
            out.push(')');
        }
        Value::Set(items) | Value::FrozenSet(items) => {
            push_unordered(out, "S(", items.iter().map(|x| key_of(x, strict)).collect());
        }
        Value::Dict(pairs) => {
            let entries = pairs.iter().map(|(k, v)| format!("{}:{}", key_of(k, strict), key_of(v, strict))).collect();
            push_unordered(out, "D(", entries);
        }
    }
}

/// Sets and dicts compare regardless of order, so their members' keys are
/// sorted before they are written.
fn push_unordered(out: &mut String, open: &str, mut keys: Vec<String>) {
    keys.sort();
    out.push_str(open);
    for k in keys {
        out.push_str(&k);
        out.push(';');
    }
    out.push(')');
}

fn key_of(v: &Value, strict: bool) -> String {
    let mut s = String::new();
    canonical_key(v, strict, &mut s);
    s
}

fn contains_inexact_float(v: &Value) -> bool {
    match v {
        Value::Float(f) => f.is_finite() && f.fract() != 0.0,
        Value::List(x) | Value::Tuple(x) | Value::Set(x) | Value::FrozenSet(x) => x.iter().any(contains_inexact_float),
        Value::Dict(p) => p.iter().any(|(k, v)| contains_inexact_float(k) || contains_inexact_float(v)),
        _ => false,
    }
}

fn set_equal(a: &[Value], b: &[Value], opts: &CompareOptions) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let tolerant =
        opts.float_tolerance != 0.0 && (a.iter().any(contains_inexact_float) || b.iter().any(contains_inexact_float));
    if !tolerant {
        let mut ka: Vec<String> = a.iter().map(|x| key_of(x, opts.strict_types)).collect();
        let mut kb: Vec<String> = b.iter().map(|x| key_of(x, opts.strict_types)).collect();
        ka.sort();
        kb.sort();
        return ka == kb;
    }
    // Approximate elements: greedy matching (sets of floats are small in
    // practice; ambiguity within the tolerance is accepted).
    let mut used = vec![false; b.len()];
    a.iter().all(|x| {
        let hit = b.iter().enumerate().find(|(j, y)| !used[*j] && value_equal(x, y, opts));
        hit.map(|(j, _)| used[j] = true).is_some()
    })
}

fn dict_equal(got: &[(Value, Value)], expected: &[(Value, Value)], opts: &CompareOptions) -> bool {
    if got.len() != expected.len() {
        return false;
    }
    // Keys are matched exactly, as Python's hash lookup does.
    let index: BTreeMap<String, &Value> = got.iter().map(|(k, v)| (key_of(k, opts.strict_types), v)).collect();
    if index.len() != got.len() {
        return false;
    }
    expected.iter().all(|(k, v)| index.get(&key_of(k, opts.strict_types)).is_some_and(|g| value_equal(g, v, opts)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn eq_with(got: serde_json::Value, exp: serde_json::Value, opts: CompareOptions) -> bool {
        let g = Value::decode(&got).expect("got decodes");
        let e = Value::decode(&exp).expect("expected decodes");
        values_equal(&g, &e, &opts)
    }

    fn eq(got: serde_json::Value, exp: serde_json::Value) -> bool {
        eq_with(got, exp, CompareOptions::default())
    }

    const STRICT: CompareOptions =
        CompareOptions { float_tolerance: DEFAULT_FLOAT_TOLERANCE, strict_types: true, mode: CompareMode::Plain };
    const EXACT: CompareOptions =
        CompareOptions { float_tolerance: 0.0, strict_types: false, mode: CompareMode::Plain };
    const AS_SET: CompareOptions =
        CompareOptions { float_tolerance: DEFAULT_FLOAT_TOLERANCE, strict_types: false, mode: CompareMode::Set };
    const AS_SORTED: CompareOptions =
        CompareOptions { float_tolerance: DEFAULT_FLOAT_TOLERANCE, strict_types: false, mode: CompareMode::Sorted };

    #[test]
    fn python_numeric_tower() {
        assert!(eq(json!(1), json!(1.0)));
        assert!(eq(json!(true), json!(1)));
        assert!(eq(json!(1.0), json!(true)));
        assert!(!eq(json!(false), json!(1)));
        assert!(!eq_with(json!(true), json!(1), STRICT));
        assert!(eq_with(json!(2), json!(2.0), STRICT));
        assert!(!eq(json!("1"), json!(1)));
        assert!(!eq(json!(null), json!(0)));
    }

    #[test]
    fn float_tolerance_is_relative_with_floor_one() {
        assert!(eq(json!(0.1 + 0.2), json!(0.3)));
        assert!(eq(json!(1e20 + 1e13), json!(1e20)));
        assert!(!eq(json!(1e20 + 1e15), json!(1e20)));
        assert!(eq(json!(1e-7), json!(0.0)));
        assert!(!eq(json!(2e-6), json!(0.0)));
        assert!(!eq_with(json!(0.30000000000000004), json!(0.3), EXACT));
        assert!(eq_with(json!(9.261000000000001), json!(9.261000000000001), EXACT));
        // An int result against a float expectation uses the tolerance too.
        assert!(eq(json!(3), json!(3.0000001)));
        assert!(!eq_with(json!(3), json!(3.0000001), EXACT));
    }

    #[test]
    fn nan_and_infinities() {
        let nan = json!({"__float__": "nan"});
        let inf = json!({"__float__": "inf"});
        assert!(eq(nan.clone(), nan.clone()));
        assert!(!eq(json!(1.0), nan.clone()));
        assert!(!eq(nan.clone(), json!(1.0)));
        assert!(eq(inf.clone(), inf.clone()));
        assert!(!eq(json!({"__float__": "-inf"}), inf.clone()));
        assert!(!eq(json!(1e308), inf));
    }

    #[test]
    fn big_ints_exact() {
        let a: serde_json::Value = serde_json::from_str("23951146041928082866135587776380551750").expect("json");
        let b: serde_json::Value = serde_json::from_str("23951146041928082866135587776380551751").expect("json");
        assert!(eq(a.clone(), a.clone()));
        assert!(!eq(a, b));
    }

    #[test]
    fn containers() {
        assert!(eq(json!([1, 2]), json!({"__tuple__": [1, 2]})));
        assert!(!eq_with(json!([1, 2]), json!({"__tuple__": [1, 2]}), STRICT));
        assert!(!eq(json!([1, 2]), json!([2, 1])));
        assert!(eq(json!({"__set__": [3, 1, 2]}), json!({"__frozenset__": [1, 2, 3]})));
        assert!(!eq(json!({"__set__": [1, 2]}), json!([1, 2])));
        assert!(eq(json!({"__set__": [1.0, 2]}), json!({"__set__": [2, 1]})));
        assert!(eq(json!({"__set__": [0.1000000001]}), json!({"__set__": [0.1]})));
        assert!(eq(json!({"a": 1, "b": [2]}), json!({"b": [2], "a": 1.0})));
        assert!(!eq(json!({"a": 1}), json!({"a": 1, "b": 2})));
        assert!(eq(json!({"__dict__": [[5, "x"], ["p", 1]]}), json!({"__dict__": [["p", 1], [5.0, "x"]]})));
        assert!(!eq(json!({"5": "x"}), json!({"__dict__": [[5, "x"]]})));
        assert!(eq(json!({"__bytes__": "AAE="}), json!({"__bytes__": "AAE="})));
        assert!(!eq(json!({"__bytes__": "AAE="}), json!("\u{0}\u{1}")));
    }

    #[test]
    fn set_mode_ignores_order_and_repetitions_of_the_result_only() {
        assert!(eq_with(json!([3, 1, 2]), json!([1, 2, 3]), AS_SET));
        assert!(eq_with(json!([1, 1, 2]), json!({"__set__": [1, 2]}), AS_SET));
        assert!(!eq(json!([3, 1, 2]), json!([1, 2, 3])));
        assert!(!eq_with(json!([1, 2]), json!([1, 2, 3]), AS_SET));
        // Only the top level is a set: inner lists keep their order.
        assert!(eq_with(json!([[2, 1], [3]]), json!([[3], [2, 1]]), AS_SET));
        assert!(!eq_with(json!([[1, 2]]), json!([[2, 1]]), AS_SET));
        // Tolerance still applies to the elements.
        assert!(eq_with(json!([0.30000000000000004, 1]), json!([1, 0.3]), AS_SET));
        // A result that is not a collection fails, as `set(3)` raises.
        assert!(!eq_with(json!(3), json!([3]), AS_SET));
        // A non-collection expected value compares as usual.
        assert!(eq_with(json!(null), json!(null), AS_SET));
        assert!(!eq_with(json!("ba"), json!("ab"), AS_SET));
    }

    #[test]
    fn sorted_mode_ignores_order_but_counts_repetitions() {
        assert!(eq_with(json!(["b", "a", "a"]), json!(["a", "a", "b"]), AS_SORTED));
        assert!(!eq_with(json!(["b", "a"]), json!(["a", "a", "b"]), AS_SORTED));
        assert!(!eq_with(json!([1, 2, 2]), json!([1, 1, 2]), AS_SORTED));
        assert!(eq_with(json!({"__tuple__": [2, 1]}), json!([1, 2]), AS_SORTED));
    }

    #[test]
    fn loosest_mode_wins() {
        assert_eq!(CompareMode::Plain.loosest(CompareMode::Sorted), CompareMode::Sorted);
        assert_eq!(CompareMode::Sorted.loosest(CompareMode::Set), CompareMode::Set);
        assert_eq!(CompareMode::Plain.loosest(CompareMode::Plain), CompareMode::Plain);
    }
}
