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
/// Offsets a row's window of the grain template may start at.
const SHIFTS: usize = 4096;
/// Fixed-point one of the per-pixel factor.
const Q: i64 = 1 << 16;

/// Multiplies by a warm paper tint darkening toward the corners (strength
/// `paper`, 0–1) and adds Gaussian grain of σ `sigma` grey levels: one
/// sample per pixel, the same in each channel (a scan's grain is in the
/// brightness).
///
/// The grain is a template row of w + 4096 normal samples (Box–Muller on
/// `seed`'s stream), each row of the image reading a window of it that
/// starts at a seeded offset: how film-grain synthesis lays one template
/// at random offsets (AV1's grain blocks), so no pixel draws a random
/// number. Two rows share a window one time in 4096; neighbours are as
/// independent to the eye as fresh draws.
pub fn paper_and_noise(img: &mut RgbImage, paper: f32, sigma: f32, seed: u64) {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let mut rng = fastrand::Rng::with_seed(seed);
    let template: Vec<i32> = match sigma > 0.0 {
        true => (0..w + SHIFTS)
            .flat_map(|_| {
                let (u1, u2) = (rng.f32().max(f32::MIN_POSITIVE), rng.f32());
                let n = (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos() * sigma;
                [(n * Q as f32).round().clamp(-1e9, 1e9) as i32; 3]
            })
            .collect(),
        false => vec![0; 3 * w],
    };
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
    // Per row: its window of the grain, then one flat pass over the row's
    // bytes, which the compiler vectorises.
    let mut factor = vec![0i32; 3 * w];
    for (y, row) in img.as_mut().chunks_exact_mut(3 * w).enumerate() {
        let start = if sigma > 0.0 { rng.usize(..SHIFTS) } else { 0 };
        let grain = &template[3 * start..][..3 * w];
        let rows = tint.map(|t| ((t * term(y, cy)) >> 16) as i32);
        for (f, col) in factor.chunks_exact_mut(3).zip(&cols) {
            f.iter_mut().zip(col.iter().zip(&rows)).for_each(|(f, (c, r))| *f = c - r);
        }
        shade_row(row, &factor, grain);
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
