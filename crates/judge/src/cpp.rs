//! C++ candidates of whole-program problems: recognised, compiled with the
//! system `g++` outside the sandbox, and handed to the sandbox as an
//! executable ([`flowbench_exec::Job::Binary`]).
//!
//! # How it works
//!
//! A sample is C++ when its `language` field says `cpp` (or `c++`), or
//! when it has no `completion` and its `response` holds a fenced `cpp`
//! block. Its source is compiled with `g++ -O2 -std=c++17` in a temporary
//! directory under limits of its own (CPU, memory, wall clock): the
//! compiler is the system's, not untrusted code, but a candidate can make
//! it work hard. A failed compilation is a verdict on the candidate
//! (`compile error`); no compiler on `PATH` refuses the sample. Results are
//! cached by a hash of the compiler's version, the flags and the source
//! (`$XDG_CACHE_HOME/flowbench/cpp`, `FLOWBENCH_CACHE=off` disables it),
//! except a compilation stopped by a limit, which may be the machine's load.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{Map, Value as Json};
use sha2::{Digest, Sha256};

/// The compiler and its flags (the issue's, competitive programming's).
pub const COMPILER: &str = "g++";
pub const FLAGS: &[&str] = &["-O2", "-std=c++17"];

/// Limits of one compilation.
const COMPILE_WALL: Duration = Duration::from_secs(60);
const COMPILE_CPU_S: u64 = 60;
const COMPILE_MEMORY: u64 = 2 << 30;

/// Why a C++ sample has no executable.
#[derive(Debug)]
pub enum CompileFailure {
    /// The source does not compile: a verdict (the diagnostics).
    Rejected(String),
    /// Nothing can compile it here (no compiler, cannot start it): the
    /// sample is refused, never judged.
    Unavailable(CompilerUnavailable),
}

/// Why nothing here can compile a C++ sample.
#[derive(Debug, thiserror::Error)]
pub enum CompilerUnavailable {
    #[error("a C++ sample needs a C++ compiler, and there is no `{COMPILER}` on PATH (install g++)")]
    NotOnPath,
    /// The compilation's directory, source file, process or executable
    /// failed.
    #[error("cannot compile C++: {0}")]
    Io(std::io::Error),
    #[error("no compiler stderr")]
    NoStderr,
}

/// An executable, or why there is none.
pub type Compiled = Result<Arc<[u8]>, CompileFailure>;

/// The C++ source of a sample, or `None` for a Python one.
pub fn cpp_source(fields: &Map<String, Json>) -> Option<String> {
    let language = fields.get("language").and_then(Json::as_str).map(str::to_ascii_lowercase);
    let completion = fields.get("completion").and_then(Json::as_str);
    let response = fields.get("response").and_then(Json::as_str);
    let declared = matches!(language.as_deref(), Some("cpp" | "c++"));
    match (completion, response) {
        (Some(code), _) if declared => Some(code.to_string()),
        (None, Some(text)) => fenced_cpp(text).or_else(|| declared.then(|| text.to_string())),
        _ => None,
    }
}

/// The first ```cpp (or ```c++) fenced block of a response.
fn fenced_cpp(text: &str) -> Option<String> {
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(tag) = line.trim().strip_prefix("```") else { continue };
        let tag = tag.trim().to_ascii_lowercase();
        if tag != "cpp" && tag != "c++" {
            // Skip this block entirely.
            for inner in lines.by_ref() {
                if inner.trim() == "```" {
                    break;
                }
            }
            continue;
        }
        let body: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        return Some(body.join("\n") + "\n");
    }
    None
}

/// The compiler's version line, `None` when there is no `g++` to run.
pub fn compiler_version() -> Option<String> {
    static VERSION: OnceLock<Option<String>> = OnceLock::new();
    VERSION
        .get_or_init(|| {
            let out = Command::new(COMPILER).arg("--version").stdin(Stdio::null()).output().ok()?;
            out.status.success().then(|| String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or("").to_string())
        })
        .clone()
}

/// The executable of `source`, from the cache or compiled now.
pub fn compile(source: &str) -> Compiled {
    let Some(version) = compiler_version() else {
        return Err(CompileFailure::Unavailable(CompilerUnavailable::NotOnPath));
    };
    let key = cache_key(&version, source);
    if let Some(hit) = cached(&key) {
        return hit;
    }
    let (result, cacheable) = compile_now(source)?;
    if cacheable {
        store(&key, &result);
    }
    result
}

fn cache_key(version: &str, source: &str) -> String {
    let mut h = Sha256::new();
    for part in [version, &FLAGS.join(" "), source] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn cache_dir() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| flowbench_support::user_cache::dir("cpp")).as_deref()
}

/// A cached executable (`<key>.bin`) or compile error (`<key>.err`).
fn cached(key: &str) -> Option<Compiled> {
    let dir = cache_dir()?;
    if let Ok(bytes) = std::fs::read(dir.join(format!("{key}.bin"))) {
        return Some(Ok(bytes.into()));
    }
    let err = std::fs::read_to_string(dir.join(format!("{key}.err"))).ok()?;
    Some(Err(CompileFailure::Rejected(err)))
}

/// Best effort: a cache that cannot be written only costs a compilation.
fn store(key: &str, result: &Compiled) {
    let Some(dir) = cache_dir() else { return };
    let (name, bytes): (String, &[u8]) = match result {
        Ok(exe) => (format!("{key}.bin"), exe),
        Err(CompileFailure::Rejected(diag)) => (format!("{key}.err"), diag.as_bytes()),
        Err(CompileFailure::Unavailable(_)) => return,
    };
    if std::fs::create_dir_all(dir).is_ok() {
        let _ = flowbench_support::outfile::write_atomic(&dir.join(name), bytes);
    }
}

/// Compiles in a fresh directory; the flag says whether the result may be
/// cached (not when a limit stopped the compiler).
fn compile_now(source: &str) -> Result<(Compiled, bool), CompileFailure> {
    let unavailable = |e: std::io::Error| CompileFailure::Unavailable(CompilerUnavailable::Io(e));
    let dir = tempfile::Builder::new().prefix("flowbench-cpp-").tempdir().map_err(unavailable)?;
    let (src, exe) = (dir.path().join("main.cpp"), dir.path().join("main"));
    std::fs::write(&src, source).map_err(unavailable)?;
    let mut cmd = Command::new(COMPILER);
    cmd.args(FLAGS).arg("-o").arg(&exe).arg(&src).current_dir(dir.path());
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
    limit_compiler(&mut cmd);
    let mut child = cmd.spawn().map_err(unavailable)?;
    let mut stderr = child.stderr.take().ok_or(CompileFailure::Unavailable(CompilerUnavailable::NoStderr))?;
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait().map_err(unavailable)? {
            Some(status) => break Some(status),
            None if started.elapsed() > COMPILE_WALL => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let diagnostics = reader.join().unwrap_or_default();
    let diagnostics = diagnostics.replace(&format!("{}/", dir.path().display()), "");
    Ok(match status {
        Some(s) if s.success() => (std::fs::read(&exe).map(Arc::from).map_err(unavailable), true),
        Some(s) if s.code().is_some() => (Err(CompileFailure::Rejected(diagnostics)), true),
        _ => (Err(CompileFailure::Rejected(format!("the compiler exceeded its limits\n{diagnostics}"))), false),
    })
}

/// CPU time and address space of the compiler, set in the child before
/// it starts.
fn limit_compiler(cmd: &mut Command) {
    use std::os::unix::process::CommandExt as _;
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between
    // fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            for (resource, value) in [(libc::RLIMIT_CPU, COMPILE_CPU_S), (libc::RLIMIT_AS, COMPILE_MEMORY)] {
                let limit = libc::rlimit { rlim_cur: value, rlim_max: value };
                if libc::setrlimit(resource, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(v: serde_json::Value) -> Map<String, Json> {
        v.as_object().cloned().expect("object")
    }

    #[test]
    fn recognises_cpp_samples() {
        let declared = fields(json!({"language": "cpp", "completion": "int main(){}"}));
        assert_eq!(cpp_source(&declared).as_deref(), Some("int main(){}"));
        let fenced = fields(json!({"response": "Here:\n\n```python\nx\n```\n```c++\nint main() {}\n```\n"}));
        assert_eq!(cpp_source(&fenced).as_deref(), Some("int main() {}\n"));
        assert_eq!(cpp_source(&fields(json!({"completion": "print(1)"}))), None);
        assert_eq!(cpp_source(&fields(json!({"response": "```python\nprint(1)\n```"}))), None);
    }

    #[test]
    fn cache_key_depends_on_every_input() {
        let a = cache_key("g++ 12", "int main(){}");
        assert_ne!(a, cache_key("g++ 13", "int main(){}"));
        assert_ne!(a, cache_key("g++ 12", "int main(){ }"));
        assert_eq!(a.len(), 64);
    }
}
