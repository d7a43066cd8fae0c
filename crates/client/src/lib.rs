//! An OpenAI-compatible chat-completions client for batches of requests:
//! what `generate` (the ablation's model runs) and `author` share.
//!
//! Data flow: a list of [`Request`]s (an id plus a `chat.completions` body)
//! goes to [`batch::run_batch`], which skips ids already in the output file,
//! sends the rest on `jobs` threads through one [`ChatClient`] (retries with
//! backoff in [`retry`], answers memoised by [`cache::Cache`]), appends each
//! finished line as it completes and finally rewrites the file in input
//! order, so an interrupted run resumes and ends byte-identical to an
//! uninterrupted one.
//!
//! # How it works
//!
//! The one OpenAI-compatible chat-completions client (`generate`, `author`): a list of `client::Request`s (id +
//! `chat.completions` body) goes to `batch::run_batch`, which skips ids already in the output JSONL (a partial last
//! line from a kill is cut), sends the rest on `-j` threads through one pooled `ureq` agent (`http::ChatClient`:
//! per-attempt timeout; `retry` backs off exponentially with full jitter on 429/5xx/timeouts/dropped
//! connections/malformed answers, honouring `Retry-After`), memoises answers in `cache::Cache` (SHA-256 of
//! endpoint, id and body; atomic files), appends each answer line as it arrives and rewrites the file in request
//! order at the end, so a resumed run ends byte-identical to an uninterrupted one.

pub mod batch;
pub mod cache;
pub mod http;
pub mod retry;

pub use batch::{BatchError, BatchOptions, BatchReport, Request, run_batch};
pub use cache::{Cache, CacheError};
pub use http::{ChatClient, ClientConfig, ClientError, EndpointError};
