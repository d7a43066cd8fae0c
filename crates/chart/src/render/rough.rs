//! The hand-drawn look (`look = "handDrawn"`): mermaid 11's sketchy style,
//! drawn with `roughr`, a port of rough.js (the library mermaid itself uses).
//!
//! # How it works
//!
//! The SVG writer draws each node, cluster and edge in the classic look
//! first; [`Sketch`] then rewrites that fragment: every `<path>`, `<rect>`,
//! `<circle>` and `<ellipse>` becomes rough strokes (the outline, stroked
//! twice with random bowing, as rough.js does) and a hachure fill in the
//! fill colour. Labels and edge-label backgrounds stay clean, as in
//! mermaid, so the text is no harder to read than in the classic look.
//!
//! Every random choice comes from roughr's seeded generator: element `k`
//! of a chart is drawn with the seed `hand_drawn_seed` mixed with `k`, so
//! the same chart and seed give the same bytes, and two nodes of one chart
//! do not wobble identically.

use std::fmt::Write;

use roughr::core::{FillStyle, OpSetType, OpType, Options};
use roughr::generator::Generator;

use super::xml::{N, esc};

/// mermaid's `handDrawn` settings for nodes (`userNodeOverrides`):
/// roughness 0.7, hachure fill with weight 4 and gap 5.2, stroke 1.3.
const NODE_ROUGHNESS: f32 = 0.7;
const HACHURE_GAP: f32 = 5.2;
const FILL_WEIGHT: f32 = 4.0;
/// Edges wobble less than outlines, so a long edge still reads as one line.
const EDGE_ROUGHNESS: f32 = 0.5;

/// One chart's sketching state: the seed and how many elements were drawn.
pub struct Sketch {
    seed: u64,
    drawn: u64,
    generator: Generator,
}

/// Paint read from one classic element.
struct Paint {
    fill: Option<String>,
    stroke: Option<String>,
    width: f32,
    dash: Option<String>,
}

impl Sketch {
    /// A sketcher for one chart drawn with `hand_drawn_seed`.
    pub fn new(seed: u64) -> Sketch {
        Sketch { seed, drawn: 0, generator: Generator::default() }
    }

    /// The next element's options: its own seed, derived from the chart's.
    fn options(&mut self, roughness: f32, fill: bool) -> Options {
        self.drawn += 1;
        let seed = self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(self.drawn);
        Options {
            seed: Some(seed),
            randomizer: None,
            roughness: Some(roughness),
            hachure_gap: Some(HACHURE_GAP),
            fill_weight: Some(FILL_WEIGHT),
            fill_style: Some(FillStyle::Hachure),
            // The colours are written by us; roughr only needs to know
            // whether to make a fill.
            fill: fill.then(|| roughr::Srgba::new(0.0, 0.0, 0.0, 1.0)),
            ..Options::default()
        }
    }

    /// Rewrites a fragment of classic shapes (one node's or cluster's
    /// outline, as `shapes::draw` writes it) as rough strokes and fills.
    /// Anything else in the fragment is kept as written.
    pub fn shapes(&mut self, fragment: &str, out: &mut String) {
        let wrapped = format!("<g>{fragment}</g>");
        let Ok(doc) = roxmltree::Document::parse(&wrapped) else {
            out.push_str(fragment);
            return;
        };
        for el in doc.root_element().children().filter(|n| n.is_element()) {
            match outline_of(&el) {
                Some(outline) => self.element(&outline, &paint_of(&el), out),
                None => out.push_str(&wrapped[el.range()]),
            }
        }
    }

    /// An edge's path `d` drawn rough in `stroke`, `width` px wide.
    pub fn edge(&mut self, d: &str, stroke: &str, width: f32, dashed: bool, out: &mut String) {
        let paint =
            Paint { fill: None, stroke: Some(stroke.to_string()), width, dash: dashed.then(|| "2".to_string()) };
        let options = self.options(EDGE_ROUGHNESS, false);
        let drawable = self.generator.path::<f32>(d.to_string(), &Some(options));
        write_sets(&drawable.sets, &paint, out);
    }

    fn element(&mut self, outline: &Outline, paint: &Paint, out: &mut String) {
        let filled = paint.fill.is_some();
        let options = Some(self.options(NODE_ROUGHNESS, filled));
        let drawable = match outline {
            Outline::Path(d) => self.generator.path::<f32>(d.clone(), &options),
            Outline::Ellipse { cx, cy, rx, ry } => self.generator.ellipse(*cx, *cy, rx * 2.0, ry * 2.0, &options),
        };
        write_sets(&drawable.sets, paint, out);
    }
}

/// Writes roughr's op sets: hachure lines stroked in the fill colour,
/// solid fills filled, outlines stroked.
fn write_sets(sets: &[roughr::core::OpSet<f32>], paint: &Paint, out: &mut String) {
    for set in sets {
        let d = path_data(set);
        if d.is_empty() {
            continue;
        }
        match (&set.op_set_type, &paint.fill, &paint.stroke) {
            (OpSetType::FillSketch, Some(fill), _) => {
                let _ = write!(
                    out,
                    r#"<path d="{d}" fill="none" stroke="{}" stroke-width="{}"/>"#,
                    esc(fill),
                    N(FILL_WEIGHT / 2.0)
                );
            }
            (OpSetType::FillPath, Some(fill), _) => {
                let _ = write!(out, r#"<path d="{d}" fill="{}" stroke="none"/>"#, esc(fill));
            }
            (OpSetType::Path, _, Some(stroke)) => {
                let _ = write!(
                    out,
                    r#"<path d="{d}" fill="none" stroke="{}" stroke-width="{}""#,
                    esc(stroke),
                    N(paint.width)
                );
                if let Some(dash) = &paint.dash {
                    let _ = write!(out, r#" stroke-dasharray="{}""#, esc(dash));
                }
                out.push_str("/>");
            }
            _ => {}
        }
    }
}

/// SVG path data of one op set (roughr's own `ops_to_path` writes a move
/// as a line, which no SVG reader accepts at the start of a path).
fn path_data(set: &roughr::core::OpSet<f32>) -> String {
    let mut d = String::with_capacity(set.ops.len() * 40);
    for op in &set.ops {
        let cmd = match op.op {
            OpType::Move => 'M',
            OpType::LineTo => 'L',
            OpType::BCurveTo => 'C',
        };
        if op.data.iter().all(|v| v.is_finite()) {
            N::push_cmd(&mut d, cmd, &op.data);
        }
    }
    // A path must start with a move; drop anything before the first one.
    match d.find('M') {
        Some(i) => d.split_off(i),
        None => String::new(),
    }
}

/// The geometry of one classic element.
enum Outline {
    Path(String),
    Ellipse { cx: f32, cy: f32, rx: f32, ry: f32 },
}

fn num(el: &roxmltree::Node<'_, '_>, name: &str) -> f32 {
    el.attribute(name).and_then(|v| v.parse().ok()).unwrap_or(0.0)
}

fn outline_of(el: &roxmltree::Node<'_, '_>) -> Option<Outline> {
    match el.tag_name().name() {
        "path" => el.attribute("d").filter(|d| !d.is_empty()).map(|d| Outline::Path(d.to_string())),
        "rect" => {
            let (x, y, w, h) = (num(el, "x"), num(el, "y"), num(el, "width"), num(el, "height"));
            let r = num(el, "rx").min(w / 2.0).min(h / 2.0);
            Some(Outline::Path(rect_path(x, y, w, h, r)))
        }
        "circle" => {
            let r = num(el, "r");
            Some(Outline::Ellipse { cx: num(el, "cx"), cy: num(el, "cy"), rx: r, ry: r })
        }
        "ellipse" => {
            Some(Outline::Ellipse { cx: num(el, "cx"), cy: num(el, "cy"), rx: num(el, "rx"), ry: num(el, "ry") })
        }
        _ => None,
    }
}

/// A rectangle as path data, its corners rounded by `r` if positive.
fn rect_path(x: f32, y: f32, w: f32, h: f32, r: f32) -> String {
    let mut d = String::new();
    if r <= 0.0 {
        let _ = write!(d, "M{},{}L{},{}L{},{}L{},{}Z", N(x), N(y), N(x + w), N(y), N(x + w), N(y + h), N(x), N(y + h));
        return d;
    }
    let (rt, b) = (x + w, y + h);
    let _ = write!(
        d,
        "M{},{}L{},{}A{r},{r} 0 0 1 {},{}L{},{}A{r},{r} 0 0 1 {},{}L{},{}A{r},{r} 0 0 1 {},{}L{},{}A{r},{r} 0 0 1 {},{}Z",
        N(x + r),
        N(y),
        N(rt - r),
        N(y),
        N(rt),
        N(y + r),
        N(rt),
        N(b - r),
        N(rt - r),
        N(b),
        N(x + r),
        N(b),
        N(x),
        N(b - r),
        N(x),
        N(y + r),
        N(x + r),
        N(y),
        r = N(r)
    );
    d
}

/// The element's fill and stroke, a user `style` attribute taking
/// precedence over the presentation attributes as in SVG.
fn paint_of(el: &roxmltree::Node<'_, '_>) -> Paint {
    let mut fill = el.attribute("fill").map(str::to_string);
    let mut stroke = el.attribute("stroke").map(str::to_string);
    let mut width = el.attribute("stroke-width").and_then(|v| v.parse().ok()).unwrap_or(1.0);
    let mut dash = el.attribute("stroke-dasharray").map(str::to_string);
    for decl in el.attribute("style").unwrap_or("").split(';') {
        let Some((k, v)) = decl.split_once(':') else { continue };
        let v = v.trim().trim_end_matches("!important").trim().to_string();
        match k.trim() {
            "fill" => fill = Some(v),
            "stroke" => stroke = Some(v),
            "stroke-width" => width = v.trim_end_matches("px").parse().unwrap_or(width),
            "stroke-dasharray" => dash = Some(v),
            _ => {}
        }
    }
    let visible =
        |c: Option<String>| c.filter(|c| !c.eq_ignore_ascii_case("none") && !c.eq_ignore_ascii_case("transparent"));
    Paint { fill: visible(fill), stroke: visible(stroke), width, dash }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sketch(seed: u64, fragment: &str) -> String {
        let mut out = String::new();
        Sketch::new(seed).shapes(fragment, &mut out);
        out
    }

    #[test]
    fn shapes_become_rough_strokes_and_hachure_deterministically() {
        let rect = r##"<rect x="10" y="10" width="80" height="40" rx="5" ry="5" fill="#ECECFF" stroke="#9370DB" stroke-width="1"/>"##;
        let a = sketch(7, rect);
        assert_eq!(a, sketch(7, rect), "same seed, same bytes");
        assert_ne!(a, sketch(8, rect), "another seed wobbles differently");
        assert!(a.contains(r##"stroke="#ECECFF""##), "hachure in the fill colour: {a}");
        assert!(a.contains(r##"stroke="#9370DB""##), "outline in the stroke colour: {a}");
        assert!(!a.contains("<rect"), "{a}");
        for d in a.split("d=\"").skip(1) {
            assert!(d.starts_with('M'), "every path starts with a move: {d}");
        }
    }

    #[test]
    fn no_fill_means_no_hachure_and_user_style_wins() {
        let out = sketch(1, r##"<circle cx="20" cy="20" r="10" fill="none" stroke="#333" style="stroke:red"/>"##);
        assert!(out.contains(r#"stroke="red""#) && !out.contains("#333"), "{out}");
        assert_eq!(out.matches("<path").count(), 1, "outline only: {out}");
    }

    #[test]
    fn edges_keep_their_dashes() {
        let mut out = String::new();
        Sketch::new(3).edge("M0,0L0,100", "#333333", 1.0, true, &mut out);
        assert!(out.contains(r#"stroke-dasharray="2""#) && out.starts_with("<path d=\"M"), "{out}");
    }
}
