//! The PNG container — signature, `IHDR`, one `IDAT`, `IEND` — around
//! fdeflate's zlib stream, for rows that arrive already filtered.
//!
//! Why not the `png` crate's `StreamWriter`: it copies every row into its
//! own buffer, filters it into a second one, and receives fdeflate's output
//! eight bytes per call through a chunk writer; that was a third of a small
//! chart's encoding time. The rasteriser converts and filters each band in
//! the same pass that drops its alpha (see `raster.rs`), and fdeflate writes
//! straight into the file's bytes.

use std::io::{self, Write};

/// Pixel layout of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    Rgb,
    Rgba,
}

/// Row filter types (PNG spec, section 9): each row starts with one.
pub const FILTER_SUB: u8 = 1;
pub const FILTER_UP: u8 = 2;

/// Longest chunk payload the format allows.
const MAX_CHUNK: usize = (1 << 31) - 1;

/// A PNG being written: header done, image data streaming in.
pub struct PngFile {
    deflate: fdeflate::Compressor<Bytes>,
    /// Where the `IDAT` payload starts in the output.
    idat_start: usize,
}

/// The output so far; fdeflate appends to it eight bytes at a time, so the
/// write must stay trivial.
struct Bytes(Vec<u8>);

impl Write for Bytes {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl PngFile {
    /// Starts a `w`×`h` 8-bit image; `capacity` is a guess at the file size.
    pub fn new(w: u32, h: u32, colour: Colour, capacity: usize) -> io::Result<PngFile> {
        let mut out = Vec::with_capacity(capacity.max(64));
        out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
        let colour_type = match colour {
            Colour::Rgb => 2,
            Colour::Rgba => 6,
        };
        let mut ihdr = Vec::with_capacity(13);
        ihdr.extend_from_slice(&w.to_be_bytes());
        ihdr.extend_from_slice(&h.to_be_bytes());
        // Bit depth 8, colour type, deflate, adaptive filtering, no interlace.
        ihdr.extend_from_slice(&[8, colour_type, 0, 0, 0]);
        chunk(&mut out, b"IHDR", &ihdr);
        // The IDAT header; its length is filled in by `finish`.
        out.extend_from_slice(&[0, 0, 0, 0]);
        out.extend_from_slice(b"IDAT");
        let idat_start = out.len();
        Ok(PngFile { deflate: fdeflate::Compressor::new(Bytes(out))?, idat_start })
    }

    /// Appends whole rows, each its filter byte then its filtered pixels.
    pub fn write_rows(&mut self, filtered: &[u8]) -> io::Result<()> {
        self.deflate.write_data(filtered)
    }

    /// Ends the image data and the file.
    pub fn finish(self) -> io::Result<Vec<u8>> {
        let Bytes(mut out) = self.deflate.finish()?;
        let data_len = out.len() - self.idat_start;
        if data_len <= MAX_CHUNK {
            out[self.idat_start - 8..self.idat_start - 4].copy_from_slice(&(data_len as u32).to_be_bytes());
            let crc = crc(b"IDAT", &out[self.idat_start..]);
            out.extend_from_slice(&crc.to_be_bytes());
        } else {
            // More than 2 GB of image data: split it over several IDATs.
            let data = out.split_off(self.idat_start);
            out.truncate(self.idat_start - 8);
            for part in data.chunks(MAX_CHUNK) {
                chunk(&mut out, b"IDAT", part);
            }
        }
        chunk(&mut out, b"IEND", &[]);
        Ok(out)
    }
}

/// Appends one chunk: length, type, data, CRC of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&crc(kind, data).to_be_bytes());
}

fn crc(kind: &[u8; 4], data: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(kind);
    h.update(data);
    h.finalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_png_crate_decodes_what_we_write() {
        // 3×2 RGB: a Sub row and an Up row.
        let pixels = [[10u8, 20, 30, 40, 50, 60, 70, 80, 90], [11, 21, 31, 41, 51, 61, 255, 0, 7]];
        let mut rows = vec![FILTER_SUB];
        rows.extend(
            pixels[0].iter().enumerate().map(|(i, &v)| if i < 3 { v } else { v.wrapping_sub(pixels[0][i - 3]) }),
        );
        rows.push(FILTER_UP);
        rows.extend(pixels[1].iter().zip(pixels[0]).map(|(&v, u)| v.wrapping_sub(u)));
        let mut f = PngFile::new(3, 2, Colour::Rgb, 0).expect("header");
        f.write_rows(&rows).expect("rows");
        let bytes = f.finish().expect("finish");

        let mut reader = png::Decoder::new(io::Cursor::new(&bytes)).read_info().expect("png header");
        let mut buf = vec![0; reader.output_buffer_size().expect("size")];
        let info = reader.next_frame(&mut buf).expect("png data");
        assert_eq!((info.width, info.height, info.color_type), (3, 2, png::ColorType::Rgb));
        assert_eq!(&buf[..18], pixels.concat().as_slice());
        assert!(bytes.ends_with(&[0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xAE, 0x42, 0x60, 0x82]));
    }
}
