//! Decoding of mermaid's entity placeholders (`ﬂ°°N¶ß`, `ﬂ°name¶ß`), which
//! `encodeEntities` puts in place of `#N;` / `#name;` before parsing. The
//! model stores labels with the characters they stand for.

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
            // mermaid hands `&name;` to the browser, which decodes every
            // HTML5 named character reference (WHATWG table) and leaves
            // unknown ones as written; htmlize does the same.
            out.push_str(&htmlize::unescape(format!("&{inner};")));
        }
        rest = &after[q + CLOSE.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(name: &str) -> String {
        format!("{OPEN}{name}{CLOSE}")
    }

    #[test]
    fn every_html5_name_decodes_like_the_browser() {
        let text = format!("{} {} {} {}", named("alpha"), named("rArr"), named("NotEqualTilde"), named("quot"));
        assert_eq!(decode(&text), "α ⇒ \u{2242}\u{338} \"");
    }

    #[test]
    fn numbers_decode_and_unknown_names_stay_visible() {
        let text = format!("{OPEN}\u{b0}9829{CLOSE}{}{OPEN}\u{b0}99999999{CLOSE}", named("nosuch"));
        assert_eq!(decode(&text), "♥&nosuch;&#99999999;");
    }
}
