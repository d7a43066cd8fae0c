//! Link-end markers (arrow, circle, cross at either end) as mermaid defines
//! them: `userSpaceOnUse` units so heads do not grow with thick strokes, and
//! the same reference points so heads touch the node border exactly.

use std::fmt::Write;

use crate::mermaid::ArrowHead;

use super::xml::esc;

/// How far the path is pulled back at an arrow end (defined with the drawn
/// curves in `layout::curve`, which the metrics measure).
pub use crate::layout::curve::ARROW_INSET;

/// Markers used in one SVG, each coloured like its edge; collected while
/// writing edges and emitted once in `<defs>`, in first-use order.
#[derive(Default)]
pub struct Markers {
    used: Vec<(ArrowHead, bool, String)>,
}

impl Markers {
    /// Id of the marker for `head` at the start (`start`) or end of a link
    /// drawn in `colour`, registering it on first use.
    pub fn id(&mut self, head: ArrowHead, start: bool, colour: &str) -> Option<String> {
        if head == ArrowHead::None {
            return None;
        }
        let key = (head, start, colour.to_string());
        let idx = match self.used.iter().position(|k| *k == key) {
            Some(i) => i,
            None => {
                self.used.push(key);
                self.used.len() - 1
            }
        };
        Some(format!("m{idx}"))
    }

    /// The `<marker>` definitions for everything registered. Markers are
    /// `overflow="visible"`: a clipped marker is an isolated layer with its
    /// own pixmap and mask in resvg, which made every arrowhead cost as much
    /// as a node; unclipped, only the outer half of the 1 px outline (0.4 px
    /// at the tip and back) is drawn beyond the marker box.
    pub fn defs(&self) -> String {
        let mut s = String::new();
        for (i, (head, start, colour)) in self.used.iter().enumerate() {
            let c = esc(colour);
            let (vb, ref_x, ref_y, size, body) = match (head, start) {
                (ArrowHead::Arrow, false) => ("0 0 10 10", "5", "5", 8, "<path d=\"M0,0L10,5L0,10z\"/>"),
                (ArrowHead::Arrow, true) => ("0 0 10 10", "4.5", "5", 8, "<path d=\"M0,5L10,10L10,0z\"/>"),
                (ArrowHead::Circle, false) => ("0 0 10 10", "11", "5", 11, "<circle cx=\"5\" cy=\"5\" r=\"5\"/>"),
                (ArrowHead::Circle, true) => ("0 0 10 10", "-1", "5", 11, "<circle cx=\"5\" cy=\"5\" r=\"5\"/>"),
                (ArrowHead::Cross, false) => {
                    ("0 0 11 11", "12", "5.2", 11, "<path d=\"M1,1l9,9M10,1l-9,9\" stroke-width=\"2\"/>")
                }
                (ArrowHead::Cross, true) => {
                    ("0 0 11 11", "-1", "5.2", 11, "<path d=\"M1,1l9,9M10,1l-9,9\" stroke-width=\"2\"/>")
                }
                (ArrowHead::None, _) => continue,
            };
            let _ = write!(
                s,
                r#"<marker id="m{i}" viewBox="{vb}" refX="{ref_x}" refY="{ref_y}" markerUnits="userSpaceOnUse" markerWidth="{size}" markerHeight="{size}" orient="auto" overflow="visible" fill="{c}" stroke="{c}" stroke-width="1">{body}</marker>"#
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_shared_per_kind_and_colour() {
        let mut m = Markers::default();
        assert_eq!(m.id(ArrowHead::None, false, "#333"), None);
        let a = m.id(ArrowHead::Arrow, false, "#333");
        let b = m.id(ArrowHead::Arrow, false, "red");
        assert_eq!(m.id(ArrowHead::Arrow, false, "#333"), a);
        assert_ne!(a, b);
        assert_eq!(m.defs().matches("<marker").count(), 2);
    }
}
