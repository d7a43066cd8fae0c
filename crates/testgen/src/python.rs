//! Runs the embedded helper package `flowbench_testgen` (signature reading,
//! generators, mutants) with `python3`, in long-lived processes that answer
//! a request per line (a problem asks several times; starting and compiling
//! the package costs 50 ms a time). The helpers parse the solution with
//! `ast` and never execute it: every run of reference or mutant code goes
//! through the sandbox.
//!
//! Requests and replies follow one schema, written twice: here as serde
//! types, in `py/flowbench_testgen/serve.py` as its `REQUEST_KEYS` and
//! docstring. A reply that lacks a key, or has one the schema does not
//! name, is a [`HelperError::Reply`] naming it.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock, PoisonError};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value as Json;

use flowbench_problem::problem::Category;

/// Starts the helper process: reads the package from stdin and serves the
/// requests that follow (see the file).
const LOADER: &str = include_str!("py/loader.py");

/// The package's modules by name (`__init__` is the package itself), sent
/// to every helper process, which imports them from memory (`loader.py`
/// says why not from a temporary directory).
const PACKAGE: [(&str, &str); 12] = [
    ("__init__", include_str!("py/flowbench_testgen/__init__.py")),
    ("boundary", include_str!("py/flowbench_testgen/boundary.py")),
    ("constraints", include_str!("py/flowbench_testgen/constraints.py")),
    ("gen", include_str!("py/flowbench_testgen/gen.py")),
    ("main", include_str!("py/flowbench_testgen/main.py")),
    ("mutants", include_str!("py/flowbench_testgen/mutants.py")),
    ("serve", include_str!("py/flowbench_testgen/serve.py")),
    ("shapes", include_str!("py/flowbench_testgen/shapes.py")),
    ("signature", include_str!("py/flowbench_testgen/signature.py")),
    ("stdin_gen", include_str!("py/flowbench_testgen/stdin_gen.py")),
    ("values", include_str!("py/flowbench_testgen/values.py")),
    ("wrong_programs", include_str!("py/flowbench_testgen/wrong_programs.py")),
];

/// The interpreter that runs the helpers when no `--helper-python` is given.
pub const HELPER_PYTHON: &str = "python3";

/// Why a helper call failed.
#[derive(Debug, thiserror::Error)]
pub enum HelperError {
    #[error("cannot start {}: {error}", python.display())]
    Spawn { python: PathBuf, error: std::io::Error },
    #[error("the test generator has no pipes")]
    NoPipes,
    #[error("cannot start the test generator in {}: {error} ({death})", python.display())]
    SendPackage { python: PathBuf, error: std::io::Error, death: Death },
    /// The process ended before it answered.
    #[error("{0}")]
    Died(Death),
    #[error("the test generator's request cannot be written: {0}")]
    Request(serde_json::Error),
    /// The reply is not JSON, or not the schema's (a key missing, or one
    /// it does not name: serde's message names the key).
    #[error("unreadable answer from the test generator: {error}")]
    Reply { helper: &'static str, error: serde_json::Error },
    /// The helper's own message: the solution or the spec at fault, or
    /// "the test generator failed: …" for an exception of its own.
    #[error("{0}")]
    Failed(String),
    /// `problem.toml` is at fault; the message leaves the file out, for
    /// the caller, who knows the problem's path, to name it
    /// ([`crate::Error::from_helper`]).
    #[error("problem.toml: {0}")]
    Spec(String),
    #[error("the test generator answered \"same\" to a key it was not given")]
    SameAsUnknown,
}

/// How a helper process ended: its exit status and the last line it wrote
/// on stderr.
#[derive(Debug)]
pub struct Death {
    pub status: String,
    pub last_line: String,
}

impl std::fmt::Display for Death {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the test generator failed ({}): {}", self.status, self.last_line)
    }
}

/// A request, tagged with the helper that answers it (`serve.py`'s
/// `REQUEST_KEYS`).
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "helper", rename_all = "snake_case")]
pub enum Request<'a> {
    Generate(&'a GenerateRequest<'a>),
    Mutants(&'a MutantsRequest<'a>),
    WrongPrograms(&'a WrongProgramsRequest<'a>),
    Parse(&'a ParseRequest<'a>),
    Shapes(&'a ShapesRequest<'a>),
}

impl Request<'_> {
    fn helper(&self) -> &'static str {
        match self {
            Request::Generate(_) => "generate",
            Request::Mutants(_) => "mutants",
            Request::WrongPrograms(_) => "wrong_programs",
            Request::Parse(_) => "parse",
            Request::Shapes(_) => "shapes",
        }
    }
}

/// Signature plus candidate inputs (`main.py`; `stdin_gen.py` for a whole
/// program's standard inputs).
#[derive(Debug, Clone, Serialize)]
pub struct GenerateRequest<'a> {
    pub solution: &'a str,
    pub file: String,
    pub entry_point: &'a str,
    /// "function" or "solution_method".
    pub call_style: &'static str,
    pub seed: u64,
    pub spec: Json,
    /// The original tests' arguments.
    pub originals: Vec<&'a Vec<Json>>,
    /// "gen", "pool" or "large".
    pub mode: &'static str,
    pub scale: usize,
    /// A whole program's parsed `[stdin] format`; null for a function.
    pub stdin_format: Json,
    /// The statement's constraints section.
    pub statement: &'a str,
    /// The key of an answer the caller holds: the helper answers
    /// [`GenerateAnswer::SameAsKnown`] when its own key is this one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub known_key: Option<String>,
}

/// Mutants of the reference (`mutants.py`).
#[derive(Debug, Clone, Serialize)]
pub struct MutantsRequest<'a> {
    pub solution: &'a str,
    pub file: String,
    /// Functions left unmutated (`valid`).
    pub skip: Vec<&'static str>,
    /// A whole program's code is mostly at module level: mutate it too.
    pub whole_program: bool,
}

/// Higher-order and alternative-algorithm mutants, for scoring only
/// (`wrong_programs.py`; `tests gen` never asks for them).
#[derive(Debug, Clone, Serialize)]
pub struct WrongProgramsRequest<'a> {
    #[serde(flatten)]
    pub mutants: MutantsRequest<'a>,
    pub seed: u64,
    /// Most higher-order mutants drawn.
    pub cap: usize,
}

/// Only whether the solution parses (`signature.py`'s `parse_solution`).
#[derive(Debug, Clone, Serialize)]
pub struct ParseRequest<'a> {
    pub solution: &'a str,
    pub file: String,
}

/// The shapes an entry point's parameters may take (`shapes.py`), for
/// `check --against` to make inputs when a problem has no tests.
#[derive(Debug, Clone, Serialize)]
pub struct ShapesRequest<'a> {
    pub solution: &'a str,
    pub file: String,
    /// The function: `name`, or `Class.name` for a method.
    pub entry: &'a str,
    /// Per parameter, the words of the chart's Input node about it.
    pub hints: &'a BTreeMap<String, String>,
}

/// The shapes `shapes.py` ranks for each parameter, and the calls the
/// docstring shows.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShapesAnswer {
    pub params: Vec<ParamShapes>,
    /// Argument lists of the docstring's calls (`>>> f(3, [1, 2])`).
    pub examples: Vec<Vec<Json>>,
}

/// One parameter's ranked shapes (names of the author's catalogue).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamShapes {
    pub name: String,
    /// Annotated: the generator reads the type itself; `shapes` is empty.
    pub given: bool,
    pub shapes: Vec<String>,
}

/// Every reply: the helper's answer, or its message (about `problem.toml`,
/// or anything else).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Reply<T> {
    Answer(T),
    SpecError(String),
    Error(String),
}

/// The generator's answer.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum GenerateAnswer {
    Generated(GeneratedInputs),
    /// The answer is the one the request's `known_key` is the key of.
    SameAsKnown {
        key: String,
    },
}

/// What the generator read and made.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneratedInputs {
    /// Each parameter's name and type tree.
    pub params: Vec<(String, Json)>,
    /// Whether the solution defines `valid()`.
    pub has_valid: bool,
    pub candidates: Vec<GeneratedCandidate>,
    /// Generated inputs that broke the spec's constraints (never run).
    pub outside_spec: usize,
    /// Where each parameter's domain came from.
    pub domains: BTreeMap<String, String>,
    /// A digest of everything the generator read; null for a whole
    /// program's standard inputs, which are not cached.
    #[serde(deserialize_with = "present")]
    pub key: Option<String>,
}

/// One candidate input, unvalidated.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneratedCandidate {
    pub category: Category,
    pub how: String,
    pub args: Vec<Json>,
    /// Why the input lies beyond the statement and its examples, when the
    /// generator drew it from a domain it widened past them.
    #[serde(default)]
    pub widened: Option<String>,
}

/// A mutant of the reference (first-order, higher-order or alternative).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mutant {
    /// What changed ("operator Add -> Sub").
    pub kind: String,
    /// The changed node's line in the reference.
    pub line: u64,
    /// The mutant's whole source.
    pub source: String,
    /// A unified diff from the reference.
    pub diff: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MutantsAnswer {
    mutants: Vec<Mutant>,
}

/// The two sets of wrong programs beyond first-order mutants.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrongPrograms {
    pub higher_order: Vec<Mutant>,
    pub alternative: Vec<Mutant>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ParseAnswer {}

/// An `Option` whose key must be there (null or not): serde takes a
/// missing `Option` for `None` unless it is read by a function.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Option::deserialize(d)
}

/// A helper process that answers requests, one JSON line each, until its
/// stdin closes (when flowbench drops it, at exit).
struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// The package as the loader reads it: its byte length on a line, then a
/// JSON object of module name to source. Made once per flowbench process.
fn package_message() -> &'static [u8] {
    static MESSAGE: OnceLock<Vec<u8>> = OnceLock::new();
    MESSAGE.get_or_init(|| {
        let modules: BTreeMap<&str, &str> = PACKAGE.into_iter().collect();
        let json = serde_json::to_string(&modules).unwrap_or_default();
        format!("{}\n{json}", json.len()).into_bytes()
    })
}

impl Server {
    fn start(python: &Path) -> Result<Server, HelperError> {
        // The package comes on stdin ahead of the requests: as `-c`
        // arguments its files would pass Linux's limit of 128 KiB on one
        // argument. The loader is small enough to be one.
        let mut child = Command::new(interpreter(python))
            .args(["-I", "-S", "-c", LOADER])
            .env("PYTHONHASHSEED", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|error| HelperError::Spawn { python: python.to_path_buf(), error })?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(HelperError::NoPipes);
        };
        let sent = stdin.write_all(package_message()).and_then(|()| stdin.flush());
        let server = Server { child, stdin, stdout: BufReader::new(stdout) };
        match sent {
            Ok(()) => Ok(server),
            Err(error) => Err(HelperError::SendPackage { python: python.to_path_buf(), error, death: server.death() }),
        }
    }

    /// One request's answer line; `None` when the process is gone.
    fn ask(&mut self, line: &[u8]) -> Option<String> {
        self.stdin.write_all(line).ok()?;
        self.stdin.flush().ok()?;
        let mut answer = String::new();
        (self.stdout.read_line(&mut answer).ok()? > 0).then_some(answer)
    }

    /// Why the process ended.
    fn death(mut self) -> Death {
        drop(self.stdin);
        let status = self.child.wait().map(|s| s.to_string()).unwrap_or_else(|e| e.to_string());
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        let last_line = err.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no message").to_string();
        Death { status, last_line }
    }
}

/// Idle helper processes, per interpreter: each call takes one (or starts
/// one) and gives it back, so parallel problems each have their own.
fn idle() -> &'static Mutex<HashMap<PathBuf, Vec<Server>>> {
    static IDLE: OnceLock<Mutex<HashMap<PathBuf, Vec<Server>>>> = OnceLock::new();
    IDLE.get_or_init(Default::default)
}

/// Sends `request` to a helper and reads its reply as a `T`; a reply
/// `{"error": …}` is [`HelperError::Failed`] with that message, and
/// `{"spec_error": …}` [`HelperError::Spec`].
fn call<T: DeserializeOwned>(python: &Path, request: &Request) -> Result<T, HelperError> {
    let helper = request.helper();
    flowbench_support::timings::count(
        match request {
            Request::Generate(_) => "helper generate",
            Request::Mutants(_) => "helper mutants",
            Request::WrongPrograms(_) => "helper wrong_programs",
            Request::Parse(_) => "helper parse",
            Request::Shapes(_) => "helper shapes",
        },
        1,
    );
    let mut line = serde_json::to_vec(request).map_err(HelperError::Request)?;
    line.push(b'\n');
    let taken = idle().lock().unwrap_or_else(PoisonError::into_inner).get_mut(python).and_then(Vec::pop);
    let mut server = match taken {
        Some(s) => s,
        None => Server::start(python)?,
    };
    let Some(text) = server.ask(&line) else {
        return Err(HelperError::Died(server.death()));
    };
    idle().lock().unwrap_or_else(PoisonError::into_inner).entry(python.to_path_buf()).or_default().push(server);
    read_reply(helper, &text)
}

/// `text`, a reply of `helper`, as the schema's `T`.
fn read_reply<T: DeserializeOwned>(helper: &'static str, text: &str) -> Result<T, HelperError> {
    match serde_json::from_str(text).map_err(|error| HelperError::Reply { helper, error })? {
        Reply::Answer(answer) => Ok(answer),
        Reply::SpecError(message) => Err(HelperError::Spec(message)),
        Reply::Error(message) => Err(HelperError::Failed(message)),
    }
}

/// The generator's signature and candidates for `request`.
pub fn generate(python: &Path, request: GenerateRequest) -> Result<GenerateAnswer, HelperError> {
    call(python, &Request::Generate(&request))
}

/// The reference's first-order mutants.
pub fn mutants(python: &Path, request: MutantsRequest) -> Result<Vec<Mutant>, HelperError> {
    call(python, &Request::Mutants(&request)).map(|a: MutantsAnswer| a.mutants)
}

/// The reference's higher-order and alternative-algorithm mutants.
pub fn wrong_programs(python: &Path, request: WrongProgramsRequest) -> Result<WrongPrograms, HelperError> {
    call(python, &Request::WrongPrograms(&request))
}

/// Whether `source` (the solution at `file`) parses, read as every helper
/// reads it: the error is `file:line:column: the solution does not parse: …`,
/// word for word what `tests gen` reports.
pub fn check_parses(python: &Path, file: &Path, source: &str) -> Result<(), HelperError> {
    let request = ParseRequest { solution: source, file: file.display().to_string() };
    call(python, &Request::Parse(&request)).map(|ParseAnswer {}| ())
}

/// The ranked shapes of the parameters of `request.entry`.
pub fn shapes(python: &Path, request: ShapesRequest) -> Result<ShapesAnswer, HelperError> {
    call(python, &Request::Shapes(&request))
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

    fn mutants_request(solution: &str) -> MutantsRequest<'_> {
        MutantsRequest { solution, file: "solution.py".into(), skip: vec!["valid"], whole_program: false }
    }

    /// Mutants of a docstring, or that compile to the bytecode of an
    /// earlier mutant (`101 + 1` folds to `102`), are left out: they can
    /// only survive, and each survivor runs the whole suite.
    #[test]
    fn mutants_leave_out_docstrings_and_bytecode_twins() {
        let solution = "def f(n):\n    \"\"\"Counts the primes below 101.\"\"\"\n    return sum(1 for i in range(2, 101) if i <= n)\n";
        let found = mutants(Path::new(HELPER_PYTHON), mutants_request(solution)).expect("the mutants helper answers");
        let sources: Vec<&str> = found.iter().map(|m| m.source.as_str()).collect();
        assert!(!sources.is_empty());
        assert!(
            sources.iter().all(|s| s.contains("Counts the primes below 101.")),
            "a docstring was mutated: {sources:#?}"
        );
        let folded = sources.iter().filter(|s| s.contains("range(2, 101 + 1)") || s.contains("range(2, 102)")).count();
        assert_eq!(folded, 1, "`101 + 1` and `102` are one program: {sources:#?}");
    }

    /// A reply without a key the schema requires is an error that names
    /// the key, not a default.
    #[test]
    fn a_reply_missing_a_key_is_an_error_naming_it() {
        let reply = r#"{"answer": {"generated": {"params": [], "has_valid": false, "outside_spec": 0, "domains": {}, "key": null}}}"#;
        let err = read_reply::<GenerateAnswer>("generate", reply).expect_err("`candidates` is missing");
        let HelperError::Reply { helper, error } = &err else { panic!("not a reply error: {err:?}") };
        assert_eq!(*helper, "generate");
        assert_eq!(error.classify(), serde_json::error::Category::Data);
        assert!(err.to_string().contains("missing field `candidates`"), "{err}");
        // A `null` key is an answer; no key at all is not.
        let without_key = reply.replace(r#", "key": null"#, r#", "candidates": []"#);
        let err = read_reply::<GenerateAnswer>("generate", &without_key).expect_err("`key` is missing");
        assert!(err.to_string().contains("missing field `key`"), "{err}");
        let with_key = reply.replace(r#""key": null"#, r#""candidates": [], "key": null"#);
        let read = read_reply::<GenerateAnswer>("generate", &with_key).expect("a whole reply");
        assert!(matches!(read, GenerateAnswer::Generated(GeneratedInputs { key: None, .. })), "{read:?}");
    }

    /// A key the schema does not name is an error too: the two sides
    /// disagree.
    #[test]
    fn a_reply_with_a_key_the_schema_lacks_is_an_error_naming_it() {
        let reply = r#"{"answer": {"mutants": [{"kind": "k", "line": 1, "source": "s", "diff": "d", "extra": 0}]}}"#;
        let err = read_reply::<MutantsAnswer>("mutants", reply).expect_err("`extra` is not in the schema");
        assert!(matches!(err, HelperError::Reply { helper: "mutants", .. }), "{err:?}");
        assert!(err.to_string().contains("unknown field `extra`"), "{err}");
        let failed = read_reply::<MutantsAnswer>("mutants", r#"{"error": "p.py:1:2: the solution does not parse: x"}"#);
        assert!(matches!(failed, Err(HelperError::Failed(m)) if m == "p.py:1:2: the solution does not parse: x"));
    }

    /// A fault in `problem.toml` comes back as its own reply, the message
    /// without the file, so the caller names the problem's.
    #[test]
    fn a_spec_error_reply_is_a_spec_error() {
        let reply = r#"{"spec_error": "[params.m] names no parameter of `f` (it has: n)"}"#;
        let err = read_reply::<GenerateAnswer>("generate", reply).expect_err("a spec error");
        assert!(matches!(&err, HelperError::Spec(m) if m == "[params.m] names no parameter of `f` (it has: n)"));
        let named = crate::Error::from_helper(Path::new("problems/p"), err);
        let crate::Error::Spec(spec) = &named else { panic!("not a spec error: {named:?}") };
        assert_eq!((spec.path.as_path(), spec.line), (Path::new("problems/p/problem.toml"), None));
        assert_eq!(named.to_string(), "problems/p/problem.toml: [params.m] names no parameter of `f` (it has: n)");
    }

    /// The helper checks requests against its own schema: a request
    /// without a key it needs is refused, naming the key.
    #[test]
    fn the_helper_names_a_key_missing_from_a_request() {
        let python = Path::new(HELPER_PYTHON);
        let mut server = Server::start(python).expect("a helper process");
        let text =
            server.ask(b"{\"helper\": \"mutants\", \"solution\": \"x = 1\\n\", \"file\": \"s.py\", \"skip\": []}\n");
        let err = read_reply::<MutantsAnswer>("mutants", &text.expect("a reply")).expect_err("no `whole_program`");
        assert!(
            matches!(&err, HelperError::Failed(m) if m.ends_with("the mutants request has no key `whole_program`")),
            "{err}"
        );
    }

    /// Every module of the package directory is embedded, and nothing
    /// else: a module left out would fail only when imported.
    #[test]
    fn the_embedded_package_is_the_package_directory() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/py/flowbench_testgen");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .expect("the package directory")
            .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".py").map(str::to_string))
            .collect();
        on_disk.sort();
        let embedded: Vec<&str> = PACKAGE.iter().map(|(name, _)| *name).collect();
        assert_eq!(on_disk, embedded);
        for (name, text) in PACKAGE {
            assert_eq!(std::fs::read_to_string(dir.join(format!("{name}.py"))).expect("a module"), text);
        }
    }

    /// `check` and `build` learn of a syntax error as `tests gen` does.
    #[test]
    fn a_syntax_error_names_file_line_and_column_as_the_generator_does() {
        let python = Path::new(HELPER_PYTHON);
        let broken = "def f(a, b):\n    while b != 0\n        a, b = b, a % b\n    return a\n";
        let file = Path::new("p/solution.py");
        let said = check_parses(python, file, broken).expect_err("a syntax error").to_string();
        assert_eq!(said, "p/solution.py:2:17: the solution does not parse: expected ':'");
        let request = MutantsRequest { file: "p/solution.py".into(), ..mutants_request(broken) };
        assert_eq!(mutants(python, request).expect_err("a syntax error").to_string(), said);
        assert!(check_parses(python, file, &broken.replace("!= 0\n", "!= 0:\n")).is_ok());
    }
}
