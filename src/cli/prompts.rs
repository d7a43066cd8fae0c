//! `flowbench prompts`: the requests of one or more conditions as an OpenAI
//! batch input file (runnable by OpenAI's batch API and vLLM/SGLang batch
//! runners), or the prompt templates written out for editing.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;

use crate::ablation::prompts::{Condition, Sampling, Templates, batch_line, build_requests};
use crate::bank::dist_record::read_dist;

#[derive(Debug, Args)]
pub struct PromptsArgs {
    /// The built benchmark directory.
    #[arg(long, default_value = "dist", required_unless_present = "write_templates")]
    bench: PathBuf,
    /// flowchart, flowchart@STYLE, mermaid, mermaid@verbatim, text,
    /// signature (the starter code alone), transcribe, transcribe@STYLE,
    /// flowchart-then-code or flowchart-then-code@STYLE (repeatable; for
    /// the two-step condition only step 1, ids `…#i/transcribe`: step 2
    /// is built from its replies by `generate`); a code condition followed
    /// by +cot (flowchart+cot, …) asks the model to reason step by step
    /// first.
    #[arg(long, num_args = 1.., default_value = "flowchart")]
    condition: Vec<Condition>,
    /// Batch input JSONL to write.
    #[arg(short, long, default_value = "requests.jsonl")]
    output: PathBuf,
    /// Directory with edited templates (flowchart.txt, mermaid.txt, text.txt,
    /// signature.txt, transcribe.txt; for whole programs flowchart-program.txt,
    /// mermaid-program.txt, text-program.txt, signature-program.txt; and
    /// reasoning.txt, the +cot conditions' instruction).
    #[arg(long)]
    templates: Option<PathBuf>,
    /// Write the built-in templates into DIR for editing, and stop.
    #[arg(long, value_name = "DIR")]
    write_templates: Option<PathBuf>,
    #[command(flatten)]
    sampling: SamplingArgs,
}

/// Sampling options shared with `generate` (Code-Vision's defaults).
#[derive(Debug, Args, Clone)]
pub struct SamplingArgs {
    /// Model name put in every request body.
    #[arg(long, default_value = "model")]
    pub model: String,
    /// Samples per problem.
    #[arg(short = 'n', long, default_value_t = 1)]
    pub samples: usize,
    #[arg(long, default_value_t = 0.2)]
    pub temperature: f64,
    #[arg(long, default_value_t = 0.95)]
    pub top_p: f64,
    #[arg(long, default_value_t = 1024)]
    pub max_tokens: u32,
}

impl SamplingArgs {
    pub fn sampling(&self) -> Sampling {
        Sampling {
            model: self.model.clone(),
            temperature: self.temperature,
            top_p: self.top_p,
            max_tokens: self.max_tokens,
        }
    }
}

pub fn run(args: PromptsArgs) -> anyhow::Result<ExitCode> {
    if let Some(dir) = &args.write_templates {
        for path in Templates::write_defaults(dir)? {
            eprintln!("wrote {}", path.display());
        }
        return Ok(ExitCode::SUCCESS);
    }
    let (records, diags) = read_dist(&args.bench)?;
    for d in &diags {
        eprintln!("warning: {d}");
    }
    let templates = Templates::load(args.templates.as_deref())?;
    let mut file = std::io::BufWriter::new(
        std::fs::File::create(&args.output).with_context(|| format!("creating {}", args.output.display()))?,
    );
    let mut count = 0;
    for condition in &args.condition {
        let requests = build_requests(
            &records,
            &args.bench,
            condition,
            &templates,
            &args.sampling.sampling(),
            args.sampling.samples.max(1),
        )?;
        for r in &requests {
            writeln!(file, "{}", batch_line(r))?;
        }
        count += requests.len();
    }
    file.flush().with_context(|| format!("writing {}", args.output.display()))?;
    eprintln!("{count} requests for {} problems → {}", records.len(), args.output.display());
    Ok(if diags.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
