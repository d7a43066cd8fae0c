//! The results file: one JSON line per judged sample, appended as samples
//! finish so that an interrupted run resumes where it stopped; sorted into
//! input order once complete; shard files merged into one.
//!
//! A line keeps the sample's own fields (a recorded `passed`/`result` is
//! kept as `recorded_passed`/`recorded_result`) and adds [`Judged`].

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use super::problems_file::Diagnostic;
use super::samples::Sample;
use super::verdict::Verdict;

/// A results file that could not be read or written, by the step that
/// failed (a bad line is a [`Diagnostic`], not an error).
#[derive(Debug, thiserror::Error)]
pub enum ResultsFileError {
    #[error("reading results {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("opening {}", path.display())]
    Open {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Dropping an interrupted run's partial last line (shown as the
    /// system's message alone).
    #[error("{error}")]
    DropPartialLine { path: PathBuf, error: std::io::Error },
    #[error("writing {}", path.display())]
    Append {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Flushing an appended line (shown as the system's message alone).
    #[error("{error}")]
    Flush { path: PathBuf, error: std::io::Error },
    #[error("replacing {}", path.display())]
    Replace {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The fields flowbench adds to a sample: who and what was judged, how,
/// and the [`Verdict`] itself (flattened, so a line reads as one flat object).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judged {
    pub task_id: String,
    pub model: String,
    #[serde(default)]
    pub subset: Option<String>,
    #[serde(default)]
    pub difficulty: Option<String>,
    /// `legacy` or `native`.
    pub mode: String,
    /// What the verdict rests on (legacy verdicts can be forged).
    pub judge: String,
    #[serde(flatten)]
    pub verdict: Verdict,
    pub sample_key: String,
    pub sample_index: usize,
    /// Set (`weak: step: why; …`) when the sample ran with weaker isolation
    /// because the user passed `--allow-weak-sandbox`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<String>,
}

impl Judged {
    /// The record for `sample` judged with `verdict` (time rounded to the
    /// millisecond so reports do not carry clock noise).
    pub fn new(
        sample: &Sample,
        mut verdict: Verdict,
        mode: &str,
        judge: &str,
        subset: Option<String>,
        difficulty: Option<String>,
    ) -> Judged {
        verdict.time_s = (verdict.time_s * 1000.0).round() / 1000.0;
        Judged {
            task_id: sample.task_id.clone(),
            model: sample.model.clone(),
            subset,
            difficulty,
            mode: mode.to_string(),
            judge: judge.to_string(),
            verdict,
            sample_key: sample.key.clone(),
            sample_index: sample.index,
            sandbox: None,
        }
    }
}

/// The output line for a judged sample (no trailing newline).
pub fn record_line(sample: &Sample, judged: &Judged) -> String {
    let mut map = sample.fields.clone();
    for (from, to) in [("passed", "recorded_passed"), ("result", "recorded_result")] {
        if let Some(v) = map.shift_remove(from) {
            map.insert(to.to_string(), v);
        }
    }
    if let Ok(Json::Object(added)) = serde_json::to_value(judged) {
        for (k, v) in added {
            map.insert(k, v);
        }
    }
    Json::Object(map).to_string()
}

/// A results line read back.
#[derive(Debug, Clone)]
pub struct Record {
    pub judged: Judged,
    pub fields: Map<String, Json>,
}

/// Reads a results file; unreadable lines are reported and skipped.
pub fn read_records(path: &Path) -> Result<(Vec<Record>, Vec<Diagnostic>), ResultsFileError> {
    let text = match std::fs::read_to_string(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        other => other.map_err(|source| ResultsFileError::Read { path: path.to_path_buf(), source })?,
    };
    let mut records = Vec::new();
    let mut diags = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let diag = |message: String| Diagnostic { file: path.to_path_buf(), line: i + 1, message };
        let fields: Map<String, Json> = match serde_json::from_str(line) {
            Ok(f) => f,
            Err(e) => {
                diags.push(diag(format!("malformed results line: {e}")));
                continue;
            }
        };
        match serde_json::from_value::<Judged>(tame_numbers(&Json::Object(fields.clone()))) {
            Ok(judged) => records.push(Record { judged, fields }),
            Err(e) => diags.push(diag(format!("not a flowbench results line: {e}"))),
        }
    }
    Ok((records, diags))
}

/// A copy of `value` in which numbers beyond 64 bits (a sample's own
/// fields may hold any integer) are plain floats: [`Judged`]'s flattened
/// verdict buffers every field, and serde cannot buffer such numbers. The
/// record keeps the original fields, so they round-trip exactly.
fn tame_numbers(value: &Json) -> Json {
    match value {
        Json::Number(n) if n.as_i64().is_none() && n.as_u64().is_none() => {
            n.as_f64().and_then(serde_json::Number::from_f64).map_or(Json::Null, Json::Number)
        }
        Json::Array(items) => Json::Array(items.iter().map(tame_numbers).collect()),
        Json::Object(map) => Json::Object(map.iter().map(|(k, v)| (k.clone(), tame_numbers(v))).collect()),
        other => other.clone(),
    }
}

/// Makes `path` ready to append to: drops a partial last line left by an
/// interrupted run and returns the keys already judged.
pub fn prepare_resume(path: &Path) -> Result<(BTreeSet<String>, Vec<Diagnostic>), ResultsFileError> {
    if !path.exists() {
        return Ok((BTreeSet::new(), Vec::new()));
    }
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|source| ResultsFileError::Open { path: path.to_path_buf(), source })?;
    let dropping = |error| ResultsFileError::DropPartialLine { path: path.to_path_buf(), error };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(dropping)?;
    let mut diags = Vec::new();
    if !bytes.is_empty() && !bytes.ends_with(b"\n") {
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let line = bytes[..keep].iter().filter(|&&b| b == b'\n').count() + 1;
        file.set_len(keep as u64).map_err(dropping)?;
        file.seek(SeekFrom::End(0)).map_err(dropping)?;
        diags.push(Diagnostic {
            file: path.to_path_buf(),
            line,
            message: "dropped a partial last line (interrupted run)".into(),
        });
    }
    let (records, more) = read_records(path)?;
    diags.extend(more);
    Ok((records.into_iter().map(|r| r.judged.sample_key).collect(), diags))
}

/// Appends finished lines, one `write` per line so a kill leaves at most
/// one partial line (which [`prepare_resume`] drops).
pub struct Appender {
    file: File,
    path: PathBuf,
}

impl Appender {
    pub fn open(path: &Path) -> Result<Appender, ResultsFileError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|source| ResultsFileError::Open { path: path.to_path_buf(), source })?;
        Ok(Appender { file, path: path.to_path_buf() })
    }

    pub fn append(&mut self, line: &str) -> Result<(), ResultsFileError> {
        let mut buf = String::with_capacity(line.len() + 1);
        buf.push_str(line);
        buf.push('\n');
        let path = || self.path.clone();
        self.file.write_all(buf.as_bytes()).map_err(|source| ResultsFileError::Append { path: path(), source })?;
        self.file.flush().map_err(|error| ResultsFileError::Flush { path: path(), error })
    }
}

/// Deduplicates by sample key (first wins) and orders by input position.
pub fn sorted_unique(records: Vec<Record>) -> (Vec<Record>, usize) {
    let mut seen = BTreeSet::new();
    let mut out: Vec<Record> = Vec::with_capacity(records.len());
    let mut dropped = 0;
    for r in records {
        if seen.insert(r.judged.sample_key.clone()) {
            out.push(r);
        } else {
            dropped += 1;
        }
    }
    out.sort_by(|a, b| {
        (a.judged.sample_index, &a.judged.sample_key).cmp(&(b.judged.sample_index, &b.judged.sample_key))
    });
    (out, dropped)
}

/// Atomically replaces `path` with `records`, one line each.
pub fn write_records(path: &Path, records: &[Record]) -> Result<(), ResultsFileError> {
    let mut text = String::new();
    for r in records {
        text.push_str(&Json::Object(r.fields.clone()).to_string());
        text.push('\n');
    }
    flowbench_support::outfile::write_atomic(path, text.as_bytes())
        .map_err(|source| ResultsFileError::Replace { path: path.to_path_buf(), source })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample(i: usize) -> Sample {
        let fields = json!({"task_id": "t", "completion": "x", "passed": true, "result": "passed"});
        let Json::Object(fields) = fields else { unreachable!("object literal") };
        Sample { fields, task_id: "t".into(), model: "m".into(), code: "x".into(), index: i, key: format!("m/t#{i}:0") }
    }

    fn verdict(passed: bool) -> Verdict {
        Verdict::plain(passed, 0.01)
    }

    #[test]
    fn line_keeps_fields_and_renames_recorded_verdict() {
        let s = sample(0);
        let line = record_line(&s, &Judged::new(&s, verdict(false), "legacy", "note", None, None));
        let v: Json = serde_json::from_str(&line).expect("json");
        assert_eq!((v["passed"].clone(), v["recorded_passed"].clone()), (json!(false), json!(true)));
        assert_eq!((v["result"].clone(), v["recorded_result"].clone()), (json!("failed: "), json!("passed")));
        assert_eq!(v["completion"], json!("x"));
        assert_eq!(v["error_class"], json!("wrong answer"));
    }

    #[test]
    fn integers_beyond_64_bits_round_trip() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("r.jsonl");
        let mut s = sample(0);
        let big: Json = serde_json::from_str("123456789012345678901234567890").expect("number");
        s.fields.insert("seed".into(), big.clone());
        let line = record_line(&s, &Judged::new(&s, verdict(true), "native", "n", None, None));
        std::fs::write(&path, line + "\n").expect("write");
        let (records, diags) = read_records(&path).expect("read");
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(records.len(), 1);
        write_records(&path, &records).expect("write");
        assert!(std::fs::read_to_string(&path).expect("read").contains("\"seed\":123456789012345678901234567890"));
    }

    #[test]
    fn resume_drops_partial_line_and_knows_done_keys() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("r.jsonl");
        let mut app = Appender::open(&path).expect("open");
        for i in [1, 0] {
            let s = sample(i);
            app.append(&record_line(&s, &Judged::new(&s, verdict(true), "legacy", "n", None, None))).expect("append");
        }
        drop(app);
        let mut f = OpenOptions::new().append(true).open(&path).expect("open");
        f.write_all(b"{\"task_id\": \"t\", \"pass").expect("write");
        drop(f);
        let (done, diags) = prepare_resume(&path).expect("resume");
        assert_eq!(done.len(), 2);
        assert_eq!(diags.len(), 1);
        assert!(std::fs::read_to_string(&path).expect("read").ends_with("}\n"));
        let (records, _) = read_records(&path).expect("records");
        let (sorted, dropped) = sorted_unique(records.iter().cloned().chain(records.iter().cloned()).collect());
        assert_eq!((sorted.len(), dropped), (2, 2));
        assert_eq!(sorted[0].judged.sample_index, 0);
        write_records(&path, &sorted).expect("write");
        assert_eq!(read_records(&path).expect("records").0.len(), 2);
    }
}
