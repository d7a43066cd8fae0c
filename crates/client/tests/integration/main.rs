//! flowbench-client's integration tests, linked as one binary: the client
//! against a scripted local chat-completions server (retries, timeouts, the
//! cache, resume).

/// The scripted server, shared with the root package's tests and benches.
#[path = "../../../../tests/support/openai_server.rs"]
mod openai_server;

mod client;
