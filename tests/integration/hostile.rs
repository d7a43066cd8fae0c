//! The hostile-candidate suite: every `tests/hostile/*.py` states its job
//! kind and expected verdict in its header; each must get that verdict
//! within a bounded judge wall time, leave no process behind and change
//! nothing outside the sandbox. The compiled C++ programs of
//! `tests/hostile/cpp/` (forking, a socket, writing outside their
//! directory) must be confined exactly like Python.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use flowbench::exec::{CallArgs, CallStyle, ExecConfig, Executor, Job, Limits, Outcome, Status};
use flowbench::judge::cpp;
use serde_json::{Value, json};

/// The judge may wait at most this long for any hostile job.
const JUDGE_BOUND: Duration = Duration::from_secs(10);

struct Case {
    name: String,
    source: String,
    entry: Option<String>,
    subprocess: bool,
    expect: Vec<String>,
}

fn load_cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/hostile")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let source = std::fs::read_to_string(&p).expect("read case");
            let header =
                |key: &str| source.lines().find_map(|l| l.strip_prefix(&format!("# {key}: ")).map(str::to_string));
            let job = header("job").unwrap_or_else(|| panic!("{}: no `# job:` line", p.display()));
            Case {
                name: p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
                entry: job.strip_prefix("calls ").map(str::to_string),
                subprocess: header("subprocess").is_some_and(|v| v == "yes"),
                expect: header("expect")
                    .unwrap_or_else(|| panic!("{}: no `# expect:` line", p.display()))
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
                source,
            }
        })
        .collect()
}

fn executor(allow_subprocess: bool) -> Executor {
    Executor::start(ExecConfig {
        workers: 2,
        memory_bytes: 512 << 20,
        output_cap: 64 << 10,
        file_size_cap: 4 << 20,
        scratch_bytes: 16 << 20,
        allow_subprocess,
        max_processes: 16,
        ..ExecConfig::default()
    })
    .unwrap_or_else(|e| panic!("executor: {e}"))
}

fn status_matches(status: &Status, want: &str) -> bool {
    match (status, want.split_once(':')) {
        (Status::Raised { class, .. }, Some(("raised", c))) => class == c,
        (Status::Completed, None) => want == "completed",
        (Status::TimedOut, None) => want == "timeout",
        (Status::MemoryLimit, None) => want == "memory",
        (Status::OutputLimit, None) => want == "output",
        (Status::Crashed { .. }, None) => want == "crashed",
        _ => false,
    }
}

/// Held by each test for its whole run: the survivor check looks at every
/// process on the machine, so one test's fork bomb, alive while it runs,
/// must not count as the other test's survivor.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Processes hostile cases mark with a `fbsurv` name that are still alive.
fn survivors() -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| std::fs::read_to_string(e.path().join("comm")).ok())
        .filter(|comm| comm.starts_with("fbsurv"))
        .collect()
}

/// The first argument each case is called with (0 unless it needs context).
fn first_arg(name: &str, ctx: &Context) -> Value {
    match name {
        "socket_localhost" => json!(ctx.port),
        "delete_outside" => json!(ctx.victim.to_string_lossy()),
        "proc_judge_memory" | "kill_everything" => json!(std::process::id()),
        _ => json!(0),
    }
}

struct Context {
    port: u16,
    victim: PathBuf,
}

fn run_case(exec: &Executor, case: &Case, ctx: &Context) -> Outcome {
    let limits = Limits { wall: Duration::from_secs(1), cpu: Duration::from_secs(1) };
    let job = match &case.entry {
        None => Job::Script { source: case.source.clone(), limits },
        Some(entry) => Job::Calls {
            source: case.source.clone(),
            entry_point: entry.clone(),
            call_style: CallStyle::Function,
            calls: [first_arg(&case.name, ctx), json!(1)]
                .into_iter()
                .map(|a| CallArgs { args: vec![a], kwargs: Default::default() })
                .collect(),
            limits,
        },
    };
    exec.run(&job)
}

fn check(case: &Case, o: &Outcome) -> Result<(), String> {
    for want in &case.expect {
        let (key, val) = want.split_once('=').unwrap_or((want.as_str(), ""));
        let call = |i: usize| o.calls.get(i).ok_or_else(|| format!("no call {i}"));
        let ok = match key {
            "status" => status_matches(&o.status, val),
            "call" => status_matches(&call(0)?.status, val),
            "second" => status_matches(&call(1)?.status, val),
            "value" => {
                let want: Value = serde_json::from_str(val).map_err(|e| format!("bad expect {val}: {e}"))?;
                call(0)?.value.as_ref() == Some(&want)
            }
            "unencodable" => call(0)?.value.is_none() && call(0)?.unencodable.is_some(),
            _ => return Err(format!("unknown expectation {want}")),
        };
        if !ok {
            return Err(format!("expected {want}"));
        }
    }
    Ok(())
}

#[test]
#[ignore = "heavy: the hostile suite, one case at a time in the real sandbox"]
fn hostile_candidates_get_the_right_verdict_and_leave_nothing_behind() {
    let _alone = one_at_a_time();
    let cases = load_cases();
    assert!(cases.len() >= 30, "hostile suite shrank to {}", cases.len());
    let plain = executor(false);
    let forking = executor(true);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listener");
    listener.set_nonblocking(true).expect("nonblocking");
    let victim_dir = tempfile::Builder::new()
        .prefix("flowbench-victim-")
        .tempdir_in("/var/lib")
        .or_else(|_| tempfile::tempdir())
        .expect("victim dir");
    let victim = victim_dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").expect("victim");
    for (path, mode) in [(victim_dir.path(), 0o777), (victim.as_path(), 0o666)] {
        std::os::unix::fs::PermissionsExt::set_mode(&mut std::fs::metadata(path).expect("meta").permissions(), mode);
        std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(mode)).expect("chmod");
    }
    let ctx = Context { port: listener.local_addr().expect("addr").port(), victim: victim.clone() };
    let mut failures = Vec::new();
    for case in &cases {
        let exec = if case.subprocess { &forking } else { &plain };
        let t = Instant::now();
        let outcome = run_case(exec, case, &ctx);
        let took = t.elapsed();
        let mut verdict = check(case, &outcome);
        if took > JUDGE_BOUND {
            verdict = Err(format!("judge waited {took:?}"));
        }
        let alive = survivors();
        if !alive.is_empty() {
            verdict = Err(format!("survivors: {alive:?}"));
        }
        eprintln!(
            "{:<28} {:>7.0?} {:?} {:?}",
            case.name,
            took,
            outcome.status,
            outcome.calls.first().map(|c| (&c.status, &c.value, &c.unencodable))
        );
        if let Err(e) = verdict {
            failures.push(format!("{}: {e}; got {:?} calls {:?}", case.name, outcome.status, outcome.calls));
        }
    }
    assert!(listener.accept().is_err(), "a candidate reached the host's 127.0.0.1");
    assert_eq!(std::fs::read_to_string(&victim).ok().as_deref(), Some("precious"), "victim file changed");
    let entries = std::fs::read_dir(victim_dir.path()).map(|d| d.count()).unwrap_or(0);
    assert_eq!(entries, 1, "files appeared next to the victim");
    let host_tmp = std::fs::read_dir("/tmp")
        .map(|d| d.filter_map(|e| e.ok()).filter(|e| e.file_name().to_string_lossy().starts_with("fbjob-")).count());
    assert_eq!(host_tmp.unwrap_or(0), 0, "scratch directories leaked into the host's /tmp");
    assert!(failures.is_empty(), "hostile cases failed:\n{}", failures.join("\n"));
}

/// The victim directory and file: world-writable, outside the sandbox's
/// scratch space.
fn victim() -> (tempfile::TempDir, PathBuf) {
    let victim_dir = tempfile::Builder::new()
        .prefix("flowbench-victim-")
        .tempdir_in("/var/lib")
        .or_else(|_| tempfile::tempdir())
        .expect("victim dir");
    let victim = victim_dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").expect("victim");
    for (path, mode) in [(victim_dir.path(), 0o777), (victim.as_path(), 0o666)] {
        std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(mode)).expect("chmod");
    }
    (victim_dir, victim)
}

#[test]
fn hostile_cpp_programs_are_confined_like_python() {
    let _alone = one_at_a_time();
    if cpp::compiler_version().is_none() {
        let _ = std::io::Write::write_all(&mut std::io::stderr(), b"skipping: no g++ on PATH\n");
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/cpp");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/hostile/cpp")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 4, "C++ hostile cases: {paths:?}");
    let exec = executor(false);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listener");
    listener.set_nonblocking(true).expect("nonblocking");
    let port = listener.local_addr().expect("addr").port();
    let (victim_dir, victim) = victim();
    let mut failures = Vec::new();
    for path in &paths {
        let source = std::fs::read_to_string(path).expect("case");
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let want = source.lines().find_map(|l| l.strip_prefix("// expect: ")).expect("`// expect:` line").trim();
        let stdin = match name.as_str() {
            "socket" => format!("{port}\n"),
            "write_outside" => format!("{}\n", victim.display()),
            _ => String::new(),
        };
        let executable = cpp::compile(&source).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let limits = Limits { wall: Duration::from_secs(2), cpu: Duration::from_secs(2) };
        let t = Instant::now();
        let outcome = exec.run(&Job::Binary { executable, stdins: vec![stdin].into(), limits });
        let took = t.elapsed();
        let run = outcome.runs.first();
        let got = run.map(|r| (r.status.clone(), r.stdout.trim().to_string()));
        eprintln!("{name:<16} {took:>7.0?} {got:?}");
        if got != Some((Status::Completed, want.to_string())) || took > JUDGE_BOUND {
            failures.push(format!("{name}: expected {want:?}, got {got:?} in {took:?}"));
        }
        if !survivors().is_empty() {
            failures.push(format!("{name}: survivors {:?}", survivors()));
        }
    }
    assert!(listener.accept().is_err(), "a C++ candidate reached the host's 127.0.0.1");
    assert_eq!(std::fs::read_to_string(&victim).ok().as_deref(), Some("precious"), "victim file changed");
    assert_eq!(std::fs::read_dir(victim_dir.path()).map(|d| d.count()).unwrap_or(0), 1, "files appeared beside it");
    assert!(failures.is_empty(), "C++ hostile cases failed:\n{}", failures.join("\n"));
}
