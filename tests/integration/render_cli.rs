//! End-to-end checks of `flowbench render` as a user runs it: single files,
//! batches with a broken chart, sweeps, metrics, style files, and byte
//! identity of the CLI's output across thread counts.

use std::path::Path;
use std::process::Command;

fn flowbench(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).arg("render").args(args).output().expect("run flowbench")
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.display().to_string()
}

const GOOD: &str = "flowchart TD\n  A[Start] --> B{Ok?}\n  B -->|yes| C[Done]\n  B -->|no| A\n";

#[test]
fn single_file_svg_and_png() {
    let dir = tempfile::tempdir().expect("tmp");
    let input = write(dir.path(), "a.mmd", GOOD);
    let svg = dir.path().join("a.svg");
    let png = dir.path().join("a.png");
    assert!(flowbench(&[&input, "-o", svg.to_str().unwrap_or_default()]).status.success());
    assert!(
        flowbench(&[&input, "-o", png.to_str().unwrap_or_default(), "--scale", "2", "--theme", "dark"])
            .status
            .success()
    );
    let svg = std::fs::read_to_string(svg).expect("svg");
    assert!(svg.starts_with("<svg") && svg.contains(">Start</text>"));
    let png = std::fs::read(png).expect("png");
    assert_eq!(&png[1..4], b"PNG");
    let out = flowbench(&[&input, "-o", "x.gif"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn batch_reports_broken_chart_with_position_and_continues() {
    let dir = tempfile::tempdir().expect("tmp");
    let inp = dir.path().join("in");
    std::fs::create_dir_all(inp.join("sub")).expect("mkdir");
    write(&inp, "good.mmd", GOOD);
    write(&inp.join("sub"), "also.mmd", "flowchart LR\n  x --> y\n");
    write(&inp, "bad.mmd", "flowchart TD\n  A --> B\n  C -->\n");
    let out_dir = dir.path().join("out");
    let out =
        flowbench(&[inp.to_str().unwrap_or_default(), "-O", out_dir.to_str().unwrap_or_default(), "--format", "svg"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    // `file:line:col: message`
    let pos = err.split("bad.mmd:").nth(1).unwrap_or_default();
    let mut parts = pos.splitn(3, ':');
    let (line, col) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
    assert!(line.parse::<u32>().is_ok_and(|l| l >= 3) && col.parse::<u32>().is_ok(), "{err}");
    assert!(out_dir.join("good.svg").exists() && out_dir.join("sub/also.svg").exists());
    assert!(!out_dir.join("bad.svg").exists());
}

#[test]
fn sweep_renders_grid_and_index() {
    let dir = tempfile::tempdir().expect("tmp");
    let input = write(dir.path(), "c.mmd", GOOD);
    let sweep =
        write(dir.path(), "s.toml", "[grid]\ntheme = [\"default\", \"forest\"]\ncurve = [\"basis\", \"step\"]\n");
    let out_dir = dir.path().join("sw");
    let out = flowbench(&["--sweep", &sweep, &input, "-O", out_dir.to_str().unwrap_or_default()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut files: Vec<String> = std::fs::read_dir(&out_dir)
        .expect("dir")
        .map(|e| e.expect("e").file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files.len(), 5, "{files:?}");
    assert!(files.contains(&"c.curve=step,theme=forest.png".to_string()));
    let index = std::fs::read_to_string(out_dir.join("index.html")).expect("index");
    assert_eq!(index.matches("<img").count(), 4);
}

/// Two bank problems' charts, both named `flowchart.mmd`, under `dir/p/`.
fn two_same_named_charts(dir: &Path) -> [String; 2] {
    ["gcd", "is_prime"].map(|name| {
        let sub = dir.join("p").join(name);
        std::fs::create_dir_all(&sub).expect("mkdir");
        let bank = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
        let text = std::fs::read_to_string(bank.join(name).join("flowchart.mmd")).expect("bank chart");
        write(&sub, "flowchart.mmd", &text)
    })
}

#[test]
fn same_named_inputs_render_apart_in_batches_and_sweeps() {
    let dir = tempfile::tempdir().expect("tmp");
    let [gcd, prime] = two_same_named_charts(dir.path());
    let out_dir = dir.path().join("out");
    let out_arg = out_dir.to_str().unwrap_or_default();
    let out = flowbench(&["-O", out_arg, "--format", "svg", &gcd, &prime]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let read = |rel: &str| std::fs::read_to_string(out_dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    assert!(read("gcd/flowchart.svg").contains("a mod b"), "gcd's chart under gcd/");
    assert!(!read("is_prime/flowchart.svg").contains("a mod b"), "is_prime's chart under is_prime/");
    let sweep = write(dir.path(), "s.toml", "[grid]\ntheme = [\"default\", \"dark\"]\n");
    let sweep_dir = dir.path().join("sweep");
    let sweep_arg = sweep_dir.to_str().unwrap_or_default();
    let out = flowbench(&["--sweep", &sweep, "-O", sweep_arg, "--format", "svg", &gcd, &prime]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.contains("rendered 4 of 4 charts"), "{err}");
    for rel in ["gcd/flowchart.theme=default.svg", "gcd/flowchart.theme=dark.svg", "is_prime/flowchart.theme=dark.svg"]
    {
        assert!(sweep_dir.join(rel).is_file(), "{rel} missing");
    }
    let index = std::fs::read_to_string(sweep_dir.join("index.html")).expect("index");
    assert!(index.contains("src=\"is_prime/flowchart.theme=default.svg\""), "{index}");
}

#[test]
fn a_directory_is_searched_for_mermaid_files_only() {
    let dir = tempfile::tempdir().expect("tmp");
    let inp = dir.path().join("in");
    std::fs::create_dir_all(inp.join("sub")).expect("mkdir");
    write(&inp, "a.mmd", GOOD);
    write(&inp.join("sub"), "b.mermaid", "flowchart LR\n  x --> y\n");
    // A problem directory's data, which is no chart.
    write(&inp.join("sub"), "problem.json", "{\"task_id\": \"t\", \"tests\": []}\n");
    let out_dir = dir.path().join("out");
    let (inp_arg, out_arg) = (inp.to_str().unwrap_or_default(), out_dir.to_str().unwrap_or_default());
    let out = flowbench(&[inp_arg, "-O", out_arg, "--format", "svg"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.contains("rendered 2 of 2 charts"), "{err}");
    assert!(out_dir.join("a.svg").is_file() && out_dir.join("sub/b.svg").is_file());
    // Model JSON named on the command line is still a chart.
    let a = inp.join("a.mmd").display().to_string();
    let parsed = Command::new(env!("CARGO_BIN_EXE_flowbench")).args(["parse", "--json", &a]).output();
    let model = write(dir.path(), "model.json", &String::from_utf8_lossy(&parsed.expect("parse runs").stdout));
    let out = flowbench(&[&model, "-o", "-"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains(">Start</text>"));
}

#[test]
fn metrics_are_json_lines() {
    let dir = tempfile::tempdir().expect("tmp");
    let a = write(dir.path(), "a.mmd", GOOD);
    let b = write(dir.path(), "b.mmd", "flowchart LR\n  x --> y\n");
    let out = flowbench(&[&a, &b, "--metrics"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0]["file"].as_str().unwrap_or_default().ends_with("a.mmd"));
    assert_eq!(lines[0]["node_overlaps"], 0);
}

#[test]
fn style_file_is_applied_and_validated() {
    let dir = tempfile::tempdir().expect("tmp");
    let input = write(dir.path(), "a.mmd", GOOD);
    let good = write(dir.path(), "good.toml", "node_fill = \"#123456\"\ncurve = \"linear\"\nfont_size = 20\n");
    let bad = write(dir.path(), "bad.toml", "node_colour = \"red\"\n");
    let out = flowbench(&[&input, "-o", "-", "--style", &good]);
    assert!(out.status.success());
    let svg = String::from_utf8_lossy(&out.stdout);
    assert!(svg.contains("#123456") && svg.contains(r#"font-size="20""#));
    let out = flowbench(&[&input, "-o", "-", "--style", &bad]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("node_colour"));
}

#[test]
fn cli_output_identical_with_one_or_two_threads() {
    let dir = tempfile::tempdir().expect("tmp");
    let inp = dir.path().join("in");
    std::fs::create_dir_all(&inp).expect("mkdir");
    for i in 0..4 {
        write(&inp, &format!("c{i}.mmd"), &GOOD.replace("Start", &format!("Start {i}")));
    }
    let mut outs = Vec::new();
    for j in ["1", "2"] {
        let o = dir.path().join(format!("o{j}"));
        assert!(
            flowbench(&[inp.to_str().unwrap_or_default(), "-O", o.to_str().unwrap_or_default(), "-j", j])
                .status
                .success()
        );
        let bytes: Vec<Vec<u8>> = (0..4).map(|i| std::fs::read(o.join(format!("c{i}.png"))).expect("png")).collect();
        outs.push(bytes);
    }
    assert!(outs[0] == outs[1]);
}

#[test]
fn oversize_png_is_refused_with_the_limit_named_and_nothing_written() {
    let dir = tempfile::tempdir().expect("tmp");
    let input = write(dir.path(), "a.mmd", GOOD);
    let png = dir.path().join("a.png");
    let png_arg = png.to_str().unwrap_or_default();
    // The node boxes alone exceed 1,000 px: refused before layout.
    let out = flowbench(&[&input, "-o", png_arg, "--max-pixels", "1000"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0));
    assert!(err.contains("--max-pixels") && err.contains("a.mmd"), "{err}");
    assert!(!png.exists());
    // Boxes fit but the whole drawing does not: refused after layout.
    let out = flowbench(&[&input, "-o", png_arg, "--max-pixels", "30000"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0));
    assert!(err.contains("PNG would be") && err.contains("--max-pixels"), "{err}");
    assert!(!png.exists());
    // Raising the limit (or lowering the scale) renders it.
    assert!(flowbench(&[&input, "-o", png_arg, "--max-pixels", "30000", "--scale", "0.5"]).status.success());
    assert!(png.exists());
}

#[test]
fn character_references_are_decoded_once() {
    // Issue 14: `&amp;` / `&lt;` in a label draw `&` / `<`, never the
    // reference itself (escaping it a second time printed `&amp;lt;`).
    let dir = tempfile::tempdir().expect("tmp");
    let refs = write(dir.path(), "refs.mmd", "flowchart LR\n  A[\"a &lt; b &amp; c\"] -->|x &amp;&amp; y| B\n");
    let plain = write(dir.path(), "plain.mmd", "flowchart LR\n  A[\"a < b & c\"] -->|x && y| B\n");
    let render = |input: &str, ext: &str| {
        let out = dir.path().join(format!("out.{ext}"));
        assert!(flowbench(&[input, "-o", out.to_str().unwrap_or_default()]).status.success());
        std::fs::read(out).expect("output")
    };
    let svg = String::from_utf8(render(&refs, "svg")).expect("utf-8");
    assert!(svg.contains(">a &lt; b &amp; c</text>"), "{svg}");
    assert!(svg.contains(">x &amp;&amp; y</text>"), "{svg}");
    assert!(!svg.contains("&amp;lt;") && !svg.contains("&amp;amp;"), "{svg}");
    // Drawn exactly as the same label written with the characters.
    assert_eq!(svg.as_bytes(), render(&plain, "svg"));
    assert_eq!(render(&refs, "png"), render(&plain, "png"));
}

#[test]
fn svg_names_the_embedded_face_or_the_users() {
    let dir = tempfile::tempdir().expect("tmp");
    let input = write(dir.path(), "a.mmd", GOOD);
    let out = flowbench(&[&input, "-o", "-"]);
    let svg = String::from_utf8_lossy(&out.stdout);
    assert!(svg.contains(r#"font-family="Liberation Sans, Arial, sans-serif""#), "{svg}");
    let font = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/chart/assets/fonts/DejaVuSans.ttf");
    let out = flowbench(&[&input, "-o", "-", "--font", font]);
    let svg = String::from_utf8_lossy(&out.stdout);
    assert!(svg.contains(r#"font-family="&quot;DejaVu Sans&quot;, sans-serif""#), "{svg}");
}
