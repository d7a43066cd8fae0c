//! flowbench-export's tests on synthetic dists: what each export writes
//! (the parquet schema and metadata `datasets` reads, the TSV, the inspect
//! samples) and the bad input it refuses. The real harness libraries load
//! the bank's exports in the root package's `export_harness` tests.

mod bad_input;
mod outputs;

use std::path::Path;

use flowbench_dist::{DistRecord, ImagePaths};
use flowbench_export::{Condition, Options, Target};
use serde_json::json;

/// A dist of `n` records in subsets `basic` and `more` (alternating), each
/// with a `default` and a `dark` image, built by this version.
pub fn write_dist(dir: &Path, n: usize) {
    for style in ["default", "dark"] {
        std::fs::create_dir_all(dir.join("images").join(style)).expect("mkdir");
    }
    let mut files: std::collections::BTreeMap<String, String> = Default::default();
    for i in 0..n {
        let subset = if i % 2 == 0 { "basic" } else { "more" };
        let name = format!("add_{i}");
        let mut images = std::collections::BTreeMap::new();
        for style in ["default", "dark"] {
            let raster = format!("images/{style}/{subset}__{name}.png");
            std::fs::write(dir.join(&raster), image_bytes(i, style)).expect("image");
            images.insert(style.to_string(), ImagePaths { raster, svg: String::new() });
        }
        let record = DistRecord {
            task_id: format!("{subset}/{name}"),
            prompt: format!("def {name}(a, b):\n    \"\"\"Add.\"\"\"\n"),
            starter_code: format!("def {name}(a, b):\n    pass\n"),
            entry_point: name.clone(),
            test: format!("def check(candidate):\n    assert candidate(1, 2) == {}\n", 3 + i),
            subset: subset.into(),
            difficulty: "easy".into(),
            canonical_solution: format!("    return a + b + {i}\n"),
            title: format!("Add {i}"),
            description: format!("Return a + b + {i}.\tTabbed \"quoted\"."),
            native_tests: vec![serde_json::from_value(json!({"args": [1, 2], "expected": 3 + i})).expect("test")],
            mermaid: "flowchart TD\n  A --> B".into(),
            mermaid_canonical: format!("flowchart TD\n    A[start] --> B[\"return a + b + {i}\"]\n"),
            style: "default".into(),
            image: format!("images/default/{subset}__{name}.png"),
            images,
            source: "test".into(),
            licence: "MIT".into(),
            ..Default::default()
        };
        let text = files.entry(subset.to_string()).or_default();
        text.push_str(&serde_json::to_string(&record).expect("json"));
        text.push('\n');
    }
    for (subset, text) in &files {
        std::fs::write(dir.join(format!("{subset}.jsonl")), text).expect("jsonl");
    }
    write_manifest(dir, env!("CARGO_PKG_VERSION"));
    let summary = json!({"problems": n, "ok": n, "reports": (0..n).map(|i| json!({
        "name": format!("add_{i}"), "ok": true, "tests": {"typical": 1, "edge": 0, "large": 0}, "mutation_score": 0.9
    })).collect::<Vec<_>>()});
    std::fs::write(dir.join("summary.json"), summary.to_string()).expect("summary");
}

/// Writes the manifest as flowbench `version` would.
pub fn write_manifest(dir: &Path, version: &str) {
    let manifest = json!({
        "flowbench_version": version,
        "options": {"deny_warnings": false, "time_limit_s": 10.0, "styles": [
            {"id": "default", "name": "default", "file": {}, "overrides": {}},
            {"id": "dark", "name": "dark", "file": {}, "overrides": {}}
        ]},
        "styles": ["default", "dark"],
        "subsets": {"basic": "basic.jsonl", "more": "more.jsonl"},
        "problems": 2, "built": 2, "failed": [],
        "table1": [{"subset": "basic", "difficulty": "all", "problems": 1, "avg_tests": 1.0, "avg_nodes": 2.0, "avg_edges": 1.0}],
        "artefacts": {},
    });
    std::fs::write(dir.join("manifest.json"), manifest.to_string()).expect("manifest");
}

/// Distinct bytes per image (the export copies them; nothing decodes them here).
pub fn image_bytes(i: usize, style: &str) -> Vec<u8> {
    format!("\u{89}PNG fake image {i} in {style}").into_bytes()
}

pub fn prompt(record: &DistRecord, condition: Condition) -> String {
    format!("[{}] {}", condition.name(), record.starter_code)
}

pub fn options(dist: &Path, out: &Path, target: Target) -> Options<'static> {
    Options {
        dist: dist.into(),
        out: out.into(),
        target,
        style: None,
        condition: Condition::Flowchart,
        force: false,
        prompt: &prompt,
    }
}
