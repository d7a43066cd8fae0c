//! Canonical Mermaid text for a [`Flowchart`].
//!
//! This is the text models read in the Mermaid condition of the ablation, so
//! it has to be *faithful* (`parse(format(x)) == parse(x)` up to spans, checked
//! over the conformance corpus and generated charts) and *readable*: one
//! statement per line, nodes declared with their shape and label where they
//! are first used, quotes only where mermaid needs them, and `#entity;` codes
//! only for characters that cannot be written literally.
//!
//! Layout of the output, in this order (each part is needed to keep the
//! model's orders — node first-appearance, edge index, subgraph closing order —
//! identical after re-parsing):
//! 1. frontmatter (title, config) and the header;
//! 2. nodes and edges in model order, a node's shape/label given at its first
//!    mention (standalone declarations where an edge cannot introduce it);
//! 3. subgraph blocks, nested, listing their members by id;
//! 4. styling and interaction: `classDef`, `class`, `style`, `linkStyle`,
//!    edge metadata, `click`; then accessibility lines.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::fmt_text::{edge_label, node_shape, quote_if_needed, yaml_scalar, yaml_string};
use super::model::*;

const INDENT: &str = "    ";

/// Print `chart` as canonical Mermaid text (ends with a newline).
pub fn format(chart: &Flowchart) -> String {
    let mut out = String::new();
    write_frontmatter(chart, &mut out);
    let header = match chart.header {
        Header::Flowchart => "flowchart",
        Header::Graph => "graph",
        Header::FlowchartElk => "flowchart-elk",
    };
    let _ = writeln!(out, "{header} {}", direction_name(chart.direction));
    write_graph(chart, &mut out);
    write_subgraphs(chart, &mut out);
    write_styling(chart, &mut out);
    if let Some(t) = &chart.acc_title {
        let _ = writeln!(out, "{INDENT}accTitle: {}", t.trim());
    }
    if let Some(d) = &chart.acc_descr {
        if d.contains('\n') {
            let _ = writeln!(out, "{INDENT}accDescr {{\n{}\n{INDENT}}}", d.trim());
        } else {
            let _ = writeln!(out, "{INDENT}accDescr: {}", d.trim());
        }
    }
    out
}

fn direction_name(d: Direction) -> &'static str {
    match d {
        Direction::TB => "TB",
        Direction::BT => "BT",
        Direction::LR => "LR",
        Direction::RL => "RL",
    }
}

/// Title and config go to YAML frontmatter; JSON is valid YAML, so the
/// config object is written as one JSON line.
fn write_frontmatter(chart: &Flowchart, out: &mut String) {
    let has_config = !chart.config.is_null() && !chart.config.as_object().is_some_and(|m| m.is_empty());
    if chart.title.is_none() && !has_config {
        return;
    }
    out.push_str("---\n");
    if let Some(t) = &chart.title {
        let _ = writeln!(out, "title: {}", yaml_string(t));
    }
    if has_config {
        let _ = writeln!(out, "config: {}", chart.config);
    }
    out.push_str("---\n");
}

/// Nodes and edges in model order. A node is declared (shape + label) at its
/// first mention; `declared` tracks which nodes have been introduced.
fn write_graph(chart: &Flowchart, out: &mut String) {
    let mut declared = vec![false; chart.nodes.len()];
    let index: std::collections::BTreeMap<&str, usize> =
        chart.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    let mut next = 0usize; // first node (in order) not yet declared
    let advance = |next: &mut usize, declared: &[bool]| {
        while *next < declared.len() && declared[*next] {
            *next += 1;
        }
    };
    for edge in &chart.edges {
        let from = index.get(edge.from.as_str()).copied();
        let to = index.get(edge.to.as_str()).copied();
        // Mermaid adds the source vertex, then the target: an edge can only
        // introduce its undeclared endpoints if they are exactly the next
        // undeclared nodes in that order.
        let mut fresh: Vec<usize> = Vec::new();
        for i in [from, to].into_iter().flatten() {
            if !declared[i] && !fresh.contains(&i) {
                fresh.push(i);
            }
        }
        advance(&mut next, &declared);
        if let Some(&first) = fresh.iter().min() {
            while next < first {
                declare_standalone(&chart.nodes[next], out);
                declared[next] = true;
                advance(&mut next, &declared);
            }
        }
        let inline_ok = fresh.iter().enumerate().all(|(k, &i)| i == next + k);
        if !inline_ok {
            let last = fresh.iter().copied().max().unwrap_or(0);
            while next <= last && next < declared.len() {
                declare_standalone(&chart.nodes[next], out);
                declared[next] = true;
                advance(&mut next, &declared);
            }
        }
        // `A@{ … } e1@-->` does not parse (the shape data swallows the
        // blank before an edge id), so such a source is declared first.
        if let Some(i) = from.filter(|&i| edge.user_id && !declared[i] && i == next)
            && node_shape(&chart.nodes[i]).contains("@{")
        {
            declare_standalone(&chart.nodes[i], out);
            declared[i] = true;
        }
        let mut line = String::from(INDENT);
        push_endpoint(&mut line, chart, edge.from.as_str(), from, &mut declared);
        // `href-->`: a blank after `href` would make it the keyword.
        if word_end(&line).is_empty() {
            line.push(' ');
        }
        if edge.user_id {
            let _ = write!(line, "{}@", edge.id);
        }
        line.push_str(&link_token(edge));
        if let Some(label) = &edge.label {
            line.push_str(&edge_label(label, edge.label_type));
        }
        line.push(' ');
        push_endpoint(&mut line, chart, edge.to.as_str(), to, &mut declared);
        line.push_str(word_end(&line));
        out.push_str(&line);
        out.push('\n');
    }
    for (i, node) in chart.nodes.iter().enumerate() {
        if !declared[i] {
            declare_standalone(node, out);
            declared[i] = true;
        }
    }
}

fn push_endpoint(line: &mut String, chart: &Flowchart, id: &str, idx: Option<usize>, declared: &mut [bool]) {
    match idx {
        Some(i) if !declared[i] => {
            line.push_str(&node_shape(&chart.nodes[i]));
            declared[i] = true;
        }
        _ => line.push_str(id),
    }
}

fn declare_standalone(node: &Node, out: &mut String) {
    let shape = node_shape(node);
    let _ = writeln!(out, "{INDENT}{shape}{}", word_end(&shape));
}

/// The one id mermaid lexes as a keyword when whitespace follows it
/// (`href`); the parser accepts it as an id before `;` or a link (`href-->`).
const KEYWORD_ID: &str = "href";

/// What must end a line whose last token is `text`: `;` after a bare
/// `href`, nothing otherwise.
fn word_end(text: &str) -> &'static str {
    let last = text.rsplit([' ', '\n']).next().unwrap_or(text);
    if last == KEYWORD_ID { ";" } else { "" }
}

/// The link token for an edge: stroke, heads and length.
pub(crate) fn link_token(edge: &Edge) -> String {
    let len = usize::from(edge.length.max(1));
    let start = match edge.head_start {
        ArrowHead::None => "",
        ArrowHead::Arrow => "<",
        ArrowHead::Circle => "o",
        ArrowHead::Cross => "x",
    };
    let end = |open: &str| match edge.head_end {
        ArrowHead::None => open.to_string(),
        ArrowHead::Arrow => ">".to_string(),
        ArrowHead::Circle => "o".to_string(),
        ArrowHead::Cross => "x".to_string(),
    };
    let body = match edge.stroke {
        Stroke::Normal => format!("{}{}", "-".repeat(len + 1), end("-")),
        Stroke::Thick => format!("{}{}", "=".repeat(len + 1), end("=")),
        Stroke::Dotted => format!("-{}-{}", ".".repeat(len), end("")),
        Stroke::Invisible => "~".repeat(len + 2),
    };
    format!("{start}{body}")
}

/// Subgraph blocks nested as in the model; children in model order so that
/// re-parsing closes them in the same (post-)order.
fn write_subgraphs(chart: &Flowchart, out: &mut String) {
    let ids: BTreeSet<&str> = chart.subgraphs.iter().map(|s| s.id.as_str()).collect();
    let mut child_of = vec![None; chart.subgraphs.len()];
    for (p, sg) in chart.subgraphs.iter().enumerate() {
        for m in &sg.members {
            if ids.contains(m.as_str())
                && let Some(c) = chart.subgraphs.iter().position(|s| &s.id == m)
                && c < p
                && child_of[c].is_none()
            {
                child_of[c] = Some(p);
            }
        }
    }
    for (i, parent) in child_of.iter().enumerate() {
        if parent.is_none() {
            write_subgraph(chart, i, &child_of, 1, out);
        }
    }
}

fn write_subgraph(chart: &Flowchart, i: usize, child_of: &[Option<usize>], depth: usize, out: &mut String) {
    let sg = &chart.subgraphs[i];
    let pad = INDENT.repeat(depth);
    let _ = writeln!(out, "{pad}subgraph {}", subgraph_header(sg));
    if let Some(d) = sg.direction {
        let _ = writeln!(out, "{pad}{INDENT}direction {}", direction_name(d));
    }
    for m in &sg.members {
        let child = chart.subgraphs.iter().position(|s| &s.id == m);
        match child {
            Some(c) if child_of[c] == Some(i) => write_subgraph(chart, c, child_of, depth + 1, out),
            _ => {
                let _ = writeln!(out, "{pad}{INDENT}{m}{}", word_end(m));
            }
        }
    }
    let _ = writeln!(out, "{pad}end");
}

/// The text after `subgraph`: the plainest form that reads back as the same
/// id, title and label type. Candidates are checked by parsing them, because
/// the id can come from a quoted title (`subgraph "`**]@:wo**`"`) holding
/// characters no bare id may carry, and guessing which quoting survives the
/// lexer has been wrong before (proptest found two such titles).
fn subgraph_header(sg: &Subgraph) -> String {
    let mut candidates = Vec::new();
    if sg.title == sg.id && sg.label_type == LabelType::Text && is_plain_title(&sg.id) {
        candidates.push(sg.id.clone());
    }
    // A title alone: the parser derives the id from it (with mermaid's
    // entity placeholders where it has `#…;`).
    candidates.push(quote_if_needed(&sg.title, LabelType::String));
    candidates.push(quote_if_needed(&sg.title, LabelType::Markdown));
    let explicit = format!("{} [{}]", sg.id, quote_if_needed(&sg.title, sg.label_type));
    candidates.push(explicit.clone());
    candidates.into_iter().find(|c| reads_back_as(c, sg)).unwrap_or(explicit)
}

fn reads_back_as(header: &str, sg: &Subgraph) -> bool {
    match super::parse(&format!("flowchart TD\nsubgraph {header}\nend\n")) {
        Ok(chart) => {
            matches!(chart.subgraphs.as_slice(), [s] if s.id == sg.id && s.title == sg.title && s.label_type == sg.label_type)
        }
        Err(_) => false,
    }
}

/// A title that can stand as both id and title (`subgraph one`).
fn is_plain_title(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        && !super::fmt_text::is_keyword_prefixed(s)
}

fn write_styling(chart: &Flowchart, out: &mut String) {
    for cd in &chart.class_defs {
        let _ = writeln!(out, "{INDENT}classDef {} {}", cd.name, join_styles(&cd.styles));
    }
    write_classes(chart, out);
    for n in &chart.nodes {
        if !n.styles.is_empty() {
            let _ = writeln!(out, "{INDENT}style {} {}", n.id, join_styles(&n.styles));
        }
    }
    for sg in &chart.subgraphs {
        if !sg.styles.is_empty() {
            let _ = writeln!(out, "{INDENT}style {} {}", sg.id, join_styles(&sg.styles));
        }
    }
    if chart.default_interpolate.is_some() || !chart.default_link_styles.is_empty() {
        let mut line = format!("{INDENT}linkStyle default");
        if let Some(c) = &chart.default_interpolate {
            let _ = write!(line, " interpolate {c}");
        }
        if !chart.default_link_styles.is_empty() {
            let _ = write!(line, " {}", join_styles(&chart.default_link_styles));
        }
        let _ = writeln!(out, "{line}");
    }
    for (i, e) in chart.edges.iter().enumerate() {
        let curve_by_id = e.user_id && e.interpolate.is_some();
        if e.styles.is_empty() && (e.interpolate.is_none() || curve_by_id) {
            continue;
        }
        let mut line = format!("{INDENT}linkStyle {i}");
        if let (Some(c), false) = (&e.interpolate, curve_by_id) {
            let _ = write!(line, " interpolate {c}");
        }
        if !e.styles.is_empty() {
            let _ = write!(line, " {}", join_styles(&e.styles));
        }
        let _ = writeln!(out, "{line}");
    }
    for e in chart.edges.iter().filter(|e| e.user_id) {
        let mut keys = Vec::new();
        if let Some(c) = &e.interpolate {
            keys.push(format!("curve: {}", yaml_scalar(c)));
        }
        match e.animation.as_deref() {
            Some("default") => keys.push("animate: true".into()),
            Some("false") => keys.push("animate: false".into()),
            Some(a) => keys.push(format!("animation: {}", yaml_scalar(a))),
            None => {}
        }
        if !keys.is_empty() {
            let _ = writeln!(out, "{INDENT}{}@{{ {} }}", e.id, keys.join(", "));
        }
    }
    for n in &chart.nodes {
        if let Some(click) = &n.click {
            let _ = writeln!(out, "{INDENT}{}", click_line(&n.id, click));
        }
    }
}

/// `class` statements, grouped by class (`class a,b done`) when every node's
/// class order agrees with the global first-use order; one line per node and
/// class otherwise, so the per-node order survives re-parsing.
fn write_classes(chart: &Flowchart, out: &mut String) {
    let mut targets: Vec<(&str, &[String])> =
        chart.nodes.iter().map(|n| (n.id.as_str(), n.classes.as_slice())).collect();
    targets.extend(chart.subgraphs.iter().map(|s| (s.id.as_str(), s.classes.as_slice())));
    targets.extend(chart.edges.iter().map(|e| (e.id.as_str(), e.classes.as_slice())));
    let mut order: Vec<&str> = Vec::new();
    for (_, classes) in &targets {
        for c in classes.iter() {
            if !order.contains(&c.as_str()) {
                order.push(c);
            }
        }
    }
    let rank = |c: &str| order.iter().position(|o| *o == c).unwrap_or(usize::MAX);
    let consistent = targets.iter().all(|(_, cs)| cs.windows(2).all(|w| rank(&w[0]) < rank(&w[1])));
    if consistent {
        for class in &order {
            let ids: Vec<&str> =
                targets.iter().filter(|(_, cs)| cs.iter().any(|c| c == class)).map(|(id, _)| *id).collect();
            let _ = writeln!(out, "{INDENT}class {} {class}", ids.join(","));
        }
    } else {
        for (id, classes) in &targets {
            for c in classes.iter() {
                let _ = writeln!(out, "{INDENT}class {id} {c}");
            }
        }
    }
}

/// Style declarations joined by `,`; a comma inside one declaration is
/// written `\,` as mermaid requires.
fn join_styles(styles: &[String]) -> String {
    styles
        .iter()
        // A blank element (`fill:red, ` at a line's end) stays a blank:
        // dropping it would leave a dangling comma mermaid rejects.
        .map(|s| if s.trim().is_empty() { " ".to_string() } else { s.trim().replace(',', "\\,") })
        .collect::<Vec<_>>()
        .join(",")
}

fn click_line(id: &str, c: &Click) -> String {
    let mut line = format!("click {id}");
    if let Some(href) = &c.href {
        let _ = write!(line, " href \"{href}\"");
    } else if let Some(cb) = &c.callback {
        match &c.args {
            Some(a) => {
                let _ = write!(line, " call {cb}({a})");
            }
            None => {
                let _ = write!(line, " call {cb}()");
            }
        }
    }
    if let Some(t) = &c.tooltip {
        let _ = write!(line, " \"{t}\"");
    }
    if let Some(t) = &c.target {
        let _ = write!(line, " {t}");
    }
    line
}
