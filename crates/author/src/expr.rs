//! Python expressions as chart labels write them: a tokenizer, a parser for
//! the expression grammar (no statements but simple assignments), and a
//! canonical form so that two conditions or two returned values compare by
//! meaning rather than by spelling: `n > 1` is `1 < n`, `not (a and b)` is
//! `not a or not b`, `len(xs) == 0` and `xs == []` are `not xs`, quotes and
//! parentheses do not matter.
//!
//! The parser is deliberately total over bad input: anything it cannot read
//! is `None`, never a panic, and nesting is bounded.

use std::fmt;

/// A token of Python's expression syntax.
#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Name(String),
    Num(String),
    /// A string literal's content (quotes and prefix dropped; an f-string
    /// keeps its braces as text).
    Str(String),
    Op(String),
}

/// Whether `text` (lowercase, no `_`) is a Python number: an integer in
/// base 2, 8, 10 or 16, or a decimal with a fraction, an exponent or `j`.
fn is_number_literal(text: &str) -> bool {
    let radix = |digits: &str, ok: fn(char) -> bool| !digits.is_empty() && digits.chars().all(ok);
    if let Some(d) = text.strip_prefix("0x") {
        return radix(d, |c| c.is_ascii_hexdigit());
    }
    if let Some(d) = text.strip_prefix("0o") {
        return radix(d, |c| ('0'..='7').contains(&c));
    }
    if let Some(d) = text.strip_prefix("0b") {
        return radix(d, |c| c == '0' || c == '1');
    }
    let text = text.strip_suffix('j').unwrap_or(text);
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |d: &str| d.chars().all(|c| c.is_ascii_digit());
    !(whole.is_empty() && fraction.is_empty())
        && digits(whole)
        && digits(fraction)
        && radix(exponent, |c| c.is_ascii_digit())
}

/// Splits `text` into tokens; `None` on a character Python would not accept
/// or an unterminated string.
pub fn tokenize(text: &str) -> Option<Vec<Tok>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let is_prefix = word.len() <= 2 && word.chars().all(|p| "rRbBfFuU".contains(p));
            if is_prefix && i < chars.len() && (chars[i] == '\'' || chars[i] == '"') {
                let (s, next) = string(&chars, i)?;
                out.push(Tok::Str(s));
                i = next;
            } else {
                out.push(Tok::Name(word));
            }
        } else if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit)) {
            let start = i;
            while i < chars.len() {
                let d = chars[i];
                let exponent_sign =
                    (d == '+' || d == '-') && matches!(chars[i - 1], 'e' | 'E') && !is_hex(&chars[start..i]);
                if d.is_ascii_alphanumeric() || d == '.' || d == '_' || exponent_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            let literal = chars[start..i].iter().filter(|&&d| d != '_').collect::<String>().to_lowercase();
            // `3n` is no number (nor a name): algebra's product, not code.
            if !is_number_literal(&literal) {
                return None;
            }
            out.push(Tok::Num(literal));
        } else if c == '\'' || c == '"' {
            let (s, next) = string(&chars, i)?;
            out.push(Tok::Str(s));
            i = next;
        } else {
            const OPS: [&str; 40] = [
                "**=", "//=", ">>=", "<<=", "...", "**", "//", "==", "!=", "<=", ">=", "->", ":=", "<<", ">>", "+=",
                "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", "+", "-", "*", "/", "%", "@", "<", ">", "=", "&", "|",
                "^", "~", ".", ",", ":",
            ];
            let rest: String = chars[i..chars.len().min(i + 3)].iter().collect();
            if let Some(op) = OPS.iter().find(|op| rest.starts_with(**op)) {
                out.push(Tok::Op((*op).to_owned()));
                i += op.chars().count();
            } else if "()[]{};".contains(c) {
                out.push(Tok::Op(c.to_string()));
                i += 1;
            } else {
                return None;
            }
        }
    }
    Some(out)
}

fn is_hex(digits: &[char]) -> bool {
    digits.len() > 1 && digits[0] == '0' && matches!(digits[1], 'x' | 'X')
}

/// Reads a string literal starting at the quote `chars[at]`: its content and
/// the index after it.
fn string(chars: &[char], at: usize) -> Option<(String, usize)> {
    let q = chars[at];
    let triple = chars.get(at + 1) == Some(&q) && chars.get(at + 2) == Some(&q);
    let mut i = at + if triple { 3 } else { 1 };
    let mut s = String::new();
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && i + 1 < chars.len() {
            s.push(c);
            s.push(chars[i + 1]);
            i += 2;
            continue;
        }
        if c == q && (!triple || (chars.get(i + 1) == Some(&q) && chars.get(i + 2) == Some(&q))) {
            return Some((s, i + if triple { 3 } else { 1 }));
        }
        s.push(c);
        i += 1;
    }
    None
}

/// A parsed expression. Operators are kept as their Python spelling.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Expr {
    Name(String),
    Num(String),
    Str(String),
    Tuple(Vec<Expr>),
    List(Vec<Expr>),
    Set(Vec<Expr>),
    Dict(Vec<(Expr, Expr)>),
    /// `[elt for … in … if …]` and friends: the bracket, the element (a
    /// dict comprehension's `key: value` is a two-element tuple) and the
    /// clauses in order (`for` target/iterable pairs and `if` conditions).
    Comp(char, Box<Expr>, Vec<Clause>),
    Attr(Box<Expr>, String),
    Call(Box<Expr>, Vec<Arg>),
    Index(Box<Expr>, Box<Expr>),
    Slice(Option<Box<Expr>>, Option<Box<Expr>>, Option<Box<Expr>>),
    /// `-`, `+`, `~`, `not`, `*` (starred), `**` (double-starred), `await`.
    Unary(String, Box<Expr>),
    Bin(String, Box<Expr>, Box<Expr>),
    /// A chain `a < b <= c`: the first operand and (operator, operand) pairs.
    Cmp(Box<Expr>, Vec<(String, Expr)>),
    /// `and` / `or` with two or more operands.
    Bool(String, Vec<Expr>),
    IfExp(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Parameters as source text, body.
    Lambda(String, Box<Expr>),
    /// `name := value`.
    Walrus(String, Box<Expr>),
}

/// A comprehension's element and its clauses.
type Comprehension = (Expr, Vec<Clause>);

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Clause {
    For(Expr, Expr),
    If(Expr),
}

/// A call argument: `x`, `k=x`, `*x`, `**x` (the last two as [`Expr::Unary`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Arg {
    pub keyword: Option<String>,
    pub value: Expr,
}

/// Parses a whole expression (a bare tuple `a, b` included).
pub fn parse(text: &str) -> Option<Expr> {
    let toks = tokenize(text)?;
    let mut p = Parser { toks: &toks, at: 0, depth: 0 };
    let e = p.expr_list()?;
    (p.at == toks.len()).then_some(e)
}

/// A simple statement as labels hold them.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    /// `a = b = value` (targets left to right).
    Assign(Vec<Expr>, Expr),
    /// `x += value` (operator without `=`).
    Aug(Expr, String, Expr),
    Expr(Expr),
    /// Anything else Python has (`pass`, `del x`, `import m`, `raise E`,
    /// `return x`, `global x`, `assert x`): its first word.
    Keyword(String),
}

/// Parses one simple statement; `None` when it is not one.
pub fn parse_stmt(text: &str) -> Option<Stmt> {
    let toks = tokenize(text)?;
    if let Some(Tok::Name(w)) = toks.first()
        && matches!(
            w.as_str(),
            "pass"
                | "del"
                | "import"
                | "from"
                | "raise"
                | "return"
                | "global"
                | "nonlocal"
                | "assert"
                | "break"
                | "continue"
        )
    {
        // Their operands are expressions; checking them is not needed to
        // tell code from prose, but they must at least tokenize.
        return Some(Stmt::Keyword(w.clone()));
    }
    let mut p = Parser { toks: &toks, at: 0, depth: 0 };
    let first = p.expr_list()?;
    if p.at == toks.len() {
        return Some(Stmt::Expr(first));
    }
    match p.peek_op() {
        Some("=") => {
            let mut parts = vec![first];
            while p.eat("=") {
                parts.push(p.expr_list()?);
            }
            let value = parts.pop()?;
            let assignable = parts.iter().all(is_target);
            (p.at == toks.len() && !parts.is_empty() && assignable).then_some(Stmt::Assign(parts, value))
        }
        Some(op) if op.len() >= 2 && op.ends_with('=') && !matches!(op, "==" | "!=" | "<=" | ">=") => {
            let op = op.trim_end_matches('=').to_owned();
            p.at += 1;
            let value = p.expr_list()?;
            (p.at == toks.len() && is_target(&first)).then_some(Stmt::Aug(first, op, value))
        }
        // An annotated assignment `x: int = 0`: one name, attribute or
        // item (`lower-cased: t = …` is a lead-in, `lower - cased`).
        Some(":") if matches!(first, Expr::Name(_) | Expr::Attr(..) | Expr::Index(..)) => {
            p.at += 1;
            p.test()?;
            if p.eat("=") {
                let value = p.expr_list()?;
                return (p.at == toks.len()).then_some(Stmt::Assign(vec![first], value));
            }
            (p.at == toks.len()).then_some(Stmt::Keyword("annotation".into()))
        }
        _ => None,
    }
}

/// Whether Python can assign to `e`: a name, a subscript, an attribute, or
/// a tuple or list of those (`i = 0 and j = 1` is no chained assignment).
fn is_target(e: &Expr) -> bool {
    match e {
        Expr::Name(_) | Expr::Index(..) | Expr::Attr(..) => true,
        Expr::Tuple(items) | Expr::List(items) => items.iter().all(is_target),
        Expr::Unary(op, inner) => op == "*" && is_target(inner),
        _ => false,
    }
}

struct Parser<'t> {
    toks: &'t [Tok],
    at: usize,
    depth: usize,
}

const KEYWORDS: [&str; 14] =
    ["and", "or", "not", "in", "is", "if", "else", "for", "lambda", "await", "async", "yield", "from", "import"];

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn peek_op(&self) -> Option<&str> {
        match self.peek() {
            Some(Tok::Op(o)) => Some(o.as_str()),
            _ => None,
        }
    }

    fn peek_word(&self) -> Option<&str> {
        match self.peek() {
            Some(Tok::Name(w)) => Some(w.as_str()),
            _ => None,
        }
    }

    fn eat(&mut self, op: &str) -> bool {
        if self.peek_op() == Some(op) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if self.peek_word() == Some(w) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// `a, b, c` (a tuple when there is a comma).
    fn expr_list(&mut self) -> Option<Expr> {
        let first = self.test_or_star()?;
        if self.peek_op() != Some(",") {
            return Some(first);
        }
        let mut items = vec![first];
        while self.eat(",") {
            if self.ends_list() {
                break;
            }
            items.push(self.test_or_star()?);
        }
        Some(Expr::Tuple(items))
    }

    /// Whether a trailing comma ended the list (`x, = …`, `(a, b,)`).
    fn ends_list(&self) -> bool {
        match self.peek() {
            None => true,
            Some(Tok::Op(o)) => {
                matches!(o.as_str(), ")" | "]" | "}" | "=" | ":")
                    || (o.len() >= 2 && o.ends_with('=') && !matches!(o.as_str(), "==" | "!=" | "<=" | ">="))
            }
            _ => false,
        }
    }

    fn test_or_star(&mut self) -> Option<Expr> {
        if self.eat("*") {
            return Some(Expr::Unary("*".into(), Box::new(self.or_test()?)));
        }
        self.test()
    }

    /// A full expression: lambda, conditional expression, walrus.
    fn test(&mut self) -> Option<Expr> {
        self.depth += 1;
        if self.depth > 200 {
            return None;
        }
        let e = self.test_inner();
        self.depth -= 1;
        e
    }

    fn test_inner(&mut self) -> Option<Expr> {
        if self.eat_word("lambda") {
            let start = self.at;
            loop {
                match self.peek() {
                    None => return None,
                    Some(Tok::Op(o)) if o == ":" => break,
                    _ => self.at += 1,
                }
            }
            let params = render_tokens(&self.toks[start..self.at]);
            if !self.eat(":") {
                return None;
            }
            return Some(Expr::Lambda(params, Box::new(self.test()?)));
        }
        if let (Some(Tok::Name(n)), Some(Tok::Op(o))) = (self.peek(), self.toks.get(self.at + 1))
            && o == ":="
        {
            let n = n.clone();
            self.at += 2;
            return Some(Expr::Walrus(n, Box::new(self.test()?)));
        }
        let body = self.or_test()?;
        if self.eat_word("if") {
            let cond = self.or_test()?;
            if !self.eat_word("else") {
                return None;
            }
            let other = self.test()?;
            return Some(Expr::IfExp(Box::new(cond), Box::new(body), Box::new(other)));
        }
        Some(body)
    }

    fn or_test(&mut self) -> Option<Expr> {
        self.bool_op("or", Self::and_test)
    }

    fn and_test(&mut self) -> Option<Expr> {
        self.bool_op("and", Self::not_test)
    }

    fn bool_op(&mut self, op: &str, next: fn(&mut Self) -> Option<Expr>) -> Option<Expr> {
        let first = next(self)?;
        if self.peek_word() != Some(op) {
            return Some(first);
        }
        let mut items = vec![first];
        while self.eat_word(op) {
            items.push(next(self)?);
        }
        Some(Expr::Bool(op.into(), items))
    }

    fn not_test(&mut self) -> Option<Expr> {
        if self.eat_word("not") {
            self.depth += 1;
            if self.depth > 200 {
                return None;
            }
            let e = self.not_test();
            self.depth -= 1;
            return Some(Expr::Unary("not".into(), Box::new(e?)));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Option<Expr> {
        let first = self.bin(0)?;
        let mut rest = Vec::new();
        loop {
            let op = match (self.peek(), self.toks.get(self.at + 1)) {
                (Some(Tok::Op(o)), _) if matches!(o.as_str(), "<" | ">" | "==" | ">=" | "<=" | "!=") => o.clone(),
                (Some(Tok::Name(w)), _) if w == "in" => "in".into(),
                (Some(Tok::Name(w)), Some(Tok::Name(v))) if w == "not" && v == "in" => "not in".into(),
                (Some(Tok::Name(w)), Some(Tok::Name(v))) if w == "is" && v == "not" => "is not".into(),
                (Some(Tok::Name(w)), _) if w == "is" => "is".into(),
                _ => break,
            };
            self.at += op.split(' ').count();
            rest.push((op, self.bin(0)?));
        }
        Some(if rest.is_empty() { first } else { Expr::Cmp(Box::new(first), rest) })
    }

    /// Binary operators by precedence level, lowest first.
    fn bin(&mut self, level: usize) -> Option<Expr> {
        const LEVELS: [&[&str]; 6] = [&["|"], &["^"], &["&"], &["<<", ">>"], &["+", "-"], &["*", "/", "//", "%", "@"]];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut left = self.bin(level + 1)?;
        while let Some(op) = self.peek_op().filter(|o| LEVELS[level].contains(o)).map(str::to_owned) {
            self.at += 1;
            let right = self.bin(level + 1)?;
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        Some(left)
    }

    fn unary(&mut self) -> Option<Expr> {
        if let Some(op) = self.peek_op().filter(|o| matches!(*o, "-" | "+" | "~")).map(str::to_owned) {
            self.at += 1;
            self.depth += 1;
            if self.depth > 200 {
                return None;
            }
            let e = self.unary();
            self.depth -= 1;
            return Some(Expr::Unary(op, Box::new(e?)));
        }
        self.power()
    }

    fn power(&mut self) -> Option<Expr> {
        let await_ = self.eat_word("await");
        let base = self.primary()?;
        let base = if await_ { Expr::Unary("await".into(), Box::new(base)) } else { base };
        if self.eat("**") {
            let exp = self.unary()?;
            return Some(Expr::Bin("**".into(), Box::new(base), Box::new(exp)));
        }
        Some(base)
    }

    fn primary(&mut self) -> Option<Expr> {
        let mut e = self.atom()?;
        loop {
            if self.eat(".") {
                match self.peek() {
                    Some(Tok::Name(n)) => {
                        e = Expr::Attr(Box::new(e), n.clone());
                        self.at += 1;
                    }
                    _ => return None,
                }
            } else if self.eat("(") {
                e = Expr::Call(Box::new(e), self.args()?);
            } else if self.eat("[") {
                let index = self.subscript()?;
                if !self.eat("]") {
                    return None;
                }
                e = Expr::Index(Box::new(e), Box::new(index));
            } else {
                return Some(e);
            }
        }
    }

    fn args(&mut self) -> Option<Vec<Arg>> {
        let mut args = Vec::new();
        while !self.eat(")") {
            let arg = if self.eat("**") {
                Arg { keyword: None, value: Expr::Unary("**".into(), Box::new(self.test()?)) }
            } else if self.eat("*") {
                Arg { keyword: None, value: Expr::Unary("*".into(), Box::new(self.test()?)) }
            } else if let (Some(Tok::Name(k)), Some(Tok::Op(o))) = (self.peek(), self.toks.get(self.at + 1))
                && o == "="
            {
                let k = k.clone();
                self.at += 2;
                Arg { keyword: Some(k), value: self.test()? }
            } else {
                let value = self.test()?;
                if self.peek_word() == Some("for") {
                    let clauses = self.clauses()?;
                    Arg { keyword: None, value: Expr::Comp('(', Box::new(value), clauses) }
                } else {
                    Arg { keyword: None, value }
                }
            };
            args.push(arg);
            if !self.eat(",") {
                if !self.eat(")") {
                    return None;
                }
                break;
            }
        }
        Some(args)
    }

    fn subscript(&mut self) -> Option<Expr> {
        let mut items = Vec::new();
        loop {
            items.push(self.slice_item()?);
            if !self.eat(",") || self.peek_op() == Some("]") {
                break;
            }
        }
        Some(if items.len() == 1 { items.pop()? } else { Expr::Tuple(items) })
    }

    fn slice_item(&mut self) -> Option<Expr> {
        let bound = |p: &mut Self| -> Option<Option<Box<Expr>>> {
            if matches!(p.peek_op(), Some(":" | "]" | ",")) { Some(None) } else { Some(Some(Box::new(p.test()?))) }
        };
        let lower = bound(self)?;
        if !self.eat(":") {
            return lower.map(|b| *b);
        }
        let upper = bound(self)?;
        let step = if self.eat(":") { bound(self)? } else { None };
        Some(Expr::Slice(lower, upper, step))
    }

    fn clauses(&mut self) -> Option<Vec<Clause>> {
        let mut out = Vec::new();
        loop {
            if self.eat_word("for") {
                let target = self.target_list()?;
                if !self.eat_word("in") {
                    return None;
                }
                out.push(Clause::For(target, self.or_test()?));
            } else if self.eat_word("if") {
                out.push(Clause::If(self.or_test_no_ifexp()?));
            } else {
                return Some(out);
            }
        }
    }

    fn or_test_no_ifexp(&mut self) -> Option<Expr> {
        self.or_test()
    }

    /// A `for` target: names, attributes, subscripts, tuples of them.
    fn target_list(&mut self) -> Option<Expr> {
        let first = self.bin(0)?;
        if self.peek_op() != Some(",") {
            return Some(first);
        }
        let mut items = vec![first];
        while self.eat(",") {
            if self.peek_word() == Some("in") {
                break;
            }
            items.push(self.bin(0)?);
        }
        Some(Expr::Tuple(items))
    }

    fn atom(&mut self) -> Option<Expr> {
        let tok = self.peek()?.clone();
        self.at += 1;
        match tok {
            Tok::Name(n) if KEYWORDS.contains(&n.as_str()) => None,
            Tok::Name(n) => Some(Expr::Name(n)),
            Tok::Num(n) => Some(Expr::Num(n)),
            Tok::Str(mut s) => {
                // Adjacent literals concatenate.
                while let Some(Tok::Str(more)) = self.peek() {
                    s.push_str(more);
                    self.at += 1;
                }
                Some(Expr::Str(s))
            }
            Tok::Op(o) if o == "..." => Some(Expr::Name("...".into())),
            Tok::Op(o) if o == "(" => {
                if self.eat(")") {
                    return Some(Expr::Tuple(Vec::new()));
                }
                self.depth += 1;
                if self.depth > 200 {
                    return None;
                }
                let first = self.test_or_star()?;
                let e = if self.peek_word() == Some("for") {
                    Expr::Comp('(', Box::new(first), self.clauses()?)
                } else if self.peek_op() == Some(",") {
                    let mut items = vec![first];
                    while self.eat(",") {
                        if self.peek_op() == Some(")") {
                            break;
                        }
                        items.push(self.test_or_star()?);
                    }
                    Expr::Tuple(items)
                } else {
                    first
                };
                self.depth -= 1;
                self.eat(")").then_some(e)
            }
            Tok::Op(o) if o == "[" => {
                let (items, comp) = self.display("]")?;
                Some(match comp {
                    Some((elt, clauses)) => Expr::Comp('[', Box::new(elt), clauses),
                    None => Expr::List(items),
                })
            }
            Tok::Op(o) if o == "{" => self.brace(),
            _ => None,
        }
    }

    /// The inside of `[...]` (or `{...}` without colons): items, or a
    /// comprehension's element and clauses.
    fn display(&mut self, close: &str) -> Option<(Vec<Expr>, Option<Comprehension>)> {
        self.depth += 1;
        if self.depth > 200 {
            return None;
        }
        let mut items = Vec::new();
        while !self.eat(close) {
            let e = self.test_or_star()?;
            if items.is_empty() && self.peek_word() == Some("for") {
                let clauses = self.clauses()?;
                self.depth -= 1;
                return self.eat(close).then_some((Vec::new(), Some((e, clauses))));
            }
            items.push(e);
            if !self.eat(",") {
                if !self.eat(close) {
                    return None;
                }
                break;
            }
        }
        self.depth -= 1;
        Some((items, None))
    }

    fn brace(&mut self) -> Option<Expr> {
        if self.eat("}") {
            return Some(Expr::Dict(Vec::new()));
        }
        let start = self.at;
        let first = if self.eat("**") { None } else { Some(self.test()?) };
        if first.is_some() && self.peek_op() != Some(":") {
            self.at = start;
            let (items, comp) = self.display("}")?;
            return Some(match comp {
                Some((elt, clauses)) => Expr::Comp('{', Box::new(elt), clauses),
                None => Expr::Set(items),
            });
        }
        self.at = start;
        let mut pairs = Vec::new();
        while !self.eat("}") {
            if self.eat("**") {
                pairs.push((Expr::Name("**".into()), self.bin(0)?));
            } else {
                let k = self.test()?;
                if !self.eat(":") {
                    return None;
                }
                let v = self.test()?;
                if pairs.is_empty() && self.peek_word() == Some("for") {
                    let clauses = self.clauses()?;
                    return self.eat("}").then_some(Expr::Comp('{', Box::new(Expr::Tuple(vec![k, v])), clauses));
                }
                pairs.push((k, v));
            }
            if !self.eat(",") {
                if !self.eat("}") {
                    return None;
                }
                break;
            }
        }
        Some(Expr::Dict(pairs))
    }
}

/// Tokens back to text with single spaces (for opaque parts like lambda
/// parameters).
fn render_tokens(toks: &[Tok]) -> String {
    toks.iter()
        .map(|t| match t {
            Tok::Name(s) | Tok::Num(s) | Tok::Op(s) => s.clone(),
            Tok::Str(s) => format!("{s:?}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The canonical form of a condition or value: comparisons as `<`/`<=`
/// (operands swapped for `>`/`>=`), chains split into `and`, negations
/// pushed down to the comparisons (De Morgan), `==`/`!=` operands ordered,
/// emptiness and truth tests as truthiness (`len(x) == 0`, `x == ''`,
/// `x == 0`, `x is False` are all `not x`), nested `and`/`or` flattened.
pub fn canon(e: &Expr) -> Expr {
    positive(e)
}

/// `not e`, canonical.
pub fn negate(e: &Expr) -> Expr {
    negative(e)
}

fn positive(e: &Expr) -> Expr {
    match e {
        Expr::Unary(op, inner) if op == "not" => negative(inner),
        Expr::Bool(op, items) => flatten(op, items.iter().map(positive).collect()),
        Expr::Cmp(first, rest) => {
            let mut parts = Vec::new();
            let mut left = (**first).clone();
            for (op, right) in rest {
                parts.push(comparison(&left, op, right));
                left = right.clone();
            }
            if parts.len() == 1 {
                parts.pop().unwrap_or_else(|| Expr::Name("True".into()))
            } else {
                flatten("and", parts)
            }
        }
        Expr::Call(f, args)
            if matches!(&**f, Expr::Name(n) if n == "bool") && args.len() == 1 && args[0].keyword.is_none() =>
        {
            positive(&args[0].value)
        }
        other => deep(other),
    }
}

fn negative(e: &Expr) -> Expr {
    match e {
        Expr::Unary(op, inner) if op == "not" => positive(inner),
        Expr::Bool(op, items) => {
            let dual = if op == "and" { "or" } else { "and" };
            flatten(dual, items.iter().map(negative).collect())
        }
        Expr::Cmp(..) => match positive(e) {
            Expr::Bool(op, items) => {
                let dual = if op == "and" { "or" } else { "and" };
                flatten(dual, items.iter().map(negate_atom).collect())
            }
            atom => negate_atom(&atom),
        },
        other => negate_atom(&positive(other)),
    }
}

/// Negates a canonical atom (a comparison or a truthiness test).
fn negate_atom(atom: &Expr) -> Expr {
    match atom {
        Expr::Cmp(a, rest) if rest.len() == 1 => {
            let (op, b) = &rest[0];
            match op.as_str() {
                // not a < b  ==  b <= a
                "<" => cmp(b, "<=", a),
                "<=" => cmp(b, "<", a),
                "==" => cmp(a, "!=", b),
                "!=" => cmp(a, "==", b),
                "in" => cmp(a, "not in", b),
                "not in" => cmp(a, "in", b),
                "is" => cmp(a, "is not", b),
                "is not" => cmp(a, "is", b),
                _ => Expr::Unary("not".into(), Box::new(atom.clone())),
            }
        }
        Expr::Unary(op, inner) if op == "not" => (**inner).clone(),
        Expr::Bool(..) => negative(atom),
        other => Expr::Unary("not".into(), Box::new(other.clone())),
    }
}

fn cmp(a: &Expr, op: &str, b: &Expr) -> Expr {
    Expr::Cmp(Box::new(a.clone()), vec![(op.to_owned(), b.clone())])
}

/// One comparison in canonical form.
fn comparison(a: &Expr, op: &str, b: &Expr) -> Expr {
    match op {
        ">" => return comparison(b, "<", a),
        ">=" => return comparison(b, "<=", a),
        _ => {}
    }
    let (a, b) = (deep(a), deep(b));
    let empty = |x: &Expr| match x {
        Expr::Str(s) => s.is_empty(),
        Expr::List(v) | Expr::Tuple(v) | Expr::Set(v) => v.is_empty(),
        Expr::Dict(v) => v.is_empty(),
        Expr::Num(n) => n.parse::<f64>().is_ok_and(|v| v == 0.0),
        Expr::Name(n) => n == "False",
        _ => false,
    };
    let truth = |x: &Expr| matches!(x, Expr::Name(n) if n == "True");
    let length_of = |x: &Expr| match x {
        Expr::Call(f, args) if matches!(&**f, Expr::Name(n) if n == "len") && args.len() == 1 => {
            Some(args[0].value.clone())
        }
        _ => None,
    };
    if matches!(op, "==" | "!=" | "is" | "is not") {
        let positive_op = matches!(op, "==" | "is");
        for (x, y) in [(&a, &b), (&b, &a)] {
            if empty(y) && !matches!(y, Expr::Name(n) if n == "None") {
                let subject = length_of(x).unwrap_or_else(|| x.clone());
                return if positive_op { negate_atom(&subject) } else { subject };
            }
            if truth(y) {
                return if positive_op { x.clone() } else { negate_atom(x) };
            }
        }
        // Order the operands of a symmetric test.
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        return cmp(&a, op, &b);
    }
    // `0 < len(x)` / `len(x) > 0` / `1 <= len(x)`: x is non-empty.
    if let Some(x) = length_of(&b) {
        let zero = matches!(&a, Expr::Num(n) if n == "0");
        let one = matches!(&a, Expr::Num(n) if n == "1");
        if (op == "<" && zero) || (op == "<=" && one) {
            return x;
        }
    }
    cmp(&a, op, &b)
}

fn flatten(op: &str, items: Vec<Expr>) -> Expr {
    let mut out = Vec::new();
    for item in items {
        match item {
            Expr::Bool(o, inner) if o == op => out.extend(inner),
            other => out.push(other),
        }
    }
    if out.len() == 1 { out.pop().unwrap_or_else(|| Expr::Name("True".into())) } else { Expr::Bool(op.to_owned(), out) }
}

/// Canonical form of the parts of a non-boolean expression (values keep
/// their shape; conditions inside them are canonical too).
fn deep(e: &Expr) -> Expr {
    let b = |x: &Expr| Box::new(deep(x));
    if let Some(sign) = infinity(e) {
        let inf = Expr::Call(
            Box::new(Expr::Name("float".into())),
            vec![Arg { keyword: None, value: Expr::Str("inf".into()) }],
        );
        return if sign > 0 { inf } else { Expr::Unary("-".into(), Box::new(inf)) };
    }
    match e {
        Expr::Unary(op, inner) if op == "not" => negative(inner),
        Expr::Bool(..) | Expr::Cmp(..) => positive(e),
        Expr::Tuple(v) => Expr::Tuple(v.iter().map(deep).collect()),
        Expr::List(v) => Expr::List(v.iter().map(deep).collect()),
        Expr::Set(v) => Expr::Set(v.iter().map(deep).collect()),
        Expr::Dict(v) => Expr::Dict(v.iter().map(|(k, x)| (deep(k), deep(x))).collect()),
        Expr::Comp(c, elt, clauses) => Expr::Comp(
            *c,
            b(elt),
            clauses
                .iter()
                .map(|cl| match cl {
                    Clause::For(t, i) => Clause::For(deep(t), deep(i)),
                    Clause::If(c) => Clause::If(positive(c)),
                })
                .collect(),
        ),
        Expr::Attr(x, n) => Expr::Attr(b(x), n.clone()),
        Expr::Call(f, args) => {
            Expr::Call(b(f), args.iter().map(|a| Arg { keyword: a.keyword.clone(), value: deep(&a.value) }).collect())
        }
        Expr::Index(x, i) => Expr::Index(b(x), b(i)),
        Expr::Slice(l, u, s) => {
            let o = |x: &Option<Box<Expr>>| x.as_ref().map(|x| b(x));
            Expr::Slice(o(l), o(u), o(s))
        }
        Expr::Unary(op, x) => Expr::Unary(op.clone(), b(x)),
        // A square is written `x ** 2` or `x * x`: one form.
        Expr::Bin(op, l, r) if op == "**" && matches!(&**r, Expr::Num(n) if n == "2") => {
            Expr::Bin("*".into(), b(l), b(l))
        }
        Expr::Bin(op, l, r) => Expr::Bin(op.clone(), b(l), b(r)),
        Expr::IfExp(c, x, y) => Expr::IfExp(Box::new(positive(c)), b(x), b(y)),
        Expr::Lambda(p, x) => Expr::Lambda(p.clone(), b(x)),
        Expr::Walrus(n, x) => Expr::Walrus(n.clone(), b(x)),
        Expr::Name(_) | Expr::Num(_) | Expr::Str(_) => e.clone(),
    }
}

/// `inf`, `math.inf`, `float('inf')`, `float("-inf")`: the sign of the
/// infinity they are.
fn infinity(e: &Expr) -> Option<i8> {
    match e {
        Expr::Name(n) if matches!(n.as_str(), "inf" | "infinity" | "Infinity") => Some(1),
        Expr::Attr(x, n) if n == "inf" && matches!(&**x, Expr::Name(m) if m == "math") => Some(1),
        Expr::Call(f, args) if matches!(&**f, Expr::Name(n) if n == "float") && args.len() == 1 => match &args[0].value
        {
            Expr::Str(s) => match s.trim().to_lowercase().as_str() {
                "inf" | "+inf" | "infinity" => Some(1),
                "-inf" | "-infinity" => Some(-1),
                _ => None,
            },
            _ => None,
        },
        Expr::Unary(op, x) if op == "-" => infinity(x).map(|s| -s),
        _ => None,
    }
}

/// The names an expression reads (identifiers, not attributes).
pub fn names(e: &Expr, out: &mut Vec<String>) {
    let mut visit = |x: &Expr| names(x, out);
    match e {
        Expr::Name(n) => {
            if !out.contains(n) {
                out.push(n.clone());
            }
        }
        Expr::Num(_) | Expr::Str(_) => {}
        Expr::Tuple(v) | Expr::List(v) | Expr::Set(v) | Expr::Bool(_, v) => v.iter().for_each(visit),
        Expr::Dict(v) => v.iter().for_each(|(k, x)| {
            visit(k);
            visit(x);
        }),
        Expr::Comp(_, elt, clauses) => {
            visit(elt);
            for cl in clauses {
                match cl {
                    Clause::For(t, i) => {
                        visit(t);
                        visit(i);
                    }
                    Clause::If(c) => visit(c),
                }
            }
        }
        Expr::Attr(x, _) | Expr::Unary(_, x) | Expr::Lambda(_, x) | Expr::Walrus(_, x) => visit(x),
        Expr::Call(f, args) => {
            visit(f);
            args.iter().for_each(|a| visit(&a.value));
        }
        Expr::Index(x, i) => {
            visit(x);
            visit(i);
        }
        Expr::Slice(l, u, s) => [l, u, s].into_iter().flatten().for_each(|x| visit(x)),
        Expr::Bin(_, l, r) => {
            visit(l);
            visit(r);
        }
        Expr::Cmp(first, rest) => {
            visit(first);
            rest.iter().for_each(|(_, x)| visit(x));
        }
        Expr::IfExp(c, x, y) => {
            visit(c);
            visit(x);
            visit(y);
        }
    }
}

/// Replaces every read of `name` by `value`.
pub fn substitute(e: &Expr, name: &str, value: &Expr) -> Expr {
    let s = |x: &Expr| substitute(x, name, value);
    let b = |x: &Expr| Box::new(substitute(x, name, value));
    match e {
        Expr::Name(n) if n == name => value.clone(),
        Expr::Name(_) | Expr::Num(_) | Expr::Str(_) | Expr::Lambda(..) | Expr::Comp(..) => e.clone(),
        Expr::Tuple(v) => Expr::Tuple(v.iter().map(s).collect()),
        Expr::List(v) => Expr::List(v.iter().map(s).collect()),
        Expr::Set(v) => Expr::Set(v.iter().map(s).collect()),
        Expr::Bool(op, v) => Expr::Bool(op.clone(), v.iter().map(s).collect()),
        Expr::Dict(v) => Expr::Dict(v.iter().map(|(k, x)| (s(k), s(x))).collect()),
        Expr::Attr(x, n) => Expr::Attr(b(x), n.clone()),
        Expr::Call(f, args) => {
            Expr::Call(b(f), args.iter().map(|a| Arg { keyword: a.keyword.clone(), value: s(&a.value) }).collect())
        }
        Expr::Index(x, i) => Expr::Index(b(x), b(i)),
        Expr::Slice(l, u, st) => {
            let o = |x: &Option<Box<Expr>>| x.as_ref().map(|x| b(x));
            Expr::Slice(o(l), o(u), o(st))
        }
        Expr::Unary(op, x) => Expr::Unary(op.clone(), b(x)),
        Expr::Bin(op, l, r) => Expr::Bin(op.clone(), b(l), b(r)),
        Expr::Cmp(first, rest) => Expr::Cmp(b(first), rest.iter().map(|(op, x)| (op.clone(), s(x))).collect()),
        Expr::IfExp(c, x, y) => Expr::IfExp(b(c), b(x), b(y)),
        Expr::Walrus(n, x) => Expr::Walrus(n.clone(), b(x)),
    }
}

impl fmt::Display for Expr {
    /// Python source for the expression (fully parenthesised where
    /// precedence could matter; used in messages and generated code).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[Expr]| v.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        let wrap = |e: &Expr| match e {
            Expr::Name(_)
            | Expr::Num(_)
            | Expr::Str(_)
            | Expr::Call(..)
            | Expr::Index(..)
            | Expr::Attr(..)
            | Expr::List(_)
            | Expr::Dict(_)
            | Expr::Set(_)
            | Expr::Comp(..) => e.to_string(),
            Expr::Tuple(v) if !v.is_empty() => format!("({e})"),
            _ => format!("({e})"),
        };
        match self {
            Expr::Name(n) | Expr::Num(n) => f.write_str(n),
            Expr::Str(s) => write!(f, "'{}'", s.replace('\'', "\\'")),
            Expr::Tuple(v) if v.len() == 1 => write!(f, "{},", v[0]),
            Expr::Tuple(v) if v.is_empty() => f.write_str("()"),
            Expr::Tuple(v) => f.write_str(&list(v)),
            Expr::List(v) => write!(f, "[{}]", list(v)),
            Expr::Set(v) => write!(f, "{{{}}}", list(v)),
            Expr::Dict(v) => {
                let items: Vec<String> = v.iter().map(|(k, x)| format!("{k}: {x}")).collect();
                write!(f, "{{{}}}", items.join(", "))
            }
            Expr::Comp(c, elt, clauses) => {
                let close = match c {
                    '[' => ']',
                    '{' => '}',
                    _ => ')',
                };
                let elt = match (&**elt, c) {
                    (Expr::Tuple(kv), '{') if kv.len() == 2 => format!("{}: {}", kv[0], kv[1]),
                    (e, _) => wrap(e),
                };
                let cls: Vec<String> = clauses
                    .iter()
                    .map(|cl| match cl {
                        Clause::For(t, i) => format!("for {t} in {}", wrap(i)),
                        Clause::If(x) => format!("if {}", wrap(x)),
                    })
                    .collect();
                write!(f, "{c}{elt} {}{close}", cls.join(" "))
            }
            Expr::Attr(x, n) => write!(f, "{}.{n}", wrap(x)),
            Expr::Call(func, args) => {
                let args: Vec<String> = args
                    .iter()
                    .map(|a| match &a.keyword {
                        Some(k) => format!("{k}={}", a.value),
                        None => a.value.to_string(),
                    })
                    .collect();
                write!(f, "{}({})", wrap(func), args.join(", "))
            }
            Expr::Index(x, i) => write!(f, "{}[{i}]", wrap(x)),
            Expr::Slice(l, u, s) => {
                let o = |x: &Option<Box<Expr>>| x.as_ref().map(|x| x.to_string()).unwrap_or_default();
                match s {
                    Some(_) => write!(f, "{}:{}:{}", o(l), o(u), o(s)),
                    None => write!(f, "{}:{}", o(l), o(u)),
                }
            }
            Expr::Unary(op, x) if op == "not" || op == "await" => write!(f, "{op} {}", wrap(x)),
            Expr::Unary(op, x) => write!(f, "{op}{}", wrap(x)),
            Expr::Bin(op, l, r) => write!(f, "{} {op} {}", wrap(l), wrap(r)),
            Expr::Cmp(first, rest) => {
                write!(f, "{}", wrap(first))?;
                for (op, x) in rest {
                    write!(f, " {op} {}", wrap(x))?;
                }
                Ok(())
            }
            Expr::Bool(op, v) => {
                let parts: Vec<String> = v.iter().map(wrap).collect();
                f.write_str(&parts.join(&format!(" {op} ")))
            }
            Expr::IfExp(c, x, y) => write!(f, "{} if {} else {}", wrap(x), wrap(c), wrap(y)),
            Expr::Lambda(p, x) => write!(f, "lambda {p}: {x}"),
            Expr::Walrus(n, x) => write!(f, "{n} := {}", wrap(x)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: &str, b: &str) -> bool {
        canon(&parse(a).unwrap()) == canon(&parse(b).unwrap())
    }

    #[test]
    fn conditions_compare_by_meaning() {
        assert!(same("n > 1", "1 < n"));
        assert!(same("x >= y", "not x < y") || same("x >= y", "y <= x"));
        assert!(same("not (a and b)", "not a or not b"));
        assert!(same("len(xs) == 0", "not xs"));
        assert!(same("result == \"\"", "not result"));
        assert!(same("stack", "len(stack) > 0"));
        assert!(same("first > x > second", "x < first and second < x"));
        assert!(same("'a' <= ch <= 'z'", "\"a\" <= ch and ch <= \"z\""));
        assert!(same("n % d == 0", "not n % d"));
        assert!(same("old_r != 1", "not old_r == 1"));
        assert!(same("found is True", "found"));
        assert!(same("second == -inf", "second == float('-inf')"));
        assert!(same("x < math.inf", "x < float(\"inf\")"));
        assert!(same("(d) ** 2 <= n", "d * d <= n"));
        assert!(!same("d ** 3 <= n", "d * d <= n"));
        assert!(!same("i < n", "i <= n"));
        assert!(!same("x > 0", "x < 0"));
        assert_eq!(canon(&parse("not (i < n)").unwrap()), canon(&parse("n <= i").unwrap()));
        assert_eq!(negate(&parse("a != b and c").unwrap()), canon(&parse("a == b or not c").unwrap()));
    }

    #[test]
    fn parses_what_labels_hold() {
        for text in [
            "sum(x for x in xs if x % 2 == 0)",
            "{k: v for k, v in d.items()}",
            "sorted(items, key=lambda m: m[0])",
            "a[1:-1:2]",
            "f(*args, **kw)",
            "x if c else y",
            "[row[:] for row in grid]",
            "{')': '(', ']': '['}",
            "10**9 + 7",
            "not (0 <= r < rows and 0 <= c < cols)",
            "(n := len(xs)) > 2",
            "x[::-1]",
            "f'{a}-{b}'",
            "1e-9",
            "0x1F",
        ] {
            assert!(parse(text).is_some(), "{text}");
        }
        for prose in ["Sort meetings by start time", "Append total to result", "x ==", "(a"] {
            assert!(parse(prose).is_none(), "{prose}");
        }
    }

    #[test]
    fn statements() {
        assert!(matches!(parse_stmt("x, y = y, x % y"), Some(Stmt::Assign(t, _)) if t.len() == 1));
        assert!(matches!(parse_stmt("a = b = 0"), Some(Stmt::Assign(t, _)) if t.len() == 2));
        assert!(matches!(parse_stmt("total += d"), Some(Stmt::Aug(_, op, _)) if op == "+"));
        assert!(matches!(parse_stmt("result.append(total)"), Some(Stmt::Expr(_))));
        assert!(matches!(parse_stmt("count: int = 0"), Some(Stmt::Assign(..))));
        assert!(parse_stmt("Swap a and b").is_none());
    }

    #[test]
    fn hostile_input_is_none_not_a_panic() {
        let deep = "(".repeat(5000) + &")".repeat(5000);
        assert!(parse(&deep).is_none());
        let nots = "not ".repeat(5000) + "x";
        assert!(parse(&nots).is_none());
        assert!(parse("'unterminated").is_none());
        assert!(parse("a $ b").is_none());
    }

    #[test]
    fn display_reads_back() {
        for text in ["a + b * c", "(a + b) * c", "f(x, k=1)", "not (a or b)", "x[i - 1]", "[x for x in xs if x]"] {
            let e = parse(text).unwrap();
            assert_eq!(parse(&e.to_string()).unwrap(), e, "{text} -> {e}");
        }
    }
}
