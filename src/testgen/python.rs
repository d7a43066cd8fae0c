//! Runs the embedded helper scripts (signature reading, generators,
//! mutants) with `python3`, in long-lived processes that answer a request
//! per line (a problem asks several times; starting and compiling the
//! scripts costs 50 ms a time). These scripts parse the solution with `ast`
//! and never execute it: every run of reference or mutant code goes
//! through the sandbox.

use std::collections::HashMap;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock, PoisonError};

const SIGNATURE: &str = include_str!("signature.py");
const VALUES: &str = include_str!("values.py");
const GEN: &str = include_str!("gen.py");
const CONSTRAINTS: &str = include_str!("constraints.py");
const BOUNDARY: &str = include_str!("boundary.py");
const STDIN_GEN: &str = include_str!("stdin_gen.py");
const MAIN: &str = include_str!("main.py");
const MUTANTS: &str = include_str!("mutants.py");
const WRONG_PROGRAMS: &str = include_str!("wrong_programs.py");
const SERVE: &str = include_str!("serve.py");

/// Which helper to run.
#[derive(Debug, Clone, Copy)]
pub enum Helper {
    /// Signature plus candidate inputs (`gen.py`; `stdin_gen.py` for a
    /// whole program's standard inputs).
    Generate,
    /// Mutants of the reference (`mutants.py`).
    Mutants,
    /// Higher-order and alternative-algorithm mutants, for scoring only
    /// (`wrong_programs.py`; `tests gen` never asks for them).
    WrongPrograms,
    /// Only whether the solution parses (`signature.py`'s `parse_solution`).
    Parse,
}

/// Reads the helpers' source from stdin (its byte length on the first
/// line) and runs it; the requests follow on the same stdin.
const BOOTSTRAP: &str = "import sys\n\
n = int(sys.stdin.buffer.readline())\n\
exec(compile(sys.stdin.buffer.read(n).decode('utf-8'), '<flowbench testgen>', 'exec'))\n";

/// The interpreter that runs the helpers when no `--helper-python` is given.
pub const HELPER_PYTHON: &str = "python3";

/// A helper process that answers requests, one JSON line each, until its
/// stdin closes (when flowbench drops it, at exit).
struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start(python: &Path) -> anyhow::Result<Server> {
        let script =
            [SIGNATURE, VALUES, GEN, CONSTRAINTS, BOUNDARY, STDIN_GEN, MAIN, MUTANTS, WRONG_PROGRAMS, SERVE].join("\n");
        // The helpers come on stdin ahead of the requests, their length on
        // the first line: as a `-c` argument they would pass Linux's limit
        // of 128 KiB on one argument.
        let mut child = Command::new(interpreter(python))
            .args(["-I", "-S", "-c", BOOTSTRAP])
            .env("PYTHONHASHSEED", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| anyhow::anyhow!("cannot start {}: {e}", python.display()))?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            anyhow::bail!("the test generator has no pipes");
        };
        let sent = stdin
            .write_all(format!("{}\n", script.len()).as_bytes())
            .and_then(|()| stdin.write_all(script.as_bytes()))
            .and_then(|()| stdin.flush());
        let server = Server { child, stdin, stdout: BufReader::new(stdout) };
        if let Err(e) = sent {
            anyhow::bail!("cannot start the test generator in {}: {e} ({})", python.display(), server.death());
        }
        Ok(server)
    }

    /// One request's answer line; `None` when the process is gone.
    fn ask(&mut self, line: &[u8]) -> Option<String> {
        self.stdin.write_all(line).ok()?;
        self.stdin.flush().ok()?;
        let mut answer = String::new();
        (self.stdout.read_line(&mut answer).ok()? > 0).then_some(answer)
    }

    /// Why the process ended: its exit status and the last line it wrote
    /// on stderr.
    fn death(mut self) -> String {
        drop(self.stdin);
        let status = self.child.wait().map(|s| s.to_string()).unwrap_or_else(|e| e.to_string());
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        let last = err.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no message");
        format!("the test generator failed ({status}): {last}")
    }
}

/// Idle helper processes, per interpreter: each call takes one (or starts
/// one) and gives it back, so parallel problems each have their own.
fn idle() -> &'static Mutex<HashMap<PathBuf, Vec<Server>>> {
    static IDLE: OnceLock<Mutex<HashMap<PathBuf, Vec<Server>>>> = OnceLock::new();
    IDLE.get_or_init(Default::default)
}

/// Sends `request` as JSON to a helper and returns its JSON answer. An
/// answer `{"ok": false, "error": …}` becomes an error with that message.
pub fn call(python: &Path, helper: Helper, request: &serde_json::Value) -> anyhow::Result<serde_json::Value> {
    let mut request = request.clone();
    let name = match helper {
        Helper::Generate => "generate",
        Helper::Mutants => "mutants",
        Helper::WrongPrograms => "wrong_programs",
        Helper::Parse => "parse",
    };
    crate::timings::count(
        match helper {
            Helper::Generate => "helper generate",
            Helper::Mutants => "helper mutants",
            Helper::WrongPrograms => "helper wrong_programs",
            Helper::Parse => "helper parse",
        },
        1,
    );
    request["helper"] = name.into();
    let mut line = serde_json::to_vec(&request)?;
    line.push(b'\n');
    let taken = idle().lock().unwrap_or_else(PoisonError::into_inner).get_mut(python).and_then(Vec::pop);
    let mut server = match taken {
        Some(s) => s,
        None => Server::start(python)?,
    };
    let Some(text) = server.ask(&line) else {
        anyhow::bail!("{}", server.death());
    };
    idle().lock().unwrap_or_else(PoisonError::into_inner).entry(python.to_path_buf()).or_default().push(server);
    let answer: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("unreadable answer from the test generator: {e}"))?;
    if answer.get("ok") == Some(&serde_json::Value::Bool(false)) {
        anyhow::bail!("{}", answer.get("error").and_then(|e| e.as_str()).unwrap_or("unknown error"));
    }
    Ok(answer)
}

/// Whether `source` (the solution at `file`) parses, read as every helper
/// reads it: the error is `file:line:column: the solution does not parse: …`,
/// word for word what `tests gen` reports.
pub fn check_parses(python: &Path, file: &Path, source: &str) -> anyhow::Result<()> {
    call(python, Helper::Parse, &serde_json::json!({"solution": source, "file": file.display().to_string()}))?;
    Ok(())
}

/// The interpreter `python` names, as the interpreter itself reports it
/// (`sys.executable`), asked once per process. A `python3` on `PATH` is
/// often a version manager's shim (pyenv's is a shell script that starts
/// `pyenv exec`), which costs 60–150 ms per start against the 5 ms of the
/// interpreter itself; `tests gen` starts a helper several times per problem.
/// When the question cannot be answered, `python` is used as given (and
/// fails there, with the usual message).
fn interpreter(python: &Path) -> PathBuf {
    static RESOLVED: OnceLock<Mutex<HashMap<PathBuf, PathBuf>>> = OnceLock::new();
    let cache = RESOLVED.get_or_init(Default::default);
    if let Some(known) = cache.lock().unwrap_or_else(PoisonError::into_inner).get(python) {
        return known.clone();
    }
    let resolved = Command::new(python)
        .args(["-I", "-S", "-c", "import sys; sys.stdout.write(sys.executable)"])
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| PathBuf::from(String::from_utf8_lossy(&out.stdout).into_owned()))
        .filter(|p| p.is_absolute() && p.is_file())
        .unwrap_or_else(|| python.to_path_buf());
    cache.lock().unwrap_or_else(PoisonError::into_inner).insert(python.to_path_buf(), resolved.clone());
    resolved
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mutants of a docstring, or that compile to the bytecode of an
    /// earlier mutant (`101 + 1` folds to `102`), are left out: they can
    /// only survive, and each survivor runs the whole suite.
    #[test]
    fn mutants_leave_out_docstrings_and_bytecode_twins() {
        let solution = "def f(n):\n    \"\"\"Counts the primes below 101.\"\"\"\n    return sum(1 for i in range(2, 101) if i <= n)\n";
        let request = serde_json::json!({"solution": solution, "file": "solution.py", "skip": ["valid"]});
        let answer = call(Path::new("python3"), Helper::Mutants, &request).expect("the mutants helper answers");
        let sources: Vec<&str> = answer["mutants"]
            .as_array()
            .expect("a list")
            .iter()
            .map(|m| m["source"].as_str().unwrap_or_default())
            .collect();
        assert!(!sources.is_empty());
        assert!(
            sources.iter().all(|s| s.contains("Counts the primes below 101.")),
            "a docstring was mutated: {sources:#?}"
        );
        let folded = sources.iter().filter(|s| s.contains("range(2, 101 + 1)") || s.contains("range(2, 102)")).count();
        assert_eq!(folded, 1, "`101 + 1` and `102` are one program: {sources:#?}");
    }

    /// The helpers run as one concatenated script, so a later file that
    /// defined a name an earlier one uses would silently replace it (and
    /// change what `tests gen` writes): no top-level name is defined twice.
    #[test]
    fn no_helper_redefines_another_ones_name() {
        let files = [
            ("signature.py", SIGNATURE),
            ("values.py", VALUES),
            ("gen.py", GEN),
            ("constraints.py", CONSTRAINTS),
            ("boundary.py", BOUNDARY),
            ("stdin_gen.py", STDIN_GEN),
            ("main.py", MAIN),
            ("mutants.py", MUTANTS),
            ("wrong_programs.py", WRONG_PROGRAMS),
            ("serve.py", SERVE),
        ];
        let script = r#"
import ast, json, sys
seen, twice = {}, []
for name, text in json.load(sys.stdin):
    for node in ast.parse(text).body:
        targets = [node] if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else getattr(node, "targets", [])
        for t in targets:
            defined = getattr(t, "name", None) or getattr(t, "id", None)
            if defined and seen.setdefault(defined, name) != name:
                twice.append("%s (%s, %s)" % (defined, seen[defined], name))
print("\n".join(twice))
"#;
        let mut child = Command::new(HELPER_PYTHON)
            .args(["-I", "-S", "-c", script])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs");
        let input = serde_json::to_vec(&files).expect("JSON");
        child.stdin.take().expect("stdin").write_all(&input).expect("written");
        let out = child.wait_with_output().expect("python3 ends");
        assert!(out.status.success());
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "", "names defined in two helper files");
    }

    /// `check` and `build` learn of a syntax error as `tests gen` does.
    #[test]
    fn a_syntax_error_names_file_line_and_column_as_the_generator_does() {
        let python = Path::new(HELPER_PYTHON);
        let broken = "def f(a, b):\n    while b != 0\n        a, b = b, a % b\n    return a\n";
        let file = Path::new("p/solution.py");
        let said = check_parses(python, file, broken).expect_err("a syntax error").to_string();
        assert_eq!(said, "p/solution.py:2:17: the solution does not parse: expected ':'");
        let request = serde_json::json!({"solution": broken, "file": "p/solution.py", "skip": ["valid"]});
        assert_eq!(call(python, Helper::Mutants, &request).expect_err("a syntax error").to_string(), said);
        assert!(check_parses(python, file, &broken.replace("!= 0\n", "!= 0:\n")).is_ok());
    }
}
