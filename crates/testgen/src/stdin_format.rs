//! The input format of a whole-program (`stdio`) problem, as `problem.toml`
//! states it in `[stdin] format`: the lines a program reads, each field
//! with its type and bounds, and blocks repeated a number of times read
//! earlier (`T` test cases, `m` edges). Parsed and checked here so an
//! authoring error names the file, the line and what is wrong before any
//! input is made; the testgen worker (`stdin_gen.py`) generates stdin
//! text from the parsed form.
//!
//! # How it works
//!
//! One statement per line, `#` starts a comment, indentation opens a block:
//!
//! ```text
//! t: int 1..10                  # a line holding one integer
//! repeat t:                     # the indented lines, t times
//!     n k: int 1..10**5         # two integers on one line
//!     a: int[n] -10**9..10**9 distinct
//!     s: str 1..20 lower, x: float 0..1 digits 3
//!     g: grid[n][k] ".#"        # n lines of k characters
//! ```
//!
//! A line is fields separated by `,`; a field is names, `:`, a type and
//! its bounds. Bounds and sizes are integer expressions (`10**9`, `n - 1`)
//! over names read earlier, so every name must be defined before it is
//! used and only once. The names a size (`[n]`, `repeat t`) reads are sent
//! along as `sizes`/`counts`: the generator draws them small for typical
//! inputs, at their minimum for edge ones and up to the large inputs'
//! budget of tokens for large ones.

use std::collections::BTreeSet;
use std::path::Path;

use serde::Serialize;

use super::spec::{SpecError, TestSpec};

/// The types a field may have.
const TYPES: [&str; 4] = ["int", "float", "str", "grid"];

/// Named alphabets (as `[params.X] charset`), besides a quoted literal.
const CHARSETS: [&str; 8] = ["lower", "upper", "alpha", "digits", "alnum", "binary", "vowels", "ascii"];

/// Functions a bound may call.
const FUNCTIONS: [&str; 3] = ["min", "max", "abs"];

/// A parsed format: what the generator is sent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StdinFormat {
    pub stmts: Vec<Stmt>,
    /// Names read as a length (`int[n]`, `grid[r][c]`).
    pub sizes: BTreeSet<String>,
    /// Names read as a repeat count (`repeat t:`).
    pub counts: BTreeSet<String>,
}

/// One statement: a line of fields, or a repeated block.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Stmt {
    Line { line: usize, fields: Vec<Field> },
    Repeat { line: usize, count: String, body: Vec<Stmt> },
}

/// One field of a line: `names: type[dims] lo..hi options`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Field {
    pub names: Vec<String>,
    #[serde(rename = "type")]
    pub ty: String,
    /// Size expressions: `[n]` a row of n values, `[r][c]` r rows of c.
    pub dims: Vec<String>,
    /// Bounds of the values (of the length, for `str`); empty for `grid`.
    pub lo: String,
    pub hi: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charset: Option<String>,
    pub distinct: bool,
    pub sorted: bool,
    /// Decimals a `float` is printed with.
    pub digits: u32,
}

/// A format error: the line of the format text (1-based) and what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct FormatError {
    pub line: usize,
    pub message: String,
}

/// Parses `text`; the first error found, with its line.
pub fn parse(text: &str) -> Result<StdinFormat, FormatError> {
    let lines: Vec<(usize, usize, &str)> = text
        .lines()
        .enumerate()
        .filter_map(|(i, raw)| {
            let code = strip_comment(raw).trim_end();
            let body = code.trim_start();
            (!body.is_empty()).then(|| (i + 1, code.len() - body.len(), body))
        })
        .collect();
    if lines.is_empty() {
        return Err(FormatError { line: 1, message: "the format is empty: state at least one line of input".into() });
    }
    let mut parser = Parser { lines, at: 0, defined: BTreeSet::new(), sizes: BTreeSet::new(), counts: BTreeSet::new() };
    let indent = parser.lines[0].1;
    let stmts = parser.block(indent)?;
    if let Some(&(line, _, _)) = parser.lines.get(parser.at) {
        return Err(FormatError {
            line,
            message: "this line is indented less than the first line of the format".into(),
        });
    }
    Ok(StdinFormat { stmts, sizes: parser.sizes, counts: parser.counts })
}

/// The text before a `#` that is not inside a quoted charset.
fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

struct Parser<'a> {
    /// (line number, indentation, text without indentation and comment).
    lines: Vec<(usize, usize, &'a str)>,
    at: usize,
    defined: BTreeSet<String>,
    sizes: BTreeSet<String>,
    counts: BTreeSet<String>,
}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, FormatError> {
    Err(FormatError { line, message: message.into() })
}

impl Parser<'_> {
    /// Statements indented exactly `indent`, up to the first line indented less.
    fn block(&mut self, indent: usize) -> Result<Vec<Stmt>, FormatError> {
        let mut stmts = Vec::new();
        while let Some(&(line, ind, text)) = self.lines.get(self.at) {
            if ind < indent {
                break;
            }
            if ind > indent {
                return err(line, "unexpected indentation (only the lines of a `repeat` block are indented)");
            }
            self.at += 1;
            stmts.push(match text.strip_prefix("repeat ") {
                Some(rest) => self.repeat(line, indent, rest)?,
                None => Stmt::Line { line, fields: self.fields(line, text)? },
            });
        }
        Ok(stmts)
    }

    fn repeat(&mut self, line: usize, indent: usize, rest: &str) -> Result<Stmt, FormatError> {
        let Some(count) = rest.trim().strip_suffix(':') else {
            return err(line, "`repeat COUNT:` needs a `:` at its end");
        };
        let count = self.expr(line, count.trim(), "repeat count")?;
        self.counts.extend(names_in(&count));
        let inner = match self.lines.get(self.at) {
            Some(&(_, ind, _)) if ind > indent => ind,
            _ => return err(line, "`repeat` needs an indented block of lines after it"),
        };
        let body = self.block(inner)?;
        Ok(Stmt::Repeat { line, count, body })
    }

    fn fields(&mut self, line: usize, text: &str) -> Result<Vec<Field>, FormatError> {
        let parts = split_fields(text);
        let mut fields = Vec::new();
        for part in &parts {
            let field = self.field(line, part.trim())?;
            if (field.ty == "grid" || field.dims.len() == 2) && parts.len() > 1 {
                return err(
                    line,
                    format!("`{}` spans several lines: give it a line of its own", field.names.join(" ")),
                );
            }
            fields.push(field);
        }
        Ok(fields)
    }

    fn field(&mut self, line: usize, text: &str) -> Result<Field, FormatError> {
        let Some((names, ty)) = text.split_once(':') else {
            return err(line, format!("`{text}` is not a field: write `NAME: TYPE LO..HI` (e.g. `n: int 1..100`)"));
        };
        let names: Vec<String> = names.split_whitespace().map(str::to_string).collect();
        if names.is_empty() {
            return err(line, "a field needs a name before its `:`");
        }
        let mut words = ty.split_whitespace();
        let head = words.next().unwrap_or_default();
        let (base, dims_text) = head.split_once('[').map_or((head, ""), |(b, d)| (b, d));
        if !TYPES.contains(&base) {
            return err(line, format!("unknown type `{base}` (types: {})", TYPES.join(", ")));
        }
        let dims = self.dims(line, base, dims_text)?;
        let mut field = Field {
            names: names.clone(),
            ty: base.into(),
            dims,
            lo: String::new(),
            hi: String::new(),
            charset: None,
            distinct: false,
            sorted: false,
            digits: 2,
        };
        let rest: Vec<&str> = words.collect();
        self.options(line, &mut field, &rest)?;
        for name in names {
            self.define(line, &name)?;
        }
        Ok(field)
    }

    /// `[a][b]` after a type: sizes read earlier.
    fn dims(&mut self, line: usize, base: &str, text: &str) -> Result<Vec<String>, FormatError> {
        let mut dims = Vec::new();
        if !text.is_empty() {
            let Some(inner) = text.strip_suffix(']') else { return err(line, format!("`[{text}` is missing its `]`")) };
            for d in inner.split("][") {
                let d = self.expr(line, d.trim(), "size")?;
                self.sizes.extend(names_in(&d));
                dims.push(d);
            }
        }
        let ok = match base {
            "grid" => dims.len() == 2,
            "int" => dims.len() <= 2,
            "float" => dims.len() <= 1,
            _ => dims.is_empty(),
        };
        if !ok {
            return err(
                line,
                match base {
                    "grid" => "a grid needs its rows and columns: `grid[ROWS][COLS]`".to_string(),
                    "str" => {
                        "`str` takes no size: its length is its range (`str 1..20`); repeat a line for several".into()
                    }
                    _ => format!("`{base}` takes at most {} size(s)", if base == "int" { 2 } else { 1 }),
                },
            );
        }
        Ok(dims)
    }

    /// The words after the type: the range, then options.
    fn options(&mut self, line: usize, field: &mut Field, words: &[&str]) -> Result<(), FormatError> {
        let mut words = words.iter().copied().peekable();
        if field.ty != "grid" {
            let Some(range) = words.next() else {
                return err(line, format!("`{}` needs a range `LO..HI`", field.names.join(" ")));
            };
            let Some((lo, hi)) = range.split_once("..") else {
                return err(line, format!("`{range}` is not a range `LO..HI`"));
            };
            field.lo = self.expr(line, lo, "lower bound")?;
            field.hi = self.expr(line, hi, "upper bound")?;
            if let (Some(a), Some(b)) = (constant(&field.lo), constant(&field.hi))
                && a > b
            {
                return err(line, format!("the range `{range}` is empty"));
            }
        }
        while let Some(word) = words.next() {
            match (word, field.ty.as_str()) {
                ("distinct", "int") => field.distinct = true,
                ("sorted", "int" | "float") => field.sorted = true,
                ("digits", "float") => {
                    let d = words.next().and_then(|d| d.parse::<u32>().ok()).filter(|d| *d <= 12);
                    field.digits = match d {
                        Some(d) => d,
                        None => return err(line, "`digits` needs a count of decimals from 0 to 12"),
                    };
                }
                (w, "str" | "grid") if field.charset.is_none() => field.charset = Some(charset(line, w)?),
                (w, ty) => return err(line, format!("`{w}` is not an option of `{ty}`")),
            }
        }
        if (field.distinct || field.sorted) && field.dims.is_empty() {
            return err(line, "`distinct` and `sorted` apply to a row of values (`int[n]`)");
        }
        Ok(())
    }

    fn define(&mut self, line: usize, name: &str) -> Result<(), FormatError> {
        let ok = name == "_"
            || name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ok {
            return err(line, format!("`{name}` is not a name (letters, digits and `_`)"));
        }
        if FUNCTIONS.contains(&name) {
            return err(line, format!("`{name}` is a function bounds may call; name the field otherwise"));
        }
        if name != "_" && !self.defined.insert(name.to_string()) {
            return err(line, format!("`{name}` is defined twice"));
        }
        Ok(())
    }

    /// Checks an integer expression: digits, names defined earlier,
    /// `+ - * // % **`, parentheses and `min`/`max`/`abs`.
    fn expr(&self, line: usize, text: &str, what: &str) -> Result<String, FormatError> {
        if text.is_empty() {
            return err(line, format!("the {what} is missing"));
        }
        if let Some(c) = text.chars().find(|c| !(c.is_ascii_alphanumeric() || "_+-*/%(), ".contains(*c))) {
            return err(
                line,
                format!(
                    "the {what} `{text}` holds `{c}`: use integers, names read earlier, + - * // % ** and parentheses"
                ),
            );
        }
        if let Some(bad) = text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .find(|w| w.starts_with(|c: char| c.is_ascii_digit()) && !w.chars().all(|c| c.is_ascii_digit()))
        {
            return err(
                line,
                format!("the {what} `{text}` holds `{bad}`, which is not an integer (write 10**9, not 1e9)"),
            );
        }
        if text.matches('(').count() != text.matches(')').count() {
            return err(line, format!("the {what} `{text}` has unbalanced parentheses"));
        }
        for name in names_in(text) {
            if !self.defined.contains(&name) && !FUNCTIONS.contains(&name.as_str()) {
                return err(line, format!("the {what} `{text}` reads `{name}`, which no earlier line defines"));
            }
        }
        Ok(text.to_string())
    }
}

/// Fields of a line: split at commas outside parentheses and quotes.
fn split_fields(text: &str) -> Vec<&str> {
    let (mut depth, mut quoted, mut start, mut out) = (0i32, false, 0, Vec::new());
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' | '[' if !quoted => depth += 1,
            ')' | ']' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// The identifiers an expression reads.
fn names_in(expr: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in expr.chars().chain([' ']) {
        if c.is_ascii_alphanumeric() || c == '_' {
            current.push(c);
        } else if !current.is_empty() {
            if !current.starts_with(|d: char| d.is_ascii_digit()) && !FUNCTIONS.contains(&current.as_str()) {
                out.push(current.clone());
            }
            current.clear();
        }
    }
    out
}

/// An expression's value when it is a constant (`-10**9`, `100`).
fn constant(expr: &str) -> Option<i128> {
    let (sign, rest) = match expr.strip_prefix('-') {
        Some(r) => (-1, r),
        None => (1, expr),
    };
    let value = match rest.split_once("**") {
        Some((b, e)) => b.parse::<i128>().ok()?.checked_pow(e.parse().ok()?)?,
        None => rest.parse().ok()?,
    };
    Some(sign * value)
}

/// A charset word: a name, or a quoted literal of the characters.
fn charset(line: usize, word: &str) -> Result<String, FormatError> {
    if CHARSETS.contains(&word) {
        return Ok(word.into());
    }
    match word.strip_prefix('"').and_then(|w| w.strip_suffix('"')) {
        Some(chars) if !chars.is_empty() && !chars.contains(char::is_whitespace) => Ok(chars.into()),
        _ => err(
            line,
            format!(
                "`{word}` is not an alphabet: a name ({}) or the characters in quotes, without spaces (\".#\")",
                CHARSETS.join(", ")
            ),
        ),
    }
}

/// The parsed `[stdin] format` of a spec, the file being `spec_path`;
/// errors name that file and the line in it.
pub fn from_spec(spec_path: &Path, spec: &TestSpec, spec_text: &str) -> Result<StdinFormat, SpecError> {
    let Some(format) = spec.stdin.as_ref().and_then(|s| s.format.as_deref()) else {
        return Err(SpecError {
            path: spec_path.to_path_buf(),
            line: None,
            message: "a whole-program (stdio) problem needs `[stdin] format` describing its input, or a gen.py beside it (see problems/README.md)".into(),
        });
    };
    parse(format).map_err(|e| SpecError {
        path: spec_path.to_path_buf(),
        line: Some(first_line_in_spec(spec_text) + e.line - 1),
        message: format!("[stdin] format: {}", e.message),
    })
}

/// The line of `problem.toml` where line 1 of its `[stdin] format` text
/// stands, so errors can name the file's line (1 when it cannot be found).
pub fn first_line_in_spec(spec_text: &str) -> usize {
    let mut in_stdin = false;
    for (i, line) in spec_text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            in_stdin = t == "[stdin]";
        } else if in_stdin && t.starts_with("format") && t.contains('=') {
            // `format = """` then a newline: the text starts on the next line.
            let after = t.split_once('=').map_or("", |(_, v)| v.trim());
            return if after == "\"\"\"" || after == "'''" { i + 2 } else { i + 1 };
        }
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::StdinSpec;

    const EXAMPLE: &str = "t: int 1..10  # cases\nrepeat t:\n    n k: int 1..10**5\n    a: int[n] -10**9..10**9 distinct\n    s: str 1..20 lower, x: float 0..1 digits 3\n    g: grid[n][k] \".#\"\n";

    #[test]
    fn the_documented_example_parses() {
        let f = parse(EXAMPLE).expect("parses");
        assert_eq!(f.counts, BTreeSet::from(["t".to_string()]));
        assert_eq!(f.sizes, BTreeSet::from(["n".to_string(), "k".to_string()]));
        let Stmt::Repeat { body, count, .. } = &f.stmts[1] else { panic!("a repeat") };
        assert_eq!(count, "t");
        assert_eq!(body.len(), 4);
        let Stmt::Line { fields, line } = &body[2] else { panic!("a line") };
        assert_eq!((*line, fields.len(), fields[1].digits), (5, 2, 3));
        let Stmt::Line { fields, .. } = &body[3] else { panic!("a line") };
        assert_eq!((fields[0].ty.as_str(), fields[0].charset.as_deref()), ("grid", Some(".#")));
    }

    #[test]
    fn errors_name_the_line_and_the_mistake() {
        let cases = [
            ("n: integer 1..5\n", 1, "unknown type `integer`"),
            ("n: int 1..5\na: int[m] 0..9\n", 2, "reads `m`, which no earlier line defines"),
            ("n: int 5..1\n", 1, "the range `5..1` is empty"),
            ("n: int 1..5\nrepeat n\n  x: int 0..1\n", 2, "needs a `:`"),
            ("n: int 1..5\nrepeat n:\nx: int 0..1\n", 2, "needs an indented block"),
            ("n: int 1..5\n  x: int 0..1\n", 2, "unexpected indentation"),
            ("n: int 1..5\nn: int 1..5\n", 2, "`n` is defined twice"),
            ("n: int 1..5\ng: grid[n] lower\n", 2, "grid[ROWS][COLS]"),
            ("n: int 1..5, g: grid[n][n] lower\n", 1, "a line of its own"),
            ("s: str 1..5 latin\n", 1, "`latin` is not an alphabet"),
            ("n: int 1..5 distinct\n", 1, "apply to a row"),
            ("n: int 1..1e9\n", 1, "holds `1e9`, which is not an integer"),
            ("x: float 0..0.5\n", 1, "holds `.`"),
            ("x: float 0..1 digits\n", 1, "count of decimals"),
            ("# only a comment\n", 1, "empty"),
            ("n int 1..5\n", 1, "is not a field"),
        ];
        for (text, line, message) in cases {
            let e = parse(text).expect_err(text);
            assert_eq!(e.line, line, "{text}: {}", e.message);
            assert!(e.message.contains(message), "{text}: {}", e.message);
        }
    }

    /// A spec error knows its file and the file's line, so no caller
    /// reads them back out of the message.
    #[test]
    fn a_format_error_is_a_spec_error_on_the_files_line() {
        let text = "seed = 1\n\n[stdin]\nformat = \"\"\"\nn: int 1..5\na: int[m] 0..9\n\"\"\"\n";
        let format = "n: int 1..5\na: int[m] 0..9\n".to_string();
        let spec = TestSpec { stdin: Some(StdinSpec { format: Some(format) }), ..TestSpec::default() };
        let path = Path::new("p/problem.toml");
        let e = from_spec(path, &spec, text).expect_err("`m` is undefined");
        assert_eq!((e.path.as_path(), e.line), (path, Some(6)));
        assert_eq!(e.to_string(), format!("p/problem.toml:6: {}", e.message));
        assert!(e.message.starts_with("[stdin] format: "), "{}", e.message);

        let e = from_spec(path, &TestSpec::default(), "").expect_err("no format");
        assert_eq!((e.path.as_path(), e.line), (path, None));
        assert_eq!(e.to_string(), format!("p/problem.toml: {}", e.message));
    }

    #[test]
    fn the_format_line_is_found_in_the_spec() {
        let spec = "seed = 1\n\n[stdin]\nformat = \"\"\"\nt: int 1..5\n\"\"\"\n";
        assert_eq!(first_line_in_spec(spec), 5);
        assert_eq!(first_line_in_spec("[stdin]\nformat = \"n: int 1..5\"\n"), 2);
    }
}
