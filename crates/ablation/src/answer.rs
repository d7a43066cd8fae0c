//! Who answers a condition's requests: a model behind an OpenAI-compatible
//! endpoint ([`Endpoint`], through `client`) or an offline stand-in
//! ([`super::stand_in::StandIn`]). Both implement [`Answerer`]: given the
//! condition's [`Plan`] they write Code-Vision's samples JSONL (plus the
//! condition and model), so `generate` dispatches on nothing but which one
//! it was given.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value as Json, json};

use super::prompts::{Condition, build_requests, request_id};
use super::two_step::{Plan, TwoStepReport};
use flowbench_bank::dist_record::DistRecord;
use flowbench_client::{BatchError, BatchOptions, BatchReport, ChatClient, Request, run_batch};
use flowbench_judge::extract::Extract;
use flowbench_support::progress::Progress;

/// Why a condition's samples were not all answered.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    #[error(transparent)]
    Requests(#[from] super::prompts::PromptsError),
    #[error(transparent)]
    Batch(#[from] BatchError),
    #[error(transparent)]
    TwoStep(#[from] super::two_step::TwoStepError),
    /// A stand-in's samples file cannot be written.
    #[error("writing {}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Answers every sample of a condition into a samples file.
pub trait Answerer {
    /// Answers `plan`'s samples into `output`; what it did.
    fn answer(&self, plan: &Plan, output: &Path, progress: &dyn Progress) -> Result<Answered, AnswerError>;
}

/// What an [`Answerer`] did.
#[derive(Debug)]
pub enum Answered {
    /// A one-step condition from a model: answered, cached, resumed, failed.
    Batch(BatchReport),
    /// The two-step condition from a model.
    TwoStep(TwoStepReport),
    /// A stand-in's samples: how many lines of what (`samples`,
    /// `two-step samples`), all written at once.
    StandIn { count: usize, what: &'static str },
}

/// A model behind an endpoint: requests sent `opts.jobs` at a time,
/// answers cached and resumed (`client::run_batch`). `coder`: the endpoint
/// of the model that codes a two-step condition's step 2 (`--coder`), when
/// it is not this one.
pub struct Endpoint<'a> {
    pub client: &'a ChatClient,
    pub coder: Option<&'a ChatClient>,
    pub opts: &'a BatchOptions,
}

impl Answerer for Endpoint<'_> {
    fn answer(&self, plan: &Plan, output: &Path, progress: &dyn Progress) -> Result<Answered, AnswerError> {
        let (condition, model) = (plan.condition, &plan.sampling.model);
        if condition.is_two_step() {
            let clients = super::two_step::Clients { reader: self.client, coder: self.coder.unwrap_or(self.client) };
            let report = super::two_step::run(&clients, plan, output, self.opts, progress, |record, reply, usage| {
                sample_line(&record.task_id, reply, usage, condition, model)
            })?;
            return Ok(Answered::TwoStep(report));
        }
        let requests = build_requests(plan.records, plan.dist, condition, plan.templates, plan.sampling, plan.samples)?;
        let by_id: HashMap<String, &DistRecord> = plan
            .records
            .iter()
            .flat_map(|r| (0..plan.samples).map(move |i| (request_id(condition, &r.task_id, i), r)))
            .collect();
        let report =
            run_batch(self.client, &requests, output, self.opts, progress, |request: &Request, answer: &Json| {
                let response = answer["choices"][0]["message"]["content"].as_str().unwrap_or("").to_string();
                sample_line(
                    by_id.get(&request.id).map_or("", |r| r.task_id.as_str()),
                    &response,
                    answer.get("usage").cloned().unwrap_or(Json::Null),
                    condition,
                    model,
                )
            })?;
        Ok(Answered::Batch(report))
    }
}

/// A samples line in Code-Vision's format plus the condition and model.
/// The completion is the code in the response (its last fenced block, as
/// written, when the model reasoned first), or for a transcription its
/// Mermaid; the whole response, reasoning included, is kept.
pub fn sample_line(
    task_id: &str,
    response: &str,
    usage: Json,
    condition: &Condition,
    model: &str,
) -> Map<String, Json> {
    let completion = if condition.is_transcription() {
        flowbench_author::review::extract_mermaid(response).unwrap_or_default()
    } else if condition.reasons_first() {
        // Code-Vision's cut before the first `input(` line only reproduces
        // its recorded completions; a new condition has none to reproduce,
        // and the cut would leave a whole program nothing to run.
        flowbench_judge::extract::fenced_block(from_last_block(response))
    } else {
        Extract::CodeVision.apply(response)
    };
    let mut m = Map::new();
    m.insert("task_id".into(), json!(task_id));
    m.insert("completion".into(), json!(completion));
    m.insert("response".into(), json!(response));
    m.insert("usage".into(), usage);
    m.insert("condition".into(), json!(condition.to_string()));
    m.insert("model".into(), json!(model));
    m
}

/// The reply from its last fenced code block on: a model that reasons first
/// may show fragments in earlier blocks, and its program is the last one.
/// Fences pair up (open, close), so with an even count the last block
/// opens at the second-to-last fence, with an odd count (an unclosed last
/// block) at the last.
fn from_last_block(response: &str) -> &str {
    if let Some(i) = response.rfind("```python") {
        return &response[i..];
    }
    let fences: Vec<usize> = response.match_indices("```").map(|(i, _)| i).collect();
    match fences.len() {
        0 => response,
        n if n % 2 == 0 => &response[fences[n - 2]..],
        n => &response[fences[n - 1]..],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reasoning_reply_is_judged_on_its_last_block_and_kept_whole() {
        let cot: Condition = "flowchart+cot".parse().expect("condition");
        let reply = "The loop adds a to b.\n```python\nb = b + a  # a fragment\n```\nSo:\n```python\ndef add(a, b):\n    return a + b\n```\n";
        let line = sample_line("t", reply, Json::Null, &cot, "m");
        assert_eq!(line["completion"], "def add(a, b):\n    return a + b");
        assert_eq!(line["response"], reply);
        // Without +cot, Code-Vision's first-block extraction as recorded.
        let plain = sample_line("t", reply, Json::Null, &"flowchart".parse().expect("condition"), "m");
        assert_eq!(plain["completion"], "b = b + a  # a fragment");
        // Untagged fences, and a reply with no code at all (kept whole).
        assert_eq!(from_last_block("x\n```\na\n```\n```\nb\n```"), "```\nb\n```");
        assert_eq!(from_last_block("x\n```\na\n```\n```\nb"), "```\nb");
        let none = sample_line("t", "I cannot tell.", Json::Null, &cot, "m");
        assert_eq!(
            (none["completion"].as_str(), none["response"].as_str()),
            (Some("I cannot tell."), Some("I cannot tell."))
        );
    }
}
