//! Issue 31's "past one machine": `build --shard I/N` on each shard, then
//! `build merge`, writes byte for byte the `dist/` one unsharded `build`
//! writes (every file, the cache and the no-op stamp included); the merge
//! refuses shards that are not one split of one bank built one way; and
//! `tests gen --shard` shards write, together, the tests one run writes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The embedded problems a small bank copies: four functions (two subsets)
/// and a whole program (`stdio`).
const SMALL_BANK: [&str; 5] = ["above_average", "alternating_sum", "binary_search", "caesar_shift", "gcd"];

/// A bank of `names` copied from `problems/` into `root/bank`.
fn copy_bank(root: &Path, names: &[&str]) -> PathBuf {
    let bank = root.join("bank");
    for name in names {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems").join(name);
        let dir = bank.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(&src).unwrap().flatten() {
            if entry.path().is_file() {
                std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
            }
        }
    }
    bank
}

fn flowbench(args: &[&str]) -> Output {
    flowbench_at(Path::new(env!("CARGO_BIN_EXE_flowbench")), args)
}

fn flowbench_at(binary: &Path, args: &[&str]) -> Output {
    Command::new(binary).args(args).output().expect("flowbench runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

/// Every file under `dir` (hidden ones too), by relative path, with its bytes.
fn files_under(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                files.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    files.sort();
    files
}

/// Asserts `a` and `b` hold the same files with the same bytes, naming the first difference.
fn assert_same_tree(a: &Path, b: &Path) {
    let (fa, fb) = (files_under(a), files_under(b));
    let names = |f: &[(String, Vec<u8>)]| f.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&fa), names(&fb), "the same files");
    for ((name, x), (_, y)) in fa.iter().zip(&fb) {
        assert!(x == y, "{name} differs between {} and {}", a.display(), b.display());
    }
}

/// Builds shard `shard` of `bank` into `out` with `extra` options.
fn build_shard(bank: &Path, shard: &str, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["build", "--problems", path(bank), "--shard", shard, "-o", path(out), "-j", "2"];
    args.extend_from_slice(extra);
    flowbench(&args)
}

fn merge(out: &Path, shards: &[&Path]) -> Output {
    let mut args = vec!["build", "merge", "-o", path(out)];
    args.extend(shards.iter().map(|s| path(s)));
    flowbench(&args)
}

/// The small bank plus a problem that fails before it is built (its
/// `problem.json` is not JSON), in two styles: one shard holds a problem
/// known only by its `shard.json` entry, the others are cached.
#[test]
fn merged_shards_are_byte_identical_to_one_unsharded_build() {
    let tmp = tempfile::tempdir().unwrap();
    let bank = copy_bank(tmp.path(), &SMALL_BANK);
    let broken = bank.join("broken");
    std::fs::create_dir_all(&broken).unwrap();
    for f in ["flowchart.mmd", "solution.py", "problem.toml", "description.md"] {
        std::fs::copy(bank.join("gcd").join(f), broken.join(f)).unwrap();
    }
    std::fs::write(broken.join("problem.json"), "{ not json").unwrap();
    let sweep = tmp.path().join("sweep.toml");
    std::fs::write(&sweep, "[grid]\ncurve = [\"basis\", \"linear\"]\nnode_spacing = [80]\n").unwrap();
    // Problems of the bank's source it does not hold ride along into the
    // manifest, sharded or not.
    let left = tmp.path().join("left-out.jsonl");
    std::fs::write(&left, "{\"task_id\": \"lcm\", \"reason\": \"no reference\"}\n").unwrap();
    let styles = ["--styles", path(&sweep), "--left-out", path(&left)];

    let full = tmp.path().join("full");
    let mut args = vec!["build", "--problems", path(&bank), "-o", path(&full), "-j", "2"];
    args.extend_from_slice(&styles);
    let unsharded = flowbench(&args);
    assert_eq!(unsharded.status.code(), Some(1), "broken fails the build: {}", stderr(&unsharded));

    let shards: Vec<PathBuf> = (0..2).map(|i| tmp.path().join(format!("shard-{i}"))).collect();
    for (i, dir) in shards.iter().enumerate() {
        let out = build_shard(&bank, &format!("{i}/2"), dir, &styles);
        // Exit code 1: shard 1 holds the failed problem.
        assert!(matches!(out.status.code(), Some(0 | 1)), "shard {i}: {}", stderr(&out));
        assert!(dir.join("shard.json").is_file() && !dir.join("manifest.json").exists(), "shard {i} is no dist");
    }
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(shards[1].join("shard.json")).unwrap()).unwrap();
    let held: Vec<String> = record["built"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.get("cached").map_or_else(|| p["inline"]["report"]["name"].clone(), |c| c["name"].clone()))
        .map(|n| n.as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(held, ["alternating_sum", "broken", "gcd"], "positions 1, 3, 5 in name order");
    assert!(record["built"][1].get("inline").is_some(), "broken has no cache entry: recorded in full");

    // Given in any order, into a directory holding an older dist.
    let merged = tmp.path().join("merged");
    std::fs::create_dir_all(merged.join("images/stale")).unwrap();
    std::fs::write(merged.join("images/stale/old.png"), b"old").unwrap();
    let out = merge(&merged, &[&shards[1], &shards[0]]);
    assert_eq!(out.status.code(), Some(1), "the merged dist has the failed problem: {}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&unsharded.stdout),
        "Table 1 as build prints it"
    );
    assert_same_tree(&full, &merged);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(merged.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["left_out"], serde_json::json!([{"task_id": "lcm", "reason": "no reference"}]));

    // A later unsharded build of the same bank into the merged dist finds
    // only the failed problem to build again, and changes nothing.
    let mut again = vec!["build", "--problems", path(&bank), "-o", path(&merged), "-j", "2"];
    again.extend_from_slice(&styles);
    let rerun = flowbench(&again);
    assert!(stderr(&rerun).contains("(1 rebuilt, 5 up to date"), "{}", stderr(&rerun));
    assert_same_tree(&full, &merged);
}

/// A left-out list that is not one is refused before anything is built,
/// naming its file and line.
#[test]
fn a_bad_left_out_list_is_refused_naming_its_line() {
    let tmp = tempfile::tempdir().unwrap();
    let bank = copy_bank(tmp.path(), &["gcd"]);
    let left = tmp.path().join("left.jsonl");
    std::fs::write(&left, "{\"task_id\": \"a\", \"reason\": \"b\"}\n{\"task_id\": \"c\"}\n").unwrap();
    let out_dir = tmp.path().join("dist");
    let out = flowbench(&["build", "--problems", path(&bank), "-o", path(&out_dir), "--left-out", path(&left)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("left.jsonl:2:"), "{}", stderr(&out));
    assert!(!out_dir.exists(), "nothing built");
}

/// Each way shards can fail to be one split of one bank built one way is
/// refused before anything is written, naming what differs.
#[test]
fn the_merge_refuses_shards_that_do_not_make_one_build() {
    let tmp = tempfile::tempdir().unwrap();
    let bank = copy_bank(tmp.path(), &["gcd", "binary_search"]);
    let shard = |name: &str| tmp.path().join(name);
    for (i, dir) in ["a0", "a1"].iter().enumerate() {
        let out = build_shard(&bank, &format!("{i}/2"), &shard(dir), &[]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let out_dir = tmp.path().join("dist");
    let refused = |shards: &[&Path]| {
        let out = merge(&out_dir, shards);
        assert_eq!(out.status.code(), Some(2), "refused: {}", stderr(&out));
        assert!(!out_dir.join("manifest.json").exists(), "nothing written before the refusal");
        stderr(&out)
    };
    let (a0, a1) = (shard("a0"), shard("a1"));

    let missing = refused(&[&a0]);
    assert!(missing.contains("missing shard 1/2 (of 2)"), "{missing}");
    let twice = refused(&[&a0, &a0, &a1]);
    assert!(twice.contains("are both shard 0/2: overlapping shards"), "{twice}");

    let out = build_shard(&bank, "1/3", &shard("b1"), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let split = refused(&[&a0, &shard("b1")]);
    assert!(split.contains("is shard 0/2 but") && split.contains("is shard 1/3"), "{split}");

    let out = build_shard(&bank, "1/2", &shard("c1"), &["--time-limit", "5"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let options = refused(&[&a0, &shard("c1")]);
    assert!(options.contains("different options (--time-limit 10 vs 5)"), "{options}");

    // The same flowbench with one more byte at its end still runs, but is
    // another binary.
    let other_binary = tmp.path().join("flowbench-other");
    let mut bytes = std::fs::read(env!("CARGO_BIN_EXE_flowbench")).unwrap();
    bytes.push(0);
    std::fs::write(&other_binary, bytes).unwrap();
    std::fs::set_permissions(&other_binary, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let d1 = shard("d1");
    let args = ["build", "--problems", path(&bank), "--shard", "1/2", "-o", path(&d1), "-j", "2"];
    let out = flowbench_at(&other_binary, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let binary = refused(&[&a0, &d1]);
    assert!(binary.contains("build every shard with the same binary"), "{binary}");

    let description = bank.join("binary_search/description.md");
    let text = std::fs::read_to_string(&description).unwrap();
    std::fs::write(&description, format!("{text}\nOne more line.\n")).unwrap();
    let out = build_shard(&bank, "1/2", &shard("e1"), &[]);
    std::fs::write(&description, text).unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let version = refused(&[&a0, &shard("e1")]);
    assert!(version.contains("different versions of the bank"), "{version}");

    let not_a_shard = refused(&[&a0, &bank]);
    assert!(
        not_a_shard.contains("shard.json: not found") && not_a_shard.contains("is not a build shard"),
        "{not_a_shard}"
    );

    let png = std::fs::read_dir(a1.join("images/default")).unwrap().flatten().next().unwrap().path();
    std::fs::write(&png, b"damaged").unwrap();
    let damaged = merge(&out_dir, &[&a0, &a1]);
    assert_eq!(damaged.status.code(), Some(2));
    assert!(stderr(&damaged).contains("changed since shard 1/2 was built"), "{}", stderr(&damaged));
}

/// `tests gen --shard`: the shards generate disjoint sets of problems, and
/// together the tests one run generates (equal but for the measured
/// reference times).
#[test]
fn tests_gen_shards_together_write_the_unsharded_tests() {
    let tmp = tempfile::tempdir().unwrap();
    let names = ["above_average", "caesar_shift", "gcd"];
    let whole = copy_bank(&tmp.path().join("whole"), &names);
    let split = copy_bank(&tmp.path().join("split"), &names);
    for bank in [&whole, &split] {
        for name in names {
            std::fs::remove_file(bank.join(name).join("tests.jsonl")).unwrap();
        }
    }
    let dirs = |bank: &Path| names.iter().map(|n| bank.join(n).to_string_lossy().into_owned()).collect::<Vec<_>>();
    let mut args = vec!["tests".to_string(), "gen".into(), "-j".into(), "2".into()];
    args.extend(dirs(&whole));
    let out = flowbench(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.status.success(), "{}", stderr(&out));

    let mut generated: Vec<String> = Vec::new();
    for shard in ["0/2", "1/2"] {
        // The directories in another order: ownership follows their names.
        let mut args = vec!["tests".to_string(), "gen".into(), "--shard".into(), shard.into(), "-j".into(), "2".into()];
        args.extend(dirs(&split).into_iter().rev());
        let out = flowbench(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(out.status.success(), "{}", stderr(&out));
        let lines = String::from_utf8_lossy(&out.stdout).into_owned();
        generated.extend(lines.lines().map(|l| l.split(':').next().unwrap_or_default().to_string()));
    }
    // By name, shard 0 owns positions 0 and 2, shard 1 position 1; each
    // generates them in the order given.
    assert_eq!(generated, ["gcd", "above_average", "caesar_shift"]);
    for name in names {
        let read = |bank: &Path| without_times(&std::fs::read_to_string(bank.join(name).join("tests.jsonl")).unwrap());
        assert_eq!(read(&whole), read(&split), "{name}");
    }
}

/// A tests file with each test's measured `reference_time_s` taken out.
fn without_times(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            if let Some(o) = v.as_object_mut() {
                o.remove("reference_time_s");
            }
            v
        })
        .collect()
}
