//! Reads a mermaid-cli flowchart SVG into a [`Drawing`]: node outlines
//! (`g.node` rects, polygons, circles and shape paths), edge paths (`d`
//! flattened with the same code as flowbench's curves), arrowheads,
//! edge-label chips (`g.edgeLabel` foreignObjects) and cluster titles, with
//! the `translate(…)` transforms of enclosing groups applied.

use std::collections::BTreeMap;

use flowbench::layout::curve::{Seg, flatten};
use flowbench::layout::drawn::{Drawing, DrawnCluster, DrawnEdge, DrawnNode, FLATTEN_STEP};
use flowbench::layout::{Point, Rect};
use flowbench::mermaid::{Flowchart, Shape};
use roxmltree::Node;

fn p(x: f32, y: f32) -> Point {
    Point { x, y }
}

fn translate(n: Node) -> Point {
    let Some(t) = n.attribute("transform") else { return p(0.0, 0.0) };
    let Some(rest) = t.trim().strip_prefix("translate(") else { return p(0.0, 0.0) };
    let nums = numbers(rest.split(')').next().unwrap_or(""));
    p(nums.first().copied().unwrap_or(0.0), nums.get(1).copied().unwrap_or(0.0))
}

fn numbers(s: &str) -> Vec<f32> {
    s.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()).filter_map(|t| t.parse().ok()).collect()
}

fn attr(n: Node, name: &str) -> f32 {
    n.attribute(name).and_then(|v| v.parse().ok()).unwrap_or(0.0)
}

fn has_class(n: Node, class: &str) -> bool {
    n.attribute("class").is_some_and(|c| c.split_whitespace().any(|w| w == class))
}

/// Path data (absolute and relative M/L/H/V/C/Z) as a start point and
/// segments, offset by `at`.
fn path_segments(d: &str, at: Point) -> Option<(Point, Vec<Seg>)> {
    let mut toks: Vec<Result<char, f32>> = Vec::new();
    let mut num = String::new();
    let flush = |num: &mut String, toks: &mut Vec<Result<char, f32>>| {
        if !num.is_empty() {
            toks.push(Err(num.parse().unwrap_or(0.0)));
            num.clear();
        }
    };
    for ch in d.chars() {
        if ch.is_ascii_alphabetic() && ch != 'e' && ch != 'E' {
            flush(&mut num, &mut toks);
            toks.push(Ok(ch));
        } else if ch == ',' || ch.is_whitespace() {
            flush(&mut num, &mut toks);
        } else if ch == '-' && !num.is_empty() && !num.ends_with(['e', 'E']) {
            flush(&mut num, &mut toks);
            num.push(ch);
        } else {
            num.push(ch);
        }
    }
    flush(&mut num, &mut toks);
    let (mut cmd, mut cur, mut start) = ('M', at, None::<Point>);
    let (mut segs, mut i) = (Vec::new(), 0);
    let take = |i: &mut usize, k: usize| -> Option<Vec<f32>> {
        let v: Option<Vec<f32>> = toks.get(*i..*i + k)?.iter().map(|t| t.err()).collect();
        *i += k;
        v
    };
    while i < toks.len() {
        if let Ok(c) = toks[i] {
            cmd = c;
            i += 1;
            if c == 'Z' || c == 'z' {
                if let Some(s) = start {
                    segs.push(Seg::Line(s));
                    cur = s;
                }
                continue;
            }
        }
        let rel = cmd.is_ascii_lowercase();
        let base = if rel { cur } else { at };
        let pt = |x: f32, y: f32| p(base.x + x, base.y + y);
        match cmd.to_ascii_uppercase() {
            'M' | 'L' => {
                let v = take(&mut i, 2)?;
                let q = pt(v[0], v[1]);
                if start.is_none() {
                    start = Some(q);
                } else {
                    segs.push(Seg::Line(q));
                }
                cur = q;
                cmd = if rel { 'l' } else { 'L' };
            }
            'H' => {
                let v = take(&mut i, 1)?;
                cur = p(if rel { cur.x + v[0] } else { at.x + v[0] }, cur.y);
                segs.push(Seg::Line(cur));
            }
            'V' => {
                let v = take(&mut i, 1)?;
                cur = p(cur.x, if rel { cur.y + v[0] } else { at.y + v[0] });
                segs.push(Seg::Line(cur));
            }
            'C' => {
                let v = take(&mut i, 6)?;
                let q = pt(v[4], v[5]);
                segs.push(Seg::Cubic(pt(v[0], v[1]), pt(v[2], v[3]), q));
                cur = q;
            }
            _ => return None,
        }
    }
    Some((start?, segs))
}

/// Convex hull (monotone chain), so any shape reads as a convex outline.
fn hull(mut pts: Vec<Point>) -> Vec<Point> {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let cross = |o: Point, a: Point, b: Point| (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
    let mut h: Vec<Point> = Vec::new();
    for pass in 0..2 {
        let start = h.len();
        let iter: Box<dyn Iterator<Item = &Point>> =
            if pass == 0 { Box::new(pts.iter()) } else { Box::new(pts.iter().rev()) };
        for &q in iter {
            while h.len() >= start + 2 && cross(h[h.len() - 2], h[h.len() - 1], q) <= 0.0 {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
    }
    h
}

/// The outline of a node group (its first shape element outside the label).
fn node_outline(g: Node) -> Option<Vec<Point>> {
    for d in g.descendants() {
        if d.ancestors().take_while(|a| *a != g).any(|a| has_class(a, "label")) {
            continue;
        }
        let o = origin(d);
        match d.tag_name().name() {
            "rect" => {
                let (x, y, w, h) = (o.x + attr(d, "x"), o.y + attr(d, "y"), attr(d, "width"), attr(d, "height"));
                return Some(vec![p(x, y), p(x + w, y), p(x + w, y + h), p(x, y + h)]);
            }
            "polygon" => {
                let v = numbers(d.attribute("points").unwrap_or(""));
                return Some(hull(v.chunks(2).filter(|c| c.len() == 2).map(|c| p(o.x + c[0], o.y + c[1])).collect()));
            }
            "circle" | "ellipse" => {
                let (cx, cy) = (o.x + attr(d, "cx"), o.y + attr(d, "cy"));
                let (rx, ry) =
                    if d.has_attribute("r") { (attr(d, "r"), attr(d, "r")) } else { (attr(d, "rx"), attr(d, "ry")) };
                return Some(
                    (0..16)
                        .map(|k| (k as f32 * std::f32::consts::TAU / 16.0, k))
                        .map(|(a, _)| p(cx + rx * a.cos(), cy + ry * a.sin()))
                        .collect(),
                );
            }
            "path" => {
                let (s, segs) = path_segments(d.attribute("d")?, o)?;
                return Some(hull(flatten(s, &segs, 4.0)));
            }
            _ => {}
        }
    }
    None
}

/// Absolute translation of `n` (its own and its ancestors'; roxmltree's
/// `ancestors` starts at the node itself).
fn origin(n: Node) -> Point {
    n.ancestors().fold(p(0.0, 0.0), |acc, a| {
        let t = translate(a);
        p(acc.x + t.x, acc.y + t.y)
    })
}

/// `L_<from>_<to>_<n>` → (from, to), resolved against the chart's ids.
fn edge_ends<'a>(id: &str, ids: &'a [String]) -> Option<(&'a str, &'a str)> {
    let body = id.strip_prefix("L_")?;
    let body = &body[..body.rfind('_')?];
    ids.iter().find_map(|a| {
        let rest = body.strip_prefix(a.as_str())?.strip_prefix('_')?;
        ids.iter().find(|b| b.as_str() == rest).map(|b| (a.as_str(), b.as_str()))
    })
}

/// Reads mermaid-cli's SVG of `chart`.
pub fn read(svg: &str, chart: &Flowchart) -> Result<Drawing, String> {
    let doc = roxmltree::Document::parse(svg).map_err(|e| e.to_string())?;
    let mut ids: Vec<String> = chart.nodes.iter().map(|n| n.id.clone()).collect();
    ids.extend(chart.subgraphs.iter().map(|s| s.id.clone()));
    // Longest ids first, so `A_1` is not read as `A` + `_1…`.
    ids.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    let mut d = Drawing::default();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut labels: BTreeMap<String, Rect> = BTreeMap::new();
    for n in doc.descendants().filter(|n| n.is_element()) {
        let id = n.attribute("id").unwrap_or("");
        if n.tag_name().name() == "g" && has_class(n, "node") {
            let Some(body) = id.split_once("flowchart-").map(|x| x.1) else { continue };
            let node_id = &body[..body.rfind('-').unwrap_or(body.len())];
            let Some(outline) = node_outline(n) else { continue };
            let decision = chart.nodes.iter().any(|c| c.id == node_id && matches!(c.shape, Shape::Diam));
            index.insert(node_id.to_string(), d.nodes.len());
            d.nodes.push(DrawnNode { id: node_id.to_string(), outline, decision });
        } else if n.tag_name().name() == "g" && has_class(n, "cluster") {
            let rect = n.children().find(|c| c.tag_name().name() == "rect").map(|r| {
                let o = origin(r);
                Rect {
                    x: o.x + attr(r, "x"),
                    y: o.y + attr(r, "y"),
                    width: attr(r, "width"),
                    height: attr(r, "height"),
                }
            });
            let title = n.descendants().find(|c| has_class(*c, "cluster-label")).and_then(|l| fo_rect(l));
            let cid = id.strip_prefix("my-svg-").unwrap_or(id).to_string();
            d.clusters.push(DrawnCluster { id: cid, rect: rect.unwrap_or_default(), title });
        } else if n.tag_name().name() == "g"
            && has_class(n, "label")
            && let Some(data_id) = n.attribute("data-id")
            && let Some(r) = fo_rect(n)
        {
            labels.insert(data_id.to_string(), r);
        }
    }
    for n in doc.descendants().filter(|n| n.tag_name().name() == "path" && n.attribute("data-edge") == Some("true")) {
        let eid = n.attribute("data-id").unwrap_or("");
        let (from, to) = edge_ends(eid, &ids).ok_or_else(|| format!("edge `{eid}` names no known nodes"))?;
        let Some((s, segs)) = path_segments(n.attribute("d").unwrap_or(""), origin(n)) else { continue };
        let cubics = segs.iter().filter(|s| matches!(s, Seg::Cubic(..))).count();
        d.edges.push(DrawnEdge {
            from: index.get(from).copied(),
            to: index.get(to).copied(),
            curve: flatten(s, &segs, FLATTEN_STEP),
            head_start: n.attribute("marker-start").is_some_and(|m| m.contains("pointStart")),
            head_end: n.attribute("marker-end").is_some_and(|m| m.contains("pointEnd")),
            label: labels.get(eid).copied(),
            corners: cubics.saturating_sub(1),
        });
    }
    Ok(d)
}

/// The box of the first non-empty foreignObject under `g`.
fn fo_rect(g: Node) -> Option<Rect> {
    let fo = g.descendants().find(|c| c.tag_name().name() == "foreignObject")?;
    let (w, h) = (attr(fo, "width"), attr(fo, "height"));
    if w <= 0.0 || h <= 0.0 {
        return None;
    }
    let o = origin(fo);
    Some(Rect { x: o.x + attr(fo, "x"), y: o.y + attr(fo, "y"), width: w, height: h })
}
