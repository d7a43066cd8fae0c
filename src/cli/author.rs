//! `flowbench author DIR --endpoint URL --model NAME`: have an LLM draw a
//! problem's flowchart from its statement and solution, repairing it with
//! flowbench's diagnostics until it parses, lints clean and is faithful to
//! the solution (`check --against`). Only such a chart is written.
//!
//! Exit codes: 0 chart written, 1 no valid chart after every round (nothing
//! written), 2 any other error (unreadable problem, no answer from the API).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;

use crate::author::session::{AUTHOR_TEMPLATE, Outcome, Problem, REPAIR_TEMPLATE, SessionError, Settings, author};
use crate::client::retry::RetryPolicy;
use crate::client::{Cache, ChatClient, ClientConfig};

#[derive(Debug, clap::Args)]
pub struct AuthorArgs {
    /// Problem directory with `description.md` and `solution.py`.
    pub dir: PathBuf,
    /// Base URL of an OpenAI-compatible API (e.g. http://127.0.0.1:8000/v1).
    #[arg(long)]
    pub endpoint: String,
    /// Model name sent with every request.
    #[arg(long)]
    pub model: String,
    /// Environment variable holding the API key (unset: no key sent).
    #[arg(long, default_value = "OPENAI_API_KEY")]
    pub api_key_env: String,
    /// The function to draw [default: problem.json's `entry_point`, else
    /// the first `Solution` method or the last top-level function].
    #[arg(long)]
    pub entry: Option<String>,
    /// Repair rounds after the first answer.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
    /// First prompt template (`{description}`, `{solution}`, `{entry_point}`)
    /// [default: the built-in one; `--print-templates` shows it].
    #[arg(long, value_name = "FILE")]
    pub template: Option<PathBuf>,
    /// Repair prompt template (`{diagnostics}`).
    #[arg(long, value_name = "FILE")]
    pub repair_template: Option<PathBuf>,
    /// Print the built-in templates and exit.
    #[arg(long)]
    pub print_templates: bool,
    /// Where the chart goes [default: DIR/flowchart.mmd].
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Replace an existing chart that is not `new`'s placeholder.
    #[arg(long)]
    pub force: bool,
    /// The log of every round, appended to [default: DIR/author.log.jsonl].
    #[arg(long)]
    pub log: Option<PathBuf>,
    #[arg(long, default_value_t = 0.2)]
    pub temperature: f64,
    #[arg(long, default_value_t = 0.95)]
    pub top_p: f64,
    #[arg(long, default_value_t = 4096)]
    pub max_tokens: u32,
    /// Seconds one attempt may take.
    #[arg(long, default_value_t = 300.0)]
    pub timeout: f64,
    /// Retries per request on 429/5xx/timeouts/dropped connections.
    #[arg(long, default_value_t = 8)]
    pub retries: u32,
    /// Answer cache directory (`none` to disable).
    #[arg(long, default_value = ".flowbench/cache")]
    pub cache: String,
    /// No progress line.
    #[arg(short, long)]
    pub quiet: bool,
}

/// A statement still `new`'s template: the model would read a placeholder.
fn refuse_template(description: &str, path: &Path) -> anyhow::Result<()> {
    if description.contains(crate::bank::problem_check::TEMPLATE_MARKER) {
        anyhow::bail!("{}: still `new`'s template; write the statement first (the model reads it)", path.display());
    }
    Ok(())
}

pub fn run(args: AuthorArgs) -> anyhow::Result<ExitCode> {
    if args.print_templates {
        print!("{AUTHOR_TEMPLATE}\n----- repair -----\n{REPAIR_TEMPLATE}");
        return Ok(ExitCode::SUCCESS);
    }
    let solution_path = args.dir.join(crate::bank::SOLUTION);
    let description_path = args.dir.join("description.md");
    let output = args.output.clone().unwrap_or_else(|| args.dir.join(crate::bank::FLOWCHART));
    let log_path = args.log.clone().unwrap_or_else(|| args.dir.join("author.log.jsonl"));
    refuse_overwrites(&args, &output, &log_path, &[&solution_path, &description_path])?;
    let solution = read(&solution_path)?;
    let description = read(&description_path)?;
    refuse_template(&description, &description_path)?;
    let entry = args.entry.clone().or_else(|| entry_point(&args.dir));
    let program = match crate::author::read_program(&solution, entry.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            let at = if e.line > 0 { format!(":{}", e.line) } else { String::new() };
            eprintln!("error: {}{at}: {}", solution_path.display(), e.message);
            return Ok(ExitCode::from(2));
        }
    };
    let gate = Gate::load(&args.dir)?;
    let behave = gate.behave(&solution);
    let settings = settings(&args)?;
    let client = client(&args)?;
    let cache = (args.cache != "none").then(|| Cache::new(Path::new(&args.cache)));
    let solution_name = solution_path.display().to_string();
    let problem = Problem {
        description: &description,
        solution: &solution,
        solution_name: &solution_name,
        program: &program,
        behave: behave.as_ref(),
    };
    let bar = super::progress::spinner(args.quiet);
    let mut log_file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .with_context(|| format!("opening {}", log_path.display()))?;
    let mut log = |round: &serde_json::Value| -> anyhow::Result<()> {
        // One write per line: a kill leaves at most one partial line.
        log_file.write_all(format!("{round}\n").as_bytes()).with_context(|| format!("writing {}", log_path.display()))
    };
    let outcome =
        author(&client, cache.as_ref(), &problem, &settings, &|m: &str| bar.set_message(m.to_owned()), &mut log);
    bar.finish();
    // The log's own error (with its causes) as the log reported it.
    let outcome = outcome.map_err(|e| match e {
        SessionError::Log(log_error) => log_error,
        no_answer => anyhow::Error::new(no_answer),
    })?;
    report(&args, outcome, &output, &solution_path, &log_path)
}

/// Refuses a chart or log path that would overwrite an input, and a chart
/// that would replace one already written (unless `--force`).
/// What lets behaviour decide a reply: the problem's `problem.toml`, and
/// the sandbox and input cache the chart runs beside the code in.
struct Gate {
    spec: Option<crate::testgen::spec::TestSpec>,
    sandbox: crate::exec::LazyExecutor,
    cache: crate::author::behaviour::InputCache,
}

impl Gate {
    /// An unreadable `problem.toml` is an error naming its line.
    fn load(dir: &Path) -> anyhow::Result<Gate> {
        let spec = crate::bank::spec::inputs_spec(dir)?;
        Ok(Gate {
            spec,
            sandbox: crate::exec::LazyExecutor::new(crate::author::execute::sandbox_config()),
            cache: Default::default(),
        })
    }

    /// Behaviour decides where the problem says what its inputs are
    /// (`[params]`: a binary search's list sorted, its target in range).
    /// Without that, inputs guessed from the signature miss the errors a
    /// repair round must catch (on unsorted lists a search's `lo < hi`
    /// agrees with `lo <= hi`), so the structure decides.
    fn behave<'a>(&'a self, source: &'a str) -> Option<crate::author::against::Behave<'a>> {
        let spec = self.spec.as_ref().filter(|s| !s.params.is_empty())?;
        Some(crate::author::against::Behave { source, sandbox: &self.sandbox, cache: &self.cache, spec: Some(spec) })
    }
}

fn refuse_overwrites(args: &AuthorArgs, output: &Path, log_path: &Path, sources: &[&Path; 2]) -> anyhow::Result<()> {
    let mut inputs: Vec<&Path> = vec![sources[0], sources[1], log_path];
    inputs.extend(args.template.as_deref());
    inputs.extend(args.repair_template.as_deref());
    crate::outfile::refuse_overwrite("the chart", output, &inputs)?;
    crate::outfile::refuse_overwrite("--log", log_path, sources)?;
    if let Ok(existing) = std::fs::read_to_string(output)
        && !args.force
        && !crate::bank::scaffold::is_placeholder_flowchart(&existing)
    {
        anyhow::bail!("{} already holds a chart; pass --force to replace it (or -o elsewhere)", output.display());
    }
    Ok(())
}

/// The loop's settings from the options (the templates read).
fn settings(args: &AuthorArgs) -> anyhow::Result<Settings> {
    Ok(Settings {
        model: args.model.clone(),
        temperature: args.temperature,
        top_p: args.top_p,
        max_tokens: args.max_tokens,
        rounds: args.rounds,
        author_template: template(args.template.as_deref(), AUTHOR_TEMPLATE)?,
        repair_template: template(args.repair_template.as_deref(), REPAIR_TEMPLATE)?,
    })
}

/// The endpoint's client, one request at a time.
fn client(args: &AuthorArgs) -> anyhow::Result<ChatClient> {
    let timeout = Duration::try_from_secs_f64(args.timeout)
        .map_err(|_| anyhow::anyhow!("--timeout {}: not a number of seconds", args.timeout))?;
    Ok(ChatClient::new(ClientConfig {
        endpoint: args.endpoint.clone(),
        api_key: std::env::var(&args.api_key_env).ok().filter(|k| !k.is_empty()),
        timeout,
        retry: RetryPolicy { max_retries: args.retries, ..RetryPolicy::default() },
        pool: 1,
    })?)
}

/// Writes a valid chart and says so, or shows the last problems.
fn report(
    args: &AuthorArgs,
    outcome: Outcome,
    output: &Path,
    solution_path: &Path,
    log_path: &Path,
) -> anyhow::Result<ExitCode> {
    match outcome {
        Outcome::Valid { chart, repairs, similarity } => {
            crate::outfile::write_atomic(output, chart.as_bytes())
                .with_context(|| format!("writing {}", output.display()))?;
            eprintln!(
                "{}: valid chart after {repairs} repair round(s) (parses, lints clean, faithful to {}; similarity {similarity:.3}); log in {}",
                output.display(),
                solution_path.display(),
                log_path.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Outcome::Invalid { last, requests } => {
            eprintln!("{}", last.diagnostics.join("\n").trim_end());
            eprintln!(
                "error: {}: no valid chart after {requests} answer(s) from {} ({} problem(s) left in the last, shown above); nothing written; every round is in {}",
                args.dir.display(),
                args.model,
                last.diagnostics.len(),
                log_path.display()
            );
            Ok(ExitCode::from(1))
        }
    }
}

fn read(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}

fn template(path: Option<&Path>, default: &str) -> anyhow::Result<String> {
    path.map_or_else(|| Ok(default.to_owned()), read)
}

/// problem.json's `entry_point`, when the directory has one.
fn entry_point(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("problem.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json.get("entry_point")?.as_str().map(str::to_owned)
}
