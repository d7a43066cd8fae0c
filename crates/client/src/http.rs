//! One chat-completions call with retries: the only place flowbench talks
//! HTTP. Blocking (`ureq`), one connection pool shared by every thread.

use std::time::Duration;

use serde_json::Value as Json;

use super::retry::{RetryPolicy, parse_retry_after, retryable_status};

/// Where and how to call the model.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// Base URL (`http://host:8000/v1`) or the full
    /// `…/chat/completions` URL.
    pub endpoint: String,
    /// Sent as `Authorization: Bearer …` when present (local servers
    /// usually need none).
    pub api_key: Option<String>,
    /// Limit on one attempt, connect to last byte; a hung server counts as
    /// a failed attempt and is retried.
    pub timeout: Duration,
    pub retry: RetryPolicy,
    /// Idle connections kept per host; set to the concurrency so that
    /// every worker reuses its connection.
    pub pool: usize,
}

/// Why a request produced no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    /// Retrying cannot help (bad request, wrong key, unknown model…).
    #[error("{0}")]
    Permanent(String),
    /// Every attempt failed with a transient error; the last one is given.
    #[error("gave up after {attempts} attempts: {last}")]
    Exhausted { attempts: u32, last: String },
}

/// Why an endpoint cannot be called at all: found before any request, so a
/// typo is one error instead of every request retried until it gives up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("endpoint `{endpoint}`: {why} (expected a URL such as http://127.0.0.1:8000/v1)")]
pub struct EndpointError {
    pub endpoint: String,
    pub why: &'static str,
}

/// The outcome of one attempt.
enum Attempt {
    Answer(Json),
    Retry { why: String, retry_after: Option<Duration> },
    Fail(String),
}

/// A chat-completions client.
pub struct ChatClient {
    agent: ureq::Agent,
    url: String,
    config: ClientConfig,
}

impl ChatClient {
    /// A client for `config.endpoint`, refused when that is no http(s) URL
    /// with a host.
    pub fn new(config: ClientConfig) -> Result<ChatClient, EndpointError> {
        check_endpoint(&config.endpoint)?;
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            .http_status_as_error(false)
            .max_idle_connections(config.pool.max(1) * 2)
            .max_idle_connections_per_host(config.pool.max(1))
            .build()
            .into();
        let base = config.endpoint.trim_end_matches('/');
        let url =
            if base.ends_with("/chat/completions") { base.to_string() } else { format!("{base}/chat/completions") };
        Ok(ChatClient { agent, url, config })
    }

    /// The URL requests go to.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Sends `body` until it gets a well-formed answer (a JSON object with
    /// `choices`), retrying transient failures per the [`RetryPolicy`].
    pub fn complete(&self, body: &Json, rng: &mut fastrand::Rng) -> Result<Json, ClientError> {
        let policy = self.config.retry;
        let mut attempt = 0;
        loop {
            match self.attempt(body) {
                Attempt::Answer(json) => return Ok(json),
                Attempt::Fail(why) => return Err(ClientError::Permanent(why)),
                Attempt::Retry { why, retry_after } => {
                    if attempt >= policy.max_retries {
                        return Err(ClientError::Exhausted { attempts: attempt + 1, last: why });
                    }
                    std::thread::sleep(policy.delay(attempt, retry_after, rng));
                    attempt += 1;
                }
            }
        }
    }

    fn attempt(&self, body: &Json) -> Attempt {
        let mut request = self.agent.post(&self.url).header("Content-Type", "application/json");
        if let Some(key) = &self.config.api_key {
            request = request.header("Authorization", format!("Bearer {key}"));
        }
        let mut response = match request.send(body.to_string()) {
            Ok(r) => r,
            Err(e) => return transport_error(e),
        };
        let status = response.status().as_u16();
        let retry_after =
            response.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(parse_retry_after);
        let text = match response.body_mut().with_config().limit(64 << 20).read_to_string() {
            Ok(t) => t,
            Err(e) => return transport_error(e),
        };
        if status != 200 {
            let why = format!("HTTP {status}: {}", snippet(&text));
            return if retryable_status(status) { Attempt::Retry { why, retry_after } } else { Attempt::Fail(why) };
        }
        match serde_json::from_str::<Json>(&text) {
            Ok(json) if json.get("choices").is_some_and(Json::is_array) => Attempt::Answer(json),
            // A truncated or garbled answer is a transport accident, not the model's.
            Ok(_) => Attempt::Retry { why: format!("answer without `choices`: {}", snippet(&text)), retry_after: None },
            Err(e) => {
                Attempt::Retry { why: format!("malformed JSON answer ({e}): {}", snippet(&text)), retry_after: None }
            }
        }
    }
}

fn check_endpoint(endpoint: &str) -> Result<(), EndpointError> {
    let refuse = |why| Err(EndpointError { endpoint: endpoint.to_string(), why });
    let Ok(uri) = endpoint.parse::<ureq::http::Uri>() else { return refuse("not a URL") };
    match (uri.scheme_str(), uri.host()) {
        (Some("http" | "https"), Some(host)) if !host.is_empty() => Ok(()),
        (Some("http" | "https"), _) => refuse("no host"),
        _ => refuse("not an http or https URL"),
    }
}

fn transport_error(e: ureq::Error) -> Attempt {
    match e {
        ureq::Error::BadUri(_) | ureq::Error::InvalidProxyUrl | ureq::Error::HostNotFound | ureq::Error::Http(_) => {
            Attempt::Fail(e.to_string())
        }
        // Timeouts, refused or dropped connections, protocol garbage.
        other => Attempt::Retry { why: other.to_string(), retry_after: None },
    }
}

fn snippet(text: &str) -> String {
    let cut: String = text.chars().take(200).collect();
    if cut.len() < text.len() { format!("{cut}…") } else { cut }
}
