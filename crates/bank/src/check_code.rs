//! Native tests → human-eval test code (`def check(candidate): assert …`),
//! the `test` field of a `dist/` record, so Code-Vision's and human-eval's
//! own evaluators (`prompt + completion + test + check(entry_point)`) can
//! judge flowbench problems.
//!
//! The asserts keep the native judge's verdicts: plain `==` where Python's
//! `==` agrees with `judge::compare` (no float, list or tuple in the expected
//! value), otherwise a small helper with the same three rules (list ≈ tuple,
//! relative float tolerance, NaN matches NaN).

use std::fmt::Write as _;

use flowbench_exec::CallStyle;
use flowbench_judge::compare::{CompareMode, DEFAULT_FLOAT_TOLERANCE};
use flowbench_judge::problem::{Compare, Problem, TestCase};
use flowbench_judge::value::{Int, Value, float_repr};

/// The helper emitted when some expected value needs it; mirrors
/// `judge::compare::values_equal` without `strict_types`.
const EQUAL_HELPER: &str = r#"def _flowbench_equal(got, expected, tol):
    # flowbench's comparison: Python == except that a list equals a tuple
    # with equal items, floats match within tol * max(1, |expected|), and
    # an expected NaN is matched by NaN.
    if isinstance(expected, (list, tuple)):
        return isinstance(got, (list, tuple)) and len(got) == len(expected) and all(
            _flowbench_equal(g, e, tol) for g, e in zip(got, expected))
    if isinstance(expected, dict):
        return isinstance(got, dict) and got.keys() == expected.keys() and all(
            _flowbench_equal(got[k], expected[k], tol) for k in expected)
    if isinstance(expected, float) or isinstance(got, float):
        if not isinstance(got, (int, float)) or not isinstance(expected, (int, float)):
            return False
        if expected != expected or got != got:
            return expected != expected and got != got
        if got == expected:
            return True
        if tol == 0 or abs(got) == float("inf") or abs(expected) == float("inf"):
            return False
        return abs(got - expected) <= tol * max(1.0, abs(expected))
    return got == expected

"#;

/// The helper emitted for a problem whose result's order does not count
/// (`compare_mode` `set` or `sorted`); mirrors `judge::compare`'s modes.
/// Hashable elements compare at once; others (lists, floats within the
/// tolerance) are matched one by one.
const UNORDERED_HELPER: &str = r#"def _flowbench_unordered(got, expected, tol, distinct):
    # flowbench's set/sorted comparison: the result's elements compared as a
    # set (distinct) or a multiset, each with _flowbench_equal.
    if not isinstance(got, (list, tuple, set, frozenset)):
        return False
    try:
        import collections
        if distinct and set(got) == set(expected):
            return True
        if not distinct and collections.Counter(got) == collections.Counter(expected):
            return True
    except TypeError:
        pass
    def unique(items):
        kept = []
        for x in items:
            if not any(_flowbench_equal(x, k, 0) for k in kept):
                kept.append(x)
        return kept
    got, expected = list(got), list(expected)
    if distinct:
        got, expected = unique(got), unique(expected)
    if len(got) != len(expected):
        return False
    used = [False] * len(expected)
    for g in got:
        for j, e in enumerate(expected):
            if not used[j] and _flowbench_equal(g, e, tol):
                used[j] = True
                break
        else:
            return False
    return True

"#;

/// The functions this test code defines after the candidate's code.
const HARNESS_NAMES: [&str; 3] = ["check", "_flowbench_equal", "_flowbench_unordered"];

/// Why a problem's tests cannot become test code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("test {test}: {message}")]
pub struct CheckCodeError {
    /// 1-based test number.
    pub test: usize,
    pub message: String,
}

/// The `test` code for `problem`'s native `tests`.
pub fn check_code(problem: &Problem, tests: &[TestCase]) -> Result<String, CheckCodeError> {
    let tol = problem.float_tolerance.unwrap_or(DEFAULT_FLOAT_TOLERANCE);
    let mut body = String::new();
    let mut needs_helper = false;
    let mut needs_unordered = false;
    for (i, t) in tests.iter().enumerate() {
        let err = |message: String| CheckCodeError { test: i + 1, message };
        let decode = |j: &serde_json::Value| Value::decode(j).map_err(|e| err(e.to_string()));
        let mut args: Vec<String> = Vec::with_capacity(t.args.len() + t.kwargs.len());
        for a in &t.args {
            args.push(literal(&decode(a)?));
        }
        for (k, v) in &t.kwargs {
            if !is_identifier(k) {
                return Err(err(format!("keyword argument {k:?} is not a Python identifier")));
            }
            args.push(format!("{k}={}", literal(&decode(v)?)));
        }
        let call = format!("candidate({})", args.join(", "));
        let expected = decode(&t.expected)?;
        let unordered = matches!(expected, Value::List(_) | Value::Tuple(_) | Value::Set(_) | Value::FrozenSet(_));
        let line = match t.compare {
            Compare::Eq if unordered && problem.compare_mode != CompareMode::Plain => {
                (needs_helper, needs_unordered) = (true, true);
                let distinct = if problem.compare_mode == CompareMode::Set { "True" } else { "False" };
                format!(
                    "assert _flowbench_unordered({call}, {}, {}, {distinct})",
                    literal(&expected),
                    float_literal(tol)
                )
            }
            Compare::Eq if needs_equal_helper(&expected) => {
                needs_helper = true;
                format!("assert _flowbench_equal({call}, {}, {})", literal(&expected), float_literal(tol))
            }
            Compare::Eq => format!("assert {call} == {}", literal(&expected)),
            Compare::Truthy | Compare::Is => {
                let Value::Bool(b) = expected else {
                    return Err(err("`truthy`/`is` tests need a boolean `expected`".into()));
                };
                match (t.compare, b) {
                    (Compare::Truthy, true) => format!("assert {call}"),
                    (Compare::Truthy, false) => format!("assert not {call}"),
                    (_, b) => format!("assert {call} is {}", if b { "True" } else { "False" }),
                }
            }
        };
        let _ = writeln!(body, "    {line}");
    }
    let mut code = String::new();
    // An entry point named like a function this code defines would be
    // shadowed by it (human-eval then runs `check(check)`, the harness on
    // itself): keep the candidate's function before the harness replaces it.
    let shadowed = problem.call_style == CallStyle::Function && HARNESS_NAMES.contains(&problem.entry_point.as_str());
    if shadowed {
        let _ = writeln!(code, "_flowbench_candidate = globals().get({:?})", problem.entry_point);
    }
    if needs_helper {
        code.push_str(EQUAL_HELPER);
    }
    if needs_unordered {
        code.push_str(UNORDERED_HELPER);
    }
    code.push_str("def check(candidate):\n");
    if shadowed {
        code.push_str("    candidate = _flowbench_candidate\n");
    }
    if problem.call_style == CallStyle::SolutionMethod {
        // human-eval calls `check(entry_point)`, a method name that is not
        // defined at top level; bind the method of a fresh instance instead.
        let _ = writeln!(code, "    candidate = Solution().{}", problem.entry_point);
    }
    if tests.is_empty() {
        code.push_str("    assert False, \"no tests\"\n");
    }
    code.push_str(&body);
    if problem.call_style == CallStyle::SolutionMethod {
        // ... but `check(entry_point)` itself must evaluate its argument:
        // give the name a value when the candidate defines only the method.
        let entry = &problem.entry_point;
        let _ = writeln!(code, "{entry} = globals().get({entry:?})");
    }
    Ok(code)
}

/// Whether Python's `==` could disagree with the native comparison.
fn needs_equal_helper(v: &Value) -> bool {
    match v {
        Value::Float(_) | Value::List(_) | Value::Tuple(_) => true,
        Value::Dict(pairs) => pairs.iter().any(|(_, v)| needs_equal_helper(v)),
        Value::Set(items) | Value::FrozenSet(items) => items.iter().any(needs_equal_helper),
        _ => false,
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic()) && chars.all(|c| c == '_' || c.is_alphanumeric())
}

fn float_literal(f: f64) -> String {
    match f {
        f if f.is_nan() => "float(\"nan\")".into(),
        f if f.is_infinite() => if f > 0.0 { "float(\"inf\")" } else { "float(\"-inf\")" }.into(),
        f => float_repr(f),
    }
}

/// A Python expression that evaluates to `v` (a fresh object each time).
pub fn literal(v: &Value) -> String {
    let seq = |open: &str, items: &[Value], close: &str| {
        format!("{open}{}{close}", items.iter().map(literal).collect::<Vec<_>>().join(", "))
    };
    match v {
        Value::Float(f) => float_literal(*f),
        Value::List(items) => seq("[", items, "]"),
        Value::Tuple(items) if items.len() == 1 => seq("(", items, ",)"),
        Value::Tuple(items) => seq("(", items, ")"),
        Value::Set(items) if items.is_empty() => "set()".into(),
        Value::Set(items) => seq("{", items, "}"),
        Value::FrozenSet(items) if items.is_empty() => "frozenset()".into(),
        Value::FrozenSet(items) => seq("frozenset({", items, "})"),
        Value::Dict(pairs) => {
            let items: Vec<String> = pairs.iter().map(|(k, v)| format!("{}: {}", literal(k), literal(v))).collect();
            format!("{{{}}}", items.join(", "))
        }
        Value::Int(i) if i.digits.len() > PYTHON_MAX_DECIMAL_DIGITS => hex_literal(i),
        // Leaves: the judge's repr is already a valid literal for these.
        Value::None | Value::Bool(_) | Value::Int(_) | Value::Str(_) | Value::Bytes(_) => v.repr_truncated(usize::MAX),
    }
}

/// Python 3.11+ refuses a decimal literal of more than this many digits
/// (`sys.int_info.default_max_str_digits`), and the harnesses that run a
/// record's check code (human-eval, Code-Vision) keep that default.
const PYTHON_MAX_DECIMAL_DIGITS: usize = 4300;

/// An int as a hexadecimal literal, for ints past Python's decimal limit
/// (hex literals are not limited), so a generated test with a huge
/// expected value still compiles in other benchmarks' harnesses.
fn hex_literal(i: &Int) -> String {
    format!("{}0x{}", if i.negative { "-" } else { "" }, decimal_to_hex(&i.digits))
}

/// Converts decimal digits to lower-case hex digits by schoolbook long
/// division of base-10⁹ limbs by 2³²: quadratic, a few milliseconds for
/// the 20,000-digit values generation can produce.
fn decimal_to_hex(decimal: &str) -> String {
    let bytes = decimal.as_bytes();
    let head = bytes.len() % 9;
    let mut limbs: Vec<u64> = std::iter::once(&bytes[..head])
        .filter(|h| !h.is_empty())
        .chain(bytes[head..].chunks(9))
        .map(|chunk| chunk.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0')))
        .collect();
    let mut words = Vec::new();
    while limbs.iter().any(|&l| l != 0) {
        let mut remainder = 0u64;
        for limb in limbs.iter_mut() {
            let current = remainder * 1_000_000_000 + *limb;
            *limb = current >> 32;
            remainder = current & 0xffff_ffff;
        }
        words.push(remainder);
        let zeros = limbs.iter().take_while(|&&l| l == 0).count();
        limbs.drain(..zeros);
    }
    let hex: String = words.iter().rev().map(|w| format!("{w:08x}")).collect();
    match hex.trim_start_matches('0') {
        "" => "0".to_string(),
        digits => digits.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problem(tests: serde_json::Value) -> Problem {
        serde_json::from_value(json!({"task_id": "t", "entry_point": "f", "call_style": "function", "tests": tests}))
            .unwrap()
    }

    #[test]
    fn plain_values_use_double_equals() {
        let p = problem(
            json!([{"args": [12, "a'b\n"], "expected": 6}, {"args": [], "kwargs": {"x": null}, "expected": {"__set__": [1]}}]),
        );
        let code = check_code(&p, &p.tests).unwrap();
        assert_eq!(
            code,
            "def check(candidate):\n    assert candidate(12, \"a'b\\n\") == 6\n    assert candidate(x=None) == {1}\n"
        );
    }

    #[test]
    fn floats_and_sequences_use_the_helper_and_tagged_values_become_literals() {
        let p = problem(json!([
            {"args": [{"__tuple__": [1]}, {"__float__": "-inf"}, {"__bytes__": "AAE="}], "expected": [1.5, {"__float__": "nan"}]},
            {"args": [{"__frozenset__": []}, {"__dict__": [[1, "a"]]}], "expected": true, "compare": "truthy"},
            {"args": [], "expected": false, "compare": "is"},
        ]));
        let code = check_code(&p, &p.tests).unwrap();
        assert!(code.starts_with("def _flowbench_equal(got, expected, tol):"));
        assert!(code.contains(
            "    assert _flowbench_equal(candidate((1,), float(\"-inf\"), b'\\x00\\x01'), [1.5, float(\"nan\")], 1e-06)\n"
        ));
        assert!(code.contains("    assert candidate(frozenset(), {1: 'a'})\n    assert candidate() is False\n"));
    }

    #[test]
    fn ints_past_pythons_decimal_limit_are_written_in_hex_and_read_back_exactly() {
        assert_eq!(decimal_to_hex("0"), "0");
        assert_eq!(decimal_to_hex("255"), "ff");
        assert_eq!(decimal_to_hex("4294967296"), "100000000");
        assert_eq!(decimal_to_hex("1000000000000000000"), "de0b6b3a7640000");
        assert_eq!(literal(&Value::Int(Int::parse("-12").unwrap())), "-12");
        let huge = format!("-{}", "9876543210".repeat(500));
        let written = literal(&Value::Int(Int::parse(&huge).unwrap()));
        assert!(written.starts_with("-0x"), "{}", &written[..20]);
        // Python itself reads the literal back to the same number (printed
        // after lifting the limit only for the comparison).
        let program =
            format!("import sys\nsys.set_int_max_str_digits(0)\nassert {written} == int('{huge}'), 'differs'\n");
        let status = std::process::Command::new("python3").args(["-c", &program]).status().expect("python3 runs");
        assert!(status.success());
        // And the check code compiles under the default limit.
        let compiles = std::process::Command::new("python3")
            .args(["-c", &format!("compile('x = {written}', 'check', 'exec')")])
            .status()
            .expect("python3 runs");
        assert!(compiles.success());
    }

    /// The generated code under Python: the helper's verdicts are the
    /// native comparison's (list ≈ tuple, tolerance, NaN), `==` elsewhere.
    #[test]
    fn generated_checks_agree_with_the_native_comparison_in_python() {
        let p = problem(json!([
            {"args": [1], "expected": [1.0, 2]},
            {"args": [2], "expected": {"__tuple__": [1, {"__float__": "nan"}]}},
            {"args": [3], "expected": 0.1},
        ]));
        let code = check_code(&p, &p.tests).unwrap();
        let run = |candidate: &str| {
            let program = format!("import math\n{candidate}\n{code}\ncheck(f)\n");
            std::process::Command::new("python3").args(["-c", &program]).status().expect("python3 runs").success()
        };
        let table = "{1: (1.0000001, 2), 2: [1, float('nan')], 3: 0.1 + 1e-9}";
        assert!(run(&format!("def f(x):\n    return {table}[x]")), "tuple for list, NaN, tolerance all pass");
        assert!(!run("def f(x):\n    return {1: [1.1, 2], 2: (1, float('nan')), 3: 0.1}[x]"), "1.1 is not 1.0");
        assert!(!run("def f(x):\n    return {1: [1.0, 2], 2: (1, 0.0), 3: 0.1}[x]"), "0.0 is not NaN");
        assert!(!run("def f(x):\n    return {1: [1.0, 2, 3], 2: (1, float('nan')), 3: 0.1}[x]"), "lengths differ");
    }

    /// human-eval's program for a `class Solution` problem ends with
    /// `check(entry_point)`, a name only the class defines.
    #[test]
    fn solution_method_checks_run_as_human_eval_runs_them() {
        let p: Problem =
            serde_json::from_value(json!({"task_id": "t", "entry_point": "twice", "call_style": "solution_method",
            "tests": [{"args": [2], "expected": 4}]}))
            .unwrap();
        let code = check_code(&p, &p.tests).unwrap();
        let run = |completion: &str| {
            let program = format!("class Solution:\n    def twice(self, x):\n{completion}\n{code}\ncheck(twice)\n");
            std::process::Command::new("python3").args(["-c", &program]).status().expect("python3 runs").success()
        };
        assert!(run("        return 2 * x"), "{code}");
        assert!(!run("        return x + 1"), "{code}");
    }

    /// A problem whose function is itself named `check` (or the helper's
    /// name) still passes its reference under human-eval's program.
    #[test]
    fn an_entry_point_named_like_the_harness_keeps_its_own_function() {
        for name in HARNESS_NAMES {
            let p: Problem =
                serde_json::from_value(json!({"task_id": "t", "entry_point": name, "call_style": "function",
                "tests": [{"args": [2], "expected": [4]}]}))
                .unwrap();
            let code = check_code(&p, &p.tests).unwrap();
            let run = |body: &str| {
                let program = format!("def {name}(x):\n    return {body}\n{code}\ncheck({name})\n");
                std::process::Command::new("python3").args(["-c", &program]).status().expect("python3 runs").success()
            };
            assert!(run("[2 * x]"), "{code}");
            assert!(!run("[x + 1]"), "{code}");
        }
    }

    #[test]
    fn bad_tests_are_reported_by_number() {
        let p = problem(json!([{"args": [1], "expected": 1}, {"args": [{"__float__": "big"}], "expected": 1}]));
        assert_eq!(check_code(&p, &p.tests).unwrap_err().test, 2);
        let p = problem(json!([{"args": [], "kwargs": {"not ok": 1}, "expected": 1}]));
        assert!(check_code(&p, &p.tests).unwrap_err().message.contains("identifier"));
    }

    /// A set-mode problem's check code accepts another order of the same
    /// elements and nothing else, as the judge does (`compare_mode`).
    #[test]
    fn set_and_sorted_modes_compare_the_result_unordered_in_python() {
        let tests = json!([{"args": [1], "expected": [1, 2, 2]}, {"args": [2], "expected": [[1, 2], 0.5]}]);
        let run = |mode: &str, candidate: &str| {
            let p: Problem = serde_json::from_value(json!({
                "task_id": "t", "entry_point": "f", "call_style": "function", "compare_mode": mode, "tests": tests,
            }))
            .unwrap();
            let code = check_code(&p, &p.tests).unwrap();
            let program = format!("{candidate}\n{code}\ncheck(f)\n");
            std::process::Command::new("python3").args(["-c", &program]).status().expect("python3 runs").success()
        };
        let reordered = "def f(x):\n    return [2, 1, 2] if x == 1 else (0.5000000001, [1, 2])";
        let deduplicated = "def f(x):\n    return [2, 1] if x == 1 else [0.5, [1, 2]]";
        let inner_reordered = "def f(x):\n    return [1, 2, 2] if x == 1 else [0.5, [2, 1]]";
        assert!(run("set", reordered));
        assert!(run("set", deduplicated));
        assert!(!run("set", inner_reordered));
        assert!(run("sorted", reordered));
        assert!(!run("sorted", deduplicated));
        assert!(!run("plain", reordered));
    }
}
