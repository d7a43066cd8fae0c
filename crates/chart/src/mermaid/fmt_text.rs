//! Writing labels and node shapes as Mermaid source: the escaping half of the
//! formatter. Labels in the model are decoded text; here they are turned back
//! into the form mermaid's lexer reads as the same text and the same
//! [`LabelType`] (quoted labels stay quoted, unquoted ones stay unquoted with
//! `#entity;` codes for the characters the unquoted form cannot hold).

use super::model::{LabelType, Node, Shape};

/// Mermaid's keywords that cannot start an id (features.md §3).
pub(crate) const KEYWORDS: &[&str] = &[
    "graph",
    "flowchart",
    "flowchart-elk",
    "subgraph",
    "end",
    "style",
    "linkStyle",
    "interpolate",
    "classDef",
    "class",
    "click",
    "href",
    "call",
    "_self",
    "_blank",
    "_parent",
    "_top",
    "direction",
    "default",
    "accTitle",
    "accDescr",
];

/// Whether `id` is a keyword or starts with one followed by a character that
/// ends a keyword token (so mermaid would lex the keyword).
pub(crate) fn is_keyword_prefixed(id: &str) -> bool {
    KEYWORDS
        .iter()
        .any(|k| id.strip_prefix(k).is_some_and(|rest| rest.is_empty() || rest.starts_with(['-', '.', '/', ':'])))
}

/// Bracket pair of the classic syntax for a shape, if it has one.
pub(crate) fn classic_brackets(shape: Shape) -> Option<(&'static str, &'static str)> {
    Some(match shape {
        Shape::Rect => ("[", "]"),
        Shape::Rounded => ("(", ")"),
        Shape::Stadium => ("([", "])"),
        Shape::FrRect => ("[[", "]]"),
        Shape::Cyl => ("[(", ")]"),
        Shape::Circle => ("((", "))"),
        Shape::DblCirc => ("(((", ")))"),
        Shape::Odd => (">", "]"),
        Shape::Diam => ("{", "}"),
        Shape::Hex => ("{{", "}}"),
        Shape::LeanR => ("[/", "/]"),
        Shape::LeanL => ("[\\", "\\]"),
        Shape::TrapB => ("[/", "\\]"),
        Shape::TrapT => ("[\\", "/]"),
        Shape::Ellipse => ("(-", "-)"),
        _ => return None,
    })
}

/// A node as written at its first mention: bare id, classic brackets, or
/// the `@{ shape: … }` form for shapes without brackets.
pub(crate) fn node_shape(n: &Node) -> String {
    let plain_label = n.label == n.id && n.label_type == LabelType::Text;
    if n.shape == Shape::Rect && plain_label && n.extra.is_null() {
        return n.id.clone();
    }
    if let Some((field, value)) = single_prop(n) {
        // `B[|borders:lt|text]`
        return format!("{}[|{field}:{value}|{}]", n.id, label_source(&n.label, n.label_type, "[|"));
    }
    // Bracketed labels are trimmed when read: labels with blanks at either end
    // (or, unquoted, a newline) go through `@{ label: … }`, which keeps them.
    // (`ellipse` has no `@{}` name, so it always keeps its brackets.)
    let untrimmed = n.label_type != LabelType::Markdown
        && n.shape != Shape::Ellipse
        && (n.label.trim() != n.label || (n.label_type == LabelType::Text && n.label.contains('\n')));
    match classic_brackets(n.shape) {
        Some((open, close)) if n.extra.is_null() && !untrimmed => {
            format!("{}{open}{}{close}", n.id, label_source(&n.label, n.label_type, open))
        }
        _ => {
            let mut keys = vec![format!("shape: {}", n.shape.name())];
            if !plain_label {
                keys.push(format!("label: \"{}\"", encode(&n.label, Ctx::Yaml)));
            }
            match n.label_type {
                LabelType::Markdown => keys.push("labelType: markdown".to_string()),
                LabelType::String => keys.push("labelType: string".to_string()),
                LabelType::Text => {}
            }
            let map = n.extra.as_object();
            if map.is_some_and(|m| m.values().any(needs_block)) {
                // A nested map would need `{…}`, whose `}` ends the shape
                // data: the block form carries it instead.
                let mut lines: Vec<String> = keys.iter().map(|k| format!("  {k}")).collect();
                for (k, v) in map.into_iter().flatten() {
                    yaml_entry(k, v, 1, &mut lines);
                }
                return format!("{}@{{\n{}\n}}", n.id, lines.join("\n"));
            }
            for (k, v) in map.into_iter().flatten() {
                keys.push(format!("{}: {}", yaml_scalar(k), yaml_flow(v)));
            }
            format!("{}@{{ {} }}", n.id, keys.join(", "))
        }
    }
}

/// A key or string value in `@{ … }`: bare when it is a plain word, else
/// quoted.
pub(crate) fn yaml_scalar(v: &str) -> String {
    if !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        v.to_string()
    } else {
        format!("\"{}\"", encode(v, Ctx::Yaml))
    }
}

/// A value in flow style (only for values without maps: see [`needs_block`]).
fn yaml_flow(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => format!("\"{}\"", encode(s, Ctx::Yaml)),
        serde_json::Value::Array(items) => format!("[{}]", items.iter().map(yaml_flow).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}

/// Whether a value holds a non-empty map, which flow style cannot carry
/// inside `@{ … }`.
fn needs_block(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Object(m) => !m.is_empty(),
        serde_json::Value::Array(items) => items.iter().any(needs_block),
        _ => false,
    }
}

/// One `key: value` entry of block YAML at `depth` (two blanks a level).
fn yaml_entry(k: &str, v: &serde_json::Value, depth: usize, lines: &mut Vec<String>) {
    let pad = "  ".repeat(depth);
    if !needs_block(v) {
        lines.push(format!("{pad}{}: {}", yaml_scalar(k), yaml_flow(v)));
        return;
    }
    lines.push(format!("{pad}{}:", yaml_scalar(k)));
    yaml_block_value(v, depth + 1, lines);
}

fn yaml_block_value(v: &serde_json::Value, depth: usize, lines: &mut Vec<String>) {
    let pad = "  ".repeat(depth);
    match v {
        serde_json::Value::Object(m) => {
            for (k, v) in m {
                yaml_entry(k, v, depth, lines);
            }
        }
        serde_json::Value::Array(items) => {
            for item in items {
                if needs_block(item) {
                    lines.push(format!("{pad}-"));
                    yaml_block_value(item, depth + 1, lines);
                } else {
                    lines.push(format!("{pad}- {}", yaml_flow(item)));
                }
            }
        }
        other => lines.push(format!("{pad}{}", yaml_flow(other))),
    }
}

/// The one `[|field:value|…]` property of a rect node whose only extra is it.
fn single_prop(n: &Node) -> Option<(String, String)> {
    let map = n.extra.as_object()?;
    let props = map.get("props")?.as_object()?;
    if map.len() != 1 || props.len() != 1 || n.shape != Shape::Rect {
        return None;
    }
    let (k, v) = props.iter().next()?;
    Some((k.clone(), v.as_str()?.to_string()))
}

/// A label inside the brackets that open with `open`.
fn label_source(label: &str, ty: LabelType, open: &str) -> String {
    match ty {
        // `" "` is read as the empty string (quoted labels are trimmed)
        LabelType::String if label.is_empty() => "\" \"".to_string(),
        LabelType::Text if label.is_empty() => " ".to_string(),
        LabelType::String => format!("\"{}\"", encode(label, Ctx::Quoted)),
        LabelType::Markdown => format!("\"`{}`\"", encode(label, Ctx::Markdown)),
        LabelType::Text => {
            let mut s = encode(label, Ctx::Text);
            // A first character that would turn `[`/`(` into another shape
            // opener (`[/`, `[\`, `(-`) is encoded.
            let first = s.chars().next();
            let clash = match open {
                "[" => matches!(first, Some('/' | '\\')),
                "(" => first == Some('-'),
                _ => false,
            };
            if let Some(c) = first.filter(|_| clash) {
                s = format!("#{};{}", u32::from(c), &s[c.len_utf8()..]);
            }
            s
        }
    }
}

/// A label in the pipe form `|…|` of an edge.
pub(crate) fn edge_label(label: &str, ty: LabelType) -> String {
    format!("|{}|", quote_if_needed(label, ty))
}

/// A label written so it re-parses with the same type: `"…"` for strings,
/// ``"`…`"`` for markdown, entity-encoded plain text otherwise.
pub(crate) fn quote_if_needed(label: &str, ty: LabelType) -> String {
    match ty {
        LabelType::String => format!("\"{}\"", encode(label, Ctx::Quoted)),
        LabelType::Markdown => format!("\"`{}`\"", encode(label, Ctx::Markdown)),
        LabelType::Text => encode(label, Ctx::Text),
    }
}

/// A YAML double-quoted scalar (JSON strings are valid YAML).
pub(crate) fn yaml_string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

#[derive(Clone, Copy, PartialEq)]
enum Ctx {
    /// Unquoted label text: the lexer's `text` state stops at `[](){}|"`.
    Text,
    /// Inside `"…"`: only `"` is special.
    Quoted,
    /// Inside ``"`…`"``.
    Markdown,
    /// A double-quoted value inside `@{ … }`: `"` ends it, `\` escapes in YAML.
    Yaml,
}

/// Encode what must be encoded in context: the context's special characters,
/// a `#` that would read as the start of an entity, and the word `direction`
/// where mermaid's line-swallowing `direction` rule would fire.
fn encode(s: &str, ctx: Ctx) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        let rest = &s[i..];
        let special = match ctx {
            Ctx::Text => matches!(c, '[' | ']' | '(' | ')' | '{' | '}' | '|' | '"' | '@'),
            Ctx::Quoted => c == '"',
            Ctx::Markdown => false,
            Ctx::Yaml => matches!(c, '"' | '}' | '{'),
        };
        if ctx == Ctx::Yaml && matches!(c, '\\' | '\n') {
            // YAML double-quoted escapes keep a real newline a newline
            out.push_str(if c == '\n' { "\\n" } else { "\\\\" });
        } else if c == '"' && ctx != Ctx::Markdown {
            out.push_str("#quot;");
        } else if special {
            out.push_str(&format!("#{};", u32::from(c)));
        } else if c == '<' && opens_unclosed_tag(rest) {
            // mermaid rewrites `="…"` inside `<tag …>` spans; an unclosed `<h`
            // would open one that reaches into the next statement
            out.push_str("#60;");
        } else if c == '#' && looks_like_entity(&rest[1..]) {
            out.push_str("#35;");
        } else if c == '\\' && rest[1..].starts_with('n') && ctx != Ctx::Markdown {
            // a literal `\n` (code in a label) would read as a meant line
            // break (pitfall P08); the entity draws the same backslash
            out.push_str("#92;");
        } else if c == 'd' && swallowed_direction(rest) {
            out.push_str("#100;");
        } else {
            out.push(c);
        }
    }
    if ctx == Ctx::Quoted && out.starts_with('`') {
        out.replace_range(0..1, "#96;");
    }
    out
}

/// `<` + a word character with no `>` after it in the label.
fn opens_unclosed_tag(rest: &str) -> bool {
    rest[1..].starts_with(|c: char| c.is_alphanumeric() || c == '_') && !rest.contains('>')
}

/// `\w+;` right after a `#` (mermaid encodes such runs before parsing).
fn looks_like_entity(after_hash: &str) -> bool {
    let word = after_hash.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    word > 0 && after_hash.as_bytes().get(word) == Some(&b';')
}

/// `direction` + blanks + a direction keyword: mermaid's lexer would read the
/// whole line as a `direction` statement.
fn swallowed_direction(rest: &str) -> bool {
    let Some(after) = rest.strip_prefix("direction") else {
        return false;
    };
    let trimmed = after.trim_start();
    trimmed.len() < after.len() && ["TB", "BT", "RL", "LR", "TD"].iter().any(|d| trimmed.starts_with(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_labels_encode_shape_characters() {
        assert_eq!(encode("f(x) [a] {b} | \"q\"", Ctx::Text), "f#40;x#41; #91;a#93; #123;b#125; #124; #quot;q#quot;");
        assert_eq!(encode("C#x; issue #12", Ctx::Text), "C#35;x; issue #12");
        assert_eq!(encode("Set direction LR", Ctx::Quoted), "Set #100;irection LR");
        assert_eq!(encode("`x` y", Ctx::Quoted), "#96;x` y");
        assert_eq!(encode("s = '\\n'", Ctx::Quoted), "s = '#92;n'");
    }

    #[test]
    fn keyword_prefixes() {
        assert!(is_keyword_prefixed("end"));
        assert!(is_keyword_prefixed("end-node"));
        assert!(!is_keyword_prefixed("B_end"));
        assert!(!is_keyword_prefixed("ending"));
    }
}
