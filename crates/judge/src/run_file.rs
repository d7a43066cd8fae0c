//! The run file next to a results file (`results.run.json`): the settings
//! that change verdicts and the environment that produced them. A rerun on
//! the same results resumes only when its settings are the same; otherwise
//! it refuses (or, with `--force`, starts over), so old and new verdicts are
//! never mixed in one file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// A run file that could not be used, or a resume it refuses.
#[derive(Debug, thiserror::Error)]
pub enum RunFileError {
    #[error("reading {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not a flowbench run file", path.display())]
    NotARunFile {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    /// Encoding the run file (shown as the encoder's message alone).
    #[error("{error}")]
    Encode { path: PathBuf, error: serde_json::Error },
    #[error("writing {}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// `output` holds verdicts of other settings (each difference as
    /// `name: old → new`).
    #[error(
        "{} was judged with other settings ({}); resuming would mix verdicts. Use another -o, or --force to judge again from scratch",
        output.display(),
        differences.join(", ")
    )]
    OtherSettings { output: PathBuf, differences: Vec<String> },
    /// `output` holds verdicts and no run file says how they were made.
    #[error(
        "{} has results but no {} recording their settings; use another -o, or --force to judge again from scratch",
        output.display(),
        run_path(output).display()
    )]
    NoRunFile { output: PathBuf },
}

/// Everything that can change a verdict, as the user set it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// flowbench's version: judging code changes between versions.
    pub judge_version: String,
    pub mode: String,
    pub strict_types: bool,
    pub timeout_s: f64,
    pub clock: String,
    pub time_floor_s: f64,
    pub time_factor: f64,
    pub prelude: String,
    pub coerce_numbers: bool,
    pub extract: String,
    pub prefer_response: bool,
    /// FNV-1a of the problems file's bytes (tests and limits live there).
    pub problems_fnv1a: String,
}

/// The interpreter and sandbox that produced the verdicts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Environment {
    pub python: String,
    /// Installed versions of the pinned packages.
    pub packages: BTreeMap<String, String>,
    /// `full`, or `weak: <failed steps>` under `--allow-weak-sandbox`.
    pub sandbox: String,
}

/// The run file's content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunFile {
    pub settings: RunSettings,
    #[serde(default)]
    pub environment: Option<Environment>,
}

/// `results.jsonl` → `results.run.json`.
pub fn run_path(output: &Path) -> PathBuf {
    let stem = output.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "results".into());
    output.with_file_name(format!("{stem}.run.json"))
}

/// Reads the run file, `None` when absent.
pub fn read(output: &Path) -> Result<Option<RunFile>, RunFileError> {
    let path = run_path(output);
    match std::fs::read_to_string(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(RunFileError::Read { path, source }),
        Ok(text) => serde_json::from_str(&text).map(Some).map_err(|source| RunFileError::NotARunFile { path, source }),
    }
}

/// Writes the run file atomically.
pub fn write(output: &Path, run: &RunFile) -> Result<(), RunFileError> {
    let path = run_path(output);
    let text = match serde_json::to_string_pretty(run) {
        Ok(text) => text + "\n",
        Err(error) => return Err(RunFileError::Encode { path, error }),
    };
    flowbench_support::outfile::write_atomic(&path, text.as_bytes())
        .map_err(|source| RunFileError::Write { path, source })
}

/// The settings that differ, as `name: old → new`.
pub fn differences(old: &RunSettings, new: &RunSettings) -> Vec<String> {
    let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) =
        (serde_json::to_value(old), serde_json::to_value(new))
    else {
        return vec!["unreadable settings".into()];
    };
    b.iter()
        .filter(|(k, v)| a.get(*k) != Some(v))
        .map(|(k, v)| format!("{k}: {} → {v}", a.get(k).map_or("?".into(), ToString::to_string)))
        .collect()
}

/// Whether judging into `output` with `settings` may resume: `Ok` when the
/// file is new or was judged with the same settings, else an error listing
/// the differences.
pub fn check_resume(output: &Path, settings: &RunSettings) -> Result<(), RunFileError> {
    let has_results = std::fs::metadata(output).is_ok_and(|m| m.len() > 0);
    match read(output)? {
        Some(old) if old.settings == *settings => Ok(()),
        Some(old) => Err(RunFileError::OtherSettings {
            output: output.to_path_buf(),
            differences: differences(&old.settings, settings),
        }),
        None if has_results => Err(RunFileError::NoRunFile { output: output.to_path_buf() }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> RunSettings {
        RunSettings {
            judge_version: "0.1.0".into(),
            mode: "auto".into(),
            strict_types: false,
            timeout_s: 3.0,
            clock: "wall".into(),
            time_floor_s: 1.0,
            time_factor: 4.0,
            prelude: "codevision".into(),
            coerce_numbers: false,
            extract: "codevision".into(),
            prefer_response: false,
            problems_fnv1a: "0".into(),
        }
    }

    #[test]
    fn resume_needs_the_same_settings() {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("r.jsonl");
        assert!(check_resume(&out, &settings()).is_ok());
        std::fs::write(&out, "{}\n").expect("write");
        let refused = check_resume(&out, &settings());
        assert!(matches!(&refused, Err(RunFileError::NoRunFile { output }) if *output == out), "{refused:?}");
        write(&out, &RunFile { settings: settings(), environment: None }).expect("write");
        assert!(check_resume(&out, &settings()).is_ok());
        let other = RunSettings { mode: "native".into(), ..settings() };
        match check_resume(&out, &other) {
            Err(RunFileError::OtherSettings { differences, .. }) => {
                assert_eq!(differences, vec!["mode: \"auto\" → \"native\"".to_string()]);
            }
            other => panic!("{other:?}"),
        }
    }
}
