//! `build --shard I/N` and `build merge`: a bank built on many machines.
//!
//! A shard builds the problems it owns (`flowbench_support::shard`: position `i` of the
//! bank's problems in build order, i.e. by directory name, belongs to shard
//! `i mod N`) into its own directory, exactly as an unsharded build writes
//! them (artefacts and `.cache/<problem>.json` entries), and records in
//! `shard.json` what the merge needs: every problem's `Built` (by the hash of
//! its cache entry, which holds it, so the shard does not store it twice;
//! in full for a problem that failed before it could be cached), the
//! options, the flowbench binary, the whole bank's problem list and the
//! digest of its inputs. It writes no bank-level file (`<subset>.jsonl`, Table 1, gallery,
//! manifest): those span problems.
//!
//! The merge checks that the shards are one split of one bank (same count,
//! every index once, same binary, options and bank bytes), copies every
//! artefact and cache entry (each checked against the hash its shard
//! recorded), then writes the bank-level files from the merged `Built` list
//! with `dist::write_dist` and the no-op stamp with `unchanged::record`, so
//! the result is byte for byte the `dist/` one unsharded `build` writes, and
//! a later unsharded `build` of the same bank finds it up to date.

use std::path::{Component, Path, PathBuf};

use flowbench_support::FileError;
use serde::{Deserialize, Serialize};

use super::build::{BuildOptions, Built};
use super::cache::{CACHE_DIR, CacheEntry, WriteError, sha256_hex, write_if_changed};
use super::dist::{BANK_FILES, Manifest, prune, remove_if_present, write_dist};
use super::styles::BuildStyle;
use flowbench_dist::manifest::LeftOut;
use flowbench_support::outfile::RefusedOutput;
use flowbench_support::shard::Shard;

/// The shard's record, in its output directory.
pub const SHARD_FILE: &str = "shard.json";

/// Bumped when `shard.json` changes shape.
const SHARD_FORMAT: &str = "flowbench-build-shard-1";

/// The options that decide artefacts, as a shard records them (the time
/// limit in nanoseconds, so the merge rebuilds exactly the same options).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardOptions {
    pub deny_warnings: bool,
    pub allow_ambiguous: bool,
    pub time_limit_ns: u64,
    pub styles: Vec<BuildStyle>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<LeftOut>,
}

impl ShardOptions {
    pub fn of(opts: &BuildOptions) -> ShardOptions {
        ShardOptions {
            deny_warnings: opts.deny_warnings,
            allow_ambiguous: opts.allow_ambiguous,
            time_limit_ns: u64::try_from(opts.time_limit.as_nanos()).unwrap_or(u64::MAX),
            styles: opts.styles.clone(),
            left_out: opts.left_out.clone(),
        }
    }

    fn build_options(&self, out: &Path, weak_sandbox: Option<String>) -> BuildOptions {
        BuildOptions {
            out: out.to_path_buf(),
            deny_warnings: self.deny_warnings,
            force: false,
            time_limit: std::time::Duration::from_nanos(self.time_limit_ns),
            styles: self.styles.clone(),
            allow_ambiguous: self.allow_ambiguous,
            weak_sandbox,
            left_out: self.left_out.clone(),
        }
    }

    /// The options on which `self` and `other` differ, as the command line spells them.
    fn differences(&self, other: &ShardOptions) -> Vec<String> {
        let mut out = Vec::new();
        let flag = |on: bool, name: &str| if on { name.to_string() } else { format!("no {name}") };
        if self.deny_warnings != other.deny_warnings {
            out.push(format!("{} vs {}", flag(self.deny_warnings, "--deny"), flag(other.deny_warnings, "--deny")));
        }
        if self.allow_ambiguous != other.allow_ambiguous {
            let (a, b) =
                (flag(self.allow_ambiguous, "--allow-ambiguous"), flag(other.allow_ambiguous, "--allow-ambiguous"));
            out.push(format!("{a} vs {b}"));
        }
        if self.time_limit_ns != other.time_limit_ns {
            let secs = |ns: u64| ns as f64 / 1e9;
            out.push(format!("--time-limit {} vs {}", secs(self.time_limit_ns), secs(other.time_limit_ns)));
        }
        if self.styles != other.styles {
            let names = |s: &[BuildStyle]| s.iter().map(|s| s.name.clone()).collect::<Vec<_>>().join(",");
            out.push(format!(
                "styles [{}] vs [{}] (--style/--styles/--theme/--robustness)",
                names(&self.styles),
                names(&other.styles)
            ));
        }
        if self.left_out != other.left_out {
            out.push("--left-out lists differ".into());
        }
        out
    }
}

/// `shard.json`: what one shard built and with what.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BuildShard {
    pub format: String,
    pub flowbench_version: String,
    /// SHA-256 of the flowbench executable that built the shard: the same
    /// version built differently may draw differently.
    pub binary_sha256: String,
    pub index: usize,
    pub count: usize,
    pub options: ShardOptions,
    /// Present only when the references ran with weak isolation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weak_sandbox: Option<String>,
    /// Every problem directory of the bank, in build order, as named on the
    /// command line: the list the shards split.
    pub problems: Vec<String>,
    /// `unchanged::inputs_digest` of the whole bank (every problem's files
    /// and the options): equal in every shard of one bank version.
    pub inputs_digest: String,
    /// This shard's problems, in build order.
    pub built: Vec<ShardProblem>,
}

/// One problem of a shard, as `shard.json` records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShardProblem {
    /// Built as its cache entry (`.cache/<name>.json`, whose SHA-256 this is) says.
    Cached { name: String, cache_sha256: String },
    /// Not cached (it failed before it was built): its `Built` in full.
    Inline(Box<Built>),
}

impl ShardProblem {
    fn name(&self) -> &str {
        match self {
            ShardProblem::Cached { name, .. } => name,
            ShardProblem::Inline(built) => &built.report.name,
        }
    }
}

impl BuildShard {
    fn shard(&self) -> Shard {
        Shard { index: self.index, count: self.count }
    }
}

/// What a shard build knows when it is done.
pub struct ShardBuild<'a> {
    pub shard: Shard,
    /// The whole bank's problem directories, in build order.
    pub bank: &'a [PathBuf],
    pub inputs_digest: String,
    pub binary_sha256: String,
    /// The shard's problems, built, in build order.
    pub built: &'a [Built],
}

/// The running executable, which a shard must name, cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum BinaryError {
    #[error("locating the running flowbench executable")]
    Locate(#[source] std::io::Error),
    #[error(transparent)]
    Read(#[from] FileError),
}

/// SHA-256 of the running executable, naming the binary in `shard.json`.
pub fn running_binary_sha256() -> Result<String, BinaryError> {
    let exe = std::env::current_exe().map_err(BinaryError::Locate)?;
    let bytes = std::fs::read(&exe).map_err(FileError::reading(&exe))?;
    Ok(sha256_hex(&bytes))
}

/// Finishes a shard's output directory: removes what no longer belongs to
/// it (artefacts of problems it does not build now, and the bank-level
/// files of a complete `dist/` this directory may have held, so it is never
/// taken for one) and writes `shard.json`.
pub fn write_shard(out: &Path, done: &ShardBuild, opts: &BuildOptions) -> Result<(), WriteError> {
    let artefacts = done.built.iter().flat_map(|b| b.hashes.iter().cloned()).collect();
    prune(out, &artefacts, done.built)?;
    for file in BANK_FILES {
        remove_if_present(&out.join(file))?;
    }
    remove_if_present(&out.join(CACHE_DIR).join(super::unchanged::STAMP_FILE))?;
    let record = BuildShard {
        format: SHARD_FORMAT.into(),
        flowbench_version: env!("CARGO_PKG_VERSION").into(),
        binary_sha256: done.binary_sha256.clone(),
        index: done.shard.index,
        count: done.shard.count,
        options: ShardOptions::of(opts),
        weak_sandbox: opts.weak_sandbox.clone(),
        problems: done.bank.iter().map(|d| d.display().to_string()).collect(),
        inputs_digest: done.inputs_digest.clone(),
        built: done.built.iter().map(|b| as_recorded(out, b)).collect(),
    };
    Ok(write_if_changed(&out.join(SHARD_FILE), super::summary::to_json(&record).as_bytes())?)
}

/// `built` by its cache entry when that entry holds exactly it, else in full.
fn as_recorded(out: &Path, built: &Built) -> ShardProblem {
    let name = &built.report.name;
    let cached = std::fs::read(out.join(CACHE_DIR).join(format!("{name}.json"))).ok().filter(|bytes| {
        serde_json::from_slice::<CacheEntry>(bytes).is_ok_and(|e| {
            e.built.report == built.report && e.built.record == built.record && e.built.hashes == built.hashes
        })
    });
    match cached {
        Some(bytes) => ShardProblem::Cached { name: name.clone(), cache_sha256: sha256_hex(&bytes) },
        None => ShardProblem::Inline(Box::new(built.clone())),
    }
}

/// One shard's directory and its record.
struct ReadShard {
    dir: PathBuf,
    record: BuildShard,
}

/// Why shards cannot be merged: each names the shard's file at fault.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error(transparent)]
    Output(#[from] RefusedOutput),
    #[error("build merge: no shard directories given")]
    NoShards,
    #[error(transparent)]
    Mismatch(#[from] ShardMismatch),
    #[error(
        "{}: built by flowbench {built_by}, but this is flowbench {}: merge with the flowbench that built the shards",
        .record.display(),
        env!("CARGO_PKG_VERSION")
    )]
    Version { record: PathBuf, built_by: String },
    #[error(
        "{}: not found: {} is not a build shard (or its build did not finish); \
         write one with `flowbench build --shard I/N -o {}`",
        .record.display(),
        .dir.display(),
        .dir.display()
    )]
    NotAShardDir { record: PathBuf, dir: PathBuf },
    #[error("{}: not a build shard's record", .record.display())]
    NotARecord {
        record: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("{}: shard format {format:?}, this flowbench reads {:?}: build the shard again", .record.display(), SHARD_FORMAT)]
    Format { record: PathBuf, format: String },
    #[error("{}: shard {index}/{count} is not a shard (need 0 <= I < N)", .record.display())]
    NotAShard { record: PathBuf, index: usize, count: usize },
    #[error("{}: problem name {name:?} is not a file name", .record.display())]
    ProblemName { record: PathBuf, name: String },
    #[error("{}: not a cache entry; build the shard again", .path.display())]
    NotACacheEntry {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("{}: artefact path {rel:?} leaves the shard directory", .record.display())]
    ArtefactPath { record: PathBuf, rel: String },
    /// A file the shard's record names cannot be read.
    #[error("{}: a file of shard {shard}; build the shard again", .path.display())]
    ShardFile {
        path: PathBuf,
        shard: Shard,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{}: changed since shard {shard} was built (not the bytes its shard.json records); build the shard again",
        .path.display()
    )]
    Changed { path: PathBuf, shard: Shard },
    #[error(transparent)]
    File(#[from] FileError),
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// Merges the build shards in `shard_dirs` into the `dist/` at `out`, as
/// one unsharded build of the bank writes it; returns its manifest.
pub fn merge(out: &Path, shard_dirs: &[PathBuf]) -> Result<Manifest, MergeError> {
    let sources: Vec<&Path> = shard_dirs.iter().map(PathBuf::as_path).collect();
    flowbench_support::outfile::refuse_dir_overlap("-o", out, &sources)?;
    let shards = shard_dirs.iter().map(|d| read_shard(d)).collect::<Result<Vec<_>, _>>()?;
    let Some(first) = shards.first() else { return Err(MergeError::NoShards) };
    for other in &shards[1..] {
        refuse_incompatible(first, other)?;
    }
    if first.record.flowbench_version != env!("CARGO_PKG_VERSION") {
        return Err(MergeError::Version {
            record: first.dir.join(SHARD_FILE),
            built_by: first.record.flowbench_version.clone(),
        });
    }
    let ordered = in_shard_order(&shards)?;
    refuse_misassigned(&ordered)?;
    std::fs::create_dir_all(out).map_err(FileError::creating(out))?;
    let per_shard = ordered.iter().map(|shard| copy_shard(shard, out)).collect::<Result<Vec<_>, _>>()?;
    let built = interleave(per_shard);
    let opts = first.record.options.build_options(out, weak_sandbox(&ordered)?);
    let manifest = write_dist(out, &built, &opts)?;
    super::unchanged::record(out, &first.record.inputs_digest, &manifest)?;
    Ok(manifest)
}

fn read_shard(dir: &Path) -> Result<ReadShard, MergeError> {
    let path = dir.join(SHARD_FILE);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(MergeError::NotAShardDir { record: path, dir: dir.to_path_buf() });
        }
        Err(e) => return Err(FileError::reading(&path)(e).into()),
    };
    let record: BuildShard = match serde_json::from_slice(&bytes) {
        Ok(record) => record,
        Err(source) => return Err(MergeError::NotARecord { record: path, source }),
    };
    if record.format != SHARD_FORMAT {
        return Err(MergeError::Format { record: path, format: record.format });
    }
    if record.count == 0 || record.index >= record.count {
        return Err(MergeError::NotAShard { record: path, index: record.index, count: record.count });
    }
    Ok(ReadShard { dir: dir.to_path_buf(), record })
}

/// Refuses two shards that are not parts of one build of one bank: another
/// split, another binary, other options, another bank or bank version.
/// Shards that cannot be merged into one build: each names the shard
/// directories (`a`, `b`) and what differs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardMismatch {
    #[error(
        "{} is shard {a_shard} but {} is shard {b_shard}: shards of different splits overlap; \
         merge the N shards of one `--shard I/N` split",
        .a.display(),
        .b.display()
    )]
    Splits { a: PathBuf, a_shard: Shard, b: PathBuf, b_shard: Shard },
    #[error(
        "{} was built by flowbench {} (binary sha256 {}) but {} by flowbench {} (binary sha256 {}): \
         build every shard with the same binary",
        .a.display(),
        .builds.0.version,
        short(&.builds.0.sha256),
        .b.display(),
        .builds.1.version,
        short(&.builds.1.sha256)
    )]
    Binary { a: PathBuf, b: PathBuf, builds: Box<(BuiltBy, BuiltBy)> },
    #[error(
        "{} and {} were built with different options ({}): build every shard with the same options",
        .a.display(),
        .b.display(),
        .differences.join("; ")
    )]
    Options { a: PathBuf, b: PathBuf, differences: Vec<String> },
    /// The two list different problems; `first_difference` says where.
    #[error(
        "{} and {} split different banks ({first_difference}): build every shard from the same \
         --problems, named by the same paths",
        .a.display(),
        .b.display()
    )]
    Banks { a: PathBuf, b: PathBuf, first_difference: String },
    #[error(
        "{} and {} were built from different versions of the bank (its problems' files differ between \
         the two builds): build every shard from the same bank version",
        .a.display(),
        .b.display()
    )]
    BankVersions { a: PathBuf, b: PathBuf },
    #[error(
        "{} ran its references with {a_weak:?} but {} with {b_weak:?}: one dist records one sandbox strength; \
         build the shards on machines with the same isolation",
        .a.display(),
        .b.display()
    )]
    SandboxStrength { a: PathBuf, a_weak: String, b: PathBuf, b_weak: String },
    #[error("{} and {} are both shard {shard}: overlapping shards (give each shard's directory once)", .a.display(), .b.display())]
    Overlapping { a: PathBuf, b: PathBuf, shard: Shard },
    #[error(
        "missing shard{} {} (of {count}): the merge needs every shard of the split",
        if .missing.len() == 1 { "" } else { "s" },
        .missing.iter().map(Shard::to_string).collect::<Vec<_>>().join(", ")
    )]
    Missing { missing: Vec<Shard>, count: usize },
    /// A damaged shard: the problems it holds are not those it owns.
    #[error(
        "{}: shard {shard} holds the problems [{}] but owns [{}]: a damaged shard; build it again",
        .record.display(),
        .held.join(", "),
        .owned.join(", ")
    )]
    Misassigned { record: PathBuf, shard: Shard, held: Vec<String>, owned: Vec<String> },
}

/// The flowbench that built a shard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltBy {
    pub version: String,
    pub sha256: String,
}

impl BuiltBy {
    fn of(record: &BuildShard) -> BuiltBy {
        BuiltBy { version: record.flowbench_version.clone(), sha256: record.binary_sha256.clone() }
    }
}

fn refuse_incompatible(a: &ReadShard, b: &ReadShard) -> Result<(), ShardMismatch> {
    let (ra, rb) = (&a.record, &b.record);
    let (da, db) = (a.dir.clone(), b.dir.clone());
    if ra.count != rb.count {
        return Err(ShardMismatch::Splits { a: da, a_shard: ra.shard(), b: db, b_shard: rb.shard() });
    }
    if ra.flowbench_version != rb.flowbench_version || ra.binary_sha256 != rb.binary_sha256 {
        return Err(ShardMismatch::Binary { a: da, b: db, builds: Box::new((BuiltBy::of(ra), BuiltBy::of(rb))) });
    }
    let differences = ra.options.differences(&rb.options);
    if !differences.is_empty() {
        return Err(ShardMismatch::Options { a: da, b: db, differences });
    }
    if ra.problems != rb.problems {
        let (sa, sb) = (da.display(), db.display());
        let first_difference = ra.problems.iter().zip(&rb.problems).position(|(x, y)| x != y).map_or_else(
            || format!("{sa} lists {} problems, {sb} {}", ra.problems.len(), rb.problems.len()),
            |i| format!("problem {i} is {} in {sa} but {} in {sb}", ra.problems[i], rb.problems[i]),
        );
        return Err(ShardMismatch::Banks { a: da, b: db, first_difference });
    }
    if ra.inputs_digest != rb.inputs_digest {
        return Err(ShardMismatch::BankVersions { a: da, b: db });
    }
    Ok(())
}

fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

/// The shards by index, refusing an index given twice and any missing.
fn in_shard_order(shards: &[ReadShard]) -> Result<Vec<&ReadShard>, ShardMismatch> {
    let count = shards[0].record.count;
    let mut by_index: Vec<Option<&ReadShard>> = vec![None; count];
    for shard in shards {
        let slot = &mut by_index[shard.record.index];
        if let Some(earlier) = slot {
            return Err(ShardMismatch::Overlapping {
                a: earlier.dir.clone(),
                b: shard.dir.clone(),
                shard: shard.record.shard(),
            });
        }
        *slot = Some(shard);
    }
    let missing: Vec<Shard> =
        (0..count).filter(|&i| by_index[i].is_none()).map(|i| Shard { index: i, count }).collect();
    if !missing.is_empty() {
        return Err(ShardMismatch::Missing { missing, count });
    }
    Ok(by_index.into_iter().flatten().collect())
}

/// Refuses a shard that does not hold exactly the problems it owns.
fn refuse_misassigned(ordered: &[&ReadShard]) -> Result<(), ShardMismatch> {
    let problems = &ordered[0].record.problems;
    let count = ordered.len();
    for shard in ordered {
        let owned: Vec<String> =
            problems.iter().skip(shard.record.index).step_by(count).map(|p| problem_name(p)).collect();
        let held: Vec<String> = shard.record.built.iter().map(|p| p.name().to_string()).collect();
        if owned != held {
            return Err(ShardMismatch::Misassigned {
                record: shard.dir.join(SHARD_FILE),
                shard: shard.record.shard(),
                held,
                owned,
            });
        }
    }
    Ok(())
}

/// Every problem's `Built` in build order, from each shard's (in shard
/// order, each in build order): position `i` is the `i / N`th of shard `i mod N`.
fn interleave(per_shard: Vec<Vec<Built>>) -> Vec<Built> {
    let total = per_shard.iter().map(Vec::len).sum();
    let mut iters: Vec<_> = per_shard.into_iter().map(Vec::into_iter).collect();
    let count = iters.len();
    (0..total).filter_map(|i| iters[i % count].next()).collect()
}

/// A problem's name: its directory's name, as `Built` reports it.
fn problem_name(dir: &str) -> String {
    Path::new(dir).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The isolation the references ran with: weak if any shard's was (the
/// shards must agree on how weak).
fn weak_sandbox(ordered: &[&ReadShard]) -> Result<Option<String>, ShardMismatch> {
    let mut weak: Option<&ReadShard> = None;
    for shard in ordered {
        let Some(this) = &shard.record.weak_sandbox else { continue };
        match weak {
            Some(w) if w.record.weak_sandbox.as_ref() != Some(this) => {
                return Err(ShardMismatch::SandboxStrength {
                    a: w.dir.clone(),
                    a_weak: w.record.weak_sandbox.clone().unwrap_or_default(),
                    b: shard.dir.clone(),
                    b_weak: this.clone(),
                });
            }
            _ => weak = Some(shard),
        }
    }
    Ok(weak.and_then(|w| w.record.weak_sandbox.clone()))
}

/// Copies a shard's cache entries and artefacts into `out`, each checked
/// against the hash the shard recorded for it; returns its problems' `Built`.
fn copy_shard(shard: &ReadShard, out: &Path) -> Result<Vec<Built>, MergeError> {
    let record_path = shard.dir.join(SHARD_FILE);
    let mut all = Vec::with_capacity(shard.record.built.len());
    for problem in &shard.record.built {
        let entry = Path::new(CACHE_DIR).join(format!("{}.json", problem.name()));
        if !is_plain_relative(&entry.to_string_lossy()) {
            return Err(MergeError::ProblemName { record: record_path, name: problem.name().to_string() });
        }
        let source = shard.dir.join(&entry);
        let built = match problem {
            ShardProblem::Cached { cache_sha256, .. } => {
                let bytes = checked(shard, &source, cache_sha256)?;
                let cached: CacheEntry = serde_json::from_slice(&bytes)
                    .map_err(|e| MergeError::NotACacheEntry { path: source.clone(), source: e })?;
                write_if_changed(&out.join(&entry), &bytes)?;
                cached.built
            }
            ShardProblem::Inline(built) => {
                // Its cache entry, if any, is an earlier build's: kept, as an
                // unsharded build keeps it.
                match std::fs::read(&source) {
                    Ok(bytes) => write_if_changed(&out.join(&entry), &bytes)?,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(FileError::reading(&source)(e).into()),
                }
                (**built).clone()
            }
        };
        for (rel, hash) in &built.hashes {
            if !is_plain_relative(rel) {
                return Err(MergeError::ArtefactPath { record: record_path, rel: rel.clone() });
            }
            write_if_changed(&out.join(rel), &checked(shard, &shard.dir.join(rel), hash)?)?;
        }
        all.push(built);
    }
    Ok(all)
}

/// The bytes of a shard's file, refused unless they hash to `hash`.
fn checked(shard: &ReadShard, path: &Path, hash: &str) -> Result<Vec<u8>, MergeError> {
    let bytes = std::fs::read(path).map_err(|source| MergeError::ShardFile {
        path: path.to_path_buf(),
        shard: shard.record.shard(),
        source,
    })?;
    if sha256_hex(&bytes) != hash {
        return Err(MergeError::Changed { path: path.to_path_buf(), shard: shard.record.shard() });
    }
    Ok(bytes)
}

/// Whether `rel` is a relative path of plain names (no `..`, no root).
fn is_plain_relative(rel: &str) -> bool {
    !rel.is_empty() && Path::new(rel).components().all(|c| matches!(c, Component::Normal(_)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::ProblemReport;

    fn built(name: &str) -> Built {
        let report = ProblemReport { name: name.into(), ok: true, ..ProblemReport::default() };
        Built { report, record: None, hashes: Vec::new(), rebuilt: false, machine_failure: None }
    }

    fn options() -> ShardOptions {
        ShardOptions {
            deny_warnings: false,
            allow_ambiguous: false,
            time_limit_ns: 10_000_000_000,
            styles: Vec::new(),
            left_out: Vec::new(),
        }
    }

    /// Shard `index` of `count` of the bank `a`…`e`, holding what it owns.
    fn shard(index: usize, count: usize) -> ReadShard {
        let problems: Vec<String> = ["a", "b", "c", "d", "e"].iter().map(|p| format!("bank/{p}")).collect();
        let owned = problems
            .iter()
            .skip(index)
            .step_by(count)
            .map(|p| ShardProblem::Inline(Box::new(built(&problem_name(p)))))
            .collect();
        let record = BuildShard {
            format: SHARD_FORMAT.into(),
            flowbench_version: env!("CARGO_PKG_VERSION").into(),
            binary_sha256: "b".repeat(64),
            index,
            count,
            options: options(),
            weak_sandbox: None,
            problems,
            inputs_digest: "d".into(),
            built: owned,
        };
        ReadShard { dir: PathBuf::from(format!("shard-{index}")), record }
    }

    fn names(built: &[Built]) -> Vec<&str> {
        built.iter().map(|b| b.report.name.as_str()).collect()
    }

    #[test]
    fn shards_interleave_back_into_build_order() {
        let shards = [shard(1, 3), shard(0, 3), shard(2, 3)];
        let ordered = in_shard_order(&shards).unwrap();
        refuse_misassigned(&ordered).unwrap();
        let per_shard = ordered.iter().map(|s| s.record.built.iter().map(|p| built(p.name())).collect()).collect();
        assert_eq!(names(&interleave(per_shard)), ["a", "b", "c", "d", "e"]);
    }

    #[test]
    fn a_missing_or_repeated_index_is_refused_by_name() {
        let missing = in_shard_order(&[shard(0, 4), shard(2, 4)]).map(|_| ()).unwrap_err();
        let (one, three) = (Shard { index: 1, count: 4 }, Shard { index: 3, count: 4 });
        assert_eq!(missing, ShardMismatch::Missing { missing: vec![one, three], count: 4 });
        assert!(missing.to_string().starts_with("missing shards 1/4, 3/4 (of 4)"), "{missing}");
        let twice = in_shard_order(&[shard(0, 2), shard(0, 2)]).map(|_| ()).unwrap_err();
        assert!(matches!(twice, ShardMismatch::Overlapping { shard: Shard { index: 0, count: 2 }, .. }), "{twice}");
    }

    #[test]
    fn a_shard_holding_problems_it_does_not_own_is_refused() {
        let mut odd = shard(1, 2);
        odd.record.built.push(ShardProblem::Inline(Box::new(built("e"))));
        let shards = [shard(0, 2), odd];
        let error = refuse_misassigned(&in_shard_order(&shards).unwrap()).unwrap_err();
        let ShardMismatch::Misassigned { held, owned, .. } = &error else { panic!("{error}") };
        assert_eq!((held.join(", "), owned.join(", ")), ("b, d, e".to_string(), "b, d".to_string()));
        assert!(error.to_string().contains("holds the problems [b, d, e] but owns [b, d]"), "{error}");
    }

    #[test]
    fn incompatible_shards_are_refused_with_what_differs() {
        let refuse = |change: fn(&mut BuildShard)| {
            let mut other = shard(1, 2);
            change(&mut other.record);
            refuse_incompatible(&shard(0, 2), &other).unwrap_err()
        };
        assert!(matches!(refuse(|r| r.count = 3), ShardMismatch::Splits { .. }));
        assert!(matches!(refuse(|r| r.binary_sha256 = "c".repeat(64)), ShardMismatch::Binary { .. }));
        let options = |e: ShardMismatch| match e {
            ShardMismatch::Options { differences, .. } => differences.join("; "),
            other => panic!("{other}"),
        };
        let limit = options(refuse(|r| r.options.time_limit_ns = 5_000_000_000));
        assert!(limit.contains("--time-limit 10 vs 5"), "{limit}");
        assert!(options(refuse(|r| r.options.deny_warnings = true)).contains("no --deny vs --deny"));
        let banks = refuse(|r| r.problems[2] = "other/c".into());
        let ShardMismatch::Banks { first_difference, .. } = &banks else { panic!("{banks}") };
        assert!(first_difference.starts_with("problem 2 is bank/c in shard-0 but other/c"), "{banks}");
        assert!(matches!(refuse(|r| r.inputs_digest = "e".into()), ShardMismatch::BankVersions { .. }));
        assert!(refuse_incompatible(&shard(0, 2), &shard(1, 2)).is_ok());
    }

    #[test]
    fn differing_weak_sandboxes_are_refused_one_is_kept() {
        let (mut a, b, mut c) = (shard(0, 3), shard(1, 3), shard(2, 3));
        a.record.weak_sandbox = Some("weak: no user namespace".into());
        assert_eq!(weak_sandbox(&[&a, &b, &c]).unwrap().as_deref(), Some("weak: no user namespace"));
        c.record.weak_sandbox = Some("weak: no seccomp".into());
        let mismatch = weak_sandbox(&[&a, &b, &c]).unwrap_err();
        assert!(matches!(&mismatch, ShardMismatch::SandboxStrength { b_weak, .. } if b_weak == "weak: no seccomp"));
        assert!(mismatch.to_string().contains("one dist records one sandbox strength"), "{mismatch}");
    }

    #[test]
    fn artefact_paths_stay_inside() {
        assert!(is_plain_relative("images/default/gcd.png"));
        assert!(!is_plain_relative("../x") && !is_plain_relative("/etc/x") && !is_plain_relative(""));
    }
}
