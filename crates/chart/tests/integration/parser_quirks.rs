//! mermaid's silent misparses and other quirks (features.md ⚠ rows and
//! pitfalls.md §7), as regression tests: a faithful parser must reproduce
//! them, and errors must point at the original text.

use flowbench_chart::mermaid::{ArrowHead, ErrorKind, ParseOptions, Stroke, parse, parse_with};

fn counts(text: &str) -> (usize, usize, usize) {
    let fc = parse(text).unwrap_or_else(|e| panic!("{text:?} should parse: {e}"));
    (fc.nodes.len(), fc.edges.len(), fc.subgraphs.len())
}

#[test]
fn link_heads_eat_the_next_letter() {
    let fc = parse("graph TD\ndev---ops").expect("parses");
    assert_eq!(fc.nodes.iter().map(|n| n.id.as_str()).collect::<Vec<_>>(), ["dev", "ps"]);
    assert_eq!(fc.edges[0].head_end, ArrowHead::Circle);
    let fc = parse("graph TD\nB---xylo\nA-->xylo").expect("parses");
    assert_eq!(fc.nodes.iter().map(|n| n.id.as_str()).collect::<Vec<_>>(), ["B", "ylo", "A", "xylo"]);
    assert_eq!(fc.edges[0].head_end, ArrowHead::Cross);
}

#[test]
fn direction_swallows_the_line() {
    assert_eq!(counts("graph TD\nA[Set direction LR] --> B\nC"), (1, 0, 0));
    assert_eq!(counts("graph TD\nA --> B direction TB"), (0, 0, 0));
}

#[test]
fn silent_misparses() {
    assert_eq!(counts("graph TD\nclick --> B"), (0, 0, 0));
    assert_eq!(counts("graph TD\n%%\nA"), (2, 0, 0));
    assert_eq!(counts("graph TD\nA&B --> C"), (2, 1, 0));
    let fc = parse("graph TD\nB@{label:bla bla}").expect("parses");
    assert_eq!(fc.nodes[0].label, "B");
    let fc = parse("graph TD\nclassDef c fill:#aaa;stroke:#fff\nA:::c").expect("parses");
    assert_eq!(fc.class_defs[0].styles, ["fill:#aaastroke:#fff"]);
    let fc = parse("graph TD\nA <--- B").expect("parses");
    assert_eq!(
        (fc.edges[0].head_start, fc.edges[0].head_end, fc.edges[0].length),
        (ArrowHead::None, ArrowHead::None, 2)
    );
}

#[test]
fn edge_ids_and_groups() {
    let fc = parse("flowchart LR\nA & B e1@--> C & D\ne1@{ animate: true }").expect("parses");
    assert_eq!(fc.edges.len(), 4);
    let e1 = fc.edges.iter().find(|e| e.id == "e1").expect("e1");
    assert_eq!((e1.from.as_str(), e1.to.as_str(), e1.user_id), ("B", "C", true));
    assert!(e1.animation.is_some());
    assert_eq!(fc.nodes.len(), 4, "e1@{{…}} names the edge, not a node");
    let fc = parse("graph TD\nA-->B\nA-->B\nA-->B").expect("parses");
    assert_eq!(fc.edges.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(), ["L_A_B_0", "L_A_B_2", "L_A_B_3"]);
}

#[test]
fn link_forms() {
    let fc = parse("graph LR\nA -. t .-> B\nA == t ==> C\nA <==> D\nA ~~~ E\nA ----> F\nA x-.-x G").expect("parses");
    let e: Vec<_> = fc.edges.iter().map(|e| (e.stroke, e.head_start, e.head_end, e.length)).collect();
    assert_eq!(e[0], (Stroke::Dotted, ArrowHead::None, ArrowHead::Arrow, 1));
    assert_eq!(e[1], (Stroke::Thick, ArrowHead::None, ArrowHead::Arrow, 1));
    assert_eq!(e[2], (Stroke::Thick, ArrowHead::Arrow, ArrowHead::Arrow, 1));
    assert_eq!(e[3].0, Stroke::Invisible);
    assert_eq!(e[4].3, 3);
    assert_eq!(e[5], (Stroke::Dotted, ArrowHead::Cross, ArrowHead::Cross, 1));
}

#[test]
fn subgraph_membership_is_innermost() {
    let fc = parse("graph TD\nsubgraph outer\n a --> b\n subgraph inner\n  direction LR\n  b --> c\n end\nend")
        .expect("parses");
    let inner = fc.subgraph("inner").expect("inner");
    let outer = fc.subgraph("outer").expect("outer");
    assert_eq!(inner.members, ["c", "b"]);
    assert!(outer.members.contains(&"a".to_string()) && outer.members.contains(&"inner".to_string()));
    assert!(!outer.members.contains(&"b".to_string()));
    assert_eq!(fc.subgraphs[0].id, "inner", "innermost closes first");
}

#[test]
fn semantic_errors() {
    let kind = |t: &str| parse(t).expect_err(t).kind;
    assert_eq!(kind("graph TD\nA@{ shape: nope }"), ErrorKind::BadShape);
    assert_eq!(kind("graph TD\nA@{ shape: lean_right }"), ErrorKind::BadShape);
    assert_eq!(kind("graph TD\nE@{label: &}"), ErrorKind::BadYaml);
    assert_eq!(kind("graph TD\nA-->B\nlinkStyle 1 stroke:red"), ErrorKind::LinkStyleIndex);
    assert_eq!(kind("graph TD\nsubgraph\na\nend"), ErrorKind::AnonymousSubgraph);
    assert_eq!(kind("flowChart LR\nA-->B"), ErrorKind::NoDiagramType);
    let many: String = (0..501).map(|i| format!("n{i} --> n{}\n", i + 1)).collect();
    let text = format!("graph TD\n{many}");
    assert_eq!(kind(&text), ErrorKind::EdgeLimit);
    let fc = parse_with(&text, &ParseOptions { max_edges: 1000, max_text_size: None }).expect("raised limit");
    assert_eq!(fc.edges.len(), 501);
}

#[test]
fn errors_point_at_the_original_text() {
    // CRLF, an entity and a directive before the error must not shift it.
    let text = "%%{init: {\"theme\": \"dark\"}}%%\r\ngraph TD\r\nA[#quot;x#quot;] --> B[Provisioner (Terraform)]\r\n";
    let e = parse(text).expect_err("parens in a label");
    assert_eq!((e.span.line, e.span.col), (3, 36));
    assert_eq!(&text[e.span.start..e.span.end], "(");
    assert_eq!(e.found.as_deref(), Some("PS"));
    assert!(e.expected.iter().any(|x| x.contains(']')), "{:?}", e.expected);
    let e = parse("graph TD\nA --> B; %% note").expect_err("trailing comment");
    assert_eq!(e.span.line, 2);
    let e = parse("graph TD\nA --> 😀").expect_err("emoji id");
    assert_eq!((e.kind, e.span.col), (ErrorKind::Lexical, 7));
}

#[test]
fn labels_and_entities() {
    let fc = parse("graph TD\nA[\"He said #quot;hi#quot; #9829;\"] -->|\"`**md**`\"| B(\"x-{y}\")").expect("parses");
    assert_eq!(fc.nodes[0].label, "He said \"hi\" ♥");
    assert_eq!(fc.edges[0].label.as_deref(), Some("**md**"));
    assert_eq!(fc.nodes[1].label, "x-{y}");
}

/// Statements are applied while the parse goes on (for linear parse time);
/// the error reported is still the one the earlier parse-then-build order
/// gave: a syntax error anywhere beats an earlier semantic one, otherwise
/// the first semantic one wins. (mermaid's jison runs FlowDB's actions
/// during the parse and may name the semantic error instead; the verdict,
/// rejected, is the same.)
#[test]
fn syntax_errors_win_over_earlier_semantic_errors() {
    let bad_shape = "A@{ shape: nope }";
    let e = parse(&format!("flowchart TD\n{bad_shape}\nB --> C\nD(x(y))\n")).expect_err("rejected");
    assert_eq!((e.kind, e.span.line), (ErrorKind::Syntax, 4));
    let e = parse(&format!("flowchart TD\n{bad_shape}\nlinkStyle 9 color:red\n")).expect_err("rejected");
    assert_eq!((e.kind, e.span.line), (ErrorKind::BadShape, 2));
    let e = parse("flowchart TD\nA --> B\nlinkStyle 9 color:red\nsubgraph S\nC\nend\n").expect_err("rejected");
    assert_eq!((e.kind, e.span.line), (ErrorKind::LinkStyleIndex, 3));
}
