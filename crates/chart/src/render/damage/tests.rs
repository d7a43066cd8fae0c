use super::*;
use image::{ImageFormat, Rgb};
use std::io::Cursor;

const WHITE: Rgb<u8> = Rgb([255, 255, 255]);

fn chart_like() -> RgbImage {
    let mut img = RgbImage::from_pixel(120, 80, WHITE);
    for x in 20..100 {
        for y in [20, 21, 60, 61] {
            img.put_pixel(x, y, Rgb([40, 40, 40]));
        }
    }
    for y in 20..62 {
        img.put_pixel(20, y, Rgb([147, 112, 219]));
    }
    img
}

fn png(img: &RgbImage) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, ImageFormat::Png).expect("png");
    out.into_inner()
}

fn decode(png: &[u8]) -> RgbImage {
    image::load_from_memory(png).expect("decode").to_rgb8()
}

#[test]
fn no_damage_keeps_the_bytes() {
    let png = png(&chart_like());
    assert_eq!(Damage::default().apply_to_png(&png).expect("apply"), png);
}

#[test]
fn every_preset_is_deterministic_and_changes_the_picture() {
    let img = chart_like();
    for name in SCANS {
        let d = Damage { seed: 5, ..Damage::scan(name).expect("preset") };
        let a = d.apply(img.clone()).expect("apply");
        assert_eq!(a, d.apply(img.clone()).expect("apply"), "{name}");
        assert_ne!(a, img, "{name}");
        let other = Damage { seed: 6, ..d.clone() }.apply(img.clone()).expect("apply");
        assert_ne!(a, other, "{name}: the seed moves the noise");
    }
}

#[test]
fn rotate_grows_the_canvas_and_downscale_caps_the_width() {
    let png = png(&chart_like());
    let r = decode(&Damage { rotate: 10.0, ..Damage::default() }.apply_to_png(&png).expect("apply"));
    assert!(r.width() > 120 && r.height() > 80, "{}×{}", r.width(), r.height());
    assert_eq!(r.get_pixel(0, 0), &WHITE, "white fill");
    let d = decode(&Damage { downscale: Some(60), ..Damage::default() }.apply_to_png(&png).expect("apply"));
    assert_eq!((d.width(), d.height()), (60, 40));
    let r = decode(&Damage { downscale: Some(60), rotate: 10.0, ..Damage::default() }.apply_to_png(&png).unwrap());
    assert_eq!(r.width(), 60, "what the rotation grows is scaled down too");
}

#[test]
fn draw_scale_follows_the_width_and_the_dpi() {
    let d = Damage { downscale: Some(512), ..Damage::default() };
    assert_eq!(d.draw_scale(400.0, 1.0), 1.0);
    let s = d.draw_scale(1024.0, 1.0);
    assert_eq!((1024.0 * s).ceil(), 512.0);
    let d = Damage { downscale_dpi: Some(72), ..Damage::default() };
    assert_eq!(d.draw_scale(1000.0, 1.0), 0.75);
    assert_eq!(d.draw_scale(1000.0, 0.5), 0.5, "never scaled up");
}

#[test]
fn greyscale_has_no_colour() {
    let mut img = chart_like();
    grain::greyscale(&mut img);
    assert!(img.pixels().all(|p| p[0] == p[1] && p[1] == p[2]));
    assert_eq!(img.get_pixel(0, 0), &WHITE);
}

#[test]
fn jpeg_files_decode_to_the_picture() {
    let img = chart_like();
    let jpg = encode_jpeg(&img, 90).expect("jpeg");
    assert_eq!(&jpg[..2], &[0xFF, 0xD8]);
    let back = image::load_from_memory(&jpg).expect("decodes").to_rgb8();
    assert_eq!(back.dimensions(), img.dimensions());
    assert!(back.get_pixel(50, 20)[0] < 100 && back.get_pixel(50, 40)[0] > 200);
}

#[test]
fn ranges_name_the_key_and_the_bounds() {
    let e = BLUR.check(-1.0).unwrap_err();
    assert_eq!((e.key, e.value), ("blur", -1.0));
    assert_eq!(e.to_string(), "blur: -1 is out of range (allowed 0 to 8, Gaussian σ in px)");
    assert!(JPEG.check(0.0).unwrap_err().to_string().contains("1 to 100"));
    assert_eq!(JPEG.check(100.0), Ok(100.0));
}
