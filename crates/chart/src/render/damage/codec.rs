//! The encodings of a damaged raster: PNG (through the same fdeflate
//! writer as the undamaged PNGs), JPEG, and the JPEG round trip that keeps
//! a photo's compression artefacts in a PNG; and which of the two files a
//! damage is written as ([`RasterFormat`]).

use image::RgbImage;
use rusty_jpeg::{ColorType, Encoder};

use super::DamageError;
use crate::render::png_file::{Colour, FILTER_UP, PngFile};

/// The file format of a drawn chart: PNG, or JPEG for a damage that ends
/// in the `jpeg` step. A scan or a phone photo *is* a JPEG: writing the
/// step's own bytes keeps every artefact, skips decoding them and encoding
/// the grainy pixels again as PNG (which cost more than all the other
/// steps together), and the file is a tenth of the PNG's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RasterFormat {
    Png,
    Jpeg,
}

impl RasterFormat {
    /// The file name extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            RasterFormat::Png => "png",
            RasterFormat::Jpeg => "jpg",
        }
    }

    /// The media type, for `data:` URLs.
    pub fn mime(self) -> &'static str {
        match self {
            RasterFormat::Png => "image/png",
            RasterFormat::Jpeg => "image/jpeg",
        }
    }

    /// The format of a file named `path`, by its extension (PNG unless it
    /// says JPEG).
    pub fn of_path(path: &str) -> RasterFormat {
        let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        match ext.as_deref() {
            Some("jpg" | "jpeg") => RasterFormat::Jpeg,
            _ => RasterFormat::Png,
        }
    }
}

/// The image as PNG, each row `Up`-filtered (`image`'s encoder took 20 ms
/// a chart), filtered and compressed a few rows at a time so the rows stay
/// in cache between the two.
pub fn encode_png(img: &RgbImage) -> std::io::Result<Vec<u8>> {
    const ROWS: usize = 32;
    let (w, h) = img.dimensions();
    let row = w as usize * 3;
    let mut file = PngFile::new(w, h, Colour::Rgb, row * h as usize / 8)?;
    let mut filtered = Vec::with_capacity((row + 1) * ROWS);
    let raw = img.as_raw();
    for y0 in (0..h as usize).step_by(ROWS) {
        filtered.clear();
        for y in y0..(y0 + ROWS).min(h as usize) {
            let this = &raw[y * row..][..row];
            filtered.push(FILTER_UP);
            match y {
                // Up over the first row: the row above counts as zeros.
                0 => filtered.extend_from_slice(this),
                _ => filtered.extend(this.iter().zip(&raw[(y - 1) * row..][..row]).map(|(a, b)| a.wrapping_sub(*b))),
            }
        }
        file.write_rows(&filtered)?;
    }
    file.finish()
}

/// The image as a JPEG file of `quality` (1–100; 4:2:0 chroma below 90,
/// as a camera writes it).
pub fn encode_jpeg(img: &RgbImage, quality: u8) -> Result<Vec<u8>, DamageError> {
    let (w, h) = img.dimensions();
    let (Ok(jw), Ok(jh)) = (u16::try_from(w), u16::try_from(h)) else {
        return Err(DamageError::TooLargeForJpeg { w, h });
    };
    let mut bytes = Vec::with_capacity(img.as_raw().len() / 8);
    Encoder::new(&mut bytes, quality.clamp(1, 100))
        .encode(img.as_raw(), jw, jh, ColorType::Rgb)
        .map_err(DamageError::JpegEncoding)?;
    Ok(bytes)
}

/// Through the JPEG codec at `quality` and back, keeping its artefacts.
pub fn jpeg_round_trip(img: &RgbImage, quality: u8) -> Result<RgbImage, DamageError> {
    let bytes = encode_jpeg(img, quality)?;
    let decoded =
        image::load_from_memory_with_format(&bytes, image::ImageFormat::Jpeg).map_err(DamageError::JpegDecoding)?;
    Ok(decoded.into_rgb8())
}
