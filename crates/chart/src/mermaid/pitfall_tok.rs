//! Pitfall rules over the tokens of one vertex/edge statement line: labels,
//! ids, links and `@{…}` metadata.

use std::ops::Range;

use super::fmt_text::KEYWORDS;
use super::pitfall::{Ctx, Edit, Finding, Line};
use super::scan::{Shape, Tok, is_text_shape};

fn push(
    out: &mut Vec<Finding>,
    pitfall: &'static str,
    span: Range<usize>,
    help: String,
    edits: Vec<Edit>,
    silent: bool,
) {
    out.push(Finding { pitfall, span, help, edits, silent });
}

/// Labels inside brackets: unquoted `( ) [ ] { } | "` (P01, P02, P15, P03),
/// `"`/backticks inside quoted labels and blanks around them (P03), empty
/// brackets (P02), a literal `\n` (P08).
pub(crate) fn label_rule(l: &Line, shape: &Shape, id_start: usize, in_subgraph: bool, out: &mut Vec<Finding>) {
    if !in_subgraph && !is_text_shape(l.text, shape) {
        return;
    }
    let Some(content) = l.text.get(shape.content.clone()) else { return };
    let abs = l.start + shape.content.start..l.start + shape.content.end;
    if content.trim().is_empty() && shape.close.end > shape.close.start {
        let r = l.start + shape.open.start..l.start + shape.close.end;
        push(
            out,
            "P02",
            r.clone(),
            "empty brackets are an error: give the node a label or write the bare id".into(),
            vec![Edit { range: r, text: String::new() }],
            false,
        );
        return;
    }
    if let Some((fixed, pitfall, what, silent)) = fix_label(content) {
        let lead = l.text.get(id_start.min(shape.content.start)..shape.content.start).unwrap_or("");
        let example = format!("{lead}{fixed}{}", l.text.get(shape.close.clone()).unwrap_or(""));
        let help = format!("{what}: `{}`", example.trim());
        push(out, pitfall, abs.clone(), help, vec![Edit { range: abs, text: fixed }], silent);
    }
}

/// The rewritten label, its pitfall and help, or `None` when it is fine.
pub(crate) fn fix_label(content: &str) -> Option<(String, &'static str, String, bool)> {
    let t = content.trim();
    if t.len() >= 4 && t.starts_with("\"`") && t.ends_with("`\"") {
        return None;
    }
    let br = |s: &str| s.replace("\\n", "<br>");
    if t.len() >= 2 && t.starts_with('"') && t.ends_with('"') {
        let inner = &t[1..t.len() - 1];
        let mut fixed = inner.replace("\\\"", "#quot;").replace('"', "#quot;");
        if fixed.starts_with('`') {
            fixed = fixed.replace('`', "#96;");
        }
        let fixed = format!("\"{}\"", br(&fixed));
        if fixed == content {
            return None;
        }
        let (pitfall, help, silent) = if inner.contains('"') {
            (
                "P03",
                "a `\"` cannot appear inside a quoted label (there is no escape): write it as `#quot;`".to_string(),
                false,
            )
        } else if inner.starts_with('`') {
            (
                "P03",
                "``\"` `` opens a markdown string that must end with `` `\" ``; write backticks as `#96;`".to_string(),
                false,
            )
        } else if t != content {
            (
                "P03",
                "a quoted label must fill its brackets exactly, without blanks around the quotes".to_string(),
                false,
            )
        } else {
            ("P08", "`\\n` is not a line break in mermaid (it is drawn literally): use `<br>`".to_string(), true)
        };
        return Some((fixed, pitfall, help, silent));
    }
    let special = |c: char| matches!(c, '(' | ')' | '[' | ']' | '{' | '}' | '|' | '"');
    if content.contains(special) {
        let fixed = format!("\"{}\"", br(t.replace("\\\"", "#quot;").replace('"', "#quot;").as_str()));
        let (pitfall, what) = if content.contains('"') {
            ("P03", "a `\"` inside an unquoted label")
        } else if content.contains(['(', ')']) {
            ("P01", "parentheses inside a label")
        } else if content.contains('|') {
            ("P15", "a `|` inside a label")
        } else {
            ("P02", "brackets or braces inside a label")
        };
        let help = format!("{what} must be quoted (unquoted, they open or close shapes)");
        return Some((fixed, pitfall, help, false));
    }
    if content.contains("\\n") {
        let fixed = br(content);
        let help = "`\\n` is not a line break in mermaid (it is drawn literally): use `<br>`".to_string();
        return Some((fixed, "P08", help, true));
    }
    None
}

/// Mermaid accepts an id character if it is ASCII from the id set, or a
/// letter/digit in the Basic Multilingual Plane (features.md §3).
fn id_char_ok(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || "!#$%&'*+.`?\\_/-:,=".contains(c)
        || (u32::from(c) > 0x7f && u32::from(c) <= 0xffff && c.is_alphanumeric())
}

/// The keyword an id is lexed as, if any (`end`, `end-node`, `style2`…).
fn keyword_of(id: &str) -> Option<&'static str> {
    KEYWORDS.iter().copied().filter(|k| !matches!(*k, "default" | "direction" | "accTitle" | "accDescr")).find(|k| {
        id.strip_prefix(k).is_some_and(|rest| {
            rest.is_empty()
                || rest.starts_with(['-', '.', '/'])
                || (matches!(*k, "style" | "class" | "classDef" | "linkStyle" | "graph" | "flowchart")
                    && rest.starts_with(|c: char| c.is_ascii_digit()))
        })
    })
}

fn capitalise(s: &str) -> String {
    let lead = s.len() - s.trim_start_matches('_').len();
    let (pre, rest) = s.split_at(lead);
    let mut cs = rest.chars();
    match cs.next() {
        Some(c) => format!("{pre}{}{}", c.to_ascii_uppercase(), cs.as_str()),
        None => s.to_string(),
    }
}

/// Token rules for one statement line.
pub(crate) fn rules(l: &Line, toks: &[Tok], ctx: &mut Ctx, out: &mut Vec<Finding>) {
    let abs = |r: &Range<usize>| l.start + r.start..l.start + r.end;
    let txt = |r: &Range<usize>| &l.text[r.clone()];
    let mut skip_next_node = false;
    for (i, tok) in toks.iter().enumerate() {
        match tok {
            Tok::Node { id, shape } => {
                if let Some(s) = shape {
                    label_rule(l, s, id.start, false, out);
                }
                if std::mem::take(&mut skip_next_node) {
                    continue;
                }
                let name = txt(id);
                // `App - "label" --> B`: a single dash before an inline label
                if name == "-" && shape.is_none() && i > 0 {
                    push(
                        out,
                        "P06",
                        abs(id),
                        "an inline link label starts with `--` (or `==`, `-.`): `A -- text --> B`".into(),
                        vec![Edit { range: abs(id), text: "--".into() }],
                        false,
                    );
                    skip_next_node = true;
                    continue;
                }
                if name.is_empty() || name.starts_with('"') {
                    continue;
                }
                // `A -->|label|> B`: an arrow head repeated after the label
                if name.starts_with('>') && i > 0 && matches!(toks.get(i - 1), Some(Tok::Pipe { .. })) {
                    let head = l.start + id.start..l.start + id.start + 1;
                    push(out, "P05", head.clone(), "the arrow head comes before the label only: `A -->|label| B`, with nothing between the closing `|` and the target".into(),
                        vec![Edit { range: head, text: String::new() }], false);
                    continue;
                }
                // `My Node --> B`: an id followed directly by another bare word
                if shape.is_none()
                    && let Some(Tok::Node { id: id2, shape: shape2 }) = toks.get(i + 1)
                    && !txt(id2).is_empty()
                    && txt(id2) != "-"
                    && !txt(id2).starts_with('"')
                    && !matches!(toks.get(i.wrapping_sub(1)), Some(Tok::Node { .. }))
                {
                    spaced_id(l, id, id2, shape2.is_some(), ctx, out);
                    skip_next_node = true;
                    continue;
                }
                if let Some(k) = keyword_of(name) {
                    let new = capitalise(name);
                    let silent = k == "click";
                    push(
                        out,
                        "P04",
                        abs(id),
                        format!(
                            "`{k}` is a keyword and cannot start an id; rename the node, e.g. `{new}` (keywords are lower case), and keep the word in its label if you need it"
                        ),
                        vec![Edit { range: abs(id), text: new }],
                        silent,
                    );
                } else if let Some(bad) = name.chars().find(|&c| !id_char_ok(c)) {
                    let new: String = name
                        .chars()
                        .map(|c| if id_char_ok(c) { c.to_string() } else { format!("u{:X}", u32::from(c)) })
                        .collect();
                    let label = if shape.is_none() { format!("[\"{name}\"]") } else { String::new() };
                    push(
                        out,
                        "P10",
                        abs(id),
                        format!(
                            "`{bad}` cannot be part of an id (only labels may hold emoji and symbols): `{new}{label}`"
                        ),
                        vec![Edit { range: abs(id), text: format!("{new}{label}") }],
                        false,
                    );
                }
            }
            Tok::Link { range, inline_text } => {
                let open_only =
                    inline_text.is_none() && matches!(txt(range), "--" | "==" | "-." | "<--" | "<==" | "<-.");
                link_rule(l, toks, i, range, inline_text.as_ref(), out);
                if open_only {
                    // an inline label that never closes: the rest is label text
                    break;
                }
            }
            Tok::Pipe { content, .. } => {
                let close_end = (content.end + 1).min(l.text.len());
                let shape = Shape {
                    open: content.start - 1..content.start,
                    content: content.clone(),
                    close: content.end..close_end,
                };
                label_rule(l, &shape, content.start - 1, true, out);
            }
            Tok::Meta(r) => meta_rule(l, toks, i, r, out),
            _ => {}
        }
    }
}

fn spaced_id(l: &Line, id: &Range<usize>, id2: &Range<usize>, has_shape: bool, ctx: &mut Ctx, out: &mut Vec<Finding>) {
    let words = &l.text[id.start..id2.end];
    let range = l.start + id.start..l.start + id2.end;
    if let Some(title) = ctx.spaced_titles.get(words).cloned() {
        let new = words.split_whitespace().collect::<Vec<_>>().join("_");
        push(
            out,
            "P11",
            range.clone(),
            format!(
                "a subgraph titled `{words}` gets an automatic id, so it cannot be linked by its title: give it an id, `subgraph {new} [{words}]`, and link to `{new}`"
            ),
            vec![Edit { range, text: new.clone() }, Edit { range: title, text: format!("{new} [{words}]") }],
            false,
        );
        return;
    }
    let known = ctx.spaced_ids.contains_key(words);
    let new = ctx
        .spaced_ids
        .entry(words.to_string())
        .or_insert_with(|| words.split_whitespace().collect::<Vec<_>>().join("_"))
        .clone();
    // A bare use labels the node with its words only if no use gives it a
    // label: otherwise it is a reference, and a label here would win over
    // (and silently replace) the one the writer gave.
    let text =
        if known || has_shape || ctx.labelled_ids.contains(&new) { new.clone() } else { format!("{new}[\"{words}\"]") };
    push(
        out,
        "P10",
        range.clone(),
        format!("ids cannot contain spaces: use an id and put the words in the label, `{new}[\"{words}\"]`"),
        vec![Edit { range, text }],
        false,
    );
}

/// Invented arrows (`->`, `—>`), one-sided markers as text (`--o-->`),
/// reverse arrows (`B <-- C`), mixed inline strokes (`== t -->`) (P05, P06).
fn link_rule(
    l: &Line,
    toks: &[Tok],
    i: usize,
    range: &Range<usize>,
    inline: Option<&Range<usize>>,
    out: &mut Vec<Finding>,
) {
    let s = &l.text[range.clone()];
    let abs = l.start + range.start..l.start + range.end;
    let fixed = match s {
        "->" | "—>" | "–>" | "→" | "—" | "–" => Some("-->"),
        "=>" => Some("==>"),
        _ => None,
    };
    if let Some(f) = fixed {
        push(
            out,
            "P06",
            abs.clone(),
            format!("`{s}` is not a mermaid link: write `{f}`"),
            vec![Edit { range: abs, text: f.into() }],
            false,
        );
        return;
    }
    if let Some(Tok::Link { range: r2, inline_text: None }) = toks.get(i + 1)
        && inline.is_none()
        && (s.ends_with('o') || s.ends_with('x'))
    {
        let abs2 = l.start + r2.start..l.start + r2.end;
        let two = &l.text[range.start..r2.end];
        push(
            out,
            "P05",
            l.start + range.start..abs2.end,
            format!("`{two}` is not a link: a circle or cross head is the last character, `{s}`"),
            vec![Edit { range: abs2, text: String::new() }],
            false,
        );
        return;
    }
    if let Some(t) = inline {
        let open = s[..t.start - range.start].trim();
        let close = s[t.end - range.start..].trim();
        let stroke = |x: &str| {
            if x.contains('=') {
                '='
            } else if x.contains('.') {
                '.'
            } else {
                '-'
            }
        };
        if stroke(open) != stroke(close) {
            let open_end = close.ends_with(['-', '=']) || close.ends_with(".-");
            let new_close = match (stroke(open), open_end) {
                ('=', false) => "==>",
                ('=', true) => "===",
                ('.', false) => ".->",
                ('.', true) => ".-",
                (_, false) => "-->",
                (_, true) => "---",
            }
            .to_string();
            let c = l.start + range.end - close.len()..l.start + range.end;
            push(
                out,
                "P06",
                abs,
                format!("an inline label's closing link must use the opening stroke: `{open} text {new_close}`"),
                vec![Edit { range: c, text: new_close }],
                false,
            );
        }
        return;
    }
    if matches!(s, "<--" | "<==" | "<-.") && i > 0 {
        let (Some(Tok::Node { id: a, shape: sa }), Some(Tok::Node { .. })) = (toks.get(i - 1), toks.get(i + 1)) else {
            return;
        };
        if i != 1 || toks.len() != 3 {
            return;
        }
        let Tok::Node { id: b, shape: sb } = &toks[2] else { return };
        let end_a = sa.as_ref().map_or(a.end, |s| s.close.end);
        let end_b = sb.as_ref().map_or(b.end, |s| s.close.end);
        let left = &l.text[a.start..end_a];
        let right = &l.text[b.start..end_b];
        let arrow = match s {
            "<==" => "==>",
            "<-." => "-.->",
            _ => "-->",
        };
        let new = format!("{right} {arrow} {left}");
        push(
            out,
            "P06",
            l.start + a.start..l.start + end_b,
            format!("mermaid has no reverse arrow (`{s}` starts an inline label): write `{new}`"),
            vec![Edit { range: l.start + a.start..l.start + end_b, text: new }],
            false,
        );
    }
}

/// `@{ … }`: invalid shape names, YAML values needing quotes, `:::class`
/// after the metadata (P13).
fn meta_rule(l: &Line, toks: &[Tok], i: usize, r: &Range<usize>, out: &mut Vec<Finding>) {
    let body = &l.text[r.clone()];
    for key in ["shape:", "label:"] {
        let Some(p) = body.find(key) else { continue };
        let v_start = p + key.len();
        let v_rest = &body[v_start..];
        let v_lead = v_rest.len() - v_rest.trim_start().len();
        let end = v_rest.find([',', '}']).unwrap_or(v_rest.len());
        let value = v_rest[..end].trim();
        let at = l.start + r.start + v_start + v_lead;
        let vr = at..at + value.len();
        if key == "shape:" {
            let mapped = super::fix_shape::canonical_shape(value);
            if let Some(m) = mapped.filter(|m| m != value) {
                push(
                    out,
                    "P13",
                    vr.clone(),
                    format!("no shape is named `{value}` (names are lower case with `-`): use `{m}`"),
                    vec![Edit { range: vr, text: m }],
                    false,
                );
            }
        } else if !value.starts_with(['"', '\''])
            && (value.contains(": ") || value.starts_with(['&', '*', '!', '|', '>', '%', '@', '`', '[', '#']))
        {
            let q = format!("\"{}\"", value.replace('"', "#quot;"));
            push(
                out,
                "P13",
                vr.clone(),
                format!("this label is YAML and needs quotes: `label: {q}`"),
                vec![Edit { range: vr, text: q }],
                false,
            );
        }
    }
    if let Some(Tok::Class(c)) = toks.get(i + 1)
        && let Some(Tok::Node { id, .. }) = i.checked_sub(1).and_then(|k| toks.get(k))
    {
        let class = &l.text[c.start + 3..c.end];
        let node = &l.text[id.clone()];
        let eol = l.start + l.text.len();
        let indent = &l.text[..l.text.len() - l.text.trim_start().len()];
        push(
            out,
            "P13",
            l.start + c.start..l.start + c.end,
            format!("`:::` cannot follow `@{{…}}`: write `class {node} {class}` on its own line"),
            vec![
                Edit { range: l.start + c.start..l.start + c.end, text: String::new() },
                Edit { range: eol..eol, text: format!("\n{indent}class {node} {class}") },
            ],
            false,
        );
    }
}
