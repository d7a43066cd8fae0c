//! Renderings as an experimental axis (issue 27): every new look, damage
//! and `scan` preset draws the Code-Vision-style anchors and bank charts to
//! the same bytes on two runs and at 1 and 2 threads; bad damage keys are
//! errors naming the key, the range and the file.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every look, the three presets and the damage keys they leave out.
const SWEEP: &str = r#"
[[style]]
name = "handDrawn"
look = "handDrawn"
hand_drawn_seed = 7
[[style]]
name = "greyscale"
colour = "none"
[[style]]
name = "hand-grey"
look = "handDrawn"
colour = "none"
font = "Comic Neue"
[[style]]
name = "scan-light"
scan = "light"
seed = 3
[[style]]
name = "scan-medium"
scan = "medium"
seed = 3
[[style]]
name = "scan-heavy"
scan = "heavy"
seed = 3
[[style]]
name = "downscale"
downscale = 300
[[style]]
name = "orthogonal"
routing = "orthogonal"
[[style]]
name = "dpi-rotated"
downscale = "60dpi"
rotate = 2
"#;

/// Bank charts drawn besides the anchors (a spread of sizes and shapes).
const BANK: [&str; 5] = ["alternating_sum", "add_decimal_strings", "binary_search", "collatz_steps", "gcd"];

fn flowbench(args: &[&str], threads: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("flowbench runs")
}

/// The charts: the 24 anchors and some bank charts, copied into one
/// directory so a single sweep renders them all.
fn charts(into: &Path) -> Option<usize> {
    let anchors = common::shared("anchors/codevision-style")?;
    let mut n = 0;
    for e in std::fs::read_dir(&anchors).expect("anchors") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "mmd") {
            std::fs::copy(&p, into.join(p.file_name().expect("name"))).expect("copy");
            n += 1;
        }
    }
    let bank = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    for name in BANK {
        let chart = bank.join(name).join("flowchart.mmd");
        if chart.is_file() {
            std::fs::copy(&chart, into.join(format!("bank_{name}.mmd"))).expect("copy");
            n += 1;
        }
    }
    Some(n)
}

fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).expect("out dir") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "png" || x == "jpg") {
            out.insert(p.strip_prefix(dir).expect("under").to_path_buf(), std::fs::read(&p).expect("read"));
        }
    }
    out
}

#[test]
#[ignore = "heavy: every look, damage and scan preset drawn twice, at 1 and 2 threads"]
fn looks_damage_and_presets_are_byte_identical_across_runs_and_threads() {
    let tmp = tempfile::tempdir().expect("tmp");
    let input = tmp.path().join("charts");
    std::fs::create_dir(&input).expect("dir");
    let Some(n) = charts(&input) else { return };
    assert!(n >= 24, "anchors and bank charts: {n}");
    let sweep = tmp.path().join("sweep.toml");
    std::fs::write(&sweep, SWEEP).expect("sweep");
    let mut runs = Vec::new();
    for (run, threads) in [("a", "1"), ("b", "2")] {
        let out = tmp.path().join(run);
        let o = flowbench(
            &[
                "render",
                input.to_str().unwrap(),
                "--sweep",
                sweep.to_str().unwrap(),
                "-O",
                out.to_str().unwrap(),
                "-j",
                threads,
            ],
            threads,
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        runs.push(files(&out));
    }
    assert_eq!(runs[0].len(), n * 9, "every chart in every style");
    // A scan is written as its JPEG, every other style as PNG.
    for (name, bytes) in &runs[0] {
        let scan = name.to_string_lossy().contains(".scan-");
        assert_eq!(name.extension().is_some_and(|x| x == "jpg"), scan, "{}", name.display());
        let magic: &[u8] = if scan { &[0xFF, 0xD8, 0xFF] } else { b"\x89PNG" };
        assert!(bytes.starts_with(magic), "{}: not the file its name says", name.display());
    }
    for other in &runs[1..] {
        assert_eq!(runs[0].keys().collect::<Vec<_>>(), other.keys().collect::<Vec<_>>());
        for (name, bytes) in &runs[0] {
            assert!(other[name] == *bytes, "{} differs between runs or thread counts", name.display());
        }
    }
    // The looks and damage do change the picture: no style equals another.
    let chart = runs[0].keys().next().expect("a file").to_string_lossy().split('.').next().expect("stem").to_string();
    let of_chart: Vec<&Vec<u8>> =
        runs[0].iter().filter(|(k, _)| k.to_string_lossy().starts_with(&format!("{chart}."))).map(|(_, v)| v).collect();
    for (i, a) in of_chart.iter().enumerate() {
        assert!(of_chart[i + 1..].iter().all(|b| b != a), "{chart}: two styles drew the same bytes");
    }
}

#[test]
fn bad_looks_and_strengths_name_the_key_the_range_and_the_file() {
    let tmp = tempfile::tempdir().expect("tmp");
    let chart = tmp.path().join("c.mmd");
    std::fs::write(&chart, "flowchart TD\n  A[Start] --> B[End]\n").expect("chart");
    let cases = [
        ("blur = -1", &["blur", "-1", "0 to 8"][..]),
        ("jpeg = 0", &["jpeg", "0", "1 to 100"][..]),
        ("rotate = 90", &["rotate", "-15 to 15"][..]),
        ("look = \"sketchy\"", &["look", "sketchy", "handDrawn"][..]),
        ("scan = \"extreme\"", &["scan", "extreme", "light, medium, heavy"][..]),
        ("smudge = 2", &["smudge"][..]),
        ("routing = \"curvy\"", &["routing", "curvy", "orthogonal"][..]),
        ("downscale = \"5dpi\"", &["downscale", "10 to 2400", "dots per inch"][..]),
        ("downscale = \"wide\"", &["downscale", "wide", "150dpi"][..]),
    ];
    for (text, needles) in cases {
        let style = tmp.path().join("bad-style.toml");
        std::fs::write(&style, text).expect("style");
        let out = tmp.path().join("c.png");
        let o = flowbench(
            &["render", chart.to_str().unwrap(), "--style", style.to_str().unwrap(), "-o", out.to_str().unwrap()],
            "1",
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{text}: accepted");
        assert!(err.contains("bad-style.toml"), "{text}: the file is named: {err}");
        for n in needles {
            assert!(err.contains(n), "{text}: `{n}` missing from: {err}");
        }
        assert_eq!(err.matches("error:").count(), 1, "{text}: printed once: {err}");
        assert!(!out.exists(), "{text}: no image written");
    }
}

#[test]
fn jpg_outputs_are_jpeg_files_damaged_once_and_deterministic() {
    let tmp = tempfile::tempdir().expect("tmp");
    let chart = tmp.path().join("c.mmd");
    std::fs::write(
        &chart,
        "flowchart TD\n  A([Start]) --> B{x > 0?}\n  B -- Yes --> C[y = x]\n  B -- No --> D[y = 0]\n",
    )
    .expect("chart");
    let style = tmp.path().join("photo.toml");
    std::fs::write(&style, "scan = \"medium\"\nseed = 2\ndownscale = \"72dpi\"\n").expect("style");
    let render = |out: &Path| {
        let o = flowbench(
            &["render", chart.to_str().unwrap(), "--style", style.to_str().unwrap(), "-o", out.to_str().unwrap()],
            "2",
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read(out).expect("written")
    };
    let (a, b) = (render(&tmp.path().join("a.jpg")), render(&tmp.path().join("b.jpg")));
    assert_eq!(a, b, "same style, same bytes");
    assert_eq!(&a[..3], &[0xFF, 0xD8, 0xFF], "a JPEG file");
    let png = render(&tmp.path().join("c.png"));
    assert_eq!(&png[1..4], b"PNG");
    // 72 dpi of a chart printed at 96 px an inch: three quarters of the
    // undamaged width (rotation grows the canvas a little).
    let plain = tmp.path().join("plain.png");
    let o = flowbench(&["render", chart.to_str().unwrap(), "-o", plain.to_str().unwrap()], "1");
    assert!(o.status.success());
    let width = |bytes: &[u8]| u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let (full, small) = (width(&std::fs::read(&plain).unwrap()), width(&png));
    assert!(small < full * 3 / 4 + 20 && small > full * 3 / 4 - 5, "{small} of {full}");
}

/// `routing = "orthogonal"` on the 24 anchors and every bank chart, top to
/// bottom and left to right: no drawn edge through a node, no label crossed
/// by another edge (the defects `build` refuses; a loop's forward and back
/// edge between one pair of nodes once crossed each other's label), no flat
/// or grazing arrowhead, every label on its edge (right angles only:
/// `layout::orthogonal`'s unit tests).
#[test]
fn orthogonal_routing_draws_no_edge_through_a_node_on_anchors_and_bank() {
    let tmp = tempfile::tempdir().expect("tmp");
    let input = tmp.path().join("charts");
    std::fs::create_dir(&input).expect("dir");
    if charts(&input).is_none() {
        return;
    }
    let bank = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    for direction in ["TB", "LR"] {
        let args = [
            "render",
            input.to_str().unwrap(),
            bank.to_str().unwrap(),
            "--routing",
            "orthogonal",
            "--direction",
            direction,
            "--metrics",
        ];
        let o = flowbench(&args, "2");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let lines: Vec<serde_json::Value> =
            String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).expect("json")).collect();
        assert!(lines.len() >= 24 + 60, "{direction}: {} charts", lines.len());
        for m in &lines {
            for key in [
                "edges_through_nodes",
                "labels_crossed",
                "flat_heads",
                "shallow_heads",
                "labels_off_edge",
                "label_overlaps",
            ] {
                assert_eq!(m[key], 0, "{direction} {}: {key}", m["file"]);
            }
        }
    }
}
