//! A uniform grid over rectangles for "what is near this box" questions
//! (curve pieces against nodes and labels, pieces against pieces). Dense
//! and flat: cells are a row-major array over the items' bounds, each
//! cell's items a slice of one shared vector, so a lookup is index
//! arithmetic and allocates nothing (large charts make millions of them).

use super::{Point, Rect};

/// Preferred cell side, in px: about a node's size.
const CELL: f32 = 64.0;
/// Most cells per item (beyond a floor) before cells grow: a sparse,
/// sprawling drawing must not allocate a huge empty grid.
const CELLS_PER_ITEM: usize = 8;
const MIN_CELLS: usize = 1 << 16;

/// Items indexed by the cells their rectangle meets.
#[derive(Debug, Clone)]
pub(super) struct Grid {
    x0: f32,
    y0: f32,
    cell: f32,
    cols: usize,
    rows: usize,
    /// Cell `c`'s items are `items[start[c]..start[c + 1]]`.
    start: Vec<u32>,
    items: Vec<u32>,
}

/// Rectangles too large or not finite are left out of the index (they
/// come from degenerate input; nothing sensible is near them).
fn indexable(r: &Rect) -> bool {
    r.x.is_finite() && r.y.is_finite() && r.width.is_finite() && r.height.is_finite() && r.width < 1e6 && r.height < 1e6
}

impl Grid {
    pub(super) fn new(rects: &[Rect]) -> Grid {
        let (mut x0, mut y0, mut x1, mut y1) = (f32::INFINITY, f32::INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY);
        for r in rects.iter().filter(|r| indexable(r)) {
            x0 = x0.min(r.x);
            y0 = y0.min(r.y);
            x1 = x1.max(r.x + r.width);
            y1 = y1.max(r.y + r.height);
        }
        if x0 > x1 {
            return Grid { x0: 0.0, y0: 0.0, cell: CELL, cols: 0, rows: 0, start: vec![0], items: Vec::new() };
        }
        let limit = (CELLS_PER_ITEM * rects.len()).max(MIN_CELLS);
        let mut cell = CELL;
        let dims = |cell: f32| (((x1 - x0) / cell).floor() as usize + 1, ((y1 - y0) / cell).floor() as usize + 1);
        while dims(cell).0.saturating_mul(dims(cell).1) > limit {
            cell *= 2.0;
        }
        let (cols, rows) = dims(cell);
        let mut g = Grid { x0, y0, cell, cols, rows, start: vec![0; cols * rows + 1], items: Vec::new() };
        // Counting sort: sizes, prefix sums, then fill.
        let spans: Vec<(usize, (usize, usize, usize, usize))> =
            rects.iter().enumerate().filter_map(|(i, r)| g.span(r).map(|s| (i, s))).collect();
        for &(_, (c0, c1, r0, r1)) in &spans {
            for row in r0..=r1 {
                for col in c0..=c1 {
                    g.start[row * cols + col + 1] += 1;
                }
            }
        }
        for c in 0..cols * rows {
            g.start[c + 1] += g.start[c];
        }
        let mut fill = g.start.clone();
        g.items = vec![0; g.start[cols * rows] as usize];
        for &(i, (c0, c1, r0, r1)) in &spans {
            for row in r0..=r1 {
                for col in c0..=c1 {
                    let c = row * cols + col;
                    g.items[fill[c] as usize] = i as u32;
                    fill[c] += 1;
                }
            }
        }
        g
    }

    /// Column and row ranges of the cells `r` meets, clamped to the grid;
    /// `None` when it misses the grid.
    fn span(&self, r: &Rect) -> Option<(usize, usize, usize, usize)> {
        if self.cols == 0 || !indexable(r) {
            return None;
        }
        // Truncation, not `floor` (a libm call on the baseline target):
        // cell coordinates are clamped at 0, where the two agree.
        let fc = |x: f32| (x - self.x0) / self.cell;
        let fr = |y: f32| (y - self.y0) / self.cell;
        let (c0, c1, r0, r1) = (fc(r.x), fc(r.x + r.width), fr(r.y), fr(r.y + r.height));
        if c1 < 0.0 || r1 < 0.0 || c0 >= self.cols as f32 || r0 >= self.rows as f32 {
            return None;
        }
        let clamp = |v: f32, n: usize| (v.max(0.0) as usize).min(n - 1);
        Some((clamp(c0, self.cols), clamp(c1, self.cols), clamp(r0, self.rows), clamp(r1, self.rows)))
    }

    /// Calls `f` on every item sharing a cell with `r`; an item spanning
    /// several of those cells comes once per cell.
    pub(super) fn for_each_near(&self, r: &Rect, mut f: impl FnMut(usize)) {
        let Some((c0, c1, r0, r1)) = self.span(r) else { return };
        for row in r0..=r1 {
            for col in c0..=c1 {
                self.cell_items(row * self.cols + col).iter().for_each(|&i| f(i as usize));
            }
        }
    }

    fn cell_items(&self, c: usize) -> &[u32] {
        &self.items[self.start[c] as usize..self.start[c + 1] as usize]
    }

    /// Every non-empty cell: its index and items.
    pub(super) fn cells(&self) -> impl Iterator<Item = (usize, &[u32])> {
        (0..self.cols * self.rows).map(|c| (c, self.cell_items(c))).filter(|(_, s)| !s.is_empty())
    }

    /// Index of the cell holding `p` (clamped onto the grid).
    pub(super) fn cell_of(&self, p: Point) -> Option<usize> {
        let (c0, _, r0, _) = self.span(&Rect { x: p.x, y: p.y, width: 0.0, height: 0.0 })?;
        Some(r0 * self.cols + c0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x, y, width: w, height: h }
    }

    fn all_near(g: &Grid, r: &Rect) -> Vec<usize> {
        let mut out = Vec::new();
        g.for_each_near(r, |i| out.push(i));
        out
    }

    fn near_any(g: &Grid, r: &Rect, item: usize) -> bool {
        all_near(g, r).contains(&item)
    }

    #[test]
    fn finds_what_shares_a_cell_and_nothing_far() {
        let g = Grid::new(&[rect(0.0, 0.0, 10.0, 10.0), rect(500.0, 500.0, 10.0, 10.0), rect(0.0, 0.0, 600.0, 20.0)]);
        let mut near = Vec::new();
        g.for_each_near(&rect(5.0, 5.0, 1.0, 1.0), |i| near.push(i));
        near.sort_unstable();
        near.dedup();
        assert_eq!(near, vec![0, 2]);
        assert!(near_any(&g, &rect(505.0, 505.0, 1.0, 1.0), 1));
        assert_eq!(all_near(&g, &rect(-500.0, -500.0, 1.0, 1.0)), Vec::<usize>::new());
        assert_eq!(g.cell_of(Point { x: 5.0, y: 5.0 }), Some(0));
    }

    #[test]
    fn sprawling_drawings_get_coarser_cells() {
        let g = Grid::new(&[rect(0.0, 0.0, 1.0, 1.0), rect(900_000.0, 900_000.0, 1.0, 1.0)]);
        assert!(g.cols * g.rows <= MIN_CELLS);
        assert!(near_any(&g, &rect(900_000.0, 900_000.0, 1.0, 1.0), 1));
    }

    #[test]
    fn empty_and_degenerate_input() {
        let g = Grid::new(&[rect(f32::NAN, 0.0, 1.0, 1.0)]);
        assert!(all_near(&g, &rect(0.0, 0.0, 1.0, 1.0)).is_empty());
        assert_eq!(g.cells().count(), 0);
    }
}
