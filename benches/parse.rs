//! Parser throughput: a typical 20-node flowchart and generated charts of
//! 1,000 and 10,000 nodes (1.5 edges per node). Prints the best and median
//! time per parse; run with `cargo bench --bench parse` (optimised build).
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
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let a = (x >> 33) as usize % n;
        let b = (x >> 13) as usize % n;
        s.push_str(&format!("    n{a} -.->|jump| n{b}\n"));
    }
    s
}

/// CPU time of this thread: on a shared, overloaded machine wall-clock
/// time mostly measures the other tenants.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid out-pointer; the clock id is a constant.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Returns the best thread-CPU time per parse.
fn measure(name: &str, text: &str, budget: Duration) -> Duration {
    let opts = ParseOptions {
        max_edges: usize::MAX,
        max_text_size: None,
    };
    let fc = parse_with(text, &opts).expect("benchmark chart parses");
    let mut wall = Vec::new();
    let mut cpu = Vec::new();
    let start = Instant::now();
    while start.elapsed() < budget || wall.len() < 5 {
        let (t, c) = (Instant::now(), thread_cpu());
        black_box(parse_with(black_box(text), &opts).ok());
        cpu.push(thread_cpu() - c);
        wall.push(t.elapsed());
    }
    wall.sort();
    cpu.sort();
    println!(
        "{name:<22} {:>6} nodes {:>6} edges {:>7} bytes  cpu best {:>10.3?} median {:>10.3?}  wall best {:>10.3?}  ({} runs)",
        fc.nodes.len(),
        fc.edges.len(),
        text.len(),
        cpu[0],
        cpu[cpu.len() / 2],
        wall[0],
        wall.len()
    );
    cpu[0]
}

fn main() {
    println!(
        "flowbench parser benchmark: best thread-CPU time of repeated parses (wall time shown too)"
    );
    let typical = measure(
        "typical 20-node chart",
        TYPICAL,
        Duration::from_millis(1500),
    );
    let t1k = measure(
        "generated 1k nodes",
        &generated(1_000),
        Duration::from_secs(2),
    );
    let t10k = measure(
        "generated 10k nodes",
        &generated(10_000),
        Duration::from_secs(4),
    );
    let per_1k = t1k.as_secs_f64() / 1_000.0;
    let per_10k = t10k.as_secs_f64() / 10_000.0;
    println!(
        "per node: 1k {:.2} µs, 10k {:.2} µs (ratio {:.2}; 1.0 = linear)",
        per_1k * 1e6,
        per_10k * 1e6,
        per_10k / per_1k
    );
    println!(
        "targets: typical {} (≤ 50 µs), 10k {} (≤ 50 ms)",
        if typical <= Duration::from_micros(50) {
            "met"
        } else {
            "NOT met"
        },
        if t10k <= Duration::from_millis(50) {
            "met"
        } else {
            "NOT met"
        }
    );
}
