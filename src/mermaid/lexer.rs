//! A port of the lexer in mermaid's `flow.jison`.
//!
//! jison's lexer takes the **first rule in file order** that matches (not the
//! longest), keeps a stack of start conditions, and is independent of the
//! parser. That makes it possible to tokenize the whole text up front and
//! still reproduce mermaid's quirks exactly: `direction` rules that swallow a
//! line, `end` prefixes, `o`/`x` link heads (`dev---ops`), keyword prefixes.
//! Each rule below is a small `nom` recognizer; [`Lexer::next_token`] tries
//! them in the order of the jison file, filtered by the current state.

use nom::IResult;
use nom::Parser;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::char as ch;
use nom::combinator::recognize;
use nom::sequence::tuple;

use super::unicode::is_unicode_text;

/// Token kinds, named after the jison terminals (see [`Tk::mermaid_name`]).
#[allow(missing_docs)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tk {
    AccTitle,
    AccTitleValue,
    AccDescr,
    AccDescrValue,
    AccDescrMultilineValue,
    /// `@{`: opens node/edge metadata (jison's empty SHAPE_DATA).
    ShapeDataOpen,
    /// A chunk of metadata text.
    ShapeData,
    /// Quoted metadata text; `\n\s*` is replaced by `<br/>` when read.
    ShapeDataStr,
    CallbackName,
    CallbackArgs,
    MdStr,
    Str,
    Style,
    Default,
    LinkStyle,
    Interpolate,
    ClassDef,
    Class,
    Href,
    Click,
    Graph,
    Subgraph,
    End,
    LinkTarget,
    NoDir,
    Dir,
    DirectionTb,
    DirectionBt,
    DirectionRl,
    DirectionLr,
    DirectionTd,
    LinkId,
    Num,
    Brkt,
    StyleSeparator,
    Colon,
    Amp,
    Semi,
    Comma,
    Mult,
    Link,
    StartLink,
    EdgeText,
    EllipseStart,
    EllipseEnd,
    Text,
    StadiumStart,
    StadiumEnd,
    SubroutineStart,
    SubroutineEnd,
    VertexWithPropsStart,
    TagEnd,
    CylinderStart,
    CylinderEnd,
    DoubleCircleStart,
    DoubleCircleEnd,
    TrapStart,
    TrapEnd,
    InvTrapStart,
    InvTrapEnd,
    TagStart,
    Up,
    Sep,
    Down,
    NodeString,
    Minus,
    UnicodeText,
    Pipe,
    Ps,
    Pe,
    Sqs,
    Sqe,
    DiamondStart,
    DiamondStop,
    Quote,
    Newline,
    Space,
    /// jison's named `EOF` token (a statement separator).
    Eof,
    /// End of input (`$end`).
    End0,
}

impl Tk {
    /// The terminal's name in `flow.jison`, as mermaid prints it in
    /// "Expecting …, got 'X'" messages (diagnostics key their hints on it).
    pub fn mermaid_name(self) -> &'static str {
        use Tk::*;
        match self {
            AccTitle => "acc_title",
            AccTitleValue => "acc_title_value",
            AccDescr => "acc_descr",
            AccDescrValue => "acc_descr_value",
            AccDescrMultilineValue => "acc_descr_multiline_value",
            ShapeDataOpen | ShapeData | ShapeDataStr => "SHAPE_DATA",
            CallbackName => "CALLBACKNAME",
            CallbackArgs => "CALLBACKARGS",
            MdStr => "MD_STR",
            Str => "STR",
            Style => "STYLE",
            Default => "DEFAULT",
            LinkStyle => "LINKSTYLE",
            Interpolate => "INTERPOLATE",
            ClassDef => "CLASSDEF",
            Class => "CLASS",
            Href => "HREF",
            Click => "CLICK",
            Graph => "GRAPH",
            Subgraph => "subgraph",
            End => "end",
            LinkTarget => "LINK_TARGET",
            NoDir => "NODIR",
            Dir => "DIR",
            DirectionTb => "direction_tb",
            DirectionBt => "direction_bt",
            DirectionRl => "direction_rl",
            DirectionLr => "direction_lr",
            DirectionTd => "direction_td",
            LinkId => "LINK_ID",
            Num => "NUM",
            Brkt => "BRKT",
            StyleSeparator => "STYLE_SEPARATOR",
            Colon => "COLON",
            Amp => "AMP",
            Semi => "SEMI",
            Comma => "COMMA",
            Mult => "MULT",
            Link => "LINK",
            StartLink => "START_LINK",
            EdgeText => "EDGE_TEXT",
            EllipseStart => "(-",
            EllipseEnd => "-)",
            Text => "TEXT",
            StadiumStart => "STADIUMSTART",
            StadiumEnd => "STADIUMEND",
            SubroutineStart => "SUBROUTINESTART",
            SubroutineEnd => "SUBROUTINEEND",
            VertexWithPropsStart => "VERTEX_WITH_PROPS_START",
            TagEnd => "TAGEND",
            CylinderStart => "CYLINDERSTART",
            CylinderEnd => "CYLINDEREND",
            DoubleCircleStart => "DOUBLECIRCLESTART",
            DoubleCircleEnd => "DOUBLECIRCLEEND",
            TrapStart => "TRAPSTART",
            TrapEnd => "TRAPEND",
            InvTrapStart => "INVTRAPSTART",
            InvTrapEnd => "INVTRAPEND",
            TagStart => "TAGSTART",
            Up => "UP",
            Sep => "SEP",
            Down => "DOWN",
            NodeString => "NODE_STRING",
            Minus => "MINUS",
            UnicodeText => "UNICODE_TEXT",
            Pipe => "PIPE",
            Ps => "PS",
            Pe => "PE",
            Sqs => "SQS",
            Sqe => "SQE",
            DiamondStart => "DIAMOND_START",
            DiamondStop => "DIAMOND_STOP",
            Quote => "QUOTE",
            Newline => "NEWLINE",
            Space => "SPACE",
            Eof => "EOF",
            End0 => "$end",
        }
    }
}

/// One token: kind and byte range in the preprocessed text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: Tk,
    pub start: u32,
    pub end: u32,
}

/// jison start conditions (all exclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    Initial,
    String,
    MdString,
    AccTitle,
    AccDescr,
    AccDescrMultiline,
    Dir,
    Text,
    EllipseText,
    TrapText,
    EdgeText,
    ThickEdgeText,
    DottedEdgeText,
    Click,
    CallbackName,
    CallbackArgs,
    ShapeData,
    ShapeDataStr,
}

/// A lexical error: no rule matched at `pos` (byte offset, preprocessed text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LexError {
    pub pos: usize,
}

/// JavaScript's `\s`.
pub(crate) fn js_ws(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

type R<'a> = IResult<&'a str, &'a str>;

fn ws0(i: &str) -> R<'_> {
    take_while(js_ws)(i)
}

/// `"kw"` followed by jison's implicit `\b` (rules ending in a word character).
fn kw(s: &str, word: &str) -> Option<usize> {
    let rest = s.strip_prefix(word)?;
    match rest.chars().next() {
        Some(c) if is_word(c) => None,
        _ => Some(word.len()),
    }
}

fn len_of<'a>(s: &'a str, r: R<'a>) -> Option<usize> {
    r.ok().map(|(rest, _)| s.len() - rest.len())
}

/// `\s*[xo<]?` followed by `body`, then `\s*`; the optional head is tried
/// first with a head, then without (regex backtracking order).
fn with_head(s: &str, heads: &[char], body: impl Fn(&str) -> Option<usize>) -> Option<usize> {
    let lead = s.len() - s.trim_start_matches(js_ws).len();
    let rest = &s[lead..];
    let mut tries: Vec<usize> = Vec::with_capacity(2);
    if rest.chars().next().is_some_and(|c| heads.contains(&c)) {
        tries.push(1);
    }
    tries.push(0);
    for h in tries {
        if let Some(n) = body(&rest[h..]) {
            let after = &rest[h + n..];
            let trail = after.len() - after.trim_start_matches(js_ws).len();
            return Some(lead + h + n + trail);
        }
    }
    None
}

/// `c c+ [c x o >]` with `c+` greedy and backtracking one `c` as the end.
fn long_link_body(s: &str, c: u8) -> Option<usize> {
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
fn dotted_body(s: &str) -> Option<usize> {
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

fn node_string_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let ok = match c {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => true,
            b'!' | b'"' | b'#' | b'$' | b'%' | b'&' | b'\'' | b'*' | b'+' | b'.' | b'`' | b'?'
            | b'\\' | b'_' | b'/' => true,
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

/// The jison lexer state machine.
pub struct Lexer<'s> {
    src: &'s str,
    pos: usize,
    stack: Vec<St>,
    done: bool,
    first_graph: bool,
    /// Cache: next occurrence of "direction" at or after `pos` (None = none).
    dir_cache: Option<(usize, Option<usize>)>,
    /// Cache: next '@' at or after a position.
    at_cache: Option<(usize, Option<usize>)>,
    /// Cache: next line terminator at or after a position.
    nl_cache: Option<(usize, usize)>,
}

impl<'s> Lexer<'s> {
    pub fn new(src: &'s str) -> Self {
        Lexer {
            src,
            pos: 0,
            stack: vec![St::Initial],
            done: false,
            first_graph: true,
            dir_cache: None,
            at_cache: None,
            nl_cache: None,
        }
    }

    fn state(&self) -> St {
        *self.stack.last().unwrap_or(&St::Initial)
    }

    fn push(&mut self, s: St) {
        self.stack.push(s);
    }

    fn pop(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    /// Tokenize everything; the last token is always [`Tk::End0`].
    pub fn tokenize(mut self) -> Result<Vec<Token>, LexError> {
        let mut out = Vec::with_capacity(self.src.len() / 3 + 4);
        loop {
            let t = self.next_token()?;
            out.push(t);
            if t.kind == Tk::End0 {
                return Ok(out);
            }
        }
    }

    fn tok(&self, kind: Tk, start: usize) -> Token {
        Token {
            kind,
            start: start as u32,
            end: self.pos as u32,
        }
    }

    /// jison's `lex()`: loops over rules that return no token.
    pub fn next_token(&mut self) -> Result<Token, LexError> {
        loop {
            if self.done {
                return Ok(Token {
                    kind: Tk::End0,
                    start: self.pos as u32,
                    end: self.pos as u32,
                });
            }
            if self.pos >= self.src.len() {
                self.done = true;
            }
            let start = self.pos;
            let depth = self.stack.len();
            let st = self.state();
            match self.rule(st)? {
                Some(k) => return Ok(self.tok(k, start)),
                None => {
                    // A rule without a token; guard against an empty match
                    // that changes nothing (jison would spin forever).
                    if self.pos == start && self.stack.len() == depth && !self.done {
                        return Err(LexError { pos: start });
                    }
                }
            }
        }
    }

    fn adv(&mut self, n: usize) {
        self.pos += n;
    }

    fn next_direction(&mut self) -> Option<usize> {
        if let Some((from, found)) = self.dir_cache
            && from <= self.pos
            && found.is_none_or(|f| f >= self.pos)
        {
            return found;
        }
        let found = self.src[self.pos..].find("direction").map(|i| i + self.pos);
        self.dir_cache = Some((self.pos, found));
        found
    }

    fn next_line_end(&mut self) -> usize {
        if let Some((from, found)) = self.nl_cache
            && from <= self.pos
            && found >= self.pos
        {
            return found;
        }
        let found = self.src[self.pos..]
            .find(['\n', '\r', '\u{2028}', '\u{2029}'])
            .map_or(self.src.len(), |i| i + self.pos);
        self.nl_cache = Some((self.pos, found));
        found
    }

    fn next_at(&mut self) -> Option<usize> {
        if let Some((from, found)) = self.at_cache
            && from <= self.pos
            && found.is_none_or(|f| f >= self.pos)
        {
            return found;
        }
        let found = self.src[self.pos..].find('@').map(|i| i + self.pos);
        self.at_cache = Some((self.pos, found));
        found
    }

    /// `.*direction\s+XX[^\n]*` for the XX tried in rule order.
    fn direction_rule(&mut self) -> Option<(Tk, usize)> {
        let first = self.next_direction()?;
        // `.*` cannot cross a line terminator.
        let line_end = self.next_line_end() - self.pos;
        if first - self.pos >= line_end {
            return None;
        }
        let rest = &self.src[self.pos..];
        let line = &rest[..line_end];
        for (kind, d) in [
            (Tk::DirectionTb, "TB"),
            (Tk::DirectionBt, "BT"),
            (Tk::DirectionRl, "RL"),
            (Tk::DirectionLr, "LR"),
            (Tk::DirectionTd, "TD"),
        ] {
            // Greedy `.*`: the last occurrence on the line that works.
            let mut found = None;
            let mut from = 0;
            while let Some(i) = line[from..].find("direction") {
                let at = from + i;
                let after = &rest[at + 9..];
                let ws = after.len() - after.trim_start_matches(js_ws).len();
                if ws > 0 && after[ws..].starts_with(d) {
                    found = Some(at + 9 + ws + 2);
                }
                from = at + 9;
            }
            if let Some(end) = found {
                let tail = rest[end..].find('\n').unwrap_or(rest.len() - end);
                return Some((kind, end + tail));
            }
        }
        None
    }

    /// `[^\s"]+\@(?=[^\{"])`
    fn link_id_rule(&mut self) -> Option<usize> {
        let at = self.next_at()?;
        let rest = &self.src[self.pos..];
        let run = rest
            .find(|c: char| js_ws(c) || c == '"')
            .unwrap_or(rest.len());
        if at - self.pos >= run {
            return None;
        }
        let runs = &rest[..run];
        // Greedy: the last '@' inside the run whose next char is not `{`/`"`.
        let mut best = None;
        for (i, c) in runs.char_indices() {
            let next = rest[i + 1..].chars().next();
            if c == '@' && i >= 1 && next.is_some_and(|n| n != '{' && n != '"') {
                best = Some(i + 1);
            }
        }
        best
    }

    #[allow(clippy::cognitive_complexity)]
    fn rule(&mut self, st: St) -> Result<Option<Tk>, LexError> {
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
            return Ok(Some(if st == AccTitle {
                Tk::AccTitleValue
            } else {
                Tk::AccDescrValue
            }));
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
            let n = s.find(['}', '^', '"']).unwrap_or(s.len());
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
            let n = s.find(['`', '"']).unwrap_or(s.len());
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
            return self
                .dir_rules(s)
                .map(Some)
                .ok_or(LexError { pos: self.pos });
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

    fn keyword_rules(&mut self, s: &str) -> Option<Tk> {
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
                let c = s
                    .strip_prefix("href")?
                    .chars()
                    .next()
                    .filter(|&c| js_ws(c))?;
                (Tk::Href, 4 + c.len_utf8())
            }
            _ => return None,
        };
        self.adv(n);
        Some(k)
    }

    fn graph_rules(&mut self, s: &str) -> Option<Tk> {
        let b0 = *s.as_bytes().first()?;
        if b0 == b'f' || b0 == b'g' {
            let n = kw(s, "flowchart-elk")
                .or_else(|| kw(s, "graph"))
                .or_else(|| kw(s, "flowchart"))?;
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
            let n = ["_self", "_blank", "_parent", "_top"]
                .iter()
                .find_map(|w| kw(s, w))?;
            self.adv(n);
            return Some(Tk::LinkTarget);
        }
        None
    }

    fn dir_rules(&mut self, s: &str) -> Option<Tk> {
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

    fn link_rules(&mut self, st: St, s: &str) -> Option<Tk> {
        use St::*;
        let ini = st == Initial;
        let heads = ['x', 'o', '<'];
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

    fn shape_rules(&mut self, st: St, s: &str) -> Result<Option<Tk>, LexError> {
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
            if b.len() >= 2
                && matches!(b[0], b'\\' | b'(' | b'?' | b'=' | b']' | b')')
                && b[1] == b']'
            {
                take!(2, Tk::TrapEnd, pop);
            }
            if s.starts_with("/]") {
                take!(2, Tk::InvTrapEnd, pop);
            }
            if matches!(b.first(), Some(b'/' | b'\\')) && b.get(1) != Some(&b']') {
                take!(1, Tk::Text);
            }
            let n = s
                .find(['\\', '[', ']', '(', ')', '{', '}', '/'])
                .unwrap_or(s.len());
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
            let n = s
                .find(['[', ']', '(', ')', '{', '}', '|', '"'])
                .unwrap_or(s.len());
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
