//! Which of the reference's mutants may become a variant of a kind, and in
//! which (seeded) order they are tried.
//!
//! The mutants are `tests score`'s (`testgen::score::mutants`): each a whole
//! program with its `kind` (`constant 3 -> 4`, `comparison Lt -> LtE`, …)
//! and line. Mutants that only break a program (`return None`, a deleted
//! statement) are no sensible program to draw, so neither kind takes them.

use super::Kind;
use flowbench_judge::samples::fnv1a;
use flowbench_testgen::python::Mutant;

/// A mutant that may become a variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The whole changed program.
    pub source: String,
    /// What changed and where, e.g. `constant 2 -> 3 (line 4)`.
    pub change: String,
    /// Old name → new name (`rename`); empty for the other kinds.
    pub names: std::collections::BTreeMap<String, String>,
}

/// Mutation kinds that make no program worth drawing.
const BROKEN: [&str; 3] = ["return None", "deleted statement", "removed unary minus"];

/// The kind a mutant's `kind` text belongs to, if any.
pub fn kind_of(mutation: &str) -> Option<Kind> {
    if let Some(rest) = mutation.strip_prefix("constant ") {
        // Numbers only: a flipped boolean or an emptied string is logic at
        // best and usually a broken program.
        let value = rest.split(" -> ").next().unwrap_or("");
        return value.parse::<f64>().is_ok().then_some(Kind::Constants);
    }
    (!BROKEN.contains(&mutation)).then_some(Kind::Logic)
}

/// The mutants of `kind`, ordered by a hash of the seed, the problem and
/// the program: deterministic for a seed, different across seeds.
pub fn of_kind(mutants: &[Mutant], kind: Kind, problem: &str, seed: u64) -> Vec<Candidate> {
    let mut out: Vec<(u64, Candidate)> = mutants
        .iter()
        .filter(|m| kind_of(&m.kind) == Some(kind))
        .map(|m| {
            let key = format!("{seed}\u{0}{problem}\u{0}{}", m.source);
            let change = format!("{} (line {})", m.kind, m.line);
            (fnv1a(key.as_bytes()), Candidate { source: m.source.clone(), change, names: Default::default() })
        })
        .collect();
    out.sort_by(|a, b| (a.0, &a.1.source).cmp(&(b.0, &b.1.source)));
    out.into_iter().map(|(_, c)| c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_read_from_the_mutation_and_broken_programs_are_left_out() {
        assert_eq!(kind_of("constant 2 -> 3"), Some(Kind::Constants));
        assert_eq!(kind_of("constant 0.5 -> 0.25"), Some(Kind::Constants));
        assert_eq!(kind_of("constant True -> False"), None);
        assert_eq!(kind_of("constant 'a' -> ''"), None);
        assert_eq!(kind_of("comparison Lt -> LtE"), Some(Kind::Logic));
        assert_eq!(kind_of("return None"), None);
        assert_eq!(kind_of("deleted statement"), None);
    }

    #[test]
    fn the_order_is_seeded_and_stable() {
        let mutants: Vec<Mutant> = (0..8)
            .map(|i| Mutant {
                kind: "comparison Lt -> LtE".into(),
                line: i,
                source: format!("x = {i}\n"),
                diff: String::new(),
            })
            .collect();
        let a = of_kind(&mutants, Kind::Logic, "p", 1);
        assert_eq!(a, of_kind(&mutants, Kind::Logic, "p", 1));
        assert_eq!(a.len(), 8);
        assert_ne!(a, of_kind(&mutants, Kind::Logic, "p", 2));
        assert!(of_kind(&mutants, Kind::Constants, "p", 1).is_empty());
    }
}
