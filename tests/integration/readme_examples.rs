//! The documented examples run as written: every `flowbench …` command of the
//! ```` ```sh ```` blocks of README.md and then of the user guide's pages, in
//! the order of [`GUIDE_PAGES`] (each page top to bottom), runs in one
//! temporary copy of the repository (`problems/`, with `../shared` beside
//! it), with `flowbench` on the PATH, so an example may use what an earlier
//! one made. The files an example assumes the user has (`chart.mmd`,
//! `my.toml`, …) are made first; examples that cannot run here are listed in
//! [`SKIPPED`] with why, and the only ones documented to fail in
//! [`EXPECTED_FAILURE`]. A second test checks that [`GUIDE_PAGES`] names
//! every page of `docs/guide/` but its index, so no page's examples go unrun.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The user guide's pages whose examples run after the README's, in this
/// order. The order matters where a page uses what an earlier one made or
/// left: `scaling-out.md` merges its shards into `dist/` right after
/// `building.md` (whose last build used a sweep's styles), so later pages
/// find a default-style `dist/`; `authoring.md` scaffolds
/// `problems/abs_value`, which must not exist while `build` runs and which
/// [`prepare`] removes before `tests.md` scores problems;
/// `ablation.md`'s invariance examples read `demo/dist`, made by its own
/// `ablation --demo` (and the README's).
const GUIDE_PAGES: &[&str] = &[
    "docs/guide/building.md",
    "docs/guide/scaling-out.md",
    "docs/guide/charts.md",
    "docs/guide/authoring.md",
    "docs/guide/rendering.md",
    "docs/guide/judging.md",
    "docs/guide/stdio.md",
    "docs/guide/tests.md",
    "docs/guide/ablation.md",
    "docs/guide/codevision-plus.md",
    "docs/guide/exporting.md",
];

/// Examples not run (matched by substring), and why.
const SKIPPED: &[(&str, &str)] = &[
    ("cargo ", "the set-up commands themselves; this test runs under `cargo test --release -- --ignored`"),
    (
        "--endpoint http://127.0.0.1:",
        "needs a model server; crates/client/tests/integration/client.rs runs the client against a local test server",
    ),
    (
        "--samples $S/samples/*/*.jsonl",
        "judges all 3,668 released samples natively (~4 min on 2 cores); tests/integration/judge_codevision.rs judges them all (legacy), tests/integration/judge_cli.rs the native mode",
    ),
    (
        "--run a=a.jsonl",
        "reads the model-server runs above; `ablation --demo` and tests/integration/ablation_cli.rs make the same sections offline",
    ),
    ("sbatch ", "needs Slurm; the shards and `judge merge` are run below"),
    (
        "scripts/humaneval-yardstick.sh",
        "a script over all 164 HumanEval problems (half an hour), not a flowbench command",
    ),
    ("scripts/humaneval-rejudge.sh", "a script that needs the yardstick's OUT, not a flowbench command"),
    (
        "--references-from ",
        "runs every released sample of 125 problems in the sandbox (minutes on 2 cores); the chooser is tested in bank::references",
    ),
    (
        "scripts/codevision-rebuild.sh",
        "a script over all 438 Code-Vision problems (over half an hour), not a flowbench command",
    ),
];

/// Examples whose documented outcome is a non-zero exit code.
const EXPECTED_FAILURE: &[(&str, i32, &str)] =
    &[("flowbench check problems/abs_value", 2, "a fresh scaffold: check reports the templates still to fill in")];

/// The shell commands of README.md and then of [`GUIDE_PAGES`], in order.
fn documented_commands() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::iter::once("README.md")
        .chain(GUIDE_PAGES.iter().copied())
        .flat_map(|page| {
            let text = std::fs::read_to_string(root.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
            sh_commands(&text)
        })
        .collect()
}

/// The commands of a Markdown text's ```` ```sh ```` blocks, `\`
/// continuations joined, comments kept (bash drops them).
fn sh_commands(markdown: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut in_sh = false;
    let mut pending = String::new();
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_sh = line.trim() == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let t = line.trim();
        if !pending.is_empty() {
            pending.push(' ');
        }
        pending.push_str(t.strip_suffix('\\').unwrap_or(t));
        if !t.ends_with('\\') {
            if !pending.is_empty() && !pending.starts_with('#') {
                commands.push(std::mem::take(&mut pending));
            }
            pending.clear();
        }
    }
    commands
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The files the examples take as given, as a user would have them.
fn user_files(dir: &Path) {
    let chart = "flowchart TD\n    A([Start]) --> B[/Input n/]\n    B --> C{n > 0?}\n    C -->|Yes| D[/Return n/]\n    C -->|No| E[/Return 0/]\n    D --> F([End])\n    E --> F\n";
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write fixture");
    };
    for name in ["chart.mmd", "a.mmd", "b.mmd", "more.mmd", "charts/one.mmd", "charts/two.mmd"] {
        write(name, chart);
    }
    let mut big = String::from("flowchart TD\n");
    for i in 0..600 {
        big.push_str(&format!("    n{i} --> n{}\n", i + 1));
    }
    write("big.mmd", &big);
    write("my.toml", "node_fill = \"#ECECFF\"\nbackground = \"white\"\n");
    write("sweep.toml", "[[style]]\nname = \"big\"\nfont_size = 20\n\n[[style]]\nname = \"dark\"\ntheme = \"dark\"\n");
    write("styles.toml", "[grid]\ntheme = [\"default\", \"dark\"]\ncurve = [\"basis\", \"linear\"]\n");
    let human_eval = serde_json::json!({
        "task_id": "HumanEval/0", "entry_point": "add", "prompt": "def add(a, b):\n",
        "canonical_solution": "    return a + b\n", "test": "def check(candidate):\n    assert candidate(1, 2) == 3\n",
    });
    write("HumanEval.jsonl", &format!("{human_eval}\n"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(root.join("crates/chart/assets/fonts/DejaVuSans.ttf"), dir.join("MyFont.ttf")).expect("font");
    std::fs::copy(root.join("problems/gcd/solution.py"), dir.join("solution.py")).expect("solution");
    copy_dir(&root.join("problems"), &dir.join("my-bank"));
    // gcd's reference labelled correct, and a wrong program, for `tests score --labelled`.
    let labelled = [
        serde_json::json!({"task_id": "gcd", "completion": std::fs::read_to_string(root.join("problems/gcd/solution.py")).expect("gcd"), "label": "correct"}),
        serde_json::json!({"task_id": "gcd", "completion": "def gcd(a, b):\n    return min(abs(a), abs(b))\n", "label": "wrong"}),
    ];
    write("labelled.jsonl", &labelled.iter().map(|l| format!("{l}\n")).collect::<String>());
    // A reviewer's kept line of `judge`'s disputed list, for `tests gen --drop-disputed`.
    let reviewed =
        serde_json::json!({"task_id": "gcd", "args": [0, 0], "reason": "the statement asks for positive numbers"});
    write("reviewed.jsonl", &format!("{reviewed}\n"));
}

/// Files an example reads that earlier examples do not make
/// (they come from a model server or a cluster), made by flowbench itself.
fn prepare(command: &str) -> Vec<&'static str> {
    if command.starts_with("flowbench judge merge") {
        vec![
            "flowbench generate --bench dist/ --condition text --model mixed -o samples.jsonl",
            "cat dist/basic.jsonl dist/algorithm.jsonl dist/math.jsonl dist/stdio.jsonl > bench.jsonl",
            "flowbench judge --problems bench.jsonl --samples samples.jsonl --shard 0/2 -o part-0.jsonl",
            "flowbench judge --problems bench.jsonl --samples samples.jsonl --shard 1/2 -o part-1.jsonl",
        ]
    } else if command.starts_with("flowbench ablation --bench dist/ --run flowchart=flowchart.jsonl") {
        vec![
            "flowbench generate --bench dist/ --condition flowchart --model reference -o flowchart.jsonl",
            "flowbench generate --bench dist/ --condition mermaid --model starter -o mermaid.jsonl",
        ]
    } else if command.starts_with("flowbench tests score problems/gcd problems/binary_search") {
        // authoring.md's scaffold (`flowbench new`) has no generated tests yet.
        vec!["rm -r problems/abs_value"]
    } else {
        Vec::new()
    }
}

fn bash(line: &str, cwd: &Path, path_env: &std::ffi::OsStr) -> std::process::Output {
    Command::new("bash").args(["-c", line]).current_dir(cwd).env("PATH", path_env).output().expect("bash runs")
}

#[test]
#[ignore = "heavy (minutes): runs every command of the README and the user guide"]
fn documented_examples_run_as_written() {
    let commands = documented_commands();
    assert!(commands.len() > 40, "found only {} documented commands", commands.len());
    let tmp = tempfile::tempdir().expect("tempdir");
    let repo = tmp.path().join("flowbench");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("problems"), &repo.join("problems"));
    user_files(&repo);
    let shared = common::shared("codevision/problems.jsonl")
        .map(|p| p.parent().and_then(Path::parent).expect("shared root").to_path_buf());
    if let Some(root) = &shared {
        std::os::unix::fs::symlink(std::fs::canonicalize(root).expect("shared"), tmp.path().join("shared"))
            .expect("link ../shared");
    }
    let bin: PathBuf = Path::new(env!("CARGO_BIN_EXE_flowbench")).parent().expect("bin dir").to_path_buf();
    let path_env = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .expect("PATH");

    let (mut assignments, mut ran, mut failures, mut slowest) = (String::new(), 0usize, Vec::new(), Vec::new());
    for command in &commands {
        if command.split_whitespace().count() == 1 && command.contains('=') {
            assignments.push_str(command);
            assignments.push_str("; ");
            continue;
        }
        if let Some((_, why)) = SKIPPED.iter().find(|(m, _)| command.contains(m)) {
            eprintln!("skipped: {command}\n    ({why})");
            continue;
        }
        assert!(command.contains("flowbench "), "a documented command this test does not know: {command}");
        if shared.is_none() && (command.contains("$S") || command.contains("../shared")) {
            eprintln!("skipped (no shared data): {command}");
            continue;
        }
        for step in prepare(command) {
            let out = bash(step, &repo, &path_env);
            assert!(
                out.status.success(),
                "preparing `{command}`: `{step}` failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let started = std::time::Instant::now();
        let out = bash(&format!("{assignments}{command}"), &repo, &path_env);
        slowest.push((started.elapsed().as_secs_f64(), command));
        let code = out.status.code();
        let expected = EXPECTED_FAILURE.iter().find(|(m, _, _)| command.starts_with(m)).map_or(0, |(_, c, _)| *c);
        ran += 1;
        if code != Some(expected) {
            let err = String::from_utf8_lossy(&out.stderr);
            let tail: String =
                err.lines().rev().take(8).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join("\n    ");
            failures.push(format!("`{command}` exited {code:?} (expected {expected}):\n    {tail}"));
        }
    }
    eprintln!("documented examples: {ran} run, {} failed", failures.len());
    // The slowest examples, so the heavy lane's time can be traced to them.
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (seconds, command) in slowest.iter().take(12) {
        eprintln!("{seconds:7.1} s  {command}");
    }
    assert!(failures.is_empty(), "documented examples that do not run as written:\n{}", failures.join("\n"));
}

#[test]
fn every_guide_page_is_run() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/guide");
    let mut pages: Vec<String> = std::fs::read_dir(&dir)
        .expect("docs/guide")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md") && name != "README.md")
        .map(|name| format!("docs/guide/{name}"))
        .collect();
    pages.sort();
    let mut listed: Vec<String> = GUIDE_PAGES.iter().map(|p| p.to_string()).collect();
    listed.sort();
    assert_eq!(pages, listed, "GUIDE_PAGES must name every page of docs/guide/ but its index");
}
