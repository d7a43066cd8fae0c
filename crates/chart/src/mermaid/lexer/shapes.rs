//! Link and shape-bracket rules, with the text states they open and close.

use super::scan::*;
use super::{LexError, Lexer, St, Tk};
use crate::mermaid::unicode::is_unicode_text;

impl Lexer<'_> {
    pub(super) fn link_rules(&mut self, st: St, s: &str) -> Option<Tk> {
        use St::*;
        let ini = st == Initial;
        let heads = ['x', 'o', '<'];
        // Fast path: every link rule starts with blanks or one of these.
        let may_link = s
            .trim_start_matches(js_ws)
            .chars()
            .next()
            .is_some_and(|c| matches!(c, 'x' | 'o' | '<' | '-' | '=' | '.' | '~'));
        if ini && !may_link {
            return None;
        }
        if (ini || st == EdgeText)
            && let Some(n) = with_head(s, &heads, |r| long_link_body(r, b'-'))
        {
            self.adv(n);
            self.pop();
            return Some(Tk::Link);
        }
        if ini && let Some(n) = with_head(s, &heads, |r| r.starts_with("--").then_some(2)) {
            self.adv(n);
            self.push(EdgeText);
            return Some(Tk::StartLink);
        }
        if st == EdgeText {
            let c = s.chars().next()?;
            if c != '-' || !s[1..].starts_with('-') {
                self.adv(c.len_utf8());
                return Some(Tk::EdgeText);
            }
        }
        if (ini || st == ThickEdgeText)
            && let Some(n) = with_head(s, &heads, |r| long_link_body(r, b'='))
        {
            self.adv(n);
            self.pop();
            return Some(Tk::Link);
        }
        if ini && let Some(n) = with_head(s, &heads, |r| r.starts_with("==").then_some(2)) {
            self.adv(n);
            self.push(ThickEdgeText);
            return Some(Tk::StartLink);
        }
        if st == ThickEdgeText {
            let c = s.chars().next()?;
            if c != '=' || !s[1..].starts_with('=') {
                self.adv(c.len_utf8());
                return Some(Tk::EdgeText);
            }
        }
        if (ini || st == DottedEdgeText)
            && let Some(n) = with_head(s, &heads, dotted_body)
        {
            self.adv(n);
            self.pop();
            return Some(Tk::Link);
        }
        if ini && let Some(n) = with_head(s, &heads, |r| r.starts_with("-.").then_some(2)) {
            self.adv(n);
            self.push(DottedEdgeText);
            return Some(Tk::StartLink);
        }
        if st == DottedEdgeText {
            let c = s.chars().next()?;
            if c != '.' || !s[1..].starts_with('-') {
                self.adv(c.len_utf8());
                return Some(Tk::EdgeText);
            }
        }
        // <*>\s*\~\~[\~]+\s*
        let lead = s.len() - s.trim_start_matches(js_ws).len();
        let tildes = s[lead..].bytes().take_while(|&b| b == b'~').count();
        if tildes >= 3 {
            let after = &s[lead + tildes..];
            let trail = after.len() - after.trim_start_matches(js_ws).len();
            self.adv(lead + tildes + trail);
            return Some(Tk::Link);
        }
        None
    }

    pub(super) fn shape_rules(&mut self, st: St, s: &str) -> Result<Option<Tk>, LexError> {
        use St::*;
        let err = LexError { pos: self.pos };
        let ini = st == Initial;
        let text = st == Text;
        macro_rules! take {
            ($n:expr, $k:expr) => {{
                self.adv($n);
                return Ok(Some($k));
            }};
            ($n:expr, $k:expr, pop) => {{
                self.adv($n);
                self.pop();
                return Ok(Some($k));
            }};
            ($n:expr, $k:expr, push $s:expr) => {{
                self.adv($n);
                self.push($s);
                return Ok(Some($k));
            }};
        }
        if st == EllipseText {
            let b = s.as_bytes();
            if b.len() >= 2 && matches!(b[0], b'-' | b'/' | b')') && b[1] == b')' {
                take!(2, Tk::EllipseEnd, pop);
            }
            if let Some(c) = s.chars().next()
                && !matches!(c, '(' | ')' | '[' | ']' | '{' | '}')
            {
                take!(c.len_utf8(), Tk::Text);
            }
        }
        if s.starts_with("(-") {
            take!(2, Tk::EllipseStart, push EllipseText);
        }
        if text && s.starts_with("])") {
            take!(2, Tk::StadiumEnd, pop);
        }
        if s.starts_with("([") {
            take!(2, Tk::StadiumStart, push Text);
        }
        if text && s.starts_with("]]") {
            take!(2, Tk::SubroutineEnd, pop);
        }
        if s.starts_with("[[") {
            take!(2, Tk::SubroutineStart, push Text);
        }
        if ini && s.starts_with("[|") {
            take!(2, Tk::VertexWithPropsStart);
        }
        if ini && s.starts_with('>') {
            take!(1, Tk::TagEnd, push Text);
        }
        if text && s.starts_with(")]") {
            take!(2, Tk::CylinderEnd, pop);
        }
        if s.starts_with("[(") {
            take!(2, Tk::CylinderStart, push Text);
        }
        if text && s.starts_with(")))") {
            take!(3, Tk::DoubleCircleEnd, pop);
        }
        if s.starts_with("(((") {
            take!(3, Tk::DoubleCircleStart, push Text);
        }
        if st == TrapText {
            let b = s.as_bytes();
            if b.len() >= 2 && matches!(b[0], b'\\' | b'(' | b'?' | b'=' | b']' | b')') && b[1] == b']' {
                take!(2, Tk::TrapEnd, pop);
            }
            if s.starts_with("/]") {
                take!(2, Tk::InvTrapEnd, pop);
            }
            if matches!(b.first(), Some(b'/' | b'\\')) && b.get(1) != Some(&b']') {
                take!(1, Tk::Text);
            }
            let n = find_ascii(s, b"\\[](){}/");
            if n > 0 {
                take!(n, Tk::Text);
            }
        }
        if s.starts_with("[/") {
            take!(2, Tk::TrapStart, push TrapText);
        }
        if s.starts_with("[\\") {
            take!(2, Tk::InvTrapStart, push TrapText);
        }
        if ini {
            let b0 = s.as_bytes().first().copied();
            match b0 {
                Some(b'<') => take!(1, Tk::TagStart),
                Some(b'^') => take!(1, Tk::Up),
                Some(b'\\') if s.starts_with("\\|") => take!(2, Tk::Sep),
                Some(b'v') if kw(s, "v").is_some() => take!(1, Tk::Down),
                _ => {}
            }
            let n = node_string_len(s);
            if n > 0 {
                take!(n, Tk::NodeString);
            }
            if b0 == Some(b'-') {
                take!(1, Tk::Minus);
            }
            if let Some(c) = s.chars().next()
                && is_unicode_text(c)
            {
                take!(c.len_utf8(), Tk::UnicodeText);
            }
        }
        let b0 = s.as_bytes().first().copied();
        match b0 {
            Some(b'|') if text => take!(1, Tk::Pipe, pop),
            Some(b'|') => take!(1, Tk::Pipe, push Text),
            Some(b')') if text => take!(1, Tk::Pe, pop),
            Some(b'(') => take!(1, Tk::Ps, push Text),
            Some(b']') if text => take!(1, Tk::Sqe, pop),
            Some(b'[') => take!(1, Tk::Sqs, push Text),
            Some(b'}') if text => take!(1, Tk::DiamondStop, pop),
            Some(b'{') => take!(1, Tk::DiamondStart, push Text),
            _ => {}
        }
        if text {
            let n = find_ascii(s, b"[](){}|\"");
            if n > 0 {
                take!(n, Tk::Text);
            }
        }
        if ini {
            if s.starts_with('\n') {
                let n = s.bytes().take_while(|&b| b == b'\n').count();
                take!(n, Tk::Newline);
            }
            if let Some(c) = s.chars().next()
                && js_ws(c)
            {
                take!(c.len_utf8(), Tk::Space);
            }
            if s.is_empty() {
                return Ok(Some(Tk::Eof));
            }
        }
        if s.is_empty() {
            // jison returns `$end` when nothing matches the empty rest.
            self.done = true;
            return Ok(Some(Tk::End0));
        }
        Err(err)
    }
}
