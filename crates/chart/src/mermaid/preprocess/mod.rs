//! What mermaid does to the text before its grammar sees it, step by step
//! (`preprocess.ts`, `frontmatter.ts`, `comments.ts`, `utils.encodeEntities`,
//! `flowParser.ts`), each step keeping a byte map back to the original text
//! so that errors point at what the user wrote.

use serde_json::{Map, Value};

use super::lexer::js_ws;

mod front;
use front::{directives, frontmatter};

/// One piece of the map: processed bytes from `at` come from original
/// offset `orig` on (`linear`) or all from `orig` (inserted text).
#[derive(Debug, Clone, Copy)]
struct Seg {
    at: u32,
    orig: u32,
    linear: bool,
}

/// Text plus a compact map from its bytes back to the original text.
#[derive(Debug, Clone)]
pub struct Mapped {
    pub text: String,
    segs: Vec<Seg>,
    /// Original offset of the end of the text.
    end: u32,
}

impl Mapped {
    fn identity(s: &str) -> Self {
        Mapped { text: s.to_string(), segs: vec![Seg { at: 0, orig: 0, linear: true }], end: s.len() as u32 }
    }

    /// Original byte offset of processed byte `i` (the end maps to the end).
    pub fn orig_at(&self, i: usize) -> usize {
        if i >= self.text.len() {
            return self.end as usize;
        }
        let k = self.segs.partition_point(|s| s.at as usize <= i).saturating_sub(1);
        match self.segs.get(k) {
            Some(s) if s.linear => s.orig as usize + (i - s.at as usize),
            Some(s) => s.orig as usize,
            None => i,
        }
    }

    /// Append a newline that maps to the end of the original text.
    fn push_newline(&mut self) {
        self.segs.push(Seg { at: self.text.len() as u32, orig: self.end, linear: false });
        self.text.push('\n');
    }
}

/// Incremental builder of a [`Mapped`] from pieces of another one.
struct Mb<'a> {
    src: &'a Mapped,
    text: String,
    segs: Vec<Seg>,
}

impl<'a> Mb<'a> {
    fn new(src: &'a Mapped) -> Self {
        Mb { src, text: String::with_capacity(src.text.len() + 1), segs: Vec::with_capacity(src.segs.len() + 4) }
    }
    fn copy(&mut self, from: usize, to: usize) {
        if from >= to {
            return;
        }
        let base = self.text.len();
        let first = self.src.segs.partition_point(|s| s.at as usize <= from).saturating_sub(1);
        for s in self.src.segs[first..].iter().take_while(|s| (s.at as usize) < to) {
            let p = (s.at as usize).max(from);
            self.segs.push(Seg { at: (base + p - from) as u32, orig: self.src.orig_at(p) as u32, linear: s.linear });
        }
        self.text.push_str(&self.src.text[from..to]);
    }
    /// Inserted text maps to the original position of source byte `at`.
    fn insert(&mut self, s: &str, at: usize) {
        self.segs.push(Seg { at: self.text.len() as u32, orig: self.src.orig_at(at) as u32, linear: false });
        self.text.push_str(s);
    }
    fn finish(self, end: usize) -> Mapped {
        Mapped { text: self.text, segs: self.segs, end: self.src.orig_at(end) as u32 }
    }
}

/// A failure before the grammar (frontmatter YAML, no diagram type).
#[derive(Debug, Clone, PartialEq)]
pub struct PreError {
    pub pos: usize,
    pub message: String,
    pub no_diagram: bool,
}

/// The result of preprocessing.
#[derive(Debug, Clone)]
pub struct Pre {
    /// What the jison parser receives.
    pub code: Mapped,
    pub config: Value,
    pub title: Option<String>,
}

/// Run every step; `text` is the user's text.
pub fn preprocess(text: &str) -> Result<Pre, PreError> {
    let m = cleanup_text(Mapped::identity(text));
    let (m, fm) = frontmatter(m)?;
    let (m, directive) = directives(m);
    let m = cleanup_comments(m);
    detect(&m.text).map_err(|e| PreError { pos: m.orig_at(0), message: e.to_string(), no_diagram: true })?;
    let m = encode_entities(m);
    let m = tidy_braces(m);
    let mut config = Value::Object(Map::new());
    let mut title = None;
    if let Some(Value::Object(fm)) = fm {
        if let Some(t) = fm.get("title") {
            title = Some(match t {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            });
        }
        if let Some(c) = fm.get("config") {
            merge(&mut config, c);
        }
        if let Some(d) = fm.get("displayMode") {
            merge(&mut config, &serde_json::json!({"gantt": {"displayMode": d}}));
        }
    }
    // No directive is no config (not a `null` one that would replace the
    // frontmatter's `config:`).
    if !directive.is_null() {
        merge(&mut config, &directive);
    }
    if config.as_object().is_some_and(|o| o.is_empty()) {
        config = Value::Null;
    }
    Ok(Pre { code: m, config, title })
}

/// Deep merge (mermaid's `assignWithDepth`): objects merge, the rest replaces.
pub fn merge(dst: &mut Value, src: &Value) {
    match (dst, src) {
        (Value::Object(d), Value::Object(s)) => {
            for (k, v) in s {
                match d.get_mut(k) {
                    Some(dv) if dv.is_object() && v.is_object() => merge(dv, v),
                    _ => {
                        d.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (d, s) => *d = s.clone(),
    }
}

/// `\r\n?` → `\n`; inside `<tag …>`, `attr="v"` → `attr='v'`.
fn cleanup_text(m: Mapped) -> Mapped {
    let m = if m.text.contains('\r') {
        let mut b = Mb::new(&m);
        let bytes = m.text.as_bytes();
        let mut last = 0;
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'\r' {
                b.copy(last, i);
                b.insert("\n", i);
                i += if bytes.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
                last = i;
            } else {
                i += 1;
            }
        }
        b.copy(last, bytes.len());
        b.finish(bytes.len())
    } else {
        m
    };
    if !m.text.contains("=\"") {
        return m;
    }
    // Same-length rewrite: only quote characters change.
    let mut bytes = m.text.clone().into_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'<' && bytes.get(i + 1).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
            let mut j = i + 1;
            while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
                j += 1;
            }
            if let Some(close) = bytes[j..].iter().position(|&c| c == b'>') {
                let end = j + close;
                let mut k = j;
                while k + 1 < end {
                    if bytes[k] == b'=' && bytes[k + 1] == b'"' {
                        if let Some(q) = bytes[k + 2..end].iter().position(|&c| c == b'"') {
                            bytes[k + 1] = b'\'';
                            bytes[k + 2 + q] = b'\'';
                            k = k + 3 + q;
                            continue;
                        }
                        break;
                    }
                    k += 1;
                }
                i = end + 1;
                continue;
            }
        }
        i += 1;
    }
    Mapped { text: String::from_utf8(bytes).unwrap_or(m.text), segs: m.segs, end: m.end }
}

/// `^\s*%%(?!\{)[^\n]+\n?` (multiline) removed, then `trimStart()`.
fn cleanup_comments(m: Mapped) -> Mapped {
    let t = &m.text;
    let mut b = Mb::new(&m);
    let mut last = 0;
    if t.contains("%%") {
        let mut p = 0;
        loop {
            let ws = t[p..].len() - t[p..].trim_start_matches(js_ws).len();
            let q = p + ws;
            let rest = &t[q..];
            let mut matched = None;
            if rest.starts_with("%%") && !rest[2..].starts_with('{') {
                let line = rest[2..].find('\n').unwrap_or(rest.len() - 2);
                if line > 0 {
                    let mut end = q + 2 + line;
                    if t[end..].starts_with('\n') {
                        end += 1;
                    }
                    matched = Some(end);
                }
            }
            match matched {
                Some(end) => {
                    b.copy(last, p);
                    last = end;
                    p = end;
                    if p >= t.len() {
                        break;
                    }
                }
                None => match t[p..].find('\n') {
                    Some(nl) => p += nl + 1,
                    None => break,
                },
            }
        }
    }
    let m2 = if last == 0 && b.text.is_empty() {
        drop(b);
        m
    } else {
        b.copy(last, t.len());
        b.finish(t.len())
    };
    let lead = m2.text.len() - m2.text.trim_start_matches(js_ws).len();
    if lead == 0 {
        return m2;
    }
    let mut b = Mb::new(&m2);
    b.copy(lead, m2.text.len());
    b.finish(m2.text.len())
}

/// Text no flowchart detector matches; `head` is its first 40 characters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("No diagram type detected matching given configuration for text: {head}")]
pub struct NoDiagramType {
    pub head: String,
}

/// The flowchart detectors (`^\s*graph`, `^\s*flowchart`), after mermaid
/// blanks `\s*%%.*\n` comments.
fn detect(t: &str) -> Result<(), NoDiagramType> {
    let mut s = t;
    loop {
        s = s.trim_start_matches(js_ws);
        if s.starts_with("%%")
            && let Some(nl) = s.find('\n')
        {
            s = &s[nl + 1..];
            continue;
        }
        break;
    }
    if s.starts_with("graph") || s.starts_with("flowchart") {
        return Ok(());
    }
    Err(NoDiagramType { head: t.chars().take(40).collect() })
}

/// `utils.encodeEntities` plus the `\n` that `Diagram.fromText` appends.
fn encode_entities(m: Mapped) -> Mapped {
    let t = &m.text;
    // Step 1: on lines matching `style.*:\S*#.*;` / `classDef.*:\S*#.*;`,
    // drop the last `;`.
    let mut drops: Vec<usize> = Vec::new();
    if t.contains(';') && t.contains('#') {
        for kw in ["style", "classDef"] {
            let mut line_start = 0;
            for line in t.split('\n') {
                if let Some(d) = last_semi_drop(line, kw, &drops, line_start) {
                    drops.push(d);
                }
                line_start += line.len() + 1;
            }
        }
        drops.sort_unstable();
    }
    if drops.is_empty() && !t.contains('#') {
        let mut m = m;
        m.push_newline();
        return m;
    }
    let mut b = Mb::new(&m);
    let bytes = t.as_bytes();
    let mut last = 0;
    let mut i = 0;
    let mut di = 0;
    while i < bytes.len() {
        if di < drops.len() && drops[di] == i {
            b.copy(last, i);
            last = i + 1;
            di += 1;
            i += 1;
            continue;
        }
        if bytes[i] == b'#' {
            let w = bytes[i + 1..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
            // A dropped `;` is not there any more.
            let semi = i + 1 + w;
            if w > 0 && bytes.get(semi) == Some(&b';') && !(di < drops.len() && drops[di] == semi) {
                b.copy(last, i);
                let inner = &t[i + 1..semi];
                let enc = if inner.bytes().all(|c| c.is_ascii_digit()) {
                    format!("\u{fb02}\u{b0}\u{b0}{inner}\u{b6}\u{df}")
                } else {
                    format!("\u{fb02}\u{b0}{inner}\u{b6}\u{df}")
                };
                b.insert(&enc, i);
                i = semi + 1;
                last = i;
                continue;
            }
        }
        i += 1;
    }
    b.copy(last, bytes.len());
    b.insert("\n", bytes.len());
    b.finish(bytes.len())
}

/// For `kw.*:\S*#.*;` on one line: the byte (absolute) of the `;` removed.
fn last_semi_drop(line: &str, kw: &str, already: &[usize], base: usize) -> Option<usize> {
    let k = line.find(kw)?;
    let semis: Vec<usize> =
        line.match_indices(';').map(|(i, _)| i).filter(|i| !already.contains(&(base + i))).collect();
    let last = *semis.last()?;
    let rest = &line[k + kw.len()..];
    let off = k + kw.len();
    // Earliest `#` reachable from some `:` through non-space characters.
    let mut first_hash = None;
    for (ci, _) in rest.match_indices(':') {
        let after = &rest[ci + 1..];
        let run = after.find(js_ws).unwrap_or(after.len());
        if let Some(h) = after[..run].find('#') {
            first_hash = Some(off + ci + 1 + h);
            break;
        }
    }
    let h = first_hash?;
    (last > h).then_some(base + last)
}

/// `flowParser.ts`: `}\s*\n` → `}\n`.
fn tidy_braces(m: Mapped) -> Mapped {
    let t = &m.text;
    if !t.contains('}') {
        return m;
    }
    let mut b = Mb::new(&m);
    let mut last = 0;
    let mut from = 0;
    while let Some(off) = t[from..].find('}') {
        let p = from + off;
        let ws = t[p + 1..].len() - t[p + 1..].trim_start_matches(js_ws).len();
        if let Some(nl) = t[p + 1..p + 1 + ws].rfind('\n')
            && nl > 0
        {
            b.copy(last, p + 1);
            last = p + 1 + nl;
        }
        from = p + 1;
    }
    b.copy(last, t.len());
    b.finish(t.len())
}
