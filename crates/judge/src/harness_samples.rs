//! Samples made in a harness, read as the samples JSONL the judge reads
//! (`task_id`, `model`, `response`), so a run made in inspect_ai or
//! VLMEvalKit is judged, and fed to `ablation`, like any other:
//!
//! - an inspect_ai eval log: `.json`, or `.eval` (a zip of `header.json` and
//!   `samples/<id>_epoch_<n>.json`): each sample's `id`, the log's model, its
//!   output's `completion`, and its `epoch`;
//! - a VLMEvalKit prediction file, `.xlsx` (its default `PRED_FORMAT`, read
//!   with calamine: the first sheet) or `.tsv` (pandas' quoting): each
//!   row's `task_id` and `prediction`, the model its file name's
//!   (VLMEvalKit names it `<model>_<dataset>.xlsx`).
//!
//! Line numbers in diagnostics are then sample numbers (1-based) in the log
//! or data rows in the TSV.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value as Json, json};

/// The harness file formats `flowbench judge --samples` reads besides JSONL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HarnessFormat {
    InspectJson,
    InspectEval,
    VlmevalkitTsv,
    VlmevalkitXlsx,
}

impl HarnessFormat {
    /// The format of `path` by its extension; `None`: a samples JSONL.
    pub fn of(path: &Path) -> Option<HarnessFormat> {
        match path.extension()?.to_str()? {
            "json" => Some(HarnessFormat::InspectJson),
            "eval" => Some(HarnessFormat::InspectEval),
            "tsv" => Some(HarnessFormat::VlmevalkitTsv),
            "xlsx" => Some(HarnessFormat::VlmevalkitXlsx),
            _ => None,
        }
    }
}

/// Why a harness file cannot be read as samples.
#[derive(Debug, thiserror::Error)]
pub enum HarnessError {
    #[error("{}: not an inspect eval log: {reason}", file.display())]
    NotAnInspectLog { file: PathBuf, reason: String },
    #[error("{}: not a zip archive (an inspect .eval log): {source}", file.display())]
    Zip {
        file: PathBuf,
        #[source]
        source: zip::result::ZipError,
    },
    #[error("{}: no column `{column}` (a VLMEvalKit prediction file has `task_id` and `prediction`)", file.display())]
    MissingColumn { file: PathBuf, column: &'static str },
    #[error("{}: not a readable .xlsx workbook: {source}", file.display())]
    Xlsx {
        file: PathBuf,
        #[source]
        source: calamine::XlsxError,
    },
    #[error("{}: the workbook has no sheet", file.display())]
    NoSheet { file: PathBuf },
    #[error("{}: line {line}: a quoted field is not closed", file.display())]
    UnclosedQuote { file: PathBuf, line: usize },
}

/// `path`'s samples as JSONL text, one line per sample.
pub fn read_as_jsonl(path: &Path, format: HarnessFormat) -> std::io::Result<String> {
    let lines = match format {
        HarnessFormat::InspectJson => inspect_json(path),
        HarnessFormat::InspectEval => inspect_eval(path),
        HarnessFormat::VlmevalkitTsv => vlmevalkit_tsv(path),
        HarnessFormat::VlmevalkitXlsx => vlmevalkit_xlsx(path),
    };
    // The caller's error carries an `io::Error`; the typed cause stays its source.
    let lines = lines.map_err(|e| match e {
        Read::Io(e) => e,
        Read::Harness(e) => std::io::Error::new(std::io::ErrorKind::InvalidData, e),
    })?;
    Ok(lines.iter().map(|l| format!("{l}\n")).collect())
}

enum Read {
    Io(std::io::Error),
    Harness(HarnessError),
}

impl From<std::io::Error> for Read {
    fn from(e: std::io::Error) -> Read {
        Read::Io(e)
    }
}

impl From<HarnessError> for Read {
    fn from(e: HarnessError) -> Read {
        Read::Harness(e)
    }
}

fn not_a_log(file: &Path, reason: impl Into<String>) -> Read {
    Read::Harness(HarnessError::NotAnInspectLog { file: file.into(), reason: reason.into() })
}

fn parse_json(file: &Path, text: &str) -> Result<Json, Read> {
    serde_json::from_str(text).map_err(|e| not_a_log(file, e.to_string()))
}

fn inspect_json(path: &Path) -> Result<Vec<Json>, Read> {
    let log = parse_json(path, &std::fs::read_to_string(path)?)?;
    let model = log_model(&log);
    let samples = log.get("samples").and_then(Json::as_array).ok_or_else(|| not_a_log(path, "no `samples` list"))?;
    Ok(samples.iter().map(|s| inspect_sample(s, model)).collect())
}

fn inspect_eval(path: &Path) -> Result<Vec<Json>, Read> {
    let zip_error = |source| HarnessError::Zip { file: path.into(), source };
    let mut archive = zip::ZipArchive::new(std::fs::File::open(path)?).map_err(zip_error)?;
    let mut names: Vec<String> =
        archive.file_names().map(|n| n.map(|n| n.into_owned())).collect::<Result<_, _>>().map_err(zip_error)?;
    names.sort();
    let mut entry = |name: &str| -> Result<Json, Read> {
        let mut text = String::new();
        archive.by_name(name).map_err(zip_error)?.read_to_string(&mut text)?;
        parse_json(&path.join(name), &text)
    };
    // The header is written when the run ends; the journal's start before.
    let header = ["header.json", "_journal/start.json"].into_iter().find(|n| names.iter().any(|x| x == n));
    let header = match header {
        Some(name) => entry(name)?,
        None => return Err(not_a_log(path, "no header.json")),
    };
    let model = log_model(&header).map(String::from);
    let mut out = Vec::new();
    for name in names.iter().filter(|n| n.starts_with("samples/") && n.ends_with(".json")) {
        out.push(inspect_sample(&entry(name)?, model.as_deref()));
    }
    Ok(out)
}

/// The model of a log or its header (`eval.model`).
fn log_model(log: &Json) -> Option<&str> {
    log.pointer("/eval/model").and_then(Json::as_str)
}

/// One inspect sample as a samples line; a sample without an id or output
/// keeps what it has, and the judge reports the line.
fn inspect_sample(sample: &Json, model: Option<&str>) -> Json {
    let mut line = Map::new();
    let id = match sample.get("id") {
        Some(Json::Number(n)) => Some(Json::String(n.to_string())),
        other => other.cloned(),
    };
    if let Some(id) = id {
        line.insert("task_id".into(), id);
    }
    if let Some(model) = model.or_else(|| sample.pointer("/output/model").and_then(Json::as_str)) {
        line.insert("model".into(), json!(model));
    }
    if let Some(completion) = sample.pointer("/output/completion").and_then(Json::as_str) {
        line.insert("response".into(), json!(completion));
    }
    if let Some(epoch) = sample.get("epoch") {
        line.insert("epoch".into(), epoch.clone());
    }
    Json::Object(line)
}

fn vlmevalkit_tsv(path: &Path) -> Result<Vec<Json>, Read> {
    let text = std::fs::read_to_string(path)?;
    let rows = tsv_rows(path, &text)?;
    Ok(predictions(path, &rows)?)
}

/// The first sheet of a workbook, its cells as text (as pandas' `to_excel`
/// wrote them: strings as strings, the index as numbers).
fn vlmevalkit_xlsx(path: &Path) -> Result<Vec<Json>, Read> {
    use calamine::Reader as _;
    let xlsx_error = |source| HarnessError::Xlsx { file: path.into(), source };
    let mut workbook: calamine::Xlsx<_> = calamine::open_workbook(path).map_err(xlsx_error)?;
    let sheet = workbook.worksheet_range_at(0).ok_or_else(|| HarnessError::NoSheet { file: path.into() })?;
    let rows: Vec<Vec<String>> =
        sheet.map_err(xlsx_error)?.rows().map(|row| row.iter().map(ToString::to_string).collect()).collect();
    Ok(predictions(path, &rows)?)
}

/// A prediction file's rows (the first is the header) as samples lines.
fn predictions(path: &Path, rows: &[Vec<String>]) -> Result<Vec<Json>, HarnessError> {
    let Some((header, rows)) = rows.split_first() else { return Ok(Vec::new()) };
    let column = |name: &'static str| {
        header.iter().position(|h| h == name).ok_or(HarnessError::MissingColumn { file: path.into(), column: name })
    };
    let (task, prediction) = (column("task_id")?, column("prediction")?);
    let model = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let model = model.rsplit_once("_FlowBench").map_or(model.as_str(), |(m, _)| m).to_string();
    Ok(rows
        .iter()
        .map(|row| {
            let cell = |i: usize| row.get(i).cloned().unwrap_or_default();
            json!({"task_id": cell(task), "model": model, "response": cell(prediction)})
        })
        .collect())
}

/// Tab-separated rows as pandas writes them: a field in double quotes may
/// hold tabs, line breaks and doubled quotes.
fn tsv_rows(path: &Path, text: &str) -> Result<Vec<Vec<String>>, HarnessError> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut chars = text.chars().peekable();
    let (mut line, mut quoted_from) = (1, None);
    while let Some(c) = chars.next() {
        match (c, quoted_from.is_some()) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', true) => quoted_from = None,
            ('"', false) if field.is_empty() => quoted_from = Some(line),
            ('\t', false) => row.push(std::mem::take(&mut field)),
            ('\n', false) => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            ('\r', false) if chars.peek() == Some(&'\n') => {}
            (c, _) => field.push(c),
        }
        line += usize::from(c == '\n');
    }
    if let Some(line) = quoted_from {
        return Err(HarnessError::UnclosedQuote { file: path.into(), line });
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_fields_are_read_as_pandas_quotes_them() {
        let text = "index\ttask_id\tprediction\n0\ta/b\t\"x\ty\n\"\"z\"\"\"\n1\tc\tplain\r\n";
        let rows = tsv_rows(Path::new("p.tsv"), text).expect("rows");
        assert_eq!(
            rows,
            [vec!["index", "task_id", "prediction"], vec!["0", "a/b", "x\ty\n\"z\""], vec!["1", "c", "plain"]]
        );
        let err = tsv_rows(Path::new("p.tsv"), "a\n\"open\n").expect_err("unclosed");
        assert!(matches!(err, HarnessError::UnclosedQuote { line: 2, .. }), "{err}");
    }

    /// A workbook as xlsxwriter lays one out: shared strings, the index a
    /// number, a prediction with a line break.
    fn write_workbook(path: &Path) {
        use std::io::Write as _;
        let parts = [
            (
                "[Content_Types].xml",
                r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>"#,
            ),
            (
                "_rels/.rels",
                r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#,
            ),
            (
                "xl/workbook.xml",
                r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>"#,
            ),
            (
                "xl/_rels/workbook.xml.rels",
                r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>"#,
            ),
            (
                "xl/sharedStrings.xml",
                r#"<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="5" uniqueCount="5"><si><t>index</t></si><si><t>task_id</t></si><si><t>prediction</t></si><si><t>basic/add_0</t></si><si><t xml:space="preserve">```python
x = 1
```</t></si></sst>"#,
            ),
            (
                "xl/worksheets/sheet1.xml",
                r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row><row r="2"><c r="A2"><v>0</v></c><c r="B2" t="s"><v>3</v></c><c r="C2" t="s"><v>4</v></c></row></sheetData></worksheet>"#,
            ),
        ];
        let mut zip = zip::ZipWriter::new(std::fs::File::create(path).expect("create"));
        for (name, text) in parts {
            zip.start_file(name, zip::write::SimpleFileOptions::default()).expect("entry");
            zip.write_all(text.as_bytes()).expect("write");
        }
        zip.finish().expect("zip");
    }

    #[test]
    fn an_xlsx_prediction_file_reads_as_its_rows() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("gpt-4o_FlowBench.xlsx");
        write_workbook(&path);
        let text = read_as_jsonl(&path, HarnessFormat::of(&path).expect("a harness format")).expect("read");
        let line: Json = serde_json::from_str(text.trim()).expect("one line");
        assert_eq!(line, json!({"task_id": "basic/add_0", "model": "gpt-4o", "response": "```python\nx = 1\n```"}));
        let bad = dir.path().join("bad.xlsx");
        std::fs::write(&bad, "not a workbook").expect("write");
        let err = read_as_jsonl(&bad, HarnessFormat::VlmevalkitXlsx).expect_err("refused");
        assert!(err.to_string().contains("bad.xlsx: not a readable .xlsx workbook"), "{err}");
    }

    #[test]
    fn an_inspect_sample_becomes_a_samples_line() {
        let sample = json!({"id": 7, "epoch": 2, "output": {"model": "m", "completion": "```python\nx\n```"}});
        let line = inspect_sample(&sample, Some("openai/gpt"));
        assert_eq!(line, json!({"task_id": "7", "model": "openai/gpt", "response": "```python\nx\n```", "epoch": 2}));
    }
}
