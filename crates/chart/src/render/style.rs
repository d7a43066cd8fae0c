//! Render styles: what `--theme`, `--style FILE`, the chart's own
//! `%%{init}%%`/frontmatter config and the other CLI flags resolve to, and
//! the `--sweep` grid that renders one chart in many styles.
//!
//! Precedence, lowest first: mermaid's defaults → the chart's config → the
//! `--style` file → explicit CLI flags. A benchmark re-rendered "in the dark
//! theme" must get the dark theme even if a chart asked for another.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::curve::Curve;
use super::damage::{self, Damage};
use super::theme::{COLOUR_SYNTAX, THEMES, Theme, sanitize_colour};
use crate::layout::orthogonal::Routing;
use crate::mermaid::Direction;

/// Fully resolved style for one rendering.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Style {
    pub theme: Theme,
    pub curve: Curve,
    /// Label font size in px (mermaid: 16).
    pub font_size: f32,
    /// Gap between nodes of one rank (mermaid `nodeSpacing`: 50).
    pub node_spacing: f32,
    /// Gap between ranks (mermaid `rankSpacing`: 50).
    pub rank_spacing: f32,
    /// Overrides the chart's direction when set.
    pub direction: Option<Direction>,
    /// Classic (clean vector) or mermaid's sketchy `handDrawn` look.
    #[serde(default)]
    pub look: Look,
    /// The labels' face.
    #[serde(default)]
    pub font: Font,
    /// Seed of the hand-drawn strokes (mermaid's `handDrawnSeed`).
    #[serde(default)]
    pub hand_drawn_seed: u64,
    /// What is done to the raster after drawing (PNG only).
    #[serde(default)]
    pub damage: Damage,
    /// Smooth curves or right angles (`routing = "orthogonal"`).
    #[serde(default)]
    pub routing: Routing,
}

/// The labels' face: the renderer's own (embedded Liberation Sans, or
/// `--font`) or the embedded handwriting face.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Font {
    #[default]
    #[serde(rename = "Liberation Sans")]
    Main,
    #[serde(rename = "Comic Neue")]
    ComicNeue,
}

/// What `font` accepts.
pub const FONTS: [&str; 2] = ["Liberation Sans", "Comic Neue"];

/// How shapes and edges are stroked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Look {
    #[default]
    #[serde(rename = "classic")]
    Classic,
    /// rough.js strokes and hachure fills (see `render::rough`).
    #[serde(rename = "handDrawn")]
    HandDrawn,
}

impl Look {
    /// The look named `s` as a style file or mermaid's config spells it.
    pub fn parse(s: &str) -> Option<Look> {
        match s {
            "classic" => Some(Look::Classic),
            "handDrawn" => Some(Look::HandDrawn),
            _ => None,
        }
    }
}

impl Default for Style {
    fn default() -> Self {
        Style {
            theme: Theme::default(),
            curve: Curve::Basis,
            font_size: 16.0,
            node_spacing: 50.0,
            rank_spacing: 50.0,
            direction: None,
            look: Look::Classic,
            font: Font::Main,
            hand_drawn_seed: 0,
            damage: Damage::default(),
            routing: Routing::Spline,
        }
    }
}

/// A `--style` TOML file (also the shape of CLI overrides and of one sweep
/// entry). Every key is optional; unknown keys are an error so a typo does
/// not silently render the default look.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StyleFile {
    pub theme: Option<String>,
    /// Page colour, or `transparent`.
    pub background: Option<String>,
    pub node_fill: Option<String>,
    pub node_stroke: Option<String>,
    pub node_stroke_width: Option<f32>,
    pub node_text: Option<String>,
    pub edge_stroke: Option<String>,
    pub edge_stroke_width: Option<f32>,
    pub edge_label_background: Option<String>,
    pub edge_label_text: Option<String>,
    pub cluster_fill: Option<String>,
    pub cluster_stroke: Option<String>,
    pub cluster_text: Option<String>,
    pub font_size: Option<f32>,
    pub node_spacing: Option<f32>,
    pub rank_spacing: Option<f32>,
    /// `basis`, `linear`, `step`, `stepBefore`, `stepAfter`, `catmullRom`.
    pub curve: Option<String>,
    /// `TB`, `TD`, `BT`, `LR`, `RL`.
    pub direction: Option<String>,
    /// `classic` or `handDrawn`.
    pub look: Option<String>,
    /// `spline` (mermaid's curves) or `orthogonal` (right angles).
    pub routing: Option<String>,
    pub hand_drawn_seed: Option<u64>,
    /// The labels' face: `Liberation Sans` (or `--font`) or `Comic Neue`.
    pub font: Option<String>,
    /// `none`: greyscale, no fills.
    pub colour: Option<String>,
    /// A `scan` preset: `light`, `medium`, `heavy`; the damage keys below refine it.
    pub scan: Option<String>,
    pub blur: Option<f64>,
    pub rotate: Option<f64>,
    pub perspective: Option<f64>,
    pub noise: Option<f64>,
    pub jpeg: Option<f64>,
    /// A maximum width (`512`, `"512px"`) or a scan's resolution (`"150dpi"`).
    pub downscale: Option<Downscale>,
    pub paper: Option<f64>,
    /// Seed of the damage's noise and perspective.
    pub seed: Option<u64>,
}

/// Parse a direction the way mermaid's header does.
pub fn parse_direction(s: &str) -> Option<Direction> {
    Some(match s.trim().to_ascii_uppercase().as_str() {
        "TB" | "TD" | "V" => Direction::TB,
        "BT" | "^" => Direction::BT,
        "LR" | ">" => Direction::LR,
        "RL" | "<" => Direction::RL,
        _ => return None,
    })
}

fn positive(key: &'static str, value: f32, max: f32) -> Result<f32, StyleError> {
    if value.is_finite() && value > 0.0 && value <= max {
        Ok(value)
    } else {
        Err(StyleError::NotPositive { key, value, max })
    }
}

/// A style setting that is out of range or unknown, naming its key.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StyleError {
    /// A name outside the key's list: `theme`, `curve`, `direction`,
    /// `routing`, `look`, `font`, `colour`, `scan`.
    #[error("{key}: unknown {what} `{value}` ({expected})")]
    Unknown { key: &'static str, what: &'static str, value: String, expected: String },
    #[error("{key}: `{value}` is not a colour (expected {COLOUR_SYNTAX})")]
    NotAColour { key: &'static str, value: String },
    #[error("{key} must be in (0, {max}], got {value}")]
    NotPositive { key: &'static str, value: f32, max: f32 },
    #[error(transparent)]
    OutOfRange(#[from] damage::OutOfRange),
    /// JPEG quality and widths in px are whole numbers.
    #[error("{key}: {value} must be a whole number")]
    NotWhole { key: &'static str, value: f64 },
    #[error("downscale: `{0}` is not a width or a resolution (expected px such as 512 or \"512px\", or \"150dpi\")")]
    NotADownscale(String),
}

impl StyleError {
    /// `value` is not one of the names `key` takes; `expected` lists them.
    fn unknown(key: &'static str, what: &'static str, value: &str, expected: impl Into<String>) -> StyleError {
        StyleError::Unknown { key, what, value: value.to_string(), expected: expected.into() }
    }

    fn not_a_colour(key: &'static str, value: &str) -> StyleError {
        StyleError::NotAColour { key, value: value.to_string() }
    }
}

/// A style file that cannot be used, with its path.
#[derive(Debug, thiserror::Error)]
pub enum StyleFileError {
    #[error("{}: {source}", path.display())]
    Read { path: std::path::PathBuf, source: std::io::Error },
    #[error("{}: {source}", path.display())]
    Parse { path: std::path::PathBuf, source: toml::de::Error },
    /// It parses, but a setting is out of range or unknown. (`why` is
    /// not the error's `source`: the message already says it, and a chain
    /// printed with `{:#}` would say it twice.)
    #[error("{}: {why}", path.display())]
    Invalid { path: std::path::PathBuf, why: StyleError },
}

/// A `--sweep` file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    #[error("{0}")]
    Parse(toml::de::Error),
    #[error("unknown key `{0}` (expected [[style]] tables or a [grid] table)")]
    UnknownKey(String),
    #[error("`style` must be an array of tables ([[style]])")]
    StylesNotAnArray,
    #[error("each [[style]] must be a table")]
    StyleNotATable,
    /// `number` counts the `[[style]]` tables from 1.
    #[error("style #{number}: `name` must be a string")]
    NameNotAString { number: usize },
    #[error("`grid` must be a table of arrays")]
    GridNotATable,
    #[error("grid expands to {styles} styles; the limit is {MAX_SWEEP_STYLES}")]
    GridTooLarge { styles: usize },
    #[error("no styles: add [[style]] tables or a [grid] table")]
    NoStyles,
    /// One entry's keys do not make a style file. (Not a `source`: the
    /// message already says it.)
    #[error("style `{name}`: {why}")]
    EntryParse { name: String, why: toml::de::Error },
    /// One entry's settings are out of range or unknown.
    #[error("style `{name}`: {why}")]
    EntryInvalid { name: String, why: StyleError },
}

/// The most styles a `[grid]` may expand to.
const MAX_SWEEP_STYLES: usize = 10_000;

impl StyleFile {
    /// Read and validate a style file.
    pub fn load(path: &std::path::Path) -> Result<StyleFile, StyleFileError> {
        let path_buf = || path.to_path_buf();
        let text = std::fs::read_to_string(path).map_err(|source| StyleFileError::Read { path: path_buf(), source })?;
        let sf: StyleFile =
            toml::from_str(&text).map_err(|source| StyleFileError::Parse { path: path_buf(), source })?;
        sf.apply(&mut Style::default()).map_err(|why| StyleFileError::Invalid { path: path_buf(), why })?;
        Ok(sf)
    }

    /// Overlay these settings on `style`. A `theme` replaces the palette
    /// first, so colours given alongside it refine that theme.
    pub fn apply(&self, style: &mut Style) -> Result<(), StyleError> {
        if let Some(t) = &self.theme {
            style.theme = Theme::named(t).ok_or_else(|| {
                StyleError::unknown("theme", "theme", t, format!("expected one of {}", THEMES.join(", ")))
            })?;
        }
        let colour = |key: &'static str, v: &Option<String>, slot: &mut String| -> Result<(), StyleError> {
            if let Some(v) = v {
                *slot = sanitize_colour(v).ok_or_else(|| StyleError::not_a_colour(key, v))?;
            }
            Ok(())
        };
        let th = &mut style.theme;
        colour("node_fill", &self.node_fill, &mut th.node_fill)?;
        colour("node_stroke", &self.node_stroke, &mut th.node_stroke)?;
        colour("node_text", &self.node_text, &mut th.node_text)?;
        colour("edge_stroke", &self.edge_stroke, &mut th.edge_stroke)?;
        colour("edge_label_background", &self.edge_label_background, &mut th.edge_label_background)?;
        colour("edge_label_text", &self.edge_label_text, &mut th.edge_label_text)?;
        colour("cluster_fill", &self.cluster_fill, &mut th.cluster_fill)?;
        colour("cluster_stroke", &self.cluster_stroke, &mut th.cluster_stroke)?;
        colour("cluster_text", &self.cluster_text, &mut th.cluster_text)?;
        if let Some(edge) = &self.edge_stroke {
            th.solid_fill = sanitize_colour(edge).unwrap_or_else(|| th.solid_fill.clone());
        }
        if let Some(bg) = &self.background {
            th.background = if bg.eq_ignore_ascii_case("transparent") || bg.eq_ignore_ascii_case("none") {
                None
            } else {
                Some(sanitize_colour(bg).ok_or_else(|| StyleError::not_a_colour("background", bg))?)
            };
        }
        if let Some(w) = self.node_stroke_width {
            th.node_stroke_width = positive("node_stroke_width", w, 50.0)?;
        }
        if let Some(w) = self.edge_stroke_width {
            th.edge_stroke_width = positive("edge_stroke_width", w, 50.0)?;
            th.thick_stroke_width = th.edge_stroke_width * 3.5;
        }
        if let Some(v) = self.font_size {
            style.font_size = positive("font_size", v, 200.0)?;
        }
        if let Some(v) = self.node_spacing {
            style.node_spacing = positive("node_spacing", v, 1000.0)?;
        }
        if let Some(v) = self.rank_spacing {
            style.rank_spacing = positive("rank_spacing", v, 1000.0)?;
        }
        if let Some(c) = &self.curve {
            style.curve = Curve::parse(c).ok_or_else(|| {
                StyleError::unknown("curve", "curve", c, "basis, linear, step, stepBefore, stepAfter, catmullRom")
            })?;
        }
        if let Some(d) = &self.direction {
            style.direction = Some(
                parse_direction(d)
                    .ok_or_else(|| StyleError::unknown("direction", "direction", d, "TB, TD, BT, LR, RL"))?,
            );
        }
        if let Some(r) = &self.routing {
            style.routing =
                Routing::parse(r).ok_or_else(|| StyleError::unknown("routing", "routing", r, "spline, orthogonal"))?;
        }
        if style.routing == Routing::Orthogonal {
            // Right angles are drawn straight: a curve would round them.
            style.curve = Curve::Linear;
        }
        self.apply_look(style)?;
        self.apply_damage(&mut style.damage)
    }

    fn apply_look(&self, style: &mut Style) -> Result<(), StyleError> {
        if let Some(l) = &self.look {
            style.look = Look::parse(l).ok_or_else(|| StyleError::unknown("look", "look", l, "classic, handDrawn"))?;
        }
        if let Some(seed) = self.hand_drawn_seed {
            style.hand_drawn_seed = seed;
        }
        match self.font.as_deref() {
            None => {}
            Some("Liberation Sans") => style.font = Font::Main,
            Some("Comic Neue") => style.font = Font::ComicNeue,
            Some(f) => {
                return Err(StyleError::unknown("font", "font", f, format!("expected one of {}", FONTS.join(", "))));
            }
        }
        match self.colour.as_deref() {
            None | Some("theme") => {}
            Some("none") => {
                style.theme.without_colour();
                style.damage.greyscale = true;
            }
            Some(c) => return Err(StyleError::unknown("colour", "value", c, "none, theme")),
        }
        Ok(())
    }

    /// The `scan` preset, then each damage key over it, each checked
    /// against its range.
    fn apply_damage(&self, d: &mut Damage) -> Result<(), StyleError> {
        if let Some(name) = &self.scan {
            let preset = Damage::scan(name).ok_or_else(|| {
                StyleError::unknown("scan", "preset", name, format!("expected one of {}", damage::SCANS.join(", ")))
            })?;
            *d = Damage {
                greyscale: d.greyscale,
                seed: d.seed,
                downscale: d.downscale,
                downscale_dpi: d.downscale_dpi,
                ..preset
            };
        }
        let set = |v: Option<f64>, range: &damage::Range, slot: &mut f32| -> Result<(), StyleError> {
            if let Some(v) = v {
                *slot = range.check(v)? as f32;
            }
            Ok(())
        };
        set(self.blur, &damage::BLUR, &mut d.blur)?;
        set(self.rotate, &damage::ROTATE, &mut d.rotate)?;
        set(self.perspective, &damage::PERSPECTIVE, &mut d.perspective)?;
        set(self.noise, &damage::NOISE, &mut d.noise)?;
        set(self.paper, &damage::PAPER, &mut d.paper)?;
        if let Some(q) = self.jpeg {
            d.jpeg = Some(whole(damage::JPEG.check(q)?, "jpeg")? as u8);
        }
        if let Some(v) = &self.downscale {
            match v.target()? {
                (n, false) => d.downscale = Some(n),
                (n, true) => d.downscale_dpi = Some(n),
            }
        }
        if let Some(seed) = self.seed {
            d.seed = seed;
        }
        Ok(())
    }
}

/// The `downscale` key as written: a number of px, or text with a unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Downscale {
    Px(f64),
    Text(String),
}

impl Downscale {
    /// The whole number it names and whether it is a resolution (dpi)
    /// rather than a width (px), checked against its range.
    fn target(&self) -> Result<(u32, bool), StyleError> {
        let (n, dpi) = match self {
            Downscale::Px(n) => (*n, false),
            Downscale::Text(t) => {
                let t = t.trim();
                let (number, dpi) = match (t.strip_suffix("dpi"), t.strip_suffix("px")) {
                    (Some(n), _) => (n, true),
                    (None, Some(n)) => (n, false),
                    (None, None) => (t, false),
                };
                let n = number.trim().parse::<f64>().map_err(|_| StyleError::NotADownscale(t.to_string()))?;
                (n, dpi)
            }
        };
        let range = if dpi { &damage::DOWNSCALE_DPI } else { &damage::DOWNSCALE };
        Ok((whole(range.check(n)?, "downscale")? as u32, dpi))
    }
}

/// `v` if it is a whole number (JPEG quality, a width in px).
fn whole(value: f64, key: &'static str) -> Result<f64, StyleError> {
    if value.fract() == 0.0 { Ok(value) } else { Err(StyleError::NotWhole { key, value }) }
}

/// Apply the chart's merged mermaid config (`theme`, `themeVariables`,
/// `flowchart.curve`, `flowchart.nodeSpacing`, `flowchart.rankSpacing`,
/// `fontSize`). Invalid values are ignored, as mermaid ignores them.
pub fn apply_chart_config(style: &mut Style, config: &serde_json::Value) {
    if let Some(t) = config.get("theme").and_then(|v| v.as_str()).and_then(Theme::named) {
        style.theme = t;
    }
    if let Some(vars) = config.get("themeVariables") {
        style.theme.apply_theme_variables(vars);
        if let Some(fs) = vars.get("fontSize").and_then(px) {
            style.font_size = fs;
        }
    }
    if let Some(fs) = config.get("fontSize").and_then(px) {
        style.font_size = fs;
    }
    if let Some(look) = config.get("look").and_then(|v| v.as_str()).and_then(Look::parse) {
        style.look = look;
    }
    if let Some(seed) = config.get("handDrawnSeed").and_then(|v| v.as_u64()) {
        style.hand_drawn_seed = seed;
    }
    if let Some(fc) = config.get("flowchart") {
        if let Some(c) = fc.get("curve").and_then(|v| v.as_str()).and_then(Curve::parse) {
            style.curve = c;
        }
        if let Some(v) = fc.get("nodeSpacing").and_then(px) {
            style.node_spacing = v;
        }
        if let Some(v) = fc.get("rankSpacing").and_then(px) {
            style.rank_spacing = v;
        }
    }
}

/// A number or a `"16px"` string, accepted when positive and sane.
fn px(v: &serde_json::Value) -> Option<f32> {
    let n = match v {
        serde_json::Value::Number(n) => n.as_f64()? as f32,
        serde_json::Value::String(s) => s.trim().trim_end_matches("px").trim().parse().ok()?,
        _ => return None,
    };
    (n.is_finite() && n > 0.0 && n <= 1000.0).then_some(n)
}

/// Resolve the style for one chart.
pub fn resolve(config: &serde_json::Value, file: Option<&StyleFile>, cli: &StyleFile) -> Result<Style, StyleError> {
    let mut s = Style::default();
    apply_chart_config(&mut s, config);
    apply_layers(&mut s, &[file, Some(cli)])?;
    Ok(s)
}

/// Overlay `layers` on `style`, lowest precedence first. A layer's `theme`
/// replaces the palette, its page colour included, but a `background` that
/// an earlier layer gives stays: a style file's `background = "white"` with
/// `--theme dark` draws the dark palette on white, not on dark's own `#333`.
pub fn apply_layers(style: &mut Style, layers: &[Option<&StyleFile>]) -> Result<(), StyleError> {
    let mut background = None;
    for layer in layers.iter().flatten() {
        layer.apply(style)?;
        if layer.background.is_some() {
            background = Some(style.theme.background.clone());
        }
    }
    if let Some(bg) = background {
        style.theme.background = bg;
    }
    Ok(())
}

/// One named entry of a `--sweep` file.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepEntry {
    /// File-name-safe name, used for the output file.
    pub name: String,
    pub style: StyleFile,
}

/// Parse a sweep file: explicit `[[style]]` tables (each may have a `name`)
/// and/or a `[grid]` table of arrays whose cartesian product is rendered
/// (keys in sorted order, so the file list is stable).
pub fn parse_sweep(text: &str) -> Result<Vec<SweepEntry>, SweepError> {
    let doc: toml::Table = toml::from_str(text).map_err(SweepError::Parse)?;
    let mut out = Vec::new();
    if let Some(key) = doc.keys().find(|key| *key != "style" && *key != "grid") {
        return Err(SweepError::UnknownKey(key.clone()));
    }
    if let Some(list) = doc.get("style") {
        let list = list.as_array().ok_or(SweepError::StylesNotAnArray)?;
        for (i, item) in list.iter().enumerate() {
            let mut t = item.as_table().ok_or(SweepError::StyleNotATable)?.clone();
            let name = match t.remove("name") {
                Some(toml::Value::String(s)) => s,
                Some(_) => return Err(SweepError::NameNotAString { number: i + 1 }),
                None => format!("style{}", i + 1),
            };
            out.push(entry(name, t)?);
        }
    }
    if let Some(grid) = doc.get("grid") {
        let grid = grid.as_table().ok_or(SweepError::GridNotATable)?;
        let axes: BTreeMap<&String, Vec<toml::Value>> =
            grid.iter().map(|(k, v)| (k, v.as_array().cloned().unwrap_or_else(|| vec![v.clone()]))).collect();
        let mut combos: Vec<toml::Table> = vec![toml::Table::new()];
        for (k, values) in &axes {
            let mut next = Vec::with_capacity(combos.len() * values.len());
            for c in &combos {
                for v in values {
                    let mut c2 = c.clone();
                    c2.insert((*k).clone(), v.clone());
                    next.push(c2);
                }
            }
            combos = next;
        }
        if combos.len() > MAX_SWEEP_STYLES {
            return Err(SweepError::GridTooLarge { styles: combos.len() });
        }
        for c in combos {
            let name = c
                .iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())))
                .collect::<Vec<_>>()
                .join(",");
            out.push(entry(name, c)?);
        }
    }
    if out.is_empty() {
        return Err(SweepError::NoStyles);
    }
    Ok(out)
}

fn entry(name: String, t: toml::Table) -> Result<SweepEntry, SweepError> {
    let style: StyleFile = match toml::Value::Table(t).try_into() {
        Ok(style) => style,
        Err(why) => return Err(SweepError::EntryParse { name, why }),
    };
    if let Err(why) = style.apply(&mut Style::default()) {
        return Err(SweepError::EntryInvalid { name, why });
    }
    let safe: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || "-_=.,".contains(c) { c } else { '_' }).collect();
    Ok(SweepEntry { name: safe, style })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_chart_then_file_then_cli() {
        let cfg = serde_json::json!({"theme": "forest", "flowchart": {"curve": "linear", "rankSpacing": 80}});
        let file = StyleFile { node_fill: Some("#123456".into()), ..Default::default() };
        let cli = StyleFile { theme: Some("dark".into()), ..Default::default() };
        let s = resolve(&cfg, Some(&file), &StyleFile::default()).expect("style");
        assert_eq!((s.theme.name.as_str(), s.curve, s.rank_spacing), ("forest", Curve::Linear, 80.0));
        assert_eq!(s.theme.node_fill, "#123456");
        let s = resolve(&cfg, Some(&file), &cli).expect("style");
        assert_eq!(s.theme.name, "dark");
    }

    #[test]
    fn bad_values_are_errors() {
        let bad = StyleFile { curve: Some("wiggly".into()), ..Default::default() };
        let e = bad.apply(&mut Style::default()).unwrap_err();
        assert!(matches!(&e, StyleError::Unknown { key: "curve", value, .. } if value == "wiggly"), "{e:?}");
        assert_eq!(
            e.to_string(),
            "curve: unknown curve `wiggly` (basis, linear, step, stepBefore, stepAfter, catmullRom)"
        );
        assert!(toml::from_str::<StyleFile>("colour = 1").is_err());
    }

    #[test]
    fn downscale_takes_a_width_or_a_resolution() {
        let damage = |text: &str| {
            let sf: StyleFile = toml::from_str(text).expect("a style file");
            let mut s = Style::default();
            sf.apply(&mut s).map(|()| s.damage)
        };
        let out_of_range = |text: &str, key: &str| match damage(text) {
            Err(StyleError::OutOfRange(e)) if e.key == key => e.to_string(),
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(damage("downscale = 512").unwrap().downscale, Some(512));
        assert_eq!(damage("downscale = \"640px\"").unwrap().downscale, Some(640));
        let d = damage("downscale = \"150dpi\"").unwrap();
        assert_eq!((d.downscale, d.downscale_dpi), (None, Some(150)));
        let e = out_of_range("downscale = \"3dpi\"", "downscale");
        assert!(e.contains("10 to 2400") && e.contains("dots per inch"), "{e}");
        let e = damage("downscale = \"big\"").unwrap_err();
        assert_eq!(e, StyleError::NotADownscale("big".into()));
        assert!(e.to_string().contains("150dpi"), "{e}");
        assert!(out_of_range("downscale = 8", "downscale").contains("16 to 100000"));
        assert!(out_of_range("jpeg = 0", "jpeg").contains("1 to 100"));
        assert_eq!(damage("jpeg = 50.5").unwrap_err(), StyleError::NotWhole { key: "jpeg", value: 50.5 });
        assert_eq!(out_of_range("blur = -1", "blur"), "blur: -1 is out of range (allowed 0 to 8, Gaussian σ in px)");
    }

    #[test]
    fn sweep_grid_is_a_sorted_cartesian_product() {
        let e =
            parse_sweep("[grid]\ntheme = [\"default\", \"dark\"]\ncurve = [\"basis\", \"linear\"]\n").expect("sweep");
        let names: Vec<&str> = e.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "curve=basis,theme=default",
                "curve=basis,theme=dark",
                "curve=linear,theme=default",
                "curve=linear,theme=dark"
            ]
        );
        let e = parse_sweep("[[style]]\nname = \"big\"\nfont_size = 20\n").expect("sweep");
        assert_eq!(e[0].style.font_size, Some(20.0));
        let e = parse_sweep("[[style]]\ntheme = \"nope\"\n").unwrap_err();
        assert!(
            matches!(&e, SweepError::EntryInvalid { name, why: StyleError::Unknown { key: "theme", .. } } if name == "style1"),
            "{e:?}"
        );
        assert!(e.to_string().starts_with("style `style1`: theme: unknown theme `nope` (expected one of "), "{e}");
    }
}
