//! The image styles of a build (`--style`, `--theme`, `--styles`) and drawing
//! one chart in all of them, laying it out once per distinct geometry: a
//! style that only changes colours or curves reuses the layout of the first
//! style with the same spacing, font size and direction.

use serde::{Deserialize, Serialize};

use flowbench_chart::layout::drawn::Drawing;
use flowbench_chart::layout::metrics::measure;
use flowbench_chart::mermaid::Flowchart;
use flowbench_chart::render::damage::RasterFormat;
use flowbench_chart::render::pipeline::{Output, RenderError, Renderer};
use flowbench_chart::render::png::PngError;
use flowbench_chart::render::style::{
    Style, StyleError as RenderStyleError, StyleFile, SweepError, apply_layers, parse_sweep, resolve,
};

/// `styles/robustness.toml`, the styles of `flowbench build --robustness`
/// (embedded, so the flag works wherever flowbench runs; users edit a copy
/// and pass it with `--styles`).
pub const ROBUSTNESS_SWEEP: &str = include_str!("../../../styles/robustness.toml");

/// A style that cannot be read, resolved or drawn in.
#[derive(Debug, thiserror::Error)]
pub enum StyleError {
    /// The embedded robustness sweep does not parse.
    #[error("styles/robustness.toml: {0}")]
    RobustnessSweep(SweepError),
    /// A style's layers do not apply (the renderer's message).
    #[error("{0}")]
    Parameters(RenderStyleError),
    /// A style does not resolve over a chart's own config.
    #[error("style `{style}`: {error}")]
    Resolve { style: String, error: RenderStyleError },
    #[error("style `{style}`: {error}")]
    Render { style: String, error: RenderError },
    #[error("style `{style}`: {error}")]
    Raster { style: String, error: PngError },
}

/// The robustness set's styles, in the file's order.
pub fn robustness_styles() -> Result<Vec<BuildStyle>, StyleError> {
    let entries = parse_sweep(ROBUSTNESS_SWEEP).map_err(StyleError::RobustnessSweep)?;
    Ok(entries.into_iter().map(|e| BuildStyle::new(&e.name, e.style, StyleFile::default())).collect())
}

/// One named style of a build; its id names `dist/images/<id>/`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BuildStyle {
    /// Directory name of the style's images: [`style_id`] of `name`.
    pub id: String,
    /// The style's name as given: a sweep entry's name (`curve=basis,theme=dark`),
    /// the style file's name or the theme.
    #[serde(default)]
    pub name: String,
    /// Applied after the chart's own `%%{init}%%` config (like `--style`).
    pub file: StyleFile,
    /// Applied last (like command-line flags, e.g. `--theme`).
    pub overrides: StyleFile,
}

impl BuildStyle {
    /// A style named `name`, with the id [`style_id`] gives it.
    pub fn new(name: &str, file: StyleFile, overrides: StyleFile) -> BuildStyle {
        BuildStyle { id: style_id(name), name: name.to_string(), file, overrides }
    }

    /// Every parameter of this style over mermaid's defaults (a chart's
    /// own config may still change those it does not set): what the
    /// manifest records, so a `scan` preset is listed with its strengths.
    pub fn parameters(&self) -> Result<Style, StyleError> {
        let mut style = Style::default();
        apply_layers(&mut style, &[Some(&self.file), Some(&self.overrides)]).map_err(StyleError::Parameters)?;
        Ok(style)
    }

    /// The format its pictures are written in (JPEG for a damage ending in
    /// the JPEG step; a chart's own config sets no damage, so this is every
    /// chart's).
    pub fn format(&self) -> Result<RasterFormat, StyleError> {
        Ok(self.parameters()?.damage.format())
    }

    /// The default style: the chart's own config, mermaid's defaults.
    pub fn default_style() -> BuildStyle {
        BuildStyle::new("default", StyleFile::default(), StyleFile::default())
    }
}

/// Longest id used as it is; longer names get a slug and a hash.
const MAX_PLAIN_ID: usize = 48;
/// Length of a slug before its hash.
const MAX_SLUG: usize = 32;

/// Whether `id` can name a directory in `dist/images/` as it is: short,
/// ASCII letters, digits and `-_.`, starting with a letter or digit (so no
/// `..`, no hidden directory, nothing a URL or a shell must quote).
pub fn is_style_id(id: &str) -> bool {
    id.len() <= MAX_PLAIN_ID
        && id.starts_with(|c: char| c.is_ascii_alphanumeric())
        && id.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// The id (directory name) of the style named `name`: the name itself when
/// it is one ([`is_style_id`]: `dark`, `my-style`), else a readable slug of
/// it and a short hash of the whole name, so different names never share a
/// directory: `curve=basis,theme=dark` → `curve-basis_theme-dark-<8 hex>`.
pub fn style_id(name: &str) -> String {
    if is_style_id(name) {
        return name.to_string();
    }
    let mut slug = String::new();
    for c in name.chars() {
        let c = match c {
            ',' => '_',
            c if c.is_ascii_alphanumeric() || c == '.' => c,
            _ => '-',
        };
        let joiner = |x: char| x == '-' || x == '_';
        if joiner(c) && slug.ends_with(joiner) {
            continue;
        }
        slug.push(c);
    }
    let slug = slug.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    let slug = slug[..slug.len().min(MAX_SLUG)].trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
    let hash = &super::cache::sha256_hex(name.as_bytes())[..8];
    if slug.is_empty() { format!("style-{hash}") } else { format!("{slug}-{hash}") }
}

/// One chart drawn in one style.
pub struct Drawn {
    pub style_id: String,
    pub svg: String,
    /// The picture's file, in `format`.
    pub raster: Vec<u8>,
    pub format: RasterFormat,
    /// What makes the picture ambiguous, measured on the curves as drawn
    /// (`layout::metrics::Defect`s, described with the elements named).
    pub defects: Vec<String>,
}

/// Draws `chart` in every style (in the given order), as `flowbench render`
/// would, byte for byte. Returns the drawings and how many layouts were run.
pub fn draw_all(
    renderer: &Renderer,
    chart: &Flowchart,
    styles: &[BuildStyle],
) -> Result<(Vec<Drawn>, usize), StyleError> {
    let mut resolved = Vec::with_capacity(styles.len());
    for s in styles {
        let style = resolve(&chart.config, Some(&s.file), &s.overrides)
            .map_err(|error| StyleError::Resolve { style: s.id.clone(), error })?;
        resolved.push(style);
    }
    let mut layouts: Vec<(
        (flowbench_chart::layout::LayoutOptions, flowbench_chart::render::style::Font),
        flowbench_chart::layout::Geometry,
    )> = Vec::new();
    type MeasuredKey = (
        (flowbench_chart::layout::LayoutOptions, flowbench_chart::render::style::Font),
        flowbench_chart::layout::curve::Curve,
    );
    let mut measured: Vec<(MeasuredKey, Vec<String>)> = Vec::new();
    let mut out = Vec::with_capacity(styles.len());
    for (s, style) in styles.iter().zip(&resolved) {
        // The face measures the labels, so it decides the geometry too.
        let key = (renderer.layout_options(style), style.font);
        let measured_key = (key, style.curve);
        let drawn = match layouts.iter().find(|(k, _)| *k == key) {
            Some((_, geometry)) => Output {
                svg: renderer.svg_of(chart, geometry, style),
                geometry: geometry.clone(),
                glyphs: Vec::new(),
                damage: style.damage.clone(),
                font: style.font,
            },
            None => {
                let d =
                    renderer.svg(chart, style).map_err(|error| StyleError::Render { style: s.id.clone(), error })?;
                layouts.push((key, d.geometry.clone()));
                d
            }
        };
        let svg = drawn.svg.clone();
        // The defects depend on the geometry and the curve alone; styles
        // differing only in colour or damage share them.
        let defects = match measured.iter().find(|(k, _)| *k == measured_key) {
            Some((_, d)) => Vec::clone(d),
            None => {
                let drawing = Drawing::from_layout(chart, &drawn.geometry, style.curve);
                let d: Vec<String> = measure(&drawing).1.iter().map(|d| d.describe(&drawing)).collect();
                measured.push((measured_key, d.clone()));
                d
            }
        };
        // (`raster_of` refuses an oversize PNG from the geometry before drawing.)
        let for_png = renderer.for_png(chart, style, drawn);
        let (raster, format) =
            renderer.raster_of(&for_png, 1.0).map_err(|error| StyleError::Raster { style: s.id.clone(), error })?;
        out.push(Drawn { style_id: s.id.clone(), svg, raster, format, defects });
    }
    Ok((out, layouts.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_only_styles_share_one_layout() {
        let chart = flowbench_chart::mermaid::parse(
            "flowchart TD\n  A([Start]) --> B{x > 0?}\n  B -- Yes --> C[y]\n  B -- No --> D[z]\n",
        )
        .expect("chart");
        let renderer = Renderer::default();
        let dark = StyleFile { theme: Some("dark".into()), ..Default::default() };
        let wide = StyleFile { node_spacing: Some(120.0), ..Default::default() };
        let styles = vec![
            BuildStyle::default_style(),
            BuildStyle::new("dark", dark, StyleFile::default()),
            BuildStyle::new("wide", StyleFile::default(), wide),
        ];
        let (drawn, layouts) = draw_all(&renderer, &chart, &styles).expect("drawn");
        assert_eq!(layouts, 2, "dark reuses the default layout, wide needs its own");
        assert_ne!(drawn[0].raster, drawn[1].raster);
        // Reusing the layout changes nothing: dark alone draws the same bytes.
        let (alone, _) = draw_all(&renderer, &chart, &styles[1..2]).expect("drawn");
        assert!(alone[0].raster == drawn[1].raster && alone[0].svg == drawn[1].svg);
    }

    #[test]
    fn the_robustness_set_has_the_issues_renderings() {
        use flowbench_chart::layout::orthogonal::Routing;
        let styles = robustness_styles().expect("styles/robustness.toml parses");
        let ids: Vec<&str> = styles.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            ids,
            ["default", "handDrawn", "greyscale", "LR", "orthogonal", "scan-light", "scan-heavy", "downscale-512"]
        );
        let heavy = styles[6].parameters().expect("parameters");
        assert_eq!(
            heavy.damage,
            flowbench_chart::render::damage::Damage {
                seed: 1,
                ..flowbench_chart::render::damage::Damage::scan("heavy").expect("preset")
            }
        );
        assert!(styles[2].parameters().expect("parameters").damage.greyscale);
        let ortho = styles[4].parameters().expect("parameters");
        assert_eq!((ortho.routing, ortho.curve), (Routing::Orthogonal, flowbench_chart::layout::curve::Curve::Linear));
    }

    #[test]
    fn style_ids_are_short_path_safe_and_distinct() {
        for plain in ["default", "dark", "my-style", "v1.2", "style_3"] {
            assert_eq!(style_id(plain), plain);
        }
        let id = style_id("curve=basis,theme=dark");
        assert!(id.starts_with("curve-basis_theme-dark-") && id.len() == "curve-basis_theme-dark-".len() + 8, "{id}");
        let names = [
            "curve=basis,theme=dark",
            "curve=basis,theme=default",
            "curve=linear,font_size=20,node_spacing=80,rank_spacing=120,theme=forest",
            "../../etc",
            "..",
            ".hidden",
            "my style",
            "my_style",
            "ünïcode",
            "",
        ];
        let ids: Vec<String> = names.iter().map(|n| style_id(n)).collect();
        for (name, id) in names.iter().zip(&ids) {
            assert!(is_style_id(id), "{name:?} → {id:?}");
            assert!(!id.contains(['/', '=', ',']) && id.len() <= MAX_SLUG + 9, "{name:?} → {id:?}");
        }
        let distinct: std::collections::BTreeSet<&String> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len(), "{ids:?}");
        assert_eq!(style_id("curve=basis,theme=dark"), id, "deterministic");
        assert!(!is_style_id("..") && !is_style_id("../x") && !is_style_id("a=b") && !is_style_id(&"x".repeat(49)));
    }
}
