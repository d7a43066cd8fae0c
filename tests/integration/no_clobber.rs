//! No command destroys an input: outputs that resolve to an input (same
//! path, symlink, hard link, overlapping source directory) are refused
//! before anything is written; batch outputs that would collide are refused;
//! in-place edits keep the file's mode and edit a symlink's target.

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::{Command, Output};

fn flowbench(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).current_dir(cwd).output().expect("flowbench runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const PROBLEMS: &str =
    "{\"task_id\": \"add\", \"entry_point\": \"add\", \"tests\": [{\"args\": [1, 2], \"expected\": 3}]}\n";
const SAMPLES: &str = "{\"task_id\": \"add\", \"completion\": \"def add(a, b):\\n    return a + b\\n\"}\n";

#[test]
fn judge_refuses_outputs_that_are_inputs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(d.join("p.jsonl"), PROBLEMS).expect("write");
    std::fs::write(d.join("s.jsonl"), SAMPLES).expect("write");
    std::os::unix::fs::symlink(d.join("s.jsonl"), d.join("link.jsonl")).expect("symlink");
    std::fs::hard_link(d.join("p.jsonl"), d.join("hard.jsonl")).expect("hard link");
    for out in ["p.jsonl", "s.jsonl", "link.jsonl", "hard.jsonl", "./p.jsonl"] {
        let o = flowbench(&["judge", "--problems", "p.jsonl", "--samples", "s.jsonl", "-o", out], d);
        assert_eq!(o.status.code(), Some(2), "{out}: {}", stderr(&o));
        assert!(stderr(&o).contains("refusing to overwrite an input"), "{out}: {}", stderr(&o));
    }
    // The summary next to the results must not hit an input either.
    std::fs::write(d.join("r.summary.json"), PROBLEMS).expect("write");
    let o = flowbench(&["judge", "--problems", "r.summary.json", "--samples", "s.jsonl", "-o", "r.jsonl"], d);
    assert!(stderr(&o).contains("refusing to overwrite an input"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(d.join("p.jsonl")).expect("read"), PROBLEMS);
    assert_eq!(std::fs::read_to_string(d.join("s.jsonl")).expect("read"), SAMPLES);
    let o = flowbench(&["judge", "merge", "p.jsonl", "-o", "hard.jsonl"], d);
    assert!(stderr(&o).contains("refusing to overwrite an input"), "{}", stderr(&o));
    std::os::unix::fs::symlink(d.join("p.jsonl"), d.join("plink.jsonl")).expect("symlink");
    let o = flowbench(&["tests", "import", "p.jsonl", "-o", "plink.jsonl"], d);
    assert!(stderr(&o).contains("refusing to overwrite an input"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(d.join("p.jsonl")).expect("read"), PROBLEMS);
}

#[test]
fn build_refuses_an_output_overlapping_the_sources() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bank = dir.path().join("bank");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/binary_search");
    std::fs::create_dir_all(bank.join("binary_search")).expect("mkdir");
    for e in std::fs::read_dir(&src).expect("read_dir") {
        let p = e.expect("entry").path();
        std::fs::copy(&p, bank.join("binary_search").join(p.file_name().expect("name"))).expect("copy");
    }
    let before = std::fs::read(bank.join("binary_search/flowchart.mmd")).expect("read");
    for out in ["bank", "bank/out", "."] {
        let o = flowbench(&["build", "--problems", "bank", "-o", out], dir.path());
        assert_eq!(o.status.code(), Some(2), "{out}: {}", stderr(&o));
        assert!(stderr(&o).contains("overlaps the input directory"), "{out}: {}", stderr(&o));
    }
    assert_eq!(std::fs::read(bank.join("binary_search/flowchart.mmd")).expect("read"), before);
    assert!(!bank.join("summary.md").exists() && !bank.join("out").exists());
}

#[test]
fn render_refuses_batch_outputs_that_still_collide() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::create_dir_all(d.join("a")).expect("mkdir");
    for name in ["x.mmd", "x.mermaid"] {
        std::fs::write(d.join("a").join(name), "flowchart TD\n  x1 --> x2\n").expect("write");
    }
    let two_named_one = "[[style]]\nname = \"one\"\n[[style]]\nname = \"one\"\ntheme = \"dark\"\n";
    std::fs::write(d.join("s.toml"), two_named_one).expect("write");
    let cases: [&[&str]; 3] = [
        // Same directory, same stem: no parent directory tells them apart.
        &["render", "a/x.mmd", "a/x.mermaid", "-O", "out", "--format", "svg"],
        &["render", "a/x.mmd", "a/x.mmd", "-O", "out", "--format", "svg"],
        &["render", "--sweep", "s.toml", "a/x.mmd", "-O", "out", "--format", "svg"],
    ];
    for args in cases {
        let o = flowbench(args, d);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("would both render to"), "{args:?}: {}", stderr(&o));
        assert!(!d.join("out").exists(), "{args:?}: nothing written");
    }
    assert!(stderr(&flowbench(cases[2], d)).contains("a/x.mmd (style one) and a/x.mmd (style one)"));
    // Same-named inputs in different directories render apart.
    std::fs::create_dir_all(d.join("b")).expect("mkdir");
    std::fs::copy(d.join("a/x.mmd"), d.join("b/x.mmd")).expect("copy");
    let o = flowbench(&["render", "a/x.mmd", "b/x.mmd", "-O", "out", "--format", "svg"], d);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(d.join("out/a/x.svg").is_file() && d.join("out/b/x.svg").is_file());
}

#[test]
fn in_place_edits_keep_mode_and_follow_symlinks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let messy = "flowchart TD\n  A[\"x\"]-->B\n";
    for (cmd, name) in [(&["fmt", "--write"][..], "f.mmd"), (&["check", "--fix"][..], "c.mmd")] {
        let real = d.join(format!("real-{name}"));
        let text = if cmd[0] == "check" { "flowchart TD\n  A[a (b)] --> B\n" } else { messy };
        std::fs::write(&real, text).expect("write");
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        std::os::unix::fs::symlink(&real, d.join(name)).expect("symlink");
        let mut args = cmd.to_vec();
        args.push(name);
        let o = flowbench(&args, d);
        assert!(o.status.success(), "{cmd:?}: {}", stderr(&o));
        assert!(std::fs::symlink_metadata(d.join(name)).expect("meta").file_type().is_symlink(), "{cmd:?}: link kept");
        assert_ne!(std::fs::read_to_string(&real).expect("read"), text, "{cmd:?}: target edited");
        assert_eq!(std::fs::metadata(&real).expect("meta").permissions().mode() & 0o777, 0o644, "{cmd:?}: mode kept");
    }
}
