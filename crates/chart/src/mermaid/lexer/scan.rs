//! Small recognizers shared by the lexer rules (JavaScript regex semantics).

use nom::IResult;
use nom::bytes::complete::take_while;

/// JavaScript's `\s`.
pub(crate) fn js_ws(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

pub(super) fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

pub(super) type R<'a> = IResult<&'a str, &'a str>;

pub(super) fn ws0(i: &str) -> R<'_> {
    take_while(js_ws)(i)
}

/// `"kw"` followed by jison's implicit `\b` (rules ending in a word character).
pub(super) fn kw(s: &str, word: &str) -> Option<usize> {
    let rest = s.strip_prefix(word)?;
    match rest.chars().next() {
        Some(c) if is_word(c) => None,
        _ => Some(word.len()),
    }
}

pub(super) fn len_of<'a>(s: &'a str, r: R<'a>) -> Option<usize> {
    r.ok().map(|(rest, _)| s.len() - rest.len())
}

/// `\s*[xo<]?` followed by `body`, then `\s*`; the optional head is tried
/// first with a head, then without (regex backtracking order).
/// Index of the first byte in `s` that is one of the ASCII `set` (or `s.len()`).
pub(super) fn find_ascii(s: &str, set: &[u8]) -> usize {
    s.bytes().position(|b| set.contains(&b)).unwrap_or(s.len())
}

pub(super) fn with_head(s: &str, heads: &[char], body: impl Fn(&str) -> Option<usize>) -> Option<usize> {
    let lead = s.len() - s.trim_start_matches(js_ws).len();
    let rest = &s[lead..];
    let has_head = rest.chars().next().is_some_and(|c| heads.contains(&c));
    for h in [1, 0] {
        if h == 1 && !has_head {
            continue;
        }
        if let Some(n) = body(&rest[h..]) {
            let after = &rest[h + n..];
            let trail = after.len() - after.trim_start_matches(js_ws).len();
            return Some(lead + h + n + trail);
        }
    }
    None
}

/// `c c+ [c x o >]` with `c+` greedy and backtracking one `c` as the end.
pub(super) fn long_link_body(s: &str, c: u8) -> Option<usize> {
    let b = s.as_bytes();
    let n = b.iter().take_while(|&&x| x == c).count();
    if n < 2 {
        return None;
    }
    match b.get(n) {
        Some(b'x' | b'o' | b'>') => Some(n + 1),
        _ if n >= 3 => Some(n),
        _ => None,
    }
}

/// `\-?\.+\-[xo>]?`
pub(super) fn dotted_body(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    for dash in [1usize, 0] {
        if dash == 1 && b.first() != Some(&b'-') {
            continue;
        }
        let dots = b[dash..].iter().take_while(|&&x| x == b'.').count();
        if dots == 0 || b.get(dash + dots) != Some(&b'-') {
            continue;
        }
        let mut n = dash + dots + 1;
        if matches!(b.get(n), Some(b'x' | b'o' | b'>')) {
            n += 1;
        }
        return Some(n);
    }
    None
}

pub(super) fn node_string_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let ok = match c {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => true,
            b'!' | b'"' | b'#' | b'$' | b'%' | b'&' | b'\'' | b'*' | b'+' | b'.' | b'`' | b'?' | b'\\' | b'_'
            | b'/' => true,
            b'-' => matches!(b.get(i + 1), Some(&n) if n != b'>' && n != b'-' && n != b'.'),
            b'=' => b.get(i + 1) != Some(&b'='),
            _ => false,
        };
        if !ok {
            break;
        }
        i += 1;
    }
    i
}
