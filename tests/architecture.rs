//! ARCHITECTURE.md is the map of `src/`: every top-level module has a
//! `## \`name\`` heading (and every such heading is a module), and every
//! module below it is named, in backquotes, in its section. The module list
//! is read from the `mod` declarations themselves, starting at `lib.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `(path, file)` of every module declared with `mod name;` under `file`.
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

/// Each `## \`top\`` section's text, by top-level module name.
fn sections(map: &str) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in map.lines() {
        if let Some(h) = line.strip_prefix("## ") {
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

#[test]
fn the_map_names_every_module_of_src() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut modules = Vec::new();
    declared("", &root.join("src/lib.rs"), &mut modules);
    let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let sections = sections(&map);

    let tops: BTreeSet<&str> = modules.iter().filter(|m| !m.contains("::")).map(String::as_str).collect();
    let headings: BTreeSet<&str> = sections.keys().map(String::as_str).collect();
    assert_eq!(headings, tops, "ARCHITECTURE.md's `## ` headings must be exactly the top-level modules");

    let mut missing = Vec::new();
    for m in modules.iter().filter(|m| m.contains("::")) {
        let (top, rest) = m.split_once("::").unwrap();
        if !quoted(&sections[top]).contains(rest) {
            missing.push(m.as_str());
        }
    }
    assert!(missing.is_empty(), "modules ARCHITECTURE.md does not name in their section: {missing:?}");
}

#[test]
fn the_module_list_is_read_from_the_declarations() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut modules = Vec::new();
    declared("", &root.join("src/lib.rs"), &mut modules);
    for m in ["mermaid", "mermaid::lexer::rules", "layout::problem", "exec::lazy", "cli::choices", "timings"] {
        assert!(modules.iter().any(|x| x == m), "{m} not found among {} modules", modules.len());
    }
}
