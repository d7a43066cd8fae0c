//! The two-step condition `flowchart-then-code` (TextFlow's pipeline,
//! judged by tests): step 1 asks the model to transcribe the image as
//! Mermaid, step 2 sends it *its own* transcription as Mermaid text with
//! the `mermaid` condition's code prompt. Only the step-2 code is judged;
//! both requests and replies are kept in the sample (`steps`).
//!
//! Step 2 may be another model's (`generate --coder`, HumanEval-V's
//! V2T2C with a fixed strong coder): the evaluated model only reads the
//! chart, the coder codes from its Mermaid, and the sample names both
//! (`model`, `coder`). Against the coder's own `mermaid` run this isolates
//! the reader's perception in code terms ([`super::coder`]).
//!
//! # How it works
//!
//! Two [`run_batch`] passes. Step 1's answers go to a file beside the
//! samples ([`transcriptions_path`]), keyed by [`transcription_id`], so a
//! resumed run never re-asks a transcription it already has (and the
//! answer cache covers a lost file). Step 2 is built from that file for
//! every sample whose step 1 is answered and appended to the samples file
//! as `generate` does for one-step conditions; a sample whose step 1
//! failed has no step 2 and is retried on the next run.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value as Json, json};

use super::prompts::{
    Condition, Sampling, Templates, build_requests, code_request, recorded_body, request_id, transcription_id,
};
use flowbench_bank::dist_record::DistRecord;
use flowbench_client::{BatchError, BatchOptions, BatchReport, ChatClient, Request, run_batch};
use flowbench_support::progress::Progress;

/// Where step 1's answers are kept: `NAME.transcriptions.jsonl` beside the
/// samples file `NAME.jsonl`.
pub fn transcriptions_path(output: &Path) -> PathBuf {
    let stem = output.file_stem().map_or_else(|| "samples".into(), |s| s.to_string_lossy().into_owned());
    output.with_file_name(format!("{stem}.transcriptions.jsonl"))
}

/// The Mermaid text step 2 is given: the chart in the step-1 reply, or the
/// whole reply when it holds no Mermaid block (the model's own words are
/// still what it wrote; step 2 must not see anything else).
pub fn transcription_of(reply: &str) -> String {
    flowbench_author::review::extract_mermaid(reply).unwrap_or_else(|| reply.trim().to_string())
}

/// The reply text of a chat-completions answer.
pub fn reply_text(answer: &Json) -> String {
    answer["choices"][0]["message"]["content"].as_str().unwrap_or("").to_string()
}

/// The fields a two-step sample adds to its code sample line: the coder
/// when another model wrote the code, the Mermaid step 2 was given and both
/// steps' requests (images by digest) and replies.
pub fn step_fields(
    coder: Option<&str>,
    step1_request: &Json,
    step1_reply: &str,
    step2_request: &Json,
    step2_reply: &str,
) -> Map<String, Json> {
    let mut m = Map::new();
    if let Some(coder) = coder {
        m.insert("coder".into(), json!(coder));
    }
    m.insert("transcription".into(), json!(transcription_of(step1_reply)));
    m.insert(
        "steps".into(),
        json!([
            {"request": recorded_body(step1_request), "response": step1_reply},
            {"request": recorded_body(step2_request), "response": step2_reply},
        ]),
    );
    m
}

/// Why a two-step run stopped.
#[derive(Debug, thiserror::Error)]
pub enum TwoStepError {
    #[error(transparent)]
    Requests(#[from] super::prompts::PromptsError),
    #[error(transparent)]
    Batch(#[from] BatchError),
    /// Step 1's answers cannot be read back.
    #[error("reading {}", .path.display())]
    ReadAnswers {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// What a two-step run needs besides the client.
pub struct Plan<'a> {
    pub records: &'a [DistRecord],
    pub dist: &'a Path,
    pub condition: &'a Condition,
    pub templates: &'a Templates,
    pub sampling: &'a Sampling,
    pub samples: usize,
    /// Step 2's sampling settings when another model codes (`--coder`);
    /// `None`: the evaluated model codes its own transcription.
    pub coder: Option<&'a Sampling>,
}

impl Plan<'_> {
    /// Every step-1 request, in record order.
    pub fn transcription_requests(&self) -> Result<Vec<Request>, super::prompts::PromptsError> {
        build_requests(self.records, self.dist, self.condition, self.templates, self.sampling, self.samples)
    }

    /// Step 2's request for sample `i` of `record`, given the step-1 reply,
    /// addressed to the coder.
    pub fn code_request(&self, record: &DistRecord, i: usize, step1_reply: &str) -> Request {
        let id = request_id(self.condition, &record.task_id, i);
        let sampling = self.coder.unwrap_or(self.sampling);
        code_request(
            record,
            &transcription_of(step1_reply),
            self.templates,
            sampling,
            &id,
            self.condition.reasons_first(),
        )
    }

    /// The coder's model name when another model codes.
    pub fn coder_model(&self) -> Option<&str> {
        self.coder.map(|c| c.model.as_str())
    }
}

/// Both batches' reports.
#[derive(Debug, Default)]
pub struct TwoStepReport {
    pub transcriptions: BatchReport,
    pub code: BatchReport,
    /// Samples with no step 2 because step 1 has no answer yet.
    pub waiting: usize,
}

/// The endpoints of the two steps: the evaluated model's for step 1, the
/// coder's for step 2 (the same client when the model codes itself).
pub struct Clients<'a> {
    pub reader: &'a ChatClient,
    pub coder: &'a ChatClient,
}

/// Runs both steps into `output` (see the module docs). `code_line` makes
/// the sample line from the record, the step-2 reply and its usage, as for
/// a one-step code condition; the steps are added to it.
pub fn run<F>(
    clients: &Clients,
    plan: &Plan,
    output: &Path,
    opts: &BatchOptions,
    progress: &dyn Progress,
    code_line: F,
) -> Result<TwoStepReport, TwoStepError>
where
    F: Fn(&DistRecord, &str, Json) -> Map<String, Json> + Sync,
{
    let first = plan.transcription_requests()?;
    let step1_file = transcriptions_path(output);
    let transcriptions = run_batch(clients.reader, &first, &step1_file, opts, progress, |_, answer| {
        let mut m = Map::new();
        m.insert("response".into(), json!(reply_text(answer)));
        m.insert("usage".into(), answer.get("usage").cloned().unwrap_or(Json::Null));
        m
    })?;
    let answered = read_answers(&step1_file)?;
    let step1_bodies: HashMap<&str, &Json> = first.iter().map(|r| (r.id.as_str(), &r.body)).collect();
    let mut second = Vec::new();
    let mut owner: HashMap<String, (&DistRecord, String)> = HashMap::new();
    let mut waiting = 0;
    for record in plan.records {
        for i in 0..plan.samples {
            let sample_id = request_id(plan.condition, &record.task_id, i);
            let Some(reply) = answered.get(&transcription_id(&sample_id)) else {
                waiting += 1;
                continue;
            };
            second.push(plan.code_request(record, i, reply));
            owner.insert(sample_id, (record, reply.clone()));
        }
    }
    let code = run_batch(clients.coder, &second, output, opts, progress, |request, answer| {
        let (record, step1_reply) = &owner[&request.id];
        let reply = reply_text(answer);
        let mut line = code_line(record, &reply, answer.get("usage").cloned().unwrap_or(Json::Null));
        let step1_request = step1_bodies.get(transcription_id(&request.id).as_str()).copied().unwrap_or(&Json::Null);
        line.extend(step_fields(plan.coder_model(), step1_request, step1_reply, &request.body, &reply));
        line
    })?;
    Ok(TwoStepReport { transcriptions, code, waiting })
}

/// Step 1's answered replies by request id (a line that is not JSON was
/// already reported by `run_batch` and is skipped).
fn read_answers(path: &Path) -> Result<HashMap<String, String>, TwoStepError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(source) => return Err(TwoStepError::ReadAnswers { path: path.into(), source }),
    };
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        .filter_map(|j| Some((j["custom_id"].as_str()?.to_string(), j["response"].as_str()?.to_string())))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_two_is_given_the_models_own_mermaid() {
        let reply = "Here it is:\n```mermaid\nflowchart TD\n  A[start] --> B[end]\n```\nDone.";
        assert_eq!(transcription_of(reply), "flowchart TD\n  A[start] --> B[end]\n");
        assert_eq!(transcription_of("  no chart here \n"), "no chart here");
        assert_eq!(transcriptions_path(Path::new("out/m.jsonl")), PathBuf::from("out/m.transcriptions.jsonl"));
    }
}
