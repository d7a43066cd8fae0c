//! `flowbench ablation --demo`: the whole ablation, offline, in one
//! command, on the embedded bank. Each step is the real subcommand (parsed
//! from the command line it prints, then dispatched), so the demo shows
//! exactly what a user would type and cannot drift from it:
//! `variants` → `build` → `prompts` → `generate` with the stand-ins →
//! `ablation`. Besides the code stand-ins, the two transcribers run
//! `transcribe` and `flowchart-then-code`, so the report has the
//! perception-or-reasoning attribution (the noisy one misreads, and codes
//! what it misread). The bank is built in four renderings of
//! `styles/robustness.toml` and the `fragile` stand-in, thrown by some
//! renderings on stated problems, runs under each, so the report has the
//! invariance section. The `reasoner` stand-in runs `flowchart` and
//! `flowchart+cot` (it does better reasoning first: the reasoning section),
//! and the noisy transcriber's readings are coded by the `transcriber`
//! stand-in (`--coder`) beside that coder's own `mermaid` run: the
//! cross-model section, perception in code terms.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;

use super::ablation::AblationArgs;

/// The offline stand-ins, baseline first: always right, right on a fixed
/// subset of problems (see `generate`'s `mixed`), never right, and the
/// reference of the *original* problem on a variant (the famous answer).
const STAND_INS: [&str; 4] = ["reference", "mixed", "starter", "original"];

/// Bank problems the demo makes variants of (every kind, one each): two
/// quick ones, so the memorisation section has originals and variants.
const VARIANT_OF: [&str; 2] = ["alternating_sum", "caesar_shift"];

/// The transcribing stand-ins, each run under both conditions below: one
/// reads every chart right, one makes a seeded misreading per chart.
const TRANSCRIBERS: [&str; 2] = ["transcriber", "noisy-transcriber"];
const TRANSCRIBER_CONDITIONS: [&str; 2] = ["transcribe", "flowchart-then-code"];

/// The renderings the bank is built in (styles of `styles/robustness.toml`,
/// the default first) and the `fragile` stand-in is run under: `flowchart`
/// for the default, `flowchart@STYLE` for the others. Its stated failures
/// (`generate`'s `FRAGILE_FAILS`) make the invariance section's
/// render-sensitive problems known in advance.
const RENDERINGS: [&str; 4] = ["default", "handDrawn", "scan-heavy", "LR"];
const FRAGILE: &str = "fragile";

/// The stand-in that does better when asked to reason first.
const REASONER: &str = "reasoner";

/// The cross-model two-step: `READER` transcribes, `CODER` codes from its
/// Mermaid (and, alone, from the true Mermaid).
const READER: &str = "noisy-transcriber";
const CODER: &str = "transcriber";

/// The embedded bank: `problems/` here, else the checkout flowbench was
/// built from (so the demo works from any directory of a source install).
fn bank() -> anyhow::Result<PathBuf> {
    let here = PathBuf::from("problems");
    if crate::bank::problem_dirs(&here).is_ok_and(|d| !d.is_empty()) {
        return Ok(here);
    }
    let built_from = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    if crate::bank::problem_dirs(&built_from).is_ok_and(|d| !d.is_empty()) {
        return Ok(built_from);
    }
    anyhow::bail!("no problem bank: run the demo from a flowbench checkout (it reads problems/)")
}

/// Runs `flowbench ARGS…` as the CLI would, after printing it.
fn step(args: &[String]) -> anyhow::Result<ExitCode> {
    eprintln!("demo: flowbench {}", args.join(" "));
    let matches = super::command()
        .try_get_matches_from(std::iter::once("flowbench".to_string()).chain(args.iter().cloned()))
        .map_err(|e| anyhow::anyhow!("demo step `flowbench {}`: {e}", args.join(" ")))?;
    let cli = <super::Cli as clap::FromArgMatches>::from_arg_matches(&matches)?;
    super::dispatch(cli.command)
}

/// A step that must succeed for the next one to mean anything.
fn required(args: Vec<String>) -> anyhow::Result<()> {
    let code = step(&args)?;
    if code != ExitCode::SUCCESS {
        anyhow::bail!("demo step `flowbench {}` failed (see above); stopping", args.join(" "));
    }
    Ok(())
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

/// Makes variants of [`VARIANT_OF`] under `OUTPUT/variants` (kept when an
/// earlier run made them): the second bank `build` reads.
fn make_variants(args: &AblationArgs, bank: &Path, out: &Path) -> anyhow::Result<PathBuf> {
    let variants = out.join("variants");
    let mut make = strings(&["variants"]);
    make.extend(VARIANT_OF.iter().map(|p| path(&bank.join(p))));
    make.extend(["--kinds".into(), "rename,constants,logic".into(), "-o".into(), path(&variants)]);
    if let Some(j) = args.jobs {
        make.extend(["-j".into(), j.to_string()]);
    }
    if let Some(p) = &args.python {
        make.extend(["--python".into(), path(p)]);
    }
    make.push("-q".into());
    // Resumes like every other step: variants made by an earlier run are
    // kept (re-proving them would only rewrite their measured times).
    if variants.join("variants.json").is_file() {
        eprintln!("demo: variants already made ({}), kept", variants.display());
    } else {
        required(make)?;
    }
    Ok(variants)
}

/// Writes the [`RENDERINGS`] entries of `styles/robustness.toml` (as
/// written there) to `OUTPUT/styles.toml`, for `build --styles`.
fn renderings_file(out: &Path) -> anyhow::Result<PathBuf> {
    let sweep = crate::bank::styles::ROBUSTNESS_SWEEP;
    let name_of = |block: &str| {
        block.lines().find_map(|l| l.trim().strip_prefix("name = \"")?.strip_suffix('"').map(str::to_string))
    };
    let mut text = String::from("# The demo's renderings: these entries of styles/robustness.toml.\n");
    for block in sweep.split("[[style]]").skip(1) {
        if name_of(block).is_some_and(|n| RENDERINGS.contains(&n.as_str())) {
            text.push_str("\n[[style]]");
            text.push_str(block.trim_end());
            text.push('\n');
        }
    }
    let parsed = crate::render::style::parse_sweep(&text).map_err(|e| anyhow::anyhow!("the demo's styles: {e}"))?;
    let mut names: Vec<&str> = parsed.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    let mut wanted = RENDERINGS.to_vec();
    wanted.sort_unstable();
    anyhow::ensure!(names == wanted, "styles/robustness.toml lacks one of the demo's renderings {RENDERINGS:?}");
    let file = out.join("styles.toml");
    crate::outfile::write_atomic(&file, text.as_bytes()).with_context(|| format!("writing {}", file.display()))?;
    Ok(file)
}

/// Says which problems `fragile` fails under which rendering: what the
/// invariance section must report.
fn announce_fragile() {
    let fails: Vec<String> = crate::ablation::stand_in::FRAGILE_FAILS
        .iter()
        .map(|(rendering, task)| match *rendering {
            "default" => format!("{task} under flowchart"),
            style => format!("{task} under flowchart@{style}"),
        })
        .collect();
    eprintln!(
        "demo: the {FRAGILE} stand-in answers the reference except: {} (so exactly these are render-sensitive)",
        fails.join(", ")
    );
}

fn value_name<T: clap::ValueEnum>(v: &T) -> String {
    v.to_possible_value().map(|p| p.get_name().to_string()).unwrap_or_default()
}

pub fn run(args: &AblationArgs) -> anyhow::Result<ExitCode> {
    let out = &args.output;
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let dist = out.join("dist");
    let samples = out.join("samples");
    std::fs::create_dir_all(&samples).with_context(|| format!("creating {}", samples.display()))?;

    let bank = bank()?;
    let variants = make_variants(args, &bank, out)?;
    let mut build = strings(&["build", "--problems"]);
    build.extend([path(&bank), "--problems".into(), path(&variants), "-o".into(), path(&dist)]);
    build.extend(["--styles".into(), path(&renderings_file(out)?)]);
    extend_sandbox_options(args, &mut build);
    required(build)?;
    write_prompts(&dist, out)?;

    let mut ablation = strings(&["ablation", "--bench"]);
    ablation.push(path(&dist));
    for (run, file) in generate_samples(&dist, &samples)? {
        ablation.extend(["--run".into(), format!("{run}={}", path(&file))]);
    }
    let k: Vec<String> = args.k.iter().map(usize::to_string).collect();
    ablation.extend(["-o".into(), path(out), "--k".into(), k.join(",")]);
    ablation.extend(["--mode".into(), value_name(&args.mode), "--clock".into(), value_name(&args.clock)]);
    ablation.extend(["--timeout".into(), args.timeout.to_string()]);
    extend_sandbox_options(args, &mut ablation);
    if args.quiet {
        ablation.push("-q".into());
    }
    step(&ablation)
}

/// `-j` and `--python` as the demo was given them.
fn extend_sandbox_options(args: &AblationArgs, step: &mut Vec<String>) {
    if let Some(j) = args.jobs {
        step.extend(["-j".into(), j.to_string()]);
    }
    if let Some(p) = &args.python {
        step.extend(["--python".into(), path(p)]);
    }
}

/// The requests a real model would get (OpenAI batch file), for a look.
fn write_prompts(dist: &Path, out: &Path) -> anyhow::Result<()> {
    let mut prompts = strings(&["prompts", "--bench"]);
    prompts.extend([
        path(dist),
        "--condition".into(),
        "flowchart".into(),
        "mermaid".into(),
        "text".into(),
        "signature".into(),
        "transcribe".into(),
        "flowchart-then-code".into(),
        "flowchart+cot".into(),
    ]);
    prompts.extend(["-o".into(), path(&out.join("requests.jsonl"))]);
    required(prompts)
}

/// Every stand-in's samples under `samples/`: the code stand-ins, `fragile`
/// under each rendering, the transcribers under both their conditions, the
/// reasoner with and without `+cot`, and the cross-model two-step with its
/// coder's `mermaid` run. Returns each run's name and file, in the
/// report's order.
fn generate_samples(dist: &Path, samples: &Path) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let mut runs = Vec::new();
    let mut generate = |run: String, condition: String, model: &str, more: &[&str]| -> anyhow::Result<()> {
        let file = samples.join(format!("{run}.jsonl"));
        let mut generate = strings(&["generate", "--bench"]);
        generate.extend([path(dist), "--condition".into(), condition, "--model".into(), model.into()]);
        generate.extend(strings(more));
        generate.extend(["-o".into(), path(&file)]);
        required(generate)?;
        runs.push((run, file));
        Ok(())
    };
    for model in STAND_INS {
        generate(model.to_string(), "flowchart".into(), model, &[])?;
    }
    announce_fragile();
    for style in RENDERINGS {
        let (condition, run) = match style {
            "default" => ("flowchart".to_string(), FRAGILE.to_string()),
            style => (format!("flowchart@{style}"), format!("{FRAGILE}@{style}")),
        };
        generate(run, condition, FRAGILE, &[])?;
    }
    for model in TRANSCRIBERS {
        for condition in TRANSCRIBER_CONDITIONS {
            generate(format!("{model}.{condition}"), condition.to_string(), model, &[])?;
        }
    }
    generate(REASONER.into(), "flowchart".into(), REASONER, &[])?;
    generate(format!("{REASONER}+cot"), "flowchart+cot".into(), REASONER, &[])?;
    generate(format!("{CODER}.mermaid"), "mermaid".into(), CODER, &[])?;
    generate(format!("{READER}.coded-by-{CODER}"), "flowchart-then-code".into(), READER, &["--coder", CODER])?;
    Ok(runs)
}
