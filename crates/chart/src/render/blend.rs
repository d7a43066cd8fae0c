//! Source-over blending onto tiny-skia's pixels (premultiplied RGBA8), for
//! what the rasteriser paints itself ([`super::glyphs`], [`super::hairline`]).

/// Paints straight colour `rgb` at alpha `a` (0–1) over the premultiplied
/// RGBA pixel `px`.
#[inline]
pub fn src_over(px: &mut [u8], rgb: [u8; 3], a: f32) {
    let keep = 1.0 - a;
    for c in 0..3 {
        px[c] = (f32::from(rgb[c]) * a + f32::from(px[c]) * keep + 0.5) as u8;
    }
    px[3] = (255.0 * a + f32::from(px[3]) * keep + 0.5) as u8;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blends_over_opaque_and_transparent() {
        let mut white = [255, 255, 255, 255];
        src_over(&mut white, [0, 0, 0], 0.25);
        assert_eq!(white, [191, 191, 191, 255]);
        let mut clear = [0, 0, 0, 0];
        src_over(&mut clear, [200, 100, 0], 0.5);
        assert_eq!(clear, [100, 50, 0, 128]);
    }
}
