//! What a model is shown under each condition, as OpenAI `chat.completions`
//! request bodies: the flowchart image (in the build's default style or a
//! named one), the Mermaid text (canonical or as authored), or the text
//! description, each with the starter code and the evaluation rules; the
//! starter code alone (`signature`: what a model solves from the name, the
//! memorisation baseline); or the image alone, to be transcribed as Mermaid
//! (`transcribe`); or both in turn (`flowchart-then-code`: the image
//! transcribed, then the model's own transcription sent back as Mermaid
//! text with the code prompt — see [`code_request`]). Any code condition
//! can ask for reasoning first (`CONDITION+cot`, HumanEval-V's
//! chain-of-thought setting): the same prompt with the `reasoning.txt`
//! instruction after it, the program taken from the reply's last fenced
//! block and the reasoning kept in the sample's `response`.
//!
//! The wording lives in template files (`templates/*.txt`, embedded; a
//! user's `--templates DIR` replaces any of them) with the placeholders
//! `{starter_code}`, `{mermaid}`, `{description}`, `{title}`,
//! `{entry_point}`. A whole program (a `stdio` record) has no starter code
//! and is not called but run, so its code conditions use their own
//! templates (`flowchart-program.txt`, …): "complete the function" would
//! ask for the wrong thing, and `signature` shows the title, the only name
//! such a problem has.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde_json::{Value as Json, json};

use flowbench_bank::dist_record::{DistRecord, RecordStyle};
use flowbench_client::Request;

/// An input condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// The flowchart image in a style (`None`: the build's default).
    Flowchart(Option<String>),
    /// The Mermaid text; `verbatim` as authored, else canonical.
    Mermaid { verbatim: bool },
    /// The description alone.
    Text,
    /// The flowchart image (in a style, `None`: the build's default), to be
    /// transcribed as Mermaid: the perception half, scored on the graph
    /// (`score-transcription`), not by tests.
    Transcribe(Option<String>),
    /// The starter code alone: no image, no Mermaid, no description.
    Signature,
    /// Two steps (TextFlow's pipeline, judged by tests): the image (in a
    /// style, `None`: the default) transcribed as under `Transcribe`, then
    /// the model's own transcription sent back as Mermaid text with the
    /// `mermaid` condition's code prompt. The sample is the step-2 code.
    FlowchartThenCode(Option<String>),
    /// A code condition (any of the above but `Transcribe`) with the model
    /// asked to reason step by step before it writes the program:
    /// `CONDITION+cot`. For the two-step condition the reasoning is asked
    /// of the code step.
    ReasoningFirst(Box<Condition>),
}

/// What a condition's name ends with when the model reasons first.
pub const REASONING_SUFFIX: &str = "+cot";

/// A condition's name that is none of them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "condition {0:?}: expected flowchart, flowchart@STYLE, mermaid, mermaid@verbatim, text, signature, transcribe, \
     transcribe@STYLE, flowchart-then-code or flowchart-then-code@STYLE; a code condition may end in +cot"
)]
pub struct UnknownCondition(pub String);

impl FromStr for Condition {
    type Err = UnknownCondition;
    fn from_str(s: &str) -> Result<Condition, UnknownCondition> {
        if let Some(base) = s.strip_suffix(REASONING_SUFFIX) {
            return match base.parse::<Condition>() {
                Ok(base) if !base.is_transcription() && !base.reasons_first() => {
                    Ok(Condition::ReasoningFirst(Box::new(base)))
                }
                _ => Err(UnknownCondition(s.to_string())),
            };
        }
        match s.split_once('@') {
            None if s == "flowchart" => Ok(Condition::Flowchart(None)),
            None if s == "mermaid" => Ok(Condition::Mermaid { verbatim: false }),
            None if s == "text" => Ok(Condition::Text),
            None if s == "transcribe" => Ok(Condition::Transcribe(None)),
            Some(("transcribe", style)) if !style.is_empty() => Ok(Condition::Transcribe(Some(style.to_string()))),
            None if s == "signature" => Ok(Condition::Signature),
            None if s == FLOWCHART_THEN_CODE => Ok(Condition::FlowchartThenCode(None)),
            Some((FLOWCHART_THEN_CODE, style)) if !style.is_empty() => {
                Ok(Condition::FlowchartThenCode(Some(style.to_string())))
            }
            Some(("flowchart", style)) if !style.is_empty() => Ok(Condition::Flowchart(Some(style.to_string()))),
            Some(("mermaid", "verbatim")) => Ok(Condition::Mermaid { verbatim: true }),
            Some(("mermaid", "canonical")) => Ok(Condition::Mermaid { verbatim: false }),
            _ => Err(UnknownCondition(s.to_string())),
        }
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Condition::Flowchart(None) => f.write_str("flowchart"),
            Condition::Flowchart(Some(style)) => write!(f, "flowchart@{style}"),
            Condition::Mermaid { verbatim: false } => f.write_str("mermaid"),
            Condition::Mermaid { verbatim: true } => f.write_str("mermaid@verbatim"),
            Condition::Text => f.write_str("text"),
            Condition::Transcribe(None) => f.write_str("transcribe"),
            Condition::Transcribe(Some(style)) => write!(f, "transcribe@{style}"),
            Condition::Signature => f.write_str("signature"),
            Condition::FlowchartThenCode(None) => f.write_str(FLOWCHART_THEN_CODE),
            Condition::FlowchartThenCode(Some(style)) => write!(f, "{FLOWCHART_THEN_CODE}@{style}"),
            Condition::ReasoningFirst(base) => write!(f, "{base}{REASONING_SUFFIX}"),
        }
    }
}

/// The two-step condition's name.
pub const FLOWCHART_THEN_CODE: &str = "flowchart-then-code";

impl Condition {
    /// The template file this condition's (first) request uses for a
    /// function (`program`: false) or a whole program; the two-step
    /// condition's second request uses the `mermaid` one.
    pub fn template_name(&self, program: bool) -> &'static str {
        match (self.base(), program) {
            (Condition::ReasoningFirst(base), _) => base.template_name(program),
            (Condition::Transcribe(_) | Condition::FlowchartThenCode(_), _) => "transcribe.txt",
            (Condition::Flowchart(_), false) => "flowchart.txt",
            (Condition::Mermaid { .. }, false) => "mermaid.txt",
            (Condition::Text, false) => "text.txt",
            (Condition::Signature, false) => "signature.txt",
            (Condition::Flowchart(_), true) => "flowchart-program.txt",
            (Condition::Mermaid { .. }, true) => "mermaid-program.txt",
            (Condition::Text, true) => "text-program.txt",
            (Condition::Signature, true) => "signature-program.txt",
        }
    }

    /// Whether the answer is a chart (scored on the graph), not code.
    pub fn is_transcription(&self) -> bool {
        matches!(self, Condition::Transcribe(_))
    }

    /// Whether answering takes two requests, the second built from the
    /// reply to the first.
    pub fn is_two_step(&self) -> bool {
        matches!(self.base(), Condition::FlowchartThenCode(_))
    }

    /// Whether the model is asked to reason before it codes (`+cot`).
    pub fn reasons_first(&self) -> bool {
        matches!(self, Condition::ReasoningFirst(_))
    }

    /// The condition without `+cot`: what the model is shown.
    pub fn base(&self) -> &Condition {
        match self {
            Condition::ReasoningFirst(base) => base,
            other => other,
        }
    }
}

/// The instruction a `+cot` condition adds after its prompt.
pub const REASONING_TEMPLATE: &str = "reasoning.txt";

/// The built-in templates, by file name.
pub const DEFAULT_TEMPLATES: [(&str, &str); 10] = [
    ("flowchart.txt", include_str!("templates/flowchart.txt")),
    ("mermaid.txt", include_str!("templates/mermaid.txt")),
    ("text.txt", include_str!("templates/text.txt")),
    ("transcribe.txt", include_str!("templates/transcribe.txt")),
    ("signature.txt", include_str!("templates/signature.txt")),
    ("flowchart-program.txt", include_str!("templates/flowchart-program.txt")),
    ("mermaid-program.txt", include_str!("templates/mermaid-program.txt")),
    ("text-program.txt", include_str!("templates/text-program.txt")),
    ("signature-program.txt", include_str!("templates/signature-program.txt")),
    (REASONING_TEMPLATE, include_str!("templates/reasoning.txt")),
];

/// A template or an image that cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum PromptsError {
    #[error("reading template {}", .path.display())]
    ReadTemplate {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("creating {}", .dir.display())]
    CreateDir {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("writing {}", .path.display())]
    WriteTemplate {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The record has no image in the style asked (`styles`: those it has).
    #[error("{task_id}: no image in style {style:?} (styles: {})", .styles.join(", "))]
    NoImage { task_id: String, style: String, styles: Vec<String> },
    #[error("{task_id}: reading image {}", .path.display())]
    ReadImage {
        task_id: String,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The templates in use: built-in, each replaced by `DIR/<name>` if present.
#[derive(Debug, Clone)]
pub struct Templates {
    texts: Vec<(String, String)>,
}

impl Templates {
    pub fn load(dir: Option<&Path>) -> Result<Templates, PromptsError> {
        let mut texts = Vec::new();
        for (name, text) in DEFAULT_TEMPLATES {
            let custom = dir.map(|d| d.join(name)).filter(|p| p.exists());
            let text = match custom {
                Some(path) => {
                    std::fs::read_to_string(&path).map_err(|source| PromptsError::ReadTemplate { path, source })?
                }
                None => text.to_string(),
            };
            texts.push((name.to_string(), text));
        }
        Ok(Templates { texts })
    }

    /// Writes the built-in templates into `dir` for editing.
    pub fn write_defaults(dir: &Path) -> Result<Vec<PathBuf>, PromptsError> {
        std::fs::create_dir_all(dir).map_err(|source| PromptsError::CreateDir { dir: dir.into(), source })?;
        DEFAULT_TEMPLATES
            .iter()
            .map(|(name, text)| {
                let path = dir.join(name);
                match std::fs::write(&path, text) {
                    Ok(()) => Ok(path),
                    Err(source) => Err(PromptsError::WriteTemplate { path, source }),
                }
            })
            .collect()
    }

    fn get(&self, name: &str) -> &str {
        self.texts.iter().find(|(n, _)| n == name).map_or("", |(_, t)| t.as_str())
    }

    /// `text`, followed by the reasoning instruction when `reasoning`.
    fn with_reasoning(&self, text: String, reasoning: bool) -> String {
        if reasoning { format!("{}\n\n{}", text.trim_end(), self.get(REASONING_TEMPLATE).trim_end()) } else { text }
    }
}

/// Sampling settings copied into every body.
#[derive(Debug, Clone, PartialEq)]
pub struct Sampling {
    pub model: String,
    pub temperature: f64,
    pub top_p: f64,
    pub max_tokens: u32,
}

/// Fills a template; unknown `{…}` text is left as it is (code in a
/// template may contain braces).
pub fn fill(template: &str, record: &DistRecord, mermaid: &str) -> String {
    template
        .replace("{starter_code}", record.starter_code.trim_end())
        .replace("{mermaid}", mermaid.trim_end())
        .replace("{description}", record.description.trim_end())
        .replace("{title}", &record.title)
        .replace("{entry_point}", &record.entry_point)
}

/// Whether `record` is a whole program, run with its input on stdin rather
/// than called.
fn is_program(record: &DistRecord) -> bool {
    record.call_style == RecordStyle::Stdio
}

/// The `custom_id` of sample `i` of a problem under a condition.
pub fn request_id(condition: &Condition, task_id: &str, i: usize) -> String {
    format!("{condition}/{task_id}#{i}")
}

/// The request bodies for `records` under `condition`, `samples` per
/// problem, in record order. Images are read from `dist` and inlined as
/// base64 data URLs; a missing image is an error naming the file.
pub fn build_requests(
    records: &[DistRecord],
    dist: &Path,
    condition: &Condition,
    templates: &Templates,
    sampling: &Sampling,
    samples: usize,
) -> Result<Vec<Request>, PromptsError> {
    let mut out = Vec::with_capacity(records.len() * samples);
    for r in records {
        let template = templates.get(condition.template_name(is_program(r)));
        // A two-step condition asks its reasoning of the code step.
        let reasoning = condition.reasons_first() && !condition.is_two_step();
        let text = |mermaid: &str| templates.with_reasoning(fill(template, r, mermaid), reasoning);
        let content = match condition.base() {
            Condition::Flowchart(style) | Condition::Transcribe(style) | Condition::FlowchartThenCode(style) => {
                let url = image_url(r, dist, style.as_deref())?;
                json!([{"type": "text", "text": text("")}, {"type": "image_url", "image_url": {"url": url}}])
            }
            Condition::Mermaid { verbatim } => {
                Json::String(text(if *verbatim { &r.mermaid } else { &r.mermaid_canonical }))
            }
            Condition::Text | Condition::Signature | Condition::ReasoningFirst(_) => Json::String(text("")),
        };
        let body = json!({
            "model": sampling.model,
            "messages": [{"role": "user", "content": content}],
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
            "max_tokens": sampling.max_tokens,
        });
        for i in 0..samples {
            let id = request_id(condition, &r.task_id, i);
            let id = if condition.is_two_step() { transcription_id(&id) } else { id };
            out.push(Request { id, body: body.clone() });
        }
    }
    Ok(out)
}

/// The id of a two-step sample's first request (the transcription): the
/// sample's id plus `/transcribe`. `prompts` writes these for the
/// two-step condition, since the second request needs the first's reply.
pub fn transcription_id(sample_id: &str) -> String {
    format!("{sample_id}/transcribe")
}

/// The two-step condition's second request: the `mermaid` condition's code
/// prompt with the model's own transcription (`transcription`, the Mermaid
/// text it wrote, or its whole reply when that held no Mermaid block) in
/// place of the source chart, the reasoning instruction after it when
/// `reasoning` (`flowchart-then-code+cot`). Its id is the sample's.
pub fn code_request(
    record: &DistRecord,
    transcription: &str,
    templates: &Templates,
    sampling: &Sampling,
    sample_id: &str,
    reasoning: bool,
) -> Request {
    let template = templates.get(Condition::Mermaid { verbatim: false }.template_name(is_program(record)));
    let text = templates.with_reasoning(fill(template, record, transcription), reasoning);
    let body = json!({
        "model": sampling.model,
        "messages": [{"role": "user", "content": text}],
        "temperature": sampling.temperature,
        "top_p": sampling.top_p,
        "max_tokens": sampling.max_tokens,
    });
    Request { id: sample_id.to_string(), body }
}

/// A request body as a sample records it: inline images replaced by the
/// SHA-256 of their data URL, so the sample names the image it was shown
/// without carrying megabytes of base64.
pub fn recorded_body(body: &Json) -> Json {
    match body {
        Json::Object(m) => Json::Object(
            m.iter()
                .map(|(k, v)| match (k.as_str(), v.as_str()) {
                    ("url", Some(url)) if url.starts_with("data:") => {
                        (k.clone(), json!(format!("sha256:{}", sha256(url))))
                    }
                    _ => (k.clone(), recorded_body(v)),
                })
                .collect(),
        ),
        Json::Array(items) => Json::Array(items.iter().map(recorded_body).collect()),
        other => other.clone(),
    }
}

fn sha256(text: &str) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// A record's image in `style` as a base64 data URL; a missing image is an
/// error naming the styles there are.
fn image_url(r: &DistRecord, dist: &Path, style: Option<&str>) -> Result<String, PromptsError> {
    let path = r.raster_path(dist, style).ok_or_else(|| PromptsError::NoImage {
        task_id: r.task_id.clone(),
        style: style.unwrap_or(&r.style).to_string(),
        styles: r.images.keys().cloned().collect(),
    })?;
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(source) => return Err(PromptsError::ReadImage { task_id: r.task_id.clone(), path, source }),
    };
    Ok(flowbench_bank::dist_record::data_url(&path, &bytes))
}

/// One line of an OpenAI batch input file.
pub fn batch_line(request: &Request) -> String {
    json!({"custom_id": request.id, "method": "POST", "url": "/v1/chat/completions", "body": request.body}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_parse_and_print() {
        for s in [
            "flowchart",
            "flowchart@dark",
            "mermaid",
            "mermaid@verbatim",
            "text",
            "signature",
            "transcribe",
            "transcribe@dark",
            "flowchart-then-code",
            "flowchart-then-code@dark",
            "flowchart+cot",
            "flowchart@dark+cot",
            "mermaid@verbatim+cot",
            "text+cot",
            "signature+cot",
            "flowchart-then-code@dark+cot",
        ] {
            assert_eq!(s.parse::<Condition>().expect("parses").to_string(), s);
        }
        assert_eq!("mermaid@canonical".parse::<Condition>(), Ok(Condition::Mermaid { verbatim: false }));
        assert!("image".parse::<Condition>().is_err() && "flowchart@".parse::<Condition>().is_err());
        assert!("transcribe@".parse::<Condition>().is_err());
        assert!("flowchart-then-code@".parse::<Condition>().is_err());
        // A transcription has no program to reason towards; +cot once.
        for wrong in ["transcribe+cot", "transcribe@dark+cot", "flowchart+cot+cot", "+cot", "flowchart@+cot"] {
            assert!(wrong.parse::<Condition>().is_err(), "{wrong}");
        }
        let cot: Condition = "flowchart@dark+cot".parse().expect("parses");
        assert!(cot.reasons_first() && !cot.is_two_step() && !cot.is_transcription());
        assert_eq!(cot.base(), &Condition::Flowchart(Some("dark".into())));
        assert!("flowchart-then-code+cot".parse::<Condition>().expect("parses").is_two_step());
    }

    #[test]
    fn reasoning_first_adds_the_instruction_after_the_same_prompt() {
        let record = DistRecord {
            task_id: "basic/clamp".into(),
            starter_code: "def clamp(x, lo, hi):\n".into(),
            mermaid: "flowchart TD\n  A[start] --> B[return x]".into(),
            mermaid_canonical: "flowchart TD\n    A[start] --> B[return x]\n".into(),
            ..Default::default()
        };
        let templates = Templates::load(None).expect("built-in templates");
        let sampling = Sampling { model: "m".into(), temperature: 0.0, top_p: 1.0, max_tokens: 10 };
        let text = |condition: &str| {
            let condition: Condition = condition.parse().expect("condition");
            let requests = build_requests(
                std::slice::from_ref(&record),
                Path::new("no-dist"),
                &condition,
                &templates,
                &sampling,
                1,
            )
            .expect("no image is read");
            assert_eq!(requests[0].id, format!("{condition}/basic/clamp#0"));
            requests[0].body["messages"][0]["content"].as_str().expect("text content").to_string()
        };
        let (plain, cot) = (text("mermaid"), text("mermaid+cot"));
        let instruction = templates.get(REASONING_TEMPLATE).trim_end();
        assert!(cot.starts_with(plain.trim_end()) && cot.ends_with(instruction), "{cot}");
        assert!(!plain.contains(instruction));
        let step2 = code_request(&record, "flowchart TD\n  A --> B", &templates, &sampling, "id", true);
        let step2 = step2.body["messages"][0]["content"].as_str().expect("text content");
        assert!(step2.contains("A --> B") && step2.ends_with(instruction), "{step2}");
    }

    #[test]
    fn recorded_bodies_name_images_by_digest() {
        let body = json!({"messages": [{"content": [{"type": "text", "text": "t"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}]});
        let recorded = recorded_body(&body);
        let url = recorded["messages"][0]["content"][1]["image_url"]["url"].as_str().expect("url");
        assert!(url.starts_with("sha256:") && url.len() == 7 + 64, "{url}");
        assert_eq!(recorded["messages"][0]["content"][0], body["messages"][0]["content"][0]);
    }

    #[test]
    fn signature_shows_the_starter_code_and_nothing_of_the_problem() {
        let record = DistRecord {
            task_id: "basic/clamp".into(),
            starter_code: "def clamp(x, lo, hi):\n".into(),
            description: "Clamp x into [lo, hi].".into(),
            title: "Clamp".into(),
            mermaid: "flowchart TD\n  A[start] --> B[return x]".into(),
            mermaid_canonical: "flowchart TD\n    A[start] --> B[return x]\n".into(),
            ..Default::default()
        };
        let templates = Templates::load(None).expect("built-in templates");
        let sampling = Sampling { model: "m".into(), temperature: 0.0, top_p: 1.0, max_tokens: 10 };
        let requests = build_requests(&[record], Path::new("no-dist"), &Condition::Signature, &templates, &sampling, 2)
            .expect("no image is read");
        assert_eq!(requests.len(), 2);
        assert_eq!(requests[1].id, "signature/basic/clamp#1");
        let text = requests[0].body["messages"][0]["content"].as_str().expect("text content");
        assert!(text.contains("def clamp(x, lo, hi):"), "{text}");
        for leak in ["Clamp", "return x", "mermaid", "flowchart"] {
            assert!(!text.contains(leak), "{leak:?} in the signature prompt: {text}");
        }
    }

    #[test]
    fn a_whole_program_is_asked_for_as_a_program_under_every_code_condition() {
        let record = DistRecord {
            task_id: "stdio/pair_sum".into(),
            call_style: RecordStyle::Stdio,
            description: "Read n and a target, then n integers.".into(),
            title: "Pair sum".into(),
            mermaid: "flowchart TD\n  A[/read n/] --> B[/print -1/]".into(),
            mermaid_canonical: "flowchart TD\n    A[/read n/] --> B[/print -1/]\n".into(),
            ..Default::default()
        };
        let templates = Templates::load(None).expect("built-in templates");
        let sampling = Sampling { model: "m".into(), temperature: 0.0, top_p: 1.0, max_tokens: 10 };
        for condition in ["mermaid", "text", "signature"] {
            let condition: Condition = condition.parse().expect("condition");
            let requests = build_requests(
                std::slice::from_ref(&record),
                Path::new("no-dist"),
                &condition,
                &templates,
                &sampling,
                1,
            )
            .expect("no image is read");
            let text = requests[0].body["messages"][0]["content"].as_str().expect("text content");
            assert!(text.contains("standard input") && text.contains("standard output"), "{condition}: {text}");
            for wrong in ["Complete the", "starter code", "input() ", "called directly"] {
                assert!(!text.contains(wrong), "{condition}: {wrong:?} in a whole program's prompt: {text}");
            }
        }
        let two_step = code_request(&record, "flowchart TD\n  A --> B", &templates, &sampling, "id", false);
        let text = two_step.body["messages"][0]["content"].as_str().expect("text content");
        assert!(text.contains("standard input") && text.contains("A --> B"), "{text}");
        let signature =
            build_requests(&[record], Path::new("no-dist"), &Condition::Signature, &templates, &sampling, 1)
                .expect("signature");
        let text = signature[0].body["messages"][0]["content"].as_str().expect("text content");
        assert!(text.contains("Pair sum") && !text.contains("target"), "{text}");
    }
}
