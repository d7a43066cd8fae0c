//! Damage done to a finished raster, as a phone photo or a photocopy of a
//! printed chart would do it: `blur`, `rotate`, `perspective`, `noise`,
//! `jpeg`, `downscale`, `paper`, the greyscale of `colour = "none"`, and
//! the `scan` presets combining them.
//!
//! # How it works
//!
//! The chart is rasterised to RGB pixels (never encoded and decoded
//! again), then each step runs in a fixed order: greyscale → rotate and
//! perspective (one projective warp: the canvas grown so no corner is cut,
//! white fill, corners pulled inward by a seeded amount) → blur → paper
//! (tint, vignette) and noise (seeded grain) in one pass → downscale →
//! JPEG round trip; then the one PNG (or JPEG) encoding. A damage with a
//! `jpeg` step is written as that step's JPEG file ([`Damage::format`]),
//! not decoded and encoded again as PNG.
//!
//! `downscale` is done by drawing at the lower scale (what an area filter
//! over the full-size raster approximates, for nothing); only what a
//! rotation grows past the width is resampled (`image`'s resize). The JPEG
//! encoder is `rusty_jpeg`'s: `jpeg-encoder` carried forward with AVX2
//! quantisation and Huffman writing, 1.75× faster than `jpeg-encoder` on a
//! scan (which was four times faster than `image`'s), the same size and
//! PSNR at each quality; the decoder of the round trip is `image`'s.
//!
//! Why the warp and the blur are written here: a chart is mostly white
//! page, and both skip every block of it that stays white ([`mask`]);
//! imageproc's warp cost 70 ns a pixel, two thirds of the 20 ms budget on a
//! 1.5 Mpx chart; the blur's measured comparison with `image`'s and
//! imageproc's is in `blur`'s docs. Both are integer arithmetic,
//! so the bytes are the same on every machine. The only randomness is
//! `seed`'s and no step depends on the thread count, so the bytes are the
//! same on every run.

mod blur;
mod codec;
mod grain;
mod mask;
mod simd;
mod warp;

use image::RgbImage;
use serde::{Deserialize, Serialize};

pub use codec::{RasterFormat, encode_jpeg, encode_png};

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
    /// Resolution of a scan of the chart printed at its CSS size (96 px
    /// an inch); charts drawn finer are scaled down to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub downscale_dpi: Option<u32>,
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
pub const DOWNSCALE_DPI: Range = Range { key: "downscale", min: 10.0, max: 2400.0, unit: "dots per inch" };
pub const PAPER: Range = Range { key: "paper", min: 0.0, max: 1.0, unit: "strength" };

/// CSS pixels per inch: a chart printed at its natural size.
const CSS_DPI: f32 = 96.0;

/// A damage key's value outside its [`Range`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{key}: {value} is out of range (allowed {min} to {max}, {unit})")]
pub struct OutOfRange {
    pub key: &'static str,
    pub value: f64,
    pub min: f64,
    pub max: f64,
    pub unit: &'static str,
}

/// Why damaging a raster, or encoding it, failed.
#[derive(Debug, thiserror::Error)]
pub enum DamageError {
    /// JPEG's sides are 16-bit.
    #[error("a {w}×{h} px image is larger than JPEG allows (65535 px a side)")]
    TooLargeForJpeg { w: u32, h: u32 },
    #[error("JPEG encoding failed: {0}")]
    JpegEncoding(rusty_jpeg::EncodingError),
    /// Our own JPEG did not decode (the round trip's second half).
    #[error("JPEG decoding failed: {0}")]
    JpegDecoding(image::ImageError),
    /// The PNG given to [`Damage::apply_to_png`] does not decode.
    #[error("{0}")]
    PngDecoding(image::ImageError),
    #[error("{0}")]
    PngEncoding(std::io::Error),
}

impl Range {
    /// `v` if it lies in the range, else an error naming the key and range.
    pub fn check(&self, v: f64) -> Result<f64, OutOfRange> {
        if v.is_finite() && v >= self.min && v <= self.max {
            Ok(v)
        } else {
            Err(OutOfRange { key: self.key, value: v, min: self.min, max: self.max, unit: self.unit })
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

    /// The format a chart with this damage is written as: JPEG when its
    /// last step is the JPEG round trip (that step's bytes are the file),
    /// else PNG.
    pub fn format(&self) -> RasterFormat {
        match self.jpeg {
            Some(_) => RasterFormat::Jpeg,
            None => RasterFormat::Png,
        }
    }

    /// The scale to draw a chart `width` user units wide at, asked for at
    /// `scale`: lower when `downscale` caps its width or resolution.
    pub fn draw_scale(&self, width: f32, scale: f32) -> f32 {
        let mut s = scale;
        if let Some(max) = self.downscale
            && width * s > max as f32
        {
            // Just under, so the rounded-up pixel width is `max`.
            s = (max as f32 - 0.01) / width;
        }
        if let Some(dpi) = self.downscale_dpi {
            s = s.min(dpi as f32 / CSS_DPI);
        }
        s
    }

    /// `img` (drawn at [`Damage::draw_scale`]) with this damage done.
    pub fn apply(&self, mut img: RgbImage) -> Result<RgbImage, DamageError> {
        if self.greyscale {
            grain::greyscale(&mut img);
        }
        let mut flat = None;
        if self.rotate != 0.0 || self.perspective > 0.0 {
            let (warped, mask) = warp::warp(&img, self.rotate, self.perspective, self.seed);
            (img, flat) = (warped, Some(mask));
        }
        if self.blur > 0.0 {
            blur::gaussian(&mut img, self.blur, flat);
        }
        if self.paper > 0.0 || self.noise > 0.0 {
            grain::paper_and_noise(&mut img, self.paper, self.noise, self.seed);
        }
        if let Some(max) = self.downscale.filter(|&m| img.width() > m) {
            // What a rotation grew past the width drawn for.
            let h = (u64::from(img.height()) * u64::from(max) / u64::from(img.width())).max(1) as u32;
            img = image::imageops::resize(&img, max, h, image::imageops::FilterType::Triangle);
        }
        if let Some(q) = self.jpeg {
            img = codec::jpeg_round_trip(&img, q)?;
        }
        Ok(img)
    }

    /// A PNG's pixels with this damage done, as PNG bytes (for images not
    /// drawn here; `downscale` resamples them).
    pub fn apply_to_png(&self, png: &[u8]) -> Result<Vec<u8>, DamageError> {
        if self.is_none() {
            return Ok(png.to_vec());
        }
        let img =
            image::load_from_memory_with_format(png, image::ImageFormat::Png).map_err(DamageError::PngDecoding)?;
        let mut img = img.into_rgb8();
        let s = self.draw_scale(img.width() as f32, 1.0);
        if s < 1.0 {
            let (w, h) = (((img.width() as f32) * s).ceil() as u32, ((img.height() as f32) * s).ceil() as u32);
            img = image::imageops::resize(&img, w.max(1), h.max(1), image::imageops::FilterType::Triangle);
        }
        encode_png(&self.apply(img)?).map_err(DamageError::PngEncoding)
    }
}

#[cfg(test)]
mod tests;
