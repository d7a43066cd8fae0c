//! `FLOWBENCH_TIMINGS=1`: per-phase wall times (of `flowbench render`, `tests gen`, `variants`,
//! `check --against`) on stderr, so a slow render can be attributed (parse, layout, SVG, usvg,
//! rasterise, encode, write) without a profiler, and counts of the work
//! done (sandbox jobs and calls, helper requests: [`count`]), which unlike
//! times do not depend on the machine's load. Off by default and then
//! costs one cached environment lookup per phase.

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Instant;

/// Whether `FLOWBENCH_TIMINGS` is set to something other than `0`/empty.
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("FLOWBENCH_TIMINGS").is_some_and(|v| !v.is_empty() && v != "0"))
}

/// Runs `f`, printing `timing <name> <ms>` on stderr when enabled.
pub fn time<T>(name: &str, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    let t0 = Instant::now();
    let out = f();
    report(name, t0);
    out
}

/// Prints the time since `t0` under `name` when enabled.
pub fn report(name: &str, t0: Instant) {
    if enabled() {
        eprintln!("timing {name:<12} {:9.3} ms", t0.elapsed().as_secs_f64() * 1e3);
    }
}

/// The counters [`count`] adds to, by name.
fn counters() -> &'static Mutex<BTreeMap<&'static str, u64>> {
    static COUNTS: OnceLock<Mutex<BTreeMap<&'static str, u64>>> = OnceLock::new();
    COUNTS.get_or_init(Default::default)
}

/// Adds `n` to the counter `name` when enabled (the sandbox counts its
/// jobs and calls here, the helpers their requests).
pub fn count(name: &'static str, n: u64) {
    if enabled() {
        *counters().lock().unwrap_or_else(PoisonError::into_inner).entry(name).or_default() += n;
    }
}

/// Prints every counter, `count <name> <n>`, in name order, when enabled.
pub fn report_counts() {
    if enabled() {
        for (name, n) in counters().lock().unwrap_or_else(PoisonError::into_inner).iter() {
            eprintln!("count {name:<24} {n:>10}");
        }
    }
}
