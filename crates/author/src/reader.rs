//! A solution's control flow, read from Python's own `ast` by running the
//! embedded `read_ast.py` under `python3`. That script only parses the
//! solution (`ast.parse`/`ast.unparse`); it never executes it, so this needs
//! no sandbox. The result is the structured [`Program`] that `draw` turns into
//! a chart and `check --against` compares a chart with.

use std::io::Write;
use std::process::{Command, Stdio};

use serde::Deserialize;

use super::read_cache;

const READ_AST: &str = include_str!("read_ast.py");

/// A solution file: the entry function, its helpers, and module-level code.
#[derive(Debug, Clone, Deserialize)]
pub struct Program {
    pub entry: Func,
    /// Module-level functions, nested functions and other `class` methods.
    pub helpers: Vec<Func>,
    /// Module-level statements other than definitions (imports, constants).
    pub preamble: Vec<Stmt>,
}

/// One function definition.
#[derive(Debug, Clone, Deserialize)]
pub struct Func {
    pub name: String,
    /// `Class.name` for methods, else `name`.
    pub qual: String,
    /// Parameters without `self`/`cls`; `/` and `*` markers appear as names.
    pub params: Vec<Param>,
    /// Line of the `def`.
    pub line: u32,
    /// The function this one is nested in, if any.
    pub parent: Option<String>,
    /// The class this is a method of, if any.
    pub method: Option<String>,
    pub body: Vec<Stmt>,
}

/// A parameter with its annotation and default as source text.
#[derive(Debug, Clone, Deserialize)]
pub struct Param {
    pub name: String,
    pub annotation: Option<String>,
    pub default: Option<String>,
}

/// A statement, with compound statements kept as trees. Statements with no
/// control flow of their own (including `try`, `with`, comprehensions) are
/// [`Stmt::Simple`] with their whole source text.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "k", rename_all = "lowercase")]
pub enum Stmt {
    Simple {
        line: u32,
        text: String,
    },
    If {
        line: u32,
        cond: String,
        then: Vec<Stmt>,
        #[serde(rename = "else")]
        otherwise: Vec<Stmt>,
    },
    While {
        line: u32,
        cond: String,
        body: Vec<Stmt>,
    },
    For {
        line: u32,
        target: String,
        iter: String,
        body: Vec<Stmt>,
    },
    Break {
        line: u32,
    },
    Continue {
        line: u32,
    },
    Return {
        line: u32,
        value: Option<String>,
    },
    Raise {
        line: u32,
        text: String,
    },
}

impl Stmt {
    /// The statement's first line in the solution.
    pub fn line(&self) -> u32 {
        match self {
            Stmt::Simple { line, .. }
            | Stmt::If { line, .. }
            | Stmt::While { line, .. }
            | Stmt::For { line, .. }
            | Stmt::Break { line }
            | Stmt::Continue { line }
            | Stmt::Return { line, .. }
            | Stmt::Raise { line, .. } => *line,
        }
    }
}

/// The code of every statement in `body`, nested ones too: simple
/// statements and raises as written, a return's value, the conditions of
/// `if` and `while`, and a `for`'s header as `for target in iter`.
pub fn code_texts(body: &[Stmt]) -> Vec<String> {
    let mut out = Vec::new();
    for s in body {
        match s {
            Stmt::Simple { text, .. } | Stmt::Raise { text, .. } => out.push(text.clone()),
            Stmt::Return { value, .. } => out.extend(value.clone()),
            Stmt::If { cond, then, otherwise, .. } => {
                out.push(cond.clone());
                out.extend(code_texts(then));
                out.extend(code_texts(otherwise));
            }
            Stmt::While { cond, body, .. } => {
                out.push(cond.clone());
                out.extend(code_texts(body));
            }
            Stmt::For { target, iter, body, .. } => {
                out.push(format!("for {target} in {iter}"));
                out.extend(code_texts(body));
            }
            Stmt::Break { .. } | Stmt::Continue { .. } => {}
        }
    }
    out
}

/// Why a solution could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadError {
    pub message: String,
    /// 1-based line in the solution (0 when unknown).
    pub line: u32,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 { write!(f, "line {}: {}", self.line, self.message) } else { f.write_str(&self.message) }
    }
}

impl std::error::Error for ReadError {}

#[derive(Deserialize)]
#[serde(untagged)]
enum Reply {
    Program(Program),
    Error { error: String, line: u32 },
}

/// Read `source` with `python3`. `entry` names the function to draw
/// (`name` or `Class.name`); without it the first `Solution` method, else the
/// last top-level function, is the entry.
pub fn read_program(source: &str, entry: Option<&str>) -> Result<Program, ReadError> {
    let key = read_cache::key(READ_AST, entry.unwrap_or(""), source);
    if let Some(program) = read_cache::get(&key).and_then(|answer| decode(&answer).ok()) {
        return Ok(program);
    }
    let out = run_reader(&[entry.unwrap_or("")], source.to_owned())?;
    let read = decode(&out);
    if read.is_ok() {
        read_cache::put(&key, &out);
    }
    read
}

/// Reads many solutions with one `python3` start (the interpreter's start-up
/// is most of the time of reading one): a result per `(source, entry)`, in
/// order. The outer error is python3 itself failing.
pub fn read_programs(jobs: &[(String, Option<String>)]) -> Result<Vec<Result<Program, ReadError>>, ReadError> {
    let keys: Vec<String> =
        jobs.iter().map(|(s, e)| read_cache::key(READ_AST, e.as_deref().unwrap_or(""), s)).collect();
    let mut results: Vec<Option<Result<Program, ReadError>>> =
        keys.iter().map(|k| read_cache::get(k).and_then(|answer| decode(&answer).ok()).map(Ok)).collect();
    let missing: Vec<usize> = (0..jobs.len()).filter(|&i| results[i].is_none()).collect();
    if !missing.is_empty() {
        let input: Vec<(&str, &str)> =
            missing.iter().map(|&i| (jobs[i].0.as_str(), jobs[i].1.as_deref().unwrap_or(""))).collect();
        let stdin = serde_json::to_string(&input)
            .map_err(|e| ReadError { message: format!("encoding the solutions: {e}"), line: 0 })?;
        let out = run_reader(&["--batch"], stdin)?;
        let answers: Vec<&[u8]> = out.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
        if answers.len() != missing.len() {
            return Err(ReadError {
                message: format!("the AST reader answered {} of {} solutions", answers.len(), missing.len()),
                line: 0,
            });
        }
        for (&i, answer) in missing.iter().zip(answers) {
            let read = decode(answer);
            if read.is_ok() {
                read_cache::put(&keys[i], answer);
            }
            results[i] = Some(read);
        }
    }
    Ok(results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(ReadError { message: "not read".into(), line: 0 })))
        .collect())
}

fn decode(line: &[u8]) -> Result<Program, ReadError> {
    match serde_json::from_slice::<Reply>(line) {
        Ok(Reply::Program(p)) => Ok(p),
        Ok(Reply::Error { error, line }) => Err(ReadError { message: error, line }),
        Err(e) => Err(ReadError { message: format!("unexpected output from the AST reader: {e}"), line: 0 }),
    }
}

/// Runs `read_ast.py` with `args`, feeding it `stdin`; its standard output.
fn run_reader(args: &[&str], stdin_text: String) -> Result<Vec<u8>, ReadError> {
    let fail = |message: String| ReadError { message, line: 0 };
    // -I: ignore the user's environment and site-packages; -S: no `site`
    // import (half of the interpreter's start-up time).
    let mut child = Command::new("python3")
        .args(["-I", "-S", "-c", READ_AST])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| fail(format!("cannot run python3 to read the solution: {e}")))?;
    let mut stdin = child.stdin.take().ok_or_else(|| fail("python3's stdin is not piped".into()))?;
    // Write from another thread so a large file cannot dead-lock on full pipes.
    let writer = std::thread::spawn(move || stdin.write_all(stdin_text.as_bytes()));
    let out = child.wait_with_output().map_err(|e| fail(format!("python3 failed: {e}")))?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(fail(format!(
            "python3 could not read the solution: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(out.stdout)
}
