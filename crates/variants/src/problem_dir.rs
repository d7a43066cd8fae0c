//! A candidate written as a bank problem directory: the changed solution,
//! `problem.toml` (the original's spec, `[meta]` naming the original and
//! the kind), `problem.json` (its own task id; no tests yet: the original's
//! expected values belong to the original, `prove` has the variant answer
//! their inputs), a description that
//! says the chart is the whole specification (the original's statement
//! describes the original's behaviour and would give it away), and the
//! chart re-drawn from the changed solution. `tests.jsonl` is `prove`'s.

use std::path::Path;

use flowbench_support::{FileAction, FileError};

use super::Kind;
use super::candidates::Candidate;
use super::error::VariantError;
use super::screen::Original;
use flowbench_author::{Detail, draw_source};
use flowbench_bank::meta::{DESCRIPTION, PROBLEM_TOML};
use flowbench_bank::{FLOWCHART, PROBLEM, SOLUTION};

/// The description of a function's variant: the chart alone specifies it.
pub const CHART_ONLY: &str = "This problem is specified by its flowchart alone. Implement the function in the \
starter code exactly as the flowchart describes; it may differ from any well-known problem it resembles.\n";

/// The description of a whole program's variant: the chart's input and
/// output nodes say what it reads and prints.
pub const CHART_ONLY_PROGRAM: &str = "This problem is specified by its flowchart alone. Write the whole program \
exactly as the flowchart describes: it reads standard input and prints to standard output as the chart's input and \
output steps say; it may differ from any well-known problem it resembles.\n";

/// Writes the variant directory `target` (replacing one left from an
/// earlier run). A solution the reader cannot draw is an error.
pub fn write(original: &Original, candidate: &Candidate, kind: Kind, target: &Path) -> Result<(), VariantError> {
    if target.exists() {
        std::fs::remove_dir_all(target).map_err(FileError::removing(target))?;
    }
    std::fs::create_dir_all(target).map_err(FileError::creating(target))?;
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // A whole program is drawn from its first line, as the bank draws one.
    let entry = match original.is_program() {
        true => None,
        false => Some(candidate.names.get(&original.input.entry_point).unwrap_or(&original.input.entry_point)),
    };
    let chart = draw_source(&candidate.source, entry.map(String::as_str), Detail::Medium)
        .map_err(|error| VariantError::Draw { target: target.into(), error })?;
    let description = if original.is_program() { CHART_ONLY_PROGRAM } else { CHART_ONLY };
    let files = [
        (SOLUTION, candidate.source.clone()),
        (PROBLEM_TOML, spec_text(original, candidate, kind)?),
        (PROBLEM, problem_json(original, candidate, &name)?),
        (DESCRIPTION, description.to_string()),
        (FLOWCHART, chart),
    ];
    for (file, text) in files {
        let path = target.join(file);
        flowbench_support::outfile::write_atomic(&path, text.as_bytes()).map_err(FileError::writing(&path))?;
    }
    Ok(())
}

/// The original's `problem.toml` with `variant_of` and `variant_kind` in
/// `[meta]` (and, renamed, its parameter names).
fn spec_text(original: &Original, candidate: &Candidate, kind: Kind) -> Result<String, VariantError> {
    let path = original.input.dir.join(PROBLEM_TOML);
    let mut doc: toml::Table = match toml::from_str(&original.input.spec_text) {
        Ok(doc) => doc,
        Err(source) => return Err(VariantError::Spec { path, source }),
    };
    // A whole program's `[stdin]` format names the input's fields, not the
    // program's variables.
    if !original.is_program() {
        super::rename::spec(&mut doc, &candidate.names);
    }
    let Some(meta) = doc.entry("meta").or_insert_with(|| toml::Value::Table(toml::Table::new())).as_table_mut() else {
        return Err(VariantError::MetaNotATable { path });
    };
    meta.insert("variant_of".into(), toml::Value::String(original.name.clone()));
    meta.insert("variant_kind".into(), toml::Value::String(kind.as_str().into()));
    let body = toml::to_string(&doc).map_err(VariantError::SpecText)?;
    Ok(format!("# A variant of {} made by `flowbench variants` ({}).\n{body}", original.name, kind.as_str()))
}

/// The original's `problem.json` under the variant's name, without tests
/// (and, renamed, with the new entry point and starter code).
fn problem_json(original: &Original, candidate: &Candidate, name: &str) -> Result<String, VariantError> {
    let path = original.input.dir.join(PROBLEM);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(source) => return Err(FileError::new(FileAction::Read, &path, source).into()),
    };
    let mut value: serde_json::Value = match serde_json::from_str(&text) {
        Ok(value) => value,
        Err(source) => return Err(VariantError::JsonFile { path, source }),
    };
    let Some(object) = value.as_object_mut() else { return Err(VariantError::NotAnObject { path }) };
    object.insert("task_id".into(), name.into());
    object.insert("tests".into(), serde_json::Value::Array(Vec::new()));
    for field in ["entry_point", "starter_code"] {
        if let Some(serde_json::Value::String(text)) = object.get_mut(field) {
            *text = super::rename::apply(text, &candidate.names);
        }
    }
    Ok(serde_json::to_string_pretty(&value)? + "\n")
}
