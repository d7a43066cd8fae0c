//! Colour palettes matching mermaid's four built-in themes, plus the
//! `themeVariables` overrides a chart's `%%{init}%%` / frontmatter may carry.
//!
//! Colours are kept as CSS colour strings (`#ECECFF`, `rgba(…)`, `hsl(…)`)
//! because both browsers and usvg parse them; keeping mermaid's own spelling
//! makes side-by-side comparison with mermaid-cli's SVGs straightforward.

use serde::{Deserialize, Serialize};

/// Everything colour- and stroke-related the SVG writer needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Theme {
    /// Theme name this palette started from (recorded in the SVG for provenance).
    pub name: String,
    /// Page background; `None` = transparent. Each theme has its own (white,
    /// dark's `#333`), replaced by `--background`, a style file's
    /// `background` or the chart's `themeVariables.background`.
    pub background: Option<String>,
    pub node_fill: String,
    pub node_stroke: String,
    pub node_stroke_width: f32,
    pub node_text: String,
    pub edge_stroke: String,
    pub edge_stroke_width: f32,
    /// Width of `==>` links (mermaid: 3.5 px).
    pub thick_stroke_width: f32,
    pub edge_label_background: String,
    pub edge_label_text: String,
    pub cluster_fill: String,
    pub cluster_stroke: String,
    pub cluster_text: String,
    /// Fill of "dark" glyph shapes (fork bar, filled circle) — mermaid uses
    /// the line colour for them.
    pub solid_fill: String,
    /// `note` shape colours.
    pub note_fill: String,
    pub note_stroke: String,
    /// Font family written into the SVG; PNG rendering always resolves it to
    /// the embedded font.
    pub font_family: String,
}

/// Names accepted by `--theme` and `%%{init: {theme: …}}%%`.
pub const THEMES: [&str; 4] = ["default", "neutral", "dark", "forest"];

impl Default for Theme {
    fn default() -> Self {
        Theme::named("default").unwrap_or_else(default_theme)
    }
}

fn default_theme() -> Theme {
    Theme {
        name: "default".into(),
        background: Some("white".into()),
        node_fill: "#ECECFF".into(),
        node_stroke: "#9370DB".into(),
        node_stroke_width: 1.0,
        node_text: "#333".into(),
        edge_stroke: "#333333".into(),
        edge_stroke_width: 1.0,
        thick_stroke_width: 3.5,
        edge_label_background: "rgba(232,232,232,0.8)".into(),
        edge_label_text: "#333".into(),
        cluster_fill: "#ffffde".into(),
        cluster_stroke: "#aaaa33".into(),
        cluster_text: "#333".into(),
        solid_fill: "#333333".into(),
        note_fill: "#fff5ad".into(),
        note_stroke: "#aaaa33".into(),
        // The embedded face, then Arial, whose metrics it shares, for
        // viewers without it.
        font_family: "Liberation Sans, Arial, sans-serif".into(),
    }
}

impl Theme {
    /// One of mermaid's built-in palettes (values read from mermaid 11's
    /// generated CSS); `None` for an unknown name. `base` is mermaid's
    /// unstyled starting point and maps to `default`.
    pub fn named(name: &str) -> Option<Theme> {
        let d = default_theme();
        let t = match name {
            "default" | "base" => d,
            "neutral" => Theme {
                name: "neutral".into(),
                node_fill: "#eee".into(),
                node_stroke: "#999".into(),
                node_text: "#333".into(),
                edge_stroke: "#666".into(),
                edge_label_background: "white".into(),
                edge_label_text: "#333".into(),
                cluster_fill: "hsl(0, 0%, 98.9215686275%)".into(),
                cluster_stroke: "#707070".into(),
                solid_fill: "#666".into(),
                note_fill: "#ffa".into(),
                note_stroke: "#999".into(),
                ..d
            },
            // mermaid's theme-dark: a #333 page (the theme's `background`,
            // which its light lines and text are chosen for).
            "dark" => Theme {
                name: "dark".into(),
                background: Some("#333".into()),
                node_fill: "#1f2020".into(),
                node_stroke: "#ccc".into(),
                node_text: "#ccc".into(),
                edge_stroke: "lightgrey".into(),
                edge_label_background: "hsl(0, 0%, 34.4117647059%)".into(),
                edge_label_text: "#ccc".into(),
                cluster_fill: "hsl(180, 1.5873015873%, 28.3529411765%)".into(),
                cluster_stroke: "rgba(255, 255, 255, 0.25)".into(),
                cluster_text: "#F9FFFE".into(),
                solid_fill: "lightgrey".into(),
                note_fill: "#2b2b2b".into(),
                note_stroke: "#ccc".into(),
                ..d
            },
            "forest" => Theme {
                name: "forest".into(),
                node_fill: "#cde498".into(),
                node_stroke: "#13540c".into(),
                node_text: "#000000".into(),
                edge_stroke: "#000000".into(),
                edge_label_background: "rgba(232,232,232,0.8)".into(),
                edge_label_text: "#000000".into(),
                cluster_fill: "#cdffb2".into(),
                cluster_stroke: "#6eaa49".into(),
                cluster_text: "#000000".into(),
                solid_fill: "#000000".into(),
                note_fill: "#fff5ad".into(),
                note_stroke: "#6eaa49".into(),
                ..d
            },
            _ => return None,
        };
        Some(t)
    }

    /// Apply mermaid `themeVariables` (from the chart's config JSON). Only
    /// the variables that influence a flowchart are read; unknown keys are
    /// ignored, as mermaid does.
    /// `colour = "none"`: black lines and text on white, no fills (the
    /// raster is also turned to grey levels, for user `classDef` colours).
    pub fn without_colour(&mut self) {
        let ink = "#000000".to_string();
        self.background = Some("white".into());
        for fill in [&mut self.node_fill, &mut self.cluster_fill, &mut self.note_fill] {
            *fill = "none".into();
        }
        for line in [&mut self.node_stroke, &mut self.edge_stroke, &mut self.cluster_stroke, &mut self.note_stroke] {
            line.clone_from(&ink);
        }
        for text in [&mut self.node_text, &mut self.edge_label_text, &mut self.cluster_text, &mut self.solid_fill] {
            text.clone_from(&ink);
        }
        self.edge_label_background = "white".into();
    }

    pub fn apply_theme_variables(&mut self, vars: &serde_json::Value) {
        let Some(obj) = vars.as_object() else { return };
        let get = |k: &str| obj.get(k).and_then(|v| v.as_str()).map(sanitize_colour);
        let slots: [(&[&str], &mut String); 10] = [
            (&["primaryColor", "mainBkg"], &mut self.node_fill),
            (&["primaryBorderColor", "nodeBorder"], &mut self.node_stroke),
            (&["primaryTextColor", "nodeTextColor"], &mut self.node_text),
            (&["lineColor"], &mut self.edge_stroke),
            (&["edgeLabelBackground"], &mut self.edge_label_background),
            (&["clusterBkg"], &mut self.cluster_fill),
            (&["clusterBorder"], &mut self.cluster_stroke),
            (&["titleColor"], &mut self.cluster_text),
            (&["noteBkgColor"], &mut self.note_fill),
            (&["noteBorderColor"], &mut self.note_stroke),
        ];
        // Later names in each list are mermaid's more specific variables.
        for (keys, slot) in slots {
            for key in keys {
                if let Some(Some(v)) = get(key) {
                    *slot = v;
                }
            }
        }
        if let Some(Some(v)) = get("lineColor") {
            self.solid_fill = v;
        }
        if let Some(Some(v)) = get("background") {
            self.background = Some(v);
        }
    }
}

/// Accept a colour only if it is CSS colour syntax that usvg draws (a name,
/// `#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb()`, `rgba()`, `hsl()`, `hsla()`,
/// `transparent`) and cannot break out of an XML attribute or a CSS
/// declaration. Anything else is refused rather than passed on, because usvg
/// silently draws an unknown colour as black.
pub fn sanitize_colour(v: &str) -> Option<String> {
    let v = v.trim();
    let safe = !v.is_empty() && v.len() <= 64 && v.chars().all(|c| c.is_ascii_alphanumeric() || " #(),.%-".contains(c));
    if !safe {
        return None;
    }
    // svgtypes reads names case-insensitively (`DarkSlateBlue`), as CSS does.
    v.parse::<svgtypes::Color>().is_ok().then(|| v.to_string())
}

/// What a colour option accepts, for error messages.
pub const COLOUR_SYNTAX: &str = "a CSS colour name, #rgb, #rrggbb, rgb(), rgba(), hsl(), hsla() or transparent";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_theme_exists_and_differs() {
        let all: Vec<Theme> = THEMES.iter().map(|n| Theme::named(n).expect("theme")).collect();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a.node_fill, b.node_fill);
            }
        }
        assert!(Theme::named("nope").is_none());
    }

    #[test]
    fn theme_variables_override_and_reject_injection() {
        let mut t = Theme::default();
        t.apply_theme_variables(&serde_json::json!({
            "primaryColor": "#ff0000",
            "lineColor": "red\" onload=\"x",
        }));
        assert_eq!(t.node_fill, "#ff0000");
        assert_eq!(t.edge_stroke, "#333333");
    }

    #[test]
    fn colours_are_what_usvg_draws() {
        assert_eq!(sanitize_colour("DarkSlateBlue").as_deref(), Some("DarkSlateBlue"));
        for ok in [
            "red",
            "#abc",
            "#AABBCC",
            "#aabbcc80",
            "rgb(1, 2, 3)",
            "rgba(1,2,3,0.5)",
            "hsl(0, 0%, 98.9%)",
            "transparent",
        ] {
            assert_eq!(sanitize_colour(ok).as_deref(), Some(ok), "{ok}");
        }
        for bad in ["blurple", "rebeccapurple", "notacolor", "#12", "#ggg", "rgb(1,2)", "red blue", "", "url(#x)"] {
            assert_eq!(sanitize_colour(bad), None, "{bad}");
        }
    }
}
