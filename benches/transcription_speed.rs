//! Speed figure of issue 29, run by `scripts/bench-transcription.sh`:
//! scoring 1,000 transcriptions (the bank's charts, each with one seeded
//! misreading, as ```mermaid replies) on the graph — extraction, the
//! `check --fix` path, parsing, matching, counts — target ≤ 2 s on 2 cores.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use flowbench::mermaid::{fmt::format, parse};
use flowbench::transcription::noise::noisy;
use flowbench::transcription::samples::score_lines;
use serde_json::json;

const TRANSCRIPTIONS: usize = 1000;

fn main() {
    let bank = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let mut sources = HashMap::new();
    for dir in flowbench::bank::problem_dirs(&bank).expect("bank") {
        let Ok(text) = std::fs::read_to_string(dir.join("flowchart.mmd")) else { continue };
        let name = dir.file_name().expect("name").to_string_lossy().into_owned();
        sources.insert(name, parse(&text).expect("bank chart parses"));
    }
    let mut names: Vec<&String> = sources.keys().collect();
    names.sort();
    let samples: String = (0..TRANSCRIPTIONS)
        .map(|i| {
            let name = names[i % names.len()];
            let (chart, _) = noisy(&sources[name], i as u64).expect("an edit");
            json!({"task_id": name, "response": format!("```mermaid\n{}```\n", format(&chart))}).to_string() + "\n"
        })
        .collect();
    let mut times = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        let scored = score_lines(&samples, &sources, None);
        times.push(started.elapsed().as_secs_f64());
        assert_eq!((scored.lines.len(), scored.unusable.len()), (TRANSCRIPTIONS, 0));
        assert!(scored.lines.iter().all(|l| l["parsed"] == json!(true)), "every transcription parses");
    }
    let best = times.iter().copied().fold(f64::INFINITY, f64::min);
    println!(
        "score-transcription: {TRANSCRIPTIONS} transcriptions of {} charts on {} threads: best {best:.3} s (runs: {}; target ≤ 2 s)",
        sources.len(),
        rayon::current_num_threads(),
        times.iter().map(|t| format!("{t:.3}")).collect::<Vec<_>>().join(", ")
    );
}
