//! The `rename` candidate: the reference with neutral names, from the
//! embedded `rename.py` (which parses the solution with `ast` and never
//! runs it), and the same renaming applied to the text around it (starter
//! code, the spec's parameter names).

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::Context as _;

use super::candidates::Candidate;
use super::screen::Original;

const HELPER: &str = include_str!("rename.py");

/// The renamed reference, or why there is none (a solution the helper
/// cannot read, a class-style entry point).
pub fn candidate(python: &Path, original: &Original) -> anyhow::Result<Result<Candidate, String>> {
    let input = &original.input;
    if input.call_style != crate::exec::CallStyle::Function {
        return Ok(Err("a method of `class Solution` keeps its name (LeetCode's harness calls it)".into()));
    }
    let request = serde_json::json!({"solution": input.solution, "entry_point": input.entry_point, "keep": ["valid"]});
    let mut child = Command::new(python)
        .args(["-c", HELPER])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting {}", python.display()))?;
    child.stdin.take().context("helper stdin")?.write_all(request.to_string().as_bytes())?;
    let out = child.wait_with_output().context("running the rename helper")?;
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).with_context(|| {
        format!("the rename helper answered no JSON: {}", String::from_utf8_lossy(&out.stderr).trim())
    })?;
    if answer["ok"] != true {
        return Ok(Err(answer["error"].as_str().unwrap_or("the rename helper failed").to_string()));
    }
    let names: BTreeMap<String, String> = serde_json::from_value(answer["names"].clone()).unwrap_or_default();
    let Some(entry) = names.get(&input.entry_point) else {
        return Ok(Err(format!("the entry point {} is not defined at the top of solution.py", input.entry_point)));
    };
    Ok(Ok(Candidate {
        source: answer["source"].as_str().unwrap_or_default().to_string(),
        change: format!("renamed {} → {entry} and {} more names", input.entry_point, names.len() - 1),
        names,
    }))
}

/// `text` with every whole-word occurrence of an old name replaced.
pub fn apply(text: &str, names: &BTreeMap<String, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(names.get(word.as_str()).map_or(word.as_str(), String::as_str));
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// A spec table with its parameter tables and name-bearing strings renamed.
pub fn spec(doc: &mut toml::Table, names: &BTreeMap<String, String>) {
    for (key, value) in doc.iter_mut() {
        if key != "meta" {
            rename_value(value, names);
        }
    }
    if let Some(toml::Value::Table(params)) = doc.get_mut("params") {
        let old = std::mem::take(params);
        for (k, v) in old {
            params.insert(names.get(&k).cloned().unwrap_or(k), v);
        }
    }
}

fn rename_value(value: &mut toml::Value, names: &BTreeMap<String, String>) {
    match value {
        toml::Value::String(s) => *s = apply(s, names),
        toml::Value::Array(a) => a.iter_mut().for_each(|v| rename_value(v, names)),
        toml::Value::Table(t) => t.iter_mut().for_each(|(_, v)| rename_value(v, names)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_are_renamed_and_nothing_else() {
        let names: BTreeMap<String, String> =
            [("nums", "a"), ("binary_search", "f")].iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        assert_eq!(
            apply("def binary_search(nums: List[int]) -> int:  # nums_sorted", &names),
            "def f(a: List[int]) -> int:  # nums_sorted"
        );
        let mut doc: toml::Table = toml::from_str(
            "[params.nums]\nlen = [0, 5]\n[params.target]\noften_in = \"nums\"\n[meta]\ntitle = \"nums\"\n",
        )
        .expect("toml");
        spec(&mut doc, &names);
        assert!(doc["params"].get("a").is_some() && doc["params"].get("nums").is_none());
        assert_eq!(doc["params"]["target"]["often_in"].as_str(), Some("a"));
        assert_eq!(doc["meta"]["title"].as_str(), Some("nums"));
    }
}
