//! VLMEvalKit: `FlowBench.tsv` in its format (`index`, `image` as base64,
//! `question`, `answer`, `category`, `split`, plus the task id the judge
//! needs), `FlowBench.problems.jsonl` for the judge, and
//! `flowbench_vlmevalkit.py`, a dataset class whose `evaluate` calls
//! `flowbench judge` (registration steps in its docstring).

use base64::Engine as _;

use crate::error::ExportError;
use crate::source::Source;
use crate::{Exported, LineFile, Options, put, tsv};

/// The dataset's name in VLMEvalKit (`--data FlowBench`).
pub const NAME: &str = "FlowBench";

/// The TSV's columns, in order.
pub const COLUMNS: [&str; 9] =
    ["index", "image", "question", "answer", "category", "split", "task_id", "difficulty", "entry_point"];

/// The dataset class; `"{{CONDITION}}"` is replaced by the export's.
pub const DATASET_PY: &str = include_str!("../py/flowbench_vlmevalkit.py");

/// Writes the TSV, the problems and the dataset class.
pub fn write(source: &Source, opts: &Options) -> Result<Exported, ExportError> {
    // One pass: each record's TSV row and its line of the judge's problems.
    let tsv_name = format!("{NAME}.tsv");
    let problems_name = format!("{NAME}.problems.jsonl");
    let mut tsv_file = LineFile::create(&opts.out, &tsv_name)?;
    let mut problems = LineFile::create(&opts.out, &problems_name)?;
    tsv_file.write(&tsv::line(&COLUMNS))?;
    for (i, r) in source.records().enumerate() {
        let r = r?;
        let (_, bytes) = source.image(&r)?;
        let image = base64::engine::general_purpose::STANDARD.encode(&bytes);
        let question = (opts.prompt)(&r, opts.condition);
        let index = i.to_string();
        let reference = r.reference_program();
        let row = [&index, &image, &question, &reference, &r.subset, "test", &r.task_id, &r.difficulty, &r.entry_point];
        tsv_file.write(&tsv::line(&row))?;
        problems.write_record(&r)?;
    }
    tsv_file.finish()?;
    problems.finish()?;
    let py =
        DATASET_PY.replace("\"{{CONDITION}}\"", &serde_json::Value::String(opts.condition.name().into()).to_string());
    put(&opts.out, "flowbench_vlmevalkit.py", py.as_bytes())?;
    Ok(Exported {
        files: vec![tsv_name, problems_name, "flowbench_vlmevalkit.py".into()],
        rows: source.len(),
        images: source.len(),
        style: source.style.clone(),
    })
}
