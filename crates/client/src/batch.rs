//! Running many requests: skip those already answered, send the rest
//! concurrently, append each answer as it arrives, and finally rewrite the
//! file in input order.
//!
//! The output is JSONL with one object per answered request, carrying the
//! request's id as `custom_id` (the OpenAI batch-output field) plus
//! whatever the caller's line builder adds. Failed requests write nothing,
//! so a re-run retries exactly them.

use std::collections::{BTreeMap, HashMap};
use std::fs::OpenOptions;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use serde_json::{Map, Value as Json};

use super::cache::Cache;
use super::http::{ChatClient, ClientError};
use flowbench_support::progress::Progress;

/// One request: a unique id and a `chat.completions` body.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub id: String,
    pub body: Json,
}

/// How a batch runs.
#[derive(Debug, Clone, Default)]
pub struct BatchOptions {
    /// Requests in flight at once.
    pub jobs: usize,
    pub cache: Option<Cache>,
}

/// What a batch did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BatchReport {
    /// Already in the output file from an earlier run.
    pub resumed: usize,
    /// Answered over the network in this run.
    pub fetched: usize,
    /// Answered from the cache.
    pub cached: usize,
    /// Request id → why it has no answer (retried on the next run).
    pub failed: BTreeMap<String, String>,
    /// Problems with the existing output file (partial or unreadable lines).
    pub warnings: Vec<String>,
}

/// Why a batch could not run or keep its answers (failed requests are not
/// errors: they are in [`BatchReport::failed`] and retried on a re-run).
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// Two requests share an id, so their answers could not be told apart.
    #[error("request ids are not unique")]
    DuplicateIds,
    /// The output file could not be read or written.
    #[error("{action} {}", path.display())]
    Io {
        /// What was being done ("opening", "writing", ...).
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl BatchError {
    fn io(action: &'static str, path: &Path, source: std::io::Error) -> BatchError {
        BatchError::Io { action, path: path.to_path_buf(), source }
    }
}

/// Answers `requests` into `output` (see the module docs). `to_line` turns
/// a request and its answer into the output object (`custom_id` is added).
pub fn run_batch<F>(
    client: &ChatClient,
    requests: &[Request],
    output: &Path,
    opts: &BatchOptions,
    progress: &dyn Progress,
    to_line: F,
) -> Result<BatchReport, BatchError>
where
    F: Fn(&Request, &Json) -> Map<String, Json> + Sync,
{
    let position: HashMap<&str, usize> = requests.iter().enumerate().map(|(i, r)| (r.id.as_str(), i)).collect();
    if position.len() != requests.len() {
        return Err(BatchError::DuplicateIds);
    }
    let mut report = BatchReport::default();
    let existing = read_existing(output, &mut report.warnings)?;
    let done: std::collections::HashSet<&str> = existing.iter().filter_map(|(id, _)| id.as_deref()).collect();
    let todo: Vec<&Request> = requests.iter().filter(|r| !done.contains(r.id.as_str())).collect();
    report.resumed = requests.len() - todo.len();
    if !todo.is_empty() {
        progress.add_total(todo.len() as u64);
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(output)
            .map_err(|e| BatchError::io("opening", output, e))?;
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel::<(usize, Result<(Json, bool), ClientError>)>();
        let mut write_error = None;
        std::thread::scope(|scope| {
            for worker in 0..opts.jobs.clamp(1, todo.len()) {
                let (tx, next, todo) = (tx.clone(), &next, &todo);
                scope.spawn(move || {
                    let mut rng = fastrand::Rng::with_seed(worker as u64 ^ 0x9e37_79b9_7f4a_7c15);
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(request) = todo.get(i) else { break };
                        if tx.send((i, answer(client, request, opts.cache.as_ref(), &mut rng))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            for (i, result) in rx {
                progress.advance();
                let request = todo[i];
                match result {
                    Ok((answer, from_cache)) => {
                        if from_cache {
                            report.cached += 1;
                        } else {
                            report.fetched += 1;
                        }
                        let line = output_line(request, &to_line(request, &answer));
                        // One write per line: a kill leaves at most one partial line.
                        if write_error.is_none() {
                            write_error = file.write_all(line.as_bytes()).err();
                        }
                    }
                    Err(e) => {
                        progress.note(&format!("request {} failed (retried on re-run): {e}", request.id));
                        report.failed.insert(request.id.clone(), e.to_string());
                    }
                }
            }
        });
        if let Some(e) = write_error {
            return Err(BatchError::io("writing", output, e));
        }
    }
    rewrite_in_order(output, &position, &mut report.warnings)?;
    Ok(report)
}

fn answer(
    client: &ChatClient,
    request: &Request,
    cache: Option<&Cache>,
    rng: &mut fastrand::Rng,
) -> Result<(Json, bool), ClientError> {
    let key = cache.map(|_| Cache::key(client.url(), &request.id, &request.body));
    if let (Some(cache), Some(key)) = (cache, &key)
        && let Some(hit) = cache.get(key)
    {
        return Ok((hit, true));
    }
    let json = client.complete(&request.body, rng)?;
    if let (Some(cache), Some(key)) = (cache, &key) {
        // A cache that cannot be written only costs a future re-request.
        let _ = cache.put(key, &json);
    }
    Ok((json, false))
}

fn output_line(request: &Request, fields: &Map<String, Json>) -> String {
    let mut map = Map::new();
    map.insert("custom_id".into(), Json::String(request.id.clone()));
    for (k, v) in fields {
        if k != "custom_id" {
            map.insert(k.clone(), v.clone());
        }
    }
    let mut line = Json::Object(map).to_string();
    line.push('\n');
    line
}

/// The output file's lines as (custom_id, line); a partial last line (an
/// interrupted run) is cut off the file, unreadable lines are reported.
fn read_existing(output: &Path, warnings: &mut Vec<String>) -> Result<Vec<(Option<String>, String)>, BatchError> {
    if !output.exists() {
        return Ok(Vec::new());
    }
    let mut file =
        OpenOptions::new().read(true).write(true).open(output).map_err(|e| BatchError::io("opening", output, e))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(|e| BatchError::io("reading", output, e))?;
    if !bytes.is_empty() && !bytes.ends_with(b"\n") {
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        file.set_len(keep as u64).map_err(|e| BatchError::io("truncating", output, e))?;
        bytes.truncate(keep);
        warnings.push(format!("{}: dropped a partial last line (interrupted run)", output.display()));
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut lines = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let id = serde_json::from_str::<Json>(line)
            .ok()
            .and_then(|j| j.get("custom_id").and_then(Json::as_str).map(str::to_string));
        if id.is_none() {
            warnings.push(format!("{}:{}: not an answer line (no `custom_id`); dropped", output.display(), n + 1));
        }
        lines.push((id, line.to_string()));
    }
    Ok(lines)
}

/// Rewrites the output: known ids in request order (first answer wins),
/// then lines of ids not in this batch, in file order, so no work is lost.
fn rewrite_in_order(
    output: &Path,
    position: &HashMap<&str, usize>,
    warnings: &mut Vec<String>,
) -> Result<(), BatchError> {
    if !output.exists() {
        return Ok(());
    }
    let lines = read_existing(output, warnings)?;
    let mut known: BTreeMap<usize, String> = BTreeMap::new();
    let mut foreign = Vec::new();
    for (id, line) in lines {
        let Some(id) = id else { continue };
        match position.get(id.as_str()) {
            Some(&i) => match known.entry(i) {
                std::collections::btree_map::Entry::Occupied(_) => {
                    warnings.push(format!("{}: duplicate answer for {id}; kept the first", output.display()));
                }
                std::collections::btree_map::Entry::Vacant(slot) => {
                    slot.insert(line);
                }
            },
            None => foreign.push(line),
        }
    }
    let dir = output.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp =
        tempfile::NamedTempFile::new_in(dir).map_err(|e| BatchError::io("creating a temporary file in", dir, e))?;
    let written = known.values().chain(foreign.iter()).try_for_each(|line| writeln!(tmp, "{line}"));
    written.and_then(|()| tmp.flush()).map_err(|e| BatchError::io("writing", tmp.path(), e))?;
    tmp.persist(output).map_err(|e| BatchError::io("replacing", output, e.error))?;
    Ok(())
}
