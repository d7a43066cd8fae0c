//! The test-generation part of a problem's `problem.toml`: entry point,
//! call style, per-parameter constraints, relations, seeds and limits.
//!
//! The constraints are kept as plain tables and checked by the generator
//! (which knows the signature), so a constraint that contradicts a
//! parameter's type is reported with the parameter's name.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use flowbench_exec::CallStyle;
use flowbench_problem::compare::CompareMode;

/// How many candidates of each kind the generator makes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counts {
    #[serde(default = "Counts::typical")]
    pub typical: usize,
    #[serde(default = "Counts::large")]
    pub large: usize,
    /// Type-aware mutations of seeds and original tests.
    #[serde(default = "Counts::mutations")]
    pub mutations: usize,
}

impl Counts {
    fn typical() -> usize {
        20
    }
    fn large() -> usize {
        5
    }
    fn mutations() -> usize {
        20
    }
}

impl Default for Counts {
    fn default() -> Self {
        Counts { typical: Counts::typical(), large: Counts::large(), mutations: Counts::mutations() }
    }
}

/// The fewest validated tests per category a problem may ship with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Floors {
    #[serde(default = "Floors::five")]
    pub typical: usize,
    #[serde(default = "Floors::five")]
    pub edge: usize,
    #[serde(default = "Floors::three")]
    pub large: usize,
}

impl Floors {
    fn five() -> usize {
        5
    }
    fn three() -> usize {
        3
    }
}

impl Default for Floors {
    fn default() -> Self {
        Floors { typical: 5, edge: 5, large: 3 }
    }
}

/// What `tests gen` needs to know about a problem beyond its solution.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TestSpec {
    /// Function (or `Solution` method) to call; default: the problem's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_point: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_style: Option<CallStyle>,
    /// Seed of every random choice: the same seed gives the same tests.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Judges limit each test to `factor ×` the reference's time (with a floor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_factor: Option<f64>,
    /// Relative float tolerance written into the built problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub float_tolerance: Option<f64>,
    /// Whether the result's order counts: `set` or `sorted` when the
    /// original tests compare `set(f(x))` or `sorted(f(x))` (written by
    /// `import`); plain when omitted.
    #[serde(default, skip_serializing_if = "CompareMode::is_plain")]
    pub compare_mode: CompareMode,
    /// Per-call limit while validating, seconds (default 2; typical and edge
    /// inputs get a quarter of it), counted: see `reference::Cost`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validate_time_limit_s: Option<f64>,
    /// Parameters without `[params.X]` take their domain (sign, alphabet,
    /// element domain) from the original tests: imported problems have no
    /// written constraints, and inputs far outside what their tests show
    /// mostly make the reference raise or answer outside its contract.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub infer_domain: bool,
    /// With `infer_domain`: a string parameter without `[params.X]` whose
    /// examples are words of a small vocabulary separated by spaces is made
    /// of those words. `tests gen` falls back to it by itself when the
    /// reference raises on most other strings (`parse_music("Z")`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub words_from_examples: bool,
    /// Per-parameter constraints, by parameter name (see problems/README.md).
    #[serde(default)]
    pub params: BTreeMap<String, toml::Table>,
    /// Python expressions over the parameters every input must satisfy.
    #[serde(default)]
    pub relations: Vec<String>,
    /// Author seed inputs: argument lists in the native value encoding.
    #[serde(default)]
    pub seeds: Vec<Vec<serde_json::Value>>,
    /// Sizes of the large inputs (default 10^4, 3·10^4, 10^5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub large_len: Vec<toml::Value>,
    /// Magnitudes of unbounded large integers, one per large input in turn
    /// (default 10^3, 10^4, 10^5, 10^6, 10^9, 10^18, 10^30).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub large_magnitudes: Vec<toml::Value>,
    #[serde(default)]
    pub counts: Counts,
    #[serde(default)]
    pub floors: Floors,
    /// The input format of a whole-program (`stdio`) problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdin: Option<StdinSpec>,
    /// Tests dropped on review (`[[dropped_tests]]`: `args`, `reason`; or
    /// `tests gen --drop-disputed`): validation leaves these inputs out
    /// and the header lists them. Never sent to the generator helper,
    /// which has nothing to do with them.
    #[serde(default, skip_serializing)]
    pub dropped_tests: Vec<crate::tests_file::DroppedTest>,
}

/// `[stdin]`: how a whole program's standard input is made.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StdinSpec {
    /// The lines the program reads (see `stdin_format`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
}

fn default_seed() -> u64 {
    1
}

/// The spec file's name in a problem directory.
pub const SPEC_FILE: &str = "problem.toml";

/// An error in a problem's `problem.toml`, naming the file and, where it is
/// known, the line: `<path>:<line>: <message>` (`<path>: <message>`
/// without one), as a compiler names its errors.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{}: {message}", .path.display(), .line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct SpecError {
    pub path: std::path::PathBuf,
    /// The line of the file the error is on (1-based).
    pub line: Option<usize>,
    pub message: String,
}
