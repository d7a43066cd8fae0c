//! inspect_ai: `flowbench_inspect.py` (an `@task` whose scorer calls
//! `flowbench judge`), `samples.jsonl` (each record's prompt text under
//! every condition, its image, its reference), the images of the chosen
//! style under `images/`, and `problems.jsonl` for the judge.

use serde_json::{Map, Value as Json, json};

use crate::error::ExportError;
use crate::source::Source;
use crate::{Condition, Exported, LineFile, Options, put};

/// The task file; `"{{STYLE}}"` and `"{{CONDITION}}"` are replaced by the
/// export's choices (as Python string literals).
pub const TASK_PY: &str = include_str!("../py/flowbench_inspect.py");

/// Writes the task, its samples, images and problems.
pub fn write(source: &Source, opts: &Options) -> Result<Exported, ExportError> {
    // One pass: each record's sample and its line of the judge's problems.
    let mut samples = LineFile::create(&opts.out, "samples.jsonl")?;
    let mut problems = LineFile::create(&opts.out, "problems.jsonl")?;
    for r in source.records() {
        let r = r?;
        let (name, bytes) = source.image(&r)?;
        let image = format!("images/{name}");
        put(&opts.out, &image, &bytes)?;
        let prompts: Map<String, Json> =
            Condition::ALL.iter().map(|c| (c.name().to_string(), Json::String((opts.prompt)(&r, *c)))).collect();
        let line = json!({
            "id": r.task_id,
            "prompts": prompts,
            "image": image,
            "reference": r.reference_program(),
            "metadata": {
                "subset": r.subset,
                "difficulty": r.difficulty,
                "title": r.title,
                "entry_point": r.entry_point,
                "call_style": r.call_style,
            },
        });
        samples.write(&line.to_string())?;
        samples.write("\n")?;
        problems.write_record(&r)?;
    }
    samples.finish()?;
    problems.finish()?;
    put(&opts.out, "flowbench_inspect.py", task_py(&source.style, opts.condition).as_bytes())?;
    Ok(Exported {
        files: vec!["samples.jsonl".into(), "problems.jsonl".into(), "flowbench_inspect.py".into()],
        rows: source.len(),
        images: source.len(),
        style: source.style.clone(),
    })
}

/// The task file with the export's style and default condition.
pub fn task_py(style: &str, condition: Condition) -> String {
    TASK_PY
        .replace("\"{{STYLE}}\"", &Json::String(style.into()).to_string())
        .replace("\"{{CONDITION}}\"", &Json::String(condition.name().into()).to_string())
}
