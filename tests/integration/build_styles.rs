//! `build`'s image styles on disk (issue 24): a rebuild in another style
//! leaves no empty directory behind, and style names from a sweep become
//! short, path-safe directory names while the manifest keeps the names and
//! settings and the gallery offers the styles by name.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// A bank of one problem (a copy of the embedded `gcd`).
fn gcd_bank() -> tempfile::TempDir {
    let bank = tempfile::tempdir().unwrap();
    let dir = bank.path().join("gcd");
    std::fs::create_dir(&dir).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/gcd");
    for f in ["flowchart.mmd", "solution.py", "problem.json", "problem.toml", "description.md", "tests.jsonl"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    bank
}

fn build(bank: &Path, dist: &Path, args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .arg("build")
        .arg("--problems")
        .arg(bank)
        .arg("-o")
        .arg(dist)
        .args(args)
        .output()
        .expect("flowbench runs");
    assert!(out.status.success(), "build {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_str(&std::fs::read_to_string(dist.join("manifest.json")).unwrap()).unwrap()
}

/// The directories under `dir`, sorted.
fn dirs_under(dir: &Path) -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    found
}

/// `build --theme dark` after a default build used to leave an empty
/// `images/default/` (its files pruned, the directory kept).
#[test]
fn a_themed_rebuild_leaves_no_empty_style_directory() {
    let bank = gcd_bank();
    let out = tempfile::tempdir().unwrap();
    let dist = out.path().join("dist");
    build(bank.path(), &dist, &[]);
    assert_eq!(dirs_under(&dist.join("images")), ["default"]);
    let manifest = build(bank.path(), &dist, &["--theme", "dark"]);
    assert_eq!(dirs_under(&dist.join("images")), ["dark"], "only the built style's directory");
    assert!(dist.join("images/dark/gcd.png").is_file());
    assert_eq!(manifest["styles"], serde_json::json!(["dark"]));
}

/// Sweep names such as `curve=basis,theme=dark` become short, path-safe
/// directory names (a readable slug and a hash); the manifest records each
/// style's name and settings, and the gallery shows the names.
#[test]
fn sweep_style_ids_are_path_safe_and_the_manifest_keeps_the_names() {
    let bank = gcd_bank();
    let out = tempfile::tempdir().unwrap();
    let dist = out.path().join("dist");
    let sweep = out.path().join("sweep.toml");
    let grid = "[grid]\ntheme = [\"dark\"]\ncurve = [\"basis\", \"linear\"]\nnode_spacing = [80]\n";
    std::fs::write(&sweep, grid).unwrap();
    let manifest = build(bank.path(), &dist, &["--styles", sweep.to_str().unwrap()]);
    let styles = manifest["options"]["styles"].as_array().expect("styles");
    let names: Vec<&str> = styles.iter().map(|s| s["name"].as_str().unwrap_or("")).collect();
    assert_eq!(names, ["curve=basis,node_spacing=80,theme=dark", "curve=linear,node_spacing=80,theme=dark"]);
    assert_eq!(styles[1]["file"]["curve"], "linear");
    assert_eq!((&styles[1]["file"]["theme"], &styles[1]["file"]["node_spacing"]), (&"dark".into(), &80.0.into()));
    let ids: Vec<String> = styles.iter().map(|s| s["id"].as_str().unwrap_or("").to_string()).collect();
    assert_eq!(manifest["styles"], serde_json::json!(ids));
    let index = std::fs::read_to_string(dist.join("index.html")).unwrap();
    for (id, name) in ids.iter().zip(&names) {
        let safe = id.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
        assert!(safe && id.len() <= 48 && id.starts_with("curve-"), "a short readable slug: {id}");
        assert!(dist.join(format!("images/{id}/gcd.png")).is_file(), "{id}");
        assert!(index.contains(&format!("<option value=\"{id}\">{name}</option>")), "{index}");
    }
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(dirs_under(&dist.join("images")), sorted);
}

/// `build --robustness` (issue 27): every problem in every style of
/// `styles/robustness.toml`, the manifest listing each style's full
/// parameters (the `scan` preset expanded), the gallery offering them all,
/// and a rebuild changing nothing.
#[test]
fn the_robustness_set_renders_every_style_and_lists_its_parameters() {
    let bank = gcd_bank();
    let out = tempfile::tempdir().unwrap();
    let dist = out.path().join("dist");
    let manifest = build(bank.path(), &dist, &["--robustness"]);
    let ids = ["default", "handDrawn", "greyscale", "LR", "orthogonal", "scan-light", "scan-heavy", "downscale-512"];
    assert_eq!(manifest["styles"], serde_json::json!(ids));
    let mut sorted = ids.map(str::to_string).to_vec();
    sorted.sort();
    assert_eq!(dirs_under(&dist.join("images")), sorted);
    // A scan is written as its JPEG (`.jpg`), the others as PNG, and the
    // record, the files and the gallery agree on which.
    let ext = |id: &str| if id.starts_with("scan-") { "jpg" } else { "png" };
    let record: serde_json::Value = std::fs::read_dir(&dist)
        .expect("dist")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .flat_map(|p| std::fs::read_to_string(p).expect("records").lines().map(str::to_string).collect::<Vec<_>>())
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(&l).ok())
        .find(|r| r["task_id"] == "gcd")
        .expect("gcd's record");
    let gallery = std::fs::read_to_string(dist.join("index.html")).unwrap();
    let mut pngs = Vec::new();
    for id in ids {
        let path = format!("images/{id}/gcd.{}", ext(id));
        assert_eq!(record["images"][id]["raster"], path.as_str(), "{id}");
        assert!(gallery.contains(&format!("\"{id}\":\"{}\"", ext(id))), "the gallery's switcher knows {id}'s file");
        let bytes = std::fs::read(dist.join(&path)).expect("an image in every style");
        let magic: &[u8] = if ext(id) == "jpg" { &[0xFF, 0xD8, 0xFF] } else { b"\x89PNG" };
        assert!(bytes.starts_with(magic), "{path}: not the file its name says");
        pngs.push(bytes);
    }
    assert_eq!(record["image"], "images/default/gcd.png");
    for (i, a) in pngs.iter().enumerate() {
        assert!(pngs[i + 1..].iter().all(|b| b != a), "{}: same bytes as another style", ids[i]);
    }
    let heavy = &manifest["style_parameters"]["scan-heavy"]["damage"];
    assert_eq!(
        (heavy["jpeg"].as_u64(), heavy["rotate"].as_f64(), heavy["seed"].as_u64()),
        (Some(45), Some(1.5), Some(1))
    );
    assert_eq!(manifest["style_parameters"]["handDrawn"]["look"], "handDrawn");
    assert_eq!(manifest["style_parameters"]["handDrawn"]["font"], "Comic Neue");
    assert_eq!(manifest["style_parameters"]["downscale-512"]["damage"]["downscale"], 512);
    for id in ids {
        assert!(gallery.contains(&format!("<option>{id}</option>")), "gallery offers {id}");
    }
    let width = |png: &[u8]| u32::from_be_bytes(png[16..20].try_into().unwrap());
    assert!(width(&pngs[7]) <= 512, "downscaled to 512 px at most");
    assert_eq!(manifest["style_parameters"]["orthogonal"]["routing"], "orthogonal");
    let again = build(bank.path(), &dist, &["--robustness"]);
    assert_eq!(again["artefacts"], manifest["artefacts"], "a rebuild keeps the same artefacts");
}
