//! `@{ … }` metadata (YAML) on nodes, and small FlowDB conversions.

use super::*;

/// `@{ … }` metadata that is not YAML, as mermaid reports it.
#[derive(Debug, thiserror::Error)]
#[error("YAMLException: {0}")]
pub(super) struct MetaError(crate::mermaid::yaml::YamlError);

pub(super) fn load_meta(body: &str) -> Result<Value, MetaError> {
    let yaml = if body.contains('\n') { format!("{body}\n") } else { format!("{{\n{body}\n}}") };
    crate::mermaid::yaml::load_json(&yaml).map(|v| v.unwrap_or(Value::Null)).map_err(MetaError)
}

pub(super) fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

pub(super) fn apply_node_meta(n: &mut Node, d: Map<String, Value>, range: ast::Range) -> Result<(), SemErr> {
    if let Some(s) = d.get("shape").filter(|v| truthy(v)) {
        let name = match s {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        n.shape = shapes::lookup(&name).map_err(|e| sem(crate::mermaid::ErrorKind::BadShape, e.to_string(), range))?;
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
    let has_label = d.get("label").and_then(Value::as_str).is_some_and(|s| !s.trim().is_empty());
    if (d.get("icon").is_some_and(truthy) || d.get("img").is_some_and(truthy)) && !has_label && n.label == n.id {
        n.label = String::new();
    }
    let mut extra = Map::new();
    for (k, v) in d {
        if !matches!(k.as_str(), "shape" | "label" | "labelType") {
            extra.insert(k, v);
        }
    }
    if !extra.is_empty() {
        crate::mermaid::preprocess::merge(&mut n.extra, &Value::Object(extra));
    }
    Ok(())
}

pub(super) fn direction(d: &str) -> Direction {
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

pub(super) fn classic(c: Classic) -> Shape {
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
