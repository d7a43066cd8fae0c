//! FlowDB's semantics applied to the syntax tree: vertices created on first
//! mention and refined later, links expanded over `&` groups with mermaid's
//! edge ids, subgraph membership (innermost wins), classes, styles,
//! `linkStyle` by index, and the semantic errors FlowDB throws.

use serde_json::{Map, Value};

use super::ast::{self, Chain, Classic, LinkTargets, Stmt};
use super::entities::decode;
use super::model::*;
use super::shapes;

mod links;
mod meta;
mod names;

pub use links::{LinkInfo, destruct_link};
use meta::*;
pub use names::Fx;
use names::{FxMap, Names};

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
    /// Vertex ids: node index and edge-counter key in one look-up.
    names: Names,
    /// First edge carrying each id (`edges.find(e => e.id === id)`).
    eindex: FxMap<String, usize>,
    /// Whether `eindex` also holds the automatic `L_…` ids (built on the
    /// first look-up of such an id; most charts never need it).
    eindex_full: bool,
    /// Edges so far per (from, to) pair of interned names.
    pair_count: FxMap<(u32, u32), usize>,
    sindex: FxMap<String, usize>,
    cindex: FxMap<String, usize>,
    sub_count: usize,
    max_edges: usize,
    span: &'m dyn Fn(ast::Range) -> Span,
}

fn sem(kind: super::ErrorKind, message: String, range: ast::Range) -> SemErr {
    SemErr { kind, message, range }
}

impl<'m> Builder<'m> {
    pub fn new(max_edges: usize, span: &'m dyn Fn(ast::Range) -> Span) -> Self {
        Builder {
            fc: Flowchart::default(),
            names: Names::default(),
            eindex: FxMap::default(),
            eindex_full: false,
            pair_count: FxMap::default(),
            sindex: FxMap::default(),
            cindex: FxMap::default(),
            sub_count: 0,
            max_edges,
            span,
        }
    }

    /// FlowDB's `edges.find(e => e.id === id)`: the first edge with that id.
    fn edge_by_id(&mut self, id: &str) -> Option<usize> {
        if !self.eindex_full && id.starts_with("L_") {
            for (i, e) in self.fc.edges.iter().enumerate() {
                self.eindex.entry(e.id.clone()).or_insert(i);
            }
            self.eindex_full = true;
        }
        self.eindex.get(id).copied()
    }

    /// Apply the whole document.
    pub fn build(mut self, doc: &ast::Document) -> Res<Flowchart> {
        self.begin(&doc.header, doc.dir.as_deref());
        self.stmts(&doc.stmts, false)?;
        Ok(self.finish())
    }

    /// Start a document: header keyword and direction as written. With
    /// [`Self::stmt`] and [`Self::finish`] this builds the chart one
    /// top-level statement at a time, as the parser yields them.
    pub fn begin(&mut self, header: &str, dir: Option<&str>) {
        self.fc.header = match header {
            "graph" => Header::Graph,
            "flowchart-elk" => Header::FlowchartElk,
            _ => Header::Flowchart,
        };
        self.fc.direction = dir.map_or(Direction::TB, direction);
    }

    /// Apply one top-level statement.
    pub fn stmt(&mut self, s: &Stmt) -> Res<()> {
        self.stmts(std::slice::from_ref(s), false).map(drop)
    }

    /// The chart, once every statement is applied.
    pub fn finish(mut self) -> Flowchart {
        if self.fc.subgraphs.is_empty() {
            return self.fc;
        }
        let known: std::collections::HashSet<String> =
            self.fc.nodes.iter().map(|n| n.id.clone()).chain(self.fc.subgraphs.iter().map(|s| s.id.clone())).collect();
        for sg in &mut self.fc.subgraphs {
            sg.members.retain(|m| known.contains(m));
        }
        self.fc
    }

    /// Statements in order; returns the document items subgraphs collect
    /// (node ids, nested subgraph ids, directions).
    fn stmts(&mut self, stmts: &[Stmt], collect: bool) -> Res<(Vec<String>, Option<Direction>)> {
        let mut items = Vec::new();
        let mut dir = None;
        for s in stmts {
            match s {
                Stmt::Chain(c) => items.extend(self.chain(c, collect)?),
                Stmt::Style { id, range, styles } => {
                    self.add_vertex(id, *range, None, None, Some(styles), None)?;
                }
                Stmt::ClassDef { ids, styles, .. } => self.class_def(ids, styles),
                Stmt::Class { ids, class, .. } => self.set_class(ids, class),
                Stmt::LinkStyle { targets, interpolate, styles, range } => {
                    self.link_style(targets, interpolate.as_deref(), styles.as_deref(), *range)?
                }
                Stmt::Click { id, action, .. } => self.click(id, action),
                Stmt::Subgraph { id, title, body, range } => items.push(self.subgraph(id, title, body, *range)?),
                Stmt::Direction(d) => dir = Some(direction(d)),
                Stmt::AccTitle(t) => self.fc.acc_title = Some(t.clone()),
                Stmt::AccDescr(t) => self.fc.acc_descr = Some(t.clone()),
            }
        }
        Ok((items, dir))
    }

    /// Returns the statement's node list as mermaid builds it (last group
    /// first) when `collect` (inside a subgraph).
    fn chain(&mut self, c: &Chain, collect: bool) -> Res<Vec<String>> {
        let mut prev = self.group(&c.first)?;
        let mut groups: Vec<Vec<(&str, u32)>> = Vec::new();
        for (link, g) in &c.links {
            let ids = self.group(g)?;
            self.add_link(&prev, &ids, link)?;
            if collect {
                groups.push(std::mem::replace(&mut prev, ids));
            } else {
                prev = ids;
            }
        }
        if !collect {
            return Ok(Vec::new());
        }
        groups.push(prev);
        Ok(groups.iter().rev().flatten().map(|(s, _)| s.to_string()).collect())
    }

    /// The group's ids with their interned names (for the edge counters).
    fn group<'g>(&mut self, g: &'g [ast::Vertex]) -> Res<Vec<(&'g str, u32)>> {
        let mut ids = Vec::with_capacity(g.len());
        for v in g {
            let label = v.shape.as_ref().map(|(_, l)| l);
            let shape = v.shape.as_ref().map(|(s, _)| classic(*s));
            let name = self.add_vertex(&v.id, v.range, label, shape, None, None)?;
            if let Some((f, val)) = &v.props
                && let Some(i) = self.names.node_of(name)
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
            ids.push((v.id.as_str(), name));
        }
        for v in g {
            if let Some(meta) = &v.meta {
                self.add_vertex(&v.id, v.range, None, None, None, Some(meta))?;
            }
        }
        Ok(ids)
    }

    /// FlowDB `addVertex`; returns the id's interned name (interned even
    /// when no vertex is made, since links still count it as an endpoint).
    fn add_vertex(
        &mut self,
        id: &str,
        range: ast::Range,
        label: Option<&ast::Label>,
        shape: Option<Shape>,
        styles: Option<&[String]>,
        meta: Option<&(String, ast::Range)>,
    ) -> Res<u32> {
        let name = self.names.intern(id);
        if id.trim().is_empty() {
            return Ok(name);
        }
        let doc = match meta {
            Some((body, r)) => Some(load_meta(body).map_err(|e| sem(super::ErrorKind::BadYaml, e.to_string(), *r))?),
            None => None,
        };
        if let Some(ei) = self.edge_by_id(id) {
            if let Some(Value::Object(d)) = &doc {
                let e = &mut self.fc.edges[ei];
                if let Some(a) = d.get("animate") {
                    e.animation = Some(if a.as_bool() == Some(true) { "default".into() } else { a.to_string() });
                }
                if let Some(a) = d.get("animation").and_then(Value::as_str) {
                    e.animation = Some(a.to_string());
                }
                if let Some(c) = d.get("curve").and_then(Value::as_str) {
                    e.interpolate = Some(c.to_string());
                }
            }
            return Ok(name);
        }
        let i = match self.names.node_of(name) {
            Some(i) => i,
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
                self.names.set_node(name, i);
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
        Ok(name)
    }

    fn class_def(&mut self, ids: &str, styles: &[String]) {
        let joined =
            styles.join(",").replace("\\,", "\u{a7}\u{a7}\u{a7}").replace(',', ";").replace("\u{a7}\u{a7}\u{a7}", ",");
        let parts: Vec<String> = joined.split(';').map(str::to_string).collect();
        for id in ids.split(',') {
            let i = match self.cindex.get(id) {
                Some(&i) => i,
                None => {
                    self.fc.class_defs.push(ClassDef { name: id.to_string(), styles: Vec::new() });
                    self.cindex.insert(id.to_string(), self.fc.class_defs.len() - 1);
                    self.fc.class_defs.len() - 1
                }
            };
            self.fc.class_defs[i].styles.extend(parts.iter().cloned());
        }
    }

    fn set_class(&mut self, ids: &str, class: &str) {
        for id in ids.split(',') {
            if let Some(i) = self.names.node(id) {
                self.fc.nodes[i].classes.push(class.to_string());
            }
            if let Some(i) = self.edge_by_id(id) {
                self.fc.edges[i].classes.push(class.to_string());
            }
            if let Some(&i) = self.sindex.get(id) {
                self.fc.subgraphs[i].classes.push(class.to_string());
            }
        }
    }

    fn click(&mut self, ids: &str, a: &ast::ClickAction) {
        for id in ids.split(',') {
            if let Some(i) = self.names.node(id) {
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
        let (items, dir) = self.stmts(body, true)?;
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
        let in_other: std::collections::HashSet<&str> =
            self.fc.subgraphs.iter().flat_map(|s| s.members.iter().map(String::as_str)).collect();
        let members: Vec<String> = items
            .into_iter()
            .filter(|m| !m.trim().is_empty() && seen.insert(m.clone()) && !in_other.contains(m.as_str()))
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
