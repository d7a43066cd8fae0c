//! The banded, culled, parallel PNG path: same bytes with 1 or 2 threads,
//! and the same picture as resvg drawing the whole tree at once (so no node
//! is lost by culling and no seam shows between bands).

use std::sync::Arc;

use flowbench_chart::render::pipeline::Renderer;
use flowbench_chart::render::{Style, png};
use flowbench_chart::text::Fonts;

/// A chart whose PNG at `SCALE` is above the parallel threshold (2 Mpx).
fn big_chart() -> String {
    let mut s = String::from("flowchart TD\n");
    for i in 0..24 {
        s.push_str(&format!("  n{i}[\"Step {i} **bold** *italic*\"] --> n{}{{Check {i}?}}\n", i + 1));
        s.push_str(&format!("  n{i} -->|side {i}| s{i}([Side {i}])\n"));
    }
    s
}

const SCALE: f32 = 1.5;

/// Width, height, whether RGB (not RGBA), pixel bytes.
fn decode(bytes: &[u8]) -> (u32, u32, bool, Vec<u8>) {
    let dec = ::png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = dec.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png data");
    buf.truncate(info.buffer_size());
    (info.width, info.height, info.color_type == ::png::ColorType::Rgb, buf)
}

#[test]
fn large_png_identical_for_1_and_2_threads_and_matches_whole_render() {
    let chart = flowbench_chart::mermaid::parse(&big_chart()).expect("parse");
    let r = Renderer::default();
    let out = r.svg(&chart, &Style::default()).expect("svg");
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
        pool.install(|| r.png(&out.svg, SCALE).expect("png"))
    };
    let one = run(1);
    assert!(one == run(2), "1 vs 2 threads differ");
    let (w, h, rgb, pixels) = decode(&one);
    assert!(u64::from(w) * u64::from(h) >= 2_000_000, "{w}×{h} too small to take the parallel path");
    assert!(rgb, "opaque page should encode as RGB");

    let pm = whole_render(&out.svg, SCALE, w, h);
    // Drawing node by node shifts sub-pixel positions by float rounding, so
    // anti-aliased edges may differ by a coverage step or two; a lost or
    // clipped node would differ by far more, over many pixels.
    let (small, large) = differing(&pixels, 3, pm.data(), 4);
    let total = (w * h) as usize;
    eprintln!("banded vs whole render: {small} of {total} px differ by more than 8, {large} by more than 64");
    // Seams at band edges (strokes clipped there leave a tick) pushed this
    // to 400; drawing each band with margin rows brought it to 164 with
    // 1,048-row bands. With 262-row bands it is 759, all on glyph edges
    // in label rows (each band shifts the text by a different float
    // translation, and tiny-skia samples four sub-rows per pixel row).
    assert!(small * 5_000 < total, "{small} of {total} pixels differ by more than 8");
    assert!(large * 100_000 < total, "{large} of {total} pixels differ by more than 64");
}

/// Reference: resvg draws the whole tree into one pixmap, on white, with
/// its own text layout and hairlines (RGBA).
fn whole_render(svg: &str, scale: f32, w: u32, h: u32) -> resvg::tiny_skia::Pixmap {
    let db = Arc::new(png::font_database(&Fonts::embedded().face_data()));
    let opt = usvg::Options { fontdb: Arc::clone(&db), font_family: png::primary_family(&db), ..Default::default() };
    let tree = usvg::Tree::from_str(svg, &opt).expect("usvg");
    let mut pm = resvg::tiny_skia::Pixmap::new(w, h).expect("pixmap");
    pm.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(&tree, resvg::tiny_skia::Transform::from_scale(scale, scale), &mut pm.as_mut());
    pm
}

/// Pixels of `a` and `b` (`a_px` and `b_px` bytes a pixel, colour first)
/// whose colour differs by more than 8 and by more than 64.
fn differing(a: &[u8], a_px: usize, b: &[u8], b_px: usize) -> (usize, usize) {
    let (mut small, mut large) = (0, 0);
    for (p, q) in a.chunks_exact(a_px).zip(b.chunks_exact(b_px)) {
        let d = (0..3).map(|k| p[k].abs_diff(q[k])).max().unwrap_or(0);
        small += usize::from(d > 8);
        large += usize::from(d > 64);
    }
    (small, large)
}

#[test]
fn labels_as_outlines_draw_the_same_picture_as_text() {
    // Regular, bold, italic and a user text colour (outlined) plus a user
    // font size (left as <text>).
    let src = format!("{}  classDef big font-size:20px\n  class n3 big\n  style n5 color:#c00\n", big_chart());
    let chart = flowbench_chart::mermaid::parse(&src).expect("parse");
    let r = Renderer::default();
    let text = r.svg(&chart, &Style::default()).expect("svg");
    let outlined = r.svg_for_png(&chart, &Style::default()).expect("svg");
    assert!(outlined.svg.matches("<text").count() < text.svg.matches("<text").count());
    assert!(outlined.svg.contains("<text"), "the label with a user font size stays text");
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
        pool.install(|| r.png_of(&outlined, 1.0).expect("png"))
    };
    let one = run(1);
    assert!(one == run(2), "1 vs 2 threads differ");
    let (w, h, _, ours) = decode(&one);
    assert!(u64::from(w) * u64::from(h) >= 2_000_000, "{w}×{h} too small to take the parallel path");
    // Against resvg drawing the `<text>` SVG whole, with its own text
    // layout and hairlines.
    let (small, large) = differing(&ours, 3, whole_render(&text.svg, 1.0, w, h).data(), 4);
    let total = (w * h) as usize;
    eprintln!(
        "PNG vs resvg's whole render of the text SVG: {small} of {total} px differ by more than 8, {large} by more than 64"
    );
    // The rasteriser fills glyphs with exact-area coverage where resvg
    // samples four sub-rows per pixel row, so glyph edges differ by a
    // step; its hairlines are Wu lines as tiny-skia's are (0.55 % of
    // pixels differ by more than 8 levels, 2 of 2.9 M by more than 64). A
    // missing or misplaced glyph or edge would differ by far more.
    assert!(small * 100 < total && large * 20_000 < total, "{small} / {large} of {total}");
}
