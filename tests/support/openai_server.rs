//! A scripted OpenAI-compatible `chat/completions` server on 127.0.0.1 for
//! tests and benchmarks (std only). What it does with a request depends on
//! the last message's text and on how often that text was seen before:
//!
//! - `429:N …`  the first N attempts get 429 with `Retry-After: 0.05`;
//! - `500:N …`  the first N attempts get 500;
//! - `bad:N …`  the first N attempts get a 200 with malformed JSON;
//! - `hang:N …` the first N attempts get no answer for `hang` (past the
//!   client's timeout), then the connection closes;
//! - `drop:N …` the first N attempts have their connection closed unanswered;
//! - `never …`  always 500;
//! - `reject …` 400 (not retryable);
//! - `sleep:MS …` a normal answer after MS milliseconds;
//! - anything else: 200 with the content `echo: <text>`, or, for a server
//!   made with [`Server::scripted`], the next scripted reply (the last one
//!   again once they run out).
//!
//! Every answer (and every attempt) is counted, so tests can check that
//! nothing was requested twice that needed no retry.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub struct Server {
    pub url: String,
    stop: Arc<AtomicBool>,
    seen: Arc<Mutex<HashMap<String, usize>>>,
    pub answered: Arc<AtomicUsize>,
    /// Scripted replies, in order; empty: echo.
    script: Arc<Mutex<Vec<String>>>,
    /// Every request body received, in order.
    pub received: Arc<Mutex<Vec<serde_json::Value>>>,
    addr: std::net::SocketAddr,
}

impl Server {
    /// Starts the server; `hang` is how long a hung answer stalls.
    pub fn start(hang: Duration) -> Server {
        Server::with_script(hang, Vec::new())
    }

    /// A server that answers its n-th request with `replies[n]` (the last
    /// reply once they run out): a model's scripted conversation.
    pub fn scripted(replies: &[&str]) -> Server {
        Server::with_script(Duration::from_secs(1), replies.iter().map(|r| r.to_string()).collect())
    }

    fn with_script(hang: Duration, replies: Vec<String>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let addr = listener.local_addr().expect("addr");
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(Mutex::new(HashMap::new()));
        let answered = Arc::new(AtomicUsize::new(0));
        let script = Arc::new(Mutex::new(replies));
        let received = Arc::new(Mutex::new(Vec::new()));
        let (stop2, seen2, answered2) = (stop.clone(), seen.clone(), answered.clone());
        let (script2, received2) = (script.clone(), received.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop2.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let (seen, answered, stop) = (seen2.clone(), answered2.clone(), stop2.clone());
                let (script, received) = (script2.clone(), received2.clone());
                std::thread::spawn(move || serve(stream, &seen, &answered, &stop, hang, &script, &received));
            }
        });
        Server { url: format!("http://{addr}/v1"), stop, seen, answered, script, received, addr }
    }

    /// How many attempts carried `text`.
    pub fn attempts(&self, text: &str) -> usize {
        self.seen.lock().expect("lock").get(text).copied().unwrap_or(0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = TcpStream::connect(self.addr);
    }
}

fn serve(
    stream: TcpStream,
    seen: &Mutex<HashMap<String, usize>>,
    answered: &AtomicUsize,
    stop: &AtomicBool,
    hang: Duration,
    script: &Mutex<Vec<String>>,
    received: &Mutex<Vec<serde_json::Value>>,
) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut out = stream;
    while !stop.load(Ordering::Relaxed) {
        let mut length = 0usize;
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let request: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        received.lock().expect("lock").push(request.clone());
        let text = request["messages"]
            .as_array()
            .and_then(|m| m.last())
            .map(|m| content_text(&m["content"]))
            .unwrap_or_default();
        let attempt = {
            let mut seen = seen.lock().expect("lock");
            let n = seen.entry(text.clone()).or_insert(0);
            *n += 1;
            *n - 1
        };
        let failing = |tag: &str| -> bool {
            text.strip_prefix(tag)
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|n| n.parse::<usize>().ok())
                .is_some_and(|n| attempt < n)
        };
        let (status, extra, payload) = if failing("429:") {
            (429, "Retry-After: 0.05\r\n", r#"{"error": {"message": "rate limited"}}"#.to_string())
        } else if failing("500:") || text.starts_with("never") {
            (500, "", r#"{"error": {"message": "boom"}}"#.to_string())
        } else if text.starts_with("reject") {
            (400, "", r#"{"error": {"message": "bad request"}}"#.to_string())
        } else if failing("bad:") {
            (200, "", r#"{"choices": [{"message": {"content": "trunc"#.to_string())
        } else if failing("hang:") {
            std::thread::sleep(hang);
            let _ = out.shutdown(Shutdown::Both);
            return;
        } else if failing("drop:") {
            let _ = out.shutdown(Shutdown::Both);
            return;
        } else {
            if let Some(ms) = text
                .strip_prefix("sleep:")
                .and_then(|r| r.split_whitespace().next())
                .and_then(|n| n.parse::<u64>().ok())
            {
                std::thread::sleep(Duration::from_millis(ms));
            }
            let n = answered.fetch_add(1, Ordering::Relaxed);
            let content = {
                let script = script.lock().expect("lock");
                script.get(n).or(script.last()).cloned().unwrap_or_else(|| format!("echo: {text}"))
            };
            let answer = serde_json::json!({
                "id": format!("cmpl-{attempt}"),
                "object": "chat.completion",
                "model": request["model"],
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": text.len(), "completion_tokens": 3, "total_tokens": text.len() + 3}
            });
            (200, "", answer.to_string())
        };
        let head = format!(
            "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{extra}\r\n",
            payload.len()
        );
        if out.write_all(head.as_bytes()).and_then(|_| out.write_all(payload.as_bytes())).is_err() {
            return;
        }
    }
}

/// A message's text: a string, or the text parts of a content array.
fn content_text(content: &serde_json::Value) -> String {
    match content {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(parts) => {
            parts.iter().filter_map(|p| p["text"].as_str()).collect::<Vec<_>>().join("\n")
        }
        _ => String::new(),
    }
}
