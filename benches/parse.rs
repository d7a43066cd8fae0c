//! Parser throughput: a typical 20-node flowchart and generated charts of
//! 1,000 and 10,000 nodes (1.5 edges per node). Prints the best and median
//! thread-CPU time per parse and the per-node cost of both generated sizes
//! with their ratio; run with `cargo bench --bench parse` (optimised build).
//! Targets: ≤ 50 µs for the typical chart, ≤ 50 ms for 10k nodes / 15k edges,
//! with time growing linearly in size.

use std::hint::black_box;
use std::time::{Duration, Instant};

use flowbench::mermaid::{ParseOptions, parse_with};

/// A hand-written chart of the size and variety benchmark problems have.
const TYPICAL: &str = r#"flowchart TD
    start([Start]) --> read[/Read n/]
    read --> check{n < 0?}
    check -->|yes| err[Raise ValueError]
    check -->|no| init[i = 0, acc = 1]
    init --> loop{i < n?}
    loop -- yes --> mul[acc = acc * i]
    mul --> inc[i = i + 1]
    inc --> loop
    loop -- no --> fmt["format(acc)"]
    fmt --> out[/Print result/]
    out --> done([End])
    err --> done
    subgraph helpers [Helpers]
        direction LR
        h1[(cache)] -.-> h2[[memo]]
        h2 ==> h3((hit))
        h3 --> h4{{prepare}}
        h4 --> h5>note]
        h5 --> h6[\trap/]
        h6 --> h7(rounded)
    end
    mul -.-> h1
    classDef io fill:#eef,stroke:#33f
    class read,out io
    style err fill:#fdd,stroke:#c00
    linkStyle 0 stroke:#0a0,stroke-width:2px
"#;

/// `n` nodes with labels, a spanning chain plus `n / 2` extra edges chosen
/// by a fixed LCG, so the text is the same on every run.
fn generated(n: usize) -> String {
    let mut s = String::with_capacity(n * 40);
    s.push_str("flowchart TD\n");
    for i in 0..n {
        s.push_str(&format!("    n{i}[Step {i}]\n"));
    }
    for i in 1..n {
        s.push_str(&format!("    n{} --> n{i}\n", i - 1));
    }
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..(n / 2 + 1) {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let a = (x >> 33) as usize % n;
        let b = (x >> 13) as usize % n;
        s.push_str(&format!("    n{a} -.->|jump| n{b}\n"));
    }
    s
}

/// CPU time of this thread: on a shared, overloaded machine wall-clock
/// time mostly measures the other tenants.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid out-pointer; the clock id is a constant.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Best and median thread-CPU time per parse, and the run count.
struct Times {
    best: Duration,
    median: Duration,
    runs: usize,
}

/// One timed parse, freeing the chart included (as a caller pays it).
fn timed(text: &str, opts: &ParseOptions) -> Duration {
    let c = thread_cpu();
    black_box(parse_with(black_box(text), opts).ok());
    thread_cpu() - c
}

fn opts() -> ParseOptions {
    ParseOptions { max_edges: usize::MAX, max_text_size: None }
}

fn summarize(mut cpu: Vec<Duration>) -> Times {
    cpu.sort();
    Times { best: cpu[0], median: cpu[cpu.len() / 2], runs: cpu.len() }
}

fn report(name: &str, text: &str, t: &Times) {
    let fc = parse_with(text, &opts()).expect("benchmark chart parses");
    println!(
        "{name:<22} {:>6} nodes {:>6} edges {:>7} bytes  cpu best {:>10.3?} median {:>10.3?}  ({} runs)",
        fc.nodes.len(),
        fc.edges.len(),
        text.len(),
        t.best,
        t.median,
        t.runs
    );
}

/// Repeated parses of one text for `budget`.
fn measure(name: &str, text: &str, budget: Duration) -> Times {
    let opts = opts();
    let mut cpu = Vec::new();
    let start = Instant::now();
    while start.elapsed() < budget || cpu.len() < 5 {
        cpu.push(timed(text, &opts));
    }
    let t = summarize(cpu);
    report(name, text, &t);
    t
}

/// Parses of `small` and `large` interleaved (`reps` small ones per large
/// one) so that both see the same machine load: the per-node ratio is the
/// figure that shows whether time grows linearly, and on a shared machine
/// measuring the two one after the other mostly compares two load levels.
fn measure_pair(small: (&str, &str), large: (&str, &str), reps: usize, budget: Duration) -> (Times, Times) {
    let opts = opts();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let start = Instant::now();
    while start.elapsed() < budget || b.len() < 5 {
        for _ in 0..reps {
            a.push(timed(small.1, &opts));
        }
        b.push(timed(large.1, &opts));
    }
    let (a, b) = (summarize(a), summarize(b));
    report(small.0, small.1, &a);
    report(large.0, large.1, &b);
    (a, b)
}

fn main() {
    println!("flowbench parser benchmark: thread-CPU time per parse (best and median)");
    let typical = measure("typical 20-node chart", TYPICAL, Duration::from_millis(1500)).best;
    let (g1k, g10k) = (generated(1_000), generated(10_000));
    let (t1k, t10k) =
        measure_pair(("generated 1k nodes", &g1k), ("generated 10k nodes", &g10k), 10, Duration::from_secs(8));
    let per = |t: Duration, n: f64| t.as_secs_f64() / n * 1e6;
    println!(
        "per node, best:   1k {:.2} µs, 10k {:.2} µs (ratio {:.2}; 1.0 = linear)",
        per(t1k.best, 1e3),
        per(t10k.best, 1e4),
        per(t10k.best, 1e4) / per(t1k.best, 1e3)
    );
    println!(
        "per node, median: 1k {:.2} µs, 10k {:.2} µs (ratio {:.2})",
        per(t1k.median, 1e3),
        per(t10k.median, 1e4),
        per(t10k.median, 1e4) / per(t1k.median, 1e3)
    );
    println!(
        "targets: typical {} (≤ 50 µs), 10k {} (≤ 50 ms, median {:.1?})",
        if typical <= Duration::from_micros(50) { "met" } else { "NOT met" },
        if t10k.best <= Duration::from_millis(50) { "met" } else { "NOT met" },
        t10k.median
    );
}
