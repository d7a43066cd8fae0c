//! Decoding of mermaid's entity placeholders (`ﬂ°°N¶ß`, `ﬂ°name¶ß`), which
//! `encodeEntities` puts in place of `#N;` / `#name;` before parsing. The
//! model stores labels with the characters they stand for.

/// Named entities mermaid users write (`#quot;`, `#amp;`, …).
const NAMED: &[(&str, char)] = &[
    ("quot", '"'),
    ("amp", '&'),
    ("lt", '<'),
    ("gt", '>'),
    ("apos", '\''),
    ("nbsp", '\u{a0}'),
    ("copy", '©'),
    ("reg", '®'),
    ("trade", '™'),
    ("hellip", '…'),
    ("mdash", '—'),
    ("ndash", '–'),
    ("laquo", '«'),
    ("raquo", '»'),
    ("deg", '°'),
    ("plusmn", '±'),
    ("times", '×'),
    ("divide", '÷'),
    ("larr", '←'),
    ("rarr", '→'),
    ("uarr", '↑'),
    ("darr", '↓'),
    ("harr", '↔'),
    ("hearts", '♥'),
    ("euro", '€'),
    ("pound", '£'),
    ("yen", '¥'),
    ("cent", '¢'),
    ("sect", '§'),
    ("para", '¶'),
    ("middot", '·'),
    ("bull", '•'),
    ("lbrace", '{'),
    ("rbrace", '}'),
    ("lpar", '('),
    ("rpar", ')'),
    ("lsqb", '['),
    ("rsqb", ']'),
    ("verbar", '|'),
    ("num", '#'),
    ("semi", ';'),
    ("colon", ':'),
    ("le", '≤'),
    ("ge", '≥'),
    ("ne", '≠'),
    ("infin", '∞'),
    ("check", '✓'),
];

const OPEN: &str = "\u{fb02}\u{b0}";
const CLOSE: &str = "\u{b6}\u{df}";

/// Replace placeholders by characters; unknown names become `&name;`
/// (what the browser would show for an unknown entity).
pub fn decode(s: &str) -> String {
    if !s.contains(OPEN) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(p) = rest.find(OPEN) {
        out.push_str(&rest[..p]);
        let after = &rest[p + OPEN.len()..];
        let Some(q) = after.find(CLOSE) else {
            out.push_str(&rest[p..]);
            return out;
        };
        let inner = &after[..q];
        if let Some(num) = inner.strip_prefix('\u{b0}') {
            match num.parse::<u32>().ok().and_then(char::from_u32) {
                Some(c) => out.push(c),
                None => out.push_str(&format!("&#{num};")),
            }
        } else {
            match NAMED.iter().find(|(n, _)| *n == inner) {
                Some((_, c)) => out.push(*c),
                None => out.push_str(&format!("&{inner};")),
            }
        }
        rest = &after[q + CLOSE.len()..];
    }
    out.push_str(rest);
    out
}
