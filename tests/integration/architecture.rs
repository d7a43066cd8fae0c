//! ARCHITECTURE.md is the map of the workspace, and the workspace keeps the
//! invariants the map states:
//!
//! - every workspace member has a `## \`crate\`` heading (and every such
//!   heading is a member); each of its top-level modules is named in its
//!   section, and each module below one is named in that module's
//!   `### \`module\`` part (or the crate's section where it has none). The
//!   modules are read from the `mod` declarations themselves, starting at
//!   each crate's `lib.rs`;
//! - the dependency graph, read from `cargo metadata`, follows the pipeline:
//!   the chart crate pulls in nothing that runs code, and only the
//!   `flowbench` package depends on `clap` and `anyhow`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value as Json;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The path of every module declared with `mod name;` under `file`.
fn declared(prefix: &str, file: &Path, out: &mut Vec<String>) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let dir: PathBuf = match file.file_name().and_then(|n| n.to_str()) {
        Some("lib.rs" | "mod.rs") => file.parent().unwrap().to_path_buf(),
        _ => file.with_extension(""),
    };
    for line in text.lines() {
        let line = line.trim();
        let decl = line.strip_prefix("pub ").or_else(|| line.strip_prefix("pub(crate) ")).unwrap_or(line);
        let Some(name) = decl.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) else { continue };
        let path = if prefix.is_empty() { name.to_string() } else { format!("{prefix}::{name}") };
        let child = [dir.join(format!("{name}.rs")), dir.join(name).join("mod.rs")]
            .into_iter()
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("module {path} declared in {} has no file", file.display()));
        out.push(path.clone());
        declared(&path, &child, out);
    }
}

/// The triple of the machine the tests run on, as `rustc -vV` names it.
fn host_triple() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc).arg("-vV").output().expect("rustc -vV runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let host = text.lines().find_map(|l| l.strip_prefix("host: ")).expect("rustc -vV names the host");
    host.trim().to_string()
}

/// `cargo metadata` of the workspace for this machine's platform (no
/// network: the lock file decides, and other platforms' crates, which a
/// build here never downloads, are left out).
fn metadata() -> Json {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let platform = host_triple();
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--offline", "--filter-platform", &platform])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

/// The workspace members: name → the directory of their manifest.
fn members(meta: &Json) -> BTreeMap<String, PathBuf> {
    let ids: BTreeSet<&str> = meta["workspace_members"].as_array().unwrap().iter().filter_map(Json::as_str).collect();
    meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| ids.contains(p["id"].as_str().unwrap()))
        .map(|p| {
            let manifest = PathBuf::from(p["manifest_path"].as_str().unwrap());
            (p["name"].as_str().unwrap().to_string(), manifest.parent().unwrap().to_path_buf())
        })
        .collect()
}

/// The text under each heading of `level` (`"## "`, `"### "`), by the
/// heading's backquoted name, within `text`.
fn sections(text: &str, level: &str) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some(h) = line.strip_prefix(level) {
            let name = h.trim().trim_matches('`').to_string();
            assert!(!out.contains_key(&name), "ARCHITECTURE.md has two sections for {name}");
            out.insert(name.clone(), String::new());
            current = Some(name);
        } else if let Some(c) = &current {
            let s = out.get_mut(c).unwrap();
            s.push_str(line);
            s.push('\n');
        }
    }
    out
}

/// The backquoted words of `text`.
fn quoted(text: &str) -> BTreeSet<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The modules of `krate` (its section's text) that the map does not name.
fn unnamed_modules(krate: &str, section: &str, modules: &[String]) -> Vec<String> {
    let parts = sections(section, "### ");
    let mut missing = Vec::new();
    for m in modules {
        let named = match m.split_once("::") {
            None => parts.contains_key(m) || quoted(section).contains(m.as_str()),
            Some((top, rest)) => {
                let text = parts.get(top).map_or(section, String::as_str);
                quoted(text).contains(rest) || quoted(text).contains(m.as_str())
            }
        };
        if !named {
            missing.push(format!("{krate}::{m}"));
        }
    }
    missing
}

#[test]
fn the_map_names_every_crate_and_module() {
    let meta = metadata();
    let members = members(&meta);
    let map = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let crates = sections(&map, "## ");

    let names: BTreeSet<&str> = members.keys().map(String::as_str).collect();
    let headings: BTreeSet<&str> = crates.keys().map(String::as_str).collect();
    assert_eq!(headings, names, "ARCHITECTURE.md's `## ` headings must be exactly the workspace's crates");

    let mut missing = Vec::new();
    for (name, dir) in &members {
        let mut modules = Vec::new();
        declared("", &dir.join("src/lib.rs"), &mut modules);
        missing.extend(unnamed_modules(name, &crates[name], &modules));
    }
    assert!(missing.is_empty(), "modules ARCHITECTURE.md does not name: {missing:?}");
}

#[test]
fn the_module_list_is_read_from_the_declarations() {
    let mut modules = Vec::new();
    declared("", &root().join("crates/chart/src/lib.rs"), &mut modules);
    for m in ["mermaid", "mermaid::lexer::rules", "layout::problem", "render::damage::warp"] {
        assert!(modules.iter().any(|x| x == m), "{m} not found among {} modules", modules.len());
    }
    let mut modules = Vec::new();
    declared("", &root().join("src/lib.rs"), &mut modules);
    assert!(modules.iter().any(|x| x == "cli::choices"), "cli::choices not found among {modules:?}");
}

/// Every package `name` depends on, directly or not (normal dependencies:
/// what ships in the library, not what its tests use).
fn transitive_dependencies(meta: &Json, name: &str) -> BTreeSet<String> {
    let nodes = meta["resolve"]["nodes"].as_array().unwrap();
    let name_of = |id: &str| -> String {
        let package = meta["packages"].as_array().unwrap().iter().find(|p| p["id"] == id).unwrap();
        package["name"].as_str().unwrap().to_string()
    };
    let start = meta["packages"].as_array().unwrap().iter().find(|p| p["name"] == name).unwrap()["id"].clone();
    let mut seen = BTreeSet::new();
    let mut todo = vec![start];
    while let Some(id) = todo.pop() {
        let node = nodes.iter().find(|n| n["id"] == id).unwrap();
        for dep in node["deps"].as_array().unwrap() {
            let normal = dep["dep_kinds"].as_array().unwrap().iter().any(|k| k["kind"].is_null());
            if normal && seen.insert(name_of(dep["pkg"].as_str().unwrap())) {
                todo.push(dep["pkg"].clone());
            }
        }
    }
    seen
}

#[test]
fn the_chart_crate_pulls_in_nothing_that_runs_code() {
    let meta = metadata();
    let deps = transitive_dependencies(&meta, "flowbench-chart");
    // (libc is there, through the image crates: bindings, not a way to run a program.)
    let forbidden =
        ["flowbench-exec", "flowbench-client", "flowbench-problem", "flowbench", "nix", "clap", "anyhow", "ureq"];
    let found: Vec<&str> = forbidden.iter().copied().filter(|f| deps.contains(*f)).collect();
    assert!(found.is_empty(), "flowbench-chart depends on {found:?}");
}

#[test]
fn only_the_command_line_depends_on_clap_and_anyhow() {
    let meta = metadata();
    let members = members(&meta);
    for package in meta["packages"].as_array().unwrap() {
        let name = package["name"].as_str().unwrap();
        if !members.contains_key(name) || name == "flowbench" {
            continue;
        }
        for dep in package["dependencies"].as_array().unwrap() {
            let dep_name = dep["name"].as_str().unwrap();
            assert!(
                !["clap", "anyhow"].contains(&dep_name) || dep["kind"] == "dev",
                "{name} depends on {dep_name}: only the command line may"
            );
        }
    }
}

/// The code of a Rust source with comments, strings and character
/// literals blanked to spaces (newlines kept, so lines still count), for
/// scanning its braces and keywords.
fn code_only(source: &str) -> Vec<u8> {
    let s = source.as_bytes();
    let mut out = s.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    let mut i = 0;
    while i < s.len() {
        let start = i;
        if s[i..].starts_with(b"//") {
            while i < s.len() && s[i] != b'\n' {
                i += 1;
            }
        } else if s[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < s.len() {
                if s[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if s[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if let Some(hashes) = raw_string_at(s, i) {
            // r#"…"# (also br"…"): ends at the quote followed by as many #.
            i = s[i..].iter().position(|&b| b == b'"').map_or(s.len(), |q| i + q + 1);
            let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            while i < s.len() && !s[i..].starts_with(&close) {
                i += 1;
            }
            i = (i + close.len()).min(s.len());
        } else if s[i] == b'"' && (i == 0 || !s[i - 1].is_ascii_alphanumeric() || s[i - 1] == b'b') {
            i += 1;
            while i < s.len() && s[i] != b'"' {
                i += if s[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(s.len());
        } else if s[i] == b'\'' {
            // A character literal ('x', '\n', '\u{1F600}', '"'), not a lifetime ('a).
            let end = if s.get(i + 1) == Some(&b'\\') {
                s[i + 2..].iter().position(|&b| b == b'\'').map(|p| i + 2 + p)
            } else {
                let ch = source[i + 1..].chars().next().map_or(1, char::len_utf8);
                (s.get(i + 1 + ch) == Some(&b'\'')).then_some(i + 1 + ch)
            };
            i = end.map_or(i + 1, |e| e + 1);
            if end.is_none() {
                continue;
            }
        } else {
            i += 1;
            continue;
        }
        blank(&mut out, start, i);
    }
    out
}

/// At `i`, the number of `#` of a raw string literal starting there.
fn raw_string_at(s: &[u8], i: usize) -> Option<usize> {
    if i > 0 && (s[i - 1].is_ascii_alphanumeric() || s[i - 1] == b'_') {
        return None;
    }
    let rest = s[i..].strip_prefix(b"b").unwrap_or(&s[i..]).strip_prefix(b"r")?;
    let hashes = rest.iter().take_while(|&&b| b == b'#').count();
    (rest.get(hashes) == Some(&b'"')).then_some(hashes)
}

/// Every function with a body in `source`: its name, first line (1-based)
/// and length in lines, from the `fn` line to its closing brace.
fn function_lengths(source: &str) -> Vec<(String, usize, usize)> {
    let code = code_only(source);
    let line_of = |at: usize| code[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let word = |at: usize| at == 0 || !(code[at - 1].is_ascii_alphanumeric() || code[at - 1] == b'_');
    let mut out = Vec::new();
    for at in 0..code.len() {
        if !(code[at..].starts_with(b"fn ") && word(at)) {
            continue;
        }
        let name: String = code[at + 3..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .map(|&b| char::from(b))
            .collect();
        // The body opens at the first `{` outside the signature's (), [] and <>;
        // a `;` first means a declaration without one.
        let mut depth = 0i32;
        let mut open = None;
        for (j, &b) in code.iter().enumerate().skip(at + 3) {
            match b {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b';' if depth == 0 => break,
                b'{' if depth == 0 => {
                    open = Some(j);
                    break;
                }
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        let mut braces = 0;
        let close = (open..code.len())
            .find(|&j| {
                match code[j] {
                    b'{' => braces += 1,
                    b'}' => braces -= 1,
                    _ => {}
                }
                braces == 0
            })
            .unwrap_or_else(|| panic!("fn {name} at line {}: no closing brace", line_of(at)));
        out.push((name, line_of(at), line_of(close) - line_of(at) + 1));
    }
    out
}

#[test]
fn the_function_scanner_counts_from_fn_to_its_closing_brace() {
    let source = "/// fn in a doc { \nfn a() {\n    let s = \"}{\";\n    let c = '}';\n    let r = r#\"fn x() {\"#;\n}\n\
                  trait T { fn decl(&self); }\nfn b<'a>(x: &'a str) -> impl Fn() + 'a {\n    move || {\n        drop(x)\n    }\n}\n";
    let found = function_lengths(source);
    assert_eq!(found, vec![("a".into(), 2, 5), ("b".into(), 8, 5)]);
}

/// `cli` only wires options to the phases: no function there a reader
/// cannot hold in their head.
#[test]
fn no_cli_function_is_over_60_lines() {
    const MAX: usize = 60;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli");
    let mut long = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for file in files.iter().filter(|p| p.extension().is_some_and(|e| e == "rs")) {
        let source = std::fs::read_to_string(file).unwrap();
        for (name, line, lines) in function_lengths(&source) {
            if lines > MAX {
                long.push(format!("{}:{line} fn {name}: {lines} lines", file.display()));
            }
        }
    }
    assert!(long.is_empty(), "functions in src/cli over {MAX} lines:\n{}", long.join("\n"));
}
