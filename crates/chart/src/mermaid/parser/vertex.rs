//! Vertex statements: chains, `&` groups, vertices with their shapes,
//! labels and links.

use super::*;

impl Parser<'_> {
    /// `vertexStatement`, without the separator.
    pub(super) fn chain(&mut self) -> Res<Chain> {
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
    pub(super) fn group_tail(&mut self, g: &mut [Vertex]) -> Res<()> {
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

    pub(super) fn shape_data(&mut self) -> (String, Range) {
        let start = self.start();
        let mut s = String::new();
        while matches!(self.peek(), Tk::ShapeDataOpen | Tk::ShapeData | Tk::ShapeDataStr) {
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
    pub(super) fn group(&mut self) -> Res<Vec<Vertex>> {
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

    pub(super) fn styled_vertex(&mut self) -> Res<Vertex> {
        let mut v = self.vertex()?;
        if self.eat(Tk::StyleSeparator) {
            v.class = Some(self.id_string()?.0);
        }
        Ok(v)
    }

    pub(super) fn vertex(&mut self) -> Res<Vertex> {
        let (id, range) = self.id_string()?;
        let mut v = Vertex { id, range, shape: None, props: None, class: None, meta: None };
        let open = self.peek();
        let (shape, label) = match open {
            Tk::Sqs => (Classic::Square, self.text_then(Tk::Sqe, "']'")?),
            Tk::DoubleCircleStart => (Classic::DoubleCircle, self.text_then(Tk::DoubleCircleEnd, "')))'")?),
            Tk::Ps if self.peek_at(1) == Tk::Ps => {
                self.i += 1;
                let l = self.text_then(Tk::Pe, "')'")?;
                self.expect(Tk::Pe, "')'")?;
                (Classic::Circle, l)
            }
            Tk::Ps => (Classic::Round, self.text_then(Tk::Pe, "')'")?),
            Tk::EllipseStart => (Classic::Ellipse, self.text_then(Tk::EllipseEnd, "'-)'")?),
            Tk::StadiumStart => (Classic::Stadium, self.text_then(Tk::StadiumEnd, "'])'")?),
            Tk::SubroutineStart => (Classic::Subroutine, self.text_then(Tk::SubroutineEnd, "']]'")?),
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

    pub(super) fn node_string(&mut self) -> Res<String> {
        if self.peek() != Tk::NodeString {
            return self.err(&["a property name"]);
        }
        let s = self.cur_text().to_string();
        self.i += 1;
        Ok(s)
    }

    /// Opening token (consumed here), `text`, closing token.
    pub(super) fn text_then(&mut self, close: Tk, what: &'static str) -> Res<Label> {
        self.i += 1;
        let l = self.text()?;
        if self.peek() != close {
            // Unquoted text could have continued here too.
            return if l.kind == LabelType::Text { self.err(&[what, E_TEXT]) } else { self.err(&[what]) };
        }
        self.i += 1;
        Ok(l)
    }

    /// `text: textToken+ | STR | MD_STR`
    pub(super) fn text(&mut self) -> Res<Label> {
        self.label_tokens(is_text, LabelType::String, &[E_TEXT, E_STR])
    }

    /// A label: one `STR` (typed `quoted`) or `MD_STR` token, or a run of
    /// tokens accepted by `is_part`, concatenated.
    pub(super) fn label_tokens(
        &mut self,
        is_part: fn(Tk) -> bool,
        quoted: LabelType,
        expected: &[&'static str],
    ) -> Res<Label> {
        let start = self.start();
        match self.peek() {
            Tk::Str | Tk::MdStr => {
                let kind = if self.peek() == Tk::Str { quoted } else { LabelType::Markdown };
                let text = self.cur_text().to_string();
                self.i += 1;
                Ok(Label { text, kind, range: (start, self.prev_end()) })
            }
            k if is_part(k) => {
                let mut text = String::new();
                while is_part(self.peek()) {
                    text.push_str(self.cur_text());
                    self.i += 1;
                }
                Ok(Label { text, kind: LabelType::Text, range: (start, self.prev_end()) })
            }
            _ => self.err(expected),
        }
    }

    pub(super) fn link(&mut self) -> Res<Link> {
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
                Ok(Link { token, start: None, id, text, range: (start, self.prev_end()) })
            }
            Tk::StartLink => {
                let st = self.cur_text().to_string();
                self.i += 1;
                let tstart = self.start();
                let text = match self.peek() {
                    Tk::Str | Tk::MdStr => {
                        let kind = if self.peek() == Tk::Str { LabelType::String } else { LabelType::Markdown };
                        let t = self.cur_text().to_string();
                        self.i += 1;
                        Label { text: t, kind, range: (tstart, self.prev_end()) }
                    }
                    Tk::EdgeText | Tk::UnicodeText => {
                        let mut t = String::new();
                        while matches!(self.peek(), Tk::EdgeText | Tk::UnicodeText) {
                            t.push_str(self.cur_text());
                            self.i += 1;
                        }
                        Label { text: t, kind: LabelType::Text, range: (tstart, self.prev_end()) }
                    }
                    _ => return self.err(&["link text"]),
                };
                if self.peek() != Tk::Link {
                    return self.err(&["the end of the link, e.g. '-->'"]);
                }
                let token = self.cur_text().to_string();
                self.i += 1;
                Ok(Link { token, start: Some(st), id, text: Some(text), range: (start, self.prev_end()) })
            }
            _ => self.err(&[E_LINK]),
        }
    }
}

/// jison's `shapeDataStr` action: `\n\s*` becomes `<br/>`.
fn br_newlines(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.char_indices().peekable();
    while let Some((_, c)) = it.next() {
        if c == '\n' {
            out.push_str("<br/>");
            while it.peek().is_some_and(|&(_, c)| crate::mermaid::lexer::js_ws(c)) {
                it.next();
            }
        } else {
            out.push(c);
        }
    }
    out
}
