//! `flowbench import`: existing benchmark problems → bank directories
//! (`solution.py` from the canonical solution, `problem.json` with the
//! original tests converted to native, `problem.toml` for test generation).
//! No flowchart is written: such a directory can be tested and scored but
//! not built into an image benchmark.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use flowbench_support::FileError;

use flowbench_judge::compare::CompareMode;
use flowbench_judge::import::{Source, import_file};
use flowbench_judge::problem::Problem;

use super::build::to_json;
use super::{PROBLEM, SOLUTION};

/// Why an import stopped: the input cannot be converted, or a file cannot
/// be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error(transparent)]
    Convert(#[from] flowbench_judge::import::ImportError),
    #[error(transparent)]
    Apps(#[from] flowbench_judge::import::apps::AppsFileError),
    #[error(transparent)]
    File(#[from] FileError),
}

/// What one import did.
#[derive(Debug, Clone, Default)]
pub struct Imported {
    pub dirs: Vec<PathBuf>,
    /// Problems with no canonical solution (no `solution.py` written).
    pub without_solution: usize,
    /// Problems that took a hand-written spec or `valid()` from `specs`.
    pub with_hand_spec: Vec<String>,
}

/// A task id as a directory name: letters, digits, `-` and `_` kept,
/// anything else becomes `_`.
pub fn dir_name(task_id: &str) -> String {
    task_id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

/// Imported problems carry no written constraints: their parameters' domain
/// comes from their own original tests until someone writes `[params.X]`.
const INFER_DOMAIN: &str =
    "# Parameters without [params.X] take their domain from the original tests.\ninfer_domain = true\n";

/// The original tests' comparison as `problem.toml` lines, so generated
/// tests are validated, mutants killed and answers judged the same way:
/// the compare mode (`set(f(x)) == …`, `sorted(f(x)) == …`) and the float
/// tolerance (`math.isclose`, `abs(f(x) - y) < tol`). Nothing when the
/// comparison is the default or the hand spec already says it.
fn comparison_toml(problem: &Problem, spec: &str) -> String {
    let mut lines = String::new();
    if problem.compare_mode != CompareMode::Plain && !spec.contains("compare_mode") {
        let mode = serde_json::to_value(problem.compare_mode).ok();
        let mode = mode.as_ref().and_then(|m| m.as_str()).unwrap_or_default();
        lines.push_str(&format!(
            "# The original tests compare the result regardless of order.\ncompare_mode = \"{mode}\"\n"
        ));
    }
    if let Some(tol) =
        problem.float_tolerance.filter(|t| t.is_finite() && *t > 0.0 && !spec.contains("float_tolerance"))
    {
        lines.push_str(&format!(
            "# The original tests compare floats within this tolerance.\nfloat_tolerance = {tol:e}\n"
        ));
    }
    lines
}

/// Imports every problem of `input` (only subset `subset` when given) into
/// `out/<task id>/`. `specs` may hold hand-written `<task id>.toml` (the
/// problem's `problem.toml`) and `<task id>.py` (appended to the solution,
/// e.g. a `valid()` precondition).
pub fn import(
    input: &Path,
    source: Source,
    subset: Option<&str>,
    out: &Path,
    specs: Option<&Path>,
    python: &Path,
) -> Result<Imported, ImportError> {
    let (problems, _) = import_file(input, source, python)?;
    let text = std::fs::read_to_string(input).map_err(FileError::reading(input))?;
    let write = |path: &Path, text: &str| std::fs::write(path, text).map_err(FileError::writing(path));
    let mut records: HashMap<String, serde_json::Value> = HashMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        let id = v.get("task_id").and_then(|x| x.as_str()).unwrap_or_default().to_string();
        records.insert(id, v);
    }
    let mut result = Imported::default();
    for mut p in problems {
        if subset.is_some_and(|s| p.subset.as_deref() != Some(s)) {
            continue;
        }
        let dir = out.join(dir_name(&p.task_id));
        std::fs::create_dir_all(&dir).map_err(FileError::creating(&dir))?;
        let record = records.get(&p.task_id).cloned().unwrap_or_default();
        let field = |k: &str| record.get(k).and_then(|x| x.as_str()).unwrap_or_default().to_string();
        let (prompt, canonical) = (field("prompt"), field("canonical_solution"));
        let hand = |ext: &str| specs.map(|s| s.join(format!("{}.{ext}", dir_name(&p.task_id)))).filter(|f| f.is_file());
        let mut took_hand = false;
        if canonical.trim().is_empty() {
            result.without_solution += 1;
        } else {
            let mut solution = format!("{prompt}{canonical}");
            if let Some(extra) = hand("py") {
                solution.push_str("\n\n");
                solution.push_str(&std::fs::read_to_string(&extra).map_err(FileError::reading(&extra))?);
                took_hand = true;
            }
            write(&dir.join(SOLUTION), &solution)?;
        }
        let spec = match hand("toml") {
            Some(f) => {
                took_hand = true;
                std::fs::read_to_string(&f).map_err(FileError::reading(&f))?
            }
            None => String::new(),
        };
        let spec =
            if spec.contains("entry_point") { spec } else { format!("entry_point = \"{}\"\n{spec}", p.entry_point) };
        let spec = if spec.contains("infer_domain") { spec } else { format!("{INFER_DOMAIN}{spec}") };
        let spec = format!("{}{spec}", comparison_toml(&p, &spec));
        // Code-Vision records say what `build` needs: [meta], the statement.
        let codevision = source == Source::Codevision && !record.is_null();
        let spec = match codevision && !spec.contains("[meta]") {
            true => format!("{spec}{}", super::codevision_meta::meta_toml(&record)),
            false => spec,
        };
        write(&dir.join(super::spec::SPEC), &spec)?;
        if let Some(statement) = super::codevision_meta::description(&record).filter(|_| codevision) {
            write(&dir.join(super::meta::DESCRIPTION), &statement)?;
        }
        // Keyword arguments (Algorithm's `**test_input`) become positions
        // through the starter's signature, so they seed the generator and
        // run natively; any that cannot stay in the legacy test alone.
        if let Some(params) = parameters(&p.starter_code, &p.entry_point) {
            for t in &mut p.tests {
                to_positional(t, &params);
            }
        }
        p.tests.retain(|t| t.kwargs.is_empty());
        write(&dir.join(PROBLEM), &to_json(&p))?;
        if took_hand {
            result.with_hand_spec.push(p.task_id.clone());
        }
        result.dirs.push(dir);
    }
    Ok(result)
}

/// The parameter names of `def entry_point(…)` in `starter` (`self`
/// left out), or `None` when it is not there or takes `*args`/`**kw`.
pub fn parameters(starter: &str, entry_point: &str) -> Option<Vec<String>> {
    let start = starter.find(&format!("def {entry_point}("))? + entry_point.len() + 5;
    let mut depth = 0usize;
    let mut params = vec![String::new()];
    for c in starter[start..].chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' if depth == 0 => break,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                params.push(String::new());
                continue;
            }
            _ => {}
        }
        params.last_mut()?.push(c);
    }
    let names: Vec<String> = params
        .iter()
        .map(|p| p.split([':', '=']).next().unwrap_or_default().trim().to_string())
        .filter(|n| !n.is_empty() && n != "self")
        .collect();
    names.iter().all(|n| n.chars().all(|c| c.is_alphanumeric() || c == '_')).then_some(names)
}

/// A test's keyword arguments moved to their positions in `params`, when
/// they name exactly the parameters after the positional ones (otherwise
/// the test is left as it is).
fn to_positional(test: &mut flowbench_judge::problem::TestCase, params: &[String]) {
    if test.kwargs.is_empty() || test.args.len() + test.kwargs.len() != params.len() {
        return;
    }
    let rest = &params[test.args.len()..];
    if !rest.iter().all(|n| test.kwargs.contains_key(n)) {
        return;
    }
    for n in rest {
        if let Some(v) = test.kwargs.remove(n) {
            test.args.push(v);
        }
    }
}

/// What an APPS import did: the directories written and the records that
/// did not read (reported by line, skipped).
#[derive(Debug, Clone, Default)]
pub struct AppsImported {
    pub dirs: Vec<PathBuf>,
    pub stdio: usize,
    pub function: usize,
    /// Solutions whose chart could not be drawn, with why (the directory
    /// is written without `flowchart.mmd`).
    pub undrawn: Vec<String>,
    pub skipped: Vec<flowbench_judge::problems_file::Diagnostic>,
}

/// Imports APPS/TACO/MMCode records into `out/<task id>/`: `problem.json`
/// (the native problem), `description.md` (the statement), `solution.py`
/// (the first solution, when there is one) with its `flowchart.mmd` drawn,
/// and `problem.toml`: `[meta]` read from the record (`apps_meta`) and, for
/// call-based records, the entry point. So a whole program builds as
/// imported, on its own tests; its input format (`[stdin] format`,
/// problems/README.md) cannot be read from the records and is written by
/// hand before `tests gen`.
pub fn import_apps(input: &Path, out: &Path) -> Result<AppsImported, ImportError> {
    use flowbench_judge::import::apps::{Native, read_apps};
    let read = read_apps(input)?;
    let mut result = AppsImported { skipped: read.skipped, ..AppsImported::default() };
    for p in read.problems {
        let dir = out.join(dir_name(p.native.task_id()));
        std::fs::create_dir_all(&dir).map_err(FileError::creating(&dir))?;
        let write = |name: &str, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, text)
                .map_err(|source| FileError::new(flowbench_support::FileAction::Write, &path, source))
        };
        let meta = super::apps_meta::meta_toml(&p.native, p.question.as_deref());
        match &p.native {
            Native::Function(f) => {
                result.function += 1;
                write(super::spec::SPEC, &format!("entry_point = \"{}\"\n{INFER_DOMAIN}{meta}", f.entry_point))?;
            }
            Native::Stdio(_) => {
                result.stdio += 1;
                write(super::spec::SPEC, meta.trim_start())?;
            }
        }
        write(PROBLEM, &to_json(&p.native))?;
        if let Some(question) = &p.question {
            write("description.md", question)?;
        }
        if let Some(solution) = p.solutions.first() {
            write(SOLUTION, solution)?;
            match super::apps_meta::chart(&p.native, solution) {
                Ok(chart) => write(super::FLOWCHART, &chart)?,
                Err(why) => result.undrawn.push(format!("{}: {why}", dir.join(SOLUTION).display())),
            }
        }
        result.dirs.push(dir);
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use flowbench_judge::problem::TestCase;
    use serde_json::json;

    #[test]
    fn starter_parameters_skip_self_and_split_at_top_level_commas() {
        let starter =
            "class Solution:\n    def f(self, grid: List[List[int]], k: Dict[str, int] = None) -> int:\n        ";
        assert_eq!(parameters(starter, "f"), Some(vec!["grid".to_string(), "k".to_string()]));
        assert_eq!(parameters("def g(*args):\n", "g"), None);
        assert_eq!(parameters("def g(x):\n", "h"), None);
    }

    #[test]
    fn keyword_tests_become_positional_in_the_signature_order() {
        let kwargs = json!({"k": 2, "nums": [1, 2]}).as_object().cloned().unwrap_or_default();
        let mut t = TestCase {
            args: vec![],
            kwargs,
            expected: json!(3),
            category: Default::default(),
            compare: Default::default(),
            widened: None,
        };
        to_positional(&mut t, &["nums".into(), "k".into()]);
        assert_eq!((t.args, t.kwargs.len()), (vec![json!([1, 2]), json!(2)], 0));
        let kwargs = json!({"other": 1}).as_object().cloned().unwrap_or_default();
        let mut odd = TestCase {
            args: vec![],
            kwargs,
            expected: json!(3),
            category: Default::default(),
            compare: Default::default(),
            widened: None,
        };
        to_positional(&mut odd, &["nums".into()]);
        assert_eq!(odd.kwargs.len(), 1, "an unknown name leaves the test as it is");
    }
}
