//! Counterfactual variants of bank problems: the reference changed a
//! little, the chart re-drawn, the tests regenerated, so that a model which
//! writes the famous answer instead of reading the chart fails.
//!
//! Sits beside `testgen` and `bank`: it reads a problem directory, uses
//! `testgen`'s mutants and test generation, `author`'s `draw` and
//! `mermaid`'s lints, and writes complete bank problem directories
//! `<task>~<kind><k>` that `build` takes like any other. Nothing below
//! calls it; `cli::variants` wires it.
//!
//! # How it works
//!
//! Per problem ([`make`]): the reference's mutants (`testgen::score::mutants`)
//! are split by kind (`candidates`: `constants` changes one numeric literal,
//! `logic` one operator, comparison, condition, bound or index) and put in a
//! seeded order; `rename`'s one candidate is the reference with neutral
//! names (`rename`, an embedded Python helper that parses the solution
//! with `ast`, never runs it), its spec, starter code and entry point renamed
//! with it. Each candidate is first screened cheaply (`screen`): run in
//! the sandbox on the original's own non-large test inputs, it must answer
//! every one (total on the domain), not answer the same on all (not
//! trivially constant) and differ from the original on at least
//! `min_differ` of them. A candidate that passes is written out
//! (`problem_dir`: solution, `problem.toml` with `variant_of`/`variant_kind`,
//! `problem.json`, a chart-only description, the chart re-drawn) and then
//! proven (`prove`): the chart lint-clean, tests regenerated and
//! strengthened meeting the floors, a mutation score of at least
//! [`MIN_MUTATION_SCORE`], and the original reference failing the new tests
//! (the first input where they differ is recorded). A candidate that fails
//! any step is deleted and recorded with the reason; the next one is tried,
//! up to [`Options::tries`] per kind. Same input and seed → same variants.
//!
//! No (program, input) pair runs twice where once is known: the screen's
//! runs are the variant's first validation run of those inputs, the
//! original's answers its own fresh `tests.jsonl` records stand for its
//! runs on the variant's tests, and the variants of one problem share the
//! generator's inputs (a changed body leaves signature and spec alone, and
//! `testgen::generate` asks the helper only whether its key is the same).
//! And no job is forked to split work the workers have anyway: problems are
//! proven in parallel, so `cli::variants` has the sandbox cut each batch of
//! calls into one job (`judge::run::Sandbox::batch_jobs`).

pub mod candidates;
pub mod error;
pub mod problem_dir;
pub mod prove;
pub mod rename;
pub mod screen;
pub mod summary;

use std::path::{Path, PathBuf};

use serde::Serialize;

pub use error::VariantError;

use flowbench_judge::run::Sandbox;

/// The least mutation score a variant's regenerated tests must reach.
pub const MIN_MUTATION_SCORE: f64 = 0.90;

/// How a variant differs from its original.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The entry point, parameters and locals renamed to neutral letters
    /// (`f`, `a`, `b`, …): the same behaviour under names that do not
    /// recall the problem.
    Rename,
    /// One numeric literal of the reference changed.
    Constants,
    /// One behaviour-changing mutant of the reference (operator,
    /// comparison, negated condition, bound, index).
    Logic,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Rename => "rename",
            Kind::Constants => "constants",
            Kind::Logic => "logic",
        }
    }
}

/// A variant kind's name that is none of them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("variant kind {0:?}: expected rename, constants or logic")]
pub struct UnknownKind(pub String);

impl std::str::FromStr for Kind {
    type Err = UnknownKind;
    fn from_str(s: &str) -> Result<Kind, UnknownKind> {
        match s {
            "rename" => Ok(Kind::Rename),
            "constants" => Ok(Kind::Constants),
            "logic" => Ok(Kind::Logic),
            _ => Err(UnknownKind(s.to_string())),
        }
    }
}

/// What to make.
#[derive(Debug, Clone)]
pub struct Options {
    pub kinds: Vec<Kind>,
    /// Variants wanted per kind.
    pub count: usize,
    pub seed: u64,
    /// Least share of inputs on which a variant must answer differently
    /// from the original.
    pub min_differ: f64,
    /// Candidates fully proven (tests regenerated) per kind at most; the
    /// cheap screen is not counted.
    pub tries: usize,
    /// Python that runs the helpers (they parse, never run, the solution).
    pub helper_python: PathBuf,
}

/// A variant kept.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Kept {
    /// Its directory name, `<task>~<kind><k>`.
    pub name: String,
    pub kind: Kind,
    /// The mutation applied (e.g. `comparison Lt -> LtE`, line 5).
    pub change: String,
    pub tests: usize,
    /// The regenerated tests' mutation score, when measured exactly …
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mutation_score: Option<f64>,
    /// … or a lower bound of it (≥ [`MIN_MUTATION_SCORE`]), when the kill
    /// search stopped as soon as the floor was proven; `flowbench tests
    /// score` on the variant measures the exact figure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mutation_score_at_least: Option<f64>,
    /// Share of the regenerated tests the original answers differently.
    pub differ_share: f64,
    /// The first regenerated test the original fails: its arguments, the
    /// variant's answer and the original's (`null` for a renamed whole
    /// program, which the original cannot be told apart from).
    pub first_difference: serde_json::Value,
}

/// A candidate set aside, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Discarded {
    pub kind: Kind,
    pub change: String,
    pub reason: String,
}

/// One problem's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProblemReport {
    pub problem: String,
    pub kept: Vec<Kept>,
    /// Candidates proven and discarded (the screen's rejections are only
    /// counted: there are many and each is one cheap run).
    pub discarded: Vec<Discarded>,
    /// Candidates the screen rejected, by reason.
    pub screened_out: std::collections::BTreeMap<String, usize>,
    /// Why a wanted kind has fewer variants than asked, per kind.
    pub short: Vec<String>,
}

/// Makes the variants of the problem in `dir` under `out`.
pub fn make(dir: &Path, out: &Path, sandbox: &dyn Sandbox, opts: &Options) -> Result<ProblemReport, VariantError> {
    let original = screen::Original::load(dir)?;
    let mut report = ProblemReport {
        problem: original.name.clone(),
        kept: Vec::new(),
        discarded: Vec::new(),
        screened_out: Default::default(),
        short: Vec::new(),
    };
    let mutants = flowbench_support::timings::time("variant mutants", || {
        flowbench_testgen::score::mutants(&opts.helper_python, &original.input)
    })?;
    for &kind in &opts.kinds {
        let ordered = match kind {
            Kind::Rename => match rename::candidate(&opts.helper_python, &original)? {
                Ok(c) => vec![c],
                Err(why) => {
                    report.short.push(format!("rename: {why}"));
                    continue;
                }
            },
            _ => candidates::of_kind(&mutants, kind, &original.name, opts.seed),
        };
        let mut proven = 0;
        let mut made = 0;
        for candidate in &ordered {
            if made == opts.count || proven == opts.tries {
                break;
            }
            // A renamed program behaves as the original by construction:
            // nothing to screen.
            let screened = if kind == Kind::Rename {
                screen::Screened::new()
            } else {
                match flowbench_support::timings::time("variant screen", || {
                    screen::screen(sandbox, &original, &candidate.source, opts.min_differ)
                })? {
                    Ok(runs) => runs,
                    Err(why) => {
                        *report.screened_out.entry(why.to_string()).or_default() += 1;
                        continue;
                    }
                }
            };
            proven += 1;
            let name = format!("{}~{}{}", original.name, kind.as_str(), made + 1);
            let target = out.join(&name);
            flowbench_support::timings::time("variant write", || {
                problem_dir::write(&original, candidate, kind, &target)
            })?;
            match prove::prove(sandbox, &original, &target, kind, candidate, &screened, opts)? {
                Ok(proof) => {
                    made += 1;
                    report.kept.push(Kept {
                        name,
                        kind,
                        change: candidate.change.clone(),
                        tests: proof.tests,
                        mutation_score: proof.mutation.exact_score(),
                        mutation_score_at_least: proof.mutation.exact_score().is_none().then_some(proof.mutation.score),
                        differ_share: proof.differ_share,
                        first_difference: proof.first_difference,
                    });
                }
                Err(reason) => {
                    std::fs::remove_dir_all(&target).ok();
                    report.discarded.push(Discarded {
                        kind,
                        change: candidate.change.clone(),
                        reason: reason.to_string(),
                    });
                }
            }
        }
        if made < opts.count {
            report.short.push(short_reason(kind, made, opts.count, ordered.len(), proven));
        }
    }
    Ok(report)
}

fn short_reason(kind: Kind, made: usize, count: usize, candidates: usize, proven: usize) -> String {
    let why = if candidates == 0 {
        "the reference has no candidate of this kind".to_string()
    } else if proven == 0 {
        format!("none of its {candidates} candidates passed the screen (total, not constant, differing enough)")
    } else {
        format!("{proven} candidates passed the screen, the rest of the proof failed (see discarded)")
    };
    format!("{}: {made} of {count}: {why}", kind.as_str())
}
