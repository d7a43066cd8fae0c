//! Pitfall rules for header, subgraph and style lines, and the driver for
//! vertex/edge statements (whose token rules live in `pitfall_tok`).

use super::pitfall::{Ctx, Edit, Finding, Line};
use super::pitfall_tok;
use super::scan::{Tok, scan};

fn finding(pitfall: &'static str, span: std::ops::Range<usize>, help: String, edits: Vec<Edit>) -> Finding {
    Finding { pitfall, span, help, edits, silent: false }
}

/// Header keyword and direction typos, a statement on the header line, and
/// several `;`-joined statements on it (P12, P09).
pub(crate) fn header_rule(l: &Line, out: &mut Vec<Finding>) {
    let t = l.text.trim_start();
    let off = l.start + (l.text.len() - t.len());
    let kw_len = t.find(|c: char| c.is_whitespace() || c == ';').unwrap_or(t.len());
    let kw = &t[..kw_len];
    let Some((k, glued)) = header_keyword(kw) else { return };
    if glued.is_some() || k != kw {
        let (text, help) = match &glued {
            Some(d) => {
                (format!("{k} {d}"), format!("write `{k} {d}`: the diagram keyword, then the direction as a word"))
            }
            None if k.eq_ignore_ascii_case(kw) => {
                (k.to_string(), format!("diagram keywords are lower case: write `{k}`"))
            }
            None => (k.to_string(), format!("`{kw}` is not a diagram keyword: write `{k}`")),
        };
        out.push(finding("P12", off..off + kw_len, help, vec![Edit { range: off..off + kw_len, text }]));
    }
    let dir_end = if glued.is_some() { off + kw_len } else { direction_rule(l, off + kw_len, out) };
    let rest = &l.text[dir_end - l.start..];
    let rest_t = rest.trim_start();
    if !rest_t.is_empty() && !rest_t.starts_with(';') {
        let at = dir_end + (rest.len() - rest_t.len());
        out.push(finding(
            "P12",
            at..l.start + l.text.len(),
            "the header line ends after the direction: put a newline (or `;`) before the first statement".into(),
            vec![Edit { range: dir_end..at, text: "\n    ".into() }],
        ));
    } else {
        split_semicolons(l, dir_end - l.start, out);
    }
}

/// The header keyword `kw` stands for, and a direction glued to it
/// (`flowchartTD`): `flowchart`, `flowchart-elk` or `graph` in any case, or
/// a typo of them (at most two edits from `flowchart`, one from `graph`,
/// counting a swap of neighbours as one).
fn header_keyword(kw: &str) -> Option<(&'static str, Option<String>)> {
    let exact = |w: &str| ["flowchart-elk", "flowchart", "graph"].into_iter().find(|k| k.eq_ignore_ascii_case(w));
    let near = |w: &str| {
        let w = w.to_ascii_lowercase();
        [("flowchart", 2), ("graph", 1)].into_iter().find(|(k, max)| edit_distance(&w, k) <= *max).map(|(k, _)| k)
    };
    if let Some(k) = exact(kw) {
        return Some((k, None));
    }
    let glued = |head: &dyn Fn(&str) -> Option<&'static str>| {
        let split = kw.len().checked_sub(2).filter(|&p| p > 0 && kw.is_char_boundary(p))?;
        let dir = kw[split..].to_ascii_uppercase();
        let k = ["TB", "TD", "BT", "RL", "LR"].contains(&dir.as_str()).then(|| head(&kw[..split]))??;
        Some((k, Some(dir)))
    };
    glued(&exact).or_else(|| near(kw).map(|k| (k, None))).or_else(|| glued(&near))
}

/// Edit distance with a swap of two neighbouring characters counting as one
/// edit (optimal string alignment).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// The direction after the header keyword (ending at `kw_end`): a typo is
/// fixed; `;`-joined statements after a missing one are split. Returns
/// where the direction ends (`kw_end`'s blank run when there is none).
fn direction_rule(l: &Line, kw_end: usize, out: &mut Vec<Finding>) -> usize {
    let after = &l.text[kw_end - l.start..];
    let dir_t = after.trim_start();
    let dir_off = kw_end + (after.len() - dir_t.len());
    if dir_t.is_empty() || dir_t.starts_with(';') {
        return dir_off;
    }
    let dir_len = dir_t.find(|c: char| c.is_whitespace() || c == ';').unwrap_or(dir_t.len());
    let dir = &dir_t[..dir_len];
    let valid = ["TB", "TD", "BT", "RL", "LR", ">", "<", "^", "v"];
    let dir_end = dir_off + dir_len;
    if valid.contains(&dir) {
        return dir_end;
    }
    let upper = dir.to_ascii_uppercase();
    let fixed = if valid.contains(&upper.as_str()) {
        Some(upper.clone())
    } else {
        match upper.chars().next() {
            Some('T') | Some('D') => Some("TD".to_string()),
            Some('B') => Some("BT".to_string()),
            Some('L') => Some("LR".to_string()),
            Some('R') => Some("RL".to_string()),
            _ => None,
        }
    };
    match fixed {
        Some(d) => {
            out.push(finding(
                "P12",
                dir_off..dir_end,
                format!("`{dir}` is not a direction; use one of TB, TD, BT, RL, LR (upper case): `{d}`"),
                vec![Edit { range: dir_off..dir_end, text: d }],
            ));
            dir_end
        }
        // Not a direction at all: the header has none and this is a
        // statement on the header line.
        None => dir_off,
    }
}

/// `;`-separated statements on one line where one of them is a
/// `style`/`classDef`/`linkStyle` with a `#colour`: mermaid's entity
/// pre-pass turns `#fff;` into an entity, so such lines are split (P09).
fn split_semicolons(l: &Line, from: usize, out: &mut Vec<Finding>) {
    let text = &l.text[from..];
    let styled = text.split(';').any(|seg| {
        let s = seg.trim_start();
        (s.starts_with("style ") || s.starts_with("classDef ") || s.starts_with("linkStyle ")) && s.contains('#')
    });
    if !styled {
        return;
    }
    let q = super::scan::outside_quotes(l.text);
    let mut edits = Vec::new();
    for (p, _) in text.match_indices(';') {
        let abs = from + p;
        if !q[abs] {
            continue;
        }
        let next = l.text[abs + 1..].trim_start();
        let is_property = next
            .split(':')
            .next()
            .is_some_and(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphabetic() || c == '-'))
            && next.contains(':');
        if is_property {
            continue;
        }
        if next.is_empty() && edits.is_empty() && !text.trim_start().starts_with("linkStyle") {
            // `style A fill:#fff;` alone is fine: mermaid protects the last `;`
            continue;
        }
        let repl = if next.is_empty() { "" } else { "\n    " };
        let ws = l.text[abs + 1..].len() - next.len();
        edits.push(Edit { range: l.start + abs..l.start + abs + 1 + ws, text: repl.into() });
    }
    if !edits.is_empty() {
        out.push(finding(
            "P09",
            l.start + from..l.start + l.text.len(),
            "a `#colour;` in a `style`/`linkStyle`/`classDef` line is read as an entity code: put each statement on its own line without the `;`".into(),
            edits,
        ));
    }
}

/// `style`/`linkStyle`/`classDef` lines: `#hex;` at the end, CSS-style `;`
/// between properties, `rgb(…)` colours (P09).
pub(crate) fn style_rule(l: &Line, out: &mut Vec<Finding>) {
    let t = l.text.trim_end();
    let lead = l.text.len() - l.text.trim_start().len();
    split_semicolons(l, lead, out);
    if out.last().is_some_and(|f| f.span.start >= l.start && f.span.end <= l.start + l.text.len() && f.pitfall == "P09")
    {
        return;
    }
    let first = t.split_whitespace().next().unwrap_or("");
    if first == "linkStyle" && t.ends_with(';') && ends_with_hex(&t[..t.len() - 1]) {
        let p = l.start + t.len() - 1;
        out.push(finding(
            "P09",
            p..p + 1,
            "`#hex;` at the end of `linkStyle` is read as an entity code: drop the final `;`".into(),
            vec![Edit { range: p..p + 1, text: String::new() }],
        ));
    }
    if first != "linkStyle" {
        let body = t.trim_end_matches(';');
        let mut edits = Vec::new();
        for (p, _) in body.match_indices(';') {
            let next = &body[p + 1..];
            if next
                .trim_start()
                .split(':')
                .next()
                .is_some_and(|w| !w.is_empty() && w.trim().chars().all(|c| c.is_ascii_alphabetic() || c == '-'))
            {
                edits.push(Edit { range: l.start + p..l.start + p + 1, text: ",".into() });
            }
        }
        if !edits.is_empty() {
            out.push(Finding {
                pitfall: "P09",
                span: l.start..l.start + t.len(),
                help: "separate style properties with `,`, not `;` (mermaid glues `fill:#aaa;stroke:#fff` into one broken value)".into(),
                edits,
                silent: true,
            });
        }
    }
    for (p, _) in t.match_indices("rgb") {
        let rest = &t[p..];
        let Some(close) = rest.find(')') else { continue };
        let inner = rest[..close].trim_start_matches("rgba").trim_start_matches("rgb").trim_start_matches('(');
        let nums: Vec<u8> = inner.split(',').take(3).filter_map(|x| x.trim().parse().ok()).collect();
        if nums.len() == 3 {
            let hex = format!("#{:02x}{:02x}{:02x}", nums[0], nums[1], nums[2]);
            let r = l.start + p..l.start + p + close + 1;
            out.push(finding(
                "P09",
                r.clone(),
                format!("parentheses are not allowed in style values: write the colour as `{hex}`"),
                vec![Edit { range: r, text: hex }],
            ));
        }
    }
}

fn ends_with_hex(s: &str) -> bool {
    let word = s.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
    word.ends_with('#') && word.len() < s.len()
}

/// Subgraph headers: no title (P11), unquoted shape characters in the title
/// (P01).
pub(crate) fn subgraph_rule(l: &Line, ctx: &mut Ctx, out: &mut Vec<Finding>) {
    let t = l.text.trim_end();
    let rest = t.trim_start().trim_start_matches("subgraph");
    let rest_off = t.len() - rest.len();
    if rest.trim().trim_end_matches(';').is_empty() {
        ctx.next_group += 1;
        let at = l.start + rest_off;
        out.push(finding(
            "P11",
            l.start..l.start + t.len(),
            "a subgraph needs an id or a title: `subgraph group1 [Title]`".into(),
            vec![Edit { range: at..at, text: format!(" group{}", ctx.next_group) }],
        ));
        return;
    }
    let sub = Line { text: &l.text[rest_off..], start: l.start + rest_off };
    let toks = scan(sub.text);
    if let Some(Tok::Node { id, shape: Some(shape) }) = toks.first() {
        pitfall_tok::label_rule(&sub, shape, id.start, true, out);
    }
    if let Some(Tok::Node { id, shape: Some(s) }) = toks.get(1)
        && matches!(toks.first(), Some(Tok::Node { shape: None, .. }))
        && id.is_empty()
    {
        pitfall_tok::label_rule(&sub, s, 0, true, out);
    }
}

/// Vertex/edge statement lines.
pub(crate) fn statement_rules(l: &Line, ctx: &mut Ctx, out: &mut Vec<Finding>) {
    if direction_swallow(l, out) {
        return;
    }
    let toks = scan(l.text);
    pitfall_tok::rules(l, &toks, ctx, out);
}

/// `direction TB` anywhere in a statement line: mermaid's lexer reads the
/// whole line as a `direction` statement and the line's nodes and edges
/// vanish (P16). In a label the word is entity-encoded; after the statement
/// it is moved to its own line.
fn direction_swallow(l: &Line, out: &mut Vec<Finding>) -> bool {
    let Some(p) = l.text.match_indices("direction").map(|(p, _)| p).find(|&p| {
        let after = &l.text[p + "direction".len()..];
        let t = after.trim_start();
        t.len() < after.len() && ["TB", "BT", "RL", "LR", "TD"].iter().any(|d| t.starts_with(d))
    }) else {
        return false;
    };
    let q = super::scan::outside_quotes(l.text);
    let in_label = !q[p] || {
        let before = &l.text[..p];
        before.matches(['[', '(', '{', '|']).count() > before.matches([']', ')', '}']).count()
    };
    let at = l.start + p;
    let edits = if in_label {
        vec![Edit { range: at..at + 1, text: "#100;".into() }]
    } else {
        let cut = l.text[..p].trim_end().len();
        let indent = &l.text[..l.text.len() - l.text.trim_start().len()];
        vec![Edit { range: l.start + cut..at, text: format!("\n{indent}") }]
    };
    out.push(Finding {
        pitfall: "P16",
        span: at..l.start + l.text.len(),
        help: "mermaid reads any line containing `direction TB|BT|LR|RL|TD` as a direction statement, so this line's nodes and edges vanish; write the word as `#100;irection` in labels, or put `direction` on its own line inside a subgraph".into(),
        edits,
        silent: true,
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_keyword_typos_and_glued_directions() {
        assert_eq!(header_keyword("flowChart"), Some(("flowchart", None)));
        for typo in ["flowchat", "flowchar", "flochart", "folwchart", "flowcharts", "fowchat"] {
            assert_eq!(header_keyword(typo), Some(("flowchart", None)), "{typo}");
        }
        assert_eq!(header_keyword("grahp"), Some(("graph", None)));
        assert_eq!(header_keyword("flowchartLR"), Some(("flowchart", Some("LR".into()))));
        assert_eq!(header_keyword("graphtd"), Some(("graph", Some("TD".into()))));
        for other in ["gantt", "gitGraph", "flow", "sequenceDiagram", "A-->B"] {
            assert_eq!(header_keyword(other), None, "{other}");
        }
    }
}
