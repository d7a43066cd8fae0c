//! Colours are checked where they are given: a value usvg would not read
//! (and would silently draw black) is an error naming the flag or the style
//! file and its field; every CSS colour form usvg draws is accepted.

use std::path::Path;
use std::process::{Command, Output};

/// Every colour key of a style file.
const COLOUR_FIELDS: [&str; 10] = [
    "background",
    "node_fill",
    "node_stroke",
    "node_text",
    "edge_stroke",
    "edge_label_background",
    "edge_label_text",
    "cluster_fill",
    "cluster_stroke",
    "cluster_text",
];

fn flowbench(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).current_dir(cwd).output().expect("flowbench runs")
}

fn chart(dir: &Path) {
    std::fs::write(dir.join("c.mmd"), "flowchart TD\n  A[Start] --> B{ok?}\n  B -->|Yes| C[Done]\n")
        .expect("write chart");
}

fn refused(o: &Output, what: &str, needles: &[&str]) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{what}: accepted; stderr: {err}");
    assert_ne!(o.status.code(), Some(101), "{what}: panicked: {err}");
    for n in needles {
        assert!(err.contains(n), "{what}: error does not name {n:?}: {err}");
    }
}

#[test]
fn background_flag_rejects_a_non_colour() {
    let dir = tempfile::tempdir().expect("tempdir");
    chart(dir.path());
    let o = flowbench(&["render", "c.mmd", "-o", "c.png", "--background", "notacolor"], dir.path());
    refused(&o, "--background notacolor", &["--background", "notacolor"]);
    assert!(!dir.path().join("c.png").exists(), "an image was written with a bad colour");
}

#[test]
fn every_style_file_colour_rejects_a_non_colour() {
    let dir = tempfile::tempdir().expect("tempdir");
    chart(dir.path());
    std::fs::create_dir(dir.path().join("bank")).expect("mkdir bank");
    for field in COLOUR_FIELDS {
        let style = format!("bad-{field}.toml");
        std::fs::write(dir.path().join(&style), format!("{field} = \"blurple\"\n")).expect("write style");
        let o = flowbench(&["render", "c.mmd", "-o", "c.svg", "--style", &style], dir.path());
        refused(&o, &format!("render --style with {field}"), &[&style, field, "blurple"]);
        let o = flowbench(&["build", "--problems", "bank", "-o", "dist", "--style", &style], dir.path());
        refused(&o, &format!("build --style with {field}"), &[&style, field, "blurple"]);
    }
    std::fs::write(dir.path().join("sweep.toml"), "[[style]]\nname = \"x\"\nnode_fill = \"#12\"\n")
        .expect("write sweep");
    let o = flowbench(&["render", "c.mmd", "-O", "out", "--sweep", "sweep.toml"], dir.path());
    refused(&o, "render --sweep", &["sweep.toml", "node_fill", "#12"]);
    let o = flowbench(&["build", "--problems", "bank", "-o", "dist", "--styles", "sweep.toml"], dir.path());
    refused(&o, "build --styles", &["sweep.toml", "node_fill", "#12"]);
}

#[test]
fn css_colour_forms_usvg_draws_are_accepted() {
    let dir = tempfile::tempdir().expect("tempdir");
    chart(dir.path());
    let forms = [
        "red",
        "DarkSlateBlue",
        "#abc",
        "#A0B1C2",
        "#a0b1c280",
        "rgb(10, 20, 30)",
        "rgba(10,20,30,0.5)",
        "hsl(120, 50%, 40%)",
        "transparent",
    ];
    for (i, colour) in forms.iter().enumerate() {
        let style = format!("ok{i}.toml");
        std::fs::write(dir.path().join(&style), format!("node_fill = \"{colour}\"\nbackground = \"{colour}\"\n"))
            .expect("write style");
        let o = flowbench(&["render", "c.mmd", "-o", "c.svg", "--style", &style, "--background", colour], dir.path());
        assert!(o.status.success(), "{colour}: {}", String::from_utf8_lossy(&o.stderr));
        let svg = std::fs::read_to_string(dir.path().join("c.svg")).expect("svg written");
        assert!(svg.to_ascii_lowercase().contains(&colour.to_ascii_lowercase()), "{colour} not in the drawing");
    }
    // The colour reaches the drawing (not black).
    std::fs::write(dir.path().join("fill.toml"), "node_fill = \"#a0b1c2\"\n").expect("write style");
    let o = flowbench(&["render", "c.mmd", "-o", "-", "--style", "fill.toml"], dir.path());
    assert!(String::from_utf8_lossy(&o.stdout).contains("#a0b1c2"), "node_fill not drawn");
}
