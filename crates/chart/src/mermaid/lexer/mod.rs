//! A port of the lexer in mermaid's `flow.jison`.
//!
//! jison's lexer takes the **first rule in file order** that matches (not the
//! longest), keeps a stack of start conditions, and is independent of the
//! parser. That makes it possible to tokenize the whole text up front and
//! still reproduce mermaid's quirks exactly: `direction` rules that swallow a
//! line, `end` prefixes, `o`/`x` link heads (`dev---ops`), keyword prefixes.
//! Each rule below is a small `nom` recognizer; [`Lexer::next_token`] tries
//! them in the order of the jison file, filtered by the current state.

mod rules;
mod scan;
mod shapes;
mod token;

pub(crate) use scan::js_ws;

pub use token::{Tk, Token};

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
        let mut out = Vec::with_capacity(self.src.len() / 2 + 4);
        loop {
            let t = self.next_token()?;
            out.push(t);
            if t.kind == Tk::End0 {
                return Ok(out);
            }
        }
    }

    fn tok(&self, kind: Tk, start: usize) -> Token {
        Token { kind, start: start as u32, end: self.pos as u32 }
    }

    /// jison's `lex()`: loops over rules that return no token.
    pub fn next_token(&mut self) -> Result<Token, LexError> {
        loop {
            if self.done {
                return Ok(Token { kind: Tk::End0, start: self.pos as u32, end: self.pos as u32 });
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
        let found =
            self.src[self.pos..].find(['\n', '\r', '\u{2028}', '\u{2029}']).map_or(self.src.len(), |i| i + self.pos);
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
        let run = rest.find(|c: char| js_ws(c) || c == '"').unwrap_or(rest.len());
        if at - self.pos >= run {
            return None;
        }
        let runs = &rest[..run];
        // Greedy: the last '@' inside the run whose next char is not `{`/`"`.
        let mut best = None;
        for (i, c) in runs.char_indices() {
            if c != '@' {
                continue;
            }
            let next = rest[i + 1..].chars().next();
            if i >= 1 && next.is_some_and(|n| n != '{' && n != '"') {
                best = Some(i + 1);
            }
        }
        best
    }
}
