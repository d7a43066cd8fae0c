//! Values a chart names by their role in the function rather than by
//! name: `the last index`, `the first character`, `the list`. People write
//! them in place of the parameter they mean, and a chart cannot run until
//! they are code. The solution says whose role it is: its entry's one
//! sequence parameter (the only parameter, or the only one the code
//! indexes, measures or iterates). They are read in the labels, before
//! the chart becomes a graph, so the reader sees plain code.

use flowbench_chart::mermaid::Flowchart;

use super::prose::ELEMENT_NOUNS;
use super::reader::{Program, code_texts};

/// Nouns that name the sequence itself (`the list`, `the input string`).
const SEQUENCES: [&str; 7] = ["list", "array", "string", "sequence", "text", "word", "input"];

/// The entry's parameter a role belongs to: its only parameter, or the
/// only one its code uses as a sequence (`len(p)`, `p[…]`, `for … in p`).
pub fn sequence_parameter(program: &Program) -> Option<String> {
    let params: Vec<&str> =
        program.entry.params.iter().map(|p| p.name.as_str()).filter(|n| !matches!(*n, "/" | "*")).collect();
    if let [only] = params.as_slice() {
        return Some((*only).to_owned());
    }
    let texts = code_texts(&program.entry.body);
    let used: Vec<&str> = params.into_iter().filter(|p| texts.iter().any(|t| uses_as_sequence(t, p))).collect();
    match used.as_slice() {
        [one] => Some((*one).to_owned()),
        _ => None,
    }
}

/// Whether `text` indexes, measures or iterates `name`.
fn uses_as_sequence(text: &str, name: &str) -> bool {
    let squeezed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    [format!("len({name})"), format!("enumerate({name}")].iter().any(|p| squeezed.contains(p.as_str()))
        || word_followed_by(text, name, "[")
        || text.split_whitespace().collect::<Vec<_>>().windows(2).any(|w| w[0] == "in" && w[1] == name)
}

/// Whether `name` occurs as a whole word directly followed by `next`.
fn word_followed_by(text: &str, name: &str, next: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = &text[at + name.len()..];
        before.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '.')) && after.starts_with(next)
    })
}

/// `chart` with the roles of `subject` written as code in its labels, or
/// `None` when no label names one. Parameter names (`params`) after a noun
/// keep it a description (`the string s` is `s`, read as it stands).
pub fn with_roles_named(chart: &Flowchart, subject: &str, params: &[String]) -> Option<Flowchart> {
    let mut named = chart.clone();
    let mut changed = false;
    // `the list` is the input only where the chart makes no list of its
    // own (`result = []`, `an empty list`): then it may be that one. A
    // value returned (`Return empty string`) is made for no one.
    let returns = |l: &str| ["return", "output", "print"].iter().any(|w| l.trim_start().starts_with(w));
    let all = chart.nodes.iter().map(|n| n.label.to_lowercase()).filter(|l| !returns(l)).collect::<Vec<_>>().join("\n");
    let own = |kind: &str| match kind {
        "list" | "array" => ["[]", "empty list", "new list", "empty array", "list()"].iter().any(|w| all.contains(w)),
        "string" | "text" | "word" => ["''", "\"\"", "empty string", "new string"].iter().any(|w| all.contains(w)),
        _ => false,
    };
    let owned: Vec<&str> = SEQUENCES.iter().copied().filter(|k| own(k)).collect();
    for node in &mut named.nodes {
        if let Some(label) = roles_in(&node.label, subject, params, &owned) {
            node.label = label;
            changed = true;
        }
    }
    changed.then_some(named)
}

/// `label` with each role of `subject` as code; `None` when it names none.
/// Nouns in `owned` are not the subject's (the chart makes its own).
fn roles_in(label: &str, subject: &str, params: &[String], owned: &[&str]) -> Option<String> {
    // ASCII lowering keeps every byte where it was: offsets in `lower` are
    // offsets in `label`.
    let lower = label.to_ascii_lowercase();
    let mut out = String::new();
    let mut at = 0;
    let mut changed = false;
    while at < label.len() {
        let starts_word = lower[..at].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if starts_word
            && lower[at..].starts_with("the ")
            && let Some((len, code)) = role_at(&lower[at + "the ".len()..], subject, params, owned)
        {
            out.push_str(&code);
            at += "the ".len() + len;
            changed = true;
            continue;
        }
        let c = label[at..].chars().next().expect("in bounds");
        out.push(c);
        at += c.len_utf8();
    }
    changed.then_some(out)
}

/// The role a text (after `the `) starts with: its length and its code.
fn role_at(text: &str, subject: &str, params: &[String], owned: &[&str]) -> Option<(usize, String)> {
    let words = words_ending(text);
    let word = |i: usize| words.get(i).map_or("", |&(w, _)| w);
    // Where the role's `n` words end, and what follows them.
    let end = |n: usize| words.get(n - 1).map_or(text.len(), |&(_, end)| end);
    let described = |n: usize| {
        let rest = text[end(n)..].trim_start();
        rest.starts_with("of ") || params.iter().any(|p| rest.split([' ', ',', '?']).next() == Some(p.as_str()))
    };
    match (word(0), word(1)) {
        ("first" | "last", "index") if !described(2) => {
            let code = if word(0) == "first" { "0".to_owned() } else { format!("len({subject}) - 1") };
            Some((end(2), code))
        }
        ("first" | "last", item) if ELEMENT_NOUNS.contains(&item) && !described(2) => {
            Some((end(2), format!("{subject}[{}]", if word(0) == "first" { "0" } else { "-1" })))
        }
        ("input", noun) if SEQUENCES.contains(&noun) && !described(2) => Some((end(2), subject.to_owned())),
        (noun, _) if SEQUENCES.contains(&noun) && noun != "input" && !owned.contains(&noun) && !described(1) => {
            Some((end(1), subject.to_owned()))
        }
        _ => None,
    }
}

/// The words of `text` split at every character that is not a letter, a
/// digit or `_` (two such characters in a row leave an empty word), each
/// with the byte offset where it ends.
fn words_ending(text: &str) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (at, c) in text.char_indices() {
        if !(c.is_alphanumeric() || c == '_') {
            out.push((&text[start..at], at));
            start = at + c.len_utf8();
        }
    }
    out.push((&text[start..], text.len()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(label: &str) -> Option<String> {
        roles_in(label, "arr", &["arr".to_owned(), "target".to_owned()], &[])
    }

    #[test]
    fn a_list_the_chart_makes_is_not_the_input() {
        let chart = flowbench_chart::mermaid::parse(
            "flowchart TD\n  A([Start]) --> B[result = empty list]\n  B --> C[Append x to the list]\n  \
             C --> D[Return the list]\n  D --> E{Is the string empty?}\n  E --> F[Return empty string]\n",
        )
        .expect("parses");
        let named = with_roles_named(&chart, "s", &["s".to_owned()]).expect("the string is the input's");
        let labels: Vec<&str> = named.nodes.iter().map(|n| n.label.as_str()).collect();
        assert!(labels.contains(&"Return the list") && labels.contains(&"Is s empty?"), "{labels:?}");
    }

    #[test]
    fn roles_of_the_sequence_parameter_become_code() {
        let s = |x: &str| Some(x.to_owned());
        assert_eq!(
            roles("Set low to the first index and high to the last index"),
            s("Set low to 0 and high to len(arr) - 1")
        );
        assert_eq!(roles("Return the first character"), s("Return arr[0]"));
        assert_eq!(roles("Is the list empty?"), s("Is arr empty?"));
        assert_eq!(roles("Are there characters left in the string?"), s("Are there characters left in arr?"));
        assert_eq!(roles("Sort the input list"), s("Sort arr"));
        // Described, not named: left for the words' own reading.
        assert_eq!(roles("the list of words"), None);
        assert_eq!(roles("the first element of nums"), None);
        assert_eq!(roles("Return the string arr"), None);
        assert_eq!(roles("Another listing"), None);
        assert_eq!(roles("Then stop"), None);
        assert_eq!(roles("İİ the last index ß"), s("İİ len(arr) - 1 ß"), "letters beyond ASCII keep their place");
        assert_eq!(roles("Set i to the first\u{2019}index, then stop"), s("Set i to 0, then stop"), "a wide separator");
    }

    #[test]
    fn the_sequence_parameter_is_the_one_the_code_indexes() {
        let program = crate::reader::read_program(
            "def search(arr, target):\n    lo = 0\n    while lo < len(arr):\n        if arr[lo] == target:\n            \
             return lo\n        lo += 1\n    return -1\n",
            None,
        )
        .expect("reads");
        assert_eq!(sequence_parameter(&program).as_deref(), Some("arr"));
    }
}
