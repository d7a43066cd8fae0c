//! The grammar of `flow.jison`, as a recursive-descent parser over the
//! jison-compatible token stream of [`super::lexer`].
//!
//! Each function mirrors one or more productions; where the LALR parser
//! decides on one token of look-ahead, so do these. A failure records the
//! offending token and what would have been accepted there.

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
    matches!(
        k,
        Num | NodeString | Down | Minus | Default | Comma | Colon | Amp | Brkt | Mult | UnicodeText
    )
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
    matches!(
        k,
        Num | UnicodeText | NodeString | Dir | Down | Minus | Comma | Colon | Amp | Brkt | Mult
    )
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
        self.toks
            .get(self.i)
            .map_or(self.src.len() as u32, |t| t.start)
    }

    fn prev_end(&self) -> u32 {
        if self.i == 0 {
            0
        } else {
            self.toks[self.i - 1].end
        }
    }

    fn err<T>(&self, expected: &[&'static str]) -> Res<T> {
        Err(SynErr {
            at: self.i,
            expected: expected.to_vec(),
        })
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
        if self.eat(k) {
            Ok(())
        } else {
            self.err(&[what])
        }
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
        let stmts = self.lines(false)?;
        Ok(Document { header, dir, stmts })
    }

    /// `document: line*`, ending at `$end` (top) or `end` (subgraph).
    fn lines(&mut self, in_sub: bool) -> Res<Vec<Stmt>> {
        let mut out = Vec::new();
        loop {
            match self.peek() {
                Tk::Semi | Tk::Newline | Tk::Space | Tk::Eof => self.i += 1,
                Tk::End if in_sub => {
                    self.i += 1;
                    return Ok(out);
                }
                Tk::End0 if in_sub => return self.err(&["'end'"]),
                Tk::End0 => return Ok(out),
                _ => out.push(self.statement()?),
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
            Tk::DirectionTb
            | Tk::DirectionBt
            | Tk::DirectionRl
            | Tk::DirectionLr
            | Tk::DirectionTd => {
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
                let want = if k == Tk::AccTitle {
                    Tk::AccTitleValue
                } else {
                    Tk::AccDescrValue
                };
                if self.peek() != want {
                    return self.err(&["a title"]);
                }
                let v = self.cur_text().trim().to_string();
                self.i += 1;
                return Ok(if k == Tk::AccTitle {
                    Stmt::AccTitle(v)
                } else {
                    Stmt::AccDescr(v)
                });
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
                return self.err(&[
                    E_ID,
                    "a statement keyword (subgraph, style, classDef, class, linkStyle, click)",
                ]);
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

    /// `vertexStatement`, without the separator.
    fn chain(&mut self) -> Res<Chain> {
        let mut first = self.group()?;
        self.group_tail(&mut first)?;
        let mut links = Vec::new();
        while matches!(self.peek(), Tk::Link | Tk::StartLink | Tk::LinkId) {
            let l = self.link()?;
            let mut g = self.group()?;
            self.group_tail(&mut g)?;
            links.push((l, g));
        }
        Ok(Chain { first, links })
    }

    /// After a node group: `shapeData` or `spaceList` or nothing.
    fn group_tail(&mut self, g: &mut [Vertex]) -> Res<()> {
        if self.peek() == Tk::ShapeDataOpen {
            let m = self.shape_data();
            if let Some(v) = g.last_mut() {
                v.meta = Some(m);
            }
        } else {
            self.spaces();
        }
        Ok(())
    }

    fn shape_data(&mut self) -> (String, Range) {
        let start = self.start();
        let mut s = String::new();
        while matches!(
            self.peek(),
            Tk::ShapeDataOpen | Tk::ShapeData | Tk::ShapeDataStr
        ) {
            let t = self.toks[self.i];
            match t.kind {
                Tk::ShapeDataOpen => {}
                Tk::ShapeDataStr => s.push_str(&br_newlines(self.text_of(&t))),
                _ => s.push_str(self.text_of(&t)),
            }
            self.i += 1;
        }
        (s, (start, self.prev_end()))
    }

    /// `node`: styled vertices joined by ` & `.
    fn group(&mut self) -> Res<Vec<Vertex>> {
        let mut out = vec![self.styled_vertex()?];
        loop {
            let save = self.i;
            let meta = (self.peek() == Tk::ShapeDataOpen).then(|| self.shape_data());
            if self.spaces() > 0 && self.peek() == Tk::Amp {
                self.i += 1;
                if self.spaces() == 0 {
                    return self.err(&[E_SPACE]);
                }
                if let (Some(m), Some(v)) = (meta, out.last_mut()) {
                    v.meta = Some(m);
                }
                out.push(self.styled_vertex()?);
            } else {
                self.i = save;
                return Ok(out);
            }
        }
    }

    fn styled_vertex(&mut self) -> Res<Vertex> {
        let mut v = self.vertex()?;
        if self.eat(Tk::StyleSeparator) {
            v.class = Some(self.id_string()?.0);
        }
        Ok(v)
    }

    fn vertex(&mut self) -> Res<Vertex> {
        let (id, range) = self.id_string()?;
        let mut v = Vertex {
            id,
            range,
            shape: None,
            props: None,
            class: None,
            meta: None,
        };
        let open = self.peek();
        let (shape, label) = match open {
            Tk::Sqs => (Classic::Square, self.text_then(Tk::Sqe, "']'")?),
            Tk::DoubleCircleStart => (
                Classic::DoubleCircle,
                self.text_then(Tk::DoubleCircleEnd, "')))'")?,
            ),
            Tk::Ps if self.peek_at(1) == Tk::Ps => {
                self.i += 1;
                let l = self.text_then(Tk::Pe, "')'")?;
                self.expect(Tk::Pe, "')'")?;
                (Classic::Circle, l)
            }
            Tk::Ps => (Classic::Round, self.text_then(Tk::Pe, "')'")?),
            Tk::EllipseStart => (Classic::Ellipse, self.text_then(Tk::EllipseEnd, "'-)'")?),
            Tk::StadiumStart => (Classic::Stadium, self.text_then(Tk::StadiumEnd, "'])'")?),
            Tk::SubroutineStart => (
                Classic::Subroutine,
                self.text_then(Tk::SubroutineEnd, "']]'")?,
            ),
            Tk::CylinderStart => (Classic::Cylinder, self.text_then(Tk::CylinderEnd, "')]'")?),
            Tk::DiamondStart if self.peek_at(1) == Tk::DiamondStart => {
                self.i += 1;
                let l = self.text_then(Tk::DiamondStop, "'}'")?;
                self.expect(Tk::DiamondStop, "'}'")?;
                (Classic::Hexagon, l)
            }
            Tk::DiamondStart => (Classic::Diamond, self.text_then(Tk::DiamondStop, "'}'")?),
            Tk::TagEnd => (Classic::Odd, self.text_then(Tk::Sqe, "']'")?),
            Tk::TrapStart | Tk::InvTrapStart => {
                self.i += 1;
                let l = self.text()?;
                let s = match (open, self.peek()) {
                    (Tk::TrapStart, Tk::TrapEnd) => Classic::Trapezoid,
                    (Tk::TrapStart, Tk::InvTrapEnd) => Classic::LeanRight,
                    (_, Tk::InvTrapEnd) => Classic::InvTrapezoid,
                    (_, Tk::TrapEnd) => Classic::LeanLeft,
                    _ => return self.err(&["'/]'", "'\\]'"]),
                };
                self.i += 1;
                (s, l)
            }
            Tk::VertexWithPropsStart => {
                self.i += 1;
                let field = self.node_string()?;
                self.expect(Tk::Colon, "':'")?;
                let value = self.node_string()?;
                self.expect(Tk::Pipe, "'|'")?;
                v.props = Some((field, value));
                let l = self.text()?;
                self.expect(Tk::Sqe, "']'")?;
                (Classic::PropsRect, l)
            }
            _ => return Ok(v),
        };
        v.shape = Some((shape, label));
        Ok(v)
    }

    fn node_string(&mut self) -> Res<String> {
        if self.peek() != Tk::NodeString {
            return self.err(&["a property name"]);
        }
        let s = self.cur_text().to_string();
        self.i += 1;
        Ok(s)
    }

    /// Opening token (consumed here), `text`, closing token.
    fn text_then(&mut self, close: Tk, what: &'static str) -> Res<Label> {
        self.i += 1;
        let l = self.text()?;
        if self.peek() != close {
            // Unquoted text could have continued here too.
            return if l.kind == LabelType::Text {
                self.err(&[what, E_TEXT])
            } else {
                self.err(&[what])
            };
        }
        self.i += 1;
        Ok(l)
    }

    /// `text: textToken+ | STR | MD_STR`
    fn text(&mut self) -> Res<Label> {
        let start = self.start();
        match self.peek() {
            Tk::Str | Tk::MdStr => {
                let kind = if self.peek() == Tk::Str {
                    LabelType::String
                } else {
                    LabelType::Markdown
                };
                let text = self.cur_text().to_string();
                self.i += 1;
                Ok(Label {
                    text,
                    kind,
                    range: (start, self.prev_end()),
                })
            }
            k if is_text(k) => {
                let mut text = String::new();
                while is_text(self.peek()) {
                    text.push_str(self.cur_text());
                    self.i += 1;
                }
                Ok(Label {
                    text,
                    kind: LabelType::Text,
                    range: (start, self.prev_end()),
                })
            }
            _ => self.err(&[E_TEXT, E_STR]),
        }
    }

    fn link(&mut self) -> Res<Link> {
        let start = self.start();
        let id = if self.peek() == Tk::LinkId {
            let s = self.cur_text().to_string();
            self.i += 1;
            Some(s)
        } else {
            None
        };
        match self.peek() {
            Tk::Link => {
                let token = self.cur_text().to_string();
                self.i += 1;
                let mut text = None;
                if self.eat(Tk::Pipe) {
                    text = Some(self.text()?);
                    self.expect(Tk::Pipe, "'|'")?;
                    self.eat(Tk::Space);
                }
                Ok(Link {
                    token,
                    start: None,
                    id,
                    text,
                    range: (start, self.prev_end()),
                })
            }
            Tk::StartLink => {
                let st = self.cur_text().to_string();
                self.i += 1;
                let tstart = self.start();
                let text = match self.peek() {
                    Tk::Str | Tk::MdStr => {
                        let kind = if self.peek() == Tk::Str {
                            LabelType::String
                        } else {
                            LabelType::Markdown
                        };
                        let t = self.cur_text().to_string();
                        self.i += 1;
                        Label {
                            text: t,
                            kind,
                            range: (tstart, self.prev_end()),
                        }
                    }
                    Tk::EdgeText | Tk::UnicodeText => {
                        let mut t = String::new();
                        while matches!(self.peek(), Tk::EdgeText | Tk::UnicodeText) {
                            t.push_str(self.cur_text());
                            self.i += 1;
                        }
                        Label {
                            text: t,
                            kind: LabelType::Text,
                            range: (tstart, self.prev_end()),
                        }
                    }
                    _ => return self.err(&["link text"]),
                };
                if self.peek() != Tk::Link {
                    return self.err(&["the end of the link, e.g. '-->'"]);
                }
                let token = self.cur_text().to_string();
                self.i += 1;
                Ok(Link {
                    token,
                    start: Some(st),
                    id,
                    text: Some(text),
                    range: (start, self.prev_end()),
                })
            }
            _ => self.err(&[E_LINK]),
        }
    }

    fn style_parts(&mut self) -> Res<Vec<String>> {
        let mut out = Vec::new();
        loop {
            let mut s = String::new();
            while is_style_part(self.peek()) {
                s.push_str(self.cur_text());
                self.i += 1;
            }
            if s.is_empty() {
                return self.err(&["a style such as 'fill:#f9f'"]);
            }
            out.push(s);
            if !self.eat(Tk::Comma) {
                return Ok(out);
            }
        }
    }

    fn style_stmt(&mut self) -> Res<Stmt> {
        self.i += 1;
        self.expect(Tk::Space, E_SPACE)?;
        let (id, range) = self.id_string()?;
        self.expect(Tk::Space, E_SPACE)?;
        let styles = self.style_parts()?;
        Ok(Stmt::Style { id, range, styles })
    }

    fn class_def(&mut self) -> Res<Stmt> {
        self.i += 1;
        self.expect(Tk::Space, E_SPACE)?;
        let (ids, range) = self.id_string()?;
        self.expect(Tk::Space, E_SPACE)?;
        let styles = self.style_parts()?;
        Ok(Stmt::ClassDef { ids, range, styles })
    }

    fn class_stmt(&mut self) -> Res<Stmt> {
        self.i += 1;
        self.expect(Tk::Space, E_SPACE)?;
        let (ids, range) = self.id_string()?;
        self.expect(Tk::Space, E_SPACE)?;
        let (class, _) = self.id_string()?;
        Ok(Stmt::Class { ids, range, class })
    }

    fn alpha_num(&mut self) -> Res<String> {
        let mut s = String::new();
        while is_alnum(self.peek()) {
            s.push_str(self.cur_text());
            self.i += 1;
        }
        if s.is_empty() {
            return self.err(&["a name"]);
        }
        Ok(s)
    }

    fn link_style(&mut self) -> Res<Stmt> {
        let start = self.start();
        self.i += 1;
        self.expect(Tk::Space, E_SPACE)?;
        let targets = if self.eat(Tk::Default) {
            LinkTargets::Default
        } else {
            let mut v = Vec::new();
            loop {
                if self.peek() != Tk::Num {
                    return self.err(&["an edge index", "'default'"]);
                }
                let t = self.toks[self.i];
                v.push((self.cur_text().to_string(), (t.start, t.end)));
                self.i += 1;
                if !self.eat(Tk::Comma) {
                    break;
                }
            }
            LinkTargets::Indices(v)
        };
        self.expect(Tk::Space, E_SPACE)?;
        let mut interpolate = None;
        let styles = if self.eat(Tk::Interpolate) {
            self.expect(Tk::Space, E_SPACE)?;
            interpolate = Some(self.alpha_num()?);
            if self.eat(Tk::Space) {
                Some(self.style_parts()?)
            } else {
                None
            }
        } else {
            Some(self.style_parts()?)
        };
        Ok(Stmt::LinkStyle {
            targets,
            interpolate,
            styles,
            range: (start, self.prev_end()),
        })
    }

    fn str_tok(&mut self) -> Res<String> {
        if self.peek() != Tk::Str {
            return self.err(&[E_STR]);
        }
        let s = self.cur_text().to_string();
        self.i += 1;
        Ok(s)
    }

    fn click(&mut self) -> Res<Stmt> {
        let t = self.toks[self.i];
        let id = self.text_of(&t).to_string();
        let range = (t.start, t.end);
        self.i += 1;
        let mut a = ClickAction::default();
        match self.peek() {
            Tk::CallbackName => {
                a.callback = Some(self.cur_text().to_string());
                self.i += 1;
                if self.peek() == Tk::CallbackArgs {
                    a.args = Some(self.cur_text().to_string());
                    self.i += 1;
                }
                if self.eat(Tk::Space) {
                    a.tooltip = Some(self.str_tok()?);
                }
            }
            Tk::Href | Tk::Str => {
                self.eat(Tk::Href);
                a.href = Some(self.str_tok()?);
                if self.eat(Tk::Space) {
                    if self.peek() == Tk::LinkTarget {
                        a.target = Some(self.cur_text().to_string());
                        self.i += 1;
                    } else {
                        a.tooltip = Some(self.str_tok()?);
                        if self.eat(Tk::Space) {
                            if self.peek() != Tk::LinkTarget {
                                return self.err(&["_self, _blank, _parent or _top"]);
                            }
                            a.target = Some(self.cur_text().to_string());
                            self.i += 1;
                        }
                    }
                }
            }
            k if is_alnum(k) => {
                a.callback = Some(self.alpha_num()?);
                if self.eat(Tk::Space) {
                    a.tooltip = Some(self.str_tok()?);
                }
            }
            _ => return self.err(&["a callback name", "a URL string", "'href'", "'call'"]),
        }
        Ok(Stmt::Click {
            id,
            range,
            action: a,
        })
    }

    fn text_no_tags(&mut self) -> Res<Label> {
        let start = self.start();
        match self.peek() {
            Tk::Str | Tk::MdStr => {
                let kind = if self.peek() == Tk::Str {
                    LabelType::Text
                } else {
                    LabelType::Markdown
                };
                let text = self.cur_text().to_string();
                self.i += 1;
                Ok(Label {
                    text,
                    kind,
                    range: (start, self.prev_end()),
                })
            }
            k if is_text_no_tags(k) => {
                let mut text = String::new();
                while is_text_no_tags(self.peek()) {
                    text.push_str(self.cur_text());
                    self.i += 1;
                }
                Ok(Label {
                    text,
                    kind: LabelType::Text,
                    range: (start, self.prev_end()),
                })
            }
            _ => self.err(&["a subgraph id or title"]),
        }
    }

    fn subgraph(&mut self) -> Res<Stmt> {
        let start = self.start();
        self.i += 1;
        let (id, title) = if self.eat(Tk::Space) {
            let id = self.text_no_tags()?;
            if self.peek() == Tk::Sqs {
                self.i += 1;
                let t = self.text()?;
                self.expect(Tk::Sqe, "']'")?;
                self.separator(&[])?;
                (Some(id), Some(t))
            } else {
                self.separator(&["'[' (a title)"])?;
                (Some(id), None)
            }
        } else {
            self.separator(&["a subgraph id"])?;
            (None, None)
        };
        let body = self.lines(true)?;
        Ok(Stmt::Subgraph {
            id,
            title,
            body,
            range: (start, self.prev_end()),
        })
    }
}

/// jison's `shapeDataStr` action: `\n\s*` becomes `<br/>`.
fn br_newlines(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.char_indices().peekable();
    while let Some((_, c)) = it.next() {
        if c == '\n' {
            out.push_str("<br/>");
            while it.peek().is_some_and(|&(_, c)| super::lexer::js_ws(c)) {
                it.next();
            }
        } else {
            out.push(c);
        }
    }
    out
}
