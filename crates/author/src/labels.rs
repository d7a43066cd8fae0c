//! The label conventions `draw` writes and `chart2py`/`check --against` read
//! back: one place, so the two directions cannot drift apart. Every form is
//! the code's own expression with a fixed, reversible wording around it.

use super::reader::Param;

/// Line break inside a label (mermaid's `<br>`).
pub const BR: &str = "<br>";
/// Indentation of continuation lines of a multi-line statement: no-break
/// spaces, which the renderer keeps and HTML would not collapse.
pub const INDENT: char = '\u{a0}';

pub const START: &str = "Start";
pub const END: &str = "End";
pub const INPUT: &str = "Input: ";
pub const NO_INPUT: &str = "Input: none";
pub const RETURN: &str = "Return";
pub const FOR_PREFIX: &str = "More ";
pub const FOR_IN: &str = " in ";
pub const YES: &str = "Yes";
pub const NO: &str = "No";
pub const HELPER: &str = "Helper: ";
pub const METHOD: &str = "Method: ";
pub const NESTED: &str = " (nested in ";

/// The entry of a whole program (module code reading stdin and printing);
/// the judge's name for it too.
pub const PROGRAM: &str = "__main__";

/// The name `chart2py` gives the value of a call drawn as a box of its own
/// (`Recursive call: f of n - 2`), which a later box may use in words (`n
/// plus the result of the recursive call`).
pub const CALL_RESULT: &str = "_call_result";

/// Whether a statement reads standard input or prints (drawn as an
/// Input/Output node in a whole program).
pub fn is_io(text: &str) -> bool {
    ["input(", "print(", "sys.stdin", "sys.stdout", "open(0"].iter().any(|k| text.contains(k))
}

/// `if`/`while` decision: the condition with a question mark.
pub fn decision(cond: &str) -> String {
    format!("{cond}?")
}

/// `for target in iter` as a loop decision.
pub fn for_loop(target: &str, iter: &str) -> String {
    format!("{FOR_PREFIX}{target}{FOR_IN}{iter}?")
}

/// Reads a `for` decision back into (target, iterable).
pub fn parse_for(label: &str) -> Option<(&str, &str)> {
    let rest = label.strip_prefix(FOR_PREFIX)?.strip_suffix('?')?;
    let at = rest.find(FOR_IN)?;
    Some((&rest[..at], &rest[at + FOR_IN.len()..]))
}

/// A statement's source as label text: lines joined with `<br>`, leading
/// blanks of continuation lines as no-break spaces.
pub fn statement(text: &str) -> String {
    text.lines()
        .map(|l| {
            let body = l.trim_start_matches(' ');
            let indent: String = std::iter::repeat_n(INDENT, l.len() - body.len()).collect();
            indent + body
        })
        .collect::<Vec<_>>()
        .join(BR)
}

/// The lines of a label: mermaid breaks a line at `<br>`, and also at
/// `<br/>`, `<br />` and `<BR>`, which people write as often.
pub fn break_lines(label: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let (mut start, mut at) = (0, 0);
    while let Some(found) = label[at..].find('<') {
        let open = at + found;
        let rest = &label[open + 1..];
        let tag = rest.get(..2).is_some_and(|t| t.eq_ignore_ascii_case("br"));
        let after = rest.get(2..).unwrap_or("").trim_start_matches(' ');
        let after = after.strip_prefix('/').unwrap_or(after);
        match after.strip_prefix('>') {
            Some(tail) if tag => {
                lines.push(&label[start..open]);
                start = label.len() - tail.len();
                at = start;
            }
            _ => at = open + 1,
        }
    }
    lines.push(&label[start..]);
    lines
}

/// A label's lines joined by `separator`.
pub fn on_one_line(label: &str, separator: &str) -> String {
    break_lines(label).join(separator)
}

/// Splits a process box back into statements: `<br>` separates lines; a line
/// that is indented, or continues a compound statement (`else:`, `except`,
/// …), belongs to the statement before it.
pub fn statements(label: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in break_lines(label) {
        let body = line.trim_start_matches(INDENT);
        let indent = line.chars().count() - body.chars().count();
        let continues = indent > 0 || ["else:", "elif ", "except", "finally:"].iter().any(|k| body.starts_with(k));
        let text = format!("{}{body}", " ".repeat(indent));
        match out.last_mut() {
            Some(last) if continues => {
                last.push('\n');
                last.push_str(&text);
            }
            _ => out.push(text),
        }
    }
    out
}

/// `Return value` output node.
pub fn output(value: Option<&str>) -> String {
    match value {
        Some(v) => format!("{RETURN} {v}"),
        None => RETURN.to_owned(),
    }
}

/// The entry's Input node: `name (annotation) = default`, comma separated.
pub fn input(params: &[Param]) -> String {
    if params.is_empty() {
        return NO_INPUT.to_owned();
    }
    let parts: Vec<String> = params
        .iter()
        .map(|p| {
            let mut s = p.name.clone();
            if let Some(a) = &p.annotation {
                s += &format!(" ({a})");
            }
            if let Some(d) = &p.default {
                s += &format!(" = {d}");
            }
            s
        })
        .collect();
    format!("{INPUT}{}", parts.join(", "))
}

/// Reads an Input node back into Python parameter source (annotations
/// dropped: they do not change what the function computes).
pub fn parse_input(label: &str) -> Option<Vec<String>> {
    if label == NO_INPUT {
        return Some(Vec::new());
    }
    let rest = label.strip_prefix(INPUT)?;
    Some(
        split_top_level(rest)
            .into_iter()
            .map(|piece| {
                let name_end = piece
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '*' || c == '/'))
                    .unwrap_or(piece.len());
                let name = &piece[..name_end];
                let mut rest = &piece[name_end..];
                if rest.starts_with(" (") {
                    rest = &rest[matching_close(rest.char_indices().skip(1)).map_or(rest.len(), |i| i + 1)..];
                }
                match rest.strip_prefix(" = ") {
                    Some(default) => format!("{name}={default}"),
                    None => name.to_owned(),
                }
            })
            .collect(),
    )
}

/// Splits at commas outside brackets and string literals.
pub fn split_top_level(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth, mut quote) = (Vec::new(), String::new(), 0i32, None::<char>);
    for c in s.chars() {
        match quote {
            Some(q) => {
                if c == q {
                    quote = None;
                }
            }
            None => match c {
                '\'' | '"' => quote = Some(c),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                ',' if depth == 0 => {
                    out.push(cur.trim().to_owned());
                    cur.clear();
                    continue;
                }
                _ => {}
            },
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_owned());
    }
    out
}

/// The index of the bracket closing the first item's, walking `(index,
/// char)` items from an opening bracket on: byte indices from
/// `str::char_indices`, char indices from `enumerate` over chars (one
/// matcher for both readings of a label).
pub fn matching_close(from: impl IntoIterator<Item = (usize, char)>) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in from {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Start terminal of the entry (`Start: name` or `Start: Class.name`).
pub fn start(qual: &str) -> String {
    format!("{START}: {qual}")
}

/// Start terminal of a helper, with its Python parameter list.
pub fn helper_start(name: &str, params: &[Param]) -> String {
    let ps: Vec<String> = params
        .iter()
        .map(|p| match &p.default {
            Some(d) => format!("{}={d}", p.name),
            None => p.name.clone(),
        })
        .collect();
    format!("{START}: {name}({})", ps.join(", "))
}

/// Reads a Start terminal back: (qualified name, parameter source if given).
pub fn parse_start(label: &str) -> Option<(String, Option<Vec<String>>)> {
    let rest = label.strip_prefix(START)?.strip_prefix(": ")?;
    match rest.find('(') {
        Some(open) if rest.ends_with(')') => {
            Some((rest[..open].to_owned(), Some(split_top_level(&rest[open + 1..rest.len() - 1]))))
        }
        _ => Some((rest.to_owned(), None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_round_trip() {
        let ps = vec![
            Param { name: "xs".into(), annotation: Some("Dict[str, int]".into()), default: None },
            Param { name: "base".into(), annotation: Some("int".into()), default: Some("(1, 2)".into()) },
            Param { name: "*args".into(), annotation: None, default: None },
        ];
        assert_eq!(parse_input(&input(&ps)).unwrap(), vec!["xs", "base=(1, 2)", "*args"]);
        assert_eq!(parse_input(&input(&[])).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn multi_line_statements_survive_merging() {
        let a = statement("try:\n    x = int(s)\nexcept ValueError:\n    x = 0");
        let merged = [a.as_str(), "y = x + 1"].join(BR);
        assert_eq!(statements(&merged), vec!["try:\n    x = int(s)\nexcept ValueError:\n    x = 0", "y = x + 1"]);
    }

    #[test]
    fn for_labels_round_trip() {
        assert_eq!(parse_for(&for_loop("i, x", "enumerate(a in b)")), Some(("i, x", "enumerate(a in b)")));
        assert_eq!(parse_start("Start: f(a, b=[1, 2])"), Some(("f".into(), Some(vec!["a".into(), "b=[1, 2]".into()]))));
    }
}
