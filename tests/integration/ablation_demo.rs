//! `flowbench ablation --demo`: offline, end to end on the embedded bank in
//! one command — variants of two problems, build, prompts, the stand-ins,
//! judging, reports — with the stand-ins' known pass rates, and
//! byte-identical reports when run again (the second run resumes every
//! step).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn demo(out: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .args(["ablation", "--demo", "-q", "-o"])
        .arg(out)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("flowbench runs")
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).lines().count()
}

#[test]
#[ignore = "heavy: the whole offline pipeline (variants, build, stand-ins, judging, reports)"]
fn demo_builds_generates_judges_and_reports_offline() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("demo");
    let run = demo(&out);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "demo failed: {err}");
    let originals =
        flowbench::bank::problem_dirs(&Path::new(env!("CARGO_MANIFEST_DIR")).join("problems")).expect("bank").len();
    assert!(originals >= 5);
    let variants = flowbench::bank::problem_dirs(&out.join("variants")).expect("variants").len();
    assert!(variants >= 2, "the demo makes variants: {variants}");
    let bank = originals + variants;
    // Each step ran, and says which command it was.
    for step in [
        "demo: flowbench variants",
        "demo: flowbench build",
        "demo: flowbench prompts",
        "demo: flowbench generate",
        "demo: flowbench ablation",
    ] {
        assert!(err.contains(step), "missing step {step}: {err}");
    }
    assert!(out.join("dist/manifest.json").is_file());
    assert_eq!(
        lines(&out.join("requests.jsonl")),
        7 * bank,
        "flowchart, mermaid, text, signature, transcribe, flowchart-then-code (step 1) and flowchart+cot requests"
    );
    for model in ["reference", "mixed", "starter", "original"] {
        assert_eq!(lines(&out.join(format!("samples/{model}.jsonl"))), bank, "{model} samples");
        assert_eq!(lines(&out.join(format!("results/{model}.jsonl"))), bank, "{model} judged");
    }
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("ablation.json")).expect("json")).expect("json");
    let problems = report["problems"].as_array().expect("problems");
    assert_eq!(problems.len(), bank);
    let is_variant = |p: &&Value| p["task_id"].as_str().is_some_and(|id| id.contains('~'));
    let solved = |model: &str, variant: bool| {
        problems.iter().filter(|p| is_variant(p) == variant && p["conditions"][model]["c"].as_u64() == Some(1)).count()
    };
    assert_eq!(
        solved("reference", false) + solved("reference", true),
        bank,
        "the reference stand-in solves every problem"
    );
    assert_eq!(solved("starter", false) + solved("starter", true), 0, "bare starter code solves none");
    let mixed = solved("mixed", false) + solved("mixed", true);
    assert!(mixed > 0 && mixed < bank, "mixed is right on a strict subset: {mixed}/{bank}");
    // The famous answer: every original, no variant; and each of its
    // variant failures is one that passes the original's tests.
    assert_eq!((solved("original", false), solved("original", true)), (originals, 0));
    let gaps = report["ablation"]["memorisation"].as_array().expect("memorisation gaps");
    let famous = |run: &str| {
        let g = gaps.iter().find(|g| g["run"] == run).unwrap_or_else(|| panic!("no gap for {run}"));
        (g["famous"]["failed"].as_u64(), g["famous"]["answered_original"].as_u64())
    };
    let v = Some(variants as u64);
    assert_eq!(famous("original"), (v, v), "every failure of `original` answered the famous problem");
    assert_eq!(famous("reference"), (Some(0), Some(0)));
    assert_eq!(famous("starter"), (v, Some(0)), "starter code answers no problem");
    let md = std::fs::read_to_string(out.join("ablation.md")).expect("md");
    assert!(md.contains("answered the famous problem"), "{md}");
    let html = std::fs::read_to_string(out.join("ablation.html")).expect("html");
    assert!(html.contains("<svg") && html.contains("data:image/png;base64,"), "charts and images in the HTML report");
    // reference and starter disagree on every problem: each chart is shown unfolded.
    assert!(html.contains("<details open><summary>flowchart</summary>"), "the disputed problems' charts are unfolded");
    // The paired sections say in the page what they say in the Markdown.
    for title in [
        "Following the chart or the famous problem",
        "Reasoning first",
        "Perception in code terms: one coder on each model's reading",
    ] {
        assert!(md.contains(&format!("## {title}")), "{title} in the Markdown");
        assert!(html.contains(&format!("<h2>{title}</h2>")), "{title} in the HTML");
    }
    for name in ["ablation.md", "ablation.csv"] {
        assert!(out.join(name).is_file(), "{name}");
    }
    // The transcribers: both runs of each paired, the noisy one's misreadings
    // counted as perception failures and drawn side by side.
    let pairs = report["attribution"]["pairs"].as_array().expect("attribution pairs");
    let pair = |model: &str| pairs.iter().find(|p| p["model"] == model).expect("a pair per transcriber");
    assert_eq!(pair("transcriber")["table"]["all"]["all"]["table"]["read_wrong_coded_wrong"], 0, "nothing misread");
    let noisy = &pair("noisy-transcriber")["table"]["all"]["all"];
    assert!(noisy["table"]["read_wrong_coded_wrong"].as_u64() > Some(0), "{noisy}");
    assert_eq!(noisy["problems"].as_u64(), Some(bank as u64));
    assert!(
        html.contains("perception failure") && html.contains("data:image/svg+xml;base64,"),
        "failed problems drawn side by side"
    );

    invariance_section_reports_exactly_the_stated_sensitive_problems(&report, &err, &html, bank);

    // Reasoning first: the reasoner is `mixed` plainly, the reference with
    // +cot, so the pair's Δ is exactly what mixed leaves unsolved.
    assert_eq!(solved("reasoner", false) + solved("reasoner", true), mixed, "plainly the reasoner is mixed");
    let cot = &report["ablation"]["reasoning"][0];
    assert_eq!((cot["plain_run"].as_str(), cot["cot_run"].as_str()), (Some("reasoner"), Some("reasoner+cot")));
    assert_eq!(cot["cot_pass_at_1"].as_f64(), Some(100.0));
    assert_eq!(cot["delta"]["only_condition"].as_u64(), Some((bank - mixed) as u64));
    assert_eq!(cot["delta"]["only_baseline"].as_u64(), Some(0));
    assert!(md.contains("## Reasoning first"), "{md}");
    // One coder (chart2py) on the noisy reading and on the true Mermaid: the
    // misreadings that change behaviour are the gap.
    let coder = &report["ablation"]["coders"][0];
    assert_eq!((coder["model"].as_str(), coder["coder"].as_str()), (Some("noisy-transcriber"), Some("transcriber")));
    assert_eq!(coder["mermaid_run"].as_str(), Some("transcriber.mermaid"));
    let (read, truth) =
        (coder["on_transcriptions"].as_f64().expect("rate"), coder["on_true_mermaid"].as_f64().expect("rate"));
    assert!(read < truth, "the noisy reading loses problems: {read} vs {truth}");
    assert!(md.contains("## Perception in code terms"), "{md}");

    // Again: every step resumes, the reports are byte-identical.
    let before: Vec<Vec<u8>> = ["ablation.md", "ablation.json", "ablation.csv", "ablation.html"]
        .iter()
        .map(|f| std::fs::read(out.join(f)).expect("report"))
        .collect();
    let again = demo(&out);
    assert!(again.status.success(), "second demo run failed: {}", String::from_utf8_lossy(&again.stderr));
    let after: Vec<Vec<u8>> = ["ablation.md", "ablation.json", "ablation.csv", "ablation.html"]
        .iter()
        .map(|f| std::fs::read(out.join(f)).expect("report"))
        .collect();
    assert!(before == after, "reports differ between runs");
}

/// The `fragile` stand-in's stated failures (`generate`'s doc, printed by
/// the demo): digit_sum under the default rendering, gcd under handDrawn and
/// scan-heavy, is_prime under scan-heavy; it solves everything else.
fn invariance_section_reports_exactly_the_stated_sensitive_problems(
    report: &Value,
    err: &str,
    html: &str,
    bank: usize,
) {
    assert!(
        err.contains("fragile stand-in answers the reference except: digit_sum under flowchart, gcd under flowchart@handDrawn, gcd under flowchart@scan-heavy, is_prime under flowchart@scan-heavy"),
        "the demo states the rule: {err}"
    );
    let models = report["invariance"]["models"].as_array().expect("invariance section");
    assert_eq!(models.len(), 1, "only fragile has styled runs: {models:?}");
    let m = &models[0];
    assert_eq!(m["model"], "fragile");
    let conditions: Vec<&str> =
        m["renderings"].as_array().expect("renderings").iter().filter_map(|r| r["condition"].as_str()).collect();
    assert_eq!(conditions, ["flowchart", "flowchart@handDrawn", "flowchart@scan-heavy", "flowchart@LR"]);
    assert_eq!(m["render_sensitive"], serde_json::json!(["digit_sum", "gcd", "is_prime"]));
    let counts = (&m["problems"], &m["solved_under_all"], &m["solved_under_some"], &m["solved_under_none"]);
    assert_eq!(
        (counts.0.as_u64(), counts.1.as_u64(), counts.2.as_u64(), counts.3.as_u64()),
        (Some(bank as u64), Some(bank as u64 - 3), Some(3), Some(0))
    );
    // Per factor, the discordant pairs the rule implies: (only default, only style).
    let factors = m["factors"].as_array().expect("factors");
    let discordant: Vec<(&str, u64, u64)> = factors
        .iter()
        .map(|f| {
            let d = &f["delta"];
            (
                f["style"].as_str().unwrap_or(""),
                d["only_baseline"].as_u64().unwrap(),
                d["only_condition"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(discordant, [("handDrawn", 1, 1), ("scan-heavy", 2, 1), ("LR", 0, 1)]);
    // The HTML shows each sensitive problem in each of the four renderings.
    assert!(html.contains("id=\"invariance\""), "the section is in the HTML");
    for task in ["digit_sum", "gcd", "is_prime"] {
        for condition in ["flowchart", "flowchart@handDrawn", "flowchart@scan-heavy", "flowchart@LR"] {
            // A scan is written (and inlined) as the JPEG a scanner makes.
            let mime = if condition.ends_with("scan-heavy") { "jpeg" } else { "png" };
            let img = format!("<img alt=\"{task} as {condition}\" src=\"data:image/{mime};base64,");
            assert!(html.contains(&img), "{task} drawn as {condition}");
        }
    }
}
