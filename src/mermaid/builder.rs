//! FlowDB's semantics applied to the syntax tree: vertices created on first
//! mention and refined later, links expanded over `&` groups with mermaid's
//! edge ids, subgraph membership (innermost wins), classes, styles,
//! `linkStyle` by index, and the semantic errors FlowDB throws.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::ast::{self, Chain, Classic, LinkTargets, Stmt};
use super::entities::decode;
use super::model::*;
use super::shapes;

/// A semantic error: message, error kind and preprocessed byte range.
#[derive(Debug, Clone, PartialEq)]
pub struct SemErr {
    pub kind: super::ErrorKind,
    pub message: String,
    pub range: ast::Range,
}

type Res<T> = Result<T, SemErr>;

/// Builder state (FlowDB's maps, with lookup indexes).
pub struct Builder<'m> {
    fc: Flowchart,
    vindex: HashMap<String, usize>,
    /// First edge carrying each id (`edges.find(e => e.id === id)`).
    eindex: HashMap<String, usize>,
    pair_count: HashMap<(String, String), usize>,
    sindex: HashMap<String, usize>,
    cindex: HashMap<String, usize>,
    sub_count: usize,
    max_edges: usize,
    span: &'m dyn Fn(ast::Range) -> Span,
}

fn sem(kind: super::ErrorKind, message: String, range: ast::Range) -> SemErr {
    SemErr {
        kind,
        message,
        range,
    }
}

impl<'m> Builder<'m> {
    pub fn new(max_edges: usize, span: &'m dyn Fn(ast::Range) -> Span) -> Self {
        Builder {
            fc: Flowchart::default(),
            vindex: HashMap::new(),
            eindex: HashMap::new(),
            pair_count: HashMap::new(),
            sindex: HashMap::new(),
            cindex: HashMap::new(),
            sub_count: 0,
            max_edges,
            span,
        }
    }

    /// Apply the whole document.
    pub fn build(mut self, doc: &ast::Document) -> Res<Flowchart> {
        self.fc.header = match doc.header.as_str() {
            "graph" => Header::Graph,
            "flowchart-elk" => Header::FlowchartElk,
            _ => Header::Flowchart,
        };
        self.fc.direction = doc.dir.as_deref().map_or(Direction::TB, direction);
        self.stmts(&doc.stmts)?;
        let known: std::collections::HashSet<String> = self
            .fc
            .nodes
            .iter()
            .map(|n| n.id.clone())
            .chain(self.fc.subgraphs.iter().map(|s| s.id.clone()))
            .collect();
        for sg in &mut self.fc.subgraphs {
            sg.members.retain(|m| known.contains(m));
        }
        Ok(self.fc)
    }

    /// Statements in order; returns the document items subgraphs collect
    /// (node ids, nested subgraph ids, directions).
    fn stmts(&mut self, stmts: &[Stmt]) -> Res<(Vec<String>, Option<Direction>)> {
        let mut items = Vec::new();
        let mut dir = None;
        for s in stmts {
            match s {
                Stmt::Chain(c) => items.extend(self.chain(c)?),
                Stmt::Style { id, range, styles } => {
                    self.add_vertex(id, *range, None, None, Some(styles), None)?
                }
                Stmt::ClassDef { ids, styles, .. } => self.class_def(ids, styles),
                Stmt::Class { ids, class, .. } => self.set_class(ids, class),
                Stmt::LinkStyle {
                    targets,
                    interpolate,
                    styles,
                    range,
                } => self.link_style(targets, interpolate.as_deref(), styles.as_deref(), *range)?,
                Stmt::Click { id, action, .. } => self.click(id, action),
                Stmt::Subgraph {
                    id,
                    title,
                    body,
                    range,
                } => items.push(self.subgraph(id, title, body, *range)?),
                Stmt::Direction(d) => dir = Some(direction(d)),
                Stmt::AccTitle(t) => self.fc.acc_title = Some(t.clone()),
                Stmt::AccDescr(t) => self.fc.acc_descr = Some(t.clone()),
            }
        }
        Ok((items, dir))
    }

    fn chain(&mut self, c: &Chain) -> Res<Vec<String>> {
        let mut prev: Vec<String> = self.group(&c.first)?;
        let mut nodes = prev.clone();
        for (link, g) in &c.links {
            let ids = self.group(g)?;
            self.add_link(&prev, &ids, link)?;
            let mut n = ids.clone();
            n.extend(nodes);
            nodes = n;
            prev = ids;
        }
        Ok(nodes)
    }

    fn group(&mut self, g: &[ast::Vertex]) -> Res<Vec<String>> {
        let mut ids = Vec::with_capacity(g.len());
        for v in g {
            let label = v.shape.as_ref().map(|(_, l)| l);
            let shape = v.shape.as_ref().map(|(s, _)| classic(*s));
            self.add_vertex(&v.id, v.range, label, shape, None, None)?;
            if let Some((f, val)) = &v.props
                && let Some(&i) = self.vindex.get(&v.id)
            {
                let mut m = Map::new();
                m.insert(f.clone(), Value::String(val.clone()));
                let mut props = Map::new();
                props.insert("props".into(), Value::Object(m));
                super::preprocess::merge(&mut self.fc.nodes[i].extra, &Value::Object(props));
            }
            if let Some(cls) = &v.class {
                self.set_class(&v.id, cls);
            }
            ids.push(v.id.clone());
        }
        for v in g {
            if let Some(meta) = &v.meta {
                self.add_vertex(&v.id, v.range, None, None, None, Some(meta))?;
            }
        }
        Ok(ids)
    }

    /// FlowDB `addVertex`.
    fn add_vertex(
        &mut self,
        id: &str,
        range: ast::Range,
        label: Option<&ast::Label>,
        shape: Option<Shape>,
        styles: Option<&[String]>,
        meta: Option<&(String, ast::Range)>,
    ) -> Res<()> {
        if id.trim().is_empty() {
            return Ok(());
        }
        let doc = match meta {
            Some((body, r)) => {
                Some(load_meta(body).map_err(|m| sem(super::ErrorKind::BadYaml, m, *r))?)
            }
            None => None,
        };
        if let Some(&ei) = self.eindex.get(id) {
            if let Some(Value::Object(d)) = &doc {
                let e = &mut self.fc.edges[ei];
                if let Some(a) = d.get("animate") {
                    e.animation = Some(if a.as_bool() == Some(true) {
                        "default".into()
                    } else {
                        a.to_string()
                    });
                }
                if let Some(a) = d.get("animation").and_then(Value::as_str) {
                    e.animation = Some(a.to_string());
                }
                if let Some(c) = d.get("curve").and_then(Value::as_str) {
                    e.interpolate = Some(c.to_string());
                }
            }
            return Ok(());
        }
        let i = match self.vindex.get(id) {
            Some(&i) => i,
            None => {
                let i = self.fc.nodes.len();
                self.fc.nodes.push(Node {
                    id: id.to_string(),
                    label: id.to_string(),
                    label_type: LabelType::Text,
                    shape: Shape::Rect,
                    classes: Vec::new(),
                    styles: Vec::new(),
                    click: None,
                    extra: Value::Null,
                    span: (self.span)(range),
                });
                self.vindex.insert(id.to_string(), i);
                i
            }
        };
        let n = &mut self.fc.nodes[i];
        if let Some(l) = label {
            let mut t = decode(l.text.trim());
            if t.len() >= 2 && t.starts_with('"') && t.ends_with('"') {
                t = t[1..t.len() - 1].to_string();
            }
            n.label = t;
            n.label_type = l.kind;
        }
        if let Some(s) = shape {
            n.shape = s;
        }
        if let Some(st) = styles {
            n.styles.extend(st.iter().cloned());
        }
        match doc {
            Some(Value::Object(d)) => apply_node_meta(n, d, meta.map_or(range, |m| m.1))?,
            Some(Value::Null) | None => {}
            Some(_) => {
                // `doc.shape` on a non-object is just undefined in JS.
            }
        }
        Ok(())
    }

    /// FlowDB `addLink` over the cartesian product of two groups.
    fn add_link(&mut self, from: &[String], to: &[String], link: &ast::Link) -> Res<()> {
        let info = destruct_link(&link.token, link.start.as_deref());
        let user_id = link.id.as_ref().map(|s| s.replacen('@', "", 1));
        for (i, a) in from.iter().enumerate() {
            for (j, b) in to.iter().enumerate() {
                let id = if i == from.len() - 1 && j == 0 {
                    user_id.clone()
                } else {
                    None
                };
                self.add_single_link(a, b, &info, link, id)?;
            }
        }
        Ok(())
    }

    fn add_single_link(
        &mut self,
        a: &str,
        b: &str,
        info: &LinkInfo,
        link: &ast::Link,
        id: Option<String>,
    ) -> Res<()> {
        let (label, label_type) = match &link.text {
            Some(l) => {
                let mut t = decode(l.text.trim());
                if t.len() >= 2 && t.starts_with('"') && t.ends_with('"') {
                    t = t[1..t.len() - 1].to_string();
                }
                (Some(t), l.kind)
            }
            None => (None, LabelType::Text),
        };
        let key = (a.to_string(), b.to_string());
        let existing = self.pair_count.get(&key).copied().unwrap_or(0);
        let (id, user_id) = match id {
            Some(id) if !id.is_empty() && !self.eindex.contains_key(&id) => (id, true),
            _ => {
                let counter = if existing == 0 { 0 } else { existing + 1 };
                (format!("L_{a}_{b}_{counter}"), false)
            }
        };
        if self.fc.edges.len() >= self.max_edges {
            return Err(sem(
                super::ErrorKind::EdgeLimit,
                format!(
                    "Edge limit exceeded. {} edges found, but the limit is {}.",
                    self.fc.edges.len() + 1,
                    self.max_edges
                ),
                link.range,
            ));
        }
        *self.pair_count.entry(key).or_insert(0) += 1;
        self.eindex.entry(id.clone()).or_insert(self.fc.edges.len());
        self.fc.edges.push(Edge {
            id,
            from: a.to_string(),
            to: b.to_string(),
            label: label.filter(|l| !l.is_empty()),
            label_type,
            stroke: info.stroke,
            head_start: info.head_start,
            head_end: info.head_end,
            length: info.length.min(10) as u8,
            styles: Vec::new(),
            classes: Vec::new(),
            interpolate: self.fc.default_interpolate.clone(),
            animation: None,
            user_id,
            span: (self.span)(link.range),
        });
        Ok(())
    }

    fn class_def(&mut self, ids: &str, styles: &[String]) {
        let joined = styles
            .join(",")
            .replace("\\,", "\u{a7}\u{a7}\u{a7}")
            .replace(',', ";")
            .replace("\u{a7}\u{a7}\u{a7}", ",");
        let parts: Vec<String> = joined.split(';').map(str::to_string).collect();
        for id in ids.split(',') {
            let i = match self.cindex.get(id) {
                Some(&i) => i,
                None => {
                    self.fc.class_defs.push(ClassDef {
                        name: id.to_string(),
                        styles: Vec::new(),
                    });
                    self.cindex
                        .insert(id.to_string(), self.fc.class_defs.len() - 1);
                    self.fc.class_defs.len() - 1
                }
            };
            self.fc.class_defs[i].styles.extend(parts.iter().cloned());
        }
    }

    fn set_class(&mut self, ids: &str, class: &str) {
        for id in ids.split(',') {
            if let Some(&i) = self.vindex.get(id) {
                self.fc.nodes[i].classes.push(class.to_string());
            }
            if let Some(&i) = self.eindex.get(id) {
                self.fc.edges[i].classes.push(class.to_string());
            }
            if let Some(&i) = self.sindex.get(id) {
                self.fc.subgraphs[i].classes.push(class.to_string());
            }
        }
    }

    fn link_style(
        &mut self,
        targets: &LinkTargets,
        interpolate: Option<&str>,
        styles: Option<&[String]>,
        range: ast::Range,
    ) -> Res<()> {
        match targets {
            LinkTargets::Default => {
                if let Some(i) = interpolate {
                    self.fc.default_interpolate = Some(i.to_string());
                }
                if let Some(s) = styles {
                    self.fc.default_link_styles = s.to_vec();
                }
            }
            LinkTargets::Indices(list) => {
                for (text, r) in list {
                    // mermaid indexes `edges[text]`: "01" is not index 1.
                    let idx = text
                        .parse::<usize>()
                        .ok()
                        .filter(|n| n.to_string() == *text);
                    let Some(e) = idx.and_then(|n| self.fc.edges.get_mut(n)) else {
                        let n = self.fc.edges.len();
                        return Err(sem(
                            super::ErrorKind::LinkStyleIndex,
                            format!(
                                "The index {text} for linkStyle is out of bounds. Valid indices for linkStyle are between 0 and {}. (Help: Ensure that the index is within the range of existing edges.)",
                                n as i64 - 1
                            ),
                            if r.0 == r.1 { range } else { *r },
                        ));
                    };
                    if let Some(i) = interpolate {
                        e.interpolate = Some(i.to_string());
                    }
                    if let Some(s) = styles {
                        e.styles = s.to_vec();
                        if !e.styles.is_empty() && !e.styles.iter().any(|s| s.starts_with("fill")) {
                            e.styles.push("fill:none".into());
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn click(&mut self, ids: &str, a: &ast::ClickAction) {
        for id in ids.split(',') {
            if let Some(&i) = self.vindex.get(id) {
                let c = self.fc.nodes[i].click.get_or_insert(Click {
                    href: None,
                    callback: None,
                    args: None,
                    tooltip: None,
                    target: None,
                });
                if a.href.is_some() {
                    c.href = a.href.clone();
                    c.target = a.target.clone().or(c.target.take());
                }
                if a.callback.is_some() {
                    c.callback = a.callback.clone();
                    c.args = a.args.clone();
                }
                if a.tooltip.is_some() {
                    c.tooltip = a.tooltip.as_deref().map(decode);
                }
            }
        }
    }

    fn subgraph(
        &mut self,
        id: &Option<ast::Label>,
        title: &Option<ast::Label>,
        body: &[Stmt],
        range: ast::Range,
    ) -> Res<String> {
        let (items, dir) = self.stmts(body)?;
        let Some(id_l) = id else {
            return Err(sem(
                super::ErrorKind::AnonymousSubgraph,
                "Cannot read properties of undefined (reading 'text'): a subgraph needs an id or title".into(),
                range,
            ));
        };
        let title_l = title.as_ref().unwrap_or(id_l);
        let mut sid = Some(id_l.text.trim().to_string());
        if title.is_none() && id_l.text.chars().any(super::lexer::js_ws) {
            sid = None;
        }
        let sid = sid.unwrap_or_else(|| format!("subGraph{}", self.sub_count));
        self.sub_count += 1;
        let mut seen = std::collections::HashSet::new();
        let in_other: std::collections::HashSet<&str> = self
            .fc
            .subgraphs
            .iter()
            .flat_map(|s| s.members.iter().map(String::as_str))
            .collect();
        let members: Vec<String> = items
            .into_iter()
            .filter(|m| {
                !m.trim().is_empty() && seen.insert(m.clone()) && !in_other.contains(m.as_str())
            })
            .collect();
        if let Some(&i) = self.sindex.get(&sid) {
            // mermaid 12.3 keeps one subgraph per id; a repeated id adds to it.
            let sg = &mut self.fc.subgraphs[i];
            for m in members {
                if !sg.members.contains(&m) {
                    sg.members.push(m);
                }
            }
            if dir.is_some() {
                sg.direction = dir;
            }
            return Ok(sid);
        }
        let idx = self.fc.subgraphs.len();
        self.fc.subgraphs.push(Subgraph {
            id: sid.clone(),
            title: decode(title_l.text.trim()),
            label_type: title_l.kind,
            members,
            direction: dir,
            classes: Vec::new(),
            styles: Vec::new(),
            span: (self.span)(range),
        });
        self.sindex.insert(sid.clone(), idx);
        Ok(sid)
    }
}

fn load_meta(body: &str) -> Result<Value, String> {
    let yaml = if body.contains('\n') {
        format!("{body}\n")
    } else {
        format!("{{\n{body}\n}}")
    };
    super::yaml::load_json(&yaml)
        .map(|v| v.unwrap_or(Value::Null))
        .map_err(|e| format!("YAMLException: {e}"))
}

fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

fn apply_node_meta(n: &mut Node, d: Map<String, Value>, range: ast::Range) -> Result<(), SemErr> {
    if let Some(s) = d.get("shape").filter(|v| truthy(v)) {
        let name = match s {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        n.shape = shapes::lookup(&name).map_err(|m| sem(super::ErrorKind::BadShape, m, range))?;
    }
    if let Some(l) = d.get("label").filter(|v| truthy(v)) {
        n.label = decode(&match l {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
    }
    if let Some(t) = d.get("labelType").and_then(Value::as_str) {
        n.label_type = match t {
            "markdown" => LabelType::Markdown,
            "string" => LabelType::String,
            _ => LabelType::Text,
        };
    }
    let has_label = d
        .get("label")
        .and_then(Value::as_str)
        .is_some_and(|s| !s.trim().is_empty());
    if (d.get("icon").is_some_and(truthy) || d.get("img").is_some_and(truthy))
        && !has_label
        && n.label == n.id
    {
        n.label = String::new();
    }
    let mut extra = Map::new();
    for (k, v) in d {
        if !matches!(k.as_str(), "shape" | "label" | "labelType") {
            extra.insert(k, v);
        }
    }
    if !extra.is_empty() {
        super::preprocess::merge(&mut n.extra, &Value::Object(extra));
    }
    Ok(())
}

fn direction(d: &str) -> Direction {
    let d = d.trim();
    if d.contains('<') || d == "RL" {
        Direction::RL
    } else if d.contains('^') || d == "BT" {
        Direction::BT
    } else if d.contains('>') || d == "LR" {
        Direction::LR
    } else {
        // TB, TD, v and mermaid's stored-as-is `BR` (laid out top-down).
        Direction::TB
    }
}

fn classic(c: Classic) -> Shape {
    match c {
        Classic::Square | Classic::PropsRect => Shape::Rect,
        Classic::Round => Shape::Rounded,
        Classic::Stadium => Shape::Stadium,
        Classic::Subroutine => Shape::FrRect,
        Classic::Cylinder => Shape::Cyl,
        Classic::Circle => Shape::Circle,
        Classic::DoubleCircle => Shape::DblCirc,
        Classic::Ellipse => Shape::Ellipse,
        Classic::Diamond => Shape::Diam,
        Classic::Hexagon => Shape::Hex,
        Classic::Odd => Shape::Odd,
        Classic::LeanRight => Shape::LeanR,
        Classic::LeanLeft => Shape::LeanL,
        Classic::Trapezoid => Shape::TrapB,
        Classic::InvTrapezoid => Shape::TrapT,
    }
}

/// What `destructLink` extracts from the link tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkInfo {
    pub stroke: Stroke,
    pub head_start: ArrowHead,
    pub head_end: ArrowHead,
    pub length: usize,
}

fn head_of(c: char) -> ArrowHead {
    match c {
        'x' => ArrowHead::Cross,
        'o' => ArrowHead::Circle,
        '>' | '<' => ArrowHead::Arrow,
        _ => ArrowHead::None,
    }
}

/// FlowDB `destructLink(link, startLink)`.
pub fn destruct_link(token: &str, start: Option<&str>) -> LinkInfo {
    let s = token.trim();
    let last = s.chars().last().unwrap_or('-');
    let first = s.chars().next().unwrap_or('-');
    let mut line: &str = if s.is_empty() {
        s
    } else {
        &s[..s.len() - last.len_utf8()]
    };
    let mut end = ArrowHead::None;
    let mut begin = ArrowHead::None;
    let double_of = match last {
        'x' => Some('x'),
        '>' => Some('<'),
        'o' => Some('o'),
        _ => None,
    };
    if let Some(d) = double_of {
        end = head_of(last);
        if first == d && !line.is_empty() {
            begin = end;
            line = &line[1..];
        }
    }
    let mut stroke = Stroke::Normal;
    let mut length = line.chars().count().saturating_sub(1);
    if line.starts_with('=') {
        stroke = Stroke::Thick;
    }
    if line.starts_with('~') {
        stroke = Stroke::Invisible;
    }
    let dots = line.matches('.').count();
    if dots > 0 {
        stroke = Stroke::Dotted;
        length = dots;
    }
    let Some(st) = start else {
        return LinkInfo {
            stroke,
            head_start: begin,
            head_end: end,
            length,
        };
    };
    // Inline-label form: the start token decides the start head.
    let st = st.trim();
    let sfirst = st.chars().next().unwrap_or('-');
    let shead = match sfirst {
        '<' | 'x' | 'o' => head_of(sfirst),
        _ => ArrowHead::None,
    };
    let sstroke = if st.contains('.') {
        Stroke::Dotted
    } else if st.contains('=') {
        Stroke::Thick
    } else {
        Stroke::Normal
    };
    if sstroke != stroke || (shead != ArrowHead::None && shead != end) {
        // mermaid's 'INVALID' type: drawn without heads.
        return LinkInfo {
            stroke,
            head_start: ArrowHead::None,
            head_end: ArrowHead::None,
            length,
        };
    }
    LinkInfo {
        stroke,
        head_start: shead,
        head_end: end,
        length,
    }
}
