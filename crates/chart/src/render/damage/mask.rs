//! Which 8×8 blocks of an image are one flat colour: the white page most
//! of a chart is, and the fills of its boxes, which a warp or a blur
//! leaves as they are, so both skip them.

use image::RgbImage;

/// Side of a block in px.
pub const BLOCK: u32 = 8;

const WHITE: [u8; 3] = [255; 3];

/// Per block: its colour if every pixel of it has that colour.
pub struct FlatMask {
    bw: u32,
    bh: u32,
    flat: Vec<Option<[u8; 3]>>,
}

impl FlatMask {
    pub fn of(img: &RgbImage) -> FlatMask {
        let (w, h) = img.dimensions();
        let (bw, bh) = (w.div_ceil(BLOCK), h.div_ceil(BLOCK));
        let mut flat: Vec<Option<[u8; 3]>> = Vec::with_capacity((bw * bh) as usize);
        let row_bytes = 3 * w as usize;
        let raw = img.as_raw();
        for by in 0..bh as usize {
            let rows = by * BLOCK as usize..((by + 1) * BLOCK as usize).min(h as usize);
            for bx in 0..bw as usize {
                let cols = 3 * bx * BLOCK as usize..(3 * (bx + 1) * BLOCK as usize).min(row_bytes);
                flat.push(block_colour(raw, row_bytes, rows.clone(), cols));
            }
        }
        FlatMask { bw, bh, flat }
    }

    /// A mask of a `w`×`h` image with no block known flat yet.
    pub fn unknown(w: u32, h: u32) -> FlatMask {
        let (bw, bh) = (w.div_ceil(BLOCK), h.div_ceil(BLOCK));
        FlatMask { bw, bh, flat: vec![None; (bw * bh) as usize] }
    }

    /// Marks the blocks `bxs` × `bys` (cut at the image's edge) flat in
    /// `colour`.
    pub fn set(&mut self, bxs: std::ops::Range<u32>, bys: std::ops::Range<u32>, colour: [u8; 3]) {
        for by in bys.start..bys.end.min(self.bh) {
            for bx in bxs.start..bxs.end.min(self.bw) {
                self.flat[(by * self.bw + bx) as usize] = Some(colour);
            }
        }
    }

    /// Whether every block this mask calls flat is flat in `img` (a block
    /// it leaves unknown may be either): for tests of masks made without
    /// reading the pixels.
    #[cfg(test)]
    pub fn agrees_with(&self, img: &RgbImage) -> bool {
        let truth = FlatMask::of(img);
        (self.bw, self.bh) == (truth.bw, truth.bh)
            && self.flat.iter().zip(&truth.flat).all(|(m, t)| m.is_none() || m == t)
    }

    /// The one colour of every pixel of the rectangle `x0..=x1` ×
    /// `y0..=y1` that lies in the image, if it has one. The part outside
    /// the image is white page when `outside_white`, else disregarded (the
    /// blur clamps to the edge, which lies inside the rectangle).
    pub fn colour(&self, x0: i64, y0: i64, x1: i64, y1: i64, outside_white: bool) -> Option<[u8; 3]> {
        let b = i64::from(BLOCK);
        let (bw, bh) = (i64::from(self.bw), i64::from(self.bh));
        let (bx0, by0, bx1, by1) = (x0.div_euclid(b), y0.div_euclid(b), x1.div_euclid(b), y1.div_euclid(b));
        let outside = bx0 < 0 || by0 < 0 || bx1 >= bw || by1 >= bh;
        let (bx0, by0, bx1, by1) = (bx0.max(0), by0.max(0), bx1.min(bw - 1), by1.min(bh - 1));
        if bx0 > bx1 || by0 > by1 {
            return outside_white.then_some(WHITE);
        }
        let colour = self.flat[(by0 * bw + bx0) as usize]?;
        if outside && outside_white && colour != WHITE {
            return None;
        }
        (by0..=by1)
            .all(|by| self.flat[(by * bw + bx0) as usize..=(by * bw + bx1) as usize].iter().all(|c| *c == Some(colour)))
            .then_some(colour)
    }

    /// Per block: the colour of it and of every block within `dx` columns
    /// and `dy` rows of it, if they share one.
    pub fn dilated(&self, dx: i64, dy: i64) -> Blocks {
        let (bw, bh) = (i64::from(self.bw), i64::from(self.bh));
        let b = i64::from(BLOCK);
        let flags = (0..bh)
            .flat_map(|by| (0..bw).map(move |bx| (bx, by)))
            .map(|(bx, by)| self.colour((bx - dx) * b, (by - dy) * b, (bx + dx) * b, (by + dy) * b, false))
            .collect();
        Blocks { bw: self.bw as usize, flags }
    }
}

/// The one colour of the block spanning `rows` and the bytes `cols` of
/// each, if it has one.
fn block_colour(
    raw: &[u8],
    row_bytes: usize,
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
) -> Option<[u8; 3]> {
    let first = &raw[rows.start * row_bytes + cols.start..][..3];
    let colour = [first[0], first[1], first[2]];
    let mut rows = rows.map(|y| &raw[y * row_bytes + cols.start..y * row_bytes + cols.end]);
    if cols.len() != WORDS * 8 {
        // A block cut by the image's edge.
        return rows.all(|r| r.chunks_exact(3).all(|p| p == colour)).then_some(colour);
    }
    // A whole block's row is 24 bytes: three word compares with the
    // colour's pattern, not eight pixel compares.
    let pattern = words(&std::array::from_fn::<u8, { WORDS * 8 }, _>(|i| colour[i % 3]));
    rows.all(|r| words(r) == pattern).then_some(colour)
}

/// Bytes of a block's row in words.
const WORDS: usize = 3 * BLOCK as usize / 8;

fn words(bytes: &[u8]) -> [u64; WORDS] {
    std::array::from_fn(|i| u64::from_ne_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes")))
}

/// A colour (or none) per block, row by row.
pub struct Blocks {
    bw: usize,
    flags: Vec<Option<[u8; 3]>>,
}

impl Blocks {
    /// The entries of block row `by`.
    pub fn row(&self, by: usize) -> &[Option<[u8; 3]>] {
        &self.flags[by * self.bw..][..self.bw]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_blocks_keep_their_colour_and_a_stray_pixel_breaks_one() {
        let mut img = RgbImage::from_pixel(24, 10, image::Rgb(WHITE));
        for y in 0..8 {
            for x in 16..24 {
                img.put_pixel(x, y, image::Rgb([236, 236, 255]));
            }
        }
        img.put_pixel(9, 3, image::Rgb([255, 254, 255]));
        let m = FlatMask::of(&img);
        assert_eq!(m.colour(8, 0, 15, 7, true), None);
        assert_eq!(m.colour(0, 0, 7, 9, true), Some(WHITE));
        assert_eq!(m.colour(16, 0, 23, 7, false), Some([236, 236, 255]));
        assert_eq!(m.colour(16, 0, 40, 7, true), None, "a fill running out of the image meets white page");
        assert_eq!(m.colour(16, 0, 40, 7, false), Some([236, 236, 255]));
        assert_eq!(m.colour(30, 0, 40, 9, true), Some(WHITE), "outside the image is white page");
        assert_eq!(m.colour(-5, -5, 7, 20, true), Some(WHITE));
    }
}
