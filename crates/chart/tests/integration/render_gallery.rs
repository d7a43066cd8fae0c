//! Layout-independent checks of the SVG writer: a hand-placed gallery of
//! every shape and every link form, drawn in every theme. Snapshotted so any
//! change to shapes, markers or colours shows up in review, and rasterised
//! so usvg/resvg accept what we write.

use std::sync::Arc;

use flowbench_chart::layout::{Geometry, PlacedCluster, PlacedNode, Point, Rect, RoutedEdge};
use flowbench_chart::mermaid::{ArrowHead, ClassDef, Edge, Flowchart, LabelType, Node, Shape, Span, Stroke, Subgraph};
use flowbench_chart::render::{self, ALL_SHAPES, Style, StyleFile, png};
use flowbench_chart::text::{Fonts, TextStyle, layout_label};

fn node(id: &str, label: &str, shape: Shape) -> Node {
    Node {
        id: id.into(),
        label: label.into(),
        label_type: LabelType::Text,
        shape,
        classes: vec![],
        styles: vec![],
        click: None,
        extra: serde_json::Value::Null,
        span: Span::default(),
    }
}

fn edge(from: &str, to: &str, stroke: Stroke, start: ArrowHead, end: ArrowHead, label: Option<&str>) -> Edge {
    Edge {
        label: label.map(Into::into),
        stroke,
        head_start: start,
        head_end: end,
        ..Edge::new(format!("L_{from}_{to}_0"), from, to)
    }
}

/// Every shape in a grid of 6 columns, then a column of link forms, inside
/// one cluster; the labels are measured with the real fonts.
fn gallery() -> (Flowchart, Geometry) {
    let fonts = Fonts::embedded();
    let ts = TextStyle::default();
    let mut chart = Flowchart::default();
    let mut geom = Geometry::default();
    for (i, shape) in ALL_SHAPES.iter().enumerate() {
        let id = format!("s{i}");
        let mut n = node(&id, shape.name(), *shape);
        if i == 3 {
            n.label = "**bold** and _it_".into();
            n.label_type = LabelType::Markdown;
        }
        if i == 0 {
            n.classes = vec!["hot".into()];
        }
        if i == 1 {
            n.styles = vec!["fill:#f9f".into(), "stroke:#333,stroke-width:4px".into(), "color:red".into()];
        }
        let label = layout_label(&n.label, n.label_type, &ts, &fonts);
        let (col, row) = ((i % 6) as f32, (i / 6) as f32);
        let (w, h) = match shape {
            Shape::Fork => (70.0, 10.0),
            Shape::SmCirc | Shape::FCirc | Shape::FrCirc | Shape::Anchor => (14.0, 14.0),
            Shape::Circle | Shape::DblCirc | Shape::CrossCirc => (90.0, 90.0),
            _ => (130.0, 70.0),
        };
        let cx = 90.0 + col * 160.0;
        let cy = 60.0 + row * 110.0;
        geom.nodes.push(PlacedNode { rect: Rect { x: cx - w / 2.0, y: cy - h / 2.0, width: w, height: h }, label });
        chart.nodes.push(n);
    }
    chart.class_defs.push(ClassDef { name: "hot".into(), styles: vec!["fill:#fdd,stroke:#c00".into()] });
    // Link forms between two extra columns of plain boxes.
    let forms = [
        (Stroke::Normal, ArrowHead::None, ArrowHead::Arrow, Some("arrow")),
        (Stroke::Thick, ArrowHead::None, ArrowHead::Arrow, None),
        (Stroke::Dotted, ArrowHead::None, ArrowHead::Arrow, Some("dotted")),
        (Stroke::Normal, ArrowHead::Arrow, ArrowHead::Arrow, None),
        (Stroke::Normal, ArrowHead::Circle, ArrowHead::Circle, Some("circles")),
        (Stroke::Normal, ArrowHead::Cross, ArrowHead::Cross, None),
        (Stroke::Normal, ArrowHead::None, ArrowHead::None, Some("open")),
        (Stroke::Invisible, ArrowHead::None, ArrowHead::None, None),
    ];
    for (k, (stroke, start, end, label)) in forms.into_iter().enumerate() {
        let y = 60.0 + k as f32 * 90.0;
        for (side, x) in [("a", 1000.0), ("b", 1250.0)] {
            let id = format!("{side}{k}");
            let n = node(&id, &id, Shape::Rect);
            let lb = layout_label(&n.label, LabelType::Text, &ts, &fonts);
            geom.nodes
                .push(PlacedNode { rect: Rect { x: x - 30.0, y: y - 27.0, width: 60.0, height: 54.0 }, label: lb });
            chart.nodes.push(n);
        }
        let mut e = edge(&format!("a{k}"), &format!("b{k}"), stroke, start, end, label);
        if k == 2 {
            e.styles = vec!["stroke:#f00,stroke-width:2px".into(), "color:blue".into()];
        }
        let lbl = label.map(|t| {
            let b = layout_label(t, LabelType::Text, &ts, &fonts);
            (Rect { x: 1125.0 - b.width / 2.0, y: y - 12.0 - 20.0, width: b.width, height: b.height }, b)
        });
        let pts = vec![Point { x: 1030.0, y }, Point { x: 1125.0, y: y - 20.0 }, Point { x: 1220.0, y }];
        geom.edges.push(RoutedEdge { points: pts, label: lbl });
        chart.edges.push(e);
    }
    let title = layout_label("Link forms", LabelType::Text, &ts, &fonts);
    chart.subgraphs.push(Subgraph {
        id: "links".into(),
        title: "Link forms".into(),
        label_type: LabelType::Text,
        members: vec![],
        direction: None,
        classes: vec![],
        styles: vec![],
        span: Span::default(),
    });
    geom.clusters.push(PlacedCluster {
        rect: Rect { x: 950.0, y: 0.0, width: 350.0, height: 760.0 },
        title: (Rect { x: 1125.0 - title.width / 2.0, y: 0.0, width: title.width, height: title.height }, title),
    });
    geom.width = 1310.0;
    geom.height = 1000.0;
    (chart, geom)
}

fn style(theme: &str) -> Style {
    let mut s = Style::default();
    StyleFile { theme: Some(theme.into()), ..Default::default() }.apply(&mut s).expect("theme");
    s
}

#[test]
fn gallery_svgs_snapshot_and_rasterise() {
    let (chart, geom) = gallery();
    let db = Arc::new(png::font_database(&Fonts::embedded().face_data()));
    for theme in render::theme::THEMES {
        let svg = render::to_svg(&chart, &geom, &style(theme));
        let bytes = png::svg_to_png(&svg, &[], 1.0, &db, png::DEFAULT_MAX_PIXELS).expect("png");
        assert!(bytes.len() > 10_000, "{theme}: suspiciously small PNG");
        if let Some(dir) = std::env::var_os("FLOWBENCH_GALLERY_OUT") {
            std::fs::write(std::path::Path::new(&dir).join(format!("gallery.{theme}.png")), &bytes).expect("write");
        }
        insta::with_settings!({snapshot_path => "../../../../snapshots/render", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!(format!("gallery_{theme}"), svg);
        });
    }
}

#[test]
fn every_shape_and_link_form_is_drawn() {
    let (chart, geom) = gallery();
    let svg = render::to_svg(&chart, &geom, &Style::default());
    // One group per node and per drawn edge; invisible links draw nothing,
    // the 7 others a path.
    let edges =
        svg.split(r#"<g class="edges""#).nth(1).and_then(|s| s.split(r#"<g class="edge-labels""#).next()).unwrap_or("");
    assert_eq!(edges.matches("<g><path").count(), 7);
    assert_eq!(edges.matches("<path").count(), 7);
    assert_eq!(svg.matches("<g>").count(), chart.nodes.len() + 7);
    assert_eq!(svg.matches("<marker").count(), 7, "arrow end+start, circle ×2, cross ×2, red arrow");
    assert!(svg.contains(r#"stroke-dasharray="2""#));
    assert!(svg.contains("style=\"fill:#f9f;stroke:#333;stroke-width:4px;\""));
    assert!(svg.contains(r#"font-weight="bold""#) && svg.contains(r#"font-style="italic""#));
}

#[test]
fn rendering_is_byte_identical_across_runs_and_threads() {
    let (chart, geom) = gallery();
    let db = Arc::new(png::font_database(&Fonts::embedded().face_data()));
    let once = || {
        let svg = render::to_svg(&chart, &geom, &style("forest"));
        let png = png::svg_to_png(&svg, &[], 1.5, &db, png::DEFAULT_MAX_PIXELS).expect("png");
        (svg, png)
    };
    let a = once();
    let b = once();
    assert!(a == b, "two runs differ");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("pool");
    let par: Vec<_> = pool.install(|| {
        use rayon::prelude::*;
        (0..4).into_par_iter().map(|_| once()).collect()
    });
    assert!(par.iter().all(|p| *p == a), "parallel runs differ");
}
