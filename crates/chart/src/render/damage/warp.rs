//! Rotation and perspective as one projective warp, bilinear, white fill.
//!
//! The output is walked in 16×16 tiles: a tile whose source (the bounding
//! box of its corners mapped back, a pixel wider for the bilinear taps)
//! is one flat colour (white page, a box's fill) is filled with it without
//! sampling; a projective map close to the identity keeps a tile's image
//! inside that box. A tile that is not flat is split once into four 8×8
//! quarters, tested the same way (a label's edge no longer costs the
//! whole 16×16). Elsewhere the pixel centres of a tile's corners are
//! mapped back through imageproc's `Projection`, the points between are
//! stepped along each row in 16.16 fixed point, and sampled with 8-bit
//! fixed-point weights: no float and no `floor` per pixel.

use image::RgbImage;
use imageproc::geometric_transformations::Projection;

use super::mask::{BLOCK, FlatMask};
use super::simd;

const TILE: u32 = 16;

/// `img` rotated by `degrees` on a canvas grown to hold every corner, then
/// each corner pulled inward by up to `fraction` of the size, the amounts
/// drawn from `seed` (the keystone of a photo taken slightly askew); with
/// the warped image's flat blocks.
pub fn warp(img: &RgbImage, degrees: f32, fraction: f32, seed: u64) -> (RgbImage, FlatMask) {
    let theta = degrees.to_radians();
    let (w, h) = (img.width() as f32, img.height() as f32);
    let (s, c) = (theta.sin().abs(), theta.cos().abs());
    let (nw, nh) = ((w * c + h * s).ceil() as u32 + 2, (w * s + h * c).ceil() as u32 + 2);
    let (cx, cy) = (nw as f32 / 2.0, nh as f32 / 2.0);
    // The source centred on the canvas, rotated about the canvas centre.
    let placed = Projection::translate(((nw - img.width()) / 2) as f32, ((nh - img.height()) / 2) as f32);
    let rotation = Projection::translate(cx, cy) * Projection::rotate(theta) * Projection::translate(-cx, -cy);
    let forward = match keystone(nw as f32, nh as f32, fraction, seed) {
        Some(k) => k * rotation * placed,
        None => rotation * placed,
    };
    let back = forward.invert();
    let mask = FlatMask::of(img);
    // One memset, not a pixel-by-pixel fill.
    let mut out = RgbImage::from_raw(nw, nh, vec![255; 3 * nw as usize * nh as usize]).expect("sized");
    // The output's flat blocks, known from the tiles filled flat (a tile is
    // two blocks a side, a quarter one): what the blur would else find by
    // reading every pixel again.
    let mut flat = FlatMask::unknown(nw, nh);
    let block = |x: u32, y: u32| (x / BLOCK, y / BLOCK);
    for ty in (0..nh).step_by(TILE as usize) {
        for tx in (0..nw).step_by(TILE as usize) {
            if let Some(c) = skip_flat(&back, &mask, &mut out, (tx, ty), TILE) {
                let (bx, by) = block(tx, ty);
                flat.set(bx..bx + TILE / BLOCK, by..by + TILE / BLOCK, c);
                continue;
            }
            for (qx, qy) in [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(i, j)| (tx + i * TILE / 2, ty + j * TILE / 2)) {
                if qx >= nw || qy >= nh {
                    continue;
                }
                match skip_flat(&back, &mask, &mut out, (qx, qy), TILE / 2) {
                    Some(c) => {
                        let (bx, by) = block(qx, qy);
                        flat.set(bx..bx + 1, by..by + 1, c);
                    }
                    None => sample_tile(img, &back, &mut out, (qx, qy), TILE / 2),
                }
            }
        }
    }
    (out, flat)
}

/// The colour of output tile `(x0, y0)` of side `size` (cut at the edges)
/// if its source is flat; the tile is then filled with it (white already is).
fn skip_flat(
    back: &Projection,
    mask: &FlatMask,
    out: &mut RgbImage,
    (x0, y0): (u32, u32),
    size: u32,
) -> Option<[u8; 3]> {
    let rect = (x0, y0, (x0 + size).min(out.width()), (y0 + size).min(out.height()));
    let c = source_colour(back, mask, rect)?;
    if c != WHITE_RGB {
        fill(out, c, rect);
    }
    Some(c)
}

const WHITE_RGB: [u8; 3] = [255; 3];

/// Fills output tile `(x0, y0, x1, y1)` with `colour`.
fn fill(out: &mut RgbImage, colour: [u8; 3], (x0, y0, x1, y1): (u32, u32, u32, u32)) {
    let w = out.width() as usize;
    let raw: &mut [u8] = out.as_mut();
    for y in y0 as usize..y1 as usize {
        raw[3 * (y * w + x0 as usize)..3 * (y * w + x1 as usize)]
            .chunks_exact_mut(3)
            .for_each(|p| p.copy_from_slice(&colour));
    }
}

/// The one colour of the source of output tile `(x0, y0, x1, y1)`
/// (exclusive ends), white page outside the image, if it has one.
fn source_colour(back: &Projection, mask: &FlatMask, (x0, y0, x1, y1): (u32, u32, u32, u32)) -> Option<[u8; 3]> {
    let corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)].map(|(x, y)| *back * (x as f32, y as f32));
    let (mut lx, mut ly, mut hx, mut hy) = (f32::INFINITY, f32::INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY);
    for (x, y) in corners {
        if !(x.is_finite() && y.is_finite()) {
            return None;
        }
        (lx, ly, hx, hy) = (lx.min(x), ly.min(y), hx.max(x), hy.max(y));
    }
    // A pixel centre at edge coordinate u is sampled at u − ½, whose taps
    // are its floor and the pixel after: within [⌊lo⌋ − 1, ⌈hi⌉ + 1].
    let r = |v: f32, d: f32| (v + d).clamp(-1e9, 1e9) as i64;
    mask.colour(r(lx.floor(), -1.0), r(ly.floor(), -1.0), r(hx.ceil(), 1.0), r(hy.ceil(), 1.0), true)
}

/// Fixed-point one of a source coordinate (16.16).
const FX: f32 = 65536.0;

/// Samples every pixel of output tile `(x0, y0)` of side `size` (cut at
/// the edges) from `img`. The source points of the tile's corners are
/// exact; those between are interpolated (over 16 px a mild projective map
/// strays from the interpolation by far less than a hundredth of a pixel),
/// and along a row stepped by a constant in 16.16 fixed point.
fn sample_tile(img: &RgbImage, back: &Projection, out: &mut RgbImage, origin: (u32, u32), size: u32) {
    simd::avx2_or_not!(sampled(img: &RgbImage, back: &Projection, out: &mut RgbImage, origin: (u32, u32), size: u32) -> ())
}

/// [`sample_tile`]'s body, inlined into both of [`simd::avx2_or_not`]'s
/// copies (the AVX2 one rounds inline, where the baseline calls `roundf`).
#[inline(always)]
fn sampled(img: &RgbImage, back: &Projection, out: &mut RgbImage, (x0, y0): (u32, u32), size: u32) {
    let (x1, y1) = ((x0 + size).min(out.width()), (y0 + size).min(out.height()));
    let src = |x: u32, y: u32| {
        let (sx, sy) = *back * (x as f32 + 0.5, y as f32 + 0.5);
        (sx - 0.5, sy - 0.5)
    };
    let (a, b, c, d) = (src(x0, y0), src(x0 + size, y0), src(x0, y0 + size), src(x0 + size, y0 + size));
    let lerp = |p: (f32, f32), q: (f32, f32), t: f32| (p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t);
    // Every tap of the tile inside the image: no bounds to check per tap.
    let (lo_x, hi_x) = (a.0.min(b.0).min(c.0).min(d.0), a.0.max(b.0).max(c.0).max(d.0));
    let (lo_y, hi_y) = (a.1.min(b.1).min(c.1).min(d.1), a.1.max(b.1).max(c.1).max(d.1));
    // A hundredth of a pixel to spare for the fixed-point steps' rounding.
    let inside = lo_x >= 0.01
        && lo_y >= 0.01
        && hi_x < img.width().saturating_sub(1) as f32 - 0.01
        && hi_y < img.height().saturating_sub(1) as f32 - 0.01;
    let fixed = |v: f32| (v * FX).round().clamp(-1e15, 1e15) as i64;
    let ow = out.width() as usize;
    let raw: &mut [u8] = out.as_mut();
    for y in y0..y1 {
        let t = (y - y0) as f32 / size as f32;
        let (left, right) = (lerp(a, c, t), lerp(b, d, t));
        let (mut sx, mut sy) = (fixed(left.0), fixed(left.1));
        let (dx, dy) = (fixed((right.0 - left.0) / size as f32), fixed((right.1 - left.1) / size as f32));
        let row = &mut raw[3 * (y as usize * ow + x0 as usize)..][..3 * (x1 - x0) as usize];
        for px in row.chunks_exact_mut(3) {
            px.copy_from_slice(&if inside { bilinear_inside(img, sx, sy) } else { bilinear(img, sx, sy) });
            (sx, sy) = (sx + dx, sy + dy);
        }
    }
}

/// The pixel and 8-bit weight of 16.16 fixed-point coordinate `v`.
#[inline(always)]
fn split(v: i64) -> (i64, u32) {
    (v >> 16, ((v >> 8) & 255) as u32)
}

/// [`bilinear`] where `(x, y)` and its three neighbours lie in the image.
#[inline(always)]
fn bilinear_inside(img: &RgbImage, x: i64, y: i64) -> [u8; 3] {
    let ((ix, wx), (iy, wy)) = (split(x), split(y));
    let row = 3 * img.width() as usize;
    let i = iy as usize * row + 3 * ix as usize;
    let raw = img.as_raw();
    let (top, bottom) = (&raw[i..i + 6], &raw[i + row..i + row + 6]);
    std::array::from_fn(|k| {
        let t = u32::from(top[k]) * (256 - wx) + u32::from(top[k + 3]) * wx;
        let b = u32::from(bottom[k]) * (256 - wx) + u32::from(bottom[k + 3]) * wx;
        ((t * (256 - wy) + b * wy + (1 << 15)) >> 16) as u8
    })
}

/// `img` at 16.16 fixed-point `(x, y)` (pixel centres at whole numbers),
/// white outside.
#[inline(always)]
fn bilinear(img: &RgbImage, x: i64, y: i64) -> [u8; 3] {
    let (w, h) = (i64::from(img.width()), i64::from(img.height()));
    let ((ix, wx), (iy, wy)) = (split(x), split(y));
    if ix < -1 || iy < -1 || ix >= w || iy >= h {
        return [255; 3];
    }
    let raw = img.as_raw();
    let at = |px: i64, py: i64| -> [u32; 3] {
        if px < 0 || py < 0 || px >= w || py >= h {
            return [255; 3];
        }
        let i = 3 * (py * w + px) as usize;
        [u32::from(raw[i]), u32::from(raw[i + 1]), u32::from(raw[i + 2])]
    };
    let (p, q, r, s) = (at(ix, iy), at(ix + 1, iy), at(ix, iy + 1), at(ix + 1, iy + 1));
    std::array::from_fn(|k| {
        let top = p[k] * (256 - wx) + q[k] * wx;
        let bottom = r[k] * (256 - wx) + s[k] * wx;
        ((top * (256 - wy) + bottom * wy + (1 << 15)) >> 16) as u8
    })
}

/// The corners of a `w`×`h` image pulled inward by seeded amounts.
fn keystone(w: f32, h: f32, fraction: f32, seed: u64) -> Option<Projection> {
    if fraction <= 0.0 {
        return None;
    }
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut jitter = |size: f32| rng.f32() * fraction * size;
    let corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)];
    let signs = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)];
    let mut to = corners;
    for (t, (sx, sy)) in to.iter_mut().zip(signs) {
        t.0 += sx * jitter(w);
        t.1 += sy * jitter(h);
    }
    Projection::from_control_points(corners, to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    const WHITE: Rgb<u8> = Rgb([255, 255, 255]);

    #[test]
    fn no_rotation_keeps_the_pixels_and_white_stays_white() {
        let mut img = RgbImage::from_pixel(40, 30, WHITE);
        img.put_pixel(20, 15, Rgb([0, 0, 0]));
        let (same, _) = warp(&img, 0.0, 0.0, 0);
        // The canvas grows by one pixel each side.
        assert_eq!(same.dimensions(), (42, 32));
        assert_eq!(same.get_pixel(21, 16), &Rgb([0, 0, 0]));
        assert_eq!(same.pixels().filter(|p| **p != WHITE).count(), 1);
    }

    /// `img` warped pixel by pixel: each centre mapped back exactly, float
    /// bilinear, white outside; what the tiles, the flat-block skipping and
    /// the fixed-point steps approximate.
    fn reference(img: &RgbImage, degrees: f32, fraction: f32, seed: u64) -> RgbImage {
        let (shape, _) = warp(&RgbImage::new(img.width(), img.height()), degrees, fraction, seed);
        let theta = degrees.to_radians();
        let (nw, nh) = shape.dimensions();
        let (cx, cy) = (nw as f32 / 2.0, nh as f32 / 2.0);
        let placed = Projection::translate(((nw - img.width()) / 2) as f32, ((nh - img.height()) / 2) as f32);
        let rotation = Projection::translate(cx, cy) * Projection::rotate(theta) * Projection::translate(-cx, -cy);
        let forward =
            keystone(nw as f32, nh as f32, fraction, seed).map_or(rotation * placed, |k| k * rotation * placed);
        let back = forward.invert();
        let at = |x: i64, y: i64| -> [f32; 3] {
            if x < 0 || y < 0 || x >= i64::from(img.width()) || y >= i64::from(img.height()) {
                return [255.0; 3];
            }
            img.get_pixel(x as u32, y as u32).0.map(f32::from)
        };
        RgbImage::from_fn(nw, nh, |x, y| {
            let (sx, sy) = back * (x as f32 + 0.5, y as f32 + 0.5);
            let (sx, sy) = (sx - 0.5, sy - 0.5);
            let (fx, fy) = (sx.floor(), sy.floor());
            let (wx, wy) = (sx - fx, sy - fy);
            let (ix, iy) = (fx as i64, fy as i64);
            let (p, q, r, t) = (at(ix, iy), at(ix + 1, iy), at(ix, iy + 1), at(ix + 1, iy + 1));
            Rgb(std::array::from_fn(|k| {
                let top = p[k] * (1.0 - wx) + q[k] * wx;
                let bottom = r[k] * (1.0 - wx) + t[k] * wx;
                (top * (1.0 - wy) + bottom * wy).round() as u8
            }))
        })
    }

    /// Greatest difference of any byte of `a` and `b`.
    fn worst(a: &RgbImage, b: &RgbImage) -> u8 {
        assert_eq!(a.dimensions(), b.dimensions());
        a.as_raw().iter().zip(b.as_raw()).map(|(p, q)| p.abs_diff(*q)).max().unwrap_or(0)
    }

    #[test]
    fn tiles_skipping_and_fixed_point_match_an_exact_warp() {
        // Busy pixels (nothing flat, edges touched) and a chart-like page
        // (white, a filled box, a line) whose flat tiles are skipped.
        let busy = RgbImage::from_fn(97, 61, |x, y| Rgb([(x * 37 + y * 11) as u8, (x * y) as u8, (x ^ y) as u8 * 4]));
        let mut page = RgbImage::from_pixel(150, 110, WHITE);
        for (x, y) in (30..120).flat_map(|x| (30..70).map(move |y| (x, y))) {
            page.put_pixel(x, y, Rgb([236, 236, 255]));
        }
        for x in 10..140 {
            page.put_pixel(x, 90, Rgb([40, 40, 40]));
        }
        for (img, seed) in [(&busy, 1), (&busy, 2), (&page, 3)] {
            // 8-bit weights: a level or two on a pattern that jumps up to
            // 255 levels a pixel; under a strong keystone (past the `scan`
            // presets' 0.012) the interpolated source points stray a little
            // more. A displaced pixel would be tens of levels off.
            for (degrees, fraction, allowed) in [(0.5, 0.004, 3), (-1.5, 0.012, 3), (7.0, 0.05, 6)] {
                let ((fast, flat), exact) =
                    (warp(img, degrees, fraction, seed), reference(img, degrees, fraction, seed));
                assert!(flat.agrees_with(&fast), "{degrees}° {fraction}: a block called flat is not");
                let d = worst(&fast, &exact);
                assert!(d <= allowed, "{degrees}° {fraction}: a byte {d} levels off");
            }
        }
    }

    #[test]
    fn a_rotated_line_moves_and_blank_tiles_stay_white() {
        let mut img = RgbImage::from_pixel(200, 100, WHITE);
        for x in 20..180 {
            img.put_pixel(x, 50, Rgb([0, 0, 0]));
        }
        let (r, _) = warp(&img, 5.0, 0.0, 0);
        let dark = |x: u32| (0..r.height()).find(|&y| r.get_pixel(x, y)[0] < 128);
        let (left, right) = (dark(40).expect("line"), dark(160).expect("line"));
        // Clockwise: the right end lower, by about tan 5° × 120 px.
        assert!((right as i64 - left as i64 - 10).abs() <= 2, "{left} {right}");
        assert_eq!(r.get_pixel(5, 5), &WHITE);
    }
}
