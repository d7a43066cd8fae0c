//! End-to-end checks of [`super::layout`] on hand-built charts: every
//! direction, clusters (nested, crossed by edges, with their own
//! direction), self-loops, multi-edges, labels and back edges must give
//! clean layouts.

use crate::mermaid::{Direction, Edge, Flowchart, LabelType, Node, Shape, Subgraph};
use crate::text::Fonts;

use super::metrics::metrics;
use super::{LayoutError, LayoutOptions, layout};

fn node(id: &str, shape: Shape) -> Node {
    Node::new(id, id, LabelType::Text, shape)
}

/// A chart from `"a>b:label"` edge specs; nodes named `d*` are diamonds.
pub fn chart(dir: Direction, edges: &[&str], subgraphs: &[(&str, &[&str], Option<Direction>)]) -> Flowchart {
    let mut c = Flowchart { direction: dir, ..Default::default() };
    let add = |c: &mut Flowchart, id: &str| {
        let sg = subgraphs.iter().any(|s| s.0 == id);
        if !sg && c.node(id).is_none() {
            c.nodes.push(node(id, if id.starts_with('d') { Shape::Diam } else { Shape::Rect }));
        }
    };
    for spec in edges {
        let (ends, label) = spec.split_once(':').map_or((*spec, None), |(a, b)| (a, Some(b.to_string())));
        let (a, b) = ends.split_once('>').expect("edge spec");
        add(&mut c, a);
        add(&mut c, b);
        c.edges.push(Edge { label, ..Edge::new(format!("L_{a}_{b}"), a, b) });
    }
    for (id, members, d) in subgraphs {
        for m in *members {
            add(&mut c, m);
        }
        c.subgraphs.push(Subgraph {
            id: id.to_string(),
            title: id.to_string(),
            label_type: LabelType::Text,
            members: members.iter().map(|s| s.to_string()).collect(),
            direction: *d,
            classes: vec![],
            styles: vec![],
            span: Default::default(),
        });
    }
    c
}

fn assert_clean(c: &Flowchart) {
    let g = layout(c, &LayoutOptions::default(), &Fonts::embedded()).expect("layout");
    let m = metrics(c, &g);
    assert_eq!(
        (m.node_overlaps, m.label_overlaps, m.edges_through_nodes, m.labels_off_edge),
        (0, 0, 0, 0),
        "{m:?}\n{g:#?}"
    );
    for e in &g.edges {
        assert!(e.points.len() >= 2, "every edge is drawn");
    }
    for (n, pn) in c.nodes.iter().zip(&g.nodes) {
        assert!(pn.rect.width >= pn.label.width, "{}", n.id);
        assert!(pn.rect.x >= 0.0 && pn.rect.x + pn.rect.width <= g.width, "{} inside drawing", n.id);
    }
}

const DIRS: [Direction; 4] = [Direction::TB, Direction::BT, Direction::LR, Direction::RL];

#[test]
fn decision_loop_all_directions() {
    for d in DIRS {
        let c = chart(
            d,
            &["A>B", "B>dC", "dC>D:Yes", "dC>E:No", "D>B", "E>F", "D>F:a rather long label that will wrap over lines"],
            &[],
        );
        assert_clean(&c);
    }
}

#[test]
fn self_loops_and_multi_edges() {
    for d in DIRS {
        let c = chart(d, &["A>A", "A>A:again", "A>B", "A>B", "A>B:x", "B>C", "C>A"], &[]);
        assert_clean(&c);
        let g = layout(&c, &LayoutOptions::default(), &Fonts::embedded()).unwrap();
        assert_ne!(g.edges[2].points, g.edges[3].points, "parallel edges are separated");
    }
}

#[test]
fn clusters_nested_and_crossed() {
    for d in DIRS {
        let c = chart(
            d,
            &["X>a1", "a1>a2", "a2>b1", "b1>b2", "b2>X", "a2>Y", "b1>a1:back", "one>Y", "Z>two", "c1>c2"],
            &[
                ("one", &["a1", "a2"], None),
                ("two", &["b1", "three"], None),
                ("three", &["b2"], Some(Direction::LR)),
                ("four", &["c1", "c2"], Some(Direction::LR)),
            ],
        );
        assert_clean(&c);
        let g = layout(&c, &LayoutOptions::default(), &Fonts::embedded()).unwrap();
        // Members lie inside their cluster's box.
        let inside = |n: usize, cl: usize| {
            let (r, b) = (g.nodes[n].rect, g.clusters[cl].rect);
            r.x >= b.x && r.y >= b.y && r.x + r.width <= b.x + b.width && r.y + r.height <= b.y + b.height
        };
        let ix = |id: &str| c.nodes.iter().position(|n| n.id == id).unwrap();
        assert!(inside(ix("a1"), 0) && inside(ix("b2"), 2) && inside(ix("b2"), 1));
        // "four" has no crossing edges, so it keeps LR: c2 right of c1.
        if d == Direction::TB {
            assert!(g.nodes[ix("c2")].rect.x > g.nodes[ix("c1")].rect.x + 10.0);
        }
    }
}

#[test]
fn what_follows_a_cluster_exit_sits_beside_it() {
    // A helper subgraph left from an inner node (r, on the second rank of
    // four): the decision after it goes level with the cluster's lower
    // ranks, not below the whole box, as mermaid draws it.
    for d in DIRS {
        let c = chart(
            d,
            &[
                "A>h1", "h1>dC", "dC>m:Yes", "m>dT", "dT>l:Yes", "dT>h:No", "l>dC", "h>dC", "dC>r:No", "r>dF:pos",
                "dF>G:Yes", "dF>K:No", "G>I", "K>I", "I>A",
            ],
            &[("H", &["h1", "dC", "m", "dT", "l", "h", "r"], None)],
        );
        assert_clean(&c);
        let g = layout(&c, &LayoutOptions::default(), &Fonts::embedded()).unwrap();
        let cl = g.clusters[0].rect;
        let ix = |id: &str| c.nodes.iter().position(|n| n.id == id).unwrap();
        for id in ["A", "dF", "G", "K", "I"] {
            let r = g.nodes[ix(id)].rect;
            let apart =
                r.x + r.width <= cl.x || cl.x + cl.width <= r.x || r.y + r.height <= cl.y || cl.y + cl.height <= r.y;
            assert!(apart, "{d:?}: {id} {r:?} overlaps the cluster {cl:?}");
        }
        let f = g.nodes[ix("dF")].rect;
        let beside = match d {
            Direction::TB => f.y < cl.y + cl.height,
            Direction::BT => f.y + f.height > cl.y,
            Direction::LR => f.x < cl.x + cl.width,
            Direction::RL => f.x + f.width > cl.x,
        };
        assert!(beside, "{d:?}: dF {f:?} is not beside the cluster {cl:?}");
    }
}

#[test]
fn a_cluster_with_a_bottom_exit_hugs_its_content() {
    // Two helper subgraphs, as Code-Vision charts have them: is_prime is
    // left sideways (Return True, mid-cluster) and through the bottom
    // (Return False, last rank). The bottom exit's port takes one rank
    // spacing inside the box, as it did before clusters spanned ranks; the
    // parent must not stretch the box further (it added 190 px when the
    // port's rank was a segment of its own).
    let text = "flowchart TD
    A([Start]) --> B[/Read n/] --> C[i = 2, count = 0] --> D{i <= n?}
    D -- No --> R[/Print count/] --> Z([End])
    D -- Yes --> P1[[Call is_prime i]] --> IP_A
    subgraph IP [is_prime k]
        IP_A{k < 2?} -- Yes --> IP_F[Return False]
        IP_A -- No --> IP_B[d = 2] --> IP_C{d * d <= k?}
        IP_C -- No --> IP_T[Return True]
        IP_C -- Yes --> IP_D{k % d == 0?}
        IP_D -- Yes --> IP_F
        IP_D -- No --> IP_E[d = d + 1] --> IP_C
    end
    IP_T --> G1[[Call gcd i, n]] --> GC_A
    IP_F --> INC[i = i + 1]
    subgraph GC [gcd a, b]
        GC_A{b == 0?} -- Yes --> GC_R[Return a]
        GC_A -- No --> GC_S[a, b = b, a % b] --> GC_A
    end
    GC_R --> E{g == 1?}
    E -- Yes --> F[count = count + 1] --> INC
    E -- No --> INC
    INC --> D";
    let c = crate::mermaid::parse(text).unwrap();
    assert_clean(&c);
    let g = layout(&c, &LayoutOptions::default(), &Fonts::embedded()).unwrap();
    let cl = g.clusters[c.subgraphs.iter().position(|s| s.id == "IP").unwrap()].rect;
    let members = &c.subgraphs.iter().find(|s| s.id == "IP").unwrap().members;
    let bottom = c
        .nodes
        .iter()
        .zip(&g.nodes)
        .filter(|(n, _)| members.contains(&n.id))
        .map(|(_, p)| p.rect.y + p.rect.height)
        .fold(f32::MIN, f32::max);
    let o = LayoutOptions::default();
    let gap = cl.y + cl.height - bottom;
    assert!(gap <= o.cluster_padding + o.rank_spacing + 1.0, "{gap} px between the last node and the cluster's bottom");
}

#[test]
fn deterministic() {
    let c = chart(Direction::TB, &["A>B", "B>C", "C>A", "A>D", "D>C"], &[("s", &["B", "C"], None)]);
    let f = Fonts::embedded();
    let a = layout(&c, &LayoutOptions::default(), &f).unwrap();
    let b = layout(&c, &LayoutOptions::default(), &f).unwrap();
    assert_eq!(a, b);
}

#[test]
fn refuses_over_the_limit() {
    let c = chart(Direction::TB, &["A>B", "B>C"], &[]);
    let opts = LayoutOptions { max_nodes: 2, ..Default::default() };
    let err = layout(&c, &opts, &Fonts::embedded()).unwrap_err();
    assert_eq!(err, LayoutError::TooLarge { nodes: 3, limit: 2 });
    assert!(err.to_string().contains("limit of 2"), "{err}");
}

/// A helper that calls another helper and decides on its result (chart
/// 17 of the Code-Vision-style anchors): `a1` leads through cluster `DS`
/// to `d2`, so inside `AM` the decision `d2` is drawn below `a1`, entered
/// from above beside `DS`, never level with or above the call leading to
/// it (it once sat beside `a1`, entered from below).
#[test]
fn flow_inside_a_cluster_follows_a_detour_through_another() {
    let edges = [
        "S>E", "E>a1", "a1>ds1", "ds1>ds2", "ds2>ds3", "ds1>r0", "ds3>r1", "r0>d2", "r1>d2", "d2>T:Yes", "d2>F:No",
        "T>G", "F>G",
    ];
    for d in DIRS {
        let c = chart(
            d,
            &edges,
            &[("AM", &["a1", "d2", "T", "F"], None), ("DS", &["ds1", "ds2", "ds3", "r0", "r1"], None)],
        );
        let g = layout(&c, &LayoutOptions::default(), &Fonts::embedded()).expect("layout");
        let at = |id: &str| g.nodes[c.nodes.iter().position(|n| n.id == id).unwrap()].rect;
        // Along the chart's direction, `d2` comes after all of DS.
        let along = |r: super::Rect, end: bool| match d {
            Direction::TB => r.y + if end { r.height } else { 0.0 },
            Direction::BT => -(r.y + if end { 0.0 } else { r.height }),
            Direction::LR => r.x + if end { r.width } else { 0.0 },
            Direction::RL => -(r.x + if end { 0.0 } else { r.width }),
        };
        for id in ["a1", "ds1", "ds3", "r0", "r1"] {
            assert!(along(at(id), true) < along(at("d2"), false), "{d:?}: {id} ends before d2 starts");
        }
        assert_clean(&c);
        // Drawn forwards: every edge into d2 ends on its entry side.
        for (e, ge) in c.edges.iter().zip(&g.edges) {
            if e.to == "d2" {
                let (p, q) = (ge.points[ge.points.len() - 2], ge.points[ge.points.len() - 1]);
                let step = along(super::Rect { x: q.x, y: q.y, width: 0.0, height: 0.0 }, false)
                    - along(super::Rect { x: p.x, y: p.y, width: 0.0, height: 0.0 }, false);
                assert!(step > 0.0, "{d:?}: {} → d2 arrives forwards", e.from);
            }
        }
    }
}

/// A loop's closing edge from a box whose route climbs beside the box
/// leaves from that side, level with the box's middle, not from its top
/// beside the arrow coming in (which reads as that arrow passing by).
#[test]
fn back_edge_leaves_its_box_from_a_side() {
    let c = chart(Direction::TB, &["S>I", "I>dL", "dL>A:Yes", "A>B", "B>C", "C>dL", "dL>O:No", "O>E"], &[]);
    let g = layout(&c, &LayoutOptions::default(), &Fonts::embedded()).expect("layout");
    let k = c.edges.iter().position(|e| e.from == "C" && e.to == "dL").unwrap();
    let r = g.nodes[c.nodes.iter().position(|n| n.id == "C").unwrap()].rect;
    let start = g.edges[k].points[0];
    assert!(start.y > r.y + 1.0 && start.y < r.y + r.height - 1.0, "leaves from a side: {start:?} on {r:?}");
    assert_clean(&c);
}
