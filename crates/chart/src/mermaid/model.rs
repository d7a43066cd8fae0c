//! The typed flowchart model: what a Mermaid text *means*, after mermaid's
//! semantic rules (FlowDB) have been applied to the syntax tree.
//!
//! This is the data type that crosses from the front end to every later phase
//! (layout, render, lints, the formatter, the Mermaid condition of the
//! ablation). It is plain data, serializable with serde, with no reference back
//! to the text except [`Span`]s used for diagnostics.
//!
//! Counting rule (checked against mermaid 12.3's own verdicts): `nodes.len()`,
//! `edges.len()` and `subgraphs.len()` equal the numbers of vertices, edges and
//! subgraphs FlowDB reports.

use serde::{Deserialize, Serialize};

/// A whole flowchart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Flowchart {
    /// Overall direction; `TD` is stored as `TB`.
    pub direction: Direction,
    /// Vertices in first-appearance order (mermaid's order; layout and the
    /// formatter rely on it for determinism).
    pub nodes: Vec<Node>,
    /// Edges in definition order; `linkStyle N` indexes into this vector.
    pub edges: Vec<Edge>,
    /// Subgraphs in the order mermaid lists them (innermost closed first).
    pub subgraphs: Vec<Subgraph>,
    /// `classDef` definitions in definition order (`default` included).
    pub class_defs: Vec<ClassDef>,
    /// `linkStyle default …` declarations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub default_link_styles: Vec<String>,
    /// `linkStyle default interpolate X`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_interpolate: Option<String>,
    /// Title from YAML frontmatter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acc_title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acc_descr: Option<String>,
    /// Configuration merged from frontmatter `config:` and `%%{init: …}%%`
    /// directives (later wins), as JSON. Renderers read `theme`,
    /// `flowchart.curve`, `themeVariables`, … from here.
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub config: serde_json::Value,
    /// Which header introduced the chart.
    pub header: Header,
}

/// Header keyword, kept so the formatter can reproduce it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Header {
    #[default]
    Flowchart,
    Graph,
    FlowchartElk,
}

/// Flow direction. Legacy `v`/`>`/`<`/`^` and `TD` are normalised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, Hash)]
pub enum Direction {
    #[default]
    TB,
    BT,
    LR,
    RL,
}

/// Byte range in the (preprocessed-away-nothing) original text, with the
/// 1-based line and column of its start, so lints can point at the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub line: u32,
    pub col: u32,
}

/// How a label's text is to be interpreted when drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, Hash)]
#[serde(rename_all = "lowercase")]
pub enum LabelType {
    /// Unquoted text (may contain `<br>` and HTML).
    #[default]
    Text,
    /// `"quoted"` text.
    String,
    /// ``"`markdown`"`` text: `**bold**`, `_italic_`, newlines break lines.
    Markdown,
}

/// A vertex.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Node {
    pub id: String,
    /// Label with `#entity;` codes already decoded to characters. A node that
    /// never got a label has its id as label (mermaid's rule).
    pub label: String,
    pub label_type: LabelType,
    pub shape: Shape,
    /// Classes from `class`, `:::` and `classDef default` is *not* listed
    /// here (renderers apply `default` to nodes without classes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<String>,
    /// Inline CSS-like declarations from `style id …`, e.g. `fill:#f9f`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub styles: Vec<String>,
    /// `click` interaction, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub click: Option<Click>,
    /// Other `@{ … }` keys (icon, img, form, pos, w, h, constraint) and the
    /// `[|k:v|text]` props, as JSON.
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub extra: serde_json::Value,
    /// Where the node was first mentioned.
    pub span: Span,
}

impl Node {
    /// A node with no classes, styles, click or extra keys: what code that
    /// builds a chart (the drawer, tests) needs, without the parser's extras.
    pub fn new(id: impl Into<String>, label: impl Into<String>, label_type: LabelType, shape: Shape) -> Node {
        Node {
            id: id.into(),
            label: label.into(),
            label_type,
            shape,
            classes: Vec::new(),
            styles: Vec::new(),
            click: None,
            extra: serde_json::Value::Null,
            span: Span::default(),
        }
    }
}

/// Node shapes: the 48 v11 shape definitions plus the classic-only
/// `ellipse` and the extra names mermaid's `isValidShape` accepts.
/// Serialized as mermaid's canonical short name (`fr-rect`, `lean-r`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, Hash, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    #[default]
    Rect,
    Rounded,
    Stadium,
    FrRect,
    Cyl,
    Datastore,
    Circle,
    Bang,
    Cloud,
    Diam,
    Hex,
    LeanR,
    LeanL,
    TrapB,
    TrapT,
    DblCirc,
    Text,
    NotchRect,
    LinRect,
    SmCirc,
    FrCirc,
    Fork,
    Hourglass,
    Brace,
    BraceR,
    Braces,
    Bolt,
    Doc,
    Delay,
    HCyl,
    LinCyl,
    CurvTrap,
    DivRect,
    Tri,
    WinPane,
    FCirc,
    NotchPent,
    FlipTri,
    SlRect,
    Docs,
    StRect,
    BowRect,
    CrossCirc,
    TagDoc,
    TagRect,
    Flag,
    Odd,
    LinDoc,
    /// Classic `A(-text-)` only.
    Ellipse,
    State,
    Choice,
    Note,
    Icon,
    Anchor,
}

/// Line style of a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Stroke {
    #[default]
    Normal,
    Thick,
    Dotted,
    Invisible,
}

/// Marker drawn at one end of a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, Hash)]
#[serde(rename_all = "lowercase")]
pub enum ArrowHead {
    #[default]
    None,
    Arrow,
    Circle,
    Cross,
}

/// An edge. `from`/`to` name a node id or a subgraph id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Edge {
    /// User id (`e1@-->`) or mermaid's automatic `L_<from>_<to>_<n>`.
    pub id: String,
    pub from: String,
    pub to: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    pub label_type: LabelType,
    pub stroke: Stroke,
    /// Head at the `from` end (`<-->`, `o--o`, `x--x`).
    pub head_start: ArrowHead,
    /// Head at the `to` end.
    pub head_end: ArrowHead,
    /// Link length: 1 for `-->`, +1 per extra `-`/`=`/`.` (capped at 10 by mermaid).
    pub length: u8,
    /// `linkStyle` declarations for this edge index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub styles: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<String>,
    /// Curve from `linkStyle N interpolate X` or `id@{ curve: X }`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interpolate: Option<String>,
    /// `id@{ animate: true }` / `animation: fast|slow`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub animation: Option<String>,
    /// Whether `id` was written by the user.
    #[serde(default)]
    pub user_id: bool,
    pub span: Span,
}

/// A subgraph (cluster).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Subgraph {
    pub id: String,
    pub title: String,
    pub label_type: LabelType,
    /// Direct members in order: node ids and ids of directly nested subgraphs.
    /// A node belongs to its innermost subgraph only (mermaid's rule).
    pub members: Vec<String>,
    /// `direction X` inside the subgraph.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<Direction>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub styles: Vec<String>,
    pub span: Span,
}

/// `classDef name decl,decl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClassDef {
    pub name: String,
    pub styles: Vec<String>,
}

/// `click id …`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Click {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub callback: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tooltip: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

impl Shape {
    /// Mermaid's canonical short name, as accepted by `@{ shape: … }`.
    pub fn name(self) -> &'static str {
        use Shape::*;
        match self {
            Rect => "rect",
            Rounded => "rounded",
            Stadium => "stadium",
            FrRect => "fr-rect",
            Cyl => "cyl",
            Datastore => "datastore",
            Circle => "circle",
            Bang => "bang",
            Cloud => "cloud",
            Diam => "diam",
            Hex => "hex",
            LeanR => "lean-r",
            LeanL => "lean-l",
            TrapB => "trap-b",
            TrapT => "trap-t",
            DblCirc => "dbl-circ",
            Text => "text",
            NotchRect => "notch-rect",
            LinRect => "lin-rect",
            SmCirc => "sm-circ",
            FrCirc => "fr-circ",
            Fork => "fork",
            Hourglass => "hourglass",
            Brace => "brace",
            BraceR => "brace-r",
            Braces => "braces",
            Bolt => "bolt",
            Doc => "doc",
            Delay => "delay",
            HCyl => "h-cyl",
            LinCyl => "lin-cyl",
            CurvTrap => "curv-trap",
            DivRect => "div-rect",
            Tri => "tri",
            WinPane => "win-pane",
            FCirc => "f-circ",
            NotchPent => "notch-pent",
            FlipTri => "flip-tri",
            SlRect => "sl-rect",
            Docs => "docs",
            StRect => "st-rect",
            BowRect => "bow-rect",
            CrossCirc => "cross-circ",
            TagDoc => "tag-doc",
            TagRect => "tag-rect",
            Flag => "flag",
            Odd => "odd",
            LinDoc => "lin-doc",
            Ellipse => "ellipse",
            State => "state",
            Choice => "choice",
            Note => "note",
            Icon => "icon",
            Anchor => "anchor",
        }
    }
}

impl Edge {
    /// A plain one-length link `from --- to` (no heads, no label) with the
    /// given id: the base that hand-built charts in tests and benchmarks
    /// adjust with struct-update syntax.
    pub fn new(id: impl Into<String>, from: impl Into<String>, to: impl Into<String>) -> Edge {
        Edge {
            id: id.into(),
            from: from.into(),
            to: to.into(),
            label: None,
            label_type: LabelType::Text,
            stroke: Stroke::Normal,
            head_start: ArrowHead::None,
            head_end: ArrowHead::None,
            length: 1,
            styles: Vec::new(),
            classes: Vec::new(),
            interpolate: None,
            animation: None,
            user_id: false,
            span: Span::default(),
        }
    }
}

impl Flowchart {
    /// Look up a node by id (linear; callers that need many look-ups build
    /// their own index).
    pub fn node(&self, id: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// Look up a subgraph by id.
    pub fn subgraph(&self, id: &str) -> Option<&Subgraph> {
        self.subgraphs.iter().find(|s| s.id == id)
    }
}
