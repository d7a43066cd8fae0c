//! The dark theme draws on its own dark page (mermaid's `#333`), so its
//! light edges, arrowheads and text stand out (issue 24: they were drawn on
//! white, where the light grey edges were faint); `--background` and a style
//! file's `background` still choose the page.

use std::path::Path;
use std::process::Command;

fn flowbench(args: &[&str], cwd: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).current_dir(cwd).output().expect("runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// RGB pixels of a PNG (RGB or RGBA, 8 bits), with its width.
fn pixels(path: &Path) -> (usize, Vec<[u8; 3]>) {
    let dec = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).expect("png")));
    let mut reader = dec.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png data");
    let step = match info.color_type {
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        other => panic!("colour type {other:?}"),
    };
    let px = buf[..info.buffer_size()].chunks_exact(step).map(|c| [c[0], c[1], c[2]]).collect();
    (info.width as usize, px)
}

/// WCAG relative luminance.
fn luminance([r, g, b]: [u8; 3]) -> f64 {
    let lin = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

/// WCAG contrast ratio (1 to 21).
fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// The first edge of the SVG: a straight vertical `M x,y0 L x,y1` path.
fn vertical_edge(svg: &str) -> (f64, f64, f64) {
    let doc = roxmltree::Document::parse(svg).expect("svg");
    let edges = doc.descendants().find(|n| n.attribute("class") == Some("edges")).expect("edges group");
    let d = edges.descendants().find_map(|n| n.attribute("d")).expect("an edge path");
    let nums: Vec<f64> = d.split(['M', 'L', ',']).filter(|s| !s.is_empty()).map(|s| s.parse().expect(d)).collect();
    let [x0, y0, x1, y1] = nums[..] else { panic!("not a straight edge: {d}") };
    assert!((x0 - x1).abs() < 0.01, "not vertical: {d}");
    (x0, y0, y1)
}

#[test]
fn dark_theme_png_has_a_dark_page_and_edges_that_stand_out() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("c.mmd"), "flowchart TD\n  A[Start] --> B[Done]\n").expect("chart");
    flowbench(&["render", "c.mmd", "--theme", "dark", "-o", "c.png"], dir.path());
    flowbench(&["render", "c.mmd", "--theme", "dark", "-o", "c.svg"], dir.path());
    let svg = std::fs::read_to_string(dir.path().join("c.svg")).expect("svg");
    let (w, px) = pixels(&dir.path().join("c.png"));
    let at = |x: f64, y: f64| px[y as usize * w + x as usize];
    let page = at(1.0, 1.0);
    assert!(luminance(page) < 0.1, "the page is dark: {page:?}");
    assert_eq!(px[px.len() - 1], page, "the whole page");
    let (x, y0, y1) = vertical_edge(&svg);
    // The brightest pixel across the 1 px line, half-way down, and the
    // arrowhead's middle (its tip ends at y1 + 4, it is 8 px long).
    let across =
        |y: f64| (-2..=2).map(|dx| at(x + f64::from(dx), y)).max_by(|a, b| luminance(*a).total_cmp(&luminance(*b)));
    let line = across((y0 + y1) / 2.0).expect("pixels");
    let head = across(y1).expect("pixels");
    // WCAG's minimum for graphics is 3:1; the anti-aliased 1 px line
    // covers no pixel fully, the arrowhead does.
    assert!(contrast(line, page) >= 3.0, "edge {line:?} on page {page:?}: contrast {:.2}", contrast(line, page));
    assert!(contrast(head, page) >= 7.0, "arrowhead {head:?} on page {page:?}: contrast {:.2}", contrast(head, page));
    // Label text: some pixels inside node A are as light as the edges.
    let text = px.iter().filter(|p| contrast(**p, page) >= 4.5).count();
    assert!(text > 100, "light ink: {text} pixels");
}

#[test]
fn an_explicit_background_wins_over_the_dark_theme_page() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("c.mmd"), "flowchart TD\n  A --> B\n").expect("chart");
    std::fs::write(dir.path().join("light.toml"), "background = \"#fafafa\"\n").expect("style");
    std::fs::write(dir.path().join("dark.toml"), "theme = \"dark\"\n").expect("style");
    let page = |args: &[&str]| {
        let mut all = vec!["render", "c.mmd", "-o", "p.png"];
        all.extend_from_slice(args);
        flowbench(&all, dir.path());
        pixels(&dir.path().join("p.png")).1[0]
    };
    assert_eq!(page(&["--theme", "dark"]), [0x33; 3]);
    assert_eq!(page(&["--style", "dark.toml"]), [0x33; 3]);
    assert_eq!(page(&[]), [255; 3], "the default theme stays on white");
    assert_eq!(page(&["--theme", "dark", "--background", "white"]), [255; 3]);
    assert_eq!(page(&["--style", "light.toml", "--theme", "dark"]), [0xfa; 3], "the style file's page");
    assert_eq!(page(&["--style", "dark.toml", "--background", "#fafafa"]), [0xfa; 3]);
}
