//! Lints that need the text, not just the model: an id declared twice with
//! different labels (the model keeps only the last one, as mermaid does), and
//! silent pitfalls (text mermaid accepts but reads differently).

use std::collections::BTreeMap;

use super::diagnostic::{Diagnostic, Severity};
use super::pitfall::{findings, split_lines};
use super::scan::{Tok, scan};

/// Text-level lints of `source`.
pub fn lint_text(source: &str) -> Vec<Diagnostic> {
    let mut out = conflicting_labels(source);
    for f in findings(source).into_iter().filter(|f| f.silent) {
        out.push(Diagnostic {
            severity: Severity::Warning,
            code: "pitfall".into(),
            message: format!("mermaid accepts this but does not read it as written (pitfall {})", f.pitfall),
            span: f.span,
            label: "here".into(),
            extra: Vec::new(),
            help: Some(f.help),
            notes: if f.edits.is_empty() { Vec::new() } else { vec!["`flowbench check --fix` rewrites it".into()] },
        });
    }
    out.sort_by_key(|d| (d.span.start, d.code.clone()));
    out
}

/// `A[x]` … `A[y]`: the same id with two different bracketed labels/shapes.
fn conflicting_labels(source: &str) -> Vec<Diagnostic> {
    let mut first: BTreeMap<String, (std::ops::Range<usize>, String)> = BTreeMap::new();
    let mut out = Vec::new();
    for l in split_lines(source) {
        let t = l.text.trim_start();
        let kw = t.split_whitespace().next().unwrap_or("");
        if matches!(kw, "style" | "classDef" | "class" | "linkStyle" | "click" | "subgraph" | "end" | "direction")
            || t.starts_with("%%")
            || t.starts_with("acc")
        {
            continue;
        }
        for tok in scan(l.text) {
            let Tok::Node { id, shape: Some(s) } = tok else { continue };
            if id.is_empty() {
                continue;
            }
            let name = l.text[id.clone()].to_string();
            let decl = l.text[s.open.start..s.close.end].to_string();
            let span = l.start + id.start..l.start + s.close.end;
            match first.get(&name) {
                Some((prev, prev_decl)) if *prev_decl != decl => out.push(Diagnostic {
                    severity: Severity::Warning,
                    code: "conflicting-label".into(),
                    message: format!(
                        "`{name}` is defined twice with different labels: `{name}{prev_decl}` and `{name}{decl}`"
                    ),
                    span,
                    label: "this definition wins".into(),
                    extra: vec![(prev.clone(), "first defined here".into())],
                    help: Some(format!("use a new id for a different node, or refer to `{name}` by its bare id")),
                    notes: Vec::new(),
                }),
                Some(_) => {}
                None => {
                    first.insert(name, (span, decl));
                }
            }
        }
    }
    out
}
