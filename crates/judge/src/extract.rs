//! Getting code out of a model's raw response.
//!
//! [`Extract::CodeVision`] reproduces Code-Vision's `extract_code`
//! (`src/evaluation/evaluate.py`) byte for byte, quirks included, because
//! the paper's numbers were produced with it: the first ```` ```python\n ````
//! block up to the next `\n```` ``` ````, else the first ```` ``` ```` block
//! (info string up to the first newline, body up to the next ```` ``` ````),
//! else the whole response; the code is cut at the first occurrence of the
//! substring `assert` (anywhere, even inside an identifier); when a fence is
//! present but the pattern does not match, the whole response is returned.
//! Then the code stops before the first line containing `input(` (lines
//! joined by `\n`, the cut line and all after it dropped). That last step is
//! not in the published `evaluate.py`, but the recorded completions need it:
//! with it, all 3,668 shared samples' `completion`s are reproduced from their
//! `response`s (56 differ without it); see `tests/integration/judge_codevision.rs`.
//!
//! [`Extract::Strict`] fixes those quirks: fences must start a line, only a
//! `python`/`py`/untagged block counts, the code is cut only at the first
//! top-level `assert` statement, and no block means no code.

/// Which extraction to apply to a sample's `response`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Extract {
    /// Code-Vision's `extract_code`, exactly.
    #[default]
    CodeVision,
    /// Line-anchored fences, cut at a top-level `assert` statement only.
    Strict,
}

impl Extract {
    /// The code to judge from a raw response.
    pub fn apply(self, response: &str) -> String {
        match self {
            Extract::CodeVision => codevision_extract(response),
            Extract::Strict => strict_extract(response),
        }
    }
}

/// The code of a whole program (a stdio problem) in a response: as
/// [`Extract::apply`], without Code-Vision's cut before the first line
/// holding `input(`. That cut reproduces Code-Vision's recorded completions
/// of *function* problems; a program reads its input, so the cut would
/// leave it nothing to run.
pub fn program_extract(extract: Extract, response: &str) -> String {
    match extract {
        Extract::CodeVision => fenced_block(response),
        Extract::Strict => strict_extract(response),
    }
}

fn cut_at_assert(code: &str) -> String {
    match code.find("assert") {
        Some(i) => code[..i].to_string(),
        None => code.to_string(),
    }
}

/// Code-Vision's extraction (see module docs).
pub fn codevision_extract(content: &str) -> String {
    cut_before_input(&fenced_block(content))
}

/// Keeps the lines before the first one containing `input(`.
fn cut_before_input(code: &str) -> String {
    let mut kept: Vec<&str> = Vec::new();
    for line in code.split('\n') {
        if line.contains("input(") {
            return kept.join("\n");
        }
        kept.push(line);
    }
    code.to_string()
}

/// `re.findall(r'```python\n(.*?)\n```', s, re.DOTALL)[0]` and
/// `re.findall(r'```(.*?)\n(.*?)```', s, re.DOTALL)[0][1]`, with the
/// surrounding `try/except: return content`, and the `assert` cut: the
/// first fenced block's code, without Code-Vision's `input(` cut.
pub fn fenced_block(content: &str) -> String {
    if content.contains("```python") {
        const OPEN: &str = "```python\n";
        let mut from = 0;
        while let Some(rel) = content[from..].find(OPEN) {
            let start = from + rel + OPEN.len();
            if let Some(end) = content[start..].find("\n```") {
                return cut_at_assert(&content[start..start + end]);
            }
            from = from + rel + 1;
        }
        return content.to_string();
    }
    if let Some(open) = content.find("```") {
        // Lazy group 1 ends at the first newline; group 2 at the next fence.
        let Some(nl) = content[open + 3..].find('\n').map(|i| open + 3 + i) else {
            return content.to_string();
        };
        let body = nl + 1;
        return match content[body..].find("```") {
            Some(end) => cut_at_assert(&content[body..body + end]),
            None => content.to_string(),
        };
    }
    content.to_string()
}

/// The strict variant (see module docs).
pub fn strict_extract(content: &str) -> String {
    let mut lines = content.split_inclusive('\n');
    let mut body: Option<String> = None;
    let mut fallback: Option<String> = None;
    while let Some(line) = lines.next() {
        let trimmed = line.trim_end();
        let Some(info) = trimmed.trim_start().strip_prefix("```") else { continue };
        let info = info.trim().to_ascii_lowercase();
        let mut block = String::new();
        let mut closed = false;
        for inner in lines.by_ref() {
            if inner.trim_start().starts_with("```") {
                closed = true;
                break;
            }
            block.push_str(inner);
        }
        if !closed && block.trim().is_empty() {
            break;
        }
        match info.as_str() {
            "python" | "py" | "python3" => {
                body = Some(block);
                break;
            }
            "" if fallback.is_none() => fallback = Some(block),
            _ => {}
        }
    }
    let code = body.or(fallback).unwrap_or_default();
    let mut out = String::with_capacity(code.len());
    for line in code.split_inclusive('\n') {
        if line.starts_with("assert ") || line.starts_with("assert(") {
            break;
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_keeps_its_input_lines() {
        let response = "```python\nn = int(input())\nprint(n + 1)\n```\n";
        assert_eq!(codevision_extract(response), "");
        assert_eq!(program_extract(Extract::CodeVision, response), "n = int(input())\nprint(n + 1)");
        assert_eq!(program_extract(Extract::Strict, response), "n = int(input())\nprint(n + 1)\n");
    }

    #[test]
    fn codevision_first_python_block_cut_at_assert() {
        let r = "Here:\n```python\ndef f():\n    return 1\nassert f() == 1\n```\nmore ```python\nx\n```";
        assert_eq!(codevision_extract(r), "def f():\n    return 1\n");
        // Cut at the substring, even inside an identifier.
        assert_eq!(codevision_extract("```python\nx = 1  # asserts\n```"), "x = 1  # ");
    }

    #[test]
    fn codevision_quirks() {
        // `python3` tag: the pattern never matches, the whole response is code.
        let r = "```python3\nx = 1\n```";
        assert_eq!(codevision_extract(r), r);
        // Generic fence: info string up to the first newline.
        assert_eq!(codevision_extract("text ```py\ny = 2\n``` tail"), "y = 2\n");
        // No fence at all.
        assert_eq!(codevision_extract("def f(): pass"), "def f(): pass");
        // Stops before the first line calling input(), keeping comments about input.
        assert_eq!(
            codevision_extract("```python\ndef f(): pass\n# read input\nn = int(input())\nf()\n```"),
            "def f(): pass\n# read input"
        );
        // Unclosed python block.
        assert_eq!(codevision_extract("```python\ndef f(): pass"), "```python\ndef f(): pass");
        // Empty python block needs the closing fence after a newline.
        assert_eq!(codevision_extract("```python\n\n```"), "");
    }

    #[test]
    fn strict_variant() {
        let r = "```text\nnot code\n```\n```python\ndef assert_ok():\n    return 1\nassert assert_ok()\n```";
        assert_eq!(strict_extract(r), "def assert_ok():\n    return 1\n");
        assert_eq!(strict_extract("def f(): pass"), "");
        assert_eq!(strict_extract("```\nx = 1\n```"), "x = 1\n");
        assert_eq!(strict_extract("```python3\nx = 1\n```"), "x = 1\n");
    }
}
