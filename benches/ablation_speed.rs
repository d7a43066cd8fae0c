//! Speed figures of issue 12, run by `scripts/bench-ablation.sh`:
//! - the client against the scripted local server with 64 requests in
//!   flight (target ≥ 200 requests/s), with order and answers checked;
//! - `flowbench prompts` for 500 problems with images (target ≤ 2 s).

#[path = "../tests/support/openai_server.rs"]
mod openai_server;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use flowbench::bank::dist_record::{DistRecord, ImagePaths};
use flowbench::client::retry::RetryPolicy;
use flowbench::client::{BatchOptions, ChatClient, ClientConfig, Request, run_batch};
use serde_json::{Map, Value, json};

const REQUESTS: usize = 4000;
const PROBLEMS: usize = 500;

fn client_throughput(dir: &Path) -> f64 {
    let server = openai_server::Server::start(Duration::from_millis(10));
    let client = ChatClient::new(ClientConfig {
        endpoint: server.url.clone(),
        api_key: None,
        timeout: Duration::from_secs(30),
        retry: RetryPolicy::default(),
        pool: 64,
    })
    .expect("the test server's URL");
    let requests: Vec<Request> = (0..REQUESTS)
        .map(|i| Request {
            id: format!("r{i}"),
            body: json!({"model": "m", "messages": [{"role": "user", "content": format!("ok {i}")}]}),
        })
        .collect();
    let out = dir.join("answers.jsonl");
    let _ = std::fs::remove_file(&out);
    let opts = BatchOptions { jobs: 64, cache: None };
    let started = Instant::now();
    let report = run_batch(&client, &requests, &out, &opts, &flowbench::progress::Silent, |_, answer| {
        let mut m = Map::new();
        m.insert("content".into(), answer["choices"][0]["message"]["content"].clone());
        m
    })
    .expect("batch");
    let elapsed = started.elapsed().as_secs_f64();
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    let text = std::fs::read_to_string(&out).expect("answers");
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    assert_eq!(lines.len(), REQUESTS, "every answer kept");
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(
            (l["custom_id"].as_str(), l["content"].as_str()),
            (Some(format!("r{i}").as_str()), Some(format!("echo: ok {i}").as_str())),
            "order and answer"
        );
    }
    REQUESTS as f64 / elapsed
}

/// A dist/ of 500 problems whose images are a real rendered flowchart.
fn write_dist(dir: &Path, png: &[u8]) {
    std::fs::create_dir_all(dir.join("images/default")).expect("mkdir");
    let mut lines = String::new();
    for i in 0..PROBLEMS {
        let image = format!("images/default/p{i}.png");
        let mut bytes = png.to_vec();
        bytes.extend_from_slice(format!("{i}").as_bytes()); // distinct files
        std::fs::write(dir.join(&image), bytes).expect("png");
        let r = DistRecord {
            task_id: format!("s/p{i}"),
            prompt: "Compute the gcd.".into(),
            starter_code: format!("def p{i}(a, b):\n    pass\n"),
            entry_point: format!("p{i}"),
            test: "def check(candidate):\n    assert candidate(4, 6) == 2\n".into(),
            subset: "s".into(),
            difficulty: "easy".into(),
            title: format!("p{i}"),
            description: "Compute the gcd.".into(),
            style: "default".into(),
            images: [("default".to_string(), ImagePaths { raster: image, svg: String::new() })].into_iter().collect(),
            source: "test".into(),
            licence: "MIT".into(),
            ..Default::default()
        };
        lines.push_str(&serde_json::to_string(&r).expect("json"));
        lines.push('\n');
    }
    std::fs::write(dir.join("s.jsonl"), lines).expect("jsonl");
}

fn main() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bin = env!("CARGO_BIN_EXE_flowbench");
    let rates: Vec<f64> = (0..3).map(|_| client_throughput(dir.path())).collect();
    let best = rates.iter().copied().fold(0.0, f64::max);
    println!(
        "client: {REQUESTS} requests with -j 64, order and answers checked: best {best:.0} requests/s (runs: {})",
        rates.iter().map(|r| format!("{r:.0}")).collect::<Vec<_>>().join(", ")
    );

    let chart = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/gcd/flowchart.mmd");
    let png_path = dir.path().join("chart.png");
    let render = Command::new(bin).arg("render").arg(&chart).arg("-o").arg(&png_path).output().expect("render");
    assert!(render.status.success(), "{}", String::from_utf8_lossy(&render.stderr));
    let png = std::fs::read(&png_path).expect("png");
    let dist = dir.path().join("dist");
    write_dist(&dist, &png);
    let out = dir.path().join("requests.jsonl");
    let mut times = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        let run = Command::new(bin)
            .args(["prompts", "--condition", "flowchart", "--bench"])
            .arg(&dist)
            .arg("-o")
            .arg(&out)
            .output()
            .expect("prompts");
        times.push(started.elapsed().as_secs_f64());
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    }
    let lines = std::fs::read_to_string(&out).expect("requests").lines().count();
    assert_eq!(lines, PROBLEMS);
    let best = times.iter().copied().fold(f64::INFINITY, f64::min);
    println!(
        "prompts: {PROBLEMS} problems with {} KB images → {:.1} MB batch file: best {best:.3} s (runs: {})",
        png.len() / 1024,
        std::fs::metadata(&out).map_or(0.0, |m| m.len() as f64 / 1e6),
        times.iter().map(|t| format!("{t:.3}")).collect::<Vec<_>>().join(", ")
    );
}
