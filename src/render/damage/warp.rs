//! Rotation and perspective as one projective warp, bilinear, white fill.
//!
//! The output is walked in 16×16 tiles: a tile whose source (the bounding
//! box of its corners mapped back, two pixels wider for the bilinear taps)
//! is one flat colour (white page, a box's fill) is filled with it without
//! sampling; a projective map close
//! to the identity keeps a tile's image inside that box. Elsewhere each
//! pixel centre is mapped back through imageproc's `Projection` and
//! sampled with 8-bit fixed-point weights.

use image::{Rgb, RgbImage};
use imageproc::geometric_transformations::Projection;

use super::mask::FlatMask;

const TILE: u32 = 16;
const WHITE: Rgb<u8> = Rgb([255, 255, 255]);

/// `img` rotated by `degrees` on a canvas grown to hold every corner, then
/// each corner pulled inward by up to `fraction` of the size, the amounts
/// drawn from `seed` (the keystone of a photo taken slightly askew).
pub fn warp(img: &RgbImage, degrees: f32, fraction: f32, seed: u64) -> RgbImage {
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
    let mut out = RgbImage::from_pixel(nw, nh, WHITE);
    for ty in (0..nh).step_by(TILE as usize) {
        for tx in (0..nw).step_by(TILE as usize) {
            let (tx1, ty1) = ((tx + TILE).min(nw), (ty + TILE).min(nh));
            match source_colour(&back, &mask, (tx, ty, tx1, ty1)) {
                Some(WHITE_RGB) => {}
                Some(c) => fill(&mut out, c, (tx, ty, tx1, ty1)),
                None => sample_tile(img, &back, &mut out, (tx, ty, tx1, ty1)),
            }
        }
    }
    out
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
    let r = |v: f32, d: f32| (v + d).clamp(-1e9, 1e9) as i64;
    mask.colour(r(lx.floor(), -2.0), r(ly.floor(), -2.0), r(hx.ceil(), 2.0), r(hy.ceil(), 2.0), true)
}

/// Samples every pixel of output tile `(x0, y0, x1, y1)` from `img`. The
/// source points of the tile's corners are exact; those between are
/// interpolated (over 16 px a mild projective map strays from the
/// interpolation by far less than a hundredth of a pixel).
fn sample_tile(img: &RgbImage, back: &Projection, out: &mut RgbImage, (x0, y0, x1, y1): (u32, u32, u32, u32)) {
    let src = |x: u32, y: u32| {
        let (sx, sy) = *back * (x as f32 + 0.5, y as f32 + 0.5);
        (sx - 0.5, sy - 0.5)
    };
    let (a, b, c, d) = (src(x0, y0), src(x0 + TILE, y0), src(x0, y0 + TILE), src(x0 + TILE, y0 + TILE));
    let lerp = |p: (f32, f32), q: (f32, f32), t: f32| (p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t);
    // Every tap of the tile inside the image: no bounds to check per tap.
    let (lo_x, hi_x) = (a.0.min(b.0).min(c.0).min(d.0), a.0.max(b.0).max(c.0).max(d.0));
    let (lo_y, hi_y) = (a.1.min(b.1).min(c.1).min(d.1), a.1.max(b.1).max(c.1).max(d.1));
    let inside = lo_x >= 0.0
        && lo_y >= 0.0
        && hi_x < img.width().saturating_sub(1) as f32
        && hi_y < img.height().saturating_sub(1) as f32;
    let ow = out.width() as usize;
    let raw: &mut [u8] = out.as_mut();
    for y in y0..y1 {
        let t = (y - y0) as f32 / TILE as f32;
        let (left, right) = (lerp(a, c, t), lerp(b, d, t));
        let row = &mut raw[3 * (y as usize * ow + x0 as usize)..][..3 * (x1 - x0) as usize];
        for (i, px) in row.chunks_exact_mut(3).enumerate() {
            let (sx, sy) = lerp(left, right, i as f32 / TILE as f32);
            px.copy_from_slice(&if inside { bilinear_inside(img, sx, sy) } else { bilinear(img, sx, sy) });
        }
    }
}

/// [`bilinear`] where `(x, y)` and its three neighbours lie in the image.
fn bilinear_inside(img: &RgbImage, x: f32, y: f32) -> [u8; 3] {
    let (fx, fy) = (x.floor(), y.floor());
    let (wx, wy) = (((x - fx) * 256.0) as u32, ((y - fy) * 256.0) as u32);
    let row = 3 * img.width() as usize;
    let i = fy as usize * row + 3 * fx as usize;
    let raw = img.as_raw();
    let (top, bottom) = (&raw[i..i + 6], &raw[i + row..i + row + 6]);
    std::array::from_fn(|k| {
        let t = u32::from(top[k]) * (256 - wx) + u32::from(top[k + 3]) * wx;
        let b = u32::from(bottom[k]) * (256 - wx) + u32::from(bottom[k + 3]) * wx;
        ((t * (256 - wy) + b * wy + (1 << 15)) >> 16) as u8
    })
}

/// `img` at `(x, y)` (pixel centres at whole numbers), white outside.
fn bilinear(img: &RgbImage, x: f32, y: f32) -> [u8; 3] {
    let (w, h) = (img.width() as i64, img.height() as i64);
    if !(x > -1.0 && y > -1.0 && x < w as f32 && y < h as f32) {
        return [255; 3];
    }
    let (fx, fy) = (x.floor(), y.floor());
    let (ix, iy) = (fx as i64, fy as i64);
    let (wx, wy) = (((x - fx) * 256.0) as u32, ((y - fy) * 256.0) as u32);
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

    #[test]
    fn no_rotation_keeps_the_pixels_and_white_stays_white() {
        let mut img = RgbImage::from_pixel(40, 30, WHITE);
        img.put_pixel(20, 15, Rgb([0, 0, 0]));
        let same = warp(&img, 0.0, 0.0, 0);
        // The canvas grows by one pixel each side.
        assert_eq!(same.dimensions(), (42, 32));
        assert_eq!(same.get_pixel(21, 16), &Rgb([0, 0, 0]));
        assert_eq!(same.pixels().filter(|p| **p != WHITE).count(), 1);
    }

    #[test]
    fn a_rotated_line_moves_and_blank_tiles_stay_white() {
        let mut img = RgbImage::from_pixel(200, 100, WHITE);
        for x in 20..180 {
            img.put_pixel(x, 50, Rgb([0, 0, 0]));
        }
        let r = warp(&img, 5.0, 0.0, 0);
        let dark = |x: u32| (0..r.height()).find(|&y| r.get_pixel(x, y)[0] < 128);
        let (left, right) = (dark(40).expect("line"), dark(160).expect("line"));
        // Clockwise: the right end lower, by about tan 5° × 120 px.
        assert!((right as i64 - left as i64 - 10).abs() <= 2, "{left} {right}");
        assert_eq!(r.get_pixel(5, 5), &WHITE);
    }
}
