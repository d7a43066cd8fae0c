//! The `rename` candidate: the reference with neutral names, from the
//! embedded `rename.py` (which parses the solution with `ast` and never
//! runs it), and the same renaming applied to the text around it (starter
//! code, the spec's parameter names). A whole program's top-level
//! variables are renamed as a function's locals are; its spec's `[stdin]`
//! format names fields of the input, not variables, and is left as it is.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Deserialize;

use super::candidates::Candidate;
use super::screen::Original;

const HELPER: &str = include_str!("rename.py");

/// The helper could not be run or answered something unreadable.
#[derive(Debug, thiserror::Error)]
pub enum RenameError {
    #[error("starting {}", .python.display())]
    Start {
        python: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("helper stdin")]
    NoStdin,
    #[error(transparent)]
    Send(std::io::Error),
    #[error("running the rename helper")]
    Run(#[source] std::io::Error),
    #[error("the rename helper answered no JSON: {stderr}")]
    Reply {
        /// What the helper wrote on its standard error, trimmed.
        stderr: String,
        #[source]
        source: serde_json::Error,
    },
    /// A key the answer must have (`source`, `names` when `ok`, else `error`).
    #[error("the rename helper's answer has no \"{key}\"")]
    MissingKey { key: &'static str },
}

/// Why a problem has no renamed candidate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoRename {
    #[error("a method of `class Solution` keeps its name (LeetCode's harness calls it)")]
    ClassStyle,
    /// The helper's own reason (the solution does not parse).
    #[error("{0}")]
    Helper(String),
    #[error("the entry point {entry_point} is not defined at the top of solution.py")]
    EntryPointNotDefined { entry_point: String },
    #[error("the program names no variable or function")]
    NothingToRename,
}

/// The helper's answer: `ok` with the renamed source and the names (old →
/// new), or not `ok` with its reason.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Reply {
    ok: bool,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    names: Option<BTreeMap<String, String>>,
    #[serde(default)]
    error: Option<String>,
}

/// What a readable reply says: the renamed source and its names, or the
/// helper's reason.
type Renamed = Result<(String, BTreeMap<String, String>), NoRename>;

impl Reply {
    fn parse(stdout: &[u8], stderr: &[u8]) -> Result<Reply, RenameError> {
        serde_json::from_slice(stdout)
            .map_err(|source| RenameError::Reply { stderr: String::from_utf8_lossy(stderr).trim().to_string(), source })
    }

    fn renamed(self) -> Result<Renamed, RenameError> {
        let missing = |key| RenameError::MissingKey { key };
        if !self.ok {
            return Ok(Err(NoRename::Helper(self.error.ok_or(missing("error"))?)));
        }
        Ok(Ok((self.source.ok_or(missing("source"))?, self.names.ok_or(missing("names"))?)))
    }
}

/// The renamed reference, or why there is none (a solution the helper
/// cannot read, a class-style entry point).
pub fn candidate(python: &Path, original: &Original) -> Result<Result<Candidate, NoRename>, RenameError> {
    let input = &original.input;
    if input.call_style != flowbench_exec::CallStyle::Function {
        return Ok(Err(NoRename::ClassStyle));
    }
    let request = serde_json::json!({"solution": input.solution, "entry_point": input.entry_point, "keep": ["valid"]});
    let mut child = Command::new(python)
        .args(["-c", HELPER])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| RenameError::Start { python: python.to_path_buf(), source })?;
    child
        .stdin
        .take()
        .ok_or(RenameError::NoStdin)?
        .write_all(request.to_string().as_bytes())
        .map_err(RenameError::Send)?;
    let out = child.wait_with_output().map_err(RenameError::Run)?;
    let (source, names) = match Reply::parse(&out.stdout, &out.stderr)?.renamed()? {
        Ok(renamed) => renamed,
        Err(why) => return Ok(Err(why)),
    };
    let change = if original.is_program() {
        // A whole program has no entry point to rename: its variables are
        // its names.
        if names.is_empty() {
            return Ok(Err(NoRename::NothingToRename));
        }
        format!("renamed {} names", names.len())
    } else {
        let Some(entry) = names.get(&input.entry_point) else {
            return Ok(Err(NoRename::EntryPointNotDefined { entry_point: input.entry_point.clone() }));
        };
        format!("renamed {} → {entry} and {} more names", input.entry_point, names.len() - 1)
    };
    Ok(Ok(Candidate { source, change, names }))
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

    fn renamed(reply: &str) -> Result<Renamed, RenameError> {
        Reply::parse(reply.as_bytes(), b"")?.renamed()
    }

    #[test]
    fn the_helpers_reply_is_read_and_a_missing_key_is_named() {
        let (source, names) = renamed(r#"{"ok": true, "source": "def f(a): pass\n", "names": {"g": "f", "x": "a"}}"#)
            .expect("readable")
            .expect("renamed");
        assert_eq!(source, "def f(a): pass\n");
        assert_eq!(names["x"], "a");
        let why = renamed(r#"{"ok": false, "error": "the solution does not parse: x"}"#).expect("readable");
        assert_eq!(why, Err(NoRename::Helper("the solution does not parse: x".into())));
        let missing = renamed(r#"{"ok": true, "source": "def f(): pass\n"}"#).expect_err("no names");
        assert!(matches!(missing, RenameError::MissingKey { key: "names" }), "{missing:?}");
        assert_eq!(missing.to_string(), "the rename helper's answer has no \"names\"");
        assert!(matches!(renamed(r#"{"ok": false}"#), Err(RenameError::MissingKey { key: "error" })));
    }

    #[test]
    fn an_unknown_key_or_no_json_is_an_unreadable_reply() {
        let unknown = renamed(r#"{"ok": true, "source": "", "names": {}, "extra": 1}"#).expect_err("unknown key");
        assert!(matches!(&unknown, RenameError::Reply { source, .. } if source.to_string().contains("extra")));
        let garbage = Reply::parse(b"Traceback", b" boom \n").expect_err("not JSON");
        assert_eq!(garbage.to_string(), "the rename helper answered no JSON: boom");
    }
}
