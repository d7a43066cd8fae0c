//! Labels compared the way a reader compares them: what the picture says,
//! not how the Mermaid spelled it.
//!
//! [`normalise`] removes what a transcription cannot see or may legitimately
//! write differently — letter case, runs of whitespace, surrounding quotes,
//! `<br>` and inline HTML tags, entity codes, Markdown emphasis — so *strict*
//! is equality of normalised labels. [`similarity`] is FlowGen's relaxed
//! measure: one minus the Levenshtein distance over the longer length, a
//! match when it reaches [`RELAXED`].

/// FlowGen's relaxed threshold on normalised edit similarity.
pub const RELAXED: f64 = 0.85;

/// Inline tags mermaid draws as formatting, never as text.
const TAGS: [&str; 14] =
    ["br", "b", "i", "u", "em", "strong", "sub", "sup", "span", "p", "div", "code", "small", "big"];

/// A label as a reader would compare it.
pub fn normalise(label: &str) -> String {
    let decoded = htmlize::unescape(strip_tags(label));
    let plain: String = decoded
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' => '\'',
            '\u{201c}' | '\u{201d}' => '"',
            '\u{a0}' => ' ',
            c => c,
        })
        .collect();
    let plain = plain.replace("**", "").replace('`', "");
    let words: Vec<&str> = plain.split_whitespace().collect();
    let joined = words.join(" ");
    joined.trim_matches(|c| c == '"' || c == '\'').trim().to_lowercase()
}

/// `label` with the tags of [`TAGS`] replaced by a space (`<br>` is a line
/// break; a space is what a reader of the picture would type).
fn strip_tags(label: &str) -> String {
    let mut out = String::with_capacity(label.len());
    let mut rest = label;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        match tag_len(after) {
            Some(len) => {
                out.push(' ');
                rest = &after[len..];
            }
            None => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The length of `after` up to and including the `>` closing a known tag
/// (`br>`, `/b>`, `br />`, `span class="x">`), if `after` starts one.
fn tag_len(after: &str) -> Option<usize> {
    let name_start = usize::from(after.starts_with('/'));
    let name_len = after[name_start..].chars().take_while(|c| c.is_ascii_alphabetic()).count();
    let name = after[name_start..name_start + name_len].to_ascii_lowercase();
    if !TAGS.contains(&name.as_str()) {
        return None;
    }
    let tail = &after[name_start + name_len..];
    let first = tail.chars().next()?;
    if !(first == '>' || first == '/' || first == ' ') {
        return None;
    }
    let close = tail.find('>')?;
    Some(name_start + name_len + close + 1)
}

/// Normalised edit similarity of two normalised labels, in `[0, 1]`:
/// exact at or above [`RELAXED`]; below it, pairs whose lengths alone rule
/// a match out get the bound their lengths give (faster, same verdict).
pub fn similarity(a: &str, b: &str) -> f64 {
    if a == b {
        return 1.0;
    }
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let longest = a.len().max(b.len());
    // The distance is at least the difference in length: skip hopeless pairs.
    if (longest - a.len().min(b.len())) as f64 > (1.0 - RELAXED) * longest as f64 + 1e-9 {
        return 1.0 - (longest - a.len().min(b.len())) as f64 / longest as f64;
    }
    1.0 - levenshtein(&a, &b) as f64 / longest as f64
}

/// Whether two normalised labels match relaxedly.
pub fn relaxed_match(a: &str, b: &str) -> bool {
    similarity(a, b) >= RELAXED
}

fn levenshtein(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb)).min(above + 1).min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_what_a_reader_cannot_see() {
        assert_eq!(normalise("  \"Is  N even?\" "), "is n even?");
        assert_eq!(normalise("a<br>b"), "a b");
        assert_eq!(normalise("a<br />b"), "a b");
        assert_eq!(normalise("i &lt; len(s)?"), "i < len(s)?");
        assert_eq!(normalise("i < len(s)?"), "i < len(s)?");
        assert_eq!(normalise("**Start**"), "start");
        assert_eq!(normalise("x<b>y</b>"), "x y");
    }

    #[test]
    fn similarity_is_one_minus_edit_distance_over_length() {
        assert_eq!(similarity("kitten", "sitting"), 1.0 - 3.0 / 7.0);
        assert_eq!(similarity("", ""), 1.0);
        assert_eq!(similarity("abc", ""), 0.0);
        assert!(relaxed_match("return count of vowels", "return count of vowel"));
        assert!(!relaxed_match("yes", "no"));
    }
}
