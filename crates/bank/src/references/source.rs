//! A released sample as a standalone reference program: its top-level
//! example usage dropped and the imports it relied on from Code-Vision's
//! judge prelude written out, so the program that is validated is exactly
//! the `solution.py` written (which `tests gen`, `draw` and `build` read
//! without any prelude).

/// The Code-Vision prelude's imports one name at a time, with the name
/// each binds. `from sympy import *` is left out: it binds hundreds of
/// names (shadowing `floor`, `gcd`…) and costs half a second a program; a
/// sample that needs it fails its tests here and is no candidate.
const PRELUDE_IMPORTS: &[(&str, &str)] = &[
    ("from typing import List", "List"),
    ("from typing import Tuple", "Tuple"),
    ("from typing import Optional", "Optional"),
    ("from typing import Any", "Any"),
    ("import math", "math"),
    ("from collections import defaultdict", "defaultdict"),
    ("from functools import cache", "cache"),
    ("from collections import deque", "deque"),
    ("import collections", "collections"),
    ("import heapq", "heapq"),
    ("from sortedcontainers import SortedList", "SortedList"),
    ("from sortedcontainers import SortedDict", "SortedDict"),
    ("from itertools import accumulate", "accumulate"),
    ("from collections import Counter", "Counter"),
    ("from math import floor", "floor"),
    ("import bisect", "bisect"),
    ("import time", "time"),
    ("from datetime import datetime", "datetime"),
    ("import hashlib", "hashlib"),
];

/// `completion` as a standalone program: the prelude imports whose name
/// it uses (not as an attribute, `x.floor`), then its definitions.
pub fn standalone(completion: &str, entry_point: &str) -> String {
    let body = definitions(completion, entry_point);
    let used = identifiers(&body);
    let mut out = String::new();
    for (line, name) in PRELUDE_IMPORTS {
        if used.contains(name) {
            out.push_str(line);
            out.push('\n');
        }
    }
    if !out.is_empty() {
        out.push_str("\n\n");
    }
    out.push_str(body.trim_matches('\n'));
    out.push('\n');
    out
}

/// The names a program uses outside comments, attribute accesses left out.
fn identifiers(source: &str) -> std::collections::BTreeSet<&str> {
    let mut names = std::collections::BTreeSet::new();
    for line in source.lines() {
        let code = line.split('#').next().unwrap_or_default();
        let mut start = None;
        for (i, c) in code.char_indices().chain([(code.len(), ' ')]) {
            let word = c.is_alphanumeric() || c == '_';
            match (word, start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    if !code[..s].ends_with('.') {
                        names.insert(&code[s..i]);
                    }
                    start = None;
                }
                _ => {}
            }
        }
    }
    names
}

/// The top-level blocks of `completion` that define something: `def`,
/// `class`, decorators, imports and plain assignments, each with its
/// indented lines (top-level comments are left out). Example usage (`print(f(3))`, `sol = Solution()`, an
/// `if __name__ …` block) is dropped: it would be drawn as part of the
/// chart. What is kept is validated afterwards, so a dropped line the
/// definitions needed only costs the sample its candidacy.
pub fn definitions(completion: &str, entry_point: &str) -> String {
    let mut out = String::new();
    let mut keep = false;
    for line in completion.lines() {
        let starts_block = line.starts_with(|c: char| !c.is_whitespace() && !")]}#".contains(c));
        if starts_block {
            keep = defines(line, entry_point);
        }
        // Top-level comments go with the block they sit in front of, which
        // may be dropped: they are left out.
        if line.starts_with('#') {
            continue;
        }
        if keep || (!starts_block && line.trim().is_empty()) {
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    // Blank lines of dropped blocks collapse.
    while out.contains("\n\n\n\n") {
        out = out.replace("\n\n\n\n", "\n\n\n");
    }
    out
}

/// Whether a top-level line starts a definition worth keeping.
fn defines(line: &str, entry_point: &str) -> bool {
    let keyword = ["def ", "async def ", "class ", "@", "import ", "from "].iter().any(|k| line.starts_with(k));
    keyword || is_plain_assignment(line, entry_point)
}

/// `NAME = value` (or `NAME: T = value`) whose value is not example usage
/// (a call of the entry point, a `Solution()`, a print).
fn is_plain_assignment(line: &str, entry_point: &str) -> bool {
    let Some((target, value)) = line.split_once('=') else { return false };
    let target = target.split(':').next().unwrap_or_default().trim();
    let is_name = !target.is_empty() && target.chars().all(|c| c.is_alphanumeric() || c == '_');
    is_name
        && !value.starts_with('=')
        && !value.contains("print(")
        && !value.contains("Solution(")
        && !value.contains(&format!("{entry_point}("))
}

/// A program's size for "the simplest candidate": characters outside
/// comments and blank lines, trailing spaces ignored.
pub fn normalised_len(source: &str) -> usize {
    source
        .lines()
        .map(|l| l.trim_end())
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| l.chars().count())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_usage_is_dropped_and_used_imports_added() {
        let completion = "MOD = 10**9 + 7\n\ndef f(xs: List[int]) -> int:\n    return len(deque(xs)) % MOD\n\n\
                          # Example usage\nprint(f([1, 2]))\nresult = f([3])\nif __name__ == '__main__':\n    print(result)\n";
        let program = standalone(completion, "f");
        assert_eq!(
            program,
            "from typing import List\nfrom collections import deque\n\n\nMOD = 10**9 + 7\n\n\
             def f(xs: List[int]) -> int:\n    return len(deque(xs)) % MOD\n"
        );
    }

    #[test]
    fn attributes_and_comments_import_nothing() {
        assert_eq!(
            standalone("def f(x):\n    # the time\n    return x.floor\n", "f"),
            "def f(x):\n    # the time\n    return x.floor\n"
        );
    }

    #[test]
    fn comments_do_not_count_towards_size() {
        assert_eq!(normalised_len("def f():\n    # why\n\n    return 1  \n"), "def f():".len() + "    return 1".len());
    }
}
