//! The other statements: `style`, `classDef`, `class`, `linkStyle`,
//! `click` and `subgraph`.

use super::*;

impl Parser<'_> {
    pub(super) fn style_parts(&mut self) -> Res<Vec<String>> {
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

    pub(super) fn style_stmt(&mut self) -> Res<Stmt> {
        self.i += 1;
        self.expect(Tk::Space, E_SPACE)?;
        let (id, range) = self.id_string()?;
        self.expect(Tk::Space, E_SPACE)?;
        let styles = self.style_parts()?;
        Ok(Stmt::Style { id, range, styles })
    }

    pub(super) fn class_def(&mut self) -> Res<Stmt> {
        self.i += 1;
        self.expect(Tk::Space, E_SPACE)?;
        let (ids, range) = self.id_string()?;
        self.expect(Tk::Space, E_SPACE)?;
        let styles = self.style_parts()?;
        Ok(Stmt::ClassDef { ids, range, styles })
    }

    pub(super) fn class_stmt(&mut self) -> Res<Stmt> {
        self.i += 1;
        self.expect(Tk::Space, E_SPACE)?;
        let (ids, range) = self.id_string()?;
        self.expect(Tk::Space, E_SPACE)?;
        let (class, _) = self.id_string()?;
        Ok(Stmt::Class { ids, range, class })
    }

    pub(super) fn alpha_num(&mut self) -> Res<String> {
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

    pub(super) fn link_style(&mut self) -> Res<Stmt> {
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
            if self.eat(Tk::Space) { Some(self.style_parts()?) } else { None }
        } else {
            Some(self.style_parts()?)
        };
        Ok(Stmt::LinkStyle { targets, interpolate, styles, range: (start, self.prev_end()) })
    }

    pub(super) fn str_tok(&mut self) -> Res<String> {
        if self.peek() != Tk::Str {
            return self.err(&[E_STR]);
        }
        let s = self.cur_text().to_string();
        self.i += 1;
        Ok(s)
    }

    pub(super) fn click(&mut self) -> Res<Stmt> {
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
        Ok(Stmt::Click { id, range, action: a })
    }

    /// Subgraph title: like [`Self::text`] but without tag tokens, and a
    /// quoted title counts as plain text (FlowDB's rule for titles).
    pub(super) fn text_no_tags(&mut self) -> Res<Label> {
        self.label_tokens(is_text_no_tags, LabelType::Text, &["a subgraph id or title"])
    }

    pub(super) fn subgraph(&mut self) -> Res<Stmt> {
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
        Ok(Stmt::Subgraph { id, title, body, range: (start, self.prev_end()) })
    }
}
