//! Mapping a wrong `@{ shape: … }` name to one mermaid accepts (P13).

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

/// Whether mermaid accepts `name` as a shape: one table,
/// [`super::shapes::SHAPE_NAMES`], serves the parser and the fixer.
pub(crate) fn is_valid_shape(name: &str) -> bool {
    super::shapes::SHAPE_NAMES.iter().any(|(n, _)| *n == name)
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
        assert_eq!(crate::mermaid::shapes::SHAPE_NAMES.len(), 140);
        assert_eq!(canonical_shape("lean_right").as_deref(), Some("lean-r"));
        assert_eq!(canonical_shape("squareRect").as_deref(), Some("rect"));
        assert_eq!(canonical_shape("docs").as_deref(), Some("docs"));
        assert_eq!(canonical_shape("this-shape-does-not-exist").as_deref(), Some("rect"));
    }
}
