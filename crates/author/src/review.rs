//! Reviewing a model's chart for `author`: take the Mermaid out of the reply,
//! apply `check --fix` where it is lossless, then parse, lint and compare
//! with the solution (`check --against`). What is wrong comes back as
//! flowbench's own rustc-style diagnostics (caret, pitfall hint), the text
//! the repair round sends to the model.

use flowbench_chart::mermaid::diagnostic::{Diagnostic, Severity, render_diagnostic};
use flowbench_chart::mermaid::fix::{Change, fix_with};
use flowbench_chart::mermaid::lint::{Checked, check_with};
use flowbench_chart::mermaid::{Flowchart, ParseOptions};

use super::against::{Behave, Mismatch, add_behaviour, check_against};
use super::reader::Program;

/// The name diagnostics give the chart (the file `author` writes).
pub const CHART_NAME: &str = "flowchart.mmd";

/// What a reply amounts to.
#[derive(Debug, Clone)]
pub struct Review {
    /// The chart after the lossless fixes; `None` when the reply held none.
    pub chart: Option<String>,
    /// The fixes applied (empty when a fix would have lost something).
    pub fixes: Vec<Change>,
    /// Every remaining problem, rendered against [`Review::chart`].
    pub diagnostics: Vec<String>,
    /// `check --against`'s similarity, when the chart parsed.
    pub similarity: Option<f64>,
}

impl Review {
    /// Parses, lints clean and is faithful to the solution.
    pub fn is_valid(&self) -> bool {
        self.chart.is_some() && self.diagnostics.is_empty()
    }
}

/// The Mermaid chart in a reply: the first ```` ```mermaid ```` block, else
/// the first fenced block that starts like a flowchart, else the whole reply
/// when it does.
pub fn extract_mermaid(reply: &str) -> Option<String> {
    let mut blocks = Vec::new();
    let mut lines = reply.lines();
    while let Some(line) = lines.next() {
        let Some(info) = line.trim_start().strip_prefix("```") else { continue };
        let body: Vec<&str> = lines.by_ref().take_while(|l| !l.trim_start().starts_with("```")).collect();
        blocks.push((info.trim().to_lowercase(), body.join("\n") + "\n"));
    }
    let looks_like_chart = |t: &str| {
        let first = t.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("%%")).unwrap_or("");
        first.starts_with("flowchart") || first.starts_with("graph") || first.starts_with("---")
    };
    blocks
        .iter()
        .find(|(info, _)| info == "mermaid" || info == "mmd")
        .or_else(|| blocks.iter().find(|(_, body)| looks_like_chart(body)))
        .map(|(_, body)| body.clone())
        .or_else(|| looks_like_chart(reply).then(|| reply.trim().to_owned() + "\n"))
}

/// Reviews one reply against the solution's `program` (`solution` names it
/// in the notes, which quote `code`, its text).
pub fn review(reply: &str, program: &Program, solution: &str, code: &str) -> Review {
    review_with(reply, program, solution, code, None)
}

/// [`review`], with the chart's program run beside the code when `behave`
/// is given ([`add_behaviour`]): a chart that agrees on every made input is
/// accepted whatever its structure (the differences are not sent back); one
/// that differs gets the counterexample, located at the element the
/// structural comparison names. A sandbox failure leaves the structural
/// review as it is.
pub fn review_with(reply: &str, program: &Program, solution: &str, code: &str, behave: Option<&Behave>) -> Review {
    let Some(text) = extract_mermaid(reply) else {
        return Review {
            chart: None,
            fixes: Vec::new(),
            diagnostics: vec![
                "error: the answer holds no Mermaid chart: put the whole chart in one ```mermaid fenced block\n".into(),
            ],
            similarity: None,
        };
    };
    let opts = ParseOptions::default();
    let fixed = fix_with(&text, &|t: &str| flowbench_chart::mermaid::parse_with(t, &opts));
    // A lossy fix (a link with no target dropped) would hide the mistake
    // from the model: keep its text and let the diagnostic say what is wrong.
    let (text, fixes) =
        if fixed.changes.iter().any(|c| c.lossy) { (text, Vec::new()) } else { (fixed.text, fixed.changes) };
    let (diagnostics, similarity) = match check_with(&text, &opts) {
        Checked::Err(d) => (vec![render_diagnostic(CHART_NAME, &text, &d)], None),
        Checked::Ok { chart, warnings } => {
            let mut result = check_against(program, &chart);
            if let Some(b) = behave {
                let structural = result.clone();
                if add_behaviour(&mut result, program, &chart, None, b).is_err() {
                    result = structural;
                }
            }
            let mut ds: Vec<String> = warnings.iter().map(|w| render_diagnostic(CHART_NAME, &text, w)).collect();
            let mismatch = |m| render_diagnostic(CHART_NAME, &text, &mismatch_diagnostic(m, &chart, solution, code));
            // A chart that cannot run is not refused over what only running
            // it could decide, but a model asked for a chart can write those
            // nodes as code: the gate stays the full comparison.
            ds.extend(result.mismatches.iter().chain(&result.unchecked).map(mismatch));
            (ds, Some(result.similarity))
        }
    };
    Review { chart: Some(text), fixes, diagnostics, similarity }
}

/// A `check --against` mismatch as a diagnostic on the chart, with the
/// solution line in a note. `solution` names the file, `code` is its text.
pub fn mismatch_diagnostic(m: &Mismatch, chart: &Flowchart, solution: &str, code: &str) -> Diagnostic {
    let span = m.node.map(|i| chart.nodes[i].span).map(|s| s.start..s.end).unwrap_or(0..0);
    Diagnostic {
        severity: Severity::Error,
        code: format!("against-{}", m.kind.as_str()),
        message: m.message.clone(),
        span,
        label: "here".into(),
        extra: Vec::new(),
        help: None,
        notes: code_note(solution, code, m.code_line).into_iter().collect(),
    }
}

/// The note pointing at the code a mismatch concerns, with that line quoted
/// whole: a bare `solution.py:7: the code` read as a sentence cut short.
fn code_note(solution: &str, code: &str, line: Option<u32>) -> Option<String> {
    let line = line?;
    let index = usize::try_from(line).ok()?.checked_sub(1)?;
    match code.lines().nth(index).map(str::trim).filter(|l| !l.is_empty()) {
        Some(text) => Some(format!("in the code at {solution}:{line}: `{text}`")),
        None => Some(format!("in the code at {solution}:{line}")),
    }
}

/// The repair message: `template` with `{diagnostics}` filled in; the fixes
/// flowbench already made are listed first, with the chart they apply to,
/// so the carets' line numbers match what the model is shown.
pub fn feedback(template: &str, review: &Review) -> String {
    let mut text = String::new();
    if !review.fixes.is_empty() {
        text += "flowbench first fixed these mistakes itself:\n";
        for c in &review.fixes {
            let after = if c.after.is_empty() { "(removed)" } else { c.after.as_str() };
            text += &format!("- line {}: [{}] {} → {}\n", c.line, c.pitfall, c.before.trim(), after.trim());
        }
        if let Some(chart) = &review.chart {
            text += &format!("\nThe chart after these fixes:\n```mermaid\n{chart}```\n\nStill wrong:\n");
        }
    }
    text += &review.diagnostics.join("\n");
    template.replace("{diagnostics}", text.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_chart_in_a_reply() {
        let fenced = "Here it is:\n```mermaid\nflowchart TD\n  A --> B\n```\nDone.";
        assert_eq!(extract_mermaid(fenced).as_deref(), Some("flowchart TD\n  A --> B\n"));
        let plain_fence = "```\ngraph LR\nA-->B\n```";
        assert_eq!(extract_mermaid(plain_fence).as_deref(), Some("graph LR\nA-->B\n"));
        assert_eq!(extract_mermaid("flowchart TD\nA-->B").as_deref(), Some("flowchart TD\nA-->B\n"));
        assert_eq!(extract_mermaid("```python\nprint(1)\n```"), None);
        assert_eq!(extract_mermaid("I cannot draw that."), None);
    }
}
