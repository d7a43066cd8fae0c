//! What each export writes, read back: the parquet files as `datasets`
//! reads them (schema, `huggingface` features, row groups, values), the
//! card, the inspect samples and the VLMEvalKit TSV.

use base64::Engine as _;
use flowbench_export::{Target, export};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::RowAccessor as _;
use serde_json::Value as Json;

use super::{image_bytes, options, write_dist};

fn hf_export(n: usize) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    write_dist(dir.path(), n);
    let out = dir.path().join("hf");
    let done = export(&options(dir.path(), &out, Target::Hf)).expect("export");
    assert_eq!(done.files, ["data/basic.parquet", "data/more.parquet", "README.md"]);
    assert_eq!((done.rows, done.style.as_str()), (n, "default"));
    (dir, out)
}

#[test]
fn parquet_declares_the_image_feature_and_pages_in_small_row_groups() {
    let (_dir, out) = hf_export(250);
    let reader =
        SerializedFileReader::new(std::fs::File::open(out.join("data/basic.parquet")).expect("open")).expect("parquet");
    let meta = reader.metadata();
    assert_eq!(meta.file_metadata().num_rows(), 125);
    let groups: Vec<i64> = meta.row_groups().iter().map(|g| g.num_rows()).collect();
    assert_eq!(groups, [100, 25]);
    let kv = meta.file_metadata().key_value_metadata().expect("key-value metadata");
    let hf = kv.iter().find(|k| k.key == "huggingface").and_then(|k| k.value.as_deref()).expect("huggingface key");
    let features: Json = serde_json::from_str(hf).expect("json");
    assert_eq!(features["info"]["features"]["image"], serde_json::json!({"_type": "Image"}));
    assert_eq!(features["info"]["features"]["task_id"]["dtype"], "string");
    let leaves: Vec<String> = meta.file_metadata().schema_descr().columns().iter().map(|c| c.path().string()).collect();
    assert!(leaves.contains(&"image.bytes".to_string()) && leaves.contains(&"image.path".to_string()), "{leaves:?}");
    let row = reader.get_row_iter(None).expect("rows").next().expect("a row").expect("row");
    assert_eq!(row.get_string(0).expect("task_id"), "basic/add_0");
    let image = row.get_group(6).expect("image");
    assert_eq!(image.get_bytes(0).expect("bytes").data(), image_bytes(0, "default"));
    assert_eq!(image.get_string(1).expect("path"), "basic__add_0.png");
    assert_eq!(row.get_string(5).expect("prompt"), "[flowchart] def add_0(a, b):\n    pass\n");
}

#[test]
fn row_groups_hold_a_bounded_size_of_records_not_only_a_count() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_dist(dir.path(), 6);
    // Each `basic` record's line made about 6 MB: 16 MB holds two of them.
    let file = dir.path().join("basic.jsonl");
    let text = std::fs::read_to_string(&file).expect("read");
    let big: Vec<String> = text
        .lines()
        .map(|l| {
            let mut record: Json = serde_json::from_str(l).expect("json");
            record["description"] = Json::String("x".repeat(6 << 20));
            record.to_string()
        })
        .collect();
    std::fs::write(&file, big.join("\n") + "\n").expect("write");
    let out = dir.path().join("hf");
    export(&options(dir.path(), &out, Target::Hf)).expect("export");
    let read = |name: &str| {
        let reader = SerializedFileReader::new(std::fs::File::open(out.join(name)).expect("open")).expect("parquet");
        reader.metadata().row_groups().iter().map(|g| g.num_rows()).collect::<Vec<i64>>()
    };
    assert_eq!(read("data/basic.parquet"), [2, 1]);
    assert_eq!(read("data/more.parquet"), [3]);
}

#[test]
fn the_export_is_byte_for_byte_the_same_each_time() {
    let (dir, out) = hf_export(5);
    let again = dir.path().join("again");
    export(&options(dir.path(), &again, Target::Hf)).expect("export");
    for file in ["data/basic.parquet", "data/more.parquet", "README.md"] {
        assert_eq!(std::fs::read(out.join(file)).expect("a"), std::fs::read(again.join(file)).expect("b"), "{file}");
    }
}

#[test]
fn the_card_has_a_config_per_subset_and_the_manifest_in_its_body() {
    let (_dir, out) = hf_export(5);
    let card = std::fs::read_to_string(out.join("README.md")).expect("card");
    let (front, body) = card.strip_prefix("---\n").and_then(|c| c.split_once("\n---\n")).expect("front matter");
    assert!(front.contains("license: mit\n"), "{front}");
    assert!(front.contains("- config_name: basic\n  data_files:\n  - split: test\n    path: data/basic.parquet"));
    assert!(front.contains("  - name: image\n    dtype: image\n"), "{front}");
    assert!(front.contains("    num_examples: 3\n") && front.contains("    num_examples: 2"), "{front}");
    assert!(body.contains("| basic | all | 1 | 1.0 | 2.0 | 1.0 |"), "{body}");
    assert!(body.contains(&format!("Built by flowbench {}", env!("CARGO_PKG_VERSION"))), "{body}");
    assert!(body.contains("mean 0.900"), "{body}");
}

#[test]
fn the_card_lists_what_the_source_had_and_the_dataset_leaves_out_with_why() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_dist(dir.path(), 3);
    let file = dir.path().join("manifest.json");
    let mut manifest: Json = serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("json");
    manifest["left_out"] =
        serde_json::json!([{"task_id": "MATH/268", "reason": "no tests: a permutation with\none value missing"}]);
    manifest["failed"] = serde_json::json!(["add_9"]);
    std::fs::write(&file, manifest.to_string()).expect("write");
    let file = dir.path().join("summary.json");
    let mut summary: Json = serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("json");
    summary["reports"].as_array_mut().expect("reports").push(serde_json::json!({
        "name": "add_9", "ok": false, "diagnostics": ["warning: x", "error: solution.py:3:1: invalid syntax"],
        "failure": "error: solution.py:3:1: invalid syntax"
    }));
    // A failed problem from a dist that recorded no failure: no reason made up.
    manifest["failed"].as_array_mut().expect("failed").push("add_8".into());
    std::fs::write(dir.path().join("manifest.json"), manifest.to_string()).expect("write");
    summary["reports"].as_array_mut().expect("reports").push(serde_json::json!({
        "name": "add_8", "ok": false, "diagnostics": ["error: x"]
    }));
    std::fs::write(&file, summary.to_string()).expect("write");
    let out = dir.path().join("hf");
    export(&options(dir.path(), &out, Target::Hf)).expect("export");
    let card = std::fs::read_to_string(out.join("README.md")).expect("card");
    assert!(card.contains("## Left out\n\n3 problems of the source are not in this dataset:\n"), "{card}");
    assert!(card.contains("- `add_8`: its build failed\n"), "{card}");
    assert!(card.contains("- `MATH/268`: no tests: a permutation with one value missing\n"), "{card}");
    assert!(card.contains("- `add_9`: its build failed: error: solution.py:3:1: invalid syntax\n"), "{card}");
    let (_dir, whole) = hf_export(3);
    let card = std::fs::read_to_string(whole.join("README.md")).expect("card");
    assert!(!card.contains("## Left out"), "{card}");
}

#[test]
fn inspect_samples_carry_every_condition_and_the_chosen_style() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_dist(dir.path(), 3);
    let out = dir.path().join("inspect");
    let mut opts = options(dir.path(), &out, Target::Inspect);
    opts.style = Some("dark".into());
    export(&opts).expect("export");
    let text = std::fs::read_to_string(out.join("samples.jsonl")).expect("samples");
    let lines: Vec<Json> = text.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    let ids: Vec<&str> = lines.iter().filter_map(|l| l["id"].as_str()).collect();
    assert_eq!(ids, ["basic/add_0", "basic/add_2", "more/add_1"], "record files in name order");
    let line = &lines[2];
    assert_eq!(line["prompts"]["mermaid"], "[mermaid] def add_1(a, b):\n    pass\n");
    let image = line["image"].as_str().expect("image");
    assert_eq!(std::fs::read(out.join(image)).expect("copied"), image_bytes(1, "dark"));
    assert!(line["reference"].as_str().expect("reference").ends_with("    return a + b + 1\n"));
    let task = std::fs::read_to_string(out.join("flowbench_inspect.py")).expect("task");
    assert!(task.contains("STYLE = \"dark\"\nCONDITION = \"flowchart\"\n"), "{task}");
    assert_eq!(std::fs::read_to_string(out.join("problems.jsonl")).expect("problems").lines().count(), 3);
}

#[test]
fn the_vlmevalkit_tsv_has_its_columns_and_base64_images() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_dist(dir.path(), 2);
    let out = dir.path().join("vlm");
    export(&options(dir.path(), &out, Target::Vlmevalkit)).expect("export");
    let tsv = std::fs::read_to_string(out.join("FlowBench.tsv")).expect("tsv");
    let header = tsv.lines().next().expect("header");
    assert_eq!(header, "index\timage\tquestion\tanswer\tcategory\tsplit\ttask_id\tdifficulty\tentry_point");
    let image = base64::engine::general_purpose::STANDARD.encode(image_bytes(1, "default"));
    assert!(tsv.contains(&format!("\n1\t{image}\t\"[flowchart] def add_1(a, b):\n    pass\n\"\t")), "{tsv}");
    let py = std::fs::read_to_string(out.join("flowbench_vlmevalkit.py")).expect("py");
    assert!(py.contains("CONDITION = \"flowchart\"\n") && !py.contains("{{"), "placeholders filled");
}
