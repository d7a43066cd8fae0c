//! The EXAMPLES section that ends each subcommand's long help (`--help`):
//! what a user types most, taken from the user guide (docs/guide/). Kept in one table
//! so a test can check every subcommand has examples and that each parses.

/// `(subcommand path, examples)`: each example is a command line (split on
/// blanks, no quoting) and what it does.
pub const EXAMPLES: &[(&str, &[(&str, &str)])] = &[
    (
        "build",
        &[
            ("flowbench build", "problems/ → dist/, prints Table 1"),
            ("flowbench build --problems my-bank -o out --deny -j 4", "another bank; lint warnings fail"),
            ("flowbench build --theme dark", "images in dist/images/dark/"),
            ("flowbench build --styles sweep.toml", "one image set per style of a sweep file"),
            ("flowbench build --shard 0/8 -o shards/0", "one shard of eight (merge with `build merge`)"),
        ],
    ),
    (
        "parse",
        &[
            ("flowbench parse chart.mmd", "direction, nodes, edges, subgraphs"),
            ("flowbench parse chart.mmd --json", "the model as JSON"),
            ("flowbench parse big.mmd --max-edges 20000", "beyond mermaid's 500 edges"),
        ],
    ),
    (
        "check",
        &[
            ("flowbench check problems/gcd/flowchart.mmd", "diagnostics on stderr"),
            ("flowbench check --deny chart.mmd", "warnings fail the run (CI)"),
            ("flowbench check --fix chart.mmd", "rewrite LLM mistakes in place, report each change"),
            ("flowbench check problems/gcd", "a whole problem directory"),
            ("flowbench check --against solution.py flowchart.mmd", "the chart against the code"),
        ],
    ),
    (
        "chart2py",
        &[
            ("flowbench chart2py flowchart.mmd -o program.py", "the chart read back as Python"),
            ("flowbench chart2py --against solution.py flowchart.mmd", "the program `check --against` runs"),
        ],
    ),
    (
        "draw",
        &[(
            "flowbench draw solution.py --detail medium -o flowchart.mmd",
            "the solution's flowchart, canonical and lint clean",
        )],
    ),
    (
        "fmt",
        &[
            ("flowbench fmt chart.mmd", "print canonical Mermaid"),
            ("flowbench fmt --write a.mmd b.mmd", "rewrite in place"),
            ("flowbench fmt --check problems/gcd/flowchart.mmd", "exit 1 if not canonical (CI)"),
        ],
    ),
    (
        "render",
        &[
            ("flowbench render chart.mmd -o chart.png", "or .svg; -o - prints the SVG"),
            ("flowbench render charts/ -O out/ --format svg", "a batch, in parallel"),
            ("flowbench render chart.mmd -o c.png --theme dark --scale 2 --background transparent", "style flags"),
            ("flowbench render --sweep styles.toml chart.mmd -O sweep/", "one chart in a grid of styles"),
        ],
    ),
    (
        "judge",
        &[
            (
                "flowbench judge --problems dist/math.jsonl --samples samples.jsonl -o results.jsonl",
                "native tests, resumable",
            ),
            (
                "flowbench judge --problems problems.jsonl --samples a.jsonl b.jsonl --mode legacy --k 1,5 -o r.jsonl",
                "Code-Vision's judge",
            ),
            ("flowbench judge --problems p.jsonl --samples s.jsonl --shard 0/8 -o part-0.jsonl", "one shard of eight"),
        ],
    ),
    (
        "build merge",
        &[("flowbench build merge -o dist shards/0 shards/1", "the shards' dist, as one unsharded build writes it")],
    ),
    (
        "judge merge",
        &[("flowbench judge merge part-0.jsonl part-1.jsonl -o all.jsonl", "combine shards, with the summary")],
    ),
    (
        "env",
        &[
            ("flowbench env", "create or update the pinned candidates' venv"),
            ("flowbench env --print", "where it is and what it holds"),
        ],
    ),
    (
        "tests",
        &[
            ("flowbench tests gen problems/gcd", "generate problems/gcd/tests.jsonl"),
            ("flowbench tests score problems/gcd", "mutation score of its tests"),
            ("flowbench tests import problems.jsonl -o native.jsonl", "legacy asserts to native tests"),
        ],
    ),
    (
        "variants",
        &[
            (
                "flowbench variants problems/* --kinds constants,logic --count 1 -o variants/",
                "one of each kind per problem",
            ),
            (
                "flowbench variants problems/gcd --kinds logic --count 2 --seed 3 -o variants/",
                "two logic variants, another seed",
            ),
        ],
    ),
    (
        "tests gen",
        &[
            ("flowbench tests gen problems/gcd problems/binary_search", "each DIR/tests.jsonl"),
            ("flowbench tests gen --reduce problems/gcd", "write only the shipped suite"),
            (
                "flowbench tests gen --shard 0/8 problems/*/",
                "one shard of eight (no merge: each DIR gets its own tests)",
            ),
        ],
    ),
    (
        "tests score",
        &[
            ("flowbench tests score problems/gcd", "mutants, equivalent, killed, score; survivors as diffs"),
            ("flowbench tests score --json --tests problem.json problems/gcd", "the hand-written tests, as JSON"),
        ],
    ),
    (
        "tests import",
        &[
            ("flowbench tests import problems.jsonl -o native.jsonl --report report.md", "Code-Vision's problems"),
            ("flowbench tests import --from human-eval HumanEval.jsonl -o humaneval.native.jsonl", "HumanEval's"),
        ],
    ),
    ("new", &[("flowbench new math/abs_value", "scaffold problems/abs_value/ with commented templates")]),
    (
        "ablation",
        &[
            (
                "flowbench ablation --demo -o demo/",
                "offline, end to end on problems/: build, prompts, stand-ins, judge, report",
            ),
            (
                "flowbench ablation --bench dist/ --run flowchart=a.jsonl --run mermaid=b.jsonl -o ablation/",
                "judge each run, report",
            ),
            (
                "flowbench ablation --recorded --bench problems.jsonl --run x=x.jsonl --run y=y.jsonl -o cv/",
                "from recorded verdicts",
            ),
        ],
    ),
    (
        "prompts",
        &[(
            "flowbench prompts --bench dist/ --condition flowchart mermaid text --model gpt-4o -o requests.jsonl",
            "an OpenAI batch file",
        )],
    ),
    (
        "export",
        &[
            ("flowbench export dist/ --to hf -o flowbench-hf", "parquet per subset and a dataset card"),
            ("flowbench export dist/ --to inspect -o flowbench-inspect", "an inspect_ai task scored by the judge"),
            ("flowbench export dist/ --to vlmevalkit --condition mermaid -o vlm", "a VLMEvalKit TSV and dataset class"),
        ],
    ),
    (
        "generate",
        &[
            (
                "flowbench generate --bench dist/ --condition flowchart --endpoint http://127.0.0.1:8000/v1 --model Qwen2-VL-7B -o flowchart.jsonl",
                "ask a model",
            ),
            ("flowbench generate --bench dist/ --condition mermaid --model reference -o ref.jsonl", "offline stand-in"),
        ],
    ),
    (
        "score-transcription",
        &[
            (
                "flowbench score-transcription --bench dist/ --samples transcribe.jsonl -o scores.jsonl",
                "graph scores and whether each transcription's program passes",
            ),
            (
                "flowbench score-transcription --bench dist/ --samples transcribe.jsonl -o scores.jsonl --no-execute",
                "graph scores only",
            ),
        ],
    ),
    (
        "import",
        &[("flowbench import codevision problems.jsonl --subset HumanEval-V -o he/", "one bank directory per task")],
    ),
    (
        "author",
        &[
            (
                "flowbench author problems/gcd --endpoint http://127.0.0.1:8000/v1 --model Qwen2.5-Coder-32B",
                "write the chart once it checks",
            ),
            (
                "flowbench author problems/gcd --endpoint https://api.openai.com/v1 --model gpt-4o --rounds 5 --force",
                "more repairs; replace a chart",
            ),
            (
                "flowbench author problems/gcd --endpoint http://127.0.0.1:8000/v1 --model m --print-templates",
                "the built-in prompts",
            ),
        ],
    ),
];

/// The EXAMPLES section of one subcommand's long help.
fn section(examples: &[(&str, &str)]) -> String {
    let width = examples.iter().map(|(c, _)| c.len()).max().unwrap_or(0).min(72);
    let mut out = String::from("EXAMPLES:\n");
    for (command, what) in examples {
        if command.len() > width {
            out.push_str(&format!("  {command}\n  {:width$}  # {what}\n", ""));
        } else {
            out.push_str(&format!("  {command:width$}  # {what}\n"));
        }
    }
    out.trim_end().to_string()
}

/// `cmd` with every listed subcommand's long help ending in its examples.
pub fn with_examples(cmd: clap::Command) -> clap::Command {
    fn walk(cmd: clap::Command, path: &str) -> clap::Command {
        let cmd = match EXAMPLES.iter().find(|(p, _)| *p == path) {
            Some((_, examples)) => cmd.after_long_help(section(examples)),
            None => cmd,
        };
        let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
        names.into_iter().fold(cmd, |cmd, name| {
            let sub_path = if path.is_empty() { name.clone() } else { format!("{path} {name}") };
            cmd.mut_subcommand(name, |sub| walk(sub, &sub_path))
        })
    }
    walk(cmd, "")
}
