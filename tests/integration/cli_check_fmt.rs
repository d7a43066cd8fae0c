//! `flowbench check` and `flowbench fmt` end to end: exit codes, `--fix`
//! in place and to stdout, `fmt --check/--write`.

use std::process::Command;

fn flowbench(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_flowbench")).args(args).output().expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn file(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).expect("temp file");
    p.display().to_string()
}

const CLEAN: &str =
    "flowchart TD\n    S([Start]) --> C{x > 0?}\n    C -->|yes| A[print x]\n    C -->|no| E([End])\n    A --> E\n";

#[test]
fn check_exit_codes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let clean = file(&dir, "clean.mmd", CLEAN);
    let warn = file(&dir, "warn.mmd", "flowchart TD\n    S([Start]) --> C{ok?}\n    C --> A[work]\n");
    let broken = file(&dir, "broken.mmd", "flowchart TD\n    B[Provisioner (Terraform + Helm)] --> C\n");
    assert_eq!(flowbench(&["check", &clean]).0, 0);
    let (code, _, err) = flowbench(&["check", &warn]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("dead-end") && err.contains("decision-branches"), "{err}");
    assert_eq!(flowbench(&["check", "--deny", &warn]).0, 1);
    let (code, _, err) = flowbench(&["check", &broken, &clean]);
    assert_eq!(code, 2);
    assert!(err.contains("broken.mmd:2:") && err.contains("B[\"Provisioner (Terraform + Helm)\"]"), "{err}");
    assert_eq!(flowbench(&["check", "/nonexistent/x.mmd"]).0, 2);
}

#[test]
fn check_fix_rewrites_in_place_and_reports_changes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let broken = file(&dir, "b.mmd", "flowchart TD\n    S([Start]) --> A[call foo()] %% note\n    A --> end\n");
    let (code, out, err) = flowbench(&["check", "--fix", "--stdout", &broken]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("A[\"call foo()\"]") && out.contains("--> End"), "{out}");
    assert!(err.contains("fixed [P01]") && err.contains("fixed [P04]") && err.contains("fixed [P07]"), "{err}");
    let (code, _, err) = flowbench(&["check", "--fix", &broken]);
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read_to_string(&broken).expect("fixed file");
    assert!(written.contains("%% note\n") && written.contains("A[\"call foo()\"]"), "{written}");
}

#[test]
fn fmt_prints_checks_and_writes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let messy = file(&dir, "m.mmd", "graph LR;A[\"x\"]-->B;B-- t -->C\n");
    let (code, out, err) = flowbench(&["fmt", &messy]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("graph LR\n"), "{out}");
    assert_eq!(flowbench(&["fmt", "--check", &messy]).0, 1);
    assert_eq!(flowbench(&["fmt", "--write", &messy]).0, 0);
    assert_eq!(std::fs::read_to_string(&messy).expect("written"), out);
    assert_eq!(flowbench(&["fmt", "--check", &messy]).0, 0);
    let broken = file(&dir, "x.mmd", "flowchart TD\n    A -> B\n");
    let (code, _, err) = flowbench(&["fmt", &broken]);
    assert_eq!(code, 2);
    assert!(err.contains("x.mmd:2:"), "{err}");
}

/// Issue 24: a `{` left open at the end of its line is blamed there, not on
/// the next line's parentheses, and `--fix` closes it instead of quoting
/// the next line; mermaid still rejects the text.
#[test]
fn an_unclosed_shape_is_blamed_on_its_own_line_and_closed_by_fix() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = "flowchart TD\n    A([Start]) --> C\n    C{s empty?\n    C -->|Yes| D[return (x)]\n    \
                C -->|No| E([End])\n    D --> E\n";
    assert!(flowbench::mermaid::parse(text).is_err(), "mermaid rejects the text");
    let broken = file(&dir, "u.mmd", text);
    let (code, _, err) = flowbench(&["check", &broken]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("u.mmd:3:6 ]") && err.contains("missing `}`: the `{` at 3:6 is never closed"), "{err}");
    assert!(err.contains("`C{s empty?}`") && !err.contains("[P01]"), "{err}");
    let (code, out, err) = flowbench(&["check", "--fix", "--stdout", &broken]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("u.mmd:3:6: fixed [P02] C{s empty? → C{s empty?}"), "{err}");
    assert!(out.contains("\n    C{s empty?}\n    C -->|Yes| D[\"return (x)\"]\n"), "{out}");
    let chart = flowbench::mermaid::parse(&out).expect("fixed text parses");
    assert_eq!((chart.nodes.len(), chart.edges.len()), (4, 4));
}

/// Issue 24: typos of the header keyword are fixed like its case (`flowChart`).
#[test]
fn header_keyword_typos_are_fixed() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (typo, want) in [
        ("flowchat TD", "flowchart TD"),
        ("flowchar LR", "flowchart LR"),
        ("flochart TD", "flowchart TD"),
        ("folwchart TD", "flowchart TD"),
        ("grahp LR", "graph LR"),
        ("flowchartLR", "flowchart LR"),
    ] {
        let broken = file(&dir, "h.mmd", &format!("{typo}\n    A([Start]) --> B([End])\n"));
        let (code, _, err) = flowbench(&["check", &broken]);
        assert_eq!(code, 2, "{err}");
        let keyword = want.split(' ').next().unwrap_or("");
        assert!(err.contains("[P12]") && err.contains(&format!("write `{keyword}")), "{err}");
        let (code, out, err) = flowbench(&["check", "--fix", "--stdout", &broken]);
        assert_eq!(code, 0, "{typo}: {err}");
        assert!(out.starts_with(&format!("{want}\n")), "{typo}: {out}");
    }
    // Another diagram type is not a typo of a flowchart.
    let gantt = file(&dir, "g.mmd", "gantt\n    title x\n");
    let (code, out, _) = flowbench(&["check", "--fix", "--stdout", &gantt]);
    assert_eq!((code, out.as_str()), (2, "gantt\n    title x\n"));
}
