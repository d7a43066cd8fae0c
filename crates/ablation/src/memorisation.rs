//! The memorisation gap: per run, pass@1 on original problems minus pass@1
//! on their variants (`flowbench variants`), paired over the originals.
//!
//! A model that reads the chart does as well on a variant as on its
//! original; one that writes the famous answer passes the original and
//! fails the variant. The gap is paired problem by problem (each original
//! against the mean of its variants in the same run) through
//! [`super::compare::delta`], so it carries the same bootstrap interval and
//! exact McNemar p-value as every other comparison of the report.
//!
//! A gap alone cannot say *why* a variant failed. So every failed variant
//! sample is judged a second time, on its original's tests ([`famous`]):
//! one that passes there wrote the famous answer instead of the chart it
//! was shown, and is counted per run and per kind of variant.

use std::collections::BTreeMap;

use serde::Serialize;

use super::compare::{Delta, Run, TaskScore, delta};

/// One run's gap.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MemorisationGap {
    pub run: String,
    /// Originals with at least one variant in the run.
    pub originals: usize,
    pub variants: usize,
    /// pass@1 on originals − pass@1 on their variants, percentage points;
    /// `only_condition`: originals solved whose variants all failed (first
    /// samples), `only_baseline`: the reverse.
    pub gap: Delta,
    /// The failed variant samples judged on their originals' tests (absent
    /// when verdicts were only read, `--recorded`: nothing was run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub famous: Option<FamousAnswers>,
}

/// Failed variant samples, and those among them that pass their original's
/// tests: the model answered the famous problem, not the chart it was shown.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FamousAnswers {
    /// Variant samples that failed their own tests.
    pub failed: usize,
    /// Of those, the ones that pass the original's tests.
    pub answered_original: usize,
    /// Per kind of variant (`rename`, `constants`, `logic`): (failed,
    /// answered the original).
    pub by_kind: BTreeMap<String, (usize, usize)>,
}

/// A failed variant sample after its second judgement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crossed {
    /// The variant's kind (`dist` records' `variant_kind`).
    pub kind: String,
    /// Whether the sample passes its original's tests.
    pub passes_original: bool,
}

/// Tallies the failed variant samples of one run.
pub fn famous(crossed: &[Crossed]) -> FamousAnswers {
    let mut out = FamousAnswers::default();
    for c in crossed {
        let entry = out.by_kind.entry(c.kind.clone()).or_default();
        out.failed += 1;
        entry.0 += 1;
        if c.passes_original {
            out.answered_original += 1;
            entry.1 += 1;
        }
    }
    out
}

/// Each variant's scores pooled per original: samples and passes added,
/// the first sample passed only if every variant's first sample passed.
fn pooled<'a>(run: &'a Run, variant_of: &BTreeMap<String, String>) -> BTreeMap<&'a str, (TaskScore, usize)> {
    let mut out: BTreeMap<&str, (TaskScore, usize)> = BTreeMap::new();
    for (id, score) in &run.scores {
        let Some(original) = variant_of.get(id) else { continue };
        let Some((key, _)) = run.scores.get_key_value(original) else { continue };
        let entry = out
            .entry(key.as_str())
            .or_insert_with(|| (TaskScore { n: 0, c: 0, first_passed: true, ..score.clone() }, 0));
        entry.0.n += score.n;
        entry.0.c += score.c;
        entry.0.first_passed &= score.first_passed;
        entry.1 += 1;
    }
    out
}

/// The gap of every run that has originals and variants of them.
/// `variant_of` maps a variant's task id to its original's.
pub fn gaps(runs: &[Run], variant_of: &BTreeMap<String, String>) -> Vec<MemorisationGap> {
    runs.iter()
        .filter_map(|run| {
            let pooled = pooled(run, variant_of);
            let pairs: Vec<(&TaskScore, &TaskScore)> =
                pooled.iter().filter_map(|(id, (v, _))| run.scores.get(*id).map(|o| (v, o))).collect();
            let gap = delta(&pairs)?;
            Some(MemorisationGap {
                run: run.name.clone(),
                originals: pairs.len(),
                variants: pooled.values().map(|(_, k)| k).sum(),
                gap,
                famous: None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(passed: bool) -> TaskScore {
        TaskScore {
            subset: "A".into(),
            difficulty: None,
            n: 1,
            c: usize::from(passed),
            first_passed: passed,
            first_error: None,
        }
    }

    #[test]
    fn originals_against_their_pooled_variants() {
        // Right on every original, right on no variant: the famous answer.
        let run = Run {
            name: "m".into(),
            scores: [
                ("a", score(true)),
                ("a~logic1", score(false)),
                ("a~rename1", score(false)),
                ("b", score(true)),
                ("b~constants1", score(true)),
                ("c", score(true)),
            ]
            .iter()
            .map(|(id, s)| (id.to_string(), s.clone()))
            .collect(),
        };
        let variant_of: BTreeMap<String, String> = [("a~logic1", "a"), ("a~rename1", "a"), ("b~constants1", "b")]
            .iter()
            .map(|(v, o)| (v.to_string(), o.to_string()))
            .collect();
        let gaps = gaps(&[run], &variant_of);
        assert_eq!(gaps.len(), 1);
        let g = &gaps[0];
        // c has no variant: not paired.
        assert_eq!((g.originals, g.variants), (2, 3));
        assert_eq!((g.gap.delta, g.gap.only_condition, g.gap.only_baseline), (50.0, 1, 0));
    }

    #[test]
    fn failed_variant_samples_are_tallied_by_kind() {
        let crossed = |kind: &str, passes_original| Crossed { kind: kind.into(), passes_original };
        let f = famous(&[
            crossed("logic", true),
            crossed("logic", false),
            crossed("constants", true),
            crossed("rename", true),
            crossed("logic", true),
        ]);
        assert_eq!((f.failed, f.answered_original), (5, 4));
        assert_eq!(f.by_kind["logic"], (3, 2));
        assert_eq!(f.by_kind["constants"], (1, 1));
        assert_eq!(f.by_kind["rename"], (1, 1));
        assert_eq!(famous(&[]), FamousAnswers::default());
    }
}
