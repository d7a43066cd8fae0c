//! Resume only what matches: the results' run file records the settings
//! that change verdicts; a rerun with other settings refuses (or `--force`
//! starts over). Integers of any size round-trip through results.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

const PROBLEMS: &str = "{\"task_id\": \"add\", \"entry_point\": \"add\", \"call_style\": \"function\", \"tests\": [{\"args\": [1, 2], \"expected\": 3}]}\n";
const SAMPLES: &str = "{\"task_id\": \"add\", \"completion\": \"def add(a, b):\\n    return a + b\\n\", \"seed\": 123456789012345678901234567890}\n";

fn judge(d: &Path, extra: &[&str]) -> Output {
    let mut args =
        vec!["judge", "--problems", "p.jsonl", "--samples", "s.jsonl", "-o", "r.jsonl", "--prelude", "none", "-j", "1"];
    args.extend_from_slice(extra);
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(&args).current_dir(d).output().expect("flowbench runs")
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn reruns_with_other_settings_refuse_and_force_starts_over() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(d.join("p.jsonl"), PROBLEMS).expect("write");
    std::fs::write(d.join("s.jsonl"), SAMPLES).expect("write");
    let o = judge(d, &[]);
    assert!(o.status.success(), "{}", err(&o));
    let results = std::fs::read_to_string(d.join("r.jsonl")).expect("results");
    assert!(results.contains("\"seed\":123456789012345678901234567890"), "{results}");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("r.summary.json")).expect("summary")).expect("json");
    assert_eq!(summary["samples"], Value::from(1), "the big-integer sample is counted");
    let run: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("r.run.json")).expect("run file")).expect("json");
    assert_eq!(run["settings"]["mode"], Value::from("auto"));
    assert!(run["environment"]["python"].as_str().is_some_and(|p| p.starts_with('3')), "{run}");
    assert_eq!(run["environment"]["sandbox"], Value::from("full"));
    // Same settings: resumes, judges nothing new.
    let o = judge(d, &[]);
    assert!(o.status.success() && err(&o).contains("judged 0 samples"), "{}", err(&o));
    // Other settings: refused, nothing changed.
    for extra in [&["--mode", "native"][..], &["--timeout", "2"], &["--clock", "cpu"]] {
        let o = judge(d, extra);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", err(&o));
        assert!(err(&o).contains("judged with other settings"), "{extra:?}: {}", err(&o));
    }
    std::fs::write(d.join("p.jsonl"), PROBLEMS.replace("\"expected\": 3", "\"expected\": 4")).expect("write");
    let o = judge(d, &[]);
    assert!(err(&o).contains("problems_fnv1a"), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(d.join("r.jsonl")).expect("results"), results);
    // --force judges again from scratch, with the new tests.
    let o = judge(d, &["--force"]);
    assert!(err(&o).contains("judged 1 samples"), "{}", err(&o));
    let line: Value =
        serde_json::from_str(std::fs::read_to_string(d.join("r.jsonl")).expect("results").trim()).expect("json");
    assert_eq!(line["passed"], Value::Bool(false));
}
