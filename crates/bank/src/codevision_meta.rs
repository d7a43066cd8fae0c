//! What `flowbench import codevision` writes beside a problem so the
//! directory builds into a Code-Vision-shaped benchmark: `problem.toml`'s
//! `[meta]` read from the record (subset on Code-Vision's three, its
//! difficulty, title, source and licence) and `description.md` (the
//! statement, for the text-only condition).
//!
//! HumanEval-V has no difficulty; its problems are listed as `easy` (the
//! paper's Table 1 has no difficulty split for it, and `[meta]` needs one).

use serde_json::Value as Json;

/// `[meta]` for one `problems.jsonl` record, as TOML text.
pub fn meta_toml(record: &Json) -> String {
    let field = |k: &str| record.get(k).and_then(Json::as_str).unwrap_or_default();
    let task_id = field("task_id");
    let source = record.get("source").cloned().unwrap_or(Json::Null);
    let at = |k: &str| source.get(k).and_then(|v| v.as_str().map(str::to_string).or_else(|| Some(v.to_string())));
    let (subset, licence, origin) = match field("subset") {
        "HumanEval-V" => ("basic", "MIT", format!("openai/human-eval HumanEval/{}", at("number").unwrap_or_default())),
        "Algorithm" => ("algorithm", "LeetCode (research use only)", at("url").unwrap_or_else(|| task_id.to_string())),
        _ => ("math", "LeetCode (research use only)", format!("LeetCode {}", at("frontend_id").unwrap_or_default())),
    };
    let title = match field("title") {
        "" => task_id,
        t => t,
    };
    let difficulty = match field("difficulty") {
        d @ ("easy" | "medium" | "hard") => d,
        _ => "easy",
    };
    let quoted = |s: &str| toml::Value::String(s.to_string()).to_string();
    format!(
        "\n# Read from Code-Vision's record (issue 31).\n[meta]\ntitle = {}\nsubset = \"{subset}\"\n\
         difficulty = \"{difficulty}\"\nsource = {}\nlicence = {}\n",
        quoted(title),
        quoted(&origin),
        quoted(licence)
    )
}

/// The statement: Algorithm's prompt without its starter code, MATH's
/// prompt, HumanEval's docstring prompt; `None` when empty.
pub fn description(record: &Json) -> Option<String> {
    let prompt = record.get("prompt").and_then(Json::as_str)?;
    let text = match record.get("subset").and_then(Json::as_str) {
        Some("Algorithm") => {
            prompt.strip_prefix("\"\"\"\n").and_then(|p| p.split_once("\n\"\"\"\n")).map_or(prompt, |(s, _)| s)
        }
        _ => prompt,
    };
    let text = text.trim();
    (!text.is_empty()).then(|| format!("{text}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_algorithm_record_gives_its_meta_and_statement() {
        let r = json!({"task_id": "weekly-contest-381-x", "subset": "Algorithm", "difficulty": "medium", "title": "X",
            "prompt": "\"\"\"\nDo x.\n\"\"\"\nclass Solution:\n", "source": {"url": "https://leetcode.com/problems/x"}});
        let meta = crate::meta::parse_meta(&meta_toml(&r)).expect("valid [meta]");
        assert_eq!((meta.subset.as_str(), meta.difficulty.as_str(), meta.title.as_str()), ("algorithm", "medium", "X"));
        assert_eq!(meta.source, "https://leetcode.com/problems/x");
        assert_eq!(description(&r).as_deref(), Some("Do x.\n"));
    }

    #[test]
    fn humaneval_has_no_difficulty_and_is_basic() {
        let r = json!({"task_id": "HumanEval-3", "subset": "HumanEval-V", "difficulty": null, "title": null, "source": {"number": 3}});
        let meta = crate::meta::parse_meta(&meta_toml(&r)).expect("valid [meta]");
        assert_eq!(
            (meta.subset.as_str(), meta.difficulty.as_str(), meta.title.as_str()),
            ("basic", "easy", "HumanEval-3")
        );
        assert_eq!(meta.source, "openai/human-eval HumanEval/3");
    }
}
