//! Reading the wording of charts drawn in other conventions than
//! [`super::labels`]' (an LLM's, a person's): `Initialize i = 0, total = 0`,
//! `Add current value: total = total + x`, `Append d to factors`,
//! `Is s empty?`, `Next x in nums?`, `Output: area (float)`. Each reader
//! returns the Python the wording stands for when it can be recovered, and
//! `None` when the text is prose (the caller then compares it by its words
//! only, and the chart cannot be run).
//!
//! Recovery is conservative: a rewrite must produce text that parses
//! ([`super::expr`]); anything else stays prose.

use super::expr::{self, Stmt};
use super::labels;

/// A line of a label as written, and the code it stands for if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub text: String,
    pub code: Option<String>,
}

/// How a loop decision words its iteration: `More x in xs?`,
/// `For each ch in text`, `More directions dr, dc?`.
#[derive(Debug, Clone, PartialEq)]
pub struct ForEach {
    /// The loop variables as code (`x`, `u, v`), when named.
    pub target: Option<String>,
    /// The iterable as code, when it is stated and reads as code.
    pub iter: Option<String>,
}

/// Unicode operators and typographic quotes as Python writes them.
pub fn normalize(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '≤' => s.push_str("<="),
            '≥' => s.push_str(">="),
            '≠' => s.push_str("!="),
            '×' | '·' => s.push('*'),
            '÷' => s.push('/'),
            '←' => s.push('='),
            '−' | '–' => s.push('-'),
            '“' | '”' => s.push('"'),
            '‘' | '’' => s.push('\''),
            _ => s.push(c),
        }
    }
    pseudo_code(s.trim())
}

/// Builtins a chart often applies without parentheses (`len nums - 1`,
/// `abs a`), since a Mermaid label needs quotes to hold them.
const PREFIX_FUNCTIONS: [&str; 16] = [
    "abs", "len", "sum", "max", "min", "sorted", "reversed", "int", "str", "float", "list", "set", "ord", "chr", "bin",
    "sqrt",
];

/// Words that never start the operand of a prefix call (`sum of squares`,
/// `max so far` stay prose).
const NOT_OPERANDS: [&str; 16] =
    ["and", "or", "not", "in", "is", "if", "else", "for", "of", "to", "by", "from", "with", "so", "the", "value"];

/// `len nums - 1` → `len(nums) - 1`, `abs a` → `abs(a)` (an operand is a
/// name with its subscripts and attributes), and `a mod b` → `a % b`:
/// pseudo-code's juxtaposed calls and its `mod`, outside quotes. Only where
/// code is read (statements, conditions, returned values): an Input node's
/// `list edges` names a type.
fn prefix_calls(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 4);
    let (mut i, mut quote) = (0, None::<char>);
    while i < chars.len() {
        let c = chars[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if is_word(c) && (i == 0 || !(is_word(chars[i - 1]) || chars[i - 1] == '.')) => {
                let end = word_end(&chars, i);
                let word: String = chars[i..end].iter().collect();
                let operand_end = if chars.get(end) == Some(&' ') { operand(&chars, end + 1) } else { None };
                // `an empty set seen`, `a new list out`: the word names a type.
                let names_type = out.trim_end().rsplit(' ').next().is_some_and(|w| w == "empty" || w == "new");
                // `result list out = []`: a call is never assigned to.
                let assigned = |end: usize| {
                    let after: String = chars[end..].iter().collect::<String>();
                    let after = after.trim_start();
                    after.starts_with('=') && !after.starts_with("==")
                };
                if let Some(operand_end) = operand_end
                    && PREFIX_FUNCTIONS.contains(&word.as_str())
                    && !names_type
                    && !assigned(operand_end)
                {
                    let operand: String = chars[end + 1..operand_end].iter().collect();
                    out.push_str(&format!("{word}({operand})"));
                    i = operand_end;
                    continue;
                }
                let after_operand = out.trim_end().chars().last().is_some_and(|p| is_word(p) || matches!(p, ')' | ']'));
                let number_follows =
                    chars.get(end) == Some(&' ') && chars.get(end + 1).is_some_and(char::is_ascii_digit);
                if word == "mod" && after_operand && (operand_end.is_some() || number_follows) {
                    out.push('%');
                    i = end;
                    continue;
                }
                out.push_str(&word);
                i = end;
                continue;
            }
            None => {}
        }
        out.push(c);
        i += 1;
    }
    out
}

/// The end of the operand starting at `start`: a name that is no keyword
/// or filler word, then subscripts, calls and attributes.
fn operand(chars: &[char], start: usize) -> Option<usize> {
    let first = *chars.get(start)?;
    if !(first.is_alphabetic() || first == '_') {
        return None;
    }
    let mut end = word_end(chars, start);
    let name: String = chars[start..end].iter().collect();
    if NOT_OPERANDS.contains(&name.as_str()) || PREFIX_FUNCTIONS.contains(&name.as_str()) {
        return None;
    }
    loop {
        match chars.get(end) {
            Some('[' | '(') => end = closing(chars, end)? + 1,
            Some('.') if chars.get(end + 1).is_some_and(|c| c.is_alphabetic() || *c == '_') => {
                end = word_end(chars, end + 1);
            }
            _ => return Some(end),
        }
    }
}

/// Words of other languages' pseudo-code as Python: `true`, `false`,
/// `null`, `&&`, `||`, and `inf`/`∞` as `float('inf')` (unless the label
/// assigns a variable of that name).
fn pseudo_code(text: &str) -> String {
    let assigns_inf = text.split("inf").skip(1).any(|rest| {
        let r = rest.trim_start();
        r.starts_with('=') && !r.starts_with("==")
    });
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let mut quote = None::<char>;
    let flush = |word: &mut String, out: &mut String| {
        let replaced = match word.as_str() {
            "true" => "True",
            "false" => "False",
            "null" | "nil" => "None",
            "inf" | "infinity" | "∞" if !assigns_inf => "float('inf')",
            w => w,
        };
        out.push_str(replaced);
        word.clear();
    };
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if quote.is_none() && (c.is_alphanumeric() || c == '_' || c == '∞') {
            word.push(c);
            i += 1;
            continue;
        }
        let after_dot = out.ends_with('.');
        if after_dot {
            out.push_str(&word);
            word.clear();
        } else {
            flush(&mut word, &mut out);
        }
        match quote {
            Some(q) if c == q => quote = None,
            None if c == '\'' || c == '"' => quote = Some(c),
            None if (c == '&' || c == '|') && chars.get(i + 1) == Some(&c) => {
                out.push_str(if c == '&' { " and " } else { " or " });
                i += 2;
                continue;
            }
            _ => {}
        }
        out.push(c);
        i += 1;
    }
    if out.ends_with('.') {
        out.push_str(&word);
    } else {
        flush(&mut word, &mut out);
    }
    out
}

/// Whether `text` is one plain identifier (no keyword).
fn is_name(text: &str) -> bool {
    text.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && text.chars().all(is_word)
        && !CODE_WORDS.contains(&text)
        && !NOT_OPERANDS.contains(&text)
}

pub(crate) fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Where the identifier-like word at `start` ends.
fn word_end(chars: &[char], start: usize) -> usize {
    (start..chars.len()).find(|&j| !is_word(chars[j])).unwrap_or(chars.len())
}

/// Python keywords that may stand before ` (` in code.
const CODE_WORDS: [&str; 13] =
    ["and", "or", "not", "in", "is", "if", "else", "for", "return", "lambda", "yield", "await", "print"];

/// Removes parenthesised remarks: a `(…)` after a space that follows a
/// finished operand (`result (running sums)`, `dp[i - 1][j] (delete)`) is
/// a comment in this style, since code never spaces a call's parenthesis.
pub fn strip_comments(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let (mut i, mut quote) = (0, None::<char>);
    while i < chars.len() {
        let c = chars[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == ' ' && chars.get(i + 1) == Some(&'(') && remark_may_follow(&out) => {
                if let Some(close) = closing(&chars, i + 1) {
                    i = close + 1;
                    continue;
                }
            }
            None => {}
        }
        out.push(c);
        i += 1;
    }
    out.trim().to_owned()
}

/// Whether the text so far ends in an operand a remark may follow.
fn remark_may_follow(before: &str) -> bool {
    let last = before.chars().last();
    if !last.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | ')' | ']' | '\'' | '"' | '}')) {
        return false;
    }
    let word: String = before.chars().rev().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    let word: String = word.chars().rev().collect();
    !CODE_WORDS.contains(&word.as_str())
}

fn closing(chars: &[char], open: usize) -> Option<usize> {
    labels::matching_close(chars.iter().copied().enumerate().skip(open))
}

/// The lines of a box, `<br>`-separated, without lines that are only a
/// remark in parentheses. Lines `draw` indented (continuations of one
/// compound statement) stay joined, as [`labels::statements`] reads them.
fn box_lines(label: &str) -> Vec<String> {
    let lines = labels::statements(label);
    let mut out = Vec::new();
    for (i, line) in lines.into_iter().enumerate() {
        if line.contains('\n') {
            out.push(line);
            continue;
        }
        let line = normalize(&line);
        let chars: Vec<char> = line.chars().collect();
        let remark = chars.first() == Some(&'(') && closing(&chars, 0) == Some(chars.len() - 1);
        if line.is_empty() || (remark && (i > 0 || expr::parse(&line).is_none())) {
            continue;
        }
        // `1 + min(a,<br>b)`: a line break inside brackets, to keep the box
        // narrow, continues the line.
        match out.last_mut() {
            Some(open) if unclosed_brackets(open) > 0 => {
                open.push(' ');
                open.push_str(&line);
            }
            _ => out.push(line),
        }
    }
    out
}

/// How many brackets `text` opens and does not close (outside quotes).
fn unclosed_brackets(text: &str) -> i32 {
    let (mut depth, mut quote) = (0, None::<char>);
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                _ => {}
            },
        }
    }
    depth
}

/// Whether `text` is one Python simple statement.
fn is_statement(text: &str) -> bool {
    let Some(stmt) = expr::parse_stmt(text) else { return false };
    match stmt {
        Stmt::Keyword(w) => {
            let rest = text.trim_start().get(w.len()..).unwrap_or("").trim();
            match w.as_str() {
                "annotation" => true,
                "raise" | "return" | "del" | "assert" => rest.is_empty() || expr::parse(rest).is_some(),
                "pass" | "break" | "continue" => rest.is_empty(),
                _ => expr::tokenize(rest).is_some_and(|ts| {
                    ts.iter().all(|t| match t {
                        expr::Tok::Name(_) => true,
                        expr::Tok::Op(o) => matches!(o.as_str(), "." | "," | "(" | ")" | "*"),
                        _ => false,
                    })
                }),
            }
        }
        _ => true,
    }
}

/// The comma-separated pieces of `text` (outside brackets and quotes), else
/// its pieces between `separator`s; `None` unless there are two or more.
fn pieces(text: &str, separator: &str) -> Option<Vec<String>> {
    let mut pieces = labels::split_top_level(text);
    if pieces.len() < 2 {
        pieces = text.split(separator).map(str::to_owned).collect();
    }
    (pieces.len() >= 2).then_some(pieces)
}

/// `a = 1, b = 2` (or `a = 1 and b = 2`) as two statements (every piece an
/// assignment); `x, y = y, x` stays one.
fn split_assignments(text: &str) -> Option<Vec<String>> {
    // `i = 0 and j = len(t) - 1`: assignments joined by a word.
    let pieces = pieces(text, " and ")?;
    let all = pieces.iter().all(|p| matches!(expr::parse_stmt(p), Some(Stmt::Assign(..) | Stmt::Aug(..))));
    all.then_some(pieces)
}

/// `i, j = len(a) - 1, len(b) - 1` as `i = len(a) - 1` and `j = len(b) - 1`:
/// a parallel assignment to names whose values read none of them does what
/// its assignments do one by one, which is how a chart often draws it (and
/// `draw` reads the code's the same way, so the two sides meet).
fn parallel_assignments(text: &str) -> Option<Vec<String>> {
    let Some(Stmt::Assign(targets, expr::Expr::Tuple(values))) = expr::parse_stmt(text) else { return None };
    let [expr::Expr::Tuple(names)] = targets.as_slice() else { return None };
    let names: Vec<&str> = names
        .iter()
        .map(|n| if let expr::Expr::Name(s) = n { Some(s.as_str()) } else { None })
        .collect::<Option<_>>()?;
    let mut read = Vec::new();
    values.iter().for_each(|v| expr::names(v, &mut read));
    let distinct = names.iter().enumerate().all(|(k, n)| !names[..k].contains(n));
    if names.len() != values.len() || !distinct || names.iter().any(|n| read.iter().any(|r| r == n)) {
        return None;
    }
    let (_, value_text) = text.split_once('=')?;
    let value_texts = labels::split_top_level(value_text.trim());
    (value_texts.len() == names.len())
        .then(|| names.iter().zip(&value_texts).map(|(n, v)| format!("{n} = {}", v.trim())).collect())
}

/// The statements a line of code holds, or `None` if it is not code.
fn as_code(text: &str) -> Option<Vec<String>> {
    let text = text.trim().trim_end_matches(';').trim();
    if text.is_empty() {
        return None;
    }
    if let Some(parts) = split_assignments(text).or_else(|| parallel_assignments(text)) {
        return Some(parts);
    }
    if let Some(rest) = text.strip_suffix("++").or_else(|| text.strip_suffix("--"))
        && expr::parse(rest).is_some()
    {
        let op = if text.ends_with("++") { "+=" } else { "-=" };
        return Some(vec![format!("{} {op} 1", rest.trim())]);
    }
    // A bare name or value does nothing: a one-word box (`Skip`, `Done`)
    // is prose, not an expression statement.
    let useful = match expr::parse_stmt(text) {
        Some(Stmt::Expr(e)) => matches!(e, expr::Expr::Call(..) | expr::Expr::Unary(..)),
        _ => true,
    };
    if useful && is_statement(text) {
        return Some(vec![text.to_owned()]);
    }
    // `n = 3n + 1`: algebra's products written out.
    let product = implicit_products(text)?;
    is_statement(&product).then(|| vec![product])
}

/// Reads one line of a process box into statements.
pub fn statement(line: &str) -> Option<Vec<String>> {
    if line.contains('\n') {
        // A compound statement `draw` wrote (try/with): Python's own text.
        return Some(vec![line.to_owned()]);
    }
    let text = prefix_calls(&normalize(line));
    let stripped = strip_comments(&text);
    // `Halve: n = n // 2` is Python (an annotated assignment) but means
    // a lead-in: a capitalised or several-word head before `: ` is prose.
    if let Some((head, _)) = stripped.split_once(": ")
        && (head.starts_with(char::is_uppercase) || head.contains(' '))
        && let Some(unprefixed) = strip_prose_prefix(&stripped)
        && let Some(code) = as_code(&unprefixed)
    {
        return Some(code);
    }
    for candidate in [stripped.as_str(), text.as_str()] {
        if let Some(code) = as_code(candidate).or_else(|| rewrite(candidate)) {
            return Some(code);
        }
    }
    // Before a lead-in is dropped: `append line to lines, line = ''` is two
    // statements, not the words `append line to` before `lines, line = ''`.
    if let Some(code) = statements_in_a_row(&stripped).or_else(|| two_steps(&stripped)) {
        return Some(code);
    }
    let unprefixed = strip_prose_prefix(&stripped)?;
    as_code(&unprefixed).or_else(|| rewrite(&unprefixed)).or_else(|| statements_in_a_row(&unprefixed))
}

/// Comma-separated statements, each code or a wording [`rewrite`] reads.
fn statements_in_a_row(text: &str) -> Option<Vec<String>> {
    // `i = i + 1; j = j - 1`: C's separator.
    let pieces = pieces(text, "; ")?;
    let mut out = Vec::new();
    for piece in &pieces {
        out.extend(one_step(piece)?);
    }
    Some(out)
}

/// A piece of a line that says one step (or two, joined by `and`): code,
/// a wording, or code after a lead-in (`result list out = []`).
fn one_step(text: &str) -> Option<Vec<String>> {
    as_code(text)
        .or_else(|| rewrite(text))
        .or_else(|| two_steps(text))
        .or_else(|| strip_prose_prefix(text).and_then(|rest| as_code(&rest)))
}

/// `Recursively flatten x and add its elements to out`: two steps said as
/// one sentence, each read on its own.
fn two_steps(text: &str) -> Option<Vec<String>> {
    let (first, second) = split_word(text, "and")?;
    let mut code = one_step(first)?;
    code.extend(one_step(second)?);
    Some(code)
}

/// `total = total + digit a[i], i = i - 1`: statements in a row of which
/// some are code and some prose, each read on its own, so the code is
/// compared as code. `None` when no piece is code (a sentence with commas).
fn mixed_line(line: &str) -> Option<Vec<Line>> {
    // A line of a call broken over lines is no row of statements.
    let balanced = |open: char, close: char| line.matches(open).count() == line.matches(close).count();
    let pieces = labels::split_top_level(line);
    if pieces.len() < 2 || !balanced('(', ')') || !balanced('[', ']') {
        return None;
    }
    let lines: Vec<Line> = pieces
        .iter()
        .flat_map(|piece| match statement(piece) {
            Some(code) => code.into_iter().map(|c| Line { text: piece.trim().to_owned(), code: Some(c) }).collect(),
            None => vec![Line { text: piece.trim().to_owned(), code: None }],
        })
        .collect();
    lines.iter().any(|l| l.code.is_some()).then_some(lines)
}

/// Reads a process box: one [`Line`] per statement line.
pub fn statements(label: &str) -> Vec<Line> {
    let mut out = Vec::new();
    for line in box_lines(label) {
        match statement(&line) {
            Some(code) => out.extend(code.into_iter().map(|c| Line { text: line.clone(), code: Some(c) })),
            None => out.extend(mixed_line(&line).unwrap_or_else(|| vec![Line { text: line, code: None }])),
        }
    }
    out
}

/// `Add current value: total = …` → `total = …`; `Initialize i = 0` →
/// `i = 0`: a short lead-in of plain words before code. A longer one (up
/// to seven words) only before an assignment, the value it names: `Start
/// trying odd divisors from d = 3`.
fn strip_prose_prefix(text: &str) -> Option<String> {
    if let Some((head, rest)) = text.split_once(": ")
        && head.split_whitespace().count() <= 6
        && head.chars().all(|c| c.is_alphabetic() || c == ' ' || c == '-' || c == '\'')
    {
        return Some(rest.trim().to_owned());
    }
    let words: Vec<&str> = text.splitn(9, ' ').collect();
    for k in 1..words.len().min(8) {
        let lead = &words[..k];
        if !lead.iter().all(|w| w.chars().all(char::is_alphabetic)) {
            break;
        }
        let rest = words[k..].join(" ");
        let short = k <= 3;
        // `Append chr(c)`, `Return f(x)`: a verb that does something with
        // the value a function computes, not a lead-in before a call (`Push
        // stack.append(i)` does what it says).
        let value_verb = VALUE_VERBS.contains(&lead[0].to_lowercase().as_str());
        if let Some(code) = as_code(&rest)
            && code.iter().all(|c| match expr::parse_stmt(c) {
                Some(Stmt::Assign(..)) => true,
                Some(Stmt::Expr(expr::Expr::Call(f, _))) => short && !(value_verb && matches!(*f, expr::Expr::Name(_))),
                Some(Stmt::Aug(..)) => short,
                _ => false,
            })
        {
            return Some(rest);
        }
    }
    None
}

/// Verbs whose object is the value after them (what they do with it, a
/// context may settle: `Append ch` to the chart's one list).
const VALUE_VERBS: [&str; 14] = [
    "append", "push", "add", "insert", "enqueue", "return", "yield", "output", "print", "store", "save", "record",
    "emit", "collect",
];

/// `text` without `lead`, compared case-insensitively.
fn strip_prefix_ci<'a>(text: &'a str, lead: &str) -> Option<&'a str> {
    let head = text.get(..lead.len())?;
    head.eq_ignore_ascii_case(lead).then(|| &text[lead.len()..])
}

/// `text` without `tail`, compared case-insensitively.
fn strip_suffix_ci<'a>(text: &'a str, tail: &str) -> Option<&'a str> {
    let cut = text.len().checked_sub(tail.len())?;
    let end = text.get(cut..)?;
    end.eq_ignore_ascii_case(tail).then(|| &text[..cut])
}

/// Case-insensitive prefix strip on a word boundary.
fn after_word<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let rest = strip_prefix_ci(text, word)?;
    (rest.is_empty() || rest.starts_with(' ')).then(|| rest.trim_start())
}

/// Splits `text` at the first ` sep ` outside brackets and quotes.
fn split_word<'a>(text: &'a str, sep: &str) -> Option<(&'a str, &'a str)> {
    let pat = format!(" {sep} ");
    let (mut depth, mut quote) = (0i32, None::<char>);
    for (i, c) in text.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '\'' | '"' => quote = Some(c),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                ' ' if depth == 0 && text[i..].to_lowercase().starts_with(&pat) => {
                    return Some((text[..i].trim(), text[i + pat.len()..].trim()));
                }
                _ => {}
            },
        }
    }
    None
}

/// An expression, possibly with a remark: its code.
fn expression(text: &str) -> Option<String> {
    if let Some(n) = number_word(text) {
        return Some(n.to_owned());
    }
    // `-1 because target is absent`: a value and its reason.
    if let Some((value, _)) = split_word(text, "because") {
        return expression(value);
    }
    let text = &prefix_calls(text);
    // Remarks first: `dp[j] (delete)` parses, as a call.
    let stripped = strip_comments(text.trim());
    if expr::parse(&stripped).is_some() {
        return Some(stripped);
    }
    let text = text.trim();
    if expr::parse(text).is_some() {
        return Some(text.to_owned());
    }
    // `3n + 1`: a number before a name multiplies it, as in algebra.
    let product = implicit_products(text)?;
    expr::parse(&product).is_some().then_some(product)
}

/// `3n + 1` → `3*n + 1`; `None` when no number stands against a name
/// (`2nd`, `1st`, hex and exponents are no products).
fn implicit_products(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 4);
    let mut changed = false;
    let mut i = 0;
    while i < chars.len() {
        let starts_number = chars[i].is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_' || chars[i - 1] == '.'));
        if !starts_number {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let end = (i..chars.len()).find(|&k| !chars[k].is_ascii_digit()).unwrap_or(chars.len());
        out.extend(&chars[i..end]);
        let name_end =
            (end..chars.len()).find(|&k| !(chars[k].is_alphanumeric() || chars[k] == '_')).unwrap_or(chars.len());
        let name: String = chars[end..name_end].iter().collect();
        let ordinal = ["st", "nd", "rd", "th"].contains(&name.to_lowercase().as_str());
        if name.starts_with(|c: char| c.is_alphabetic())
            && !ordinal
            && !name.starts_with(['e', 'E', 'x', 'X', 'j', 'J'])
        {
            out.push('*');
            changed = true;
        }
        i = end;
    }
    changed.then_some(out)
}

/// `zero` → `0`, `one` → `1`, …: a small number written as a word (`Is n
/// equal to zero?`, `Increase total by one`).
fn number_word(text: &str) -> Option<&'static str> {
    const WORDS: [&str; 11] = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
    const DIGITS: [&str; 11] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"];
    let lower = text.trim().to_lowercase();
    WORDS.iter().position(|w| *w == lower).map(|k| DIGITS[k])
}

/// `an empty set` → `set()`, `a new empty list` → `[]`: a new empty
/// container said in words.
fn empty_container(text: &str) -> Option<&'static str> {
    let lower = text.trim().to_lowercase();
    let rest = lower.strip_prefix("an ").or_else(|| lower.strip_prefix("a ")).unwrap_or(&lower);
    let rest = rest.strip_prefix("new ").unwrap_or(rest);
    match rest.strip_prefix("empty ")?.trim() {
        "set" | "hash set" | "hashset" => Some("set()"),
        "list" | "array" | "stack" | "queue" => Some("[]"),
        "dict" | "dictionary" | "map" | "hash map" | "hashmap" => Some("{}"),
        "string" | "str" => Some("''"),
        _ => None,
    }
}

const CREATE_VERBS: [&str; 6] = ["create", "initialize", "initialise", "init", "make", "start"];

/// `Create an empty set seen and an empty list out`: two containers, the
/// verb said once.
fn new_containers(text: &str) -> Option<Vec<String>> {
    let verb = CREATE_VERBS.iter().find(|v| after_word(text, v).is_some())?;
    let (first, second) = split_word(text, "and")?;
    Some(vec![new_container(first)?, new_container(&format!("{verb} {second}"))?])
}

/// `Create an empty set seen`, `Initialize seen as an empty set`, `Make a
/// new empty list called out`, `Start an empty list of parts`, `Start with
/// an empty output list`: a container started empty, as code.
fn new_container(text: &str) -> Option<String> {
    let rest = CREATE_VERBS.iter().find_map(|v| after_word(text, v))?;
    // `Initialize seen as an empty set`: the name first.
    for sep in ["as", "to", "with"] {
        if let Some((name, value)) = split_word(rest, sep)
            && let Some(value) = empty_container(value)
            && is_name(name)
        {
            return Some(format!("{name} = {value}"));
        }
    }
    // `Start with an empty output list`: the name before the kind (unless
    // the two words are the kind, `an empty hash set`).
    let rest = rest.strip_prefix("with ").unwrap_or(rest);
    if let Some((before, kind)) = rest.rsplit_once(' ')
        && let Some((lead, name)) = before.rsplit_once(' ')
        && lead.to_lowercase().ends_with("empty")
        && let Some(value) = empty_container(&format!("{lead} {kind}"))
        && empty_container(rest).is_none()
        && is_name(name)
    {
        return Some(format!("{name} = {value}"));
    }
    // `Create an empty set seen` / `… called seen` / `… named seen` /
    // `Start an empty list of parts`.
    let (kind, name) = rest.rsplit_once(' ')?;
    let kind = [" called", " named", " of"].iter().find_map(|s| kind.strip_suffix(s)).unwrap_or(kind);
    let value = empty_container(kind)?;
    is_name(name).then(|| format!("{name} = {value}"))
}

/// `Create table dp of size (m + 1) x (n + 1) filled with 0`, `Make a dp
/// array of size n + 1 initialized to False`: a list (of lists) of one
/// value, its sizes said in words.
fn filled_table(text: &str) -> Option<String> {
    let rest =
        ["create", "initialize", "initialise", "make", "build", "allocate"].iter().find_map(|v| after_word(text, v))?;
    let (named, sized) = split_word(rest, "of size").or_else(|| split_word(rest, "with size"))?;
    let words: Vec<&str> = named
        .split_whitespace()
        .filter(|w| {
            !["a", "an", "the", "2d", "2-d", "two-dimensional", "called", "named"].contains(&w.to_lowercase().as_str())
        })
        .collect();
    let is_kind = |w: &&str| ["table", "grid", "matrix", "array", "list"].contains(&w.to_lowercase().as_str());
    let [first, second] = words.as_slice() else { return None };
    let name = if is_kind(first) {
        second
    } else if is_kind(second) {
        first
    } else {
        return None;
    };
    if !is_name(name) {
        return None;
    }
    let (size, fill) =
        ["filled with", "initialized to", "initialised to", "initialized with", "all set to", "set to", "of"]
            .iter()
            .find_map(|w| split_word(sized, w))?;
    let fill = value(fill.trim().trim_start_matches("all ").trim_end_matches('s'))
        .or_else(|| value(fill.trim().trim_start_matches("all ")))?;
    // `of size x`: the sizes were in parentheses, read as remarks (the
    // caller also tries the text as written).
    if ["x", "by", "*"].contains(&size.trim()) {
        return None;
    }
    let dims = split_word(size, "x").or_else(|| split_word(size, "by")).or_else(|| split_word(size, "*"));
    Some(match dims {
        Some((rows, cols)) => {
            format!("{name} = [[{fill}] * ({}) for _ in range({})]", expression(cols)?, expression(rows)?)
        }
        None => format!("{name} = [{fill}] * ({})", expression(size)?),
    })
}

/// `f a, b` → `f(a, b)`: a function applied to its arguments without
/// parentheses, as pseudo-code calls a chart's own function.
fn juxtaposed_call(text: &str) -> Option<String> {
    let (name, args) = text.trim().split_once(' ')?;
    let plain = name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.')
        && name.starts_with(|c: char| c.is_alphabetic() || c == '_');
    if !plain || CODE_WORDS.contains(&name) || NOT_OPERANDS.contains(&name) {
        return None;
    }
    // `factorial with n - 1`, `helper on xs`: the preposition says nothing.
    let args = args.trim();
    let args = ["with ", "on ", "using ", "of "].iter().find_map(|p| args.strip_prefix(p)).unwrap_or(args);
    let is_call = |call: &String| matches!(expr::parse(call), Some(expr::Expr::Call(..)));
    let call = format!("{name}({})", args.trim());
    if is_call(&call) {
        return Some(call);
    }
    // `power_set_size on items without its first element`: arguments said
    // in words, each read as a value.
    let words: Option<Vec<String>> = labels::split_top_level(args).iter().map(|a| value(a)).collect();
    Some(format!("{name}({})", words?.join(", "))).filter(is_call)
}

/// A call said as a step (`Call f(x)`, `Recursive call: f n - 1`,
/// `recursively call solve(i + 1)`): the call's code.
fn called(text: &str) -> Option<String> {
    let rest = ["recursive call", "recursively call", "call"]
        .iter()
        .find_map(|v| after_word(text, v).or_else(|| strip_prefix_ci(text, &format!("{v}:")).map(str::trim)))
        .or_else(|| recursion_said(text))?;
    let rest = rest.strip_suffix(" recursively").unwrap_or(rest);
    match expression(rest) {
        Some(code) if matches!(expr::parse(&code), Some(expr::Expr::Call(..))) => Some(code),
        _ => juxtaposed_call(rest),
    }
}

/// `Compute factorial of n - 1 recursively`, `Recursively flatten x`: the
/// call, without the word that says it recurses and the verb around it.
fn recursion_said(text: &str) -> Option<&str> {
    let rest = after_word(text, "recursively").or_else(|| strip_suffix_ci(text, " recursively"))?;
    let verbs = ["compute", "calculate", "find", "get", "solve", "apply", "evaluate"];
    let rest = verbs.iter().find_map(|v| after_word(rest, v)).unwrap_or(rest);
    Some(strip_prefix_ci(rest, "the ").unwrap_or(rest).trim())
}

/// `Recursive call: f n - 1, store as smaller` → `smaller = f(n - 1)`: a
/// value whose result the box names in words after it.
fn stored_result(text: &str) -> Option<String> {
    let (value, tail) = text.rsplit_once(',').or_else(|| {
        let at = text.to_ascii_lowercase().rfind(" and ")?;
        Some((&text[..at], &text[at + " and ".len()..]))
    })?;
    let words: Vec<String> = tail.split_whitespace().map(str::to_lowercase).collect();
    let (verb, rest) = words.split_first()?;
    if !["store", "save", "assign", "put", "keep"].contains(&verb.as_str()) {
        return None;
    }
    let rest = match rest {
        [it, rest @ ..] if ["it", "result"].contains(&it.as_str()) => rest,
        [the, what, rest @ ..] if the.as_str() == "the" && ["result", "value", "answer"].contains(&what.as_str()) => {
            rest
        }
        _ => rest,
    };
    let [prep, _] = rest else { return None };
    if !["as", "in", "into", "to"].contains(&prep.as_str()) {
        return None;
    }
    let name = tail.split_whitespace().last()?;
    if !is_name(name) {
        return None;
    }
    let value = called(value.trim()).or_else(|| expression(value.trim()))?;
    Some(format!("{name} = {value}"))
}

/// `Move i one step right and j one step left`, `Move left forward`,
/// `Move hi left by 2`: pointers stepped along a sequence (right and
/// forward add, left and back subtract).
fn moved(text: &str) -> Option<Vec<String>> {
    let mut rest = after_word(text, "move")?;
    let mut out = Vec::new();
    loop {
        let (piece, more) = split_word(rest, "and").map_or((rest, None), |(a, b)| (a, Some(b)));
        out.push(step_moved(piece).filter(|s| is_statement(s))?);
        match more {
            Some(more) => rest = after_word(more, "move").unwrap_or(more),
            None => return Some(out),
        }
    }
}

/// One pointer of [`moved`]: `i one step right`, `hi left by 2`.
fn step_moved(piece: &str) -> Option<String> {
    let words: Vec<&str> = piece.split_whitespace().collect();
    let (name, tail) = words.split_first()?;
    let lower: Vec<String> = tail.iter().map(|w| w.to_lowercase()).collect();
    let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
    // The step keeps its own spelling: `hi left by K` steps by `K`.
    let (by, direction) = match lower.as_slice() {
        [direction] => ("1", *direction),
        ["one", "step" | "place" | "position", direction] => ("1", *direction),
        [direction, "by", _] => (tail[2], *direction),
        _ => return None,
    };
    let op = match direction {
        "right" | "forward" | "forwards" | "ahead" => "+=",
        "left" | "back" | "backward" | "backwards" => "-=",
        _ => return None,
    };
    is_name(name).then_some(())?;
    Some(format!("{name} {op} {}", expression(by)?))
}

/// `Add the last digit of n to total`: the value, as code, and the name it
/// is added to. What adding means (a sum, a set's `add`, an append) is the
/// name's kind, which only the chart around the box says.
pub fn added_to(text: &str) -> Option<(String, String)> {
    let rest = after_word(text.trim().trim_end_matches('.'), "add")?;
    let (x, y) = split_word(rest, "to")?;
    Some((value_without_the(x)?, name_without_the(y)?.to_owned()))
}

/// An entry of a mapping counted up or down ([`counted_entry`]).
#[derive(Debug, Clone, PartialEq)]
pub struct CountedEntry {
    /// The mapping's name.
    pub map: String,
    pub key: String,
    /// `+` or `-`.
    pub op: &'static str,
    pub by: String,
}

/// `Increase freq of w by 1`, `Increment the count of ch in counts`, `Add
/// 1 to seen of x`, `Decrement counts of ch`: an entry of a mapping counted
/// up or down, as code. Whether the name is a mapping only the chart
/// around it says.
pub fn counted_entry(text: &str) -> Option<CountedEntry> {
    let text = text.trim().trim_end_matches('.');
    let verbs = [("increase", "+"), ("increment", "+"), ("bump", "+"), ("decrease", "-"), ("decrement", "-")];
    let (entry, op, by) = match verbs.iter().find_map(|(v, op)| after_word(text, v).map(|rest| (rest, *op))) {
        Some((rest, op)) => {
            let (entry, by) = split_word(rest, "by").unwrap_or((rest, "1"));
            (entry, op, by)
        }
        None => {
            let (by, entry) = split_word(after_word(text, "add")?, "to")?;
            (entry, "+", by)
        }
    };
    let entry = strip_prefix_ci(entry, "the ").unwrap_or(entry);
    let (map, key) = match ["count of ", "frequency of ", "tally of "].iter().find_map(|w| strip_prefix_ci(entry, w)) {
        Some(counted) => {
            let (key, map) = split_word(counted, "in")?;
            (map, key)
        }
        None => split_word(entry, "of")?,
    };
    let (map, key, by) = (name_without_the(map)?.to_owned(), value_without_the(key)?, expression(by)?);
    Some(CountedEntry { map, key, op, by })
}

/// `Has x been seen before?`, `x already visited`, `Was v seen?`: the
/// subject as code and the word (`seen`, `visited`), which is also the name
/// of the collection the chart keeps, if it keeps one.
pub fn seen_before(label: &str) -> Option<(String, &'static str)> {
    let text = question(label);
    let text = ["has ", "have ", "was ", "were "].iter().find_map(|w| strip_prefix_ci(&text, w)).unwrap_or(&text);
    let words: Vec<&str> = text.split(' ').collect();
    let at = words.iter().position(|w| ["seen", "visited"].contains(&w.to_lowercase().as_str()))?;
    let word = if words[at].eq_ignore_ascii_case("seen") { "seen" } else { "visited" };
    let rest: Vec<&str> = words[at + 1..].to_vec();
    if !rest.iter().all(|w| ["before", "already", "yet"].contains(&w.to_lowercase().as_str())) {
        return None;
    }
    if words[..at].iter().any(|w| w.eq_ignore_ascii_case("not")) {
        return None;
    }
    let subject: Vec<&str> = words[..at]
        .iter()
        .copied()
        .filter(|w| !["been", "already", "is", "was", "has"].contains(&w.to_lowercase().as_str()))
        .collect();
    Some((value(&subject.join(" "))?, word))
}

/// `Append ch`, `Push the value`: the value put on a list the box does not
/// name (which list, only the chart around it says).
pub fn appended(text: &str) -> Option<String> {
    let text = text.trim().trim_end_matches('.');
    let rest = ["append", "push"].iter().find_map(|v| after_word(text, v))?;
    let named = ["onto", "to", "into", "on"].iter().any(|sep| split_word(rest, sep).is_some());
    (!named).then(|| value_without_the(rest)).flatten()
}

/// `Drop the last digit of n` (`n = n // 10`), `Remove the last character
/// of prefix` (`prefix = prefix[:-1]`), `Cut the first letter off word`,
/// `Remove the last element of path` (`del path[-1]`, a list or a
/// deque): a value shortened at one end, kept under its name.
fn dropped_end(text: &str) -> Option<String> {
    let rest = ["drop", "remove", "cut", "delete", "strip"].iter().find_map(|v| after_word(text, v))?;
    let rest = rest.trim().trim_end_matches('.').strip_prefix("the ")?;
    let (end, rest) = rest.split_once(' ')?;
    let (item, name) = split_word(rest, "of").or_else(|| split_word(rest, "off"))?;
    let name = name_without_the(name)?;
    // A list loses its item in place (a caller or a result may hold the
    // same list); a string, which cannot, is rebound.
    Some(match (end, item) {
        ("last", "digit") => format!("{name} = {name} // 10"),
        ("last", "character" | "letter" | "char") => format!("{name} = {name}[:-1]"),
        ("first", "character" | "letter" | "char") => format!("{name} = {name}[1:]"),
        ("last", "element" | "item") => format!("del {name}[-1]"),
        ("first", "element" | "item") => format!("del {name}[0]"),
        _ => return None,
    })
}

/// `Add up the digits of n into s`, `Sum the values into total`: a total
/// named after the values.
fn summed_into(text: &str) -> Option<String> {
    let rest = ["add up", "sum up", "sum"].iter().find_map(|v| after_word(text, v))?;
    let (values, name) = split_word(rest, "into").or_else(|| split_word(rest, "as"))?;
    let name = name_without_the(name)?;
    Some(format!("{name} = sum({})", value_without_the(values)?))
}

/// `Split the sentence into words`, `Split line on ',' into fields`: a
/// string's words (or pieces between a separator), named after.
fn split_into(text: &str) -> Option<String> {
    let rest = after_word(text, "split")?;
    let (whole, name) = split_word(rest, "into")?;
    let name = ["a list of ", "the "].iter().find_map(|p| name.strip_prefix(p)).unwrap_or(name);
    is_name(name).then_some(())?;
    let (whole, sep) = match split_word(whole, "on").or_else(|| split_word(whole, "by")) {
        Some((whole, sep)) => (whole, expression(sep)?),
        None => (whole, String::new()),
    };
    Some(format!("{name} = ({}).split({sep})", value_without_the(whole)?))
}

/// Statement wordings: `Append X to Y`, `Push X onto Y`, `Increment i`,
/// `Decrement i by 2`, `Swap a and b` (or `a, b`), `Set x to 0`, `Raise ValueError`,
/// `Call f(x)`, `Print x`.
fn rewrite(text: &str) -> Option<Vec<String>> {
    let one = |s: String| is_statement(&s).then(|| vec![s]);
    // A box marking where an endless loop starts (`Loop (while True)`,
    // `Repeat forever`): the edges draw the loop; the box does nothing.
    let bare = text.trim().trim_end_matches(':').to_lowercase().replace(['(', ')'], " ");
    let bare = bare.split_whitespace().collect::<Vec<_>>().join(" ");
    if ["loop while true", "loop forever", "repeat forever", "while true", "loop", "repeat", "infinite loop"]
        .contains(&bare.as_str())
    {
        return Some(vec!["pass".to_owned()]);
    }
    // `count = number of True values in is_prime`: a value said in words.
    if let Some((target, value)) = text.split_once('=')
        && !value.starts_with('=')
        && !target.ends_with(['!', '<', '>'])
        && let (Some(t), Some(v)) = (expression(target.trim()), value_phrase(value.trim()))
    {
        return one(format!("{t} = {v}"));
    }
    // After the value in words: `sum of x * x for each x in nums` is one.
    if let Some(code) = repeated(text) {
        return Some(vec![code]);
    }
    if let Some(code) = named_values(text) {
        return one(code);
    }
    if let Some(code) = filled_table(text).or_else(|| new_container(text)).or_else(|| stored_result(text)) {
        return one(code);
    }
    if let Some(code) = new_containers(text) {
        return Some(code);
    }
    if let Some(code) = extended(text) {
        return one(code);
    }
    if let Some(code) = summed_into(text).or_else(|| split_into(text)).or_else(|| dropped_end(text)) {
        return one(code);
    }
    if let Some(code) = moved(text) {
        return Some(code);
    }
    if let Some(code) = changed_in_place(text) {
        return one(code);
    }
    for verb in ["append", "push", "add"] {
        let Some(rest) = after_word(text, verb) else { continue };
        for sep in ["onto", "to", "into", "on"] {
            if let Some((x, y)) = split_word(rest, sep) {
                let y = y.strip_prefix("the end of ").unwrap_or(y);
                let y = y.strip_prefix("the ").unwrap_or(y);
                // `Add x to total` is a sum, `Add x to seen` a set, `Add
                // the neighbours to queue` an extension: only appending is
                // unambiguous.
                if verb == "add" {
                    return None;
                }
                return one(format!("{}.append({})", expression(y)?, value(x)?));
            }
        }
    }
    // `Subtract nums at i from total`.
    if let Some(rest) = after_word(text, "subtract")
        && let Some((value, target)) = split_word(rest, "from")
    {
        return one(format!(
            "{} -= {}",
            expression(strip_prefix_ci(target, "the ").unwrap_or(target))?,
            value_without_the(value)?
        ));
    }
    for (verb, op) in [("increment", "+="), ("increase", "+="), ("decrement", "-="), ("decrease", "-=")] {
        let Some(rest) = after_word(text, verb) else { continue };
        let (target, by) = split_word(rest, "by").unwrap_or((rest, "1"));
        return one(format!("{} {op} {}", expression(target)?, expression(by)?));
    }
    // `Multiply p by x`; `Divide n by 2` halves an integer (a whole
    // number divisor says a digit or a half is cut off), `Divide total by
    // count` is a true division.
    for verb in ["multiply", "divide"] {
        let Some(rest) = after_word(text, verb) else { continue };
        let (target, by) = split_word(rest, "by")?;
        let by = expression(by)?;
        let op = match verb {
            "multiply" => "*=",
            _ if by.parse::<u64>().is_ok() => "//=",
            _ => "/=",
        };
        return one(format!("{} {op} {by}", expression(target)?));
    }
    if let Some(rest) = after_word(text, "halve") {
        return one(format!("{} //= 2", expression(rest)?));
    }
    if let Some(rest) = after_word(text, "double") {
        return one(format!("{} *= 2", expression(rest)?));
    }
    if let Some(rest) = after_word(text, "swap") {
        let pair = labels::split_top_level(rest);
        let (a, b) = match pair.as_slice() {
            [a, b] => (a.as_str(), b.as_str()),
            _ => split_word(rest, "and").or_else(|| split_word(rest, "with"))?,
        };
        let (a, b) = (expression(a)?, expression(b)?);
        return one(format!("{a}, {b} = {b}, {a}"));
    }
    for (verb, sep) in [("set", "to"), ("let", "be")] {
        let Some(rest) = after_word(text, verb) else { continue };
        // `Set a to 0 and b to 1`, `Let a be 0 and b be 1`: two settings.
        if let Some((first, second)) = split_word(rest, "and")
            && let (Some(a), Some(b)) = (setting(first, sep), setting(second, sep))
        {
            return Some(vec![a, b]);
        }
        return setting(rest, sep).map(|s| vec![s]);
    }
    // `Move i to the next position`, `Advance j to the previous index`: a
    // pointer stepped by one.
    if let Some(rest) = ["move", "advance", "step", "shift"].iter().find_map(|v| after_word(text, v))
        && let Some((pointer, place)) = split_word(rest, "to")
        && let Some(place) = strip_prefix_ci(place.trim(), "the ")
        && let Some((way, noun)) = place.split_once(' ')
        && ["position", "index", "item", "element", "character", "cell", "one", "slot"]
            .contains(&noun.to_lowercase().as_str())
    {
        let op = match way.to_lowercase().as_str() {
            "next" | "following" => "+=",
            "previous" | "prior" => "-=",
            _ => return None,
        };
        return one(format!("{} {op} 1", expression(pointer)?));
    }
    // `Move lo to mid + 1`: a pointer set to its new place (`Move i to the
    // right` names a direction, not a value).
    if let Some(rest) = after_word(text, "move")
        && let Some((_, place)) = split_word(rest, "to")
        && !DIRECTIONS.contains(&place.trim_start_matches("the ").trim().to_lowercase().as_str())
        && let Some(code) = setting(rest, "to")
    {
        return one(code);
    }
    // `Replace n by its absolute value`, `Replace x with x // 2`.
    if let Some(rest) = after_word(text, "replace") {
        let (target, value) = split_word(rest, "by").or_else(|| split_word(rest, "with"))?;
        let value = value.trim();
        let value = match strip_prefix_ci(value, "its ") {
            Some(property) => value_phrase(&format!("{property} of {target}"))?,
            None => value_of(value)?,
        };
        return one(format!("{} = {value}", target_of(target)?));
    }
    for verb in ["raise", "throw"] {
        if let Some(rest) = after_word(text, verb) {
            return one(format!("raise {}", expression(rest)?));
        }
    }
    if let Some(rest) = after_word(text, "print") {
        return one(format!("print({})", expression(rest)?));
    }
    if let Some(code) = called(text) {
        return Some(vec![code]);
    }
    if let Some(rest) = after_word(text, "pop") {
        let rest = after_word(rest, "from").unwrap_or(rest);
        let rest = rest.strip_prefix("the ").unwrap_or(rest);
        return one(format!("{}.pop()", expression(rest)?));
    }
    None
}

/// `dp[0][j] = j for j in 0..n`, `seen[v] = False for each v in nodes`:
/// a statement with the loop it repeats in said after it, as a
/// comprehension would, which is a `for` loop around the statement.
fn repeated(text: &str) -> Option<String> {
    let (body, clause) = split_word(text, "for")?;
    let clause = ["each ", "every ", "all "].iter().find_map(|w| strip_prefix_ci(clause, w)).unwrap_or(clause);
    let (target, iter) = match split_word(clause, "in") {
        Some((target, iter)) => (target, range_words(iter).or_else(|| expression(iter))?),
        None => {
            let (target, bounds) = split_word(clause, "from")?;
            let (low, high) = split_word(bounds, "to")?;
            (target, format!("range({}, ({}) + 1)", expression(low)?, expression(high)?))
        }
    };
    let target = expression(target)?;
    let [body] = as_code(body).or_else(|| rewrite(body))?.try_into().ok()?;
    // `Repeat for each x in xs` marks a loop the edges draw.
    if body == "pass" {
        return None;
    }
    let code = format!("for {target} in {iter}:\n    {body}");
    expr::parse(&target).is_some().then_some(code)
}

/// `Convert s to lowercase`, `Make word upper case`, `Turn t into an
/// integer`, `Take the absolute value of n`: a value changed and kept under
/// its name.
fn changed_in_place(text: &str) -> Option<String> {
    let text = text.trim().trim_end_matches('.');
    if let Some(rest) = after_word(text, "take") {
        let rest = strip_prefix_ci(rest, "the ").unwrap_or(rest);
        let owner = strip_prefix_ci(rest, "absolute value of ")?;
        let name = name_without_the(owner)?;
        return Some(format!("{name} = abs({name})"));
    }
    let rest = ["convert", "make", "turn", "change"].iter().find_map(|v| after_word(text, v))?;
    let (what, into) = split_word(rest, "to").or_else(|| split_word(rest, "into")).or_else(|| rest.rsplit_once(' '))?;
    let name = name_without_the(what)?;
    let into = into.trim().to_lowercase();
    let into = ["all ", "a ", "an "].iter().fold(into.as_str(), |t, a| t.strip_prefix(a).unwrap_or(t));
    let changed = match into {
        "lowercase" | "lower case" | "lower-case" | "lower" => format!("{name}.lower()"),
        "uppercase" | "upper case" | "upper-case" | "upper" => format!("{name}.upper()"),
        "integer" | "int" | "whole number" => format!("int({name})"),
        "float" | "decimal number" => format!("float({name})"),
        "string" | "str" | "text" => format!("str({name})"),
        "list" => format!("list({name})"),
        "set" => format!("set({name})"),
        _ => return None,
    };
    Some(format!("{name} = {changed}"))
}

/// `Directions: (1, 0), (-1, 0), (0, 1), (0, -1)`, `Primes: 2, 3, 5`: a
/// list of literal values under a name, which is the list's name (a loop
/// over `More directions dr, dc?` then finds it in scope).
fn named_values(text: &str) -> Option<String> {
    let (head, values) = text.split_once(": ")?;
    let words: Vec<&str> = head.split_whitespace().collect();
    if words.is_empty() || words.len() > 3 || !words.iter().all(|w| w.chars().all(|c| c.is_ascii_alphabetic())) {
        return None;
    }
    let values = labels::split_top_level(values.trim().trim_end_matches('.'));
    let name = words.join("_").to_lowercase();
    if let Some(list) = letters(&values) {
        return Some(format!("{name} = {list}"));
    }
    let literal = |v: &String| expr::parse(v.trim()).is_some_and(|e| is_literal_value(&e));
    if values.len() < 2 || !values.iter().all(literal) {
        return None;
    }
    let items: Vec<&str> = values.iter().map(|v| v.trim()).collect();
    Some(format!("{name} = [{}]", items.join(", ")))
}

/// `a, e, i, o, u` as the string of those letters (`'aeiou'`, as code
/// keeps letters to test or walk): three or more single letters listed are
/// characters, not names (no one lists five variables).
fn letters(items: &[String]) -> Option<String> {
    let single = |s: &&String| s.trim().chars().count() == 1 && s.trim().chars().all(|c| c.is_alphabetic());
    if items.len() < 3 || !items.iter().all(|s| single(&s)) {
        return None;
    }
    Some(format!("'{}'", items.iter().map(|s| s.trim()).collect::<String>()))
}

/// A number, a string, or a tuple of them (`-1` too).
fn is_literal_value(e: &expr::Expr) -> bool {
    match e {
        expr::Expr::Num(_) | expr::Expr::Str(_) => true,
        expr::Expr::Unary(_, inner) => matches!(**inner, expr::Expr::Num(_)),
        expr::Expr::Tuple(items) => items.iter().all(is_literal_value),
        _ => false,
    }
}

/// `0..n` (both ends, as pseudo-code, Kotlin and Ruby count) and `0..<n`
/// (without the last, as Swift says it) as a `range`.
fn range_words(text: &str) -> Option<String> {
    let (low, high) = text.split_once("..")?;
    let (high, inclusive) = match high.strip_prefix('<') {
        Some(h) => (h, false),
        None => (high, true),
    };
    let (low, high) = (expression(low.trim())?, expression(high.trim())?);
    Some(if inclusive { format!("range({low}, ({high}) + 1)") } else { format!("range({low}, {high})") })
}

/// `first element of xs` → `xs[0]`, `last character of s` → `s[-1]`, `nums
/// at mid` → `nums[mid]`.
fn element_phrase(text: &str) -> Option<String> {
    for (lead, index) in [("first ", "0"), ("last ", "-1")] {
        let Some(rest) = strip_prefix_ci(text, lead) else { continue };
        let (what, of) = split_word(rest, "of")?;
        if !ELEMENT_NOUNS.contains(&what.to_lowercase().as_str()) {
            return None;
        }
        return Some(format!("{}[{index}]", expression(of)?));
    }
    // `items without its first element`: the rest of it, as a recursion
    // on a shorter list says it.
    if let Some((seq, dropped)) = split_word(text, "without") {
        let dropped = dropped.to_lowercase();
        let mut words = dropped.split_whitespace();
        let (Some("its" | "the"), Some(end), Some(what), None) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return None;
        };
        let slice = match end {
            "first" => "[1:]",
            "last" => "[:-1]",
            _ => return None,
        };
        return ELEMENT_NOUNS.contains(&what).then(|| expression(seq).map(|s| format!("{s}{slice}")))?;
    }
    // `nums at mid`: the element at an index.
    let (seq, at) = split_word(text, "at")?;
    Some(format!("{}[{}]", expression(seq)?, expression(at)?))
}

/// Where `Move i to the …` may send a pointer without naming a value.
const DIRECTIONS: [&str; 10] =
    ["right", "left", "next", "previous", "end", "start", "front", "back", "beginning", "middle"];

/// What `the first … of` and `without its last …` may name: one element
/// (the role words, `super::roles`, name the same).
pub(super) const ELEMENT_NOUNS: [&str; 9] =
    ["element", "item", "value", "character", "char", "letter", "number", "entry", "word"];

/// `lo to 0`, `the index i to 0`, `highest to nothing` (`sep`: `to`,
/// `be`): an assignment said in words.
fn setting(text: &str, sep: &str) -> Option<String> {
    let (target, value) = split_word(text, sep)?;
    // `Let the vowels be a, e, i, o, u`: a list in words, not a tuple of
    // names — letters, when every item is one.
    let items = labels::split_top_level(value);
    if items.len() > 1 {
        return Some(format!("{} = {}", target_of(target)?, letters(&items)?));
    }
    let code = format!("{} = {}", target_of(target)?, value_of(value)?);
    is_statement(&code).then_some(code)
}

/// An assignment's target, with a noun before the name left out (`the
/// index i` → `i`).
fn target_of(text: &str) -> Option<String> {
    let text = text.trim();
    if let Some(code) = expression(text) {
        return Some(code);
    }
    let last = text.rsplit(' ').next()?;
    (strip_prefix_ci(text, "the ").is_some() && is_name(last)).then(|| last.to_owned())
}

/// A value as code or in words; `nothing` is `None`.
fn value_of(text: &str) -> Option<String> {
    if ["nothing", "none", "null"].contains(&text.trim().to_lowercase().as_str()) {
        return Some("None".to_owned());
    }
    value(text)
}

/// `d squared`, `n cubed`, `the square of d`: a power said in words.
fn powered(text: &str) -> Option<String> {
    for (tail, power) in [(" squared", 2), (" cubed", 3)] {
        if let Some(base) = strip_suffix_ci(text, tail) {
            return Some(format!("({}) ** {power}", value(base)?));
        }
    }
    let base = strip_prefix_ci(text, "square of ")?;
    Some(format!("({}) ** 2", value(base)?))
}

/// `the first k words of ordered` (`ordered[:k]`), `the last 3 items of
/// xs`: a count, a plural noun, then the sequence.
fn first_or_last(text: &str) -> Option<String> {
    let (end, rest) = [("first", true), ("last", false)]
        .into_iter()
        .find_map(|(w, first)| after_word(text, w).map(|rest| (first, rest)))?;
    let (head, whole) = split_word(rest, "of")?;
    let (count, noun) = head.rsplit_once(' ')?;
    if !noun.ends_with('s') || !noun.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let (count, whole) = (value(count)?, value_without_the(whole)?);
    Some(if end { format!("({whole})[:{count}]") } else { format!("({whole})[len({whole}) - ({count}):]") })
}

/// `words joined with a space` (`' '.join(words)`), `parts joined by
/// ', '`, `out joined together`: strings joined, the separator said in
/// words or as a literal.
fn joined(text: &str) -> Option<String> {
    let (items, separator) = match split_word(text, "joined") {
        Some((items, how)) => {
            let how = how.trim();
            let separator = ["with ", "by ", "using "].iter().find_map(|w| strip_prefix_ci(how, w));
            match separator {
                Some(sep) => (items, separator_words(sep)?),
                None if ["together", ""].contains(&how) => (items, "''".to_owned()),
                None => return None,
            }
        }
        None => (strip_suffix_ci(text, " joined")?, "''".to_owned()),
    };
    Some(format!("{separator}.join({})", value_without_the(items)?))
}

/// A separator said in words (`a space`, `commas`, `nothing`) or written.
fn separator_words(text: &str) -> Option<String> {
    let text = text.trim();
    if is_quoted(text) {
        return Some(text.to_owned());
    }
    let lower = text.to_lowercase();
    let lower = ["a ", "an ", "single "].iter().fold(lower.as_str(), |t, a| t.strip_prefix(a).unwrap_or(t)).to_owned();
    let sep = match lower.as_str() {
        "space" | "spaces" | "blank" | "blanks" => " ",
        "comma" | "commas" => ",",
        "comma and a space" | "comma and space" => ", ",
        "newline" | "newlines" | "line break" | "line breaks" => "\\n",
        "dash" | "dashes" | "hyphen" | "hyphens" => "-",
        "nothing" | "no separator" | "empty string" | "the empty string" => "",
        _ => return None,
    };
    Some(format!("'{sep}'"))
}

/// `i as a string` (`str(i)`), `t as an integer` (`int(t)`): a value
/// converted, said after it.
fn converted(text: &str) -> Option<String> {
    let (what, into) = split_word(text, "as")?;
    let convert = match into.to_lowercase().as_str() {
        "a string" | "text" | "a str" => "str",
        "an integer" | "an int" | "a whole number" => "int",
        "a float" | "a decimal number" => "float",
        _ => return None,
    };
    Some(format!("{convert}({})", value(what)?))
}

/// Values said in words: `number of True values in xs` (`sum(xs)`),
/// `length of xs`, `sum of xs`, `largest of xs`, ….
fn value_phrase(text: &str) -> Option<String> {
    let text = text.trim();
    let text = strip_prefix_ci(text, "the ").unwrap_or(text);
    if CALL_RESULTS.contains(&text.to_lowercase().as_str()) {
        return Some(labels::CALL_RESULT.to_owned());
    }
    if let Some(code) = powered(text).or_else(|| first_or_last(text)).or_else(|| converted(text)) {
        return Some(code);
    }
    if let Some(code) = joined(text) {
        return Some(code);
    }
    // `ch unchanged`, `x as is`: the value itself, said to be kept.
    if let Some(kept) = [" unchanged", " as is", " as-is", " as it is", " unmodified", " itself"]
        .iter()
        .find_map(|tail| strip_suffix_ci(text, tail))
    {
        return value(kept);
    }
    // `n plus the result of the call`: arithmetic said in words.
    for (words, op) in [("plus", "+"), ("minus", "-"), ("times", "*"), ("multiplied by", "*"), ("divided by", "/")] {
        if let Some((a, b)) = split_word(text, words)
            && let (Some(a), Some(b)) = (value(a), value(b))
        {
            return Some(format!("({a}) {op} ({b})"));
        }
    }
    if let Some(empty) = empty_container(text) {
        return Some(empty.to_owned());
    }
    if let Some(value) = element_phrase(text) {
        return Some(value);
    }
    // `temperatures[top of stack]`: an index said in words.
    if let Some(open) = text.find('[')
        && let Some(inner) = text[open + 1..].strip_suffix(']')
        && let (Some(base), Some(index)) = (expression(&text[..open]), value(inner))
    {
        return Some(format!("{base}[{index}]"));
    }
    // `the list of words`, `the string s`: a parameter named by its kind.
    for kind in ["list of ", "array of ", "list ", "array ", "string ", "number ", "integer "] {
        if let Some(rest) = strip_prefix_ci(text, kind)
            && is_name(rest.trim())
        {
            return Some(rest.trim().to_owned());
        }
    }
    // `the rest of a from i`: the slice from there on.
    if let Some(rest) = strip_prefix_ci(text, "rest of ")
        && let Some((list, from)) = split_word(rest, "from")
    {
        return Some(format!("{}[{}:]", expression(list)?, value(from)?));
    }
    // `the top of the stack`: its last element.
    if let Some(rest) = strip_prefix_ci(text, "top of ") {
        let rest = strip_prefix_ci(rest, "the ").unwrap_or(rest);
        return Some(format!("{}[-1]", expression(rest)?));
    }
    let lower = text.to_lowercase();
    // `the shortest string in strs`: the element by length.
    for (lead, f) in [("shortest ", "min"), ("longest ", "max")] {
        if let Some(rest) = strip_prefix_ci(text, lead)
            && let Some((what, within)) = split_word(rest, "in").or_else(|| split_word(rest, "of"))
            && !what.is_empty()
        {
            return Some(format!("{f}({}, key=len)", expression(within)?));
        }
    }
    // `sum of d * d for each d in digits`: a generator said in words;
    // `for each digit d of n` walks a number's decimal digits.
    for f in ["sum", "max", "min", "any", "all"] {
        let Some(rest) = strip_prefix_ci(text, &format!("{f} of ")) else { continue };
        let Some((element, source)) = split_word(rest, "for each").or_else(|| split_word(rest, "for")) else {
            continue;
        };
        if let Some((var, iter)) = split_word(source, "in")
            && is_name(var)
        {
            return Some(format!("{f}({} for {var} in {})", expression(element)?, expression(iter)?));
        }
        if let Some(digit) = strip_prefix_ci(source, "digit ")
            && let Some((var, number)) = split_word(digit, "of")
            && is_name(var)
        {
            let number = value(number)?;
            return Some(format!("{f}({} for {var} in map(int, str(abs({number}))))", expression(element)?));
        }
    }
    // `the number of columns of m`: the length of its first row.
    if let Some(rest) = ["number of columns of ", "number of columns in ", "number of cols of "]
        .iter()
        .find_map(|lead| strip_prefix_ci(text, lead))
    {
        return Some(format!("len({}[0])", value_without_the(rest.trim())?));
    }
    // `the digits of n`: a number's decimal digits, as numbers.
    if let Some(rest) = strip_prefix_ci(text, "digits of ") {
        let rest = rest.trim();
        return Some(format!("list(map(int, str(abs({}))))", value_without_the(rest)?));
    }
    if let Some(rest) = strip_prefix_ci(text, "last digit of ") {
        let rest = rest.trim();
        return Some(format!("({}) % 10", value_without_the(rest)?));
    }
    // `the average of lo and hi` alone may be a mean or a middle index:
    // only its floor is one thing.
    if let Some(rest) = strip_prefix_ci(text, "floor of the average of ") {
        let rest = rest.trim();
        let (a, b) = split_word(rest.strip_prefix("the ").unwrap_or(rest), "and")?;
        return Some(format!("({} + {}) // 2", value(a)?, value(b)?));
    }
    for (lead, f) in [
        ("number of true values in ", "sum"),
        ("count of true values in ", "sum"),
        ("number of trues in ", "sum"),
        ("number of true in ", "sum"),
        ("count of true in ", "sum"),
        ("count of trues in ", "sum"),
        ("number of rows of ", "len"),
        ("number of rows in ", "len"),
        ("number of elements in ", "len"),
        ("number of items in ", "len"),
        ("absolute value of ", "abs"),
        ("integer value of ", "int"),
        ("int of ", "int"),
        ("float of ", "float"),
        ("length of ", "len"),
        ("len of ", "len"),
        ("size of ", "len"),
        ("sum of ", "sum"),
        ("maximum of ", "max"),
        ("max of ", "max"),
        ("largest of ", "max"),
        ("minimum of ", "min"),
        ("min of ", "min"),
        ("smallest of ", "min"),
    ] {
        if lower.starts_with(lead) {
            let rest = text[lead.len()..].trim();
            let rest = rest.strip_prefix("the ").unwrap_or(rest);
            // `maximum of nums[k] and cur + nums[k]`: two arguments.
            if matches!(f, "max" | "min")
                && let Some((a, b)) = split_word(rest, "and")
                && let (Some(a), Some(b)) = (expression(a), expression(b))
            {
                return Some(format!("{f}({a}, {b})"));
            }
            // `length of s - 1`: a length is of a sequence, never of a
            // difference, so the arithmetic comes after it.
            if f == "len"
                && let Some((op, (a, b))) = ["-", "+"].into_iter().find_map(|op| split_word(rest, op).map(|p| (op, p)))
                && let (Some(a), Some(b)) = (value(a), expression(b))
            {
                return Some(format!("len({a}) {op} {b}"));
            }
            return Some(format!("{f}({})", value(rest)?));
        }
    }
    None
}

/// `flg 0` (from `Is flg 0?`): a subject, then the literal value it is asked
/// to be: a number or a string (`Is x True?` is a truth test, read as such
/// by `phrase`); several values (`Is n 2 or 3?`) are `one_of_values`.
fn juxtaposed_values(text: &str) -> Option<String> {
    let (subject, value) = text.trim().rsplit_once(' ')?;
    let value = value.trim();
    if !is_literal(value) || split_word(subject, "or").is_some() {
        return None;
    }
    Some(format!("({}) == {value}", expression(subject)?))
}

/// `n 2 or 3` (from `Is n 2 or 3?`), `n is 2 or 3`, `c is not 'a' or 'b'`:
/// one value tested against several, by the [`ONE_OF`] helper.
fn one_of_values(text: &str) -> Option<String> {
    let mut parts = Vec::new();
    let mut rest = text.trim();
    while let Some((before, after)) = split_word(rest, "or") {
        parts.push(before);
        rest = after;
    }
    parts.push(rest);
    let (subject, first) = parts[0].rsplit_once(' ')?;
    if parts.len() < 2 || !parts[1..].iter().all(|p| is_literal(p)) || !is_literal(first) {
        return None;
    }
    let values: Vec<&str> = std::iter::once(first).chain(parts[1..].iter().copied()).collect();
    let (subject, negation) = match strip_suffix_ci(subject, " is not").or_else(|| strip_suffix_ci(subject, " not")) {
        Some(s) => (s, "not "),
        None => (strip_suffix_ci(subject, " is").unwrap_or(subject), ""),
    };
    Some(format!("{negation}{ONE_OF}({}, {})", expression(subject)?, values.join(", ")))
}

/// `q at i and q at j differ`, `a and b are equal`: two values compared.
fn pair_compared(text: &str) -> Option<String> {
    let text = text.trim();
    // `Are a and b equal?` comes here without its `Are`.
    let (rest, op) = [
        (" differ", "!="),
        (" are different", "!="),
        (" different", "!="),
        (" are not equal", "!="),
        (" not equal", "!="),
        (" are equal", "=="),
        (" equal", "=="),
        (" are the same", "=="),
        (" the same", "=="),
    ]
    .into_iter()
    .find_map(|(words, op)| strip_suffix_ci(text, words).map(|rest| (rest, op)))?;
    let (a, b) = shared_property(rest).or_else(|| {
        let (a, b) = split_word(rest, "and")?;
        Some((value(a)?, value(b)?))
    })?;
    Some(format!("({a}) {op} ({b})"))
}

/// `the lengths of a and b` → `len(a)`, `len(b)`: one property said of two
/// values.
fn shared_property(text: &str) -> Option<(String, String)> {
    let text = strip_prefix_ci(text, "the ").unwrap_or(text);
    let (property, owners) = split_word(text, "of")?;
    let (a, b) = split_word(owners, "and")?;
    let singular = property.strip_suffix('s').unwrap_or(property);
    [singular, property]
        .into_iter()
        .find_map(|p| Some((value(&format!("{p} of {a}"))?, value(&format!("{p} of {b}"))?)))
}

/// A number or a quoted string: a value, never a condition of its own.
fn is_literal(text: &str) -> bool {
    let text = text.trim();
    text.parse::<f64>().is_ok() || is_quoted(text)
}

fn is_quoted(text: &str) -> bool {
    text.len() >= 2
        && ((text.starts_with('\'') && text.ends_with('\'')) || (text.starts_with('"') && text.ends_with('"')))
        && !text[1..text.len() - 1].contains(['\'', '"'])
}

/// `Add its elements to result` (after a call: the call's value), `Append
/// the elements of xs to out`, `Extend out with xs`: a list extended.
fn extended(text: &str) -> Option<String> {
    if let Some(rest) = after_word(text, "extend")
        && let Some((list, with)) = split_word(rest, "with")
    {
        return Some(format!("{}.extend({})", expression(list)?, value(with)?));
    }
    let rest = after_word(text, "add").or_else(|| after_word(text, "append"))?;
    let (what, list) = split_word(rest, "to")?;
    let what = what.trim();
    let what = strip_prefix_ci(what, "all ").unwrap_or(what);
    let items = if ["its elements", "its items"].iter().any(|w| what.eq_ignore_ascii_case(w)) {
        labels::CALL_RESULT.to_owned()
    } else if strip_prefix_ci(what, "the rest of ").is_some() {
        value(what)?
    } else {
        // `the elements of xs`, `remaining elements a[i:]`, `the remaining
        // items of rest`.
        let what = strip_prefix_ci(what, "the ").unwrap_or(what);
        let what = ["remaining ", "other "].iter().find_map(|w| strip_prefix_ci(what, w)).unwrap_or(what);
        let of = ["elements", "items", "values", "numbers", "characters"].iter().find_map(|noun| {
            let rest = strip_prefix_ci(what, noun)?;
            // A word, not the start of a name (`values[s[i]]`).
            if !rest.starts_with(' ') {
                return None;
            }
            let rest = rest.trim_start();
            Some(strip_prefix_ci(rest, "of ").or_else(|| strip_prefix_ci(rest, "in ")).unwrap_or(rest))
        })?;
        value_without_the(of.trim())?
    };
    let list = list.trim();
    Some(format!("{}.extend({items})", expression(strip_prefix_ci(list, "the ").unwrap_or(list))?))
}

/// How a box says the value of the call drawn just before it (after `the`).
const CALL_RESULTS: [&str; 6] = [
    "result of the recursive call",
    "result of the call",
    "recursive call's result",
    "recursive result",
    "result of recursion",
    "value returned by the recursive call",
];

/// A decision's condition as code: the question's wording (`Is`, `?`,
/// remarks) removed and plain-English tests (`s is empty`, `x is even`,
/// `dfs(v) returned True`, `a less than b`) written as Python.
pub fn condition(label: &str) -> Option<String> {
    worded_condition(label).map(|code| literal_is_as_equality(&code))
}

/// `grid[r][c] is '1'` → `grid[r][c] == '1'`: in a chart `is` before a
/// number or a string means equality (Python's identity test against a
/// literal is a warning there and never what a chart means); `is None`,
/// `is True` stay.
fn literal_is_as_equality(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut quote = None::<char>;
    let mut rest = code;
    while let Some(c) = rest.chars().next() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None => {
                let literal =
                    |after: &str| after.starts_with(|n: char| n.is_ascii_digit() || matches!(n, '\'' | '"' | '-'));
                let equality = [(" is not ", " != "), (" is ", " == ")]
                    .into_iter()
                    .find_map(|(words, op)| rest.strip_prefix(words).filter(|a| literal(a)).map(|a| (op, a)));
                if let Some((op, after)) = equality {
                    out.push_str(op);
                    rest = after;
                    continue;
                }
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The code a question states after itself: `Has n reached 1? (n == 1)`,
/// or without parentheses `Step broken? step in blocked`. Such code is the
/// decision's test whatever the question's words say (`Are there elements
/// left? (i < len(nums))` is a counter's test, not a for-each).
pub fn code_after_question(label: &str) -> Option<String> {
    let joined = box_lines(label).join(" ");
    let (_, after) = joined.rsplit_once('?')?;
    let after = after.trim();
    let inner = after.strip_prefix('(').and_then(|r| r.strip_suffix(')')).unwrap_or(after);
    expression(inner.trim())
}

fn worded_condition(label: &str) -> Option<String> {
    if let Some(code) = code_after_question(label) {
        return Some(code);
    }
    let text = question(label);
    // `stack is empty`, `i is odd` parse as Python (`is` and a name) but
    // say an idiom: the words win.
    if is_idiom(&text)
        && let Some(code) = phrase(&text)
    {
        return Some(code);
    }
    // `n is 2 or 3` parses as Python but means membership.
    if let Some(code) = one_of_values(&text).or_else(|| pair_compared(&text)) {
        return Some(code);
    }
    if let Some(code) = expression(&text) {
        return Some(code);
    }
    // `Is flg 0?`: `is` before a value, taken with the question's `Is`.
    if let Some(code) = juxtaposed_values(&text) {
        return Some(code);
    }
    // `d divides n`: n % d == 0.
    if let Some((a, b)) = split_word(&text, "divides").or_else(|| split_word(&text, "divide"))
        && let (Some(a), Some(b)) = (expression(a), expression(b))
    {
        return Some(format!("({b}) % ({a}) == 0"));
    }
    // `Does w start with prefix?`, `name ends with '.py'`.
    for (verb, method) in [
        ("starts with", "startswith"),
        ("start with", "startswith"),
        ("ends with", "endswith"),
        ("end with", "endswith"),
    ] {
        if let Some((a, b)) = split_word(&text, verb)
            && let (Some(a), Some(b)) = (value(a), value(b))
        {
            return Some(format!("({a}).{method}({b})"));
        }
    }
    // Each side of a top-level `and`/`or` may be worded on its own.
    for sep in ["or", "and"] {
        // `n less than or equal to one` splits at `or` into no conditions:
        // the comparison's words below read it. A bare value is no side of
        // one (`n 2 or 3`).
        if let Some((a, b)) = split_word(&text, sep)
            && !is_literal(a)
            && !is_literal(b)
            && let (Some(a), Some(b)) = (condition(a), condition(b))
        {
            return Some(format!("({a}) {sep} ({b})"));
        }
    }
    phrase(&text).or_else(|| {
        // `value already in seen`, `stack still non-empty`: an adverb
        // that says nothing the test computes.
        let plain: Vec<&str> = text.split(' ').filter(|w| !FILLERS.contains(&w.to_lowercase().as_str())).collect();
        let plain = plain.join(" ");
        (plain != text).then(|| condition(&plain)).flatten()
    })
}

/// A sign said with its bound included (`n is zero or less`): one test, not
/// an `or` of two (`n zero` or `less`).
const SIGNS: [(&str, &str); 10] = [
    (" zero or less", "<= 0"),
    (" zero or below", "<= 0"),
    (" zero or negative", "<= 0"),
    (" non-positive", "<= 0"),
    (" nonpositive", "<= 0"),
    (" zero or more", ">= 0"),
    (" zero or above", ">= 0"),
    (" zero or positive", ">= 0"),
    (" non-negative", ">= 0"),
    (" nonnegative", ">= 0"),
];

/// Adverbs a question may carry that change nothing it tests.
const FILLERS: [&str; 5] = ["already", "still", "currently", "yet", "actually"];

/// Whether a test ends in a word Python would read as a name but a person
/// means as a property (`x is even`, `stack is not empty`).
fn is_idiom(text: &str) -> bool {
    let lower = text.trim().to_lowercase();
    if SIGNS.iter().any(|(words, _)| lower.ends_with(words)) {
        return true;
    }
    let Some((_, last)) = lower.rsplit_once(' ') else { return false };
    let before = lower[..lower.len() - last.len()].trim_end();
    [
        "odd",
        "even",
        "empty",
        "zero",
        "positive",
        "negative",
        "nonempty",
        "non-empty",
        "uppercase",
        "lowercase",
        "alphabetic",
        "alphanumeric",
        "whitespace",
    ]
    .contains(&last)
        && (before.ends_with(" is") || before.ends_with(" is not") || before.ends_with(" are"))
}

/// The text of a question: lines without remark-only lines, joined; no
/// `?`, no leading `Is`/`Check if`.
pub fn question(label: &str) -> String {
    let text = without_remark_after_question(box_lines(label).join(" "));
    let mut text = text.trim().trim_end_matches(['?', '.', ':']).trim().to_owned();
    for lead in ["check if", "check whether", "is it true that", "whether", "is", "are", "does", "do", "if", "while"] {
        if let Some(rest) = after_word(&text, lead)
            && !rest.is_empty()
        {
            text = rest.to_owned();
            break;
        }
    }
    sentence_case_dropped(&text)
}

/// `Stack empty or …` → `stack empty or …`: the capital a sentence starts
/// with is no part of the name (a Title-case word; `N`, `True`, `None`
/// keep theirs).
fn sentence_case_dropped(text: &str) -> String {
    let end = text.find(|c: char| !c.is_alphabetic()).unwrap_or(text.len());
    let word = &text[..end];
    let mut chars = word.chars();
    let title =
        chars.next().is_some_and(|c| c.is_ascii_uppercase()) && word.len() > 1 && chars.all(|c| c.is_ascii_lowercase());
    if !title || ["True", "False", "None"].contains(&word) {
        return text.to_owned();
    }
    format!("{}{}", word.to_lowercase(), &text[end..])
}

/// `Is n prime?`, `Is s a palindrome?`, `Are (0, 0) and (r, c) both
/// open?`, `Is cell not safe?`: a property of values that a function of
/// the chart tests (`is_prime`, `is_open`). Which functions there are only
/// the chart says: `arity` gives a name's parameter count when the chart
/// defines it. A tuple said as the subject of a function of as many
/// parameters is its arguments (`is_open(0, 0)`).
pub fn property_tested(label: &str, arity: &dyn Fn(&str) -> Option<usize>) -> Option<String> {
    let text = question(label);
    let words: Vec<&str> = text.split(' ').filter(|w| !w.is_empty()).collect();
    for k in 1..=3.min(words.len().saturating_sub(1)) {
        let property = words[words.len() - k..].join("_").to_lowercase();
        if !property.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let Some((function, params)) =
            [format!("is_{property}"), property.clone()].into_iter().find_map(|name| arity(&name).map(|n| (name, n)))
        else {
            continue;
        };
        let mut subject = &words[..words.len() - k];
        let mut negated = false;
        while let Some((last, before)) = subject.split_last() {
            match last.to_lowercase().as_str() {
                "not" => negated = !negated,
                "a" | "an" | "is" | "are" | "both" | "all" => {}
                _ => break,
            }
            subject = before;
        }
        let subject = subject.join(" ");
        let subject = strip_prefix_ci(&subject, "both ").unwrap_or(&subject);
        let mut calls = Vec::new();
        let mut rest = subject;
        loop {
            let (one, more) = split_word(rest, "and").unwrap_or((rest, ""));
            calls.push(format!("{function}({})", arguments(&value(one)?, params)?));
            if more.is_empty() {
                break;
            }
            rest = more;
        }
        let test = calls.join(" and ");
        return Some(if negated { format!("not ({test})") } else { test });
    }
    None
}

/// A value as the arguments of a call of `params` parameters: a tuple of
/// as many items is spread.
fn arguments(value: &str, params: usize) -> Option<String> {
    match expr::parse(value)? {
        expr::Expr::Tuple(items) if items.len() == params && params > 1 => {
            let chars: Vec<char> = value.trim().chars().collect();
            let enclosed = chars.first() == Some(&'(') && closing(&chars, 0) == Some(chars.len() - 1);
            let inner = if enclosed { chars[1..chars.len() - 1].iter().collect() } else { value.trim().to_owned() };
            Some(inner.trim().to_owned())
        }
        _ => (params == 1).then(|| value.to_owned()),
    }
}

/// `dist > best[town]? (stale entry)` → `dist > best[town]?`: a remark in
/// parentheses after a decision's question.
fn without_remark_after_question(text: String) -> String {
    if let Some((asked, after)) = text.rsplit_once('?') {
        let chars: Vec<char> = after.trim().chars().collect();
        if chars.first() == Some(&'(') && closing(&chars, 0) == Some(chars.len() - 1) {
            return format!("{asked}?");
        }
    }
    text
}

/// Plain-English tests: `X is empty`, `X is not empty`, `X returned True`,
/// `X is even`, `X is divisible by Y`, `X less than Y`, ….
fn phrase(text: &str) -> Option<String> {
    let text = strip_comments(text);
    let lower = text.to_lowercase();
    let subject = |suffix: &str| -> Option<String> {
        if !lower.ends_with(suffix) {
            return None;
        }
        let s = text[..text.len() - suffix.len()].trim();
        let s = s.strip_suffix(" is").or_else(|| s.strip_suffix(" are")).unwrap_or(s).trim();
        value(s)
    };
    for (suffix, positive) in [
        (" not empty", true),
        (" non-empty", true),
        (" nonempty", true),
        (" empty", false),
        (" returned true", true),
        (" returns true", true),
        (" true", true),
        (" returned false", false),
        (" returns false", false),
        (" false", false),
    ] {
        if let Some(x) = subject(suffix) {
            return Some(if positive { x } else { format!("not ({x})") });
        }
    }
    for (suffix, test) in SIGNS.into_iter().chain([
        // `i an even position`, `k at an odd index`.
        (" an even position", "% 2 == 0"),
        (" an even index", "% 2 == 0"),
        (" an even number", "% 2 == 0"),
        (" an odd position", "% 2 == 1"),
        (" an odd index", "% 2 == 1"),
        (" an odd number", "% 2 == 1"),
        (" even", "% 2 == 0"),
        (" odd", "% 2 == 1"),
        (" non-zero", "!= 0"),
        (" nonzero", "!= 0"),
        (" not zero", "!= 0"),
        (" zero", "== 0"),
        (" positive", "> 0"),
        (" negative", "< 0"),
    ]) {
        if let Some(x) = subject(suffix) {
            return Some(format!("({x}) {test}"));
        }
    }
    // `Can t be converted to int?`, `s is a valid integer`: a `try` of
    // the conversion, drawn as a decision on whether it succeeds.
    if let Some(code) = conversion_test(&text, &subject) {
        return Some(code);
    }
    // `item is a list`, `x is not a string`: a type test.
    for (kind, ty) in [
        ("a list", "list"),
        ("a string", "str"),
        ("a str", "str"),
        ("an integer", "int"),
        ("an int", "int"),
        ("a float", "float"),
        ("a number", "(int, float)"),
        ("a dict", "dict"),
        ("a dictionary", "dict"),
        ("a tuple", "tuple"),
        ("a set", "set"),
    ] {
        if let Some(x) = subject(&format!(" not {kind}")) {
            return Some(format!("not isinstance({x}, {ty})"));
        }
        if let Some(x) = subject(&format!(" {kind}")) {
            return Some(format!("isinstance({x}, {ty})"));
        }
    }
    // `ch is a digit`, `c is not a letter`: a character's class.
    for (class, test) in CHARACTER_CLASSES {
        if let Some(x) = subject(&format!(" not {class}")) {
            return Some(format!("not ({})", test.replace('X', &format!("({x})"))));
        }
        if let Some(x) = subject(&format!(" {class}")) {
            return Some(test.replace('X', &format!("({x})")));
        }
    }
    // `i still inside nums`, `j within the list`: an index in bounds.
    for (words, inside) in [("outside", false), ("out of", false), ("inside", true), ("within", true)] {
        let Some((index, seq)) = split_word(&text, words) else { continue };
        let index = strip_suffix_ci(index, " is").unwrap_or(index);
        let seq = strip_prefix_ci(seq, "the bounds of ").or_else(|| strip_prefix_ci(seq, "bounds of ")).unwrap_or(seq);
        if let (Some(i), Some(s)) = (expression(index), value_without_the(seq)) {
            let test = format!("0 <= ({i}) < len({s})");
            return Some(if inside { test } else { format!("not ({test})") });
        }
    }
    // `heights at i greater than both neighbours`: an element against the
    // one before it and the one after it.
    for (words, op) in
        [("greater than", ">"), ("larger than", ">"), ("bigger than", ">"), ("less than", "<"), ("smaller than", "<")]
    {
        for both in ["both neighbours", "both neighbors", "both its neighbours", "both its neighbors"] {
            let Some(subject) = strip_suffix_ci(&text, &format!(" {words} {both}")) else { continue };
            let subject = strip_suffix_ci(subject, " is").unwrap_or(subject);
            if let Some(element) = value(subject)
                && let Some(expr::Expr::Index(..)) = expr::parse(&element)
                && let Some((base, index)) = element.rsplit_once('[')
                && let Some(index) = index.strip_suffix(']')
            {
                return Some(format!(
                    "({element}) {op} ({base}[{index} - 1]) and ({element}) {op} ({base}[{index} + 1])"
                ));
            }
        }
    }
    for (words, op) in [
        ("is less than or equal to", "<="),
        ("less than or equal to", "<="),
        ("is greater than or equal to", ">="),
        ("greater than or equal to", ">="),
        ("is at most", "<="),
        ("is at least", ">="),
        ("is less than", "<"),
        ("less than", "<"),
        ("is smaller than", "<"),
        ("smaller than", "<"),
        ("is greater than", ">"),
        ("greater than", ">"),
        ("is larger than", ">"),
        ("larger than", ">"),
        ("is bigger than", ">"),
        ("bigger than", ">"),
        ("at most", "<="),
        ("at least", ">="),
        ("exceeds", ">"),
        ("is not equal to", "!="),
        ("does not equal", "!="),
        ("not equal to", "!="),
        ("is equal to", "=="),
        ("equal to", "=="),
        ("equals", "=="),
        ("is different from", "!="),
        ("different from", "!="),
        ("differs from", "!="),
        ("is the same as", "=="),
        ("the same as", "=="),
        ("equal", "=="),
        ("is not in", "not in"),
        ("is in", "in"),
        ("is divisible by", "%"),
        ("divisible by", "%"),
        ("is a multiple of", "%"),
    ] {
        if let Some((a, b)) = split_word(&text, words) {
            let (a, b) = (value(a)?, value(b)?);
            return Some(if op == "%" { format!("({a}) % ({b}) == 0") } else { format!("({a}) {op} ({b})") });
        }
    }
    // `k < length of nums`: a comparison whose sides are said in words;
    // last, a bare `in` (`k minus x in seen`), where both sides read as
    // values (Python's own `x in seen` never gets here).
    for op in ["<=", ">=", "!=", "==", "<", ">", "not in", "in"] {
        if let Some((a, b)) = split_word(&text, op)
            && let (Some(a), Some(b)) = (value(a), value(b))
        {
            return Some(format!("({a}) {op} ({b})"));
        }
    }
    None
}

/// Names of the helpers a reading may call where the words leave a choice
/// to the values (chart2py defines those a program uses, [`HELPERS`]).
/// Their code does what the words say whatever the values are, but it is
/// not the solution's code (a conversion tried; `n is 2 or 3` where the
/// code, past `n < 2`, tests `n < 4`): the structural comparison leaves
/// such lines unverified, and running the chart decides.
pub const HELPER_PREFIX: &str = "__fb_";

/// The predicate a conversion test calls: whether `kind(x)` returns
/// rather than raising.
pub const CONVERTS: &str = "__fb_converts__";

/// The predicate a test of one value against several calls: whether `x`
/// is among them.
pub const ONE_OF: &str = "__fb_one_of__";

/// Each helper's name and its Python definition.
pub const HELPERS: [(&str, &str); 2] = [
    (
        CONVERTS,
        "def __fb_converts__(kind, x):\n    try:\n        kind(x)\n        return True\n    \
         except (ValueError, TypeError, OverflowError):\n        return False",
    ),
    (ONE_OF, "def __fb_one_of__(x, *values):\n    return x in values"),
];

/// `Can t be converted to int`, `t can be converted to a number`, `s is a
/// valid integer`, `s is not a valid float`: whether a conversion succeeds.
fn conversion_test(text: &str, subject: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let kind_of = |words: &str| {
        let words = words.trim().to_lowercase();
        let words = words.strip_prefix("an ").or_else(|| words.strip_prefix("a ")).unwrap_or(&words).to_owned();
        match words.as_str() {
            "int" | "integer" | "whole number" => Some("int"),
            "float" | "number" | "decimal" | "real number" => Some("float"),
            _ => None,
        }
    };
    // `Can t be converted …` asks it, `t can be converted …` says it.
    let converted = match strip_prefix_ci(text, "can ") {
        Some(rest) => split_word(rest, "be converted to"),
        None => split_word(text, "can be converted to"),
    };
    if let Some((x, kind)) = converted
        && let (Some(kind), Some(x)) = (kind_of(kind), expression(x))
    {
        return Some(format!("{CONVERTS}({kind}, {x})"));
    }
    for (words, kind) in [("integer", "int"), ("int", "int"), ("number", "float"), ("float", "float")] {
        if let Some(x) = subject(&format!(" not a valid {words}")) {
            return Some(format!("not {CONVERTS}({kind}, {x})"));
        }
        if let Some(x) = subject(&format!(" a valid {words}")) {
            return Some(format!("{CONVERTS}({kind}, {x})"));
        }
    }
    None
}

/// A character's class in words, and its test on `X` (longer wordings
/// first: `an uppercase letter` before `a letter`). Case is the ASCII
/// range, as charts about letters mean it; `a vowel` is left unread (is
/// `y` one? capitals?).
const CHARACTER_CLASSES: [(&str, &str); 22] = [
    ("an uppercase letter", "'A' <= X <= 'Z'"),
    ("a lowercase letter", "'a' <= X <= 'z'"),
    ("uppercase", "'A' <= X <= 'Z'"),
    ("lowercase", "'a' <= X <= 'z'"),
    ("a digit", "X.isdigit()"),
    ("a number character", "X.isdigit()"),
    ("a letter", "X.isalpha()"),
    ("alphabetic", "X.isalpha()"),
    ("alphanumeric", "X.isalnum()"),
    ("a letter or digit", "X.isalnum()"),
    ("a space", "X == ' '"),
    ("a comma", "X == ','"),
    ("a period", "X == '.'"),
    ("a full stop", "X == '.'"),
    ("a hyphen", "X == '-'"),
    ("an underscore", "X == '_'"),
    ("whitespace", "X.isspace()"),
    ("a whitespace", "X.isspace()"),
    ("a closing bracket", "X in ')]}'"),
    ("an opening bracket", "X in '([{'"),
    ("a vowel", "X in 'aeiouAEIOU'"),
    ("a consonant", "X.isalpha() and X not in 'aeiouAEIOU'"),
];

/// An operand as code or as a value said in words (`the length of nums`).
fn value(text: &str) -> Option<String> {
    expression(text).or_else(|| value_phrase(text))
}

/// A variable named with an article (`the total`): the name.
fn name_without_the(text: &str) -> Option<&str> {
    let name = text.strip_prefix("the ").unwrap_or(text);
    is_name(name).then_some(name)
}

/// A value named with an article (`the sentence`, `the digits of n`): the
/// article says nothing about what is computed.
fn value_without_the(text: &str) -> Option<String> {
    value(text.strip_prefix("the ").unwrap_or(text))
}

/// Loop wordings: `More x in xs?` (flowbench's), `Next x in nums?`,
/// `More characters ch in text?`, `For each (u, v) in edges`,
/// `More directions dr, dc?`. `None`: not worded as an iteration.
pub fn for_each(label: &str) -> Option<ForEach> {
    if let Some((target, iter)) = labels::parse_for(label.trim())
        && expr::parse(target).is_some()
        && expr::parse(iter).is_some()
    {
        return Some(ForEach { target: Some(target.to_owned()), iter: Some(iter.to_owned()) });
    }
    let text = without_remark_after_question(box_lines(label).join(" "));
    let text = text.trim().trim_end_matches(['?', '.', ':']).trim();
    // `Loop: for each v in values`: the leading word's colon says nothing.
    let first = text.split_whitespace().next()?.trim_end_matches(':').to_lowercase();
    let second = text.split_whitespace().nth(1).unwrap_or("").to_lowercase();
    // `Any characters left in text?`, `Are there elements of l left to
    // visit?`: a question whether items remain.
    // (`x left of y` is a position.)
    let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    let remain = words.iter().enumerate().any(|(i, w)| {
        REMAIN.contains(&w.as_str())
            && words.get(i + 1).is_none_or(|next| ["in", "to", "over", "from", "for"].contains(&next.as_str()))
    });
    let loop_word =
        matches!(first.as_str(), "more" | "next" | "for" | "each" | "another" | "remaining" | "iterate" | "loop")
            || (matches!(first.as_str(), "any" | "has" | "have" | "still")
                && matches!(second.as_str(), "more" | "next"))
            || (matches!(first.as_str(), "any" | "are" | "is" | "has" | "have" | "still" | "there") && remain);
    if !loop_word {
        return None;
    }
    let (head, iter) = ["in", "of", "over", "from"]
        .iter()
        .find_map(|sep| split_word(text, sep))
        .map_or((text, None), |(h, i)| (h, expression(before_remain(i))));
    // `For each index i, character ch in s`, `Next index i and value v of
    // xs`: the index and the item, counted by `enumerate`.
    if let Some((index, item)) = index_and_item(head) {
        return Some(ForEach {
            target: Some(format!("{index}, {item}")),
            iter: iter.map(|i| format!("enumerate({i})")),
        });
    }
    Some(ForEach { target: trailing_names(head), iter })
}

/// `… index i, character ch`, `… index i and value v`: the index's name
/// and the item's (the last word of each part).
fn index_and_item(head: &str) -> Option<(String, String)> {
    let lower = head.to_lowercase();
    let at = lower.find("index ")?;
    let rest = &head[at + "index ".len()..];
    let (index, item) = rest.split_once(',').or_else(|| split_word(rest, "and"))?;
    let index = index.trim();
    let item = item.trim().rsplit(' ').next()?.trim();
    (is_name(index) && is_name(item) && index != item).then(|| (index.to_owned(), item.to_owned()))
}

/// Words saying that items remain (`left`, `remaining`): never a name.
const REMAIN: [&str; 3] = ["left", "remaining", "unvisited"];

/// `text left to visit` → `text`: the iterable before the words that say
/// items remain.
fn before_remain(text: &str) -> &str {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.iter().position(|w| REMAIN.contains(&w.to_lowercase().as_str())) {
        Some(at) => {
            let cut = text.find(words[at]).unwrap_or(text.len());
            text[..cut].trim()
        }
        None => text.trim(),
    }
}

/// The comma-separated identifiers at the end of `text` (`u, v` in `More
/// edges u, v`), as code; parentheses round them are dropped.
fn trailing_names(text: &str) -> Option<String> {
    let text = text.trim();
    let text = if text.ends_with(')') {
        let open = text.rfind('(')?;
        let inner = &text[open + 1..text.len() - 1];
        return names_list(inner);
    } else {
        text
    };
    let mut names = Vec::new();
    let mut rest = text;
    loop {
        let word_start = rest.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
        let word = &rest[word_start..];
        if word.is_empty() || word.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            break;
        }
        names.insert(0, word.to_owned());
        let before = rest[..word_start].trim_end();
        match before.strip_suffix(',') {
            Some(b) => rest = b.trim_end(),
            None => break,
        }
    }
    let last = names.last()?;
    // A lone plain word (`More items`) names nothing.
    if names.len() == 1
        && (["items", "elements", "values", "numbers", "characters", "chars", "entries", "words"]
            .contains(&last.to_lowercase().as_str())
            || REMAIN.contains(&last.to_lowercase().as_str()))
    {
        return None;
    }
    Some(names.join(", "))
}

fn names_list(text: &str) -> Option<String> {
    let names: Vec<&str> = text.split(',').map(str::trim).collect();
    names.iter().all(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_')).then(|| names.join(", "))
}

/// An Output/Return node's value: the text after `Return`/`Output:`, and
/// its code (`None` value: a bare `Return`).
pub fn output(label: &str) -> Option<Line> {
    let text = box_lines(label).join(" ");
    let text = text.trim();
    let rest =
        ["return:", "returns", "return", "output:", "output", "result:", "print:", "print", "display:", "display"]
            .iter()
            .find_map(|w| {
                let head = text.get(..w.len())?;
                head.eq_ignore_ascii_case(w).then(|| text[w.len()..].trim_start_matches(':').trim())
            })
            .unwrap_or(text);
    // `Return to caller`, `Return (nothing)`: a return without a value.
    let bare = rest.trim_matches(['(', ')', '.', ' ']).to_lowercase();
    if rest.is_empty() || NO_VALUE.contains(&bare.as_str()) {
        return None;
    }
    // `not prime - return False`: prose, then the value as code.
    let code = value(rest).or_else(|| {
        let lower = rest.to_lowercase();
        let at = lower.rfind("return ")?;
        expression(rest[at + "return ".len()..].trim())
    });
    Some(Line { text: rest.to_owned(), code })
}

/// What follows `Return` when a function gives no value back.
const NO_VALUE: [&str; 7] =
    ["to caller", "to the caller", "nothing", "no value", "without a value", "void", "from helper"];

/// One comma-separated part of an Input node.
#[derive(Debug, Clone, PartialEq)]
pub struct InputPart {
    /// Every identifier-like word of the part.
    pub words: Vec<String>,
    /// The name, when the part is one name with a type or remark
    /// (`nums (list[int])`, `k: int`, `s = ''`).
    pub name: Option<String>,
}

/// Reads an Input node (`Input: s, t (strings)`, `Input non-empty list
/// nums`, flowbench's `Input: xs (list) = []`).
pub fn input(label: &str) -> Vec<InputPart> {
    let text = box_lines(label).join(", ");
    let text = text.trim();
    let rest = ["inputs:", "input:", "inputs", "input", "given:", "given", "parameters:", "params:"]
        .iter()
        .find_map(|w| {
            let head = text.get(..w.len())?;
            head.eq_ignore_ascii_case(w).then(|| text[w.len()..].trim())
        })
        .or_else(|| after_input_verb(text))
        .unwrap_or(text);
    if rest.eq_ignore_ascii_case("none") {
        return Vec::new();
    }
    input_pieces(rest)
        .into_iter()
        .map(|piece| {
            let plain = without_brackets(&piece);
            let head = plain.split([':', '=']).next().unwrap_or("").trim().to_owned();
            let words: Vec<String> = plain
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '*'))
                .map(|w| w.trim_start_matches('*'))
                .filter(|w| w.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_'))
                .map(str::to_owned)
                .collect();
            let bare = head.trim_start_matches('*');
            let name = (!bare.is_empty()
                && bare.chars().all(|c| c.is_alphanumeric() || c == '_')
                && !bare.starts_with(|c: char| c.is_ascii_digit()))
            .then(|| bare.to_owned());
            InputPart { words, name }
        })
        .collect()
}

/// An Input node's parts: split at top-level commas, and at an `and`
/// between two plain names (`Read a and b`).
fn input_pieces(rest: &str) -> Vec<String> {
    labels::split_top_level(rest)
        .into_iter()
        .flat_map(|piece| match split_word(piece.trim(), "and") {
            Some((a, b)) if is_name(a.trim()) && is_name(b.trim()) => vec![a.trim().to_owned(), b.trim().to_owned()],
            _ => vec![piece],
        })
        .collect()
}

/// Verbs that say a box takes the function's inputs (`Read n`, `Get a, b`,
/// `Enter the list nums`).
const INPUT_VERBS: [&str; 6] = ["read", "get", "enter", "accept", "receive", "take"];

/// What an input verb takes (`Read: a, b` → `a, b`), when the text starts
/// with one.
fn after_input_verb(text: &str) -> Option<&str> {
    let first = text.split([' ', ':']).next()?;
    INPUT_VERBS.contains(&first.to_lowercase().as_str()).then(|| text[first.len()..].trim_start_matches(':').trim())
}

/// Whether a box reads the function's inputs in words: an input verb
/// before its values. In an input shape (a parallelogram) anything may
/// follow the verb; in another box only plain names (`Get n`, `Read a, b`),
/// so that `Get the next character ch` stays a step.
pub fn reads_inputs(label: &str, input_shape: bool) -> bool {
    let text = box_lines(label).join(", ");
    let Some(rest) = after_input_verb(text.trim()) else { return false };
    if rest.is_empty() {
        return false;
    }
    input_shape || input_pieces(rest).iter().all(|piece| is_name(without_brackets(piece).trim()))
}

/// Text with every bracketed part removed.
fn without_brackets(text: &str) -> String {
    let mut depth = 0;
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// A helper's name and parameters from a subgraph title or Start label:
/// `Helper: is_open(r, c)`, `Helper 2: is_amicable(a)`, `below_thousand(k):
/// words for 0 < k < 1000`, `Start: f(a, b=1)`, `def f(x)`.
pub fn signature(text: &str) -> Option<(String, Option<Vec<String>>)> {
    let text = normalize(&labels::on_one_line(text, " "));
    let chars: Vec<char> = text.chars().collect();
    // The first `name(` whose parenthesis closes: the signature.
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_alphabetic() || chars[i] == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '.') {
                i += 1;
            }
            let name: String = chars[start..i].iter().collect();
            if chars.get(i) == Some(&'(')
                && let Some(close) = closing(&chars, i)
            {
                let inner: String = chars[i + 1..close].iter().collect();
                let params = labels::split_top_level(&inner);
                let plain = params.iter().all(|p| {
                    let n = p.split(['=', ':']).next().unwrap_or("").trim().trim_start_matches('*');
                    !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_')
                });
                if plain && !is_lead_word(&name) {
                    return Some((name, Some(params)));
                }
            }
        } else {
            i += 1;
        }
    }
    // No parameter list: the last plain word after a `Helper:`-like lead.
    let words: Vec<&str> =
        text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.')).filter(|w| !w.is_empty()).collect();
    let name = words.iter().find(|w| !is_lead_word(w) && !w.chars().all(|c| c.is_ascii_digit()))?;
    Some(((*name).to_owned(), None))
}

fn is_lead_word(w: &str) -> bool {
    matches!(
        w.to_lowercase().as_str(),
        "helper"
            | "function"
            | "method"
            | "def"
            | "start"
            | "begin"
            | "subroutine"
            | "procedure"
            | "call"
            | "recursive"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(label: &str) -> Vec<Option<String>> {
        statements(label).into_iter().map(|l| l.code).collect()
    }

    #[test]
    fn pseudo_code_calls_without_parentheses_and_mod() {
        let some = |s: &[&str]| s.iter().map(|x| Some((*x).to_owned())).collect::<Vec<_>>();
        assert_eq!(code("a = abs a, b = abs b"), some(&["a = abs(a)", "b = abs(b)"]));
        assert_eq!(code("lo = 0, hi = len nums - 1"), some(&["lo = 0", "hi = len(nums) - 1"]));
        assert_eq!(code("n = len grid[0].cells"), some(&["n = len(grid[0].cells)"]));
        assert_eq!(code("r = a mod b"), some(&["r = a % b"]));
        assert_eq!(code("digit = n mod 10"), some(&["digit = n % 10"]));
        assert_eq!(code("swap tiles[low], tiles[mid]"), some(&["tiles[low], tiles[mid] = tiles[mid], tiles[low]"]));
        assert_eq!(code("append line to lines, line = ''"), some(&["lines.append(line)", "line = ''"]));
        assert_eq!(code("Add the elements of rest to out"), some(&["out.extend(rest)"]));
        assert_eq!(code("Extend out with rest"), some(&["out.extend(rest)"]));
        assert_eq!(code("Append the rest of a from i to out"), some(&["out.extend(a[i:])"]));
        assert_eq!(code("n = 3n + 1"), some(&["n = 3*n + 1"]));
        assert_eq!(condition("Is the list of words empty?").as_deref(), Some("not (words)"));
        let after_call = format!("result.extend({})", labels::CALL_RESULT);
        assert_eq!(code("add its elements to result"), some(&[after_call.as_str()]));
        assert_eq!(code("i, j = len(a) - 1, len(b) - 1"), some(&["i = len(a) - 1", "j = len(b) - 1"]));
        // A swap, or values reading a target, stay one statement.
        assert_eq!(code("a, b = b, a + b"), some(&["a, b = b, a + b"]));
        assert_eq!(code("x, y = 0, (1, 2)"), some(&["x = 0", "y = (1, 2)"]));
        assert_eq!(code("Set i = 0 and j = len t - 1"), some(&["i = 0", "j = len(t) - 1"]));
        assert_eq!(code("found = x and y"), some(&["found = x and y"]));
        assert_eq!(code("total = total + digit a[i], i = i - 1"), vec![None, Some("i = i - 1".to_owned())]);
        assert_eq!(code("Keep only letters and digits of s, lower-cased, as t"), vec![None]);
        // Not calls: a keyword or filler after the word, a name of that
        // spelling assigned, text in quotes, an attribute of that name.
        assert_eq!(prefix_calls("sum of squares"), "sum of squares");
        assert_eq!(prefix_calls("an empty set seen"), "an empty set seen");
        assert_eq!(prefix_calls("max = 0"), "max = 0");
        assert_eq!(prefix_calls("mod = 7"), "mod = 7");
        assert_eq!(prefix_calls("s = 'len x'"), "s = 'len x'");
        assert_eq!(prefix_calls("best = self.max value"), "best = self.max value");
        assert_eq!(condition("i < len s").as_deref(), Some("i < len(s)"));
    }

    #[test]
    fn containers_stored_results_and_numbers_in_words() {
        let one = |s: &str| Some(vec![s.to_owned()]);
        assert_eq!(statement("Create an empty set seen"), one("seen = set()"));
        assert_eq!(statement("Initialize result as an empty list"), one("result = []"));
        assert_eq!(statement("Make a new empty dictionary called counts"), one("counts = {}"));
        assert_eq!(statement("Start an empty list of parts"), one("parts = []"));
        assert_eq!(statement("Let lo be 0 and hi be n"), Some(vec!["lo = 0".to_owned(), "hi = n".to_owned()]));
        assert_eq!(statement("Start with an empty output list"), one("output = []"));
        assert_eq!(statement("Create an empty hash set"), None, "no name");
        assert_eq!(statement("Set best to an empty string"), one("best = ''"));
        assert_eq!(statement("seen = empty set"), one("seen = set()"));
        assert_eq!(
            statement("Recursive call: power_set_size n - 1, store as smaller"),
            one("smaller = power_set_size(n - 1)")
        );
        assert_eq!(
            statement("Recursive call: power_set_size on items without its first element, store as rest"),
            one("rest = power_set_size(items[1:])")
        );
        assert_eq!(statement("Call helper(i + 1) and store the result in rest"), one("rest = helper(i + 1)"));
        assert_eq!(statement("recursively call solve i + 1, j"), one("solve(i + 1, j)"));
        assert_eq!(statement("Increase total by one"), one("total += 1"));
        assert_eq!(condition("Is n equal to zero?").as_deref(), Some("(n) == (0)"));
        assert_eq!(condition("grid[r][c] is '1'?").as_deref(), Some("grid[r][c] == '1'"));
        assert_eq!(condition("n is not 0 and x is None").as_deref(), Some("n != 0 and x is None"));
        assert_eq!(condition("s == 'a is 1'").as_deref(), Some("s == 'a is 1'"));
        assert_eq!(condition("Is n less than or equal to one?").as_deref(), Some("(n) <= (1)"));
        assert_eq!(condition("Is i less than the length of nums?").as_deref(), Some("(i) < (len(nums))"));
        assert_eq!(condition("k < length of nums?").as_deref(), Some("(k) < (len(nums))"));
        assert_eq!(condition("i < len of values?").as_deref(), Some("(i) < (len(values))"));
        assert_eq!(condition("item is a list?").as_deref(), Some("isinstance(item, list)"));
        assert_eq!(condition("Is x not a string?").as_deref(), Some("not isinstance(x, str)"));
        assert_eq!(condition("Is the top of the stack less than t?").as_deref(), Some("(stack[-1]) < (t)"));
        assert_eq!(condition("temperatures[top of stack] < t?").as_deref(), Some("(temperatures[stack[-1]]) < (t)"));
        assert_eq!(statement("cur = maximum of nums[k] and cur + nums[k]"), one("cur = max(nums[k], cur + nums[k])"));
        assert_eq!(statement("best = max of best and cur"), one("best = max(best, cur)"));
        assert_eq!(statement("Call factorial with n - 1 and store the result in rest"), one("rest = factorial(n - 1)"));
        assert_eq!(output("Return empty list").and_then(|l| l.code).as_deref(), Some("[]"));
        assert_eq!(statement("shortest = the shortest string in strs"), one("shortest = min(strs, key=len)"));
        let two = |a: &str, b: &str| Some(vec![a.to_owned(), b.to_owned()]);
        assert_eq!(statement("Set a to 0 and b to 1"), two("a = 0", "b = 1"));
        assert_eq!(statement("Set records to 0 and highest to nothing"), two("records = 0", "highest = None"));
        assert_eq!(statement("Set the index i to 0"), one("i = 0"));
        assert_eq!(statement("Let m be the first element of l"), one("m = l[0]"));
        assert_eq!(statement("Replace n by its absolute value"), one("n = abs(n)"));
        assert_eq!(statement("Move inwards: i = i + 1; j = j - 1"), two("i = i + 1", "j = j - 1"));
        assert_eq!(statement("Take absolute values: a = abs(a); b = abs(b)"), two("a = abs(a)", "b = abs(b)"));
        assert_eq!(output("Return the empty string").and_then(|l| l.code).as_deref(), Some("''"));
        assert_eq!(condition("Does d divide n?").as_deref(), Some("(n) % (d) == 0"));
        assert_eq!(condition("Is n smaller than 2?").as_deref(), Some("(n) < (2)"));
        // A sign with its bound included is one test, not an `or`.
        assert_eq!(condition("Is n zero or less?").as_deref(), Some("(n) <= 0"));
        assert_eq!(condition("Is balance non-negative?").as_deref(), Some("(balance) >= 0"));
        assert_eq!(condition("Is nums[i] zero or more?").as_deref(), Some("(nums[i]) >= 0"));
        assert_eq!(condition("Is the length of w odd?").as_deref(), Some("(len(w)) % 2 == 1"));
        // `is` before a value; never an `or` with a bare value as one side.
        assert_eq!(condition("Is flg 0?").as_deref(), Some("(flg) == 0"));
        assert_eq!(condition("Is values at i equal to best?").as_deref(), Some("(values[i]) == (best)"));
        assert_eq!(condition("Is power at most n?").as_deref(), Some("(power) <= (n)"));
        assert_eq!(condition("Is s[i] 'a'?").as_deref(), Some("(s[i]) == 'a'"));
        assert_eq!(condition("Is n 2 or 3?").as_deref(), Some("__fb_one_of__(n, 2, 3)"));
        assert_eq!(condition("Is count of words 3?"), None);
        assert_eq!(condition("power at most n?").as_deref(), Some("(power) <= (n)"));
        assert_eq!(condition("d squared at most n?").as_deref(), Some("((d) ** 2) <= (n)"));
        assert_eq!(condition("Is the square of d greater than n?").as_deref(), Some("((d) ** 2) > (n)"));
        assert_eq!(statement("Let the vowels be a, e, i, o, u"), one("vowels = 'aeiou'"));
        assert_eq!(statement("Let the pair be a, b"), None, "two names are no list of letters");
        assert_eq!(condition("Is i still inside nums?").as_deref(), Some("0 <= (i) < len(nums)"));
        assert_eq!(condition("j outside the bounds of grid?").as_deref(), Some("not (0 <= (j) < len(grid))"));
        assert_eq!(
            condition("heights at i greater than both neighbours?").as_deref(),
            Some("(heights[i]) > (heights[i - 1]) and (heights[i]) > (heights[i + 1])")
        );
        assert_eq!(statement("lower-cased: t = s.lower()"), one("t = s.lower()"), "a lead-in, no annotation");
        assert_eq!(statement("best = longest word of words"), one("best = max(words, key=len)"));
        assert_eq!(statement("total = sum of x * x for each x in nums"), one("total = sum(x * x for x in nums)"));
        assert_eq!(statement("ok = all of c > 0 for c in counts"), one("ok = all(c > 0 for c in counts)"));
        assert_eq!(condition("value already in seen?").as_deref(), Some("value in seen"));
        assert_eq!(condition("Is k minus x already in seen?").as_deref(), Some("((k) - (x)) in (seen)"));
        assert_eq!(condition("length of word not in lengths?").as_deref(), Some("(len(word)) not in (lengths)"));
        // Prose stays prose: no container, no name, nothing stored.
        assert_eq!(statement("Create the answer from the parts"), None);
        assert_eq!(statement("Create an empty board"), None);
        assert_eq!(statement("Keep going, store nothing"), None);
        // Letters whose lower case is longer in bytes never shift a cut.
        assert_eq!(statement("İİİ x and store it in y"), None);
        assert_eq!(condition("Is the search still going on?"), None);
    }

    #[test]
    fn statements_repeated_tables_named_values_and_broken_lines() {
        let some = |s: &[&str]| s.iter().map(|x| Some((*x).to_owned())).collect::<Vec<_>>();
        // A loop said after its statement: `..` counts both ends, `..<` not.
        assert_eq!(
            code("Fill first row: dp[0][j] = j for j in 0..n"),
            some(&["for j in range(0, (n) + 1):\n    dp[0][j] = j"])
        );
        assert_eq!(code("seen[v] = False for v in 0..<n"), some(&["for v in range(0, n):\n    seen[v] = False"]));
        assert_eq!(code("Repeat for each x in xs"), vec![None]);
        assert_eq!(code("count[c] += 1 for each c in s"), some(&["for c in s:\n    count[c] += 1"]));
        assert_eq!(code("dp[i] = i for i from 1 to n"), some(&["for i in range(1, (n) + 1):\n    dp[i] = i"]));
        // Prose with `for` in it stays prose.
        assert_eq!(code("Look for the target"), vec![None]);
        assert_eq!(
            code("Create table dp of size (m + 1) x (n + 1) filled with 0"),
            some(&["dp = [[0] * ((n + 1)) for _ in range((m + 1))]"])
        );
        assert_eq!(code("Make a dp array of size n + 1 initialized to False"), some(&["dp = [False] * (n + 1)"]));
        assert_eq!(code("Create table of size n filled with 0"), vec![None]);
        assert_eq!(
            code("Directions: (1, 0), (-1, 0), (0, 1), (0, -1)"),
            some(&["directions = [(1, 0), (-1, 0), (0, 1), (0, -1)]"])
        );
        assert_eq!(code("Vowels: 'a', 'e'"), some(&["vowels = ['a', 'e']"]));
        // Names are not literal values: which would they be?
        assert_eq!(named_values("Neighbours: up, down"), None);
        // A line broken inside brackets continues.
        assert_eq!(code("best = max(a,<br>b)<br>i = 0"), some(&["best = max(a, b)", "i = 0"]));
        // A verb doing something with the value is no lead-in.
        assert_eq!(code("Append chr(c)"), vec![None]);
        assert_eq!(appended("Append ch unchanged").as_deref(), Some("ch"));
        assert_eq!(appended("Push the value"), Some("value".to_owned()));
        assert_eq!(appended("Append ch to out"), None);
        assert_eq!(code("j = 0 and result list out = []"), some(&["j = 0", "out = []"]));
        assert_eq!(code("Set i = 0, j = 0 and result list out = []"), some(&["i = 0", "j = 0", "out = []"]));
        assert_eq!(code("Convert s to lowercase"), some(&["s = s.lower()"]));
        assert_eq!(code("Subtract nums at i from the total"), some(&["total -= nums[i]"]));
        assert_eq!(code("Move i to the next position"), some(&["i += 1"]));
        assert_eq!(code("Move j to the previous index"), some(&["j -= 1"]));
        assert_eq!(code("Append remaining elements a[i:] to out"), some(&["out.extend(a[i:])"]));
        assert_eq!(code("Add values[s[i]] to total"), vec![None], "a name, not the word `values`");
        assert_eq!(code("Turn t into an integer"), some(&["t = int(t)"]));
        assert_eq!(code("Take absolute value of n"), some(&["n = abs(n)"]));
        assert_eq!(code("Take the length of s"), vec![None]);
        assert_eq!(code("Compute factorial of n - 1 recursively"), some(&["factorial(n - 1)"]));
        let extended = format!("out.extend({})", labels::CALL_RESULT);
        assert_eq!(code("Recursively flatten x and add its elements to out"), some(&["flatten(x)", extended.as_str()]));
        let entry = |map: &str, key: &str, op, by: &str| {
            Some(CountedEntry { map: map.into(), key: key.into(), op, by: by.into() })
        };
        assert_eq!(counted_entry("Increase freq of w by 1"), entry("freq", "w", "+", "1"));
        assert_eq!(counted_entry("Increment the count of ch in counts"), entry("counts", "ch", "+", "1"));
        assert_eq!(counted_entry("Decrement counts of ch"), entry("counts", "ch", "-", "1"));
        assert_eq!(counted_entry("Increment i"), None);
    }

    #[test]
    fn equality_in_words_and_strings_joined() {
        assert_eq!(condition("Does items at i equal target?").as_deref(), Some("(items[i]) == (target)"));
        assert_eq!(condition("Is a different from b?").as_deref(), Some("(a) != (b)"));
        assert_eq!(condition("Are the lengths of a and b different?").as_deref(), Some("(len(a)) != (len(b))"));
        assert_eq!(condition("Are x and y the same?").as_deref(), Some("(x) == (y)"));
        assert_eq!(output("Return words joined with a space").and_then(|l| l.code).as_deref(), Some("' '.join(words)"));
        assert_eq!(value_phrase("parts joined by ', '").as_deref(), Some("', '.join(parts)"));
        assert_eq!(value_phrase("the characters joined").as_deref(), Some("''.join(characters)"));
        assert_eq!(value_phrase("parts joined with care"), None);
    }

    #[test]
    fn a_property_is_tested_by_the_chart_function_of_its_name() {
        let arity = |name: &str| match name {
            "is_open" => Some(2),
            "is_prime" | "palindrome" => Some(1),
            _ => None,
        };
        let tested = |label: &str| property_tested(label, &arity);
        assert_eq!(tested("Is n prime?").as_deref(), Some("is_prime(n)"));
        assert_eq!(tested("Is s a palindrome?").as_deref(), Some("palindrome(s)"));
        assert_eq!(tested("Is n - 1 not prime?").as_deref(), Some("not (is_prime(n - 1))"));
        assert_eq!(
            tested("Are (0, 0) and (rows - 1, cols - 1)<br>both open?").as_deref(),
            Some("is_open(0, 0) and is_open(rows - 1, cols - 1)")
        );
        // No function of that name, or not as many parameters: unread.
        assert_eq!(tested("Is n even?"), None);
        assert_eq!(tested("Is cell open?"), None);
    }

    #[test]
    fn a_remark_after_the_question_is_left_out() {
        assert_eq!(condition("dist > best[town]? (stale entry)").as_deref(), Some("dist > best[town]"));
        assert_eq!(condition("n > 0 or k > 0? (digits left)").as_deref(), Some("n > 0 or k > 0"));
        // Code in parentheses after the question is the condition itself.
        assert_eq!(condition("Has n reached 1? (n == 1)").as_deref(), Some("n == 1"));
    }

    #[test]
    fn statements_in_llm_wording() {
        let some = |s: &[&str]| s.iter().map(|x| Some((*x).to_owned())).collect::<Vec<_>>();
        assert_eq!(code("Initialize result = [], i = len(words) - 1"), some(&["result = []", "i = len(words) - 1"]));
        assert_eq!(code("Add current value: total = total + nums[i]"), some(&["total = total + nums[i]"]));
        assert_eq!(code("Append words[i] to result"), some(&["result.append(words[i])"]));
        assert_eq!(code("Append d to factors"), some(&["factors.append(d)"]));
        assert_eq!(code("Increment i: i = i + 1"), some(&["i = i + 1"]));
        assert_eq!(code("Increment count"), some(&["count += 1"]));
        assert_eq!(
            code("Swap nums[write] and nums[read]"),
            some(&["nums[write], nums[read] = nums[read], nums[write]"])
        );
        assert_eq!(code("x, y = y, x % y"), some(&["x, y = y, x % y"]));
        assert_eq!(code("second = first<br>first = x"), some(&["second = first", "first = x"]));
        assert_eq!(
            code("parts.append(current + str(run))<br>(flush the last run)"),
            some(&["parts.append(current + str(run))"])
        );
        assert_eq!(code("Call is_open(nr, nc)"), some(&["is_open(nr, nc)"]));
        assert_eq!(code("Add up the digits of n into s"), some(&["s = sum(list(map(int, str(abs(n)))))"]));
        assert_eq!(code("s = the sum of the digits of n"), some(&["s = sum(list(map(int, str(abs(n)))))"]));
        assert_eq!(code("Sum costs as total"), some(&["total = sum(costs)"]));
        assert_eq!(code("Split the sentence into words"), some(&["words = (sentence).split()"]));
        assert_eq!(code("Split line on ',' into a list of fields"), some(&["fields = (line).split(',')"]));
        assert_eq!(code("Split the work into halves and recurse"), vec![None]);
        assert_eq!(code("Move i one step right and j one step left"), some(&["i += 1", "j -= 1"]));
        assert_eq!(code("Move hi left by 2"), some(&["hi -= 2"]));
        assert_eq!(code("Move hi left by K"), some(&["hi -= K"]), "the step keeps its spelling");
        assert_eq!(code("Drop the last digit of n"), some(&["n = n // 10"]));
        assert_eq!(code("Append i as a string to result"), some(&["result.append(str(i))"]));
        assert_eq!(code("Append t as an integer to out"), some(&["out.append(int(t))"]));
        assert_eq!(code("Remove the last character of prefix"), some(&["prefix = prefix[:-1]"]));
        assert_eq!(code("Cut the first letter off word."), some(&["word = word[1:]"]));
        assert_eq!(code("Remove the first digit of n"), vec![None], "not one operation");
        assert_eq!(code("Remove the last element of path"), some(&["del path[-1]"]), "in place");
        assert_eq!(added_to("Add the last digit of n to total"), Some(("(n) % 10".into(), "total".into())));
        assert_eq!(added_to("Add 1 to the count."), Some(("1".into(), "count".into())));
        assert_eq!(added_to("Add the neighbours to the queue and go on"), None);
        assert_eq!(code("Move hi left by a lot"), vec![None], "a step in words is not code");
        assert_eq!(code("Move on to the next row"), vec![None]);
        assert_eq!(code("best = the first k words of ordered"), some(&["best = (ordered)[:k]"]));
        assert_eq!(code("tail = the last 2 items of xs"), some(&["tail = (xs)[len(xs) - (2):]"]));
        assert_eq!(code("c = the first character of s"), some(&["c = s[0]"]), "one element, not a slice");
        assert_eq!(code("Raise ValueError (zero denominator)"), some(&["raise ValueError"]));
        assert_eq!(
            code("dp[i][j] = 1 + min(dp[i - 1][j] (delete),<br>dp[i][j - 1] (insert), dp[i - 1][j - 1] (replace))"),
            some(&["dp[i][j] = 1 + min(dp[i - 1][j], dp[i][j - 1], dp[i - 1][j - 1])"])
        );
        assert_eq!(
            code("x2, y2 = points[(i + 1) % n] (wraps to the first vertex)"),
            some(&["x2, y2 = points[(i + 1) % n]"])
        );
        assert_eq!(code("Sort meetings by start time"), vec![None]);
        assert_eq!(code("old_r = a % m, r = m"), some(&["old_r = a % m", "r = m"]));
        assert_eq!(code("i++"), some(&["i += 1"]));
        assert_eq!(code("count = number of True values in is_prime"), some(&["count = sum(is_prime)"]));
        assert_eq!(code("n = length of the words"), some(&["n = len(words)"]));
        assert_eq!(code("Loop (while True)"), some(&["pass"]));
    }

    #[test]
    fn conditions_in_llm_wording() {
        let c = |s: &str| condition(s);
        assert_eq!(c("Is i >= 0?").as_deref(), Some("i >= 0"));
        assert_eq!(c("Is s empty?").as_deref(), Some("not (s)"));
        assert_eq!(c("Is stack non-empty?").as_deref(), Some("stack"));
        assert_eq!(c("Is queue not empty?").as_deref(), Some("queue"));
        assert_eq!(c("dfs(v) returned True?").as_deref(), Some("dfs(v)"));
        assert_eq!(c("Is find_first True?").as_deref(), Some("find_first"));
        assert_eq!(c("old_r == 1?<br>(gcd(a, m) is 1)").as_deref(), Some("old_r == 1"));
        assert_eq!(c("Is grid empty or grid[0] empty?").as_deref(), Some("(not (grid)) or (not (grid[0]))"));
        assert_eq!(c("Is n even?").as_deref(), Some("(n) % 2 == 0"));
        // Idioms Python would read as `is` and a name.
        assert_eq!(c("i is odd?").as_deref(), Some("(i) % 2 == 1"));
        assert_eq!(c("stack is empty?").as_deref(), Some("not (stack)"));
        assert_eq!(c("stack is not empty").as_deref(), Some("stack"));
        assert_eq!(c("d divides n?").as_deref(), Some("(n) % (d) == 0"));
        assert_eq!(c("Does w start with prefix?").as_deref(), Some("(w).startswith(prefix)"));
        assert_eq!(c("name ends with '.py'?").as_deref(), Some("(name).endswith('.py')"));
        assert_eq!(c("Is x less than 10?").as_deref(), Some("(x) < (10)"));
        assert_eq!(c("Is nums[i] non-zero?").as_deref(), Some("(nums[i]) != 0"));
        assert_eq!(c("Is i an even position?").as_deref(), Some("(i) % 2 == 0"));
        assert_eq!(c("Is ch a vowel?").as_deref(), Some("(ch) in 'aeiouAEIOU'"));
        assert_eq!(c("Is ch a consonant?").as_deref(), Some("(ch).isalpha() and (ch) not in 'aeiouAEIOU'"));
        assert_eq!(c("Are (0, 0) and (rows - 1, cols - 1)<br>both open?"), None);
    }

    #[test]
    fn loops_in_llm_wording() {
        let f = |s: &str| for_each(s).map(|f| (f.target, f.iter));
        let s = |x: &str| Some(x.to_owned());
        assert_eq!(f("More x in xs?"), Some((s("x"), s("xs"))));
        assert_eq!(f("Next x in nums?"), Some((s("x"), s("nums"))));
        assert_eq!(f("More characters ch in text?"), Some((s("ch"), s("text"))));
        assert_eq!(f("More edges u, v in edges?"), Some((s("u, v"), s("edges"))));
        assert_eq!(f("More directions dr, dc?"), Some((s("dr, dc"), None)));
        assert_eq!(f("For each (u, v) in edges"), Some((s("u, v"), s("edges"))));
        assert_eq!(f("Is x in vowels?"), None);
        // A question whether items remain: the iterable before `left`, no
        // variable (`left` names none).
        assert_eq!(f("Any characters left in text?"), Some((None, s("text"))));
        assert_eq!(f("Are there elements of l left to visit?"), Some((None, s("l"))));
        assert_eq!(f("More words left?"), Some((None, None)));
        assert_eq!(f("Is anything left?"), Some((None, None)));
        assert_eq!(f("Is x left of y?"), None);
        assert_eq!(f("For each index i, character ch in s"), Some((s("i, ch"), s("enumerate(s)"))));
        assert_eq!(f("Next index i and value v of xs?"), Some((s("i, v"), s("enumerate(xs)"))));
        assert_eq!(f("Loop: for each v in values"), Some((s("v"), s("values"))));
    }

    #[test]
    fn character_classes_arithmetic_verbs_and_input_verbs() {
        let c = |s: &str| condition(s);
        let s = |x: &str| Some(x.to_owned());
        assert_eq!(c("Is ch a space?"), s("(ch) == ' '"));
        assert_eq!(c("Is letter a comma?"), s("(letter) == ','"));
        assert_eq!(c("c is not a digit"), s("not ((c).isdigit())"));
        assert_eq!(c("Is ch an uppercase letter?"), s("'A' <= (ch) <= 'Z'"));
        assert_eq!(c("ch is lowercase"), s("'a' <= (ch) <= 'z'"));
        assert_eq!(c("Is s[i] a letter?"), s("(s[i]).isalpha()"));
        let one = |x: &str| vec![Some(x.to_owned())];
        assert_eq!(code("Divide n by 2"), one("n //= 2"), "a whole divisor halves an integer");
        assert_eq!(code("Divide total by count"), one("total /= count"));
        assert_eq!(code("Multiply result by x"), one("result *= x"));
        assert_eq!(code("Halve step"), one("step //= 2"));
        let names = |s: &str| input(s).into_iter().map(|p| p.name).collect::<Vec<_>>();
        assert_eq!(code("Add x to total"), vec![None], "a sum, a set or a list");
        assert_eq!(code("digit = the last digit of n"), one("digit = (n) % 10"));
        assert_eq!(code("rest = items without its first element"), one("rest = items[1:]"));
        assert_eq!(code("Move lo to mid + 1"), one("lo = mid + 1"));
        assert_eq!(code("n = sum of d**2 for each digit d of n"), one("n = sum(d**2 for d in map(int, str(abs(n))))"));
        assert_eq!(code("Start trying odd divisors from d = 3"), one("d = 3"));
        assert_eq!(code("Print the value of the helper f(x)"), vec![None], "a long lead-in only before an assignment");
        assert_eq!(code("Move to the next element"), vec![None], "no place named");
        assert_eq!(code("Move i to the right"), vec![None], "a direction, not a value");
        assert_eq!(c("Is n 2 or 3?"), s("__fb_one_of__(n, 2, 3)"));
        assert_eq!(c("n is 2 or 3"), s("__fb_one_of__(n, 2, 3)"), "not `n == 2 or 3`, which is always true");
        assert_eq!(c("Is ch not 'a' or 'b' or 'c'?"), s("not __fb_one_of__(ch, 'a', 'b', 'c')"));
        assert_eq!(one_of_values("x less than 2 or y"), None, "a side that is no value stays a condition");
        assert_eq!(c("q at i and q at j differ"), s("(q[i]) != (q[j])"));
        assert_eq!(c("Are a and b the same?"), s("(a) == (b)"));
        assert_eq!(c("Are xs at i and xs at i - 1 equal?"), s("(xs[i]) == (xs[i - 1])"));
        assert_eq!(c("a[i] and a[j] are equal"), s("(a[i]) == (a[j])"));
        assert_eq!(code("Set head to word without the last character"), one("head = word[:-1]"));
        assert_eq!(code("rest = items without duplicates"), vec![None], "not one element dropped");
        assert_eq!(code("Set mid to the floor of the average of lo and hi"), one("mid = (lo + hi) // 2"));
        assert_eq!(code("avg = the average of a and b"), vec![None], "a mean or a middle index");
        assert_eq!(names("Read a, b"), vec![s("a"), s("b")]);
        assert_eq!(names("Get n and k"), vec![s("n"), s("k")]);
        assert!(reads_inputs("Read a, b", false));
        assert!(reads_inputs("Get n", false));
        assert!(!reads_inputs("Get the next character ch", false), "a step, not the inputs");
        assert!(!reads_inputs("Readings = []", false));
        assert!(reads_inputs("Read the list of heights", true), "a parallelogram says it is the input");
    }

    #[test]
    fn outputs_inputs_and_signatures() {
        let o = |s: &str| output(s).and_then(|l| l.code);
        assert_eq!(o("Output: None (no second largest value)").as_deref(), Some("None"));
        assert_eq!(o("Return (num, den)").as_deref(), Some("(num, den)"));
        assert_eq!(o("Return len(ends) (number of rooms needed)").as_deref(), Some("len(ends)"));
        assert_eq!(o("Output: ''.join(out) (shifted text)").as_deref(), Some("''.join(out)"));
        assert_eq!(o("Output: the reversed string"), None);
        assert_eq!(output("Return to caller"), None, "a return without a value");
        assert_eq!(output("Return (nothing)"), None);
        let names = |s: &str| input(s).into_iter().map(|p| p.name).collect::<Vec<_>>();
        let n = |x: &str| Some(x.to_owned());
        assert_eq!(names("Input: s, t (strings)"), vec![n("s"), n("t")]);
        assert_eq!(names("Input: grid (List[List[int]], 0 = open, 1 = wall)"), vec![n("grid")]);
        assert_eq!(names("Input: xs (list) = [], k: int"), vec![n("xs"), n("k")]);
        assert_eq!(names("Input non-empty list nums"), vec![None]);
        assert!(input("Input n points and trail list edges")[0].words.contains(&"edges".to_owned()));
        assert_eq!(signature("Helper 2: is_amicable(a)"), Some(("is_amicable".into(), Some(vec!["a".into()]))));
        assert_eq!(signature("Helper: dfs(u) (recursive)"), Some(("dfs".into(), Some(vec!["u".into()]))));
        assert_eq!(signature("below_thousand(k): words for 0 < k < 1000").map(|s| s.0), Some("below_thousand".into()));
        assert_eq!(signature("Start below_thousand").map(|s| s.0), Some("below_thousand".into()));
        assert_eq!(signature("Helper: farthest(start), breadth-first search").map(|s| s.0), Some("farthest".into()));
    }
}
