//! What every flowbench crate shares, and nothing phase-specific:
//!
//! - [`outfile`]: how outputs are written (atomically, never over an input);
//! - [`progress`]: how long work reports how far it is (drawn by the CLI);
//! - [`timings`]: `FLOWBENCH_TIMINGS=1` phase times and work counts;
//! - [`shard`]: `--shard I/N` selection, alike on every machine;
//! - [`user_cache`]: the per-user cache directory.

pub mod outfile;
pub mod progress;
pub mod shard;
pub mod timings;
pub mod user_cache;
