//! The offline stand-in models: answers made from the bench itself, with
//! no endpoint, so the whole ablation runs offline (`ablation --demo`) and
//! its every section has a known answer. Each is an [`Answerer`].

use std::path::Path;

use serde_json::{Map, Value as Json, json};

use super::answer::{AnswerError, Answered, Answerer, sample_line};
use super::prompts::{Condition, PromptsError, request_id};
use super::two_step::{Plan, step_fields};
use flowbench_bank::dist_record::DistRecord;
use flowbench_support::progress::Progress;

/// The stand-ins' names, as `generate --model` takes them.
pub const NAMES: [&str; 8] =
    ["reference", "starter", "mixed", "original", "fragile", "reasoner", "transcriber", "noisy-transcriber"];

/// An offline stand-in, by its model name ([`StandIn::named`]).
#[derive(Debug, Clone, Copy)]
pub struct StandIn {
    answer: Answer,
}

/// Golden-ratio multiplier that spreads an FNV hash into its top bit.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// An offline stand-in's answer to sample `i` of a record (given every
/// record of the bench): the response and, for the noisy transcriber, the
/// misreadings made.
type Answer = fn(&DistRecord, usize, &[DistRecord], &Condition) -> (String, Option<Json>);

/// The `fragile` stand-in's failures, stated: (rendering, problem). Under
/// that rendering (`default`: the plain `flowchart` condition; otherwise
/// the style of `flowchart@STYLE`) it answers the problem with the starter
/// code, which fails; everywhere else (every other problem, rendering and
/// condition) with the reference, which passes. So the ablation's
/// invariance section must find exactly these problems render-sensitive.
pub const FRAGILE_FAILS: [(&str, &str); 4] =
    [("default", "digit_sum"), ("handDrawn", "gcd"), ("scan-heavy", "gcd"), ("scan-heavy", "is_prime")];

/// Whether `fragile` fails `task_id` under `condition` ([`FRAGILE_FAILS`]).
fn fragile_fails(task_id: &str, condition: &Condition) -> bool {
    let rendering = match condition {
        Condition::Flowchart(None) => "default",
        Condition::Flowchart(Some(style)) => style.as_str(),
        _ => return false,
    };
    FRAGILE_FAILS.contains(&(rendering, task_id))
}

/// The offline stand-ins: what each answers for a record. `mixed` is right
/// on a deterministic half (the top bit of the task id's FNV hash after a
/// golden-ratio multiply: FNV's own bits split short similar ids badly), so
/// a demo ablation has differences in both directions. `original` is the
/// model that remembers the famous problem: on a variant (`flowbench
/// variants`) it answers the ORIGINAL's reference, elsewhere the reference.
/// `transcriber` answers the source chart; `noisy-transcriber` the chart
/// with one misreading seeded by the task and sample. `fragile` is thrown
/// by some renderings only ([`FRAGILE_FAILS`]). `reasoner` is `mixed`
/// until asked to reason first (`+cot`): then it writes its reasoning and
/// the reference, so the `+cot` pair has a known gain. The transcribers,
/// shown Mermaid text (`mermaid`), code it with `chart2py`: what a coder
/// that follows the chart exactly writes.
fn stand_in(model: &str) -> Option<Answer> {
    match model {
        "reference" => Some(|r, _, _, _| code(r.reference_program())),
        "fragile" => Some(|r, _, _, condition| {
            code(if fragile_fails(&r.task_id, condition) { r.starter_code.clone() } else { r.reference_program() })
        }),
        "original" => Some(|r, _, all, _| {
            let original = r.variant_of.as_ref().and_then(|o| all.iter().find(|x| &x.task_id == o));
            code(original.unwrap_or(r).reference_program())
        }),
        "starter" => Some(|r, _, _, _| code(r.starter_code.clone())),
        "mixed" => Some(|r, _, _, _| mixed(r)),
        "reasoner" => Some(
            |r, _, _, condition| {
                if condition.reasons_first() { reasoned(r.reference_program()) } else { mixed(r) }
            },
        ),
        "transcriber" => Some(|r, _, _, condition| match condition.base() {
            Condition::Mermaid { .. } => (code_from_mermaid(r, &r.mermaid_canonical), None),
            _ => (mermaid_block(&r.mermaid), None),
        }),
        "noisy-transcriber" => Some(|r, i, _, condition| match condition.base() {
            Condition::Mermaid { .. } => (code_from_mermaid(r, &r.mermaid_canonical), None),
            _ => noisy_transcription(r, i),
        }),
        _ => None,
    }
}

fn code(program: String) -> (String, Option<Json>) {
    (format!("```python\n{}\n```\n", program.trim_end()), None)
}

/// Right on a deterministic half of the problems (see [`stand_in`]).
fn mixed(r: &DistRecord) -> (String, Option<Json>) {
    if flowbench_judge::samples::fnv1a(r.task_id.as_bytes()).wrapping_mul(GOLDEN) >> 63 == 0 {
        code(r.reference_program())
    } else {
        code(r.starter_code.clone())
    }
}

/// A reasoning-first reply: a fragment in a first block, then the program
/// in the last, as a model thinking aloud writes it.
fn reasoned(program: String) -> (String, Option<Json>) {
    let (program, _) = code(program);
    (
        format!(
            "Step by step: the chart reads its inputs, decides, loops and returns.\n```python\n# draft\n```\nThe program:\n{program}"
        ),
        None,
    )
}

fn mermaid_block(text: &str) -> String {
    format!("```mermaid\n{}\n```\n", text.trim_end())
}

/// The source chart with one seeded misreading, and the edit as JSON.
fn noisy_transcription(r: &DistRecord, i: usize) -> (String, Option<Json>) {
    let seed = flowbench_judge::samples::fnv1a(r.task_id.as_bytes()) ^ (i as u64).wrapping_mul(GOLDEN);
    let noisy = flowbench_chart::mermaid::parse(&r.mermaid)
        .ok()
        .and_then(|chart| flowbench_transcription::noise::noisy(&chart, seed));
    match noisy {
        Some((chart, edit)) => (
            mermaid_block(&flowbench_chart::mermaid::fmt::format(&chart)),
            Some(json!([serde_json::to_value(edit).unwrap_or_default()])),
        ),
        None => (mermaid_block(&r.mermaid), Some(json!([]))),
    }
}

impl StandIn {
    /// The stand-in called `model`, if it is one.
    pub fn named(model: &str) -> Option<StandIn> {
        stand_in(model).map(|answer| StandIn { answer })
    }
}

impl Answerer for StandIn {
    fn answer(&self, plan: &Plan, output: &Path, _: &dyn Progress) -> Result<Answered, AnswerError> {
        let (text, what) = if plan.condition.is_two_step() {
            (two_step_samples(plan, self.answer)?, "two-step samples")
        } else {
            (samples(plan, self.answer), "samples")
        };
        flowbench_support::outfile::write_atomic(output, text.as_bytes())
            .map_err(|source| AnswerError::Write { path: output.into(), source })?;
        Ok(Answered::StandIn { count: plan.records.len() * plan.samples, what })
    }
}

/// The one-step condition's samples.
fn samples(plan: &Plan, answer: Answer) -> String {
    let (condition, model) = (plan.condition, &plan.sampling.model);
    let mut text = String::new();
    for r in plan.records {
        for i in 0..plan.samples {
            let (response, edits) = answer(r, i, plan.records, condition);
            let mut line = Map::new();
            line.insert("custom_id".into(), json!(request_id(condition, &r.task_id, i)));
            line.extend(sample_line(&r.task_id, &response, Json::Null, condition, model));
            if let Some(edits) = edits {
                line.insert("edits".into(), edits);
            }
            text.push_str(&Json::Object(line).to_string());
            text.push('\n');
        }
    }
    text
}

/// The two-step condition with a stand-in: step 1 is the stand-in's
/// transcription (the transcribers' own, the source chart for the code
/// stand-ins), step 2 the coder's code for the Mermaid it is then given
/// (the coder: `--coder`'s stand-in, else the model itself) — for the
/// transcribers, `chart2py` of that Mermaid (so a misread chart becomes a
/// wrong program), for the others their usual answer. The requests are
/// the real ones (images by digest in the sample).
fn two_step_samples(plan: &Plan, answer: Answer) -> Result<String, PromptsError> {
    let (records, samples, condition, model) = (plan.records, plan.samples, plan.condition, &plan.sampling.model);
    let first = plan.transcription_requests()?;
    let coder = plan.coder_model().unwrap_or(model);
    let coder_answer = stand_in(coder).unwrap_or(answer);
    let transcribes = matches!(coder, "transcriber" | "noisy-transcriber");
    let mut text = String::new();
    for (n, (r, i)) in records.iter().flat_map(|r| (0..samples).map(move |i| (r, i))).enumerate() {
        let (step1, edits) =
            if *model == "noisy-transcriber" { noisy_transcription(r, i) } else { (mermaid_block(&r.mermaid), None) };
        let request = plan.code_request(r, i, &step1);
        let step2 = if transcribes {
            code_from_mermaid(r, &crate::two_step::transcription_of(&step1))
        } else {
            coder_answer(r, i, records, condition).0
        };
        let mut line = Map::new();
        line.insert("custom_id".into(), json!(request.id));
        line.extend(sample_line(&r.task_id, &step2, Json::Null, condition, model));
        line.extend(step_fields(plan.coder_model(), &first[n].body, &step1, &request.body, &step2));
        if let Some(edits) = edits {
            line.insert("edits".into(), edits);
        }
        text.push_str(&Json::Object(line).to_string());
        text.push('\n');
    }
    Ok(text)
}

/// A stand-in's code for a chart given as Mermaid text: `chart2py` of it,
/// named as the starter code names the function; a chart it cannot read
/// (or no chart at all) gets the starter code back, which fails the tests.
fn code_from_mermaid(r: &DistRecord, mermaid: &str) -> String {
    let program = flowbench_transcription::read_reply(mermaid)
        .ok()
        .and_then(|(chart, _)| flowbench_transcription::execute::program(&chart, &r.starter_code, &r.entry_point).ok());
    code(program.unwrap_or_else(|| r.starter_code.clone())).0
}
