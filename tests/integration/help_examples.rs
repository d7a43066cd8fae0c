//! `--help` ends with examples: every subcommand's long help (as the binary
//! prints it) has a final EXAMPLES section, and each example there parses
//! with the real command-line definition (`try_get_matches_from`).

use std::process::Command;

use clap::CommandFactory as _;
use flowbench::cli::Cli;

/// Every subcommand path below `cmd` (`judge`, `judge merge`, …), without
/// clap's generated `help`.
fn paths(cmd: &clap::Command, prefix: &[String], out: &mut Vec<Vec<String>>) {
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let mut path = prefix.to_vec();
        path.push(sub.get_name().to_string());
        out.push(path.clone());
        paths(sub, &path, out);
    }
}

/// The example command lines of a long help's final EXAMPLES section.
fn examples(help: &str) -> Vec<String> {
    let Some(at) = help.rfind("\nEXAMPLES:\n") else { return Vec::new() };
    help[at + "\nEXAMPLES:\n".len()..]
        .lines()
        .map(|l| l.split(" # ").next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

#[test]
fn every_subcommand_help_ends_with_examples_that_parse() {
    let mut all = Vec::new();
    paths(&Cli::command(), &[], &mut all);
    assert!(all.len() >= 15, "found only {} subcommands", all.len());
    let mut missing = Vec::new();
    for path in &all {
        let out =
            Command::new(env!("CARGO_BIN_EXE_flowbench")).args(path).arg("--help").output().expect("flowbench runs");
        assert!(out.status.success(), "flowbench {} --help failed", path.join(" "));
        let help = String::from_utf8_lossy(&out.stdout);
        let list = examples(&help);
        if list.is_empty() {
            missing.push(path.join(" "));
            continue;
        }
        // The section is the last thing printed.
        let last = help.trim_end().lines().last().unwrap_or("");
        assert!(
            last.contains(list.last().map(String::as_str).unwrap_or("")) || last.trim_start().starts_with('#'),
            "{}: EXAMPLES is not last",
            path.join(" ")
        );
        for example in &list {
            let words: Vec<&str> = example.split_whitespace().collect();
            assert_eq!(words.first(), Some(&"flowbench"), "{}: example {example:?}", path.join(" "));
            assert!(
                words[1..].starts_with(&path.iter().map(String::as_str).collect::<Vec<_>>()),
                "{}: example of another command: {example}",
                path.join(" ")
            );
            if let Err(e) = Cli::command().try_get_matches_from(&words) {
                panic!("{}: example does not parse: {example}\n{e}", path.join(" "));
            }
        }
    }
    assert!(missing.is_empty(), "subcommands whose --help has no EXAMPLES: {missing:?}");
}

/// A command that only groups subcommands (`tests`) says in its one-line
/// help what each of them does: each subcommand's name starts a word of it
/// (`gen` → "Generate").
#[test]
fn a_group_of_subcommands_names_each_in_its_help() {
    let mut all = Vec::new();
    paths(&Cli::command(), &[], &mut all);
    let root = Cli::command();
    let mut groups = 0;
    for path in &all {
        let cmd = path.iter().try_fold(&root, |c, name| c.find_subcommand(name)).expect("subcommand");
        if !cmd.is_subcommand_required_set() {
            continue;
        }
        groups += 1;
        let about = cmd.get_about().map(|a| a.to_string()).unwrap_or_default().to_lowercase();
        let words: Vec<&str> = about.split(|c: char| !c.is_alphanumeric()).collect();
        for sub in cmd.get_subcommands().map(clap::Command::get_name).filter(|n| *n != "help") {
            let said = words.iter().any(|w| w.starts_with(sub));
            assert!(said, "flowbench {}: {about:?} does not say what `{sub}` does", path.join(" "));
        }
    }
    assert!(groups >= 1, "no command groups subcommands");
}
