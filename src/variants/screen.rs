//! The cheap first look at a candidate: one sandbox job on the original's
//! own test inputs, before the costly test generation.

use std::path::Path;

use serde_json::Value as Json;

use crate::judge::problem::Category;
use crate::judge::run::Sandbox;
use crate::testgen::generate::{GenInput, compare_options, same, validate_limits};
use crate::testgen::reference::{Run, run_all, wrap};
use crate::testgen::tests_file::{self, GeneratedTest, Header, TESTS};

/// The problem a variant is made from, as read once.
#[derive(Debug, Clone)]
pub struct Original {
    /// Its directory name.
    pub name: String,
    pub input: GenInput,
    /// Its generated tests (`tests.jsonl`) and their header.
    pub tests: Vec<GeneratedTest>,
    pub header: Header,
}

impl Original {
    /// Reads a problem directory with generated tests; errors name the file.
    pub fn load(dir: &Path) -> anyhow::Result<Original> {
        let input = crate::bank::spec::gen_input(dir)?;
        let (header, tests) = tests_file::read(&dir.join(TESTS))?;
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        Ok(Original { name, input, tests, header })
    }
}

/// Why the screen rejects a candidate (a short, countable reason).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejected {
    /// It raises, times out or answers no plain value on some input.
    NotTotal,
    /// The same answer on every input.
    Constant,
    /// It differs from the original on too few inputs.
    TooClose,
}

impl std::fmt::Display for Rejected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Rejected::NotTotal => "not total on the original's test inputs",
            Rejected::Constant => "answers the same on every input",
            Rejected::TooClose => "differs from the original on too few inputs",
        })
    }
}

/// Most inputs the screen runs: enough to see a 20 % difference, cheap.
const SCREEN_INPUTS: usize = 200;

/// Runs `source` on the original's non-large test inputs: `Ok(Ok(()))`
/// when it answers every one, not all alike, and differs from the original
/// on at least `min_differ` of them. `Err` only when the sandbox failed.
pub fn screen(
    sandbox: &dyn Sandbox,
    original: &Original,
    source: &str,
    min_differ: f64,
) -> anyhow::Result<Result<(), Rejected>> {
    let tests: Vec<&GeneratedTest> =
        original.tests.iter().filter(|t| t.category != Category::Large).take(SCREEN_INPUTS).collect();
    let inputs: Vec<Vec<Json>> = tests.iter().map(|t| t.args.clone()).collect();
    let input = &original.input;
    let program = wrap(source, &input.entry_point, input.call_style, false);
    let runs = run_all(sandbox, &program, &inputs, validate_limits(&input.spec))?;
    let opts = compare_options(&input.spec);
    let mut values = Vec::with_capacity(runs.len());
    for run in runs {
        match run {
            Run::Value(v, _) => values.push(v),
            _ => return Ok(Err(Rejected::NotTotal)),
        }
    }
    if values.windows(2).all(|w| same(&w[0], &w[1], &opts)) {
        return Ok(Err(Rejected::Constant));
    }
    let differ = values.iter().zip(&tests).filter(|(v, t)| !same(v, &t.expected, &opts)).count();
    if values.is_empty() || (differ as f64) < min_differ * values.len() as f64 {
        return Ok(Err(Rejected::TooClose));
    }
    Ok(Ok(()))
}
