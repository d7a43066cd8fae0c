//! `flowbench export`: a built benchmark for the harnesses (Hugging Face
//! datasets, inspect_ai, VLMEvalKit); `flowbench-export` does the work, the
//! prompt text is `prompts`' templates.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use crate::ablation::prompts::{Condition as PromptCondition, DEFAULT_TEMPLATES, fill};
use crate::bank::dist_record::{DistRecord, RecordStyle};
use flowbench_export::{Condition, Options, Target};

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The built benchmark directory (`flowbench build`'s dist/).
    dist: PathBuf,
    /// The harness: hf (parquet + dataset card), inspect (an inspect_ai
    /// task), vlmevalkit (a TSV + dataset class).
    #[arg(long, value_enum)]
    to: To,
    /// Output directory.
    #[arg(short, long)]
    output: PathBuf,
    /// The image style (a style id of the dist) [default: its first].
    #[arg(long)]
    style: Option<String>,
    /// What the prompt shows: the flowchart image, the Mermaid text, or the
    /// description.
    #[arg(long, value_enum, default_value_t = Cond::Flowchart)]
    condition: Cond,
    /// Write into a non-empty output directory.
    #[arg(long)]
    force: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum To {
    Hf,
    Inspect,
    Vlmevalkit,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Cond {
    Flowchart,
    Mermaid,
    Text,
}

pub fn run(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let target = match args.to {
        To::Hf => Target::Hf,
        To::Inspect => Target::Inspect,
        To::Vlmevalkit => Target::Vlmevalkit,
    };
    let condition = match args.condition {
        Cond::Flowchart => Condition::Flowchart,
        Cond::Mermaid => Condition::Mermaid,
        Cond::Text => Condition::Text,
    };
    let opts = Options {
        dist: args.dist,
        out: args.output,
        target,
        style: args.style,
        condition,
        force: args.force,
        prompt: &prompt_text,
    };
    let done = flowbench_export::export(&opts)?;
    for file in &done.files {
        println!("{}", opts.out.join(file).display());
    }
    eprintln!(
        "exported {} problems ({} images, style {}) to {}",
        done.rows,
        done.images,
        done.style,
        opts.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The text `flowbench prompts` sends under `condition` (its built-in
/// templates; the image goes beside it).
fn prompt_text(record: &DistRecord, condition: Condition) -> String {
    let (condition, mermaid) = match condition {
        Condition::Flowchart => (PromptCondition::Flowchart(None), ""),
        Condition::Mermaid => (PromptCondition::Mermaid { verbatim: false }, record.mermaid_canonical.as_str()),
        Condition::Text => (PromptCondition::Text, ""),
    };
    let name = condition.template_name(record.call_style == RecordStyle::Stdio);
    let template = DEFAULT_TEMPLATES.iter().find(|(n, _)| *n == name).map_or("", |(_, t)| *t);
    fill(template, record, mermaid)
}
