//! Whole-pipeline snapshots (Mermaid text → parse → layout → SVG) for
//! representative charts: every shape, every link form, nested subgraphs,
//! all directions, all themes, styling, and the anchor charts from
//! `../shared/anchors/charts` (skipped when shared data is absent).
//! Also checks that the SVG and PNG bytes are identical across runs and
//! thread counts.
//!
//! These snapshots move whenever layout or text measurement changes on
//! purpose: review the diff with `cargo insta review`, or accept it with
//! `INSTA_UPDATE=always cargo test --release --test integration render_snapshots::`.

use crate::common;

use flowbench_chart::render::pipeline::Renderer;
use flowbench_chart::render::style::{self, Style, StyleFile};

/// `(snapshot name, chart text, theme override)`.
const CHARTS: &[(&str, &str, Option<&str>)] = &[
    ("dir_tb", "flowchart TB\n  A[Start] --> B{Ok?}\n  B -->|yes| C[Done]\n  B -->|no| D[Retry]\n  D --> A", None),
    ("dir_bt", "flowchart BT\n  A[Start] --> B{Ok?}\n  B -->|yes| C[Done]\n  B -->|no| D[Retry]\n  D --> A", None),
    ("dir_lr", "flowchart LR\n  A[Start] --> B{Ok?}\n  B -->|yes| C[Done]\n  B -->|no| D[Retry]\n  D --> A", None),
    ("dir_rl", "flowchart RL\n  A[Start] --> B{Ok?}\n  B -->|yes| C[Done]\n  B -->|no| D[Retry]\n  D --> A", None),
    (
        "theme_neutral",
        "flowchart TD\n  A[Start] --> B{Ok?}\n  B -- yes --> C[Done]\n  subgraph S [Box]\n    C\n  end",
        Some("neutral"),
    ),
    (
        "theme_dark",
        "flowchart TD\n  A[Start] --> B{Ok?}\n  B -- yes --> C[Done]\n  subgraph S [Box]\n    C\n  end",
        Some("dark"),
    ),
    (
        "theme_forest",
        "flowchart TD\n  A[Start] --> B{Ok?}\n  B -- yes --> C[Done]\n  subgraph S [Box]\n    C\n  end",
        Some("forest"),
    ),
    (
        "classic_shapes",
        "flowchart LR\n  a[rect] --> b(rounded) --> c([stadium]) --> d[[subroutine]]\n  e[(cylinder)] --> f((circle)) --> g>odd] --> h{diamond}\n  i{{hexagon}} --> j[/lean right/] --> k[\\lean left\\] --> l[/trapezoid\\]\n  m[\\inv trapezoid/] --> n(((double))) --> o(-ellipse-)",
        None,
    ),
    (
        "v11_shapes_1",
        "flowchart LR\n  a@{ shape: notch-rect, label: card } --> b@{ shape: lin-rect, label: lined }\n  c@{ shape: sm-circ } --> d@{ shape: fr-circ }\n  e@{ shape: fork } --> f@{ shape: hourglass, label: collate }\n  g@{ shape: brace, label: comment } --> h@{ shape: bolt }\n  i@{ shape: doc, label: document } --> j@{ shape: delay, label: delay }",
        None,
    ),
    (
        "v11_shapes_2",
        "flowchart LR\n  a@{ shape: h-cyl, label: das } --> b@{ shape: lin-cyl, label: disk }\n  c@{ shape: curv-trap, label: display } --> d@{ shape: div-rect, label: divided }\n  e@{ shape: tri, label: extract } --> f@{ shape: win-pane, label: internal }\n  g@{ shape: f-circ } --> h@{ shape: notch-pent, label: loop }\n  i@{ shape: flip-tri, label: manual } --> j@{ shape: sl-rect, label: input }",
        None,
    ),
    (
        "v11_shapes_3",
        "flowchart LR\n  a@{ shape: docs, label: docs } --> b@{ shape: st-rect, label: procs }\n  c@{ shape: bow-rect, label: stored } --> d@{ shape: cross-circ, label: sum }\n  e@{ shape: tag-doc, label: tagged } --> f@{ shape: tag-rect, label: tagged }\n  g@{ shape: flag, label: tape } --> h@{ shape: lin-doc, label: lined }\n  i@{ shape: cloud, label: cloud } --> j@{ shape: bang, label: bang }\n  k@{ shape: brace-r, label: r } --> l@{ shape: braces, label: both } --> m@{ shape: text, label: plain }",
        None,
    ),
    (
        "link_forms",
        "flowchart LR\n  A --> B\n  A --- C\n  A -.-> D\n  A ==> E\n  A <--> F\n  A o--o G\n  A x--x H\n  A ~~~ I\n  A -.- J\n  A ==o K\n  A -- text --> L\n  A -. dotted .-> M\n  A == thick ==> N",
        None,
    ),
    ("link_lengths", "flowchart TD\n  A --> B\n  A ----> C\n  A ------> D\n  B --> E\n  C --> E\n  D --> E", None),
    (
        "nested_subgraphs",
        "flowchart TB\n  c1 --> a2\n  subgraph one\n    a1 --> a2\n  end\n  subgraph two\n    b1 --> b2\n    subgraph three\n      c1 --> c2\n    end\n  end\n  one --> two\n  three --> two\n  two --> c2",
        None,
    ),
    (
        "subgraph_direction",
        "flowchart LR\n  subgraph TOP\n    direction TB\n    subgraph B1\n      direction RL\n      i1 -->f1\n    end\n    subgraph B2\n      direction BT\n      i2 -->f2\n    end\n  end\n  A --> TOP --> B\n  B1 --> B2",
        None,
    ),
    (
        "styles_classes",
        "flowchart LR\n  A:::hot --> B --> C\n  classDef hot fill:#f96,stroke:#333,stroke-width:4px,color:#fff\n  classDef default fill:#eef,stroke:#99f\n  class C hot\n  style B fill:#bbf,stroke:#f66,stroke-width:2px,color:#fff,stroke-dasharray: 5 5\n  linkStyle 0 stroke:#ff3,stroke-width:4px,color:red\n  linkStyle default stroke:#0a0",
        None,
    ),
    (
        "markdown_labels",
        "flowchart TD\n  A[\"`**Bold** and _italic_\nsecond line`\"] --> B[\"`A **very** long markdown label that has to wrap across lines`\"]",
        None,
    ),
    (
        "br_and_wrap",
        "flowchart TD\n  A[line one<br>line two<br/>line three] --> B[This is a deliberately long label that mermaid wraps at about two hundred pixels]\n  B -->|a rather long edge label that also wraps| C",
        None,
    ),
    (
        "init_theme",
        "%%{init: {\"theme\": \"forest\", \"flowchart\": {\"curve\": \"linear\"}}}%%\nflowchart TD\n  A --> B --> C\n  A --> C",
        None,
    ),
    (
        "frontmatter_config",
        "---\ntitle: Demo\nconfig:\n  theme: dark\n  themeVariables:\n    primaryColor: \"#ff0000\"\n---\nflowchart LR\n  A --> B",
        None,
    ),
    (
        "curve_step",
        "%%{init: {\"flowchart\": {\"curve\": \"step\"}}}%%\nflowchart TD\n  A --> B & C & D\n  B & C & D --> E",
        None,
    ),
    ("self_loop_multi_edge", "flowchart TD\n  A --> A\n  A --> B\n  A --> B\n  B -->|back| A", None),
    (
        "decision_tree",
        "flowchart TD\n  Q{Q1} -->|yes| R{Q2}\n  Q -->|no| S{Q3}\n  R -->|yes| T[t]\n  R -->|no| U[u]\n  S -->|yes| V[v]\n  S -->|no| W[w]",
        None,
    ),
    (
        "entities_unicode",
        "flowchart LR\n  A[\"Quote #quot; and #9829;\"] --> B[\"Ünïcødé — ∑ ≤ ≥\"] --> C[\"a < b & c > d\"]",
        None,
    ),
    ("edge_to_subgraph", "flowchart LR\n  X --> G\n  subgraph G [Group]\n    a --> b\n  end\n  G --> Y", None),
    ("chain_ampersand", "flowchart TD\n  A & B --> C & D\n  C --> E\n  D --> E", None),
    ("graph_keyword", "graph LR\n  start((Start)) --> proc[Process] --> stop((Stop))", None),
    (
        "wide_fanout",
        "flowchart TD\n  R --> A1 & A2 & A3 & A4 & A5 & A6\n  A1 & A2 & A3 --> M\n  A4 & A5 & A6 --> N\n  M --> Z\n  N --> Z",
        None,
    ),
    (
        "back_edges_loop",
        "flowchart TD\n  A[init] --> B{i < n?}\n  B -->|yes| C[work]\n  C --> D[i++]\n  D --> B\n  B -->|no| E[done]",
        None,
    ),
];

const ANCHORS: &[&str] = &["palindrome", "lis_with_helper", "etl12", "flow20"];

fn render(text: &str, theme: Option<&str>) -> (String, Vec<u8>) {
    let chart = flowbench_chart::mermaid::parse(text).unwrap_or_else(|e| panic!("parse: {e}\n{text}"));
    let cli = StyleFile { theme: theme.map(Into::into), ..Default::default() };
    let st: Style = style::resolve(&chart.config, None, &cli).expect("style");
    let r = Renderer::default();
    let out = r.svg(&chart, &st).expect("render");
    let png = r.png(&out.svg, 1.0).expect("png");
    (out.svg, png)
}

fn snap(name: &str, svg: &str) {
    insta::with_settings!({snapshot_path => "../../../../snapshots/render", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name, svg);
    });
}

#[test]
fn inline_charts_snapshot() {
    assert!(CHARTS.len() >= 28);
    for (name, text, theme) in CHARTS {
        let (svg, png) = render(text, *theme);
        assert!(png.len() > 100, "{name}");
        snap(name, &svg);
    }
}

#[test]
fn anchor_charts_snapshot() {
    for name in ANCHORS {
        let Some(path) = common::shared(&format!("anchors/charts/{name}.mmd")) else { return };
        let text = std::fs::read_to_string(path).expect("read anchor");
        let (svg, _) = render(&text, None);
        snap(&format!("anchor_{name}"), &svg);
    }
}

#[test]
fn svg_and_png_identical_across_runs_and_threads() {
    let texts: Vec<&str> = CHARTS.iter().map(|c| c.1).take(12).collect();
    let run = |threads: usize| -> Vec<(String, Vec<u8>)> {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
        pool.install(|| {
            use rayon::prelude::*;
            texts.par_iter().map(|t| render(t, None)).collect()
        })
    };
    let one = run(1);
    assert!(one == run(1), "two single-thread runs differ");
    assert!(one == run(2), "1 vs 2 threads differ");
}
