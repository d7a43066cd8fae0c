//! Mapping a wrong `@{ shape: … }` name to one mermaid accepts (P13).

/// The 140 names mermaid 12.3's `isValidShape` accepts (features.md §5a).
const NAMES: &[&str] = &[
    "rect",
    "proc",
    "process",
    "rectangle",
    "rounded",
    "event",
    "stadium",
    "terminal",
    "pill",
    "fr-rect",
    "subprocess",
    "subproc",
    "framed-rectangle",
    "subroutine",
    "cyl",
    "db",
    "database",
    "cylinder",
    "datastore",
    "data-store",
    "circle",
    "circ",
    "bang",
    "cloud",
    "diam",
    "decision",
    "diamond",
    "question",
    "hex",
    "hexagon",
    "prepare",
    "lean-r",
    "lean-right",
    "in-out",
    "lean-l",
    "lean-left",
    "out-in",
    "trap-b",
    "priority",
    "trapezoid-bottom",
    "trapezoid",
    "trap-t",
    "manual",
    "trapezoid-top",
    "inv-trapezoid",
    "dbl-circ",
    "double-circle",
    "text",
    "notch-rect",
    "card",
    "notched-rectangle",
    "lin-rect",
    "lined-rectangle",
    "lined-process",
    "lin-proc",
    "shaded-process",
    "sm-circ",
    "start",
    "small-circle",
    "fr-circ",
    "stop",
    "framed-circle",
    "fork",
    "join",
    "hourglass",
    "collate",
    "brace",
    "comment",
    "brace-l",
    "brace-r",
    "braces",
    "bolt",
    "com-link",
    "lightning-bolt",
    "doc",
    "document",
    "delay",
    "half-rounded-rectangle",
    "h-cyl",
    "das",
    "horizontal-cylinder",
    "lin-cyl",
    "disk",
    "lined-cylinder",
    "curv-trap",
    "curved-trapezoid",
    "display",
    "div-rect",
    "div-proc",
    "divided-rectangle",
    "divided-process",
    "tri",
    "extract",
    "triangle",
    "win-pane",
    "internal-storage",
    "window-pane",
    "f-circ",
    "junction",
    "filled-circle",
    "notch-pent",
    "loop-limit",
    "notched-pentagon",
    "flip-tri",
    "manual-file",
    "flipped-triangle",
    "sl-rect",
    "manual-input",
    "sloped-rectangle",
    "docs",
    "documents",
    "st-doc",
    "stacked-document",
    "st-rect",
    "procs",
    "processes",
    "stacked-rectangle",
    "bow-rect",
    "stored-data",
    "bow-tie-rectangle",
    "cross-circ",
    "summary",
    "crossed-circle",
    "tag-doc",
    "tagged-document",
    "tag-rect",
    "tagged-rectangle",
    "tag-proc",
    "tagged-process",
    "flag",
    "paper-tape",
    "odd",
    "lin-doc",
    "lined-document",
    "state",
    "choice",
    "note",
    "icon",
    "anchor",
    "doublecircle",
];

/// Internal camelCase/underscore names (rejected by mermaid) and close
/// misspellings, with the accepted name they mean.
const ALIASES: &[(&str, &str)] = &[
    ("squarerect", "rect"),
    ("roundedrect", "rounded"),
    ("lean-right", "lean-r"),
    ("lean-left", "lean-l"),
    ("inv-trapezoid", "trap-t"),
    ("rect-left-inv-arrow", "odd"),
    ("statestart", "sm-circ"),
    ("stateend", "fr-circ"),
    ("forkjoin", "fork"),
    ("ellipse", "stadium"),
    ("square", "rect"),
    ("round", "rounded"),
    ("rhombus", "diam"),
    ("parallelogram", "lean-r"),
    ("asymmetric", "odd"),
    ("doublecircle", "dbl-circ"),
];

/// Whether mermaid accepts `name` as a shape.
pub(crate) fn is_valid_shape(name: &str) -> bool {
    NAMES.contains(&name)
}

/// The accepted name for `value`: itself when valid, its lower-case
/// `-`-separated form or alias, else `rect` (the default shape, so an
/// unknown shape keeps the node and its label).
pub(crate) fn canonical_shape(value: &str) -> Option<String> {
    let v = value.trim_matches(['"', '\'']);
    if is_valid_shape(v) {
        return Some(v.to_string());
    }
    let mut norm = String::new();
    for (i, c) in v.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 && !norm.ends_with('-') {
            norm.push('-');
        }
        norm.push(if c == '_' || c == ' ' { '-' } else { c.to_ascii_lowercase() });
    }
    let flat = norm.replace('-', "");
    if let Some((_, to)) = ALIASES.iter().find(|(from, _)| *from == norm || from.replace('-', "") == flat) {
        return Some((*to).to_string());
    }
    if is_valid_shape(&norm) {
        return Some(norm);
    }
    Some("rect".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_internal_names() {
        assert_eq!(NAMES.len(), 140);
        assert_eq!(canonical_shape("lean_right").as_deref(), Some("lean-r"));
        assert_eq!(canonical_shape("squareRect").as_deref(), Some("rect"));
        assert_eq!(canonical_shape("docs").as_deref(), Some("docs"));
        assert_eq!(canonical_shape("this-shape-does-not-exist").as_deref(), Some("rect"));
    }
}
