//! Which transcribed node stands for which source node.
//!
//! # How it works
//!
//! Candidates are the pairs whose labels match under the mode (strict:
//! equal normalised labels; relaxed: edit similarity ≥ 0.85). A greedy
//! assignment takes them best first, a pair's worth being its *support* —
//! the source edges around it that the current assignment already
//! reproduces in the transcription — then its label similarity, then
//! whether both are decisions or both are not. The first round has no
//! assignment to lean on, so labels decide; each later round re-ranks with
//! the support the previous round gives, which tells apart nodes with the
//! same label (two `End`s, two `i = i + 1`) by where they sit. It stops when
//! a round changes nothing, or after [`ROUNDS`].

use std::collections::{HashMap, HashSet};

use super::chart::View;
use super::labels::{RELAXED, similarity};

/// How labels must agree for a pair to be a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Strict,
    Relaxed,
}

/// Re-ranking rounds after the first; enough for support to settle on the
/// bank's charts (duplicates are rare and local).
const ROUNDS: usize = 4;

/// A decision matched with a decision (or a step with a step) is worth
/// this much more: less than any label-similarity gap that matters, less
/// than one edge of support.
const SAME_KIND: f64 = 0.1;

struct Candidate {
    source: usize,
    transcribed: usize,
    similarity: f64,
}

/// For each source node, the transcribed node matched with it.
pub fn match_nodes(source: &View, transcribed: &View, mode: Mode) -> Vec<Option<usize>> {
    let candidates = candidates(source, transcribed, mode);
    let arcs: HashSet<(usize, usize)> =
        transcribed.edges.iter().filter_map(|e| Some((e.from?, e.to?))).collect();
    let mut assigned = assign(source, transcribed, &candidates, |_| 0);
    for _ in 0..ROUNDS {
        let next = assign(source, transcribed, &candidates, |c| support(source, &arcs, &assigned, c));
        if next == assigned {
            break;
        }
        assigned = next;
    }
    assigned
}

fn candidates(source: &View, transcribed: &View, mode: Mode) -> Vec<Candidate> {
    let mut out = Vec::new();
    match mode {
        Mode::Strict => {
            let mut by_label: HashMap<&str, Vec<usize>> = HashMap::new();
            for (t, label) in transcribed.labels.iter().enumerate() {
                by_label.entry(label.as_str()).or_default().push(t);
            }
            for (s, label) in source.labels.iter().enumerate() {
                for &t in by_label.get(label.as_str()).into_iter().flatten() {
                    out.push(Candidate { source: s, transcribed: t, similarity: 1.0 });
                }
            }
        }
        Mode::Relaxed => {
            for (s, a) in source.labels.iter().enumerate() {
                for (t, b) in transcribed.labels.iter().enumerate() {
                    let similarity = similarity(a, b);
                    if similarity >= RELAXED {
                        out.push(Candidate { source: s, transcribed: t, similarity });
                    }
                }
            }
        }
    }
    out
}

/// Source edges at the candidate's source node whose other end is matched
/// to a node joined to the candidate's transcribed node the same way.
fn support(source: &View, arcs: &HashSet<(usize, usize)>, assigned: &[Option<usize>], c: &Candidate) -> usize {
    source
        .edges
        .iter()
        .filter(|e| {
            let (Some(f), Some(t)) = (e.from, e.to) else { return false };
            if f == c.source {
                let other = if t == c.source { Some(c.transcribed) } else { assigned[t] };
                other.is_some_and(|o| arcs.contains(&(c.transcribed, o)))
            } else if t == c.source {
                assigned[f].is_some_and(|o| arcs.contains(&(o, c.transcribed)))
            } else {
                false
            }
        })
        .count()
}

/// Greedy one-to-one assignment, best candidates first (ties by position,
/// so the result is deterministic).
fn assign(
    source: &View,
    transcribed: &View,
    candidates: &[Candidate],
    support: impl Fn(&Candidate) -> usize,
) -> Vec<Option<usize>> {
    let worth = |c: &Candidate| {
        let kind = if source.decision[c.source] == transcribed.decision[c.transcribed] { SAME_KIND } else { 0.0 };
        support(c) as f64 + c.similarity + kind
    };
    let mut ranked: Vec<(f64, usize, usize)> = candidates.iter().map(|c| (worth(c), c.source, c.transcribed)).collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut assigned = vec![None; source.len()];
    let mut taken = vec![false; transcribed.len()];
    for (_, s, t) in ranked {
        if assigned[s].is_none() && !taken[t] {
            assigned[s] = Some(t);
            taken[t] = true;
        }
    }
    assigned
}
