//! `--fix` for a link with no target (`ID -- "text"` ending its statement,
//! pitfall P06 in the corpus, #5 in pitfalls.md).
//!
//! Nothing in the text says which node the link was meant to reach, so no
//! rewrite can keep its meaning. Rather than leave the whole chart
//! unrenderable, the incomplete link is dropped and its source node kept;
//! the original statement goes into a `%%` comment line just above, so no
//! work is lost and the user can add the target. The change is reported as
//! lossy.

use super::diagnostic::line_col;
use super::fix::Change;
use super::{ErrorKind, Flowchart, ParseError};

/// Start of the comment line that keeps the dropped statement.
pub const MARK: &str = "%% flowbench --fix: dropped a link with no target: ";

type ParseFn<'p> = &'p dyn Fn(&str) -> Result<Flowchart, ParseError>;

/// If the statement the parse error `err` points at (its line, or the last
/// statement line before it, since mermaid notices a missing target only at
/// the next token) ends in a link with no target, the text with that link
/// dropped and the change to report.
pub fn drop_dangling_link(text: &str, err: &ParseError, parse: ParseFn) -> Option<(String, Change)> {
    // A missing target is a grammar error; semantic ones (a `linkStyle`
    // index past the last edge) must not be "fixed" by dropping edges.
    if err.kind != ErrorKind::Syntax {
        return None;
    }
    let at = err.span.start.min(text.len());
    let here = text[..at].rfind('\n').map_or(0, |p| p + 1);
    // The previous statement only when nothing but blanks and comments
    // stand between its end and the error (mermaid stopped at the token
    // right after it).
    let previous = previous_statement_line(text, here).filter(|&start| {
        let end = text[start..].find('\n').map_or(text.len(), |p| start + p);
        text[end..at].lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with("%%"))
    });
    [Some(here), previous].into_iter().flatten().find_map(|start| fix_line(text, start, at, parse))
}

/// Start of the last line before `line_start` that is neither blank nor a
/// `%%` comment.
fn previous_statement_line(text: &str, line_start: usize) -> Option<usize> {
    let mut end = line_start.checked_sub(1)?;
    loop {
        let start = text[..end].rfind('\n').map_or(0, |p| p + 1);
        let line = text[start..end].trim();
        if !line.is_empty() && !line.starts_with("%%") {
            return Some(start);
        }
        end = start.checked_sub(1)?;
    }
}

/// Fix the statement on the line at `start`, if the error at `at` is its
/// missing target.
fn fix_line(text: &str, start: usize, at: usize, parse: ParseFn) -> Option<(String, Change)> {
    let end = text[start..].find('\n').map_or(text.len(), |p| start + p);
    let line = &text[start..end];
    let stmt = line.trim();
    if stmt.is_empty() || stmt.starts_with("%%") {
        return None;
    }
    let indent = &line[..line.len() - line.trim_start().len()];
    let with_line = |new: &str| format!("{}{new}{}", &text[..start], &text[end..]);
    // A rewrite of the line helps when the text then parses, or fails only
    // after both the line and the old error (shifted by the rewrite): a
    // later, unrelated mistake is left to the next round of fixes.
    let gets_past = |new_line: &str| {
        let shifted = (at + start + new_line.len()).saturating_sub(end);
        let bar = shifted.max(start + new_line.len());
        match parse(&with_line(new_line)) {
            Ok(_) => true,
            Err(e) => e.span.start > bar,
        }
    };
    // Cleared up by a target (`A -->` + ` B`) or an arrow end and a target
    // (`A -- "text"` + ` --> B`): then a target is all that is missing.
    let missing_target = [" __flowbench_target", " --> __flowbench_target"]
        .iter()
        .any(|tail| gets_past(&format!("{indent}{stmt}{tail}")));
    if !missing_target {
        return None;
    }
    link_starts(stmt).into_iter().rev().find_map(|cut| {
        let kept = stmt[..cut].trim_end();
        if kept.is_empty() {
            return None;
        }
        let new_lines = format!("{indent}{MARK}{stmt}\n{indent}{kept}");
        if !gets_past(&new_lines) {
            return None;
        }
        let fixed = with_line(&new_lines);
        let (line_no, col) = line_col(text, start + indent.len());
        let change = Change {
            line: line_no,
            col,
            pitfall: "P06".into(),
            silent: false,
            lossy: true,
            before: stmt.to_string(),
            after: kept.to_string(),
        };
        Some((fixed, change))
    })
}

/// Byte offsets where a link operator begins in a statement (outside
/// quoted text): `--`, `==`, `-.`, `~~`, and their `<`, `x`, `o` heads.
fn link_starts(stmt: &str) -> Vec<usize> {
    let b = stmt.as_bytes();
    let mut out = Vec::new();
    let mut quoted = false;
    for i in 0..b.len() {
        if b[i] == b'"' {
            quoted = !quoted;
        }
        if quoted || i + 1 >= b.len() {
            continue;
        }
        let pair = &b[i..i + 2];
        let link = matches!(pair, b"--" | b"==" | b"-." | b"~~" | b"<-" | b"<=");
        let inside = i > 0 && matches!(b[i - 1], b'-' | b'=' | b'.' | b'~' | b'<');
        if link && !inside {
            // A head letter right before the operator belongs to it (`x--x`)
            // only when it stands alone after a space.
            let head = i >= 2 && matches!(b[i - 1], b'x' | b'o') && b[i - 2] == b' ';
            out.push(if head { i - 1 } else { i });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(text: &str) -> Option<(String, Change)> {
        let err = crate::mermaid::parse(text).err()?;
        drop_dangling_link(text, &err, &crate::mermaid::parse)
    }

    #[test]
    fn drops_the_link_keeps_the_node_and_the_text() {
        let (text, c) = fix("flowchart TD\n  ID -- \"El accesorio aparece\"\n").expect("fixed");
        assert_eq!(
            text,
            "flowchart TD\n  %% flowbench --fix: dropped a link with no target: ID -- \"El accesorio aparece\"\n  ID\n"
        );
        assert!(c.lossy && !c.silent);
        assert_eq!(
            (c.line, c.col, c.before.as_str(), c.after.as_str()),
            (2, 3, "ID -- \"El accesorio aparece\"", "ID")
        );
        let chart = crate::mermaid::parse(&text).expect("accepted");
        assert_eq!((chart.nodes.len(), chart.edges.len()), (1, 0));
    }

    #[test]
    fn keeps_the_complete_links_before_the_dangling_one() {
        let (text, _) = fix("flowchart LR\n  A --> B\n  B --> C -->|no| \n  C --> D\n").expect("fixed");
        let chart = crate::mermaid::parse(&text).expect("accepted");
        assert_eq!((chart.nodes.len(), chart.edges.len()), (4, 3));
        assert!(text.contains("  %% flowbench --fix: dropped a link with no target: B --> C -->|no|\n  B --> C\n"));
    }

    #[test]
    fn leaves_other_errors_alone() {
        assert!(fix("flowchart TD\n  A(call foo()) --> B\n").is_none());
        assert!(fix("flowchart TD\n  A --> B --> end\n").is_none());
        // Adding an edge would make `linkStyle 1` valid: still not dangling.
        assert!(fix("graph TD\n  A-->B\n  linkStyle 1 stroke-width:1px;\n").is_none());
        // An error two statements later is not this link's.
        assert!(fix("flowchart TD\n  A --> B\n  C\n  D(x(y))\n").is_none());
    }
}
