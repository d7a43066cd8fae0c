//! `flowbench score-transcription` end to end on a built bench: the
//! stand-ins' transcriptions score as they should, and bad replies (empty,
//! a sequenceDiagram, prose with no code block, a 10,000-node chart, a
//! line that is not JSON, an unknown task) are each scored or refused with
//! a recorded reason while the rest of the run is kept. Scores are
//! byte-identical across runs; a sandbox that cannot run the programs fails
//! the run without a verdict.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};

fn flowbench(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).current_dir(dir).output().expect("flowbench runs")
}

fn ok(out: &Output, what: &str) {
    assert!(out.status.success(), "{what}: {}", String::from_utf8_lossy(&out.stderr));
}

fn scores(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).expect("scores").lines().map(|l| serde_json::from_str(l).expect("JSON")).collect()
}

#[test]
#[ignore = "heavy: builds a bench, then scores every stand-in's transcriptions twice"]
fn stand_ins_and_bad_replies_are_scored_with_reasons() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path();
    let bank = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    ok(&flowbench(&["build", "--problems", bank.to_str().expect("utf-8"), "-o", "dist"], dir), "build");
    for model in ["transcriber", "noisy-transcriber"] {
        let file = format!("{model}.jsonl");
        ok(&flowbench(&["generate", "--condition", "transcribe", "--model", model, "-o", &file], dir), model);
        let out = format!("{model}.scores.jsonl");
        ok(&flowbench(&["score-transcription", "--samples", &file, "-o", &out], dir), "score");
        let lines = scores(&dir.join(&out));
        assert!(lines.len() >= 50, "{model}: one line per sample");
        ok(&flowbench(&["score-transcription", "--samples", &file, "-o", "again.jsonl"], dir), "score again");
        let text = |f: &str| std::fs::read_to_string(dir.join(f)).expect("scores");
        let (first, second) = (text(&out), text("again.jsonl"));
        let differ = first.lines().zip(second.lines()).find(|(a, b)| a != b);
        assert!(first == second, "{model}: scores are byte-identical across runs; first difference: {differ:#?}");
        let perfect = lines.iter().filter(|l| l["triple_f1_relaxed"] == json!(1.0)).count();
        if model == "transcriber" {
            assert_eq!(perfect, lines.len(), "the transcriber reads every chart right");
            assert!(lines.iter().any(|l| l["executes"] == json!(true)), "some source charts run as programs");
        } else {
            assert!(perfect < lines.len() / 4, "every noisy sample has an edit: {perfect} perfect");
            assert!(lines.iter().all(|l| l["edits"].as_array().is_some_and(|e| e.len() == 1)), "edits recorded");
        }
    }

    let task = scores(&dir.join("transcriber.scores.jsonl"))[0]["task_id"].as_str().expect("task").to_string();
    let huge: String = std::iter::once("```mermaid\nflowchart TD\n".to_string())
        .chain((0..10_000).map(|i| format!("    n{i}[\"step {i}\"]\n")))
        .chain(std::iter::once("```\n".to_string()))
        .collect();
    let replies = [
        "",
        "```mermaid\nsequenceDiagram\n    Alice->>Bob: Hello\n```\n",
        "The chart starts, reads the input, loops over it and returns the total.",
        huge.as_str(),
    ];
    let mut samples: Vec<String> =
        replies.iter().map(|r| json!({"task_id": task, "response": r}).to_string()).collect();
    samples.push("{not json".into());
    samples.push(json!({"task_id": "no-such-task", "completion": "flowchart TD\n  A --> B\n"}).to_string());
    samples.push(
        std::fs::read_to_string(dir.join("transcriber.jsonl")).expect("samples").lines().next().expect("a line").into(),
    );
    std::fs::write(dir.join("bad.jsonl"), samples.join("\n") + "\n").expect("write");
    let out =
        flowbench(&["score-transcription", "--samples", "bad.jsonl", "-o", "bad.scores.jsonl", "--no-execute"], dir);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "lines that are not samples make exit 1: {err}");
    assert!(!err.contains("panicked"), "{err}");
    let lines = scores(&dir.join("bad.scores.jsonl"));
    assert_eq!(lines.len(), 7, "one line per input line");
    let reason = |i: usize| lines[i]["reason"].as_str().unwrap_or("").to_string();
    assert!(reason(0).contains("empty reply"), "{}", reason(0));
    assert!(reason(1).contains("not a flowchart"), "{}", reason(1));
    assert!(reason(2).contains("no Mermaid flowchart"), "{}", reason(2));
    assert!(reason(3).contains("refused"), "{}", reason(3));
    assert!(reason(4).contains("line 5") && reason(4).contains("not a JSON object"), "{}", reason(4));
    assert!(reason(5).contains("no-such-task"), "{}", reason(5));
    for line in &lines[..6] {
        assert_eq!((line["parsed"].clone(), line["triple_f1_relaxed"].clone()), (json!(false), json!(0.0)), "{line}");
    }
    assert_eq!(
        (lines[6]["parsed"].clone(), lines[6]["triple_f1_relaxed"].clone()),
        (json!(true), json!(1.0)),
        "the good line is kept"
    );
    assert!(err.contains("line 5") && err.contains("no-such-task"), "each unusable line is reported: {err}");

    // A sandbox that cannot run the programs is the machine's failure: the
    // graph scores are kept, `executes` stays null, and the run says so and
    // fails, so that it is run again rather than read as "does not execute".
    let refused = Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .args(["score-transcription", "--samples", "transcriber.jsonl", "-o", "refused.jsonl"])
        .env("FLOWBENCH_TEST_FAIL_STEP", "network")
        .current_dir(dir)
        .output()
        .expect("flowbench runs");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{err}");
    assert!(err.contains("could not be run") && err.contains("network"), "{err}");
    let lines = scores(&dir.join("refused.jsonl"));
    // (A chart that chart2py cannot read fails before any sandbox.)
    let ran = |l: &&Value| !l["execution"].as_str().is_some_and(|why| why.starts_with("chart2py"));
    assert!(lines.iter().filter(ran).all(|l| l["executes"].is_null()), "no verdict from a refused sandbox");
    assert!(lines.iter().any(|l| l["executes"].is_null()), "some programs reached the sandbox");
    assert!(lines.iter().all(|l| l["triple_f1_relaxed"] == json!(1.0)), "the graph scores are kept");
}
