//! What every flowbench crate shares, and nothing phase-specific:
//!
//! - [`file_error`]: a file that could not be read or written ([`FileError`]),
//!   and an error's causes on one line ([`chain`]);
//! - [`outfile`]: how outputs are written (atomically, never over an input);
//! - [`progress`]: how long work reports how far it is (drawn by the CLI);
//! - [`timings`]: `FLOWBENCH_TIMINGS=1` phase times and work counts;
//! - [`shard`]: `--shard I/N` selection, alike on every machine;
//! - [`user_cache`]: the per-user cache directory.

pub mod file_error;
pub mod outfile;
pub mod progress;
pub mod shard;
pub mod timings;
pub mod user_cache;

pub use file_error::{FileAction, FileError, chain};
