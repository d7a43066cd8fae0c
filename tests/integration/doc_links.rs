//! Every relative link of the README, the user guide (`docs/guide/`) and the
//! figures page (`docs/figures.md`) leads somewhere: the file or directory
//! exists, and a `#anchor` into a Markdown file names one of its headings
//! (as GitHub makes anchors from them). Links to the web are not followed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The pages whose links are checked, relative to the repository root.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut pages = vec![root.join("README.md"), root.join("docs/figures.md")];
    let guide = std::fs::read_dir(root.join("docs/guide")).expect("docs/guide");
    let mut guide: Vec<PathBuf> =
        guide.map(|e| e.expect("entry").path()).filter(|p| p.extension().is_some_and(|x| x == "md")).collect();
    guide.sort();
    pages.extend(guide);
    pages
}

/// The text outside fenced code blocks, with inline code spans blanked, so a
/// `[x](y)` shown as code is not taken for a link.
fn prose(markdown: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // A code span opens with a run of backticks and closes with a run of
        // the same length (```` ```python ```` shows a fence as code).
        let chars: Vec<char> = line.chars().collect();
        let mut open_run = 0;
        let mut i = 0;
        while i < chars.len() {
            if chars[i] == '`' {
                let run = chars[i..].iter().take_while(|c| **c == '`').count();
                if open_run == 0 {
                    open_run = run;
                } else if run == open_run {
                    open_run = 0;
                }
                out.extend(std::iter::repeat_n(' ', run));
                i += run;
                continue;
            }
            out.push(if open_run > 0 { ' ' } else { chars[i] });
            i += 1;
        }
        out.push('\n');
    }
    out
}

/// The targets of the Markdown links `[text](target)` in `text`.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            targets.push(rest[..end].trim().to_string());
            rest = &rest[end..];
        }
    }
    targets
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to
/// hyphens; a repeated heading gets `-1`, `-2`, ….
fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut anchor = slug.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{slug}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

#[test]
fn every_relative_link_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages(root) {
        let text = std::fs::read_to_string(&page).expect("page");
        for target in link_targets(&prose(&text)) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = target.split_once('#').map_or((target.as_str(), None), |(p, a)| (p, Some(a)));
            let file = if path.is_empty() { page.clone() } else { page.parent().expect("dir").join(path) };
            if !file.exists() {
                broken.push(format!("{}: {target}: no such file", page.display()));
                continue;
            }
            if let Some(anchor) = anchor {
                let target_text = std::fs::read_to_string(&file).unwrap_or_default();
                if !anchors(&target_text).contains(anchor) {
                    broken.push(format!("{}: {target}: no heading makes #{anchor}", page.display()));
                }
            }
        }
    }
    assert!(checked > 50, "found only {checked} relative links");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let text = "# A `tests score` run: (first)\n## Set up\n## Set up\n```sh\n# not a heading\n```\n";
    let got = anchors(text);
    let want: BTreeSet<String> =
        ["a-tests-score-run-first", "set-up", "set-up-1"].iter().map(|s| s.to_string()).collect();
    assert_eq!(got, want);
}
