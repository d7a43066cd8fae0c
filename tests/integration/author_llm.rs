//! `flowbench author` against a scripted OpenAI-compatible server on
//! 127.0.0.1: the classic LLM pitfalls are repaired (by `--fix` where it is
//! lossless, by a repair round otherwise), an unfaithful chart is sent back
//! with `check --against`'s diagnostics, and a model that never produces a
//! valid chart ends with a clear error and nothing written.

use std::path::Path;
use std::process::{Command, Output};

use crate::openai_server::Server;
use serde_json::Value as Json;

const SOLUTION: &str = "def binary_search(nums: list[int], target: int) -> int:
    lo, hi = 0, len(nums) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if nums[mid] == target:
            return mid
        if nums[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1
";

/// A correct chart with the classic pitfalls: unquoted parentheses and
/// brackets, `end` as an id, a `-->|label|>` typo.
const PITFALLS: &str = "Here is the flowchart:

```mermaid
flowchart TD
    A([Start: binary_search]) --> B[/Input: nums (list[int]), target (int)/]
    B --> C[lo, hi = 0, len(nums) - 1]
    C --> D{lo <= hi?}
    D -->|Yes|> E[mid = (lo + hi) // 2]
    E --> F{nums[mid] == target?}
    F -->|Yes| G[/Return mid/]
    F -->|No| H{nums[mid] < target?}
    H -->|Yes| I[lo = mid + 1]
    H -->|No| J[hi = mid - 1]
    I --> D
    J --> D
    D -->|No| K[/Return -1/]
    G --> end([End])
    K --> end
```
";

fn problem() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("solution.py"), SOLUTION).expect("write");
    std::fs::write(
        dir.path().join("description.md"),
        "Return the index of `target` in the sorted list `nums`, or -1.\n",
    )
    .expect("write");
    dir
}

fn author(server: &Server, dir: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .args([
            "author",
            dir.to_str().expect("utf-8"),
            "--endpoint",
            &server.url,
            "--model",
            "scripted",
            "--cache",
            "none",
            "--retries",
            "1",
        ])
        .args(extra)
        .output()
        .expect("flowbench runs")
}

fn log(dir: &Path) -> Vec<Json> {
    let text = std::fs::read_to_string(dir.join("author.log.jsonl")).expect("log written");
    text.lines().map(|l| serde_json::from_str(l).expect("json line")).collect()
}

/// The user message of request `n`.
fn last_user_message(server: &Server, n: usize) -> String {
    let received = server.received.lock().expect("lock");
    let messages = received[n]["messages"].as_array().expect("messages").clone();
    messages.last().expect("a message")["content"].as_str().expect("text").to_owned()
}

#[test]
fn classic_pitfalls_are_repaired_within_two_rounds() {
    let server = Server::scripted(&[PITFALLS]);
    let dir = problem();
    let out = author(&server, dir.path(), &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let rounds = log(dir.path());
    assert!(rounds.len() <= 3, "{} rounds", rounds.len());
    let chart = std::fs::read_to_string(dir.path().join("flowchart.mmd")).expect("chart written");
    assert!(
        chart.contains(r#"E["mid = (lo + hi) // 2"]"#) && chart.contains("--> End") && !chart.contains("|>"),
        "{chart}"
    );
    // The written chart checks clean on its own, against the solution.
    let check = Command::new(env!("CARGO_BIN_EXE_flowbench"))
        .args(["check", "--deny", "--against"])
        .arg(dir.path().join("solution.py"))
        .arg(dir.path().join("flowchart.mmd"))
        .output()
        .expect("check runs");
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    let fixes: Vec<&str> =
        rounds[0]["fixes"].as_array().expect("fixes").iter().filter_map(|f| f["pitfall"].as_str()).collect();
    for pitfall in ["P01", "P04", "P05"] {
        assert!(fixes.contains(&pitfall), "{pitfall} not among {fixes:?}");
    }
    // The first prompt carries the statement, the solution and the instructions.
    let prompt = last_user_message(&server, 0);
    assert!(
        prompt.contains("Return the index of `target`")
            && prompt.contains("mid = (lo + hi) // 2")
            && prompt.contains("every parameter of `binary_search`")
    );
}

#[test]
fn an_error_fix_cannot_mend_goes_back_with_carets_and_is_repaired() {
    // A link with no target cannot be fixed without losing it: the model
    // gets the diagnostic and answers again (still with fixable pitfalls).
    let broken = PITFALLS.replace("    I --> D\n", "    I --> D\n    J -->\n");
    let server = Server::scripted(&[&broken, PITFALLS]);
    let dir = problem();
    let out = author(&server, dir.path(), &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rounds = log(dir.path());
    assert_eq!(rounds.len(), 2);
    assert_eq!(rounds[0]["valid"], false);
    assert_eq!(rounds[1]["valid"], true);
    let feedback = last_user_message(&server, 1);
    assert!(feedback.contains("flowchart.mmd:") && feedback.contains("`--"), "no caret in:\n{feedback}");
    assert!(feedback.contains("fenced block"), "{feedback}");
    // The conversation is kept: the second request holds the first answer.
    let received = server.received.lock().expect("lock");
    assert_eq!(received[1]["messages"].as_array().expect("messages").len(), 3);
}

#[test]
fn a_chart_that_drops_a_branch_is_sent_back_and_repaired() {
    let dropped = PITFALLS.replace(
        "    H -->|Yes| I[lo = mid + 1]\n    H -->|No| J[hi = mid - 1]\n    I --> D\n",
        "    H --> J[hi = mid - 1]\n",
    );
    let server = Server::scripted(&[&dropped, PITFALLS]);
    let dir = problem();
    let out = author(&server, dir.path(), &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rounds = log(dir.path());
    assert_eq!(rounds.len(), 2, "{rounds:?}");
    let diagnostics = rounds[0]["diagnostics"].to_string();
    assert!(diagnostics.contains("against-"), "{diagnostics}");
    let feedback = last_user_message(&server, 1);
    // The diagnostic names the decision that lost its branch.
    assert!(feedback.contains("against-") && feedback.contains("`nums[mid] < target?` has no Yes edge"), "{feedback}");
    assert!(std::fs::read_to_string(dir.path().join("flowchart.mmd")).expect("written").contains("lo = mid + 1"));
}

#[test]
fn a_reply_that_never_becomes_valid_writes_nothing() {
    let server = Server::scripted(&["flowchart TD\n    A[Start] --> B(call f(x))\n    B -->\n"]);
    let dir = problem();
    let out = author(&server, dir.path(), &["--rounds", "2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no valid chart after 3 answer(s)") && stderr.contains("nothing written"), "{stderr}");
    assert!(!dir.path().join("flowchart.mmd").exists());
    assert_eq!(log(dir.path()).len(), 3);
    assert_eq!(server.received.lock().expect("lock").len(), 3);
}

#[test]
fn a_reply_without_a_chart_is_asked_again() {
    let server = Server::scripted(&["I am sorry, I cannot draw.", PITFALLS]);
    let dir = problem();
    let out = author(&server, dir.path(), &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(last_user_message(&server, 1).contains("no Mermaid chart"));
}

#[test]
fn a_hand_made_chart_is_kept_unless_forced() {
    let server = Server::scripted(&[PITFALLS]);
    let dir = problem();
    std::fs::write(dir.path().join("flowchart.mmd"), "flowchart TD\n    A --> B\n").expect("write");
    let out = author(&server, dir.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
    assert_eq!(server.received.lock().expect("lock").len(), 0, "no request before the refusal");
    assert_eq!(std::fs::read_to_string(dir.path().join("flowchart.mmd")).expect("kept"), "flowchart TD\n    A --> B\n");
    assert!(author(&server, dir.path(), &["--force"]).status.success());
    assert!(std::fs::read_to_string(dir.path().join("flowchart.mmd")).expect("read").contains("binary_search"));
}

/// A faithful chart of [`SOLUTION`] as Code-Vision's charts are written
/// (GPT-4o's conventions): a rectangle Start, an Input with types in
/// words, question decisions, True/False branches, `Output:` boxes.
const CODE_VISION_STYLE: &str = "```mermaid
flowchart TD
    A[Start] --> B[/\"Input: nums (sorted list of integers), target (integer)\"/]
    B --> C[\"Initialize lo = 0, hi = len(nums) - 1\"]
    C --> D{\"Is lo <= hi?\"}
    D -- True --> E[\"mid = (lo + hi) // 2\"]
    E --> F{\"Is nums[mid] == target?\"}
    F -- True --> G[/\"Output: mid\"/]
    F -- False --> H{\"Is nums[mid] < target?\"}
    H -- True --> I[\"lo = mid + 1\"]
    H -- False --> J[\"hi = mid - 1\"]
    I --> D
    J --> D
    D -- False --> K[/\"Output: -1\"/]
    G --> L[End]
    K --> L
```
";

#[test]
fn a_faithful_code_vision_style_reply_is_accepted_in_round_one() {
    let server = Server::scripted(&[CODE_VISION_STYLE]);
    let dir = problem();
    let out = author(&server, dir.path(), &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rounds = log(dir.path());
    assert_eq!(rounds.len(), 1, "accepted without a repair round: {rounds:?}");
    let chart = std::fs::read_to_string(dir.path().join("flowchart.mmd")).expect("written");
    assert!(chart.contains("Is nums[mid] < target?"), "{chart}");
    // The prompt asks for Code-Vision's conventions, not flowbench's own.
    let prompt = last_user_message(&server, 0);
    assert!(prompt.contains("Code-Vision") && prompt.contains("True`/`False"), "{prompt}");
}

/// With a `problem.toml` saying what the inputs are (the list sorted, the
/// target in range), behaviour decides: the faithful reply runs beside the
/// code and is accepted; `<` for `<=` is sent back with its counterexample.
#[test]
fn with_the_problems_spec_a_reply_runs_beside_the_code() {
    let spec = "[params.nums]\nsorted = \"asc\"\nmin = -20\nmax = 20\n\n[params.target]\nmin = -20\nmax = 20\n";
    let server = Server::scripted(&[CODE_VISION_STYLE]);
    let dir = problem();
    std::fs::write(dir.path().join("problem.toml"), spec).expect("write spec");
    let out = author(&server, dir.path(), &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(log(dir.path()).len(), 1, "the faithful reply is accepted in round one");

    let wrong = CODE_VISION_STYLE.replace("Is lo <= hi?", "Is lo < hi?");
    let server = Server::scripted(&[&wrong, CODE_VISION_STYLE]);
    let dir = problem();
    std::fs::write(dir.path().join("problem.toml"), spec).expect("write spec");
    let out = author(&server, dir.path(), &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(log(dir.path()).len(), 2);
    let feedback = last_user_message(&server, 1);
    assert!(feedback.contains("run beside the code, differs: on binary_search("), "{feedback}");
}

#[test]
fn a_code_vision_style_reply_with_one_error_is_sent_back_naming_it() {
    // `<` for `<=`: the loop stops one step early.
    let wrong = CODE_VISION_STYLE.replace("Is lo <= hi?", "Is lo < hi?");
    let server = Server::scripted(&[&wrong, CODE_VISION_STYLE]);
    let dir = problem();
    let out = author(&server, dir.path(), &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rounds = log(dir.path());
    assert_eq!(rounds.len(), 2, "{rounds:?}");
    let feedback = last_user_message(&server, 1);
    assert!(feedback.contains("against-") && feedback.contains("Is lo < hi?"), "{feedback}");
    assert!(std::fs::read_to_string(dir.path().join("flowchart.mmd")).expect("written").contains("Is lo <= hi?"));
}
