//! The syntax tree produced by [`super::parser`]: statements as written, with
//! byte ranges into the *preprocessed* text (the builder maps them back to
//! the original). No mermaid semantics are applied here.

use super::model::LabelType;

/// A byte range in the preprocessed text.
pub type Range = (u32, u32);

/// A label as written: text (quotes removed) and how it was quoted.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    pub text: String,
    pub kind: LabelType,
    pub range: Range,
}

/// Classic bracket shapes, named after FlowDB's vertex types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Classic {
    Square,
    Round,
    Stadium,
    Subroutine,
    Cylinder,
    Circle,
    DoubleCircle,
    Ellipse,
    Diamond,
    Hexagon,
    Odd,
    LeanRight,
    LeanLeft,
    Trapezoid,
    InvTrapezoid,
    /// `[|field:value|text]`.
    PropsRect,
}

/// One vertex mention (`id`, `id[text]`, `id:::cls`, …).
#[derive(Debug, Clone, PartialEq)]
pub struct Vertex {
    pub id: String,
    pub range: Range,
    pub shape: Option<(Classic, Label)>,
    /// `[|field:value|text]` props.
    pub props: Option<(String, String)>,
    /// `:::class`.
    pub class: Option<String>,
    /// `@{ … }` body, as mermaid concatenates it.
    pub meta: Option<(String, Range)>,
}

/// A link between two node groups.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The `LINK` token text (e.g. ` --> `).
    pub token: String,
    /// The `START_LINK` text for the inline label form (`-- text -->`).
    pub start: Option<String>,
    /// `e1@` edge id, with the `@`.
    pub id: Option<String>,
    pub text: Option<Label>,
    pub range: Range,
}

/// A vertex statement: a node group followed by `link group` pairs.
#[derive(Debug, Clone, PartialEq)]
pub struct Chain {
    pub first: Vec<Vertex>,
    pub links: Vec<(Link, Vec<Vertex>)>,
}

/// `linkStyle` targets.
#[derive(Debug, Clone, PartialEq)]
pub enum LinkTargets {
    Default,
    /// Index texts as written (mermaid indexes with the string).
    Indices(Vec<(String, Range)>),
}

/// `click` actions, as the grammar distinguishes them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ClickAction {
    pub callback: Option<String>,
    pub args: Option<String>,
    pub href: Option<String>,
    pub tooltip: Option<String>,
    pub target: Option<String>,
}

/// A statement.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    Chain(Chain),
    Style {
        id: String,
        range: Range,
        styles: Vec<String>,
    },
    ClassDef {
        ids: String,
        range: Range,
        styles: Vec<String>,
    },
    Class {
        ids: String,
        range: Range,
        class: String,
    },
    LinkStyle {
        targets: LinkTargets,
        interpolate: Option<String>,
        styles: Option<Vec<String>>,
        range: Range,
    },
    Click {
        id: String,
        range: Range,
        action: ClickAction,
    },
    /// `subgraph`; `id` is `None` for the anonymous form; `title` is the
    /// bracketed title of `subgraph id[title]`.
    Subgraph {
        id: Option<Label>,
        title: Option<Label>,
        body: Vec<Stmt>,
        range: Range,
    },
    /// `direction XX` (value `TB`, `BT`, `RL`, `LR` or `TD`).
    Direction(&'static str),
    AccTitle(String),
    AccDescr(String),
}

/// A parsed document.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// Header keyword as written (`graph`, `flowchart`, `flowchart-elk`).
    pub header: String,
    /// Direction token text, trimmed; `None` for `NODIR`.
    pub dir: Option<String>,
    pub stmts: Vec<Stmt>,
}
