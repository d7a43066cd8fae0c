//! The bank-level files of `dist/`, written after every problem is built:
//! `<subset>.jsonl`, `table1.md`, `summary.md`/`.json`, `index.html` and
//! `manifest.json` (version, options, Table 1, a SHA-256 of every artefact).
//! Files a previous build left that this one did not produce are removed,
//! so `dist/` always matches its manifest.

use std::collections::BTreeMap;
use std::path::Path;

use flowbench_support::FileError;
use serde::{Deserialize, Serialize};

use super::build::{BuildOptions, Built};
use super::cache::{CACHE_DIR, WriteError, sha256_hex, write_if_changed};
use super::dist_record::DistRecord;
use super::meta::subset_order;
use super::styles::BuildStyle;
use super::summary::{Summary, to_json};
use super::table1::{self, Row};
use flowbench_chart::render::Style;
use flowbench_dist::manifest::LeftOut;

/// Options recorded in the manifest (what decides the artefacts).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestOptions {
    pub deny_warnings: bool,
    pub time_limit_s: f64,
    pub styles: Vec<BuildStyle>,
    /// Present only when the references ran with weak isolation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weak_sandbox: Option<String>,
}

/// `dist/manifest.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub flowbench_version: String,
    pub options: ManifestOptions,
    /// Style ids, in build order (`dist/images/<id>/`); each style's name
    /// and settings are in `options.styles`.
    pub styles: Vec<String>,
    /// `dist/`-relative names of the record files, one per subset.
    pub subsets: BTreeMap<String, String>,
    pub problems: usize,
    pub built: usize,
    /// Problems that failed, by task id.
    pub failed: Vec<String>,
    /// Problems of the bank's source it does not hold, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<LeftOut>,
    pub table1: Vec<Row>,
    /// SHA-256 of every artefact, by `dist/`-relative path.
    pub artefacts: BTreeMap<String, String>,
    /// Every parameter of each style (presets expanded), by style id.
    #[serde(default)]
    pub style_parameters: BTreeMap<String, Style>,
}

/// Writes the bank-level files and returns the manifest.
pub fn write_dist(out: &Path, built: &[Built], opts: &BuildOptions) -> Result<Manifest, WriteError> {
    let mut artefacts: BTreeMap<String, String> = BTreeMap::new();
    for b in built {
        artefacts.extend(b.hashes.iter().cloned());
    }
    let mut put = |rel: String, bytes: &[u8]| -> Result<(), FileError> {
        write_if_changed(&out.join(&rel), bytes)?;
        artefacts.insert(rel, sha256_hex(bytes));
        Ok(())
    };
    let records: Vec<&DistRecord> = built.iter().filter_map(|b| b.record.as_ref()).collect();
    let mut by_subset: BTreeMap<(usize, &str), String> = BTreeMap::new();
    for r in &records {
        let lines = by_subset.entry(subset_order(&r.subset)).or_default();
        lines.push_str(&serde_json::to_string(r)?);
        lines.push('\n');
    }
    let mut subsets = BTreeMap::new();
    for ((_, subset), lines) in &by_subset {
        let file = format!("{subset}.jsonl");
        put(file.clone(), lines.as_bytes())?;
        subsets.insert(subset.to_string(), file);
    }
    let owned: Vec<DistRecord> = records.iter().map(|r| (*r).clone()).collect();
    let table = table1::table1(&owned);
    let table_md = table1::markdown(&table);
    put("table1.md".into(), format!("# Table 1: the benchmark at a glance\n\n{table_md}").as_bytes())?;
    let summary = Summary::new(built.iter().map(|b| b.report.clone()).collect());
    put("summary.md".into(), summary.markdown().as_bytes())?;
    put("summary.json".into(), to_json(&summary).as_bytes())?;
    put("index.html".into(), super::gallery::gallery(built, &opts.styles).as_bytes())?;
    let manifest = Manifest {
        flowbench_version: env!("CARGO_PKG_VERSION").into(),
        options: ManifestOptions {
            deny_warnings: opts.deny_warnings,
            time_limit_s: opts.time_limit.as_secs_f64(),
            styles: opts.styles.clone(),
            weak_sandbox: opts.weak_sandbox.clone(),
        },
        styles: opts.styles.iter().map(|s| s.id.clone()).collect(),
        subsets,
        problems: built.len(),
        built: records.len(),
        failed: built.iter().filter(|b| !b.report.ok).map(|b| b.report.name.clone()).collect(),
        left_out: opts.left_out.clone(),
        table1: table,
        artefacts,
        style_parameters: opts
            .styles
            .iter()
            .map(|s| {
                let parameters = s
                    .parameters()
                    .map_err(|error| WriteError::Style { style: s.id.clone(), error: Box::new(error) })?;
                Ok((s.id.clone(), parameters))
            })
            .collect::<Result<_, WriteError>>()?,
    };
    write_if_changed(&out.join("manifest.json"), to_json(&manifest).as_bytes())?;
    prune(out, &manifest.artefacts, built)?;
    // A complete dist is no build shard (`build --shard` into this directory before).
    remove_if_present(&out.join(super::shard::SHARD_FILE))?;
    Ok(manifest)
}

/// The bank-level files `write_dist` writes beside the problems' artefacts
/// (and the `<subset>.jsonl` record files).
pub(super) const BANK_FILES: [&str; 5] = ["table1.md", "summary.md", "summary.json", "index.html", "manifest.json"];

/// Removes `path` unless it is already absent.
pub(super) fn remove_if_present(path: &Path) -> Result<(), FileError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(FileError::removing(path)(e)),
        _ => Ok(()),
    }
}

/// Removes the artefacts not in `artefacts` (by `out`-relative path) and the
/// cache entries of problems not in `built`.
pub(super) fn prune(out: &Path, artefacts: &BTreeMap<String, String>, built: &[Built]) -> Result<(), FileError> {
    let keep = |rel: &str| artefacts.contains_key(rel) || rel == "manifest.json";
    let remove = |file: &Path| std::fs::remove_file(file).map_err(FileError::removing(file));
    for dir in ["images", "mermaid", "descriptions"] {
        for file in walk(&out.join(dir)) {
            let rel = file.strip_prefix(out).unwrap_or(&file).to_string_lossy().replace('\\', "/");
            if !keep(&rel) {
                remove(&file)?;
            }
        }
        // A style this build does not draw leaves its directory empty
        // (`images/default/` after a `--theme dark` rebuild): remove it.
        remove_empty_dirs(&out.join(dir))?;
    }
    for entry in std::fs::read_dir(out).map_err(FileError::reading(out))?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".jsonl") && !keep(&name) && entry.path().is_file() {
            remove(&entry.path())?;
        }
    }
    let mut names: std::collections::BTreeSet<String> =
        built.iter().map(|b| format!("{}.json", b.report.name)).collect();
    names.insert(super::unchanged::STAMP_FILE.to_string());
    for entry in std::fs::read_dir(out.join(CACHE_DIR)).into_iter().flatten().flatten() {
        if !names.contains(&entry.file_name().to_string_lossy().into_owned()) {
            remove(&entry.path())?;
        }
    }
    Ok(())
}

/// Removes the empty directories below `dir` (not `dir` itself), deepest
/// first, so a directory left with only empty ones goes too.
fn remove_empty_dirs(dir: &Path) -> Result<(), FileError> {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            remove_empty_dirs(&path)?;
            if std::fs::read_dir(&path).map_err(FileError::reading(&path))?.next().is_none() {
                std::fs::remove_dir(&path).map_err(FileError::removing(&path))?;
            }
        }
    }
    Ok(())
}

/// Files under `dir`, recursively (none when it does not exist).
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files
}
