//! Damage done to a finished raster, as a phone photo or a photocopy of a
//! printed chart would do it: `blur`, `rotate`, `perspective`, `noise`,
//! `jpeg`, `downscale`, `paper`, the greyscale of `colour = "none"`, and
//! the `scan` presets combining them.
//!
//! # How it works
//!
//! The PNG is drawn as usual, decoded, then each step runs in a fixed
//! order: greyscale → paper (tint, vignette) → rotate and perspective (one
//! projective warp: the canvas grown so no corner is cut, white fill,
//! corners pulled inward by a seeded amount) → blur (Gaussian) → noise
//! (seeded Gaussian grain) → downscale → JPEG round trip → PNG again
//! (fdeflate, as the undamaged PNGs). Warp, blur, resize and the JPEG codec
//! are `image`'s and `imageproc`'s. The grain is one Gaussian sample per
//! pixel, the same in each channel (a scan's grain is in the brightness),
//! drawn from a seeded table: imageproc's per-channel sampler cost 170 ms
//! on a 1.5 Mpx chart. The only randomness is `seed`'s and no step depends
//! on the thread count, so the bytes are the same on every run.

use image::{ImageFormat, Rgb, RgbImage};
use imageproc::geometric_transformations::{Border, Interpolation, Projection};

use super::png_file::{Colour, FILTER_UP, PngFile};
use serde::{Deserialize, Serialize};

/// The damage of one style; all zero (the default) leaves the PNG as drawn.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Damage {
    /// Gaussian blur σ in px.
    pub blur: f32,
    /// Rotation in degrees (positive: clockwise).
    pub rotate: f32,
    /// Corner jitter as a fraction of the image's size.
    pub perspective: f32,
    /// Gaussian noise σ in grey levels (0–255).
    pub noise: f32,
    /// JPEG quality of a round trip through the codec; `None`: no JPEG.
    pub jpeg: Option<u8>,
    /// Maximum width in px; wider images are scaled down.
    pub downscale: Option<u32>,
    /// Paper tint and vignette strength, 0–1.
    pub paper: f32,
    /// Drawn in grey levels only (`colour = "none"`).
    pub greyscale: bool,
    /// Seed of the noise and the perspective jitter.
    pub seed: u64,
}

/// One damage key's allowed range, for validation and error messages.
pub struct Range {
    pub key: &'static str,
    pub min: f64,
    pub max: f64,
    pub unit: &'static str,
}

pub const BLUR: Range = Range { key: "blur", min: 0.0, max: 8.0, unit: "Gaussian σ in px" };
pub const ROTATE: Range = Range { key: "rotate", min: -15.0, max: 15.0, unit: "degrees" };
pub const PERSPECTIVE: Range = Range { key: "perspective", min: 0.0, max: 0.1, unit: "a fraction of the size" };
pub const NOISE: Range = Range { key: "noise", min: 0.0, max: 64.0, unit: "Gaussian σ in grey levels" };
pub const JPEG: Range = Range { key: "jpeg", min: 1.0, max: 100.0, unit: "JPEG quality" };
pub const DOWNSCALE: Range = Range { key: "downscale", min: 16.0, max: 100_000.0, unit: "maximum width in px" };
pub const PAPER: Range = Range { key: "paper", min: 0.0, max: 1.0, unit: "strength" };

impl Range {
    /// `v` if it lies in the range, else an error naming the key and range.
    pub fn check(&self, v: f64) -> Result<f64, String> {
        if v.is_finite() && v >= self.min && v <= self.max {
            Ok(v)
        } else {
            Err(format!("{}: {v} is out of range (allowed {} to {}, {})", self.key, self.min, self.max, self.unit))
        }
    }
}

/// The `scan` presets, mildest first.
pub const SCANS: [&str; 3] = ["light", "medium", "heavy"];

impl Damage {
    /// Whether this damage changes nothing.
    pub fn is_none(&self) -> bool {
        *self == Damage { seed: self.seed, ..Damage::default() }
    }

    /// The `scan` preset `name`: a phone photo (light), a photocopy
    /// (medium), a photocopy of a photocopy (heavy). Explicit keys in the
    /// same style refine it.
    pub fn scan(name: &str) -> Option<Damage> {
        let (blur, rotate, perspective, noise, jpeg, paper) = match name {
            "light" => (0.4, 0.5, 0.004, 4.0, 85, 0.3),
            "medium" => (0.6, 1.0, 0.008, 8.0, 65, 0.5),
            "heavy" => (0.8, 1.5, 0.012, 12.0, 45, 0.7),
            _ => return None,
        };
        Some(Damage { blur, rotate, perspective, noise, jpeg: Some(jpeg), paper, ..Damage::default() })
    }

    /// `png` with this damage done, as PNG bytes.
    pub fn apply(&self, png: &[u8]) -> Result<Vec<u8>, image::ImageError> {
        if self.is_none() {
            return Ok(png.to_vec());
        }
        let mut img = image::load_from_memory_with_format(png, ImageFormat::Png)?.to_rgb8();
        if self.greyscale {
            img = greyscale(&img);
        }
        if self.paper > 0.0 {
            paper(&mut img, self.paper);
        }
        if self.rotate != 0.0 || self.perspective > 0.0 {
            img = warp(&img, self.rotate, self.perspective, self.seed);
        }
        if self.blur > 0.0 {
            img = imageproc::filter::gaussian_blur_f32(&img, self.blur);
        }
        if self.noise > 0.0 {
            grain(&mut img, self.noise, self.seed);
        }
        if let Some(max) = self.downscale.filter(|&m| img.width() > m) {
            let h = (u64::from(img.height()) * u64::from(max) / u64::from(img.width())).max(1) as u32;
            img = image::imageops::resize(&img, max, h, image::imageops::FilterType::Triangle);
        }
        if let Some(q) = self.jpeg {
            img = jpeg_round_trip(&img, q)?;
        }
        Ok(encode(&img)?)
    }
}

/// The image as PNG, each row `Up`-filtered, through the same fdeflate
/// writer as the undamaged PNGs (`image`'s encoder took 20 ms a chart).
fn encode(img: &RgbImage) -> std::io::Result<Vec<u8>> {
    let (w, h) = img.dimensions();
    let row = w as usize * 3;
    let mut file = PngFile::new(w, h, Colour::Rgb, row * h as usize / 8)?;
    let mut filtered = Vec::with_capacity((row + 1) * h as usize);
    let mut above: &[u8] = &[];
    for this in img.as_raw().chunks_exact(row) {
        filtered.push(FILTER_UP);
        match above.is_empty() {
            true => filtered.extend_from_slice(this),
            false => filtered.extend(this.iter().zip(above).map(|(a, b)| a.wrapping_sub(*b))),
        }
        above = this;
    }
    file.write_rows(&filtered)?;
    file.finish()
}

/// Luma (Rec. 601 weights, as `image` computes it) in every channel.
fn greyscale(img: &RgbImage) -> RgbImage {
    let grey = image::imageops::grayscale(img);
    RgbImage::from_fn(img.width(), img.height(), |x, y| {
        let l = grey.get_pixel(x, y)[0];
        Rgb([l, l, l])
    })
}

/// Multiplies by a warm paper tint and darkens toward the corners.
fn paper(img: &mut RgbImage, strength: f32) {
    const TINT: [f32; 3] = [248.0 / 255.0, 241.0 / 255.0, 222.0 / 255.0];
    let (w, h) = (img.width() as f32, img.height() as f32);
    let (cx, cy) = (w / 2.0, h / 2.0);
    let reach2 = (cx * cx + cy * cy).max(1.0);
    for (x, y, p) in img.enumerate_pixels_mut() {
        let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
        // Darker with the square of the distance from the centre.
        let vignette = 1.0 - 0.22 * strength * (dx * dx + dy * dy) / reach2;
        for (c, tint) in p.0.iter_mut().zip(TINT) {
            let t = 1.0 - strength * (1.0 - tint);
            *c = (f32::from(*c) * t * vignette).round().clamp(0.0, 255.0) as u8;
        }
    }
}

const WHITE: Rgb<u8> = Rgb([255, 255, 255]);

/// Rotated by `degrees` on a canvas grown to hold every corner, then each
/// corner pulled inward by up to `fraction` of the size, the amounts drawn
/// from `seed` (the keystone of a photo taken slightly askew): one warp.
fn warp(img: &RgbImage, degrees: f32, fraction: f32, seed: u64) -> RgbImage {
    let theta = degrees.to_radians();
    let (w, h) = (img.width() as f32, img.height() as f32);
    let (s, c) = (theta.sin().abs(), theta.cos().abs());
    let (nw, nh) = ((w * c + h * s).ceil() as u32 + 2, (w * s + h * c).ceil() as u32 + 2);
    let mut canvas = RgbImage::from_pixel(nw, nh, WHITE);
    image::imageops::overlay(&mut canvas, img, i64::from((nw - img.width()) / 2), i64::from((nh - img.height()) / 2));
    let (cx, cy) = (nw as f32 / 2.0, nh as f32 / 2.0);
    let rotation = Projection::translate(cx, cy) * Projection::rotate(theta) * Projection::translate(-cx, -cy);
    let projection = match keystone(nw as f32, nh as f32, fraction, seed) {
        Some(k) => k * rotation,
        None => rotation,
    };
    imageproc::geometric_transformations::warp(&canvas, projection, Interpolation::Bilinear, Border::Constant(WHITE))
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

/// Adds Gaussian grain of σ `sigma` grey levels: one sample per pixel from
/// a table of 4096 standard normal samples (Box–Muller on `seed`'s
/// stream), picked by the same stream.
fn grain(img: &mut RgbImage, sigma: f32, seed: u64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let table: Vec<f32> = (0..4096)
        .map(|_| {
            let (u1, u2) = (rng.f32().max(f32::MIN_POSITIVE), rng.f32());
            (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos() * sigma
        })
        .collect();
    for p in img.pixels_mut() {
        let n = table[rng.usize(..table.len())];
        for c in &mut p.0 {
            *c = (f32::from(*c) + n).round().clamp(0.0, 255.0) as u8;
        }
    }
}

/// Through the JPEG codec at `quality` and back, keeping its artefacts.
fn jpeg_round_trip(img: &RgbImage, quality: u8) -> Result<RgbImage, image::ImageError> {
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality).encode_image(img)?;
    Ok(image::load_from_memory_with_format(&bytes, ImageFormat::Jpeg)?.to_rgb8())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn chart_like() -> Vec<u8> {
        let mut img = RgbImage::from_pixel(120, 80, WHITE);
        for x in 20..100 {
            for y in [20, 21, 60, 61] {
                img.put_pixel(x, y, Rgb([40, 40, 40]));
            }
        }
        for y in 20..62 {
            img.put_pixel(20, y, Rgb([147, 112, 219]));
        }
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).expect("png");
        out.into_inner()
    }

    fn decode(png: &[u8]) -> RgbImage {
        image::load_from_memory(png).expect("decode").to_rgb8()
    }

    #[test]
    fn no_damage_keeps_the_bytes() {
        let png = chart_like();
        assert_eq!(Damage::default().apply(&png).expect("apply"), png);
    }

    #[test]
    fn every_preset_is_deterministic_and_changes_the_picture() {
        let png = chart_like();
        for name in SCANS {
            let d = Damage { seed: 5, ..Damage::scan(name).expect("preset") };
            let a = d.apply(&png).expect("apply");
            assert_eq!(a, d.apply(&png).expect("apply"), "{name}");
            assert_ne!(a, png, "{name}");
            let other = Damage { seed: 6, ..d.clone() }.apply(&png).expect("apply");
            assert_ne!(a, other, "{name}: the seed moves the noise");
        }
    }

    #[test]
    fn rotate_grows_the_canvas_and_downscale_caps_the_width() {
        let png = chart_like();
        let r = decode(&Damage { rotate: 10.0, ..Damage::default() }.apply(&png).expect("apply"));
        assert!(r.width() > 120 && r.height() > 80, "{}×{}", r.width(), r.height());
        assert_eq!(r.get_pixel(0, 0), &WHITE, "white fill");
        let d = decode(&Damage { downscale: Some(60), ..Damage::default() }.apply(&png).expect("apply"));
        assert_eq!((d.width(), d.height()), (60, 40));
    }

    #[test]
    fn greyscale_has_no_colour() {
        let g = decode(&Damage { greyscale: true, ..Damage::default() }.apply(&chart_like()).expect("apply"));
        assert!(g.pixels().all(|p| p[0] == p[1] && p[1] == p[2]));
    }

    #[test]
    fn ranges_name_the_key_and_the_bounds() {
        let e = BLUR.check(-1.0).unwrap_err();
        assert!(e.contains("blur") && e.contains("0 to 8"), "{e}");
        assert!(JPEG.check(0.0).unwrap_err().contains("1 to 100"));
        assert_eq!(JPEG.check(100.0), Ok(100.0));
    }
}
