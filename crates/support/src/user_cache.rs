//! Where flowbench keeps per-user caches (`$XDG_CACHE_HOME/flowbench/NAME`,
//! else `~/.cache/flowbench/NAME`): answers that only save time, such as the
//! AST reader's and compiled C++ candidates. `FLOWBENCH_CACHE=off` turns
//! every cache off.

use std::path::{Path, PathBuf};

/// The cache directory named `name`, or `None` when caches are off or there
/// is no home to put it in.
pub fn dir(name: &str) -> Option<PathBuf> {
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if env("FLOWBENCH_CACHE").is_some_and(|v| v == Path::new("off")) {
        return None;
    }
    let base = env("XDG_CACHE_HOME").filter(|p| p.is_absolute()).or_else(|| env("HOME").map(|h| h.join(".cache")))?;
    Some(base.join("flowbench").join(name))
}
