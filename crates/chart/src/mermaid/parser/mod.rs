//! The grammar of `flow.jison`, as a recursive-descent parser over the
//! jison-compatible token stream of [`super::lexer`].
//!
//! Each function mirrors one or more productions; where the LALR parser
//! decides on one token of look-ahead, so do these. A failure records the
//! offending token and what would have been accepted there.

mod stmts;
mod vertex;

use super::ast::*;
use super::lexer::{Tk, Token};
use super::model::LabelType;

/// A syntax error at token index `at`.
#[derive(Debug, Clone, PartialEq)]
pub struct SynErr {
    pub at: usize,
    pub expected: Vec<&'static str>,
}

type Res<T> = Result<T, SynErr>;

/// Human names for expectation lists (kept short: diagnostics print them).
pub(crate) const E_ID: &str = "a node id";
pub(crate) const E_SEP: &str = "a newline or ';'";
pub(crate) const E_LINK: &str = "a link such as '-->'";
pub(crate) const E_AMP: &str = "' & ' (another node)";
pub(crate) const E_TEXT: &str = "label text";
pub(crate) const E_STR: &str = "a quoted string";
pub(crate) const E_SPACE: &str = "a space";

fn is_id(k: Tk) -> bool {
    use Tk::*;
    matches!(k, Num | NodeString | Down | Minus | Default | Comma | Colon | Amp | Brkt | Mult | UnicodeText)
}

fn is_text(k: Tk) -> bool {
    matches!(k, Tk::Text | Tk::TagStart | Tk::TagEnd | Tk::UnicodeText)
}

fn is_style_part(k: Tk) -> bool {
    use Tk::*;
    matches!(k, Num | NodeString | Colon | Space | Brkt | Style)
}

fn is_alnum(k: Tk) -> bool {
    use Tk::*;
    matches!(k, Num | UnicodeText | NodeString | Dir | Down | Minus | Comma | Colon | Amp | Brkt | Mult)
}

fn is_text_no_tags(k: Tk) -> bool {
    use Tk::*;
    matches!(
        k,
        Num | NodeString
            | Space
            | Minus
            | Amp
            | UnicodeText
            | Colon
            | Mult
            | Brkt
            | Style
            | LinkStyle
            | ClassDef
            | Class
            | Click
            | Graph
            | Dir
            | Subgraph
            | End
            | Down
            | Up
            | StartLink
    )
}

/// Parser state: the token slice and the preprocessed text.
pub struct Parser<'a> {
    toks: &'a [Token],
    src: &'a str,
    i: usize,
}

impl<'a> Parser<'a> {
    pub fn new(toks: &'a [Token], src: &'a str) -> Self {
        Parser { toks, src, i: 0 }
    }

    fn peek(&self) -> Tk {
        self.toks.get(self.i).map_or(Tk::End0, |t| t.kind)
    }

    fn peek_at(&self, n: usize) -> Tk {
        self.toks.get(self.i + n).map_or(Tk::End0, |t| t.kind)
    }

    fn text_of(&self, t: &Token) -> &'a str {
        &self.src[t.start as usize..t.end as usize]
    }

    fn cur_text(&self) -> &'a str {
        self.toks.get(self.i).map_or("", |t| self.text_of(t))
    }

    fn start(&self) -> u32 {
        self.toks.get(self.i).map_or(self.src.len() as u32, |t| t.start)
    }

    fn prev_end(&self) -> u32 {
        if self.i == 0 { 0 } else { self.toks[self.i - 1].end }
    }

    fn err<T>(&self, expected: &[&'static str]) -> Res<T> {
        Err(SynErr { at: self.i, expected: expected.to_vec() })
    }

    fn eat(&mut self, k: Tk) -> bool {
        if self.peek() == k {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, k: Tk, what: &'static str) -> Res<()> {
        if self.eat(k) { Ok(()) } else { self.err(&[what]) }
    }

    fn spaces(&mut self) -> usize {
        let mut n = 0;
        while self.eat(Tk::Space) {
            n += 1;
        }
        n
    }

    /// `start: graphConfig document`
    pub fn document(&mut self) -> Res<Document> {
        let (header, dir) = self.header()?;
        let stmts = self.lines(false)?;
        Ok(Document { header, dir, stmts })
    }

    /// The rest of [`Self::document`] after [`Self::header`], handing each
    /// top-level statement to `each` as soon as it is parsed. Applying a
    /// statement while it is still in cache, instead of after the whole
    /// tree is built, keeps parse time linear on large charts (the tree of
    /// a 10,000-node chart does not fit in cache).
    pub fn statements_each(&mut self, each: &mut dyn FnMut(Stmt)) -> Res<()> {
        self.lines_each(false, each)
    }

    /// `graphConfig`: the header keyword as written and the direction.
    pub fn header(&mut self) -> Res<(String, Option<String>)> {
        while matches!(self.peek(), Tk::Space | Tk::Newline) {
            self.i += 1;
        }
        if self.peek() != Tk::Graph {
            return self.err(&["'graph' or 'flowchart'"]);
        }
        let header = self.cur_text().to_string();
        self.i += 1;
        let dir = match self.peek() {
            Tk::NoDir => {
                self.i += 1;
                None
            }
            Tk::Dir => {
                let d = self.cur_text().trim().to_string();
                self.i += 1;
                // FirstStmtSeparator: SEMI | NEWLINE | spaceList NEWLINE
                if !self.eat(Tk::Semi) && !self.eat(Tk::Newline) {
                    if self.spaces() == 0 {
                        return self.err(&[E_SEP]);
                    }
                    self.expect(Tk::Newline, "a newline")?;
                }
                Some(d)
            }
            _ => return self.err(&["a direction (TB, TD, BT, RL, LR) or a newline"]),
        };
        Ok((header, dir))
    }

    /// `document: line*`, ending at `$end` (top) or `end` (subgraph).
    fn lines(&mut self, in_sub: bool) -> Res<Vec<Stmt>> {
        let mut out = Vec::new();
        self.lines_each(in_sub, &mut |s| out.push(s))?;
        Ok(out)
    }

    fn lines_each(&mut self, in_sub: bool, each: &mut dyn FnMut(Stmt)) -> Res<()> {
        loop {
            match self.peek() {
                Tk::Semi | Tk::Newline | Tk::Space | Tk::Eof => self.i += 1,
                Tk::End if in_sub => {
                    self.i += 1;
                    return Ok(());
                }
                Tk::End0 if in_sub => return self.err(&["'end'"]),
                Tk::End0 => return Ok(()),
                _ => each(self.statement()?),
            }
        }
    }

    fn separator(&mut self, also: &[&'static str]) -> Res<()> {
        if matches!(self.peek(), Tk::Newline | Tk::Semi | Tk::Eof) {
            self.i += 1;
            return Ok(());
        }
        let mut e = also.to_vec();
        e.push(E_SEP);
        self.err(&e)
    }

    fn statement(&mut self) -> Res<Stmt> {
        let k = self.peek();
        let s = match k {
            Tk::Style => self.style_stmt()?,
            Tk::LinkStyle => self.link_style()?,
            Tk::ClassDef => self.class_def()?,
            Tk::Class => self.class_stmt()?,
            Tk::Click => self.click()?,
            Tk::Subgraph => return self.subgraph(),
            Tk::DirectionTb | Tk::DirectionBt | Tk::DirectionRl | Tk::DirectionLr | Tk::DirectionTd => {
                self.i += 1;
                return Ok(Stmt::Direction(match k {
                    Tk::DirectionTb => "TB",
                    Tk::DirectionBt => "BT",
                    Tk::DirectionRl => "RL",
                    Tk::DirectionLr => "LR",
                    _ => "TD",
                }));
            }
            Tk::AccTitle | Tk::AccDescr => {
                self.i += 1;
                let want = if k == Tk::AccTitle { Tk::AccTitleValue } else { Tk::AccDescrValue };
                if self.peek() != want {
                    return self.err(&["a title"]);
                }
                let v = self.cur_text().trim().to_string();
                self.i += 1;
                return Ok(if k == Tk::AccTitle { Stmt::AccTitle(v) } else { Stmt::AccDescr(v) });
            }
            Tk::AccDescrMultilineValue => {
                let v = self.cur_text().trim().to_string();
                self.i += 1;
                return Ok(Stmt::AccDescr(v));
            }
            k if is_id(k) => {
                let c = self.chain()?;
                self.separator(&[E_LINK, E_AMP])?;
                return Ok(Stmt::Chain(c));
            }
            _ => {
                return self.err(&[E_ID, "a statement keyword (subgraph, style, classDef, class, linkStyle, click)"]);
            }
        };
        self.separator(&[])?;
        Ok(s)
    }

    fn id_string(&mut self) -> Res<(String, Range)> {
        let start = self.start();
        let mut s = String::new();
        while is_id(self.peek()) {
            s.push_str(self.cur_text());
            self.i += 1;
        }
        if s.is_empty() {
            return self.err(&[E_ID]);
        }
        Ok((s, (start, self.prev_end())))
    }
}
