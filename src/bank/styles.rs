//! The image styles of a build (`--style`, `--theme`, `--styles`) and drawing
//! one chart in all of them, laying it out once per distinct geometry: a
//! style that only changes colours or curves reuses the layout of the first
//! style with the same spacing, font size and direction.

use serde::{Deserialize, Serialize};

use crate::layout::drawn::Drawing;
use crate::layout::metrics::measure;
use crate::mermaid::Flowchart;
use crate::render::pipeline::{Output, RenderError, Renderer};
use crate::render::style::{StyleFile, resolve};

/// One named style of a build; its id names `dist/images/<id>/`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BuildStyle {
    pub id: String,
    /// Applied after the chart's own `%%{init}%%` config (like `--style`).
    pub file: StyleFile,
    /// Applied last (like command-line flags, e.g. `--theme`).
    pub overrides: StyleFile,
}

impl BuildStyle {
    /// The default style: the chart's own config, mermaid's defaults.
    pub fn default_style() -> BuildStyle {
        BuildStyle { id: "default".into(), file: StyleFile::default(), overrides: StyleFile::default() }
    }
}

/// Whether `id` can be a directory name in `dist/images/`.
pub fn is_style_id(id: &str) -> bool {
    !id.is_empty() && id != "." && id != ".." && id.chars().all(|c| c.is_ascii_alphanumeric() || "-_=.,+".contains(c))
}

/// One chart drawn in one style.
pub struct Drawn {
    pub style_id: String,
    pub svg: String,
    pub png: Vec<u8>,
    /// What makes the picture ambiguous, measured on the curves as drawn
    /// (`layout::metrics::Defect`s, described with the elements named).
    pub defects: Vec<String>,
}

/// Draws `chart` in every style (in the given order), as `flowbench render`
/// would, byte for byte. Returns the drawings and how many layouts were run.
pub fn draw_all(renderer: &Renderer, chart: &Flowchart, styles: &[BuildStyle]) -> Result<(Vec<Drawn>, usize), String> {
    let mut resolved = Vec::with_capacity(styles.len());
    for s in styles {
        let style = resolve(&chart.config, Some(&s.file), &s.overrides).map_err(|e| format!("style `{}`: {e}", s.id))?;
        resolved.push(style);
    }
    let mut layouts: Vec<(crate::layout::LayoutOptions, crate::layout::Geometry)> = Vec::new();
    let mut out = Vec::with_capacity(styles.len());
    for (s, style) in styles.iter().zip(&resolved) {
        let key = renderer.layout_options(style);
        let drawn = match layouts.iter().find(|(k, _)| *k == key) {
            Some((_, geometry)) => Output {
                svg: renderer.svg_of(chart, geometry, style),
                geometry: geometry.clone(),
                glyphs: Vec::new(),
            },
            None => {
                let d = renderer.svg(chart, style).map_err(|e: RenderError| format!("style `{}`: {e}", s.id))?;
                layouts.push((key, d.geometry.clone()));
                d
            }
        };
        let svg = drawn.svg.clone();
        let drawing = Drawing::from_layout(chart, &drawn.geometry, style.curve);
        let defects = measure(&drawing).1.iter().map(|d| d.describe(&drawing)).collect();
        renderer.check_png(chart, style, 1.0).map_err(|e| format!("style `{}`: {e}", s.id))?;
        let for_png = renderer.for_png(chart, style, drawn);
        let png = renderer.png_of(&for_png, 1.0).map_err(|e| format!("style `{}`: {e}", s.id))?;
        out.push(Drawn { style_id: s.id.clone(), svg, png, defects });
    }
    Ok((out, layouts.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_only_styles_share_one_layout() {
        let chart = crate::mermaid::parse("flowchart TD\n  A([Start]) --> B{x > 0?}\n  B -- Yes --> C[y]\n  B -- No --> D[z]\n").expect("chart");
        let renderer = Renderer::default();
        let dark = StyleFile { theme: Some("dark".into()), ..Default::default() };
        let wide = StyleFile { node_spacing: Some(120.0), ..Default::default() };
        let styles = vec![
            BuildStyle::default_style(),
            BuildStyle { id: "dark".into(), file: dark, overrides: StyleFile::default() },
            BuildStyle { id: "wide".into(), file: StyleFile::default(), overrides: wide },
        ];
        let (drawn, layouts) = draw_all(&renderer, &chart, &styles).expect("drawn");
        assert_eq!(layouts, 2, "dark reuses the default layout, wide needs its own");
        assert_ne!(drawn[0].png, drawn[1].png);
        // Reusing the layout changes nothing: dark alone draws the same bytes.
        let (alone, _) = draw_all(&renderer, &chart, &styles[1..2]).expect("drawn");
        assert!(alone[0].png == drawn[1].png && alone[0].svg == drawn[1].svg);
        assert!(is_style_id("curve=basis,theme=dark") && !is_style_id("../x") && !is_style_id(".."));
    }
}
