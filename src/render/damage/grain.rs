//! The per-pixel steps: greyscale, and paper (tint, vignette) with grain
//! in one pass over the pixels, all in integer arithmetic.

use image::RgbImage;

use super::simd;

/// Luma (Rec. 709 weights, as `image` computes it) in every channel.
pub fn greyscale(img: &mut RgbImage) {
    for p in img.as_mut().chunks_exact_mut(3) {
        let l = (2126 * u32::from(p[0]) + 7152 * u32::from(p[1]) + 722 * u32::from(p[2]) + 5000) / 10_000;
        p.fill(l as u8);
    }
}

/// The warm tint of paper, per channel.
const TINT: [f32; 3] = [248.0 / 255.0, 241.0 / 255.0, 222.0 / 255.0];
/// How much darker the corners get at full strength.
const VIGNETTE: f32 = 0.22;
/// Entries of the table of normal samples the grain is picked from.
const TABLE: usize = 4096;
/// Fixed-point one of the per-pixel factor.
const Q: i64 = 1 << 16;

/// Multiplies by a warm paper tint darkening toward the corners (strength
/// `paper`, 0–1) and adds Gaussian grain of σ `sigma` grey levels: one
/// sample per pixel, the same in each channel (a scan's grain is in the
/// brightness), picked by `seed`'s stream from a table of 4096 standard
/// normal samples (Box–Muller on the same stream).
pub fn paper_and_noise(img: &mut RgbImage, paper: f32, sigma: f32, seed: u64) {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let mut rng = fastrand::Rng::with_seed(seed);
    let table: [i32; TABLE] = std::array::from_fn(|_| {
        let (u1, u2) = (rng.f32().max(f32::MIN_POSITIVE), rng.f32());
        let n = (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos() * sigma;
        (n * Q as f32).round().clamp(-1e9, 1e9) as i32
    });
    // Vignette: 1 − k·(dx² + dy²)/reach², the sum of a column and a row term.
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    let reach2 = (cx * cx + cy * cy).max(1.0);
    let term = |i: usize, c: f32| {
        let d = i as f32 + 0.5 - c;
        (f64::from(VIGNETTE * paper * d * d / reach2) * Q as f64).round() as i64
    };
    let tint = TINT.map(|t| ((1.0 - paper * (1.0 - t)) * Q as f32).round() as i64);
    // Per channel, tint × (1 − column term), and per row tint × row term:
    // the factor is their difference (units of 1/Q).
    let cols: Vec<[i32; 3]> = (0..w).map(|x| tint.map(|t| ((t * (Q - term(x, cx))) >> 16) as i32)).collect();
    // Per row: the grain drawn first (four 12-bit table indices from each
    // 64-bit draw, a scalar loop, each pixel's grain in its three bytes),
    // then one flat pass over the row's bytes with no draw in it, which the
    // compiler vectorises.
    let mut grain = vec![0i32; 3 * w];
    let mut factor = vec![0i32; 3 * w];
    for (y, row) in img.as_mut().chunks_exact_mut(3 * w).enumerate() {
        if sigma > 0.0 {
            draw_grain(&mut grain, &table, &mut rng);
        }
        let rows = tint.map(|t| ((t * term(y, cy)) >> 16) as i32);
        for (f, col) in factor.chunks_exact_mut(3).zip(&cols) {
            f.iter_mut().zip(col.iter().zip(&rows)).for_each(|(f, (c, r))| *f = c - r);
        }
        shade_row(row, &factor, &grain);
    }
}

/// One row's bytes times their factor plus their grain.
fn shade_row(row: &mut [u8], factor: &[i32], grain: &[i32]) {
    simd::avx2_or_not!(shaded(row: &mut [u8], factor: &[i32], grain: &[i32]) -> ())
}

/// [`shade_row`]'s body, inlined into both of [`simd::avx2_or_not`]'s copies.
#[inline(always)]
fn shaded(row: &mut [u8], factor: &[i32], grain: &[i32]) {
    for ((p, f), n) in row.iter_mut().zip(factor).zip(grain) {
        // c × tint × vignette + noise, in units of 1/Q (below 2³¹).
        let v = i32::from(*p) * f + n;
        *p = ((v + (1 << 15)) >> 16).clamp(0, 255) as u8;
    }
}

/// One row's grain: a table entry per pixel (in each of its three bytes),
/// four pixels per 64-bit draw.
fn draw_grain(grain: &mut [i32], table: &[i32; TABLE], rng: &mut fastrand::Rng) {
    let pick = |draws: u64, i: usize| table[((draws >> (16 * i)) as usize) & (TABLE - 1)];
    let mut quads = grain.chunks_exact_mut(12);
    for quad in &mut quads {
        let draws = rng.u64(..);
        let [a, b, c, d] = [0, 1, 2, 3].map(|i| pick(draws, i));
        // One 48-byte store, not twelve: the fill loop was half this step.
        quad.copy_from_slice(&[a, a, a, b, b, b, c, c, c, d, d, d]);
    }
    let rest = quads.into_remainder();
    if !rest.is_empty() {
        let draws = rng.u64(..);
        for (i, px) in rest.chunks_mut(3).enumerate() {
            px.fill(pick(draws, i));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    #[test]
    fn paper_tints_and_darkens_the_corners() {
        let mut img = RgbImage::from_pixel(101, 101, Rgb([255, 255, 255]));
        paper_and_noise(&mut img, 1.0, 0.0, 0);
        let (centre, corner) = (img.get_pixel(50, 50), img.get_pixel(0, 0));
        assert_eq!(centre, &Rgb([248, 241, 222]));
        assert!(corner[0] < centre[0] && corner[2] < centre[2], "{corner:?}");
    }

    #[test]
    fn grain_is_seeded_and_grey() {
        let base = RgbImage::from_pixel(64, 64, Rgb([128, 128, 128]));
        let (mut a, mut b, mut c) = (base.clone(), base.clone(), base);
        paper_and_noise(&mut a, 0.0, 10.0, 1);
        paper_and_noise(&mut b, 0.0, 10.0, 1);
        paper_and_noise(&mut c, 0.0, 10.0, 2);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.pixels().all(|p| p[0] == p[1] && p[1] == p[2]));
        let mean = a.pixels().map(|p| f64::from(p[0])).sum::<f64>() / 4096.0;
        let sd = (a.pixels().map(|p| (f64::from(p[0]) - mean).powi(2)).sum::<f64>() / 4096.0).sqrt();
        assert!((mean - 128.0).abs() < 1.0 && (sd - 10.0).abs() < 1.0, "mean {mean} sd {sd}");
    }
}
