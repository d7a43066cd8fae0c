//! The lexer rules in `flow.jison` file order: states, keywords, header,
//! direction, ids and punctuation (links and shapes are in `shapes.rs`).

use nom::Parser;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::char as ch;
use nom::combinator::recognize;
use nom::sequence::tuple;

use super::scan::*;
use super::{LexError, Lexer, St, Tk};

impl Lexer<'_> {
    pub(super) fn rule(&mut self, st: St) -> Result<Option<Tk>, LexError> {
        use St::*;
        let s = &self.src[self.pos..];
        let ini = st == Initial;
        let b0 = s.as_bytes().first().copied();

        if ini && s.starts_with("acc") {
            let t = recognize(tuple((tag("accTitle"), ws0, ch(':'), ws0))).parse(s);
            if let Some(n) = len_of(s, t) {
                self.adv(n);
                self.push(AccTitle);
                return Ok(Some(Tk::AccTitle));
            }
        }
        if st == AccTitle || st == AccDescr {
            let n = s.find('\n').unwrap_or(s.len());
            self.adv(n);
            self.pop();
            return Ok(Some(if st == AccTitle { Tk::AccTitleValue } else { Tk::AccDescrValue }));
        }
        if ini && s.starts_with("accDescr") {
            let t = recognize(tuple((tag("accDescr"), ws0, ch(':'), ws0))).parse(s);
            if let Some(n) = len_of(s, t) {
                self.adv(n);
                self.push(AccDescr);
                return Ok(Some(Tk::AccDescr));
            }
            let t = recognize(tuple((tag("accDescr"), ws0, ch('{'), ws0))).parse(s);
            if let Some(n) = len_of(s, t) {
                self.adv(n);
                self.push(AccDescrMultiline);
                return Ok(None);
            }
        }
        if st == AccDescrMultiline {
            if b0 == Some(b'}') {
                self.adv(1);
                self.pop();
                return Ok(None);
            }
            let n = s.find('}').unwrap_or(s.len());
            self.adv(n);
            return Ok(Some(Tk::AccDescrMultilineValue));
        }
        if ini && s.starts_with("@{") {
            self.adv(2);
            self.push(ShapeData);
            return Ok(Some(Tk::ShapeDataOpen));
        }
        if st == ShapeData && b0 == Some(b'"') {
            self.adv(1);
            self.push(ShapeDataStr);
            return Ok(Some(Tk::ShapeData));
        }
        if st == ShapeDataStr {
            if b0 == Some(b'"') {
                self.adv(1);
                self.pop();
                return Ok(Some(Tk::ShapeData));
            }
            let n = s.find('"').unwrap_or(s.len());
            if n > 0 {
                self.adv(n);
                return Ok(Some(Tk::ShapeDataStr));
            }
        }
        if st == ShapeData {
            let n = find_ascii(s, b"}^\"");
            if n > 0 {
                self.adv(n);
                return Ok(Some(Tk::ShapeData));
            }
            if b0 == Some(b'}') {
                self.adv(1);
                self.pop();
                return Ok(None);
            }
        }
        if ini && s.starts_with("call") {
            let t = recognize(tuple((tag("call"), take_while1(js_ws)))).parse(s);
            if let Some(n) = len_of(s, t) {
                self.adv(n);
                self.push(CallbackName);
                return Ok(None);
            }
        }
        if st == CallbackName {
            if b0 == Some(b'(') {
                let t = recognize(tuple((ch('('), ws0, ch(')')))).parse(s);
                if let Some(n) = len_of(s, t) {
                    self.adv(n);
                    self.pop();
                    return Ok(None);
                }
                self.adv(1);
                self.pop();
                self.push(CallbackArgs);
                return Ok(None);
            }
            let n = s.find('(').unwrap_or(s.len());
            self.adv(n);
            return Ok(Some(Tk::CallbackName));
        }
        if st == CallbackArgs {
            if b0 == Some(b')') {
                self.adv(1);
                self.pop();
                return Ok(None);
            }
            let n = s.find(')').unwrap_or(s.len());
            self.adv(n);
            return Ok(Some(Tk::CallbackArgs));
        }
        if st == MdString {
            let n = find_ascii(s, b"`\"");
            if n > 0 {
                self.adv(n);
                return Ok(Some(Tk::MdStr));
            }
            if s.starts_with("`\"") {
                self.adv(2);
                self.pop();
                return Ok(None);
            }
        }
        if s.starts_with("\"`") {
            self.adv(2);
            self.push(MdString);
            return Ok(None);
        }
        if st == String {
            let n = s.find('"').unwrap_or(s.len());
            if n > 0 {
                self.adv(n);
                return Ok(Some(Tk::Str));
            }
            if b0 == Some(b'"') {
                self.adv(1);
                self.pop();
                return Ok(None);
            }
        }
        if b0 == Some(b'"') {
            self.adv(1);
            self.push(String);
            return Ok(None);
        }
        if ini {
            if let Some(k) = self.keyword_rules(s) {
                return Ok(Some(k));
            }
            if s.starts_with("click") {
                let t = recognize(tuple((tag("click"), take_while1(js_ws)))).parse(s);
                if let Some(n) = len_of(s, t) {
                    self.adv(n);
                    self.push(Click);
                    return Ok(None);
                }
            }
        }
        if st == Click {
            if let Some(c) = s.chars().next()
                && js_ws(c)
            {
                self.adv(c.len_utf8());
                self.pop();
                return Ok(None);
            }
            let n = s.find(js_ws).unwrap_or(s.len());
            self.adv(n);
            return Ok(Some(Tk::Click));
        }
        if ini && let Some(k) = self.graph_rules(s) {
            return Ok(Some(k));
        }
        if st == Dir {
            return self.dir_rules(s).map(Some).ok_or(LexError { pos: self.pos });
        }
        if ini {
            if let Some((k, n)) = self.direction_rule() {
                self.adv(n);
                return Ok(Some(k));
            }
            if let Some(n) = self.link_id_rule() {
                self.adv(n);
                return Ok(Some(Tk::LinkId));
            }
            let simple = match b0 {
                Some(b'0'..=b'9') => {
                    let n = s.bytes().take_while(u8::is_ascii_digit).count();
                    Some((Tk::Num, n))
                }
                Some(b'#') => Some((Tk::Brkt, 1)),
                Some(b':') if s.starts_with(":::") => Some((Tk::StyleSeparator, 3)),
                Some(b':') => Some((Tk::Colon, 1)),
                Some(b'&') => Some((Tk::Amp, 1)),
                Some(b';') => Some((Tk::Semi, 1)),
                Some(b',') => Some((Tk::Comma, 1)),
                Some(b'*') => Some((Tk::Mult, 1)),
                _ => None,
            };
            if let Some((k, n)) = simple {
                self.adv(n);
                return Ok(Some(k));
            }
        }
        if let Some(k) = self.link_rules(st, s) {
            return Ok(Some(k));
        }
        self.shape_rules(st, s)
    }

    pub(super) fn keyword_rules(&mut self, s: &str) -> Option<Tk> {
        let (k, n) = match s.as_bytes().first()? {
            b's' => (Tk::Style, kw(s, "style")?),
            b'd' => (Tk::Default, kw(s, "default")?),
            b'l' => (Tk::LinkStyle, kw(s, "linkStyle")?),
            b'i' => (Tk::Interpolate, kw(s, "interpolate")?),
            b'c' => {
                if let Some(n) = kw(s, "classDef") {
                    (Tk::ClassDef, n)
                } else {
                    (Tk::Class, kw(s, "class")?)
                }
            }
            b'h' => {
                let c = s.strip_prefix("href")?.chars().next().filter(|&c| js_ws(c))?;
                (Tk::Href, 4 + c.len_utf8())
            }
            _ => return None,
        };
        self.adv(n);
        Some(k)
    }

    pub(super) fn graph_rules(&mut self, s: &str) -> Option<Tk> {
        let b0 = *s.as_bytes().first()?;
        if b0 == b'f' || b0 == b'g' {
            let n = kw(s, "flowchart-elk").or_else(|| kw(s, "graph")).or_else(|| kw(s, "flowchart"))?;
            self.adv(n);
            if self.first_graph {
                self.first_graph = false;
                self.push(St::Dir);
            }
            return Some(Tk::Graph);
        }
        if b0 == b's' {
            let n = kw(s, "subgraph")?;
            self.adv(n);
            return Some(Tk::Subgraph);
        }
        if b0 == b'e' {
            let n = kw(s, "end")?;
            let rest = &s[n..];
            let ws = rest.len() - rest.trim_start_matches(js_ws).len();
            self.adv(n + ws);
            return Some(Tk::End);
        }
        if b0 == b'_' {
            let n = ["_self", "_blank", "_parent", "_top"].iter().find_map(|w| kw(s, w))?;
            self.adv(n);
            return Some(Tk::LinkTarget);
        }
        None
    }

    pub(super) fn dir_rules(&mut self, s: &str) -> Option<Tk> {
        // (\r?\n)*\s*\n : whitespace run up to its last newline.
        let ws = s.len() - s.trim_start_matches(js_ws).len();
        if let Some(nl) = s[..ws].rfind('\n') {
            // `(\r?\n)*\s*` must start the run; any whitespace run does.
            self.adv(nl + 1);
            self.pop();
            return Some(Tk::NoDir);
        }
        let rest = &s[ws..];
        let n = ["LR", "RL", "TB", "BT", "TD", "BR"]
            .iter()
            .find_map(|d| kw(rest, d))
            .or_else(|| rest.starts_with(['<', '>', '^']).then_some(1))
            .or_else(|| kw(rest, "v"))?;
        self.adv(ws + n);
        self.pop();
        Some(Tk::Dir)
    }
}
