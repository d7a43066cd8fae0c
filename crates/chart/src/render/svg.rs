//! The SVG writer: [`Flowchart`] + [`Geometry`] → SVG text in mermaid's
//! visual language (layer order clusters → edges → edge labels → nodes, as
//! mermaid's own output).
//!
//! Output is a pure function of its inputs: no maps are iterated, numbers are
//! printed with fixed precision, so the bytes are reproducible.

use std::fmt::Write;

use crate::layout::{Geometry, Rect};
use crate::mermaid::{Flowchart, Shape, Stroke};
use crate::text::TextBlock;

use super::css::{self, Resolved};
use super::curve::{self, Curve};
use super::glyphs::Outliner;
use super::label;
use super::markers::Markers;
use super::rough::Sketch;
use super::shapes::{self, Paint};
use super::theme::Theme;
use super::xml::{N, esc};

/// Write the SVG for `chart` laid out as `geom`. `curve` is the default
/// interpolation; per-edge `interpolate` and `linkStyle default interpolate`
/// take precedence, as in mermaid.
///
/// With `outlines`, labels are shaped with its fonts and left to the
/// rasteriser (see [`super::glyphs`]) instead of written as `<text>`; a
/// label whose user style changes the font stays `<text>`.
///
/// With `sketch`, outlines and edges are drawn hand-drawn (see
/// [`super::rough`]).
pub fn write(
    chart: &Flowchart,
    geom: &Geometry,
    (theme, curve): (&Theme, Curve),
    mut outlines: Option<&mut Outliner>,
    mut sketch: Option<Sketch>,
) -> String {
    let mut out = String::with_capacity(2048 + geom.nodes.len() * 600 + geom.edges.len() * 400);
    let (w, h) = (geom.width.max(1.0), geom.height.max(1.0));
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{ff}" xml:space="preserve" data-theme="{tn}">"#,
        w = N(w),
        h = N(h),
        ff = esc(&theme.font_family),
        tn = esc(&theme.name)
    );
    if let Some(t) = &chart.acc_title {
        let _ = write!(out, "<title>{}</title>", esc(t));
    }
    if let Some(d) = &chart.acc_descr {
        let _ = write!(out, "<desc>{}</desc>", esc(d));
    }
    if let Some(bg) = &theme.background {
        let _ = write!(out, r#"<rect width="100%" height="100%" fill="{}"/>"#, esc(bg));
    }
    let mut body = String::with_capacity(out.capacity());
    clusters(&mut body, chart, geom, theme, outlines.as_deref_mut(), &mut sketch);
    let mut markers = Markers::default();
    edges(&mut body, chart, geom, (theme, curve), &mut markers, &mut sketch);
    edge_labels(&mut body, chart, geom, theme, outlines.as_deref_mut());
    nodes(&mut body, chart, geom, theme, outlines, &mut sketch);
    let defs = markers.defs();
    if !defs.is_empty() {
        let _ = write!(out, "<defs>{defs}</defs>");
    }
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// Nesting depth of each subgraph, so outer boxes are drawn before inner
/// ones whatever order the model lists them in.
fn cluster_depths(chart: &Flowchart) -> Vec<usize> {
    let n = chart.subgraphs.len();
    let mut parent = vec![usize::MAX; n];
    for (p, sg) in chart.subgraphs.iter().enumerate() {
        for m in &sg.members {
            if let Some(c) = chart.subgraphs.iter().position(|s| s.id == *m) {
                parent[c] = p;
            }
        }
    }
    (0..n)
        .map(|mut i| {
            let mut d = 0;
            while parent[i] != usize::MAX && d <= n {
                i = parent[i];
                d += 1;
            }
            d
        })
        .collect()
}

/// Writes `fragment` as it is, or sketched when the look is hand-drawn.
fn put_shapes(out: &mut String, fragment: &str, sketch: &mut Option<Sketch>) {
    match sketch {
        Some(s) => s.shapes(fragment, out),
        None => out.push_str(fragment),
    }
}

fn clusters(
    out: &mut String,
    chart: &Flowchart,
    geom: &Geometry,
    theme: &Theme,
    mut outlines: Option<&mut Outliner>,
    sketch: &mut Option<Sketch>,
) {
    if geom.clusters.is_empty() {
        return;
    }
    let depths = cluster_depths(chart);
    let mut order: Vec<usize> = (0..geom.clusters.len()).collect();
    order.sort_by_key(|&i| depths.get(i).copied().unwrap_or(0));
    out.push_str(r#"<g class="clusters">"#);
    for i in order {
        let c = &geom.clusters[i];
        let style = if i < chart.subgraphs.len() { css::for_cluster(chart, i) } else { Resolved::default() };
        let mut frame = String::new();
        let _ = write!(
            frame,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}" stroke="{}" stroke-width="1"{}/>"#,
            N(c.rect.x),
            N(c.rect.y),
            N(c.rect.width),
            N(c.rect.height),
            esc(&theme.cluster_fill),
            esc(&theme.cluster_stroke),
            style_attr(&style.shape_style())
        );
        put_shapes(out, &frame, sketch);
        let (tr, tb) = &c.title;
        put_label(
            out,
            tb,
            tr.x + tr.width / 2.0,
            tr.y + (tr.height - tb.height) / 2.0,
            (&theme.cluster_text, &style),
            outlines.as_deref_mut(),
        );
    }
    out.push_str("</g>");
}

fn edges(
    out: &mut String,
    chart: &Flowchart,
    geom: &Geometry,
    (theme, default): (&Theme, Curve),
    markers: &mut Markers,
    sketch: &mut Option<Sketch>,
) {
    out.push_str(r#"<g class="edges" fill="none">"#);
    for (i, routed) in geom.edges.iter().enumerate() {
        let Some(edge) = chart.edges.get(i) else { break };
        if edge.stroke == Stroke::Invisible || routed.points.len() < 2 {
            continue;
        }
        let style = css::for_edge(chart, i);
        let colour = style.shape_value("stroke").unwrap_or(&theme.edge_stroke).to_string();
        let width = match edge.stroke {
            Stroke::Thick => theme.thick_stroke_width,
            _ => theme.edge_stroke_width,
        };
        let pts = curve::drawn_polyline(chart, i, &routed.points);
        let c = Curve::for_edge(chart, i, default);
        let d = curve::path(&pts, c);
        // Each edge in its own group: a straight edge has an empty fill box,
        // and the PNG rasteriser can skip a group by its box, not such a path.
        out.push_str("<g>");
        // Hand-drawn: the rough strokes, then the true path unstroked, which
        // still carries the arrowheads at the exact ends and angles.
        let stroke = match sketch {
            Some(s) => {
                s.edge(
                    &d,
                    style.shape_value("stroke").unwrap_or(&theme.edge_stroke),
                    width,
                    edge.stroke == Stroke::Dotted,
                    out,
                );
                "none".to_string()
            }
            None => theme.edge_stroke.clone(),
        };
        let _ = write!(out, r#"<path d="{d}" stroke="{}" stroke-width="{}""#, esc(&stroke), N(width));
        if edge.stroke == Stroke::Dotted {
            out.push_str(r#" stroke-dasharray="2""#);
        }
        if let Some(id) = markers.id(edge.head_start, true, &colour) {
            let _ = write!(out, r#" marker-start="url(#{id})""#);
        }
        if let Some(id) = markers.id(edge.head_end, false, &colour) {
            let _ = write!(out, r#" marker-end="url(#{id})""#);
        }
        if sketch.is_none() {
            out.push_str(&style_attr(&without_fill(&style)));
        }
        out.push_str("/></g>");
    }
    out.push_str("</g>");
}

/// `linkStyle … fill:` would fill the area under a curve in SVG; mermaid
/// forces `fill:none` on links, so we drop it.
fn without_fill(r: &Resolved) -> String {
    let mut r = r.clone();
    r.shape.retain(|(k, _)| k != "fill");
    r.shape_style()
}

fn edge_labels(
    out: &mut String,
    chart: &Flowchart,
    geom: &Geometry,
    theme: &Theme,
    mut outlines: Option<&mut Outliner>,
) {
    out.push_str(r#"<g class="edge-labels">"#);
    for (i, routed) in geom.edges.iter().enumerate() {
        let Some((r, block)) = &routed.label else { continue };
        if block.lines.is_empty() {
            continue;
        }
        let style = if i < chart.edges.len() { css::for_edge(chart, i) } else { Resolved::default() };
        let _ = write!(
            out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
            N(r.x),
            N(r.y),
            N(r.width),
            N(r.height),
            esc(&theme.edge_label_background)
        );
        put_label(
            out,
            block,
            r.x + r.width / 2.0,
            r.y + (r.height - block.height) / 2.0,
            (&theme.edge_label_text, &style),
            outlines.as_deref_mut(),
        );
    }
    out.push_str("</g>");
}

fn nodes(
    out: &mut String,
    chart: &Flowchart,
    geom: &Geometry,
    theme: &Theme,
    mut outlines: Option<&mut Outliner>,
    sketch: &mut Option<Sketch>,
) {
    out.push_str(r#"<g class="nodes">"#);
    for (i, placed) in geom.nodes.iter().enumerate() {
        let Some(node) = chart.nodes.get(i) else { break };
        let style = css::for_node(chart, i);
        let (fill, stroke) = match node.shape {
            Shape::Note => (&theme.note_fill, &theme.note_stroke),
            _ => (&theme.node_fill, &theme.node_stroke),
        };
        let user = style_attr(&style.shape_style());
        let body = format!(
            r#"fill="{}" stroke="{}" stroke-width="{}"{user}"#,
            esc(fill),
            esc(stroke),
            N(theme.node_stroke_width)
        );
        let line =
            format!(r#"fill="none" stroke="{}" stroke-width="{}"{user}"#, esc(stroke), N(theme.node_stroke_width));
        let solid_colour = style.shape_value("fill").unwrap_or(&theme.solid_fill).to_string();
        let solid = format!(r#"fill="{}" stroke="none""#, esc(&solid_colour));
        let r: Rect = placed.rect;
        out.push_str("<g>");
        let mut outline = String::new();
        shapes::draw(&mut outline, node.shape, r, &Paint { body: &body, line: &line, solid: &solid });
        put_shapes(out, &outline, sketch);
        if shapes::is_glyph(node.shape) {
            out.push_str("</g>");
            continue;
        }
        let (dx, dy) = shapes::label_offset(node.shape, r);
        let cx = r.x + r.width / 2.0 + dx;
        let top = r.y + (r.height - placed.label.height) / 2.0 + dy;
        put_label(out, &placed.label, cx, top, (&theme.node_text, &style), outlines.as_deref_mut());
        out.push_str("</g>");
    }
    out.push_str("</g>");
}

/// Draws a label centred on `cx`, its top at `top`, in the theme colour
/// `paint.0` unless the user's style `paint.1` says otherwise.
fn put_label(
    out: &mut String,
    block: &TextBlock,
    cx: f32,
    top: f32,
    paint: (&str, &Resolved),
    outlines: Option<&mut Outliner>,
) {
    let (fill, style) = paint;
    let attrs = text_attrs(fill, style);
    // Only usvg's text engine applies a user font-size, weight or family.
    match outlines.filter(|_| style.text.iter().all(|(k, _)| k == "fill")) {
        Some(outliner) => label::draw_outlined(out, block, cx, top, &attrs, outliner),
        None => label::draw(out, block, cx, top, &attrs),
    }
}

fn text_attrs(fill: &str, style: &Resolved) -> String {
    format!(r#"fill="{}"{}"#, esc(fill), style_attr(&style.text_style()))
}

fn style_attr(s: &str) -> String {
    if s.is_empty() { String::new() } else { format!(r#" style="{}""#, esc(s)) }
}
