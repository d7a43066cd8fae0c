use super::*;
use crate::layout::{PlacedNode, RoutedEdge};
use crate::text::TextBlock;

fn p(x: f32, y: f32) -> Point {
    Point { x, y }
}

fn node(x: f32, y: f32, w: f32, h: f32) -> PlacedNode {
    PlacedNode { rect: Rect { x, y, width: w, height: h }, label: TextBlock::default() }
}

#[test]
fn geometry_primitives() {
    let r = Rect { x: 0.0, y: 0.0, width: 10.0, height: 10.0 };
    assert!(segment_hits(p(-5.0, 5.0), p(15.0, 5.0), &r));
    assert!(!segment_hits(p(-5.0, 15.0), p(15.0, 15.0), &r));
    assert!(!segment_hits(p(5.0, 10.0), p(5.0, 30.0), &r));
    assert!(segments_cross(p(0.0, 0.0), p(10.0, 10.0), p(0.0, 10.0), p(10.0, 0.0)).is_some());
    assert!(segments_cross(p(0.0, 0.0), p(10.0, 10.0), p(10.0, 10.0), p(20.0, 0.0)).is_none());
    let rects =
        [r, Rect { x: 5.0, y: 5.0, width: 10.0, height: 10.0 }, Rect { x: 10.0, y: 0.0, width: 5.0, height: 5.0 }];
    assert_eq!(overlapping_pairs(&rects), vec![(0, 1)]);
    let diamond = [p(50.0, 0.0), p(100.0, 50.0), p(50.0, 100.0), p(0.0, 50.0)];
    assert!(segment_in_polygon(p(-10.0, 50.0), p(110.0, 50.0), &diamond, 1.0));
    // Across the diamond's empty corner: inside its box, outside the shape.
    assert!(!segment_in_polygon(p(0.0, 10.0), p(10.0, 0.0), &diamond, 1.0));
}

/// A polyline that turns around an obstacle's corner: the routing polyline
/// is clear of `C`, but the basis curve drawn through it cuts the corner.
#[test]
fn through_node_is_counted_on_the_drawn_curve_not_the_polyline() {
    let chart = crate::mermaid::parse("flowchart TD\nA --> B\nC").unwrap();
    let poly = vec![p(40.0, 20.0), p(200.0, 20.0), p(200.0, 180.0)];
    let g = Geometry {
        width: 300.0,
        height: 300.0,
        nodes: vec![node(0.0, 0.0, 40.0, 40.0), node(180.0, 180.0, 40.0, 40.0), node(150.0, 25.0, 45.0, 45.0)],
        edges: vec![RoutedEdge { points: poly.clone(), label: None }],
        clusters: Vec::new(),
    };
    let obstacle = g.nodes[2].rect;
    assert!(poly.windows(2).all(|w| !segment_hits(w[0], w[1], &obstacle)), "the polyline is clean");
    assert_eq!(metrics_drawn(&chart, &g, Curve::Linear).edges_through_nodes, 0);
    let m = metrics(&chart, &g);
    assert_eq!(m.edges_through_nodes, 1, "the drawn basis curve cuts C: {m:?}");
    let (_, defects) = measure(&Drawing::from_layout(&chart, &g, Curve::Basis));
    assert_eq!(defects, vec![Defect::EdgeThroughNode { edge: 0, node: 2 }]);
    let drawing = Drawing::from_layout(&chart, &g, Curve::Basis);
    assert_eq!(defects[0].describe(&drawing), "edge 0 (A --> B) is drawn through node C");
}

#[test]
fn arrival_angles_junctions_and_stacked_heads() {
    // B receives a flat arrow (along its top side) and a steep one whose
    // tip is 5 px from the first's; its out-edge starts beside them.
    let chart = crate::mermaid::parse("flowchart TD\nA --> B\nC --> B\nB --> D").unwrap();
    let g = Geometry {
        width: 400.0,
        height: 400.0,
        nodes: vec![
            node(0.0, 0.0, 40.0, 40.0),
            node(100.0, 100.0, 100.0, 50.0),
            node(140.0, 0.0, 40.0, 40.0),
            node(100.0, 300.0, 100.0, 50.0),
        ],
        edges: vec![
            RoutedEdge { points: vec![p(20.0, 40.0), p(20.0, 99.5), p(155.0, 100.0)], label: None },
            RoutedEdge { points: vec![p(160.0, 40.0), p(160.0, 100.0)], label: None },
            RoutedEdge { points: vec![p(150.0, 150.0), p(150.0, 300.0)], label: None },
        ],
        clusters: Vec::new(),
    };
    let m = metrics_drawn(&chart, &g, Curve::Linear);
    assert_eq!((m.shallow_heads, m.flat_heads, m.stacked_heads), (1, 1, 1), "{m:?}");
    assert_eq!(m.near_junctions, 0);
    assert_eq!(m.edge_crossings, 0);
}
