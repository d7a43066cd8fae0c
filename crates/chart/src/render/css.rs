//! `classDef` / `class` / `style` / `linkStyle` declarations → what the SVG
//! writer applies to a shape, its label and its edges.
//!
//! Mermaid passes these straight into CSS; we accept the properties that
//! matter for a static image and drop anything that could escape the `style`
//! attribute, so a chart cannot inject markup into our SVG.

use crate::mermaid::Flowchart;

/// Declarations resolved for one element, split by what they apply to.
/// Later declarations win, as in CSS.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resolved {
    /// Declarations for the shape / path, in order (`fill`, `stroke`, …).
    pub shape: Vec<(String, String)>,
    /// Declarations for the label text (`color` becomes `fill`).
    pub text: Vec<(String, String)>,
}

const SHAPE_PROPS: [&str; 7] =
    ["fill", "stroke", "stroke-width", "stroke-dasharray", "stroke-opacity", "fill-opacity", "opacity"];
const TEXT_PROPS: [&str; 5] = ["font-weight", "font-style", "font-size", "font-family", "text-decoration"];

impl Resolved {
    /// Fold a list of `prop:value` declarations (one declaration per entry,
    /// or several separated by `;` or `,` as mermaid allows in `classDef`).
    pub fn apply(&mut self, decls: &[String]) {
        for decl in decls {
            for part in split_decls(decl) {
                let Some((k, v)) = part.split_once(':') else { continue };
                let k = k.trim().to_ascii_lowercase();
                let v = v.trim().trim_end_matches("!important").trim();
                if !safe_value(v) {
                    continue;
                }
                if k == "color" {
                    set(&mut self.text, "fill", v);
                } else if SHAPE_PROPS.contains(&k.as_str()) {
                    set(&mut self.shape, &k, v);
                } else if TEXT_PROPS.contains(&k.as_str()) {
                    set(&mut self.text, &k, v);
                }
            }
        }
    }

    /// The value of a shape property, if set.
    pub fn shape_value(&self, key: &str) -> Option<&str> {
        self.shape.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The shape declarations as a `style` attribute body.
    pub fn shape_style(&self) -> String {
        join(&self.shape)
    }

    /// The text declarations as a `style` attribute body.
    pub fn text_style(&self) -> String {
        join(&self.text)
    }
}

fn set(list: &mut Vec<(String, String)>, k: &str, v: &str) {
    if let Some(slot) = list.iter_mut().find(|(key, _)| key == k) {
        slot.1 = v.to_string();
    } else {
        list.push((k.to_string(), v.to_string()));
    }
}

fn join(list: &[(String, String)]) -> String {
    let mut s = String::new();
    for (k, v) in list {
        s.push_str(k);
        s.push(':');
        s.push_str(v);
        s.push(';');
    }
    s
}

/// Split `fill:#f9f,stroke:#333;color:red` into declarations. A comma only
/// separates declarations when what follows looks like `name:`; commas inside
/// `rgb(…)` or dash arrays (`stroke-dasharray: 5, 5`) are kept.
fn split_decls(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut depth = 0i32;
    let bytes = s.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b';' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            b',' if depth == 0 && starts_decl(&s[i + 1..]) => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

fn starts_decl(rest: &str) -> bool {
    let rest = rest.trim_start();
    let name_len = rest.chars().take_while(|c| c.is_ascii_alphabetic() || *c == '-').count();
    name_len > 0 && rest[name_len..].trim_start().starts_with(':')
}

fn safe_value(v: &str) -> bool {
    !v.is_empty() && v.len() <= 100 && !v.chars().any(|c| "\"'<>&;{}\\".contains(c))
}

/// Declarations for node `i`: `classDef default`, then its classes in the
/// order they were assigned, then `style` — mermaid's `getCompiledStyles`
/// order, where later declarations win.
pub fn for_node(chart: &Flowchart, i: usize) -> Resolved {
    let node = &chart.nodes[i];
    resolve(chart, &node.classes, &node.styles, true)
}

/// Declarations for subgraph `i`.
pub fn for_cluster(chart: &Flowchart, i: usize) -> Resolved {
    let sg = &chart.subgraphs[i];
    resolve(chart, &sg.classes, &sg.styles, false)
}

/// Declarations for edge `i`: `linkStyle default`, its classes, then
/// `linkStyle i`.
pub fn for_edge(chart: &Flowchart, i: usize) -> Resolved {
    let edge = &chart.edges[i];
    let mut r = Resolved::default();
    r.apply(&chart.default_link_styles);
    for class in &edge.classes {
        if let Some(def) = chart.class_defs.iter().find(|d| d.name == *class) {
            r.apply(&def.styles);
        }
    }
    r.apply(&edge.styles);
    r
}

fn resolve(chart: &Flowchart, classes: &[String], styles: &[String], use_default: bool) -> Resolved {
    let mut r = Resolved::default();
    if use_default && let Some(def) = chart.class_defs.iter().find(|d| d.name == "default") {
        r.apply(&def.styles);
    }
    for class in classes {
        if let Some(def) = chart.class_defs.iter().find(|d| d.name == *class) {
            r.apply(&def.styles);
        }
    }
    r.apply(styles);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_commas_between_declarations_only() {
        let mut r = Resolved::default();
        r.apply(&["fill:#f9f,stroke:rgb(1, 2, 3),stroke-dasharray: 5, 5".into(), "color:#fff".into()]);
        assert_eq!(r.shape_style(), "fill:#f9f;stroke:rgb(1, 2, 3);stroke-dasharray:5, 5;");
        assert_eq!(r.text_style(), "fill:#fff;");
    }

    #[test]
    fn later_wins_and_unsafe_values_dropped() {
        let mut r = Resolved::default();
        r.apply(&["fill:red".into(), "fill:blue".into(), "stroke:x\"/><script".into()]);
        assert_eq!(r.shape_style(), "fill:blue;");
    }
}
