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

pub mod batch;
pub mod cache;
pub mod http;
pub mod retry;

pub use batch::{BatchOptions, BatchReport, Request, run_batch};
pub use cache::Cache;
pub use http::{ChatClient, ClientConfig, ClientError};
