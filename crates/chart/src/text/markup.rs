//! Label markup → styled lines, following mermaid's rules: `<br>` breaks
//! lines in plain and quoted labels (and `<b>`/`<strong>`, `<i>`/`<em>`
//! style them, as the browser would); markdown strings break at newlines and
//! style `**bold**`, `*italic*` and `_italic_`.

use crate::mermaid::LabelType;

use super::TextRun;

/// Splits a label into hard lines of styled runs (before word wrap).
pub fn parse(label: &str, kind: LabelType) -> Vec<Vec<TextRun>> {
    match kind {
        LabelType::Markdown => markdown(label),
        LabelType::Text | LabelType::String => html(label),
    }
}

/// Pushes text to the current line, merging with a run of the same style.
/// HTML character references are decoded here: mermaid's labels are HTML,
/// so `&amp;` shows as `&` (printing it literally escaped it twice).
fn push(line: &mut Vec<TextRun>, text: &str, bold: bool, italic: bool) {
    if text.is_empty() {
        return;
    }
    let decoded = decode_entities(text);
    let text = decoded.as_str();
    if let Some(last) = line.last_mut()
        && last.bold == bold
        && last.italic == italic
    {
        last.text.push_str(text);
        return;
    }
    line.push(TextRun { text: text.to_string(), bold, italic });
}

/// Decodes HTML character references (`&amp;`, `&lt;`, `&gt;`, `&quot;`,
/// `&apos;`, `&nbsp;`, `&#N;`, `&#xH;`); anything else stays literal, as a
/// browser shows an unknown `&name;`.
fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let decoded = rest[1..].find(';').filter(|&end| end <= 10).and_then(|end| {
            let name = &rest[1..1 + end];
            let c = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some('\u{a0}'),
                _ => {
                    let num = name.strip_prefix('#')?;
                    let code = match num.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok(),
                        None => num.parse().ok(),
                    };
                    code.and_then(char::from_u32)
                }
            };
            c.map(|c| (c, end + 2))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Collapses runs of whitespace to one space, as HTML rendering does.
fn collapse_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev_space = false;
    for ch in s.chars() {
        if ch.is_whitespace() {
            if !prev_space {
                out.push(' ');
            }
            prev_space = true;
        } else {
            out.push(ch);
            prev_space = false;
        }
    }
    out
}

/// Recognises a tag at the start of `s`: `(name lowercase, closing, len)`.
/// As in HTML, a tag's name follows `<` or `</` at once: `a < b & c > d`
/// is text (a browser shows it so), not a `<b>` tag.
fn tag_at(s: &str) -> Option<(String, bool, usize)> {
    let rest = s.strip_prefix('<')?;
    let end = rest.find('>')?;
    let inner = &rest[..end];
    let (closing, inner) = match inner.strip_prefix('/') {
        Some(i) => (true, i),
        None => (false, inner),
    };
    if !inner.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let inner = inner.trim_end_matches('/').trim();
    let name: String = inner.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
    let known = matches!(
        name.to_ascii_lowercase().as_str(),
        "br" | "b" | "strong" | "i" | "em" | "u" | "span" | "p" | "div" | "small" | "sup" | "sub"
    );
    let attrs_ok = inner[name.len()..].is_empty() || inner[name.len()..].starts_with(char::is_whitespace);
    (known && attrs_ok).then(|| (name.to_ascii_lowercase(), closing, end + 2))
}

fn html(label: &str) -> Vec<Vec<TextRun>> {
    let mut lines = vec![Vec::new()];
    let (mut bold, mut italic) = (0u32, 0u32);
    let mut text = String::new();
    let mut i = 0;
    let flush = |lines: &mut Vec<Vec<TextRun>>, text: &mut String, bold: u32, italic: u32| {
        let t = collapse_ws(text);
        if let Some(line) = lines.last_mut() {
            push(line, &t, bold > 0, italic > 0);
        }
        text.clear();
    };
    while i < label.len() {
        let rest = &label[i..];
        if rest.starts_with('<')
            && let Some((name, closing, len)) = tag_at(rest)
        {
            flush(&mut lines, &mut text, bold, italic);
            match (name.as_str(), closing) {
                ("br", _) => lines.push(Vec::new()),
                ("b" | "strong", false) => bold += 1,
                ("b" | "strong", true) => bold = bold.saturating_sub(1),
                ("i" | "em", false) => italic += 1,
                ("i" | "em", true) => italic = italic.saturating_sub(1),
                _ => {}
            }
            i += len;
            continue;
        }
        let ch = rest.chars().next().unwrap_or(' ');
        text.push(ch);
        i += ch.len_utf8();
    }
    flush(&mut lines, &mut text, bold, italic);
    lines.into_iter().map(trim_line).collect()
}

/// Removes leading/trailing spaces of a line (HTML does not show them).
fn trim_line(mut line: Vec<TextRun>) -> Vec<TextRun> {
    if let Some(first) = line.first_mut() {
        first.text = first.text.trim_start().to_string();
    }
    if let Some(last) = line.last_mut() {
        last.text = last.text.trim_end().to_string();
    }
    line.retain(|r| !r.text.is_empty());
    line
}

fn markdown(label: &str) -> Vec<Vec<TextRun>> {
    let mut out = Vec::new();
    let (mut bold, mut italic) = (false, false);
    for raw in label.split('\n') {
        let mut line = Vec::new();
        let raw = collapse_ws(raw.trim());
        let chars: Vec<char> = raw.chars().collect();
        let mut buf = String::new();
        let mut k = 0;
        while k < chars.len() {
            let c = chars[k];
            let next = chars.get(k + 1).copied();
            let prev = if k == 0 { None } else { chars.get(k - 1).copied() };
            if (c == '*' && next == Some('*')) || (c == '_' && next == Some('_')) {
                push(&mut line, &buf, bold, italic);
                buf.clear();
                bold = !bold;
                k += 2;
                continue;
            }
            // `_` inside a word (snake_case) is literal, as in CommonMark.
            let intraword =
                c == '_' && prev.is_some_and(char::is_alphanumeric) && next.is_some_and(char::is_alphanumeric);
            if (c == '*' || c == '_') && !intraword {
                push(&mut line, &buf, bold, italic);
                buf.clear();
                italic = !italic;
                k += 1;
                continue;
            }
            buf.push(c);
            k += 1;
        }
        push(&mut line, &buf, bold, italic);
        out.push(trim_line(line));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Vec<TextRun>]) -> Vec<String> {
        lines.iter().map(|l| l.iter().map(|r| r.text.as_str()).collect()).collect()
    }

    #[test]
    fn br_variants_break_lines() {
        let l = parse("a<br>b<br/>c<BR />d", LabelType::Text);
        assert_eq!(texts(&l), ["a", "b", "c", "d"]);
    }

    #[test]
    fn character_references_decode_once() {
        let l = parse("a &amp; b &lt;c&gt; &#35;1 &#x41; &bogus; & x", LabelType::String);
        assert_eq!(texts(&l), ["a & b <c> #1 A &bogus; & x"]);
        assert_eq!(texts(&parse("**x &amp;&amp; y**", LabelType::Markdown)), ["x && y"]);
    }

    #[test]
    fn html_styles_and_unknown_lt() {
        let l = parse("x <b>bold</b> a<b", LabelType::String);
        assert_eq!(texts(&l), ["x bold a<b"]);
        assert!(l[0][1].bold && l[0][1].text == "bold");
        assert!(!l[0][2].bold);
        // `<` before a space starts no tag, in HTML as here.
        let l = parse("a < b & c > d", LabelType::String);
        assert_eq!(texts(&l), ["a < b & c > d"]);
        assert!(l[0].iter().all(|r| !r.bold));
        assert_eq!(texts(&parse("x < /b> y <b >z</b >", LabelType::String)), ["x < /b> y z"]);
    }

    #[test]
    fn markdown_bold_italic_newlines() {
        let l = parse("**Hi** _there_\nsnake_case *x*", LabelType::Markdown);
        assert_eq!(texts(&l), ["Hi there", "snake_case x"]);
        assert!(l[0][0].bold && !l[0][0].italic);
        assert!(l[0][2].italic);
        assert!(!l[1][0].italic);
        assert!(l[1][1].italic);
    }

    #[test]
    fn whitespace_collapses() {
        assert_eq!(texts(&parse("  a   b \n c ", LabelType::Text)), ["a b c"]);
    }
}
