//! `prompts`, `generate` and `ablation` end to end on a small synthetic
//! `dist/` written here: batch-file format, images inlined, editable
//! templates, a generate run that survives a failing local server and
//! resumes after a kill, and a judged ablation of the offline stand-ins.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use crate::openai_server::Server;
use base64::Engine as _;
use flowbench::bank::dist_record::{DistRecord, ImagePaths};
use serde_json::Value;

fn png(seed: u8) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, 4, 3);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().expect("header");
    w.write_image_data(&[seed; 36]).expect("data");
    drop(w);
    out
}

/// A dist/ of `titles.len()` problems `add_i(a, b) = a + b + i`.
fn write_dist(dir: &Path, titles: &[String]) {
    std::fs::create_dir_all(dir.join("images/default")).expect("mkdir");
    let mut lines = String::new();
    for (i, title) in titles.iter().enumerate() {
        let name = format!("add_{i}");
        let image = format!("images/default/{name}.png");
        std::fs::write(dir.join(&image), png(i as u8)).expect("png");
        let record = DistRecord {
            task_id: format!("basic/{name}"),
            prompt: format!("def {name}(a, b):\n    \"\"\"Add two numbers and {i}.\"\"\"\n"),
            starter_code: format!("def {name}(a, b):\n    pass\n"),
            entry_point: name.clone(),
            test: format!("def check(candidate):\n    assert candidate(1, 2) == {}\n", 3 + i),
            subset: "basic".into(),
            difficulty: if i % 2 == 0 { "easy".into() } else { "medium".into() },
            canonical_solution: format!("    return a + b + {i}\n"),
            title: title.clone(),
            description: format!("Return a + b + {i}."),
            native_tests: vec![
                serde_json::from_value(serde_json::json!({"args": [1, 2], "expected": 3 + i})).expect("test"),
            ],
            mermaid: format!("flowchart TD\n  A[start] --> B[\"return a + b + {i}\"]"),
            mermaid_canonical: format!("flowchart TD\n    A[start] --> B[\"return a + b + {i}\"]\n"),
            style: "default".into(),
            images: [("default".to_string(), ImagePaths { raster: image, svg: format!("images/default/{name}.svg") })]
                .into_iter()
                .collect(),
            nodes: 2,
            edges: 1,
            source: "test".into(),
            licence: "MIT".into(),
            ..Default::default()
        };
        lines.push_str(&serde_json::to_string(&record).expect("json"));
        lines.push('\n');
    }
    std::fs::write(dir.join("basic.jsonl"), lines).expect("jsonl");
    std::fs::write(dir.join("manifest.json"), "{}").expect("manifest");
}

fn flowbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).output().expect("flowbench runs")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).expect("read").lines().map(|l| serde_json::from_str(l).expect("json")).collect()
}

/// Templates whose text prompt is the problem's title, which scripts the server.
fn title_templates(dir: &Path) -> PathBuf {
    let t = dir.join("templates");
    std::fs::create_dir_all(&t).expect("mkdir");
    std::fs::write(t.join("text.txt"), "{title}").expect("template");
    t
}

#[test]
fn prompts_write_an_openai_batch_file_with_inline_images_and_editable_templates() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dist = dir.path().join("dist");
    let titles: Vec<String> = (0..3).map(|i| format!("Add {i}")).collect();
    write_dist(&dist, &titles);
    let out = dir.path().join("requests.jsonl");
    let run = flowbench(&[
        "prompts",
        "--bench",
        s(&dist),
        "--condition",
        "flowchart",
        "mermaid@verbatim",
        "text",
        "-n",
        "2",
        "--model",
        "m1",
        "-o",
        s(&out),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let lines = jsonl(&out);
    assert_eq!(lines.len(), 3 * 3 * 2);
    assert_eq!(lines[0]["custom_id"], "flowchart/basic/add_0#0");
    assert_eq!(lines[1]["custom_id"], "flowchart/basic/add_0#1");
    assert_eq!((lines[0]["method"].as_str(), lines[0]["url"].as_str()), (Some("POST"), Some("/v1/chat/completions")));
    let body = &lines[2]["body"];
    assert_eq!(
        (body["model"].as_str(), body["temperature"].as_f64(), body["max_tokens"].as_u64()),
        (Some("m1"), Some(0.2), Some(1024))
    );
    let content = &body["messages"][0]["content"];
    assert!(content[0]["text"].as_str().expect("text").contains("def add_1(a, b):"));
    let url = content[1]["image_url"]["url"].as_str().expect("url");
    let b64 = url.strip_prefix("data:image/png;base64,").expect("data url");
    assert_eq!(base64::engine::general_purpose::STANDARD.decode(b64).expect("base64"), png(1));
    let mermaid = lines[6]["body"]["messages"][0]["content"].as_str().expect("string content");
    assert!(
        mermaid.contains("A[start] --> B[\"return a + b + 0\"]") && !mermaid.contains("    A[start]"),
        "verbatim text: {mermaid}"
    );
    assert!(lines[12]["body"]["messages"][0]["content"].as_str().expect("text").contains("Return a + b + 0."));
    // Edited templates replace the built-in ones.
    let templates = title_templates(dir.path());
    let run = flowbench(&[
        "prompts",
        "--bench",
        s(&dist),
        "--condition",
        "text",
        "--templates",
        s(&templates),
        "-o",
        s(&out),
    ]);
    assert!(run.status.success());
    assert_eq!(jsonl(&out)[2]["body"]["messages"][0]["content"], "Add 2");
    let written = dir.path().join("mine");
    assert!(flowbench(&["prompts", "--write-templates", s(&written)]).status.success());
    assert!(std::fs::read_to_string(written.join("mermaid.txt")).expect("template").contains("{mermaid}"));
    // A style the build did not draw is a clear error.
    let run = flowbench(&["prompts", "--bench", s(&dist), "--condition", "flowchart@dark", "-o", s(&out)]);
    assert!(!run.status.success());
    assert!(
        String::from_utf8_lossy(&run.stderr).contains("no image in style \"dark\""),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

#[test]
fn generate_survives_a_failing_server_and_resumes_after_a_kill() {
    let server = Server::start(Duration::from_millis(1500));
    let dir = tempfile::tempdir().expect("tempdir");
    let dist = dir.path().join("dist");
    let kinds = ["ok", "429:1", "500:2", "bad:1", "drop:1", "hang:1"];
    let titles: Vec<String> = (0..12).map(|i| format!("{} t{i}", kinds[i % kinds.len()])).collect();
    write_dist(&dist, &titles);
    let templates = title_templates(dir.path());
    let out = dir.path().join("samples.jsonl");
    let common = [
        "generate",
        "--bench",
        s(&dist),
        "--condition",
        "text",
        "--templates",
        s(&templates),
        "--endpoint",
        &server.url,
        "--model",
        "m",
        "--timeout",
        "0.5",
        "-q",
    ];
    let run = Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .args(common)
        .args(["-j", "4", "--cache", "none", "-o", s(&out)])
        .output()
        .expect("runs");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let lines = jsonl(&out);
    assert_eq!(lines.len(), 12);
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["task_id"], format!("basic/add_{i}"));
        assert_eq!(l["response"], format!("echo: {}", titles[i]));
        assert_eq!((l["condition"].as_str(), l["model"].as_str()), (Some("text"), Some("m")));
        assert!(l["usage"]["total_tokens"].as_u64().is_some());
    }

    // Kill a slow run midway, resume it: the same file as an uninterrupted run.
    let slow: Vec<String> = (0..24).map(|i| format!("sleep:60 s{i}")).collect();
    let dist2 = dir.path().join("dist2");
    write_dist(&dist2, &slow);
    let common2 = [
        "generate",
        "--bench",
        s(&dist2),
        "--condition",
        "text",
        "--templates",
        s(&templates),
        "--endpoint",
        &server.url,
        "--model",
        "m",
        "-j",
        "2",
        "-q",
    ];
    let whole = dir.path().join("whole.jsonl");
    assert!(
        Command::new(env!("CARGO_BIN_EXE_flowbench"))
            .args(common2)
            .args(["--cache", "none", "-o", s(&whole)])
            .status()
            .expect("runs")
            .success()
    );
    let resumed = dir.path().join("resumed.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .args(common2)
        .args(["--cache", "none", "-o", s(&resumed)])
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    std::thread::sleep(Duration::from_millis(400));
    child.kill().expect("kill");
    child.wait().expect("reaped");
    let partial = std::fs::read_to_string(&resumed).unwrap_or_default().lines().count();
    assert!(partial > 0 && partial < 24, "killed midway: {partial} of 24 answered");
    let run = Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .args(common2)
        .args(["--cache", "none", "-o", s(&resumed)])
        .output()
        .expect("runs");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(
        String::from_utf8_lossy(&run.stderr).contains(&format!("{partial} already there")),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(std::fs::read_to_string(&resumed).expect("resumed"), std::fs::read_to_string(&whole).expect("whole"));
}

#[test]
fn ablation_of_the_stand_ins_on_a_dist_judges_and_reports() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dist = dir.path().join("dist");
    let titles: Vec<String> = (0..6).map(|i| format!("Add {i}")).collect();
    write_dist(&dist, &titles);
    let (reference, starter, mixed) =
        (dir.path().join("reference.jsonl"), dir.path().join("starter.jsonl"), dir.path().join("mixed.jsonl"));
    for (model, out) in [("reference", &reference), ("starter", &starter), ("mixed", &mixed)] {
        let run =
            flowbench(&["generate", "--bench", s(&dist), "--condition", "flowchart", "--model", model, "-o", s(out)]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    }
    let out = dir.path().join("report");
    let reference_run = format!("reference={}", s(&reference));
    let starter_run = format!("starter={}", s(&starter));
    let mixed_run = format!("mixed={}", s(&mixed));
    // `-o DIR/`, as a shell's completion writes it.
    let out_slash = format!("{}/", s(&out));
    let runs = ["--run", &reference_run, "--run", &starter_run, "--run", &mixed_run];
    let run =
        flowbench(&[&["ablation", "--bench", s(&dist)], &runs[..], &["-o", &out_slash, "-q", "-j", "2"]].concat());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{err}");
    assert!(err.contains(&format!("reports: {}/ablation.{{md,json,csv,html}}", s(&out))), "paths joined once: {err}");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("ablation.json")).expect("json")).expect("json");
    let ab = &report["ablation"];
    assert_eq!(ab["conditions"][0]["table"]["basic"]["all"]["pass_at_1"].as_f64(), Some(100.0));
    assert_eq!(ab["conditions"][1]["table"]["basic"]["all"]["pass_at_1"].as_f64(), Some(0.0));
    assert_eq!(ab["conditions"][1]["table"]["basic"]["easy"]["tasks"].as_u64(), Some(3));
    let d = &ab["deltas"]["starter"]["basic"]["all"];
    assert_eq!(
        (d["delta"].as_f64(), d["only_baseline"].as_u64(), d["only_condition"].as_u64()),
        (Some(-100.0), Some(6), Some(0))
    );
    assert!((d["mcnemar_p"].as_f64().expect("p") - 2.0 * 0.5f64.powi(6)).abs() < 1e-12);
    // The mixed stand-in is right exactly on the tasks with an even id hash.
    let right = (0..6)
        .filter(|i| {
            flowbench::judge::samples::fnv1a(format!("basic/add_{i}").as_bytes()).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                >> 63
                == 0
        })
        .count();
    assert!(right > 0 && right < 6, "the fixture splits: {right} of 6");
    let m = &ab["deltas"]["mixed"]["basic"]["all"];
    assert_eq!((m["only_baseline"].as_u64(), m["only_condition"].as_u64()), (Some(6 - right as u64), Some(0)));
    assert!(
        (ab["conditions"][2]["table"]["basic"]["all"]["pass_at_1"].as_f64().expect("cell")
            - 100.0 * right as f64 / 6.0)
            .abs()
            < 1e-9
    );
    let html = std::fs::read_to_string(out.join("ablation.html")).expect("html");
    assert!(
        html.contains("data:image/png;base64,")
            && html.contains("return a + b + 5")
            && html.contains("✗ 0/1 wrong answer")
    );
    // Judged results are kept: a re-run judges nothing again.
    let before = std::fs::read(out.join("results/starter.jsonl")).expect("results");
    let run = flowbench(&[
        "ablation",
        "--bench",
        s(&dist),
        "--run",
        &reference_run,
        "--run",
        &starter_run,
        "-o",
        s(&out),
        "-q",
    ]);
    assert!(run.status.success());
    assert_eq!(std::fs::read(out.join("results/starter.jsonl")).expect("results"), before);
}

/// Ablation judges through the same session and sandbox policy as `judge`:
/// weak isolation is refused unless `--allow-weak-sandbox`, and then every
/// judged result says so.
#[test]
fn ablation_refuses_weak_isolation_unless_allowed_and_then_records_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dist = dir.path().join("dist");
    write_dist(&dist, &["Add 0".to_string(), "Add 1".to_string()]);
    let samples = dir.path().join("reference.jsonl");
    let run = flowbench(&[
        "generate",
        "--bench",
        s(&dist),
        "--condition",
        "flowchart",
        "--model",
        "reference",
        "-o",
        s(&samples),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let run_arg = format!("reference={}", s(&samples));
    let ablation = |out: &Path, extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_flowbench"))
            .args(["ablation", "--bench", s(&dist), "--run", &run_arg, "-q", "-o", s(out)])
            .args(extra)
            .env("FLOWBENCH_TEST_FAIL_STEP", "network")
            .output()
            .expect("flowbench runs")
    };
    let refused = ablation(&dir.path().join("refused"), &[]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{err}");
    assert_eq!(err.matches("refusing to run untrusted code").count(), 1, "{err}");
    let out = dir.path().join("weak");
    let allowed = ablation(&out, &["--allow-weak-sandbox"]);
    assert!(allowed.status.success(), "{}", String::from_utf8_lossy(&allowed.stderr));
    let results = jsonl(&out.join("results/reference.jsonl"));
    assert_eq!(results.len(), 2);
    for r in &results {
        assert!(r["sandbox"].as_str().is_some_and(|s| s.starts_with("weak: network")), "{r}");
    }
}

/// Rewrites every samples line's `model`, as one real model's runs read.
fn as_model(path: &Path, model: &str) {
    let text: String = jsonl(path)
        .into_iter()
        .map(|mut l| {
            l["model"] = Value::from(model);
            format!("{l}\n")
        })
        .collect();
    std::fs::write(path, text).expect("rewrite");
}

/// The `signature` condition (starter code alone) through `prompts`,
/// `generate` and `ablation`: flowchart − signature per model with its
/// interval, and the problems the signature alone solved.
#[test]
fn signature_condition_runs_through_prompts_generate_and_ablation() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dist = dir.path().join("dist");
    let titles: Vec<String> = (0..6).map(|i| format!("Add {i}")).collect();
    write_dist(&dist, &titles);
    let requests = dir.path().join("requests.jsonl");
    let run = flowbench(&["prompts", "--bench", s(&dist), "--condition", "signature", "-o", s(&requests)]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let lines = jsonl(&requests);
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[0]["custom_id"], "signature/basic/add_0#0");
    let prompt = lines[1]["body"]["messages"][0]["content"].as_str().expect("text only");
    assert!(prompt.contains("def add_1(a, b):"), "{prompt}");
    assert!(!prompt.contains("Return a + b") && !prompt.contains("return a + b") && !prompt.contains("Add 1"));

    // One model: right on every flowchart problem, right on the `mixed`
    // half from the signature alone.
    let (chart, sig) = (dir.path().join("chart.jsonl"), dir.path().join("sig.jsonl"));
    for (condition, stand_in, out) in [("flowchart", "reference", &chart), ("signature", "mixed", &sig)] {
        let run =
            flowbench(&["generate", "--bench", s(&dist), "--condition", condition, "--model", stand_in, "-o", s(out)]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        as_model(out, "m");
    }
    assert!(jsonl(&sig).iter().all(|l| l["condition"] == "signature"));
    let out = dir.path().join("report");
    let (chart_run, sig_run) = (format!("chart={}", s(&chart)), format!("sig={}", s(&sig)));
    let run = flowbench(&[
        "ablation",
        "--bench",
        s(&dist),
        "--run",
        &chart_run,
        "--run",
        &sig_run,
        "-o",
        s(&out),
        "-q",
        "-j",
        "2",
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let solved: Vec<String> = (0..6)
        .map(|i| format!("basic/add_{i}"))
        .filter(|id| flowbench::judge::samples::fnv1a(id.as_bytes()).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 63 == 0)
        .collect();
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("ablation.json")).expect("json")).expect("json");
    let gaps = report["ablation"]["signature"].as_array().expect("signature gaps");
    assert_eq!(gaps.len(), 1, "{gaps:?}");
    let g = &gaps[0];
    assert_eq!(
        (g["model"].as_str(), g["flowchart_run"].as_str(), g["signature_run"].as_str()),
        (Some("m"), Some("chart"), Some("sig"))
    );
    let expected = 100.0 * (6 - solved.len()) as f64 / 6.0;
    let delta = g["delta"]["delta"].as_f64().expect("delta");
    assert!((delta - expected).abs() < 1e-9, "{delta} vs {expected}");
    let (lo, hi) = (g["delta"]["ci_low"].as_f64().expect("low"), g["delta"]["ci_high"].as_f64().expect("high"));
    assert!(lo <= delta && delta <= hi && lo < hi, "[{lo}, {hi}]");
    let listed: Vec<&str> =
        g["solved_by_signature"].as_array().expect("list").iter().filter_map(Value::as_str).collect();
    assert_eq!(listed, solved);
    let md = std::fs::read_to_string(out.join("ablation.md")).expect("md");
    assert!(md.contains("## Reading the chart or remembering the problem") && md.contains(&solved.join(", ")), "{md}");
}

/// A variant record of `basic/add_{of}`: `f_name(a, b) = a + b + k`.
fn variant(of: usize, kind: &str, entry: &str, k: i64) -> DistRecord {
    DistRecord {
        task_id: format!("basic/add_{of}~{kind}1"),
        prompt: format!("def {entry}(a, b):\n"),
        starter_code: format!("def {entry}(a, b):\n    pass\n"),
        entry_point: entry.into(),
        test: format!("def check(candidate):\n    assert candidate(1, 2) == {}\n", 3 + k),
        subset: "basic".into(),
        difficulty: "easy".into(),
        canonical_solution: format!("    return a + b + {k}\n"),
        title: "Variant".into(),
        description: "The chart alone.".into(),
        native_tests: vec![
            serde_json::from_value(serde_json::json!({"args": [1, 2], "expected": 3 + k})).expect("test"),
        ],
        mermaid: "flowchart TD\n  A[start] --> B[end]".into(),
        mermaid_canonical: "flowchart TD\n    A[start] --> B[end]\n".into(),
        variant_of: Some(format!("basic/add_{of}")),
        variant_kind: Some(kind.into()),
        ..Default::default()
    }
}

/// The offline `original` stand-in (the model that remembers the famous
/// problem) scores 100 % on originals and 0 % on their variants, and the
/// ablation reports the memorisation gap; the `reference` stand-in has none.
#[test]
fn the_original_stand_in_shows_a_memorisation_gap_and_the_reference_none() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dist = dir.path().join("dist");
    write_dist(&dist, &["Add 0".to_string(), "Add 1".to_string()]);
    let mut lines = std::fs::read_to_string(dist.join("basic.jsonl")).expect("jsonl");
    for v in [variant(0, "constants", "add_0", 10), variant(1, "rename", "f", 1)] {
        lines.push_str(&serde_json::to_string(&v).expect("json"));
        lines.push('\n');
    }
    std::fs::write(dist.join("basic.jsonl"), lines).expect("jsonl");
    let mut runs = Vec::new();
    for model in ["original", "reference"] {
        let out = dir.path().join(format!("{model}.jsonl"));
        let run = flowbench(&["generate", "--bench", s(&dist), "--model", model, "-o", s(&out)]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        runs.push(format!("{model}={}", s(&out)));
    }
    let out = dir.path().join("report");
    let run = flowbench(&[
        "ablation",
        "--bench",
        s(&dist),
        "--run",
        &runs[0],
        "--run",
        &runs[1],
        "-o",
        s(&out),
        "-q",
        "-j",
        "2",
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let results = jsonl(&out.join("results/original.jsonl"));
    for r in &results {
        let id = r["task_id"].as_str().expect("id");
        assert_eq!(r["passed"].as_bool(), Some(!id.contains('~')), "{r}");
    }
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("ablation.json")).expect("json")).expect("json");
    let gaps = report["ablation"]["memorisation"].as_array().expect("memorisation");
    assert_eq!(gaps.len(), 2);
    let (original, reference) = (&gaps[0], &gaps[1]);
    assert_eq!(
        (original["run"].as_str(), original["originals"].as_u64(), original["variants"].as_u64()),
        (Some("original"), Some(2), Some(2))
    );
    assert_eq!((original["gap"]["delta"].as_f64(), original["gap"]["only_condition"].as_u64()), (Some(100.0), Some(2)));
    assert_eq!((reference["gap"]["delta"].as_f64(), reference["gap"]["only_condition"].as_u64()), (Some(0.0), Some(0)));
    let md = std::fs::read_to_string(out.join("ablation.md")).expect("md");
    assert!(md.contains("## Following the chart or the famous problem"), "{md}");
}

/// The two-step condition `flowchart-then-code`: `prompts` writes step 1
/// (the image to transcribe); `generate` against a server sends step 2
/// with the model's OWN transcription as Mermaid text, records both
/// requests and replies, and a resumed run never re-asks step 1; the
/// stand-ins run it offline and `ablation` judges the step-2 code.
#[test]
fn flowchart_then_code_runs_through_prompts_generate_and_ablation() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dist = dir.path().join("dist");
    // The echo server answers step 1 with the title: a chart that differs
    // from the source (`plus` instead of `+`), so step 2 shows which it got.
    let titles: Vec<String> = (0..4)
        .map(|i| format!("Seen:\n```mermaid\nflowchart TD\n  S[start] --> R[\"return a plus b plus {i}\"]\n```"))
        .collect();
    write_dist(&dist, &titles);
    let requests = dir.path().join("requests.jsonl");
    let run = flowbench(&["prompts", "--bench", s(&dist), "--condition", "flowchart-then-code", "-o", s(&requests)]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let lines = jsonl(&requests);
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["custom_id"], "flowchart-then-code/basic/add_0#0/transcribe");
    let content = &lines[0]["body"]["messages"][0]["content"];
    assert!(content[0]["text"].as_str().expect("text").contains("Transcribe it as a Mermaid flowchart"));
    assert!(content[1]["image_url"]["url"].as_str().expect("image").starts_with("data:image/png;base64,"));

    let server = Server::start(Duration::from_millis(200));
    let templates = dir.path().join("templates");
    std::fs::create_dir_all(&templates).expect("mkdir");
    std::fs::write(templates.join("transcribe.txt"), "{title}").expect("template");
    std::fs::write(templates.join("mermaid.txt"), "code for:\n{mermaid}").expect("template");
    let out = dir.path().join("two.jsonl");
    let generate = |cache: &str| {
        flowbench(&[
            "generate",
            "--bench",
            s(&dist),
            "--condition",
            "flowchart-then-code",
            "--templates",
            s(&templates),
            "--endpoint",
            &server.url,
            "--model",
            "m",
            "--cache",
            cache,
            "-q",
            "-o",
            s(&out),
        ])
    };
    let run = generate("none");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let samples = jsonl(&out);
    assert_eq!(samples.len(), 4);
    for (i, l) in samples.iter().enumerate() {
        assert_eq!(l["custom_id"], format!("flowchart-then-code/basic/add_{i}#0"));
        assert_eq!(l["condition"], "flowchart-then-code");
        let own = format!("flowchart TD\n  S[start] --> R[\"return a plus b plus {i}\"]\n");
        assert_eq!(l["transcription"], own.as_str());
        let steps = l["steps"].as_array().expect("steps");
        assert_eq!(steps.len(), 2);
        assert_eq!(steps[0]["response"], format!("echo: {}", titles[i]));
        let url = steps[0]["request"]["messages"][0]["content"][1]["image_url"]["url"].as_str().expect("url");
        assert!(url.starts_with("sha256:"), "the image is recorded by digest: {url}");
        let step2 = steps[1]["request"]["messages"][0]["content"].as_str().expect("text");
        assert_eq!(step2, format!("code for:\n{}", own.trim_end()), "step 2 gets the model's own Mermaid");
        assert_eq!(l["response"], format!("echo: {step2}"));
        assert_eq!(steps[1]["response"], l["response"]);
    }
    assert_eq!(jsonl(&dir.path().join("two.transcriptions.jsonl")).len(), 4);
    // A half-finished run (two samples lost) resumes without re-asking
    // any transcription, and ends byte-identical.
    let whole = std::fs::read_to_string(&out).expect("samples");
    let half: String = whole.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(&out, half).expect("truncate");
    let run = generate("none");
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success() && err.contains("2 already there"), "{err}");
    for t in &titles {
        assert_eq!(server.attempts(t), 1, "step 1 asked once: {t}");
    }
    assert_eq!(std::fs::read_to_string(&out).expect("samples"), whole);

    // Offline: the transcriber codes from the chart it read (chart2py).
    let offline = dir.path().join("offline.jsonl");
    let run = flowbench(&[
        "generate",
        "--bench",
        s(&dist),
        "--condition",
        "flowchart-then-code",
        "--model",
        "transcriber",
        "-o",
        s(&offline),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let lines = jsonl(&offline);
    assert!(lines[3]["completion"].as_str().expect("code").contains("def add_3(a, b):"), "{}", lines[3]);
    assert_eq!(
        lines[3]["steps"][1]["request"]["messages"][0]["content"].as_str().map(|t| t.contains("return a + b + 3")),
        Some(true)
    );
    let report = dir.path().join("report");
    let run_spec = format!("ftc={}", s(&offline));
    let run = flowbench(&["ablation", "--bench", s(&dist), "--run", &run_spec, "-o", s(&report), "-q", "-j", "2"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("ablation.json")).expect("json")).expect("json");
    assert_eq!(json["ablation"]["conditions"][0]["table"]["basic"]["all"]["pass_at_1"].as_f64(), Some(100.0));
}

/// Attribution through `ablation`: a transcribe run (one transcription
/// misread, one that does not parse) beside a code run of the same model
/// is scored on the graph, not judged, and splits the code failures into
/// perception and reasoning; a model without a transcribe run gets a
/// one-line reason; the HTML draws a failed problem side by side.
#[test]
fn ablation_attributes_code_failures_to_reading_or_coding() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dist = dir.path().join("dist");
    let titles: Vec<String> = (0..4).map(|i| format!("Add {i}")).collect();
    write_dist(&dist, &titles);
    let chart = |i: usize, body: &str| format!("```mermaid\nflowchart TD\n  A[start] --> B[\"{body}\"]\n```\n{i}");
    // add_0 read right, add_1 misread, add_2 unparseable, add_3 read right.
    let replies = [
        chart(0, "return a + b + 0"),
        chart(1, "print the weather"),
        "no chart at all".to_string(),
        chart(3, "return a + b + 3"),
    ];
    let transcribe: String = replies
        .iter()
        .enumerate()
        .map(|(i, r)| {
            serde_json::json!({"task_id": format!("basic/add_{i}"), "response": r, "condition": "transcribe", "model": "m"})
                .to_string()
                + "\n"
        })
        .collect();
    std::fs::write(dir.path().join("t.jsonl"), transcribe).expect("write");
    // The code run: right on add_0 and add_1, wrong on add_2 and add_3.
    let code: String = (0..4)
        .map(|i| {
            let body = if i < 2 { format!("return a + b + {i}") } else { "return 0".into() };
            serde_json::json!({"task_id": format!("basic/add_{i}"), "completion": format!("def add_{i}(a, b):\n    {body}\n"),
                "condition": "flowchart", "model": "m"})
            .to_string()
                + "\n"
        })
        .collect();
    std::fs::write(dir.path().join("c.jsonl"), code).expect("write");
    let other = dir.path().join("other.jsonl");
    let run = flowbench(&[
        "generate",
        "--bench",
        s(&dist),
        "--condition",
        "flowchart",
        "--model",
        "reference",
        "-o",
        s(&other),
    ]);
    assert!(run.status.success());
    let out = dir.path().join("report");
    let (t, c, o) = (
        format!("t={}", s(&dir.path().join("t.jsonl"))),
        format!("c={}", s(&dir.path().join("c.jsonl"))),
        format!("o={}", s(&other)),
    );
    let run = flowbench(&[
        "ablation",
        "--bench",
        s(&dist),
        "--run",
        &c,
        "--run",
        &t,
        "--run",
        &o,
        "-o",
        s(&out),
        "-q",
        "-j",
        "2",
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(jsonl(&out.join("results/t.scores.jsonl")).len(), 4, "the transcriptions are scored");
    assert!(!out.join("results/t.jsonl").exists(), "and not judged as code");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("ablation.json")).expect("json")).expect("json");
    let conditions: Vec<&str> = report["ablation"]["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(conditions, ["c", "o"], "the transcribe run is not a code condition");
    let section = &report["attribution"];
    let omitted = section["omitted"].as_array().expect("omitted");
    assert_eq!(omitted.len(), 1, "{omitted:?}");
    assert!(omitted[0].as_str().expect("line").contains("model reference"));
    let a = &section["pairs"][0];
    assert_eq!((a["transcribe_run"].as_str(), a["code_run"].as_str()), (Some("t"), Some("c")));
    let all = &a["table"]["all"]["all"];
    assert_eq!(
        all["table"],
        serde_json::json!({"read_right_coded_right": 1, "read_right_coded_wrong": 1,
            "read_wrong_coded_right": 1, "read_wrong_coded_wrong": 1})
    );
    assert_eq!((all["reasoning_share"].as_f64(), all["perception_share"].as_f64()), (Some(0.5), Some(0.5)));
    let failures: Vec<Value> =
        a["problems"].as_array().expect("problems").iter().map(|p| p["failure"].clone()).collect();
    assert_eq!(failures, [Value::Null, Value::Null, Value::from("perception"), Value::from("reasoning")]);
    assert!(a["problems"][2]["unread"].as_str().expect("reason").contains("no Mermaid flowchart"));
    let md = std::fs::read_to_string(out.join("ablation.md")).expect("md");
    assert!(
        md.contains("## Perception or reasoning") && md.contains("| all | 4 | 1 | 1 | 1 | 1 | 50 % | 50 % |"),
        "{md}"
    );
    let html = std::fs::read_to_string(out.join("ablation.html")).expect("html");
    assert!(html.contains("basic/add_2</b> — perception failure") && html.contains("data:image/svg+xml;base64,"));
    assert!(html.contains("no Mermaid flowchart in the reply"), "the unreadable transcription says why");
    // A stricter threshold moves add_0/add_3 nowhere (F1 1.0) but the rule is stated.
    let run = flowbench(&[
        "ablation",
        "--bench",
        s(&dist),
        "--run",
        &c,
        "--run",
        &t,
        "-o",
        s(&out),
        "-q",
        "--read-threshold",
        "1.5",
    ]);
    assert!(!run.status.success(), "a threshold above 1 is refused");
}

/// `+cot`: `prompts` adds the reasoning instruction after the same prompt
/// (beside the image); `generate` keeps the whole reply and takes the
/// program from its LAST fenced block (the first holds a draft), and a
/// half-finished run resumes to the same bytes without asking twice;
/// `ablation` pairs the run with its plain twin. The echo server answers
/// the prompt, whose text is the title: a draft block, then the program.
#[test]
fn reasoning_first_runs_through_prompts_generate_and_ablation() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dist = dir.path().join("dist");
    let titles: Vec<String> = (0..4)
        .map(|i| {
            format!(
                "Reasoning.\n```python\ndef add_{i}(a, b):\n    return 0\n```\nSo:\n```python\ndef add_{i}(a, b):\n    return a + b + {i}\n```"
            )
        })
        .collect();
    write_dist(&dist, &titles);
    let templates = dir.path().join("templates");
    std::fs::create_dir_all(&templates).expect("mkdir");
    std::fs::write(templates.join("flowchart.txt"), "{title}").expect("template");
    std::fs::write(templates.join("reasoning.txt"), "Think step by step first.").expect("template");

    let requests = dir.path().join("requests.jsonl");
    let prompts = flowbench(&[
        "prompts",
        "--bench",
        s(&dist),
        "--condition",
        "flowchart",
        "flowchart+cot",
        "--templates",
        s(&templates),
        "-o",
        s(&requests),
    ]);
    assert!(prompts.status.success(), "{}", String::from_utf8_lossy(&prompts.stderr));
    let lines = jsonl(&requests);
    let text = |l: &Value| l["body"]["messages"][0]["content"][0]["text"].as_str().expect("text").to_string();
    assert_eq!(lines[4]["custom_id"], "flowchart+cot/basic/add_0#0");
    assert_eq!(text(&lines[4]), format!("{}\n\nThink step by step first.", text(&lines[0])));
    assert_eq!(lines[4]["body"]["messages"][0]["content"][1], lines[0]["body"]["messages"][0]["content"][1]);

    let server = Server::start(Duration::from_millis(200));
    let generate = |condition: &str, out: &Path| {
        flowbench(&[
            "generate",
            "--bench",
            s(&dist),
            "--condition",
            condition,
            "--templates",
            s(&templates),
            "--endpoint",
            &server.url,
            "--model",
            "m",
            "--cache",
            "none",
            "-q",
            "-o",
            s(out),
        ])
    };
    let (plain, cot) = (dir.path().join("plain.jsonl"), dir.path().join("cot.jsonl"));
    for (condition, out) in [("flowchart", &plain), ("flowchart+cot", &cot)] {
        let run = generate(condition, out);
        assert!(run.status.success(), "{condition}: {}", String::from_utf8_lossy(&run.stderr));
    }
    let samples = jsonl(&cot);
    assert_eq!(samples[1]["condition"], "flowchart+cot");
    assert_eq!(samples[1]["completion"], "def add_1(a, b):\n    return a + b + 1");
    assert!(samples[1]["response"].as_str().is_some_and(|r| r.contains("Reasoning.") && r.contains("return 0")));
    assert_eq!(jsonl(&plain)[1]["completion"], "def add_1(a, b):\n    return 0", "Code-Vision's first block");
    let whole = std::fs::read_to_string(&cot).expect("samples");
    std::fs::write(&cot, whole.lines().take(2).map(|l| format!("{l}\n")).collect::<String>()).expect("truncate");
    let asked = server.received.lock().expect("lock").len();
    let run = generate("flowchart+cot", &cot);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(server.received.lock().expect("lock").len(), asked + 2, "only the two lost samples asked again");
    assert_eq!(std::fs::read_to_string(&cot).expect("samples"), whole, "byte-identical to the uninterrupted run");

    let report = dir.path().join("report");
    let run = flowbench(&[
        "ablation",
        "--bench",
        s(&dist),
        "--run",
        &format!("plain={}", s(&plain)),
        "--run",
        &format!("cot={}", s(&cot)),
        "-o",
        s(&report),
        "-q",
        "-j",
        "2",
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("ablation.json")).expect("json")).expect("json");
    let pair = &json["ablation"]["reasoning"][0];
    assert_eq!((pair["model"].as_str(), pair["condition"].as_str()), (Some("m"), Some("flowchart")));
    assert_eq!((pair["plain_pass_at_1"].as_f64(), pair["cot_pass_at_1"].as_f64()), (Some(0.0), Some(100.0)));
    assert_eq!(pair["delta"]["only_condition"], 4);
    let md = std::fs::read_to_string(report.join("ablation.md")).expect("md");
    assert!(
        md.contains("## Reasoning first") && md.contains("| m | flowchart | plain | cot | 4 | 0.0 | 100.0 | +100.0 |"),
        "{md}"
    );
}

/// `flowchart-then-code --coder`: step 1 goes to the evaluated model's
/// endpoint, step 2 to the coder's, the samples name both; a resumed run
/// asks no transcription again and ends byte-identical to an uninterrupted
/// one. A coder without an endpoint, or with a one-step condition, is
/// refused naming the option. Offline, the stand-ins fill the section that
/// sets the coder on a reading beside the coder on the true Mermaid.
#[test]
fn a_cross_model_two_step_codes_with_the_coder_and_resumes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dist = dir.path().join("dist");
    let titles: Vec<String> = (0..4)
        .map(|i| format!("Seen:\n```mermaid\nflowchart TD\n  S[start] --> R[\"return a + b + {i}\"]\n```"))
        .collect();
    write_dist(&dist, &titles);
    let templates = dir.path().join("templates");
    std::fs::create_dir_all(&templates).expect("mkdir");
    std::fs::write(templates.join("transcribe.txt"), "{title}").expect("template");
    std::fs::write(templates.join("mermaid.txt"), "code for:\n{mermaid}").expect("template");
    let (reader, coder) = (Server::start(Duration::from_millis(200)), Server::start(Duration::from_millis(200)));
    let generate_as = |condition: &str, out: &Path, extra: &[&str]| {
        let mut args = vec![
            "generate",
            "--bench",
            s(&dist),
            "--condition",
            condition,
            "--templates",
            s(&templates),
            "--model",
            "reader-model",
            "--cache",
            "none",
            "-q",
            "-o",
            s(out),
        ];
        args.extend_from_slice(extra);
        flowbench(&args)
    };
    let generate = |out: &Path, extra: &[&str]| generate_as("flowchart-then-code", out, extra);
    let coded = ["--endpoint", &reader.url, "--coder", "coder-model", "--coder-endpoint", &coder.url];

    let refused = generate(&dir.path().join("no.jsonl"), &["--coder", "coder-model"]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && err.contains("--coder coder-model needs an endpoint"), "{err}");
    let refused = generate_as("mermaid", &dir.path().join("no.jsonl"), &coded);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && err.contains("only flowchart-then-code has a second step"), "{err}");

    let out = dir.path().join("cross.jsonl");
    let run = generate(&out, &coded);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let samples = jsonl(&out);
    assert_eq!(samples.len(), 4);
    for l in &samples {
        assert_eq!((l["model"].as_str(), l["coder"].as_str()), (Some("reader-model"), Some("coder-model")));
        assert_eq!(l["steps"][1]["request"]["model"], "coder-model");
        assert!(l["response"].as_str().is_some_and(|r| r.starts_with("echo: code for:\nflowchart TD")), "{l}");
    }
    let models = |server: &Server| -> Vec<String> {
        server.received.lock().expect("lock").iter().map(|b| b["model"].as_str().unwrap_or("").to_string()).collect()
    };
    assert_eq!(models(&reader), vec!["reader-model"; 4], "step 1 only, to the evaluated model");
    assert_eq!(models(&coder), vec!["coder-model"; 4], "step 2 only, to the coder");

    let whole = std::fs::read_to_string(&out).expect("samples");
    std::fs::write(&out, whole.lines().take(2).map(|l| format!("{l}\n")).collect::<String>()).expect("truncate");
    let run = generate(&out, &coded);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(models(&reader).len(), 4, "no transcription asked again");
    assert_eq!(models(&coder).len(), 6, "only the two lost samples coded again");
    assert_eq!(std::fs::read_to_string(&out).expect("samples"), whole, "byte-identical to the uninterrupted run");

    // Offline: the noisy transcriber reads, the transcriber codes (chart2py).
    let (cross, truth) = (dir.path().join("offline-cross.jsonl"), dir.path().join("offline-truth.jsonl"));
    let run = flowbench(&[
        "generate",
        "--bench",
        s(&dist),
        "--condition",
        "flowchart-then-code",
        "--model",
        "noisy-transcriber",
        "--coder",
        "transcriber",
        "-o",
        s(&cross),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let run = flowbench(&[
        "generate",
        "--bench",
        s(&dist),
        "--condition",
        "mermaid",
        "--model",
        "transcriber",
        "-o",
        s(&truth),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let report = dir.path().join("report");
    let run = flowbench(&[
        "ablation",
        "--bench",
        s(&dist),
        "--run",
        &format!("truth={}", s(&truth)),
        "--run",
        &format!("cross={}", s(&cross)),
        "-o",
        s(&report),
        "-q",
        "-j",
        "2",
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("ablation.json")).expect("json")).expect("json");
    let gap = &json["ablation"]["coders"][0];
    assert_eq!((gap["model"].as_str(), gap["coder"].as_str()), (Some("noisy-transcriber"), Some("transcriber")));
    assert_eq!(gap["on_true_mermaid"].as_f64(), Some(100.0), "chart2py codes every true chart");
    let read = gap["on_transcriptions"].as_f64().expect("rate");
    assert_eq!(gap["delta"]["delta"].as_f64(), Some(read - 100.0));
    assert_eq!(json["ablation"]["conditions"][1]["table"]["basic"]["all"]["pass_at_1"].as_f64(), Some(read));
}
