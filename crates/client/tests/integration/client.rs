//! The chat-completions client against a scripted local server: every
//! failure mode is survived, nothing completed is lost or duplicated, and
//! an interrupted run resumes to the same file as an uninterrupted one.

use std::path::Path;
use std::time::Duration;

use crate::openai_server::Server;
use flowbench_client::retry::RetryPolicy;
use flowbench_client::{BatchOptions, Cache, ChatClient, ClientConfig, Request, run_batch};
use serde_json::{Map, Value as Json, json};

fn client(url: &str) -> ChatClient {
    ChatClient::new(ClientConfig {
        endpoint: url.to_string(),
        api_key: Some("test-key".into()),
        timeout: Duration::from_millis(400),
        retry: RetryPolicy { max_retries: 4, base: Duration::from_millis(20), max: Duration::from_millis(200) },
        pool: 8,
    })
    .expect("the test server's URL")
}

fn requests(texts: &[String]) -> Vec<Request> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| Request {
            id: format!("r{i}"),
            body: json!({"model": "m", "messages": [{"role": "user", "content": t}]}),
        })
        .collect()
}

fn line(_: &Request, answer: &Json) -> Map<String, Json> {
    let mut m = Map::new();
    m.insert("content".into(), answer["choices"][0]["message"]["content"].clone());
    m
}

fn lines(path: &Path) -> Vec<Json> {
    std::fs::read_to_string(path).expect("read").lines().map(|l| serde_json::from_str(l).expect("json line")).collect()
}

fn mixed_texts() -> Vec<String> {
    let kinds = ["ok", "429:2", "500:1", "bad:1", "hang:1", "drop:2", "ok"];
    (0..42).map(|i| format!("{} {i}", kinds[i % kinds.len()])).collect()
}

#[test]
fn survives_every_failure_mode_in_order_without_loss_or_duplicates() {
    let server = Server::start(Duration::from_millis(1500));
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("answers.jsonl");
    let texts = mixed_texts();
    let reqs = requests(&texts);
    let opts = BatchOptions { jobs: 8, cache: None };
    let report =
        run_batch(&client(&server.url), &reqs, &out, &opts, &flowbench_support::progress::Silent, line).expect("batch");
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert_eq!(report.fetched, 42);
    let got = lines(&out);
    assert_eq!(got.len(), 42);
    for (i, l) in got.iter().enumerate() {
        assert_eq!(l["custom_id"], json!(format!("r{i}")));
        assert_eq!(l["content"], json!(format!("echo: {}", texts[i])));
    }
    // Every request was answered exactly once by the server.
    assert_eq!(server.answered.load(std::sync::atomic::Ordering::Relaxed), 42);
    assert_eq!(server.attempts(&texts[1]), 3, "two 429s then success");
    assert_eq!(server.attempts(&texts[5]), 3, "two drops then success");
    // A second run has nothing to do and leaves the file unchanged.
    let before = std::fs::read(&out).expect("read");
    let again =
        run_batch(&client(&server.url), &reqs, &out, &opts, &flowbench_support::progress::Silent, line).expect("batch");
    assert_eq!((again.resumed, again.fetched), (42, 0));
    assert_eq!(std::fs::read(&out).expect("read"), before);
}

#[test]
fn permanent_and_exhausted_failures_write_nothing_and_are_retried_later() {
    let server = Server::start(Duration::from_millis(10));
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("answers.jsonl");
    let texts: Vec<String> = vec!["ok a".into(), "reject b".into(), "never c".into(), "ok d".into()];
    let reqs = requests(&texts);
    let opts = BatchOptions { jobs: 2, cache: None };
    let report =
        run_batch(&client(&server.url), &reqs, &out, &opts, &flowbench_support::progress::Silent, line).expect("batch");
    assert_eq!(report.failed.keys().cloned().collect::<Vec<_>>(), vec!["r1".to_string(), "r2".to_string()]);
    assert!(report.failed["r1"].contains("400"), "{}", report.failed["r1"]);
    assert!(report.failed["r2"].contains("gave up after 5 attempts"), "{}", report.failed["r2"]);
    assert_eq!(server.attempts("reject b"), 1, "a 400 is not retried");
    let ids: Vec<Json> = lines(&out).iter().map(|l| l["custom_id"].clone()).collect();
    assert_eq!(ids, vec![json!("r0"), json!("r3")]);
    let again =
        run_batch(&client(&server.url), &reqs, &out, &opts, &flowbench_support::progress::Silent, line).expect("batch");
    assert_eq!((again.resumed, again.failed.len()), (2, 2));
}

#[test]
fn interrupted_run_resumes_to_the_uninterrupted_file() {
    let server = Server::start(Duration::from_millis(600));
    let dir = tempfile::tempdir().expect("tempdir");
    let texts = mixed_texts();
    let reqs = requests(&texts);
    let opts = BatchOptions { jobs: 4, cache: None };
    let whole = dir.path().join("whole.jsonl");
    run_batch(&client(&server.url), &reqs, &whole, &opts, &flowbench_support::progress::Silent, line).expect("batch");
    // An interrupted run: some answers appended out of order, then a kill
    // in the middle of a line.
    let full = std::fs::read_to_string(&whole).expect("read");
    let all: Vec<&str> = full.lines().collect();
    let partial = dir.path().join("partial.jsonl");
    let mut text: String = [all[7], all[2], all[30], all[0]].iter().map(|l| format!("{l}\n")).collect();
    text.push_str(&all[11][..all[11].len() / 2]);
    std::fs::write(&partial, text).expect("write");
    let report = run_batch(&client(&server.url), &reqs, &partial, &opts, &flowbench_support::progress::Silent, line)
        .expect("resume");
    assert_eq!((report.resumed, report.fetched), (4, 38));
    assert!(report.warnings.iter().any(|w| w.contains("partial last line")));
    assert_eq!(std::fs::read_to_string(&partial).expect("read"), full);
}

#[test]
fn cache_answers_a_second_output_without_the_network() {
    let server = Server::start(Duration::from_millis(10));
    let dir = tempfile::tempdir().expect("tempdir");
    let texts: Vec<String> = (0..10).map(|i| format!("ok {i}")).collect();
    let reqs = requests(&texts);
    let opts = BatchOptions { jobs: 3, cache: Some(Cache::new(&dir.path().join("cache"))) };
    let first = run_batch(
        &client(&server.url),
        &reqs,
        &dir.path().join("a.jsonl"),
        &opts,
        &flowbench_support::progress::Silent,
        line,
    )
    .expect("batch");
    let second = run_batch(
        &client(&server.url),
        &reqs,
        &dir.path().join("b.jsonl"),
        &opts,
        &flowbench_support::progress::Silent,
        line,
    )
    .expect("batch");
    assert_eq!((first.fetched, first.cached, second.fetched, second.cached), (10, 0, 0, 10));
    assert_eq!(server.answered.load(std::sync::atomic::Ordering::Relaxed), 10);
    assert_eq!(
        std::fs::read(dir.path().join("a.jsonl")).expect("a"),
        std::fs::read(dir.path().join("b.jsonl")).expect("b")
    );
}

/// An endpoint that is no URL is refused when the client is made, naming
/// it, instead of every request being retried until it gives up.
#[test]
fn an_endpoint_that_is_no_url_is_refused_before_any_request() {
    let config = |endpoint: &str| ClientConfig {
        endpoint: endpoint.to_string(),
        api_key: None,
        timeout: Duration::from_millis(100),
        retry: RetryPolicy::default(),
        pool: 1,
    };
    for (endpoint, why) in
        [("URL", "not an http or https URL"), ("ftp://host/v1", "not an http or https URL"), ("http://", "not a URL")]
    {
        let err = ChatClient::new(config(endpoint)).err().unwrap_or_else(|| panic!("{endpoint} accepted"));
        assert_eq!((err.endpoint.as_str(), err.why), (endpoint, why));
        assert!(err.to_string().starts_with(&format!("endpoint `{endpoint}`")), "{err}");
    }
    assert!(ChatClient::new(config("https://api.example.com/v1")).is_ok());
}
