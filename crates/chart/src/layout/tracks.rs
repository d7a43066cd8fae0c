//! Edges sharing a track: two edges whose polylines run along the same
//! horizontal (or vertical) line over some length read as one line, and
//! one's label then sits on the other (two side exits of one block leave
//! on one level, for instance). The finishing pass moves one of the two
//! runs sideways, with its label when the label sits on it, to where it
//! crosses and touches the fewest other things.

use super::metrics::{proper_cross, segment_hits};
use super::{Point, Rect, RoutedEdge};

/// Largest chart (edges) the pass runs on: each try recounts crossings
/// against every other edge.
const MAX_EDGES: usize = 400;
/// Shorter common runs than this do not read as a shared line.
const MIN_OVERLAP: f32 = 4.0;
/// Collinear within this distance.
const SAME_LINE: f32 = 1.0;
/// Shortest leg a move may leave on either side of the run.
const MIN_LEG: f32 = 6.0;

/// An axis-aligned run of edge `edge` from `points[at]` to `points[at + 1]`.
#[derive(Debug, Clone, Copy)]
struct Run {
    edge: usize,
    at: usize,
    horizontal: bool,
}

/// Moves one of each pair of runs of different edges that overlap on one
/// line. `ends[k]`: the nodes edge `k` starts and ends at.
pub(super) fn separate(rects: &[Rect], edges: &mut [RoutedEdge], ends: &[(Option<usize>, Option<usize>)]) {
    if edges.len() > MAX_EDGES {
        return;
    }
    // A bounded number of moves: each fixes one shared run.
    for _ in 0..edges.len() {
        let Some((a, b)) = shared_pair(edges) else { return };
        let mut best: Option<(u32, f32, Run, f32)> = None;
        for run in [a, b] {
            let current = cost(edges, run.edge);
            for d in offsets(edges, a, b) {
                let Some(moved) = shifted(rects, edges, ends, run, d) else { continue };
                let saved = std::mem::replace(&mut edges[run.edge], moved);
                let c = cost(edges, run.edge);
                edges[run.edge] = saved;
                if c < current && best.is_none_or(|(bc, bd, _, _)| (c, d.abs()) < (bc, bd)) {
                    best = Some((c, d.abs(), run, d));
                }
            }
        }
        let Some((_, _, run, d)) = best else { return };
        if let Some(moved) = shifted(rects, edges, ends, run, d) {
            edges[run.edge] = moved;
        }
    }
}

/// Distances to try: a port gap, and enough to take a label on one run
/// clear of the other.
fn offsets(edges: &[RoutedEdge], a: Run, b: Run) -> Vec<f32> {
    let across = |k: usize, horizontal: bool| {
        edges[k].label.as_ref().map_or(0.0, |(r, _)| if horizontal { r.height } else { r.width })
    };
    let clear = (across(a.edge, a.horizontal) + across(b.edge, b.horizontal)) / 2.0 + 4.0;
    let mut out = Vec::new();
    for d in [super::ports::PORT_GAP, clear] {
        out.extend([-d, d]);
    }
    out
}

/// The first pair (in edge order) of runs of different edges on one line
/// overlapping by at least [`MIN_OVERLAP`].
fn shared_pair(edges: &[RoutedEdge]) -> Option<(Run, Run)> {
    let runs: Vec<Run> = edges
        .iter()
        .enumerate()
        .flat_map(|(edge, e)| {
            (1..e.points.len().saturating_sub(2)).filter_map(move |at| {
                let (p, q) = (e.points[at], e.points[at + 1]);
                let horizontal = (p.y - q.y).abs() < 1e-3 && (p.x - q.x).abs() >= MIN_OVERLAP;
                let vertical = (p.x - q.x).abs() < 1e-3 && (p.y - q.y).abs() >= MIN_OVERLAP;
                (horizontal || vertical).then_some(Run { edge, at, horizontal })
            })
        })
        .collect();
    let span = |r: &Run| {
        let (p, q) = (edges[r.edge].points[r.at], edges[r.edge].points[r.at + 1]);
        if r.horizontal { (p.y, p.x.min(q.x), p.x.max(q.x)) } else { (p.x, p.y.min(q.y), p.y.max(q.y)) }
    };
    for (i, a) in runs.iter().enumerate() {
        for b in &runs[i + 1..] {
            if a.edge == b.edge || a.horizontal != b.horizontal {
                continue;
            }
            let ((la, a0, a1), (lb, b0, b1)) = (span(a), span(b));
            if (la - lb).abs() <= SAME_LINE && a1.min(b1) - a0.max(b0) >= MIN_OVERLAP {
                return Some((*a, *b));
            }
        }
    }
    None
}

/// Edge `run.edge` with that run moved by `d` across its line (and its
/// label, when centred on the run), or `None` when a leg beside the run
/// would shrink below [`MIN_LEG`] or turn round, or the moved pieces would
/// touch a node.
fn shifted(
    rects: &[Rect],
    edges: &[RoutedEdge],
    ends: &[(Option<usize>, Option<usize>)],
    run: Run,
    d: f32,
) -> Option<RoutedEdge> {
    let mut e = edges[run.edge].clone();
    let across = |p: &Point| if run.horizontal { p.y } else { p.x };
    let (i, j) = (run.at, run.at + 1);
    let (before, after) =
        (across(&e.points[i]) - across(&e.points[i - 1]), across(&e.points[j + 1]) - across(&e.points[j]));
    let (nb, na) = (before + d, after - d);
    if before.abs() < 1e-3
        || after.abs() < 1e-3
        || nb.signum() != before.signum()
        || na.signum() != after.signum()
        || nb.abs() < MIN_LEG
        || na.abs() < MIN_LEG
    {
        return None;
    }
    let line = across(&e.points[i]);
    let (lo, hi) = {
        let along = |p: &Point| if run.horizontal { p.x } else { p.y };
        let (a, b) = (along(&e.points[i]), along(&e.points[j]));
        (a.min(b), a.max(b))
    };
    let moved = |p: &mut Point| if run.horizontal { p.y += d } else { p.x += d };
    moved(&mut e.points[i]);
    moved(&mut e.points[j]);
    if let Some((r, _)) = e.label.as_mut() {
        let c = Point { x: r.x + r.width / 2.0, y: r.y + r.height / 2.0 };
        let (cl, ca) = if run.horizontal { (c.y, c.x) } else { (c.x, c.y) };
        if (cl - line).abs() <= SAME_LINE && ca >= lo - SAME_LINE && ca <= hi + SAME_LINE {
            if run.horizontal { r.y += d } else { r.x += d }
        }
    }
    let own = |v: usize| ends[run.edge].0 == Some(v) || ends[run.edge].1 == Some(v);
    for w in e.points[i - 1..=j + 1].windows(2) {
        if rects.iter().enumerate().any(|(v, r)| !own(v) && segment_hits(w[0], w[1], r)) {
            return None;
        }
    }
    if let Some((lr, _)) = &e.label
        && rects.iter().any(|r| overlaps(lr, r))
    {
        return None;
    }
    Some(e)
}

/// What edge `k` costs the picture: its crossings with other edges, the
/// other edges' labels it crosses and the edges crossing its label
/// (weighted: a crossed label misreads), and runs it shares with others.
fn cost(edges: &[RoutedEdge], k: usize) -> u32 {
    let mut c = 0;
    let mine = &edges[k].points;
    for (o, other) in edges.iter().enumerate() {
        if o == k {
            continue;
        }
        for a in mine.windows(2) {
            for b in other.points.windows(2) {
                c += u32::from(proper_cross(a[0], a[1], b[0], b[1]));
                c += 3 * u32::from(collinear_overlap(a[0], a[1], b[0], b[1]));
            }
            if let Some((r, _)) = &other.label {
                c += 4 * u32::from(segment_hits(a[0], a[1], &shrink(r)));
            }
        }
        if let Some((r, _)) = &edges[k].label {
            c += 4 * u32::from(other.points.windows(2).any(|b| segment_hits(b[0], b[1], &shrink(r))));
        }
    }
    c
}

fn shrink(r: &Rect) -> Rect {
    Rect { x: r.x + 1.0, y: r.y + 1.0, width: r.width - 2.0, height: r.height - 2.0 }
}

fn overlaps(a: &Rect, b: &Rect) -> bool {
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

/// Two axis-aligned pieces on one line sharing at least [`MIN_OVERLAP`].
fn collinear_overlap(a: Point, b: Point, c: Point, d: Point) -> bool {
    let h = |p: Point, q: Point| (p.y - q.y).abs() < 1e-3;
    let v = |p: Point, q: Point| (p.x - q.x).abs() < 1e-3;
    if h(a, b) && h(c, d) && (a.y - c.y).abs() <= SAME_LINE {
        return a.x.max(b.x).min(c.x.max(d.x)) - a.x.min(b.x).max(c.x.min(d.x)) >= MIN_OVERLAP;
    }
    if v(a, b) && v(c, d) && (a.x - c.x).abs() <= SAME_LINE {
        return a.y.max(b.y).min(c.y.max(d.y)) - a.y.min(b.y).max(c.y.min(d.y)) >= MIN_OVERLAP;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(points: &[(f32, f32)], label: Option<Rect>) -> RoutedEdge {
        RoutedEdge {
            points: points.iter().map(|&(x, y)| Point { x, y }).collect(),
            label: label.map(|r| (r, crate::text::TextBlock::default())),
        }
    }

    #[test]
    fn two_exits_on_one_level_are_pulled_apart() {
        // Both leave (0, 0) downwards, run right along y = 40, then down:
        // the nearer one's label sits on the farther one's run.
        let label = Rect { x: 90.0, y: 28.0, width: 20.0, height: 24.0 };
        let mut edges = vec![
            edge(&[(0.0, 0.0), (0.0, 40.0), (100.0, 40.0), (100.0, 200.0)], Some(label)),
            edge(&[(10.0, 0.0), (10.0, 40.0), (300.0, 40.0), (300.0, 200.0)], None),
        ];
        let ends = vec![(Some(0), None), (Some(0), None)];
        let rects = vec![Rect { x: -20.0, y: -30.0, width: 50.0, height: 30.0 }];
        separate(&rects, &mut edges, &ends);
        assert!(shared_pair(&edges).is_none());
        assert_eq!(cost(&edges, 0), 0);
        assert_eq!(cost(&edges, 1), 0);
    }
}
