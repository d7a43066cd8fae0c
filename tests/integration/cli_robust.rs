//! No panics on any numeric option or closed pipe: limits are validated
//! with a clear error (exit 2), and streaming commands end quietly when
//! the reader goes away (`| head`).

use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use proptest::prelude::*;

fn flowbench(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).current_dir(cwd).output().expect("flowbench runs")
}

fn no_panic(o: &Output, what: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(101), "{what}: panicked: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
}

/// A chart whose canonical text is far larger than a pipe buffer.
fn big_chart(dir: &Path) -> String {
    let mut text = String::from("flowchart TD\n");
    for i in 0..20_000 {
        text.push_str(&format!("  node{i}[\"a label long enough to fill pipes {i}\"] --> node{}\n", i + 1));
    }
    std::fs::write(dir.join("big.mmd"), &text).expect("write");
    "big.mmd".into()
}

#[test]
fn broken_pipes_end_quietly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let big = big_chart(dir.path());
    for args in
        [vec!["fmt", "--max-edges", "100000", &big], vec!["check", "--max-edges", "100000", "--fix", "--stdout", &big]]
    {
        let mut child = Command::new(env!("CARGO_BIN_EXE_flowbench"))
            .args(&args)
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        let mut head = [0u8; 16];
        child.stdout.take().expect("stdout").read_exact(&mut head).expect("some output");
        // The reader goes away, as `| head -c 16` does.
        let out = child.wait_with_output().expect("wait");
        no_panic(&out, &args.join(" "));
    }
}

#[test]
fn time_limits_are_validated() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(d.join("p.jsonl"), "{\"task_id\": \"t\", \"entry_point\": \"f\", \"call_style\": \"function\", \"time_limit_s\": 1e308, \"tests\": [{\"args\": [1], \"expected\": 1}]}\n").expect("write");
    std::fs::write(d.join("s.jsonl"), "{\"task_id\": \"t\", \"completion\": \"def f(x):\\n    return x\\n\"}\n")
        .expect("write");
    let base = ["judge", "--problems", "p.jsonl", "--samples", "s.jsonl", "-o", "r.jsonl", "--prelude", "none"];
    for extra in [
        &["--timeout", "0"][..],
        &["--timeout", "1e19", "--clock", "cpu"],
        &["--timeout", "NaN"],
        &["--time-floor=-1"],
        &["--time-factor", "inf"],
    ] {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let o = flowbench(&args, d);
        no_panic(&o, &extra.join(" "));
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("must be a number"),
            "{extra:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    // A problem's own limit of 1e308 s is reported with its line, not a panic.
    let o = flowbench(&base, d);
    no_panic(&o, "time_limit_s 1e308");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("p.jsonl:1") && err.contains("time_limit_s 1e308 is not a number of seconds"), "{err}");
    let o = flowbench(&["build", "--time-limit", "1e300", "-o", "out"], d);
    no_panic(&o, "build --time-limit 1e300");
}

#[test]
fn an_empty_samples_file_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(
        d.join("p.jsonl"),
        "{\"task_id\": \"t\", \"entry_point\": \"f\", \"tests\": [{\"args\": [1], \"expected\": 1}]}\n",
    )
    .expect("write");
    std::fs::write(d.join("s.jsonl"), "").expect("write");
    let o = flowbench(&["judge", "--problems", "p.jsonl", "--samples", "s.jsonl", "-o", "r.jsonl"], d);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("no samples to judge in s.jsonl"), "{err}");
}

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<f64>().prop_map(|v| v.to_string()),
        any::<i64>().prop_map(|v| v.to_string()),
        any::<u64>().prop_map(|v| v.to_string()),
        Just("1e308".to_string()),
        Just("1e19".to_string()),
        Just("-0".to_string()),
        Just("NaN".to_string()),
        Just("inf".to_string()),
        Just("0".to_string()),
        (0u32..5).prop_map(|v| v.to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, .. ProptestConfig::default() })]

    /// Numeric options of judge (validated before any sandbox starts: the
    /// samples file is empty) and render never panic.
    #[test]
    fn numeric_options_never_panic(a in number(), b in number(), c in number(), clock in prop_oneof![Just("wall"), Just("cpu")]) {
        let dir = tempfile::tempdir().expect("tempdir");
        let d = dir.path();
        std::fs::write(d.join("p.jsonl"), "{\"task_id\": \"t\", \"entry_point\": \"f\", \"tests\": [{\"args\": [1], \"expected\": 1}]}\n").expect("write");
        std::fs::write(d.join("s.jsonl"), "").expect("write");
        std::fs::write(d.join("c.mmd"), "flowchart LR\n  A --> B\n").expect("write");
        for opt in ["--timeout", "--time-floor", "--time-factor", "-j", "--k"] {
            let o = flowbench(&["judge", "--problems", "p.jsonl", "--samples", "s.jsonl", "-o", "r.jsonl", "--clock", clock, opt, &a, "--timeout", &b], d);
            no_panic(&o, &format!("judge {opt} {a} --timeout {b}"));
        }
        for opt in ["--scale", "--max-pixels", "--max-edges", "--max-nodes", "-j"] {
            let o = flowbench(&["render", "c.mmd", "-o", "c.png", opt, &c], d);
            no_panic(&o, &format!("render {opt} {c}"));
        }
        let o = flowbench(&["fmt", "c.mmd", "--max-edges", &a], d);
        no_panic(&o, &format!("fmt --max-edges {a}"));
    }
}
