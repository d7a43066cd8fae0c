//! A forgiving, line-level tokenizer for Mermaid statements.
//!
//! The real parser stops at the first error; hints and `--fix` need to look at
//! *broken* text and find its parts anyway (a node's brackets around a label
//! that contains a `(`, a link written `->`). This scanner never fails: it
//! splits a statement line into nodes (id + bracketed label), links (with
//! inline or pipe labels), `&`, `;`, `:::class` and `@{…}` pieces, choosing
//! bracket ends the way a person would (the first *balanced* closer).

use std::ops::Range;

/// One piece of a statement line; ranges are byte offsets into the line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    /// A vertex: its id and, when present, the bracketed shape.
    Node {
        id: Range<usize>,
        shape: Option<Shape>,
    },
    /// A link token such as `-->`, `<--`, `->`, `-- text -->`.
    Link {
        range: Range<usize>,
        inline_text: Option<Range<usize>>,
    },
    /// `|label|` after a link: the whole piece and its content.
    Pipe {
        range: Range<usize>,
        content: Range<usize>,
    },
    Amp(Range<usize>),
    Semi(Range<usize>),
    /// `:::name`.
    Class(Range<usize>),
    /// `@{ … }` node metadata (braces included).
    Meta(Range<usize>),
}

/// Brackets of a node: opener, content and closer ranges.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Shape {
    pub open: Range<usize>,
    pub content: Range<usize>,
    pub close: Range<usize>,
}

/// Shape openers, longest first, with their closers; the bool says whether
/// the content is a free-text label the label rules may rewrite.
const OPENERS: &[(&str, &str, bool)] = &[
    ("(((", ")))", true),
    ("((", "))", true),
    ("([", "])", true),
    ("(-", "-)", false),
    ("(", ")", true),
    ("[[", "]]", true),
    ("[(", ")]", true),
    ("[/", "/]", true),
    ("[\\", "\\]", true),
    ("[|", "]", false),
    ("[", "]", true),
    ("{{", "}}", true),
    ("{", "}", true),
    (">", "]", true),
];

/// Whether the opener at the start of a node's brackets takes free text.
pub(crate) fn is_text_shape(line: &str, shape: &Shape) -> bool {
    let open = &line[shape.open.clone()];
    OPENERS.iter().any(|(o, _, text)| *o == open && *text)
}

/// The closer of a text shape's opener (`}` for `{`, `])` for `([`).
pub(crate) fn text_closer(open: &str) -> Option<&'static str> {
    OPENERS.iter().find(|(o, _, text)| *o == open && *text).map(|(_, c, _)| *c)
}

fn link_len(s: &str) -> Option<(usize, bool)> {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'<')) {
        i = 1;
    }
    let body_start = i;
    let run = |i: usize, c: u8| b[i..].iter().take_while(|&&x| x == c).count();
    let head = |i: usize| -> usize {
        match b.get(i) {
            Some(b'>') => 1,
            Some(b'x' | b'o') if !b.get(i + 1).is_some_and(|c| c.is_ascii_alphanumeric()) => 1,
            _ => 0,
        }
    };
    if b.get(i) == Some(&b'~') {
        let n = run(i, b'~');
        return (n >= 3).then_some((i + n, false));
    }
    if b.get(i) == Some(&b'-') && b.get(i + 1) == Some(&b'.') || b.get(i) == Some(&b'.') {
        let j = i + usize::from(b[i] == b'-');
        let dots = run(j, b'.');
        if dots > 0 && b.get(j + dots) == Some(&b'-') {
            let end = j + dots + 1;
            return Some((end + head(end), false));
        }
        if b.get(i) == Some(&b'-') && dots > 0 {
            // `-.` opening an inline dotted label
            return Some((j + dots, true));
        }
        return None;
    }
    for c in [b'-', b'='] {
        let n = run(i, c);
        if n >= 2 {
            let h = head(i + n);
            let inline_open = h == 0 && n == 2 && b.get(i + n).is_some_and(|x| x.is_ascii_whitespace());
            if n >= 3 || h > 0 {
                return Some((i + n + h, false));
            }
            return Some((i + n, inline_open || body_start == 1));
        }
    }
    None
}

/// Whether a link token starts at `s` (including invented ones like `->`,
/// and an edge id prefix `e1@`): its length and whether it opens an inline
/// label (`-- text -->`).
pub(crate) fn link_at(s: &str) -> Option<(usize, bool)> {
    if let Some(l) = link_len(s) {
        return Some(l);
    }
    let b = s.as_bytes();
    if matches!(b.first(), Some(b'x' | b'o'))
        && let Some((n, inline)) = link_len(&s[1..])
    {
        return Some((n + 1, inline));
    }
    for bad in ["->", "=>", "—>", "–>", "→", "—", "–"] {
        if s.starts_with(bad) {
            return Some((bad.len(), false));
        }
    }
    // `e1@-->`: an edge id glued to its link
    let word = s.find(|c: char| c.is_whitespace() || c == '"').unwrap_or(s.len());
    if let Some(at) = s[..word].find('@')
        && at > 0
        && !s[at + 1..].starts_with('{')
        && let Some((n, inline)) = link_at(&s[at + 1..])
    {
        return Some((at + 1 + n, inline));
    }
    None
}

/// For each byte of `line`, whether it lies outside `"…"` (quote characters
/// themselves count as inside), so rules can ignore text in quoted labels.
pub(crate) fn outside_quotes(line: &str) -> Vec<bool> {
    let mut inside = false;
    let mut v = Vec::with_capacity(line.len());
    for b in line.bytes() {
        if b == b'"' {
            inside = !inside;
            v.push(false);
        } else {
            v.push(!inside);
        }
    }
    v
}

/// Split a statement line into tokens. Never fails; unknown bytes become
/// part of node ids.
pub(crate) fn scan(line: &str) -> Vec<Tok> {
    let mut toks = Vec::new();
    let mut i = 0;
    let len = line.len();
    while i < len {
        let rest = &line[i..];
        let c = rest.chars().next().unwrap_or(' ');
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        let after_link = matches!(toks.last(), Some(Tok::Link { .. }));
        if c == ';' {
            toks.push(Tok::Semi(i..i + 1));
            i += 1;
        } else if c == '&' && rest[1..].starts_with(char::is_whitespace) {
            toks.push(Tok::Amp(i..i + 1));
            i += 1;
        } else if let Some(name) = rest.strip_prefix(":::") {
            let n = 3 + name.find(|ch: char| ch.is_whitespace() || ch == ';' || ch == '&').unwrap_or(name.len());
            toks.push(Tok::Class(i..i + n));
            i += n;
        } else if rest.starts_with("@{") {
            let n = meta_len(rest);
            toks.push(Tok::Meta(i..i + n));
            i += n;
        } else if c == '|' && after_link {
            let end = rest[1..].find('|').map(|p| p + 1);
            let end = end.unwrap_or(rest.len().saturating_sub(0));
            let close = (end + 1).min(rest.len());
            toks.push(Tok::Pipe { range: i..i + close, content: i + 1..i + end.max(1) });
            i += close;
        } else if let Some((n, inline)) =
            link_at(rest).filter(|_| !rest.starts_with(['x', 'o']) || !after_node_glued(&toks, line, i))
        {
            let mut tok = Tok::Link { range: i..i + n, inline_text: None };
            if inline && let Some((t_end, close_end)) = inline_close(line, i + n) {
                tok = Tok::Link { range: i..close_end, inline_text: Some(i + n..t_end) };
            }
            let Tok::Link { range, .. } = &tok else { unreachable!() };
            i = range.end;
            toks.push(tok);
        } else {
            let (tok, n) = node_at(line, i);
            toks.push(tok);
            i += n.max(1);
        }
    }
    toks
}

/// Whether the previous token is a node ending right before `i` (so an
/// `x`/`o` here continues nothing: `A-->xylo` has already been split).
fn after_node_glued(toks: &[Tok], _line: &str, i: usize) -> bool {
    matches!(toks.last(), Some(Tok::Node { id, shape: None }) if id.end == i)
}

/// End of the inline label text starting at `from` and end of its closing
/// link (`-- text -->`): the next link token after a blank.
fn inline_close(line: &str, from: usize) -> Option<(usize, usize)> {
    let q = outside_quotes(line);
    let mut j = from;
    while j < line.len() {
        if line.is_char_boundary(j)
            && q[j]
            && line[..j].ends_with(char::is_whitespace)
            && let Some((n, false)) = link_len(&line[j..])
        {
            return Some((j, j + n));
        }
        j += 1;
    }
    None
}

fn meta_len(rest: &str) -> usize {
    let mut in_str = false;
    for (k, ch) in rest.char_indices() {
        match ch {
            '"' => in_str = !in_str,
            '}' if !in_str => return k + 1,
            _ => {}
        }
    }
    rest.len()
}

/// A node at `i`: the id runs to a blank, a shape opener, a link, `;`, `|`,
/// `:::` or `@{`; then brackets if an opener follows directly.
fn node_at(line: &str, i: usize) -> (Tok, usize) {
    let rest = &line[i..];
    let mut k = 0;
    for (p, ch) in rest.char_indices() {
        let here = &rest[p..];
        let stop = ch.is_whitespace()
            || matches!(ch, '[' | '(' | '{' | ';' | '|')
            || (ch == '>' && p > 0)
            || here.starts_with(":::")
            || here.starts_with("@{")
            || (p > 0 && link_len(here).is_some_and(|(_, _)| !here.starts_with("-.") || here.len() > 2))
            || (p > 0 && (here.starts_with("->") || here.starts_with("=>")));
        if stop && p > 0 {
            k = p;
            break;
        }
        if stop && p == 0 && !matches!(ch, '>' | '-' | '=') {
            k = 0;
            break;
        }
        k = p + ch.len_utf8();
    }
    let id = i..i + k;
    let after = &line[i + k..];
    for (open, close, _) in OPENERS {
        if after.starts_with(open) && !(k == 0 && *open == ">") {
            let c_start = i + k + open.len();
            let close_at = find_closer(line, c_start, open, close);
            let (content_end, close_end) = match close_at {
                Some(p) => (p, p + close.len()),
                None => (line.len(), line.len()),
            };
            let shape = Shape { open: i + k..c_start, content: c_start..content_end, close: content_end..close_end };
            return (Tok::Node { id, shape: Some(shape) }, close_end - i);
        }
    }
    (Tok::Node { id, shape: None }, k)
}

/// The closer for a label starting at `from`: a quoted label ends at a
/// closer right after a `"`; otherwise the first closer whose content has
/// balanced brackets of the opener's kind; else the first closer.
fn find_closer(line: &str, from: usize, open: &str, close: &str) -> Option<usize> {
    let content = &line[from..];
    let candidates: Vec<usize> = content.match_indices(close).map(|(p, _)| from + p).collect();
    let quoted = content.trim_start().starts_with('"');
    if quoted
        && let Some(&p) =
            candidates.iter().find(|&&p| line[from..p].trim_end().ends_with('"') && line[from..p].trim().len() > 1)
    {
        return Some(p);
    }
    let (o, c) = match open.chars().next() {
        Some('(') => ('(', ')'),
        Some('{') => ('{', '}'),
        _ => ('[', ']'),
    };
    let balanced = |p: usize| {
        let mut depth = 0i32;
        for ch in line[from..p].chars() {
            if ch == o {
                depth += 1;
            } else if ch == c {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
        }
        depth == 0
    };
    candidates.iter().copied().find(|&p| balanced(p)).or(candidates.first().copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text<'a>(line: &'a str, r: &Range<usize>) -> &'a str {
        &line[r.clone()]
    }

    #[test]
    fn labels_with_shape_characters_keep_their_extent() {
        let line = "D{arr[mid]} --> E[Swap arr[low] & arr[mid]]";
        let toks = scan(line);
        let labels: Vec<&str> = toks
            .iter()
            .filter_map(|t| match t {
                Tok::Node { shape: Some(s), .. } => Some(text(line, &s.content)),
                _ => None,
            })
            .collect();
        assert_eq!(labels, ["arr[mid]", "Swap arr[low] & arr[mid]"]);
        let line = "A(call foo()) --> B";
        assert!(matches!(&scan(line)[0], Tok::Node { shape: Some(s), .. } if text(line, &s.content) == "call foo()"));
    }

    #[test]
    fn links_and_inline_labels() {
        let line = "A -- invoke() returns --> B";
        let toks = scan(line);
        assert!(
            matches!(&toks[1], Tok::Link { inline_text: Some(r), .. } if text(line, r).trim() == "invoke() returns")
        );
        let toks = scan("A-->B");
        assert_eq!(toks.len(), 3);
        let toks = scan("A -> B");
        assert!(matches!(&toks[1], Tok::Link { range, .. } if *range == (2..4)));
        let line = "A -->|x (y)| B";
        assert!(matches!(&scan(line)[2], Tok::Pipe { content, .. } if text(line, content) == "x (y)"));
    }
}
