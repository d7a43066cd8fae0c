//! What `flowbench import apps` writes beside an imported record so the
//! directory builds: `problem.toml`'s `[meta]` (read from the record) and
//! the chart drawn from its first solution.
//!
//! APPS, TACO and MMCode records carry a statement, a difficulty in their
//! own words and sometimes a URL, never a title or a licence, so the title
//! is the statement's first line and the licence says it is not known: an
//! author reads the source before publishing a benchmark built from it.

use flowbench_author::{Detail, ReadError, draw_source};
use flowbench_exec::CallStyle;
use flowbench_judge::import::apps::Native;

/// The subset imported problems go into (`dist/apps.jsonl`).
pub const SUBSET: &str = "apps";

/// Longest title taken from a statement's first line, in characters.
const TITLE_CHARS: usize = 60;

/// `[meta]` for an imported record, as TOML text.
pub fn meta_toml(native: &Native, question: Option<&str>) -> String {
    let (task_id, difficulty, url) = match native {
        Native::Function(p) => (&p.task_id, p.difficulty.as_deref(), None),
        Native::Stdio(p) => (&p.task_id, p.difficulty.as_deref(), p.url.as_deref()),
    };
    let source = url.map_or_else(|| format!("APPS-format record {task_id}"), str::to_string);
    let quoted = |s: &str| toml::Value::String(s.to_string()).to_string();
    format!(
        "\n# Read from the imported record (see problems/README.md). The record\n\
         # states no licence: check the source's before publishing.\n\
         [meta]\ntitle = {}\nsubset = \"{SUBSET}\"\ndifficulty = \"{}\"\nsource = {}\nlicence = \"unknown (see source)\"\n",
        quoted(&title(task_id, question)),
        difficulty_level(difficulty),
        quoted(&source),
    )
}

/// The statement's first non-blank line, cut at a word within
/// [`TITLE_CHARS`]; the task id when there is no statement.
fn title(task_id: &str, question: Option<&str>) -> String {
    let Some(line) = question.and_then(|q| q.lines().map(str::trim).find(|l| !l.is_empty())) else {
        return format!("Problem {task_id}");
    };
    if line.chars().count() <= TITLE_CHARS {
        return line.to_string();
    }
    let cut: String = line.chars().take(TITLE_CHARS).collect();
    let words = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{}…", words.trim_end())
}

/// APPS's (`introductory`, `interview`, `competition`) and TACO's (`EASY` …
/// `VERY_HARD`) difficulties on Code-Vision's three levels; `medium` when
/// the record gives none or one of its own.
fn difficulty_level(given: Option<&str>) -> &'static str {
    match given.map(|d| d.to_ascii_lowercase()).as_deref() {
        Some("introductory" | "easy") => "easy",
        Some("competition" | "hard" | "medium_hard" | "very_hard") => "hard",
        _ => "medium",
    }
}

/// Why an imported solution has no chart: the reader's message (its line
/// left out: the solution is named beside it).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", .0.message)]
pub struct Undrawn(pub ReadError);

/// The chart of `solution` for the record's entry point (the whole program
/// for a stdio record), or why it cannot be drawn.
pub fn chart(native: &Native, solution: &str) -> Result<String, Undrawn> {
    let entry = match native {
        Native::Stdio(_) => None,
        Native::Function(p) if p.call_style == CallStyle::SolutionMethod => Some(format!("Solution.{}", p.entry_point)),
        Native::Function(p) => Some(p.entry_point.clone()),
    };
    draw_source(solution, entry.as_deref(), Detail::Medium).map_err(Undrawn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_and_levels_come_from_the_record() {
        assert_eq!(title("7", Some("\n  Read n and print n + 1.\nMore.")), "Read n and print n + 1.");
        assert_eq!(title("7", None), "Problem 7");
        let long = "word ".repeat(20);
        let t = title("7", Some(&long));
        assert!(t.ends_with("word…") && t.chars().count() <= TITLE_CHARS + 1, "{t}");
        assert_eq!(
            ["introductory", "interview", "competition", "VERY_HARD", "EASY"].map(|d| difficulty_level(Some(d))),
            ["easy", "medium", "hard", "hard", "easy"]
        );
        assert_eq!(difficulty_level(None), "medium");
    }

    #[test]
    fn meta_reads_back_as_meta() {
        let native: Native = Native::Stdio(
            serde_json::from_str(
                r#"{"task_id": "4001", "call_style": "stdio", "difficulty": "interview", "url": "https://e.org/\"x",
                    "tests": [{"stdin": "1\n", "stdout": "1\n"}]}"#,
            )
            .unwrap(),
        );
        let meta = crate::meta::parse_meta(&meta_toml(&native, Some("Sum \"them\"."))).unwrap();
        assert_eq!((meta.title.as_str(), meta.subset.as_str()), ("Sum \"them\".", SUBSET));
        assert_eq!((meta.difficulty.as_str(), meta.source.as_str()), ("medium", "https://e.org/\"x"));
    }
}
