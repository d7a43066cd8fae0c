//! `flowbench new SUBSET/SLUG`: a new problem directory whose files are
//! commented templates. The templates form a valid problem (so each later
//! edit can be checked on its own) except for the description, which
//! `flowbench check` rejects until it is written.

use std::path::{Path, PathBuf};

use flowbench_support::FileError;

use super::meta::is_subset_name;
use super::problem_check::TEMPLATE_MARKER;

/// Why `flowbench new` made no problem.
#[derive(Debug, thiserror::Error)]
pub enum ScaffoldError {
    #[error("{spec:?}: expected SUBSET/SLUG, e.g. math/gcd")]
    NotSubsetSlug { spec: String },
    #[error("subset {subset:?}: use a lowercase name ([a-z][a-z0-9_-]*), e.g. basic, algorithm or math")]
    Subset { subset: String },
    #[error("slug {slug:?}: use a Python identifier in snake_case (it is the task id and the function name)")]
    Slug { slug: String },
    #[error("{} already exists", .dir.display())]
    Exists { dir: PathBuf },
    /// Creating the directory or writing a template.
    #[error(transparent)]
    File(#[from] FileError),
}

/// Creates `<bank>/<slug>/` for `spec` = `SUBSET/SLUG`; refuses to touch
/// an existing directory.
pub fn scaffold(bank: &Path, spec: &str) -> Result<PathBuf, ScaffoldError> {
    let (subset, slug) = spec.split_once('/').ok_or_else(|| ScaffoldError::NotSubsetSlug { spec: spec.into() })?;
    if !is_subset_name(subset) {
        return Err(ScaffoldError::Subset { subset: subset.into() });
    }
    let ident = slug.chars().next().is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && slug.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !ident {
        return Err(ScaffoldError::Slug { slug: slug.into() });
    }
    let dir = bank.join(slug);
    if dir.exists() {
        return Err(ScaffoldError::Exists { dir });
    }
    std::fs::create_dir_all(&dir).map_err(FileError::creating(&dir))?;
    let files = [
        ("problem.toml", problem_toml(subset, slug)),
        ("description.md", description(slug)),
        ("flowchart.mmd", flowchart()),
        ("solution.py", solution(slug)),
        ("problem.json", problem_json(slug)),
    ];
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(FileError::writing(&path))?;
    }
    Ok(dir)
}

fn problem_toml(subset: &str, slug: &str) -> String {
    let title = slug.replace('_', " ");
    format!(
        "# The authored spec of `{slug}`. [meta] describes the problem in the benchmark;\n\
         # test generation adds its own tables (signature, constraints, seeds).\n\
         [meta]\n\
         # Shown in the gallery and in the records' `title`.\n\
         title = \"{title}\"\n\
         # basic | algorithm | math, or a lowercase name of your own (a new Table 1 row).\n\
         subset = \"{subset}\"\n\
         # easy | medium | hard\n\
         difficulty = \"easy\"\n\
         # Where the problem comes from: \"original\", a URL, a book.\n\
         source = \"original\"\n\
         # Licence of the statement and solution (SPDX id).\n\
         licence = \"MIT\"\n"
    )
}

fn description(slug: &str) -> String {
    format!(
        "<!-- {TEMPLATE_MARKER}: replace this file with the statement of `{slug}` (Markdown).\n\
         It is what a model reads in the text-only condition and the docstring of the\n\
         record's prompt: say what the function receives and returns, and the edge cases. -->\n"
    )
}

/// Whether `text` is still the chart `new` scaffolded (so `author` may
/// replace it without `--force`: nothing hand-made is lost).
pub fn is_placeholder_flowchart(text: &str) -> bool {
    text == flowchart()
}

fn flowchart() -> String {
    "%% The flowchart of solution.py, one node per step. Terminals are stadiums\n\
     %% ([Start]/[End]), inputs and outputs parallelograms, decisions rhombi with\n\
     %% labelled edges (`-->|Yes|`). `flowbench check` lints it; `flowbench fmt` keeps it canonical.\n\
     flowchart TB\n    A([Start]) --> B[/Input integer n/]\n    B --> C{n < 0?}\n    C -->|Yes| D[n = -n]\n    C -->|No| E[/Return n/]\n    D --> E\n    E --> F([End])\n"
        .to_string()
}

fn solution(slug: &str) -> String {
    format!(
        "# The reference solution: the flowchart's algorithm, in plain Python.\n\
         # Every test's `expected` must be what this returns.\n\
         def {slug}(n: int) -> int:\n    if n < 0:\n        n = -n\n    return n\n"
    )
}

fn problem_json(slug: &str) -> String {
    // JSON has no comments: the format is in problems/README.md.
    format!(
        "{{\n  \"task_id\": \"{slug}\",\n  \"entry_point\": \"{slug}\",\n  \"starter_code\": \"def {slug}(n: int) -> int:\\n\",\n  \"call_style\": \"function\",\n  \"tests\": [\n    {{\"args\": [5], \"expected\": 5, \"category\": \"typical\"}},\n    {{\"args\": [-5], \"expected\": 5, \"category\": \"typical\"}},\n    {{\"args\": [0], \"expected\": 0, \"category\": \"edge\"}},\n    {{\"args\": [-100000000000000000000], \"expected\": 100000000000000000000, \"category\": \"large\"}}\n  ]\n}}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaffold_is_a_valid_problem_but_for_its_description() {
        let bank = tempfile::tempdir().unwrap();
        let dir = scaffold(bank.path(), "geometry/abs_value").unwrap();
        let meta = crate::meta::read_meta(&crate::ProblemDir::read(&dir)).unwrap();
        assert_eq!((meta.subset.as_str(), meta.title.as_str()), ("geometry", "abs value"));
        let b = crate::load(&crate::ProblemDir::read(&dir)).unwrap();
        assert!(
            matches!(flowbench_chart::mermaid::lint::check(&b.flowchart), flowbench_chart::mermaid::lint::Checked::Ok { ref warnings, .. } if warnings.is_empty())
        );
        assert_eq!(b.problem.tests.len(), 4);
        assert!(std::fs::read_to_string(dir.join("description.md")).unwrap().contains(TEMPLATE_MARKER));
        let again = scaffold(bank.path(), "geometry/abs_value").unwrap_err();
        assert!(matches!(&again, ScaffoldError::Exists { dir } if dir.ends_with("abs_value")), "{again}");
        assert!(scaffold(bank.path(), "abs").is_err());
        assert!(scaffold(bank.path(), "Math/x").is_err());
        assert!(scaffold(bank.path(), "math/Not-ok").is_err());
    }

    /// Every file ends its last line (an editor or `cat` shows no `\ No
    /// newline`), and with one newline only.
    #[test]
    fn scaffold_files_end_with_one_newline() {
        let bank = tempfile::tempdir().unwrap();
        let dir = scaffold(bank.path(), "math/abs_value").unwrap();
        for name in ["problem.toml", "description.md", "flowchart.mmd", "solution.py", "problem.json"] {
            let text = std::fs::read_to_string(dir.join(name)).unwrap();
            assert!(text.ends_with('\n') && !text.ends_with("\n\n"), "{name}: {text:?}");
        }
    }
}
