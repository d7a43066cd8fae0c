//! The names `@{ shape: … }` accepts (mermaid's `shapesDefs` short names,
//! aliases and lowercase internal names) and the FlowDB checks on them.

use super::model::Shape;

/// Every accepted `shape:` name and the shape it selects.
pub const SHAPE_NAMES: &[(&str, Shape)] = &[
    ("rect", Shape::Rect),
    ("proc", Shape::Rect),
    ("process", Shape::Rect),
    ("rectangle", Shape::Rect),
    ("rounded", Shape::Rounded),
    ("event", Shape::Rounded),
    ("stadium", Shape::Stadium),
    ("terminal", Shape::Stadium),
    ("pill", Shape::Stadium),
    ("fr-rect", Shape::FrRect),
    ("subprocess", Shape::FrRect),
    ("subproc", Shape::FrRect),
    ("framed-rectangle", Shape::FrRect),
    ("subroutine", Shape::FrRect),
    ("cyl", Shape::Cyl),
    ("db", Shape::Cyl),
    ("database", Shape::Cyl),
    ("cylinder", Shape::Cyl),
    ("datastore", Shape::Datastore),
    ("data-store", Shape::Datastore),
    ("circle", Shape::Circle),
    ("circ", Shape::Circle),
    ("bang", Shape::Bang),
    ("cloud", Shape::Cloud),
    ("diam", Shape::Diam),
    ("decision", Shape::Diam),
    ("diamond", Shape::Diam),
    ("question", Shape::Diam),
    ("hex", Shape::Hex),
    ("hexagon", Shape::Hex),
    ("prepare", Shape::Hex),
    ("lean-r", Shape::LeanR),
    ("lean-right", Shape::LeanR),
    ("in-out", Shape::LeanR),
    ("lean-l", Shape::LeanL),
    ("lean-left", Shape::LeanL),
    ("out-in", Shape::LeanL),
    ("trap-b", Shape::TrapB),
    ("priority", Shape::TrapB),
    ("trapezoid-bottom", Shape::TrapB),
    ("trapezoid", Shape::TrapB),
    ("trap-t", Shape::TrapT),
    ("manual", Shape::TrapT),
    ("trapezoid-top", Shape::TrapT),
    ("inv-trapezoid", Shape::TrapT),
    ("dbl-circ", Shape::DblCirc),
    ("double-circle", Shape::DblCirc),
    ("doublecircle", Shape::DblCirc),
    ("text", Shape::Text),
    ("notch-rect", Shape::NotchRect),
    ("card", Shape::NotchRect),
    ("notched-rectangle", Shape::NotchRect),
    ("lin-rect", Shape::LinRect),
    ("lined-rectangle", Shape::LinRect),
    ("lined-process", Shape::LinRect),
    ("lin-proc", Shape::LinRect),
    ("shaded-process", Shape::LinRect),
    ("sm-circ", Shape::SmCirc),
    ("start", Shape::SmCirc),
    ("small-circle", Shape::SmCirc),
    ("fr-circ", Shape::FrCirc),
    ("stop", Shape::FrCirc),
    ("framed-circle", Shape::FrCirc),
    ("fork", Shape::Fork),
    ("join", Shape::Fork),
    ("hourglass", Shape::Hourglass),
    ("collate", Shape::Hourglass),
    ("brace", Shape::Brace),
    ("comment", Shape::Brace),
    ("brace-l", Shape::Brace),
    ("brace-r", Shape::BraceR),
    ("braces", Shape::Braces),
    ("bolt", Shape::Bolt),
    ("com-link", Shape::Bolt),
    ("lightning-bolt", Shape::Bolt),
    ("doc", Shape::Doc),
    ("document", Shape::Doc),
    ("delay", Shape::Delay),
    ("half-rounded-rectangle", Shape::Delay),
    ("h-cyl", Shape::HCyl),
    ("das", Shape::HCyl),
    ("horizontal-cylinder", Shape::HCyl),
    ("lin-cyl", Shape::LinCyl),
    ("disk", Shape::LinCyl),
    ("lined-cylinder", Shape::LinCyl),
    ("curv-trap", Shape::CurvTrap),
    ("curved-trapezoid", Shape::CurvTrap),
    ("display", Shape::CurvTrap),
    ("div-rect", Shape::DivRect),
    ("div-proc", Shape::DivRect),
    ("divided-rectangle", Shape::DivRect),
    ("divided-process", Shape::DivRect),
    ("tri", Shape::Tri),
    ("extract", Shape::Tri),
    ("triangle", Shape::Tri),
    ("win-pane", Shape::WinPane),
    ("internal-storage", Shape::WinPane),
    ("window-pane", Shape::WinPane),
    ("f-circ", Shape::FCirc),
    ("junction", Shape::FCirc),
    ("filled-circle", Shape::FCirc),
    ("notch-pent", Shape::NotchPent),
    ("loop-limit", Shape::NotchPent),
    ("notched-pentagon", Shape::NotchPent),
    ("flip-tri", Shape::FlipTri),
    ("manual-file", Shape::FlipTri),
    ("flipped-triangle", Shape::FlipTri),
    ("sl-rect", Shape::SlRect),
    ("manual-input", Shape::SlRect),
    ("sloped-rectangle", Shape::SlRect),
    ("docs", Shape::Docs),
    ("documents", Shape::Docs),
    ("st-doc", Shape::Docs),
    ("stacked-document", Shape::Docs),
    ("st-rect", Shape::StRect),
    ("procs", Shape::StRect),
    ("processes", Shape::StRect),
    ("stacked-rectangle", Shape::StRect),
    ("bow-rect", Shape::BowRect),
    ("stored-data", Shape::BowRect),
    ("bow-tie-rectangle", Shape::BowRect),
    ("cross-circ", Shape::CrossCirc),
    ("summary", Shape::CrossCirc),
    ("crossed-circle", Shape::CrossCirc),
    ("tag-doc", Shape::TagDoc),
    ("tagged-document", Shape::TagDoc),
    ("tag-rect", Shape::TagRect),
    ("tagged-rectangle", Shape::TagRect),
    ("tag-proc", Shape::TagRect),
    ("tagged-process", Shape::TagRect),
    ("flag", Shape::Flag),
    ("paper-tape", Shape::Flag),
    ("odd", Shape::Odd),
    ("lin-doc", Shape::LinDoc),
    ("lined-document", Shape::LinDoc),
    ("state", Shape::State),
    ("choice", Shape::Choice),
    ("note", Shape::Note),
    ("icon", Shape::Icon),
    ("anchor", Shape::Anchor),
];

/// A `shape:` value FlowDB refuses, with the message mermaid gives.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnknownShape {
    /// Upper case or `_`: mermaid's names are lower case, `-` separated.
    #[error("No such shape: {0}. Shape names should be lowercase.")]
    NotLowercase(String),
    #[error("No such shape: {0}.")]
    NoSuchShape(String),
}

/// FlowDB's check of a `shape:` value: the shape, or why there is none.
pub fn lookup(name: &str) -> Result<Shape, UnknownShape> {
    if name != name.to_lowercase() || name.contains('_') {
        return Err(UnknownShape::NotLowercase(name.to_string()));
    }
    SHAPE_NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| *s)
        .ok_or_else(|| UnknownShape::NoSuchShape(name.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_refuses_as_flowdb_does() {
        assert_eq!(lookup("rect"), Ok(Shape::Rect));
        let e = lookup("Rect").unwrap_err();
        assert_eq!(e, UnknownShape::NotLowercase("Rect".into()));
        assert_eq!(e.to_string(), "No such shape: Rect. Shape names should be lowercase.");
        assert_eq!(lookup("blob").unwrap_err().to_string(), "No such shape: blob.");
    }
}
