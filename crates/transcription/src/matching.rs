//! Which transcribed node stands for which source node.
//!
//! # How it works
//!
//! Candidates are the pairs whose labels match under the mode (strict:
//! equal normalised labels; relaxed: edit similarity ≥ 0.85). They are
//! committed one at a time, best first, a pair's worth being, in order:
//! its *support* — the source edges around it that the pairs already
//! committed reproduce in the transcription — then its label similarity,
//! then whether both are decisions or both are not, then how unambiguous
//! it is (fewest rival candidates on either side). So pairs whose labels
//! are unique anchor the matching, and nodes with the same label (two
//! `End`s, two `i = i + 1`, `'a' <= ch` and `'A' <= ch` once case is
//! folded) are told apart by the matched nodes around them. Committing a
//! pair raises its neighbours' support (a priority queue, stale entries
//! skipped), so the whole matching costs about the candidates times the
//! log of their number.

use std::collections::{BinaryHeap, HashMap, HashSet};

use super::chart::View;
use super::labels::{RELAXED, similarity};

/// How labels must agree for a pair to be a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Strict,
    Relaxed,
}

/// How a candidate ranks: support, similarity, same kind, unambiguity;
/// ties by source then transcribed index (reversed: the heap pops the
/// largest), so the result is deterministic.
type Rank = (usize, u64, bool, std::cmp::Reverse<usize>, std::cmp::Reverse<usize>, std::cmp::Reverse<usize>);

struct Candidate {
    source: usize,
    transcribed: usize,
    similarity: f64,
}

/// For each source node, the transcribed node matched with it.
pub fn match_nodes(source: &View, transcribed: &View, mode: Mode) -> Vec<Option<usize>> {
    let candidates = candidates(source, transcribed, mode);
    let arcs: HashSet<(usize, usize)> = transcribed.edges.iter().filter_map(|e| Some((e.from?, e.to?))).collect();
    let mut rivals_source = vec![0usize; source.len()];
    let mut rivals_transcribed = vec![0usize; transcribed.len()];
    let mut of_source: Vec<Vec<usize>> = vec![Vec::new(); source.len()];
    for (i, c) in candidates.iter().enumerate() {
        rivals_source[c.source] += 1;
        rivals_transcribed[c.transcribed] += 1;
        of_source[c.source].push(i);
    }
    let (succ, pred) = neighbours(source);
    let mut support: Vec<usize> = candidates
        .iter()
        .map(|c| {
            succ[c.source].iter().filter(|&&x| x == c.source).count()
                * usize::from(arcs.contains(&(c.transcribed, c.transcribed)))
        })
        .collect();
    let rank = |i: usize, support: usize| -> Rank {
        let c = &candidates[i];
        (
            support,
            c.similarity.to_bits(),
            source.decision[c.source] == transcribed.decision[c.transcribed],
            std::cmp::Reverse(rivals_source[c.source] * rivals_transcribed[c.transcribed]),
            std::cmp::Reverse(c.source),
            std::cmp::Reverse(c.transcribed),
        )
    };
    let mut queue: BinaryHeap<(Rank, usize)> = (0..candidates.len()).map(|i| (rank(i, support[i]), i)).collect();
    let mut assigned = vec![None; source.len()];
    let mut taken = vec![false; transcribed.len()];
    while let Some((r, i)) = queue.pop() {
        let c = &candidates[i];
        if r.0 != support[i] || assigned[c.source].is_some() || taken[c.transcribed] {
            continue;
        }
        assigned[c.source] = Some(c.transcribed);
        taken[c.transcribed] = true;
        // Neighbours of the new pair gain support where the transcription
        // joins their candidates to it the same way.
        let sides = [(&succ[c.source], true), (&pred[c.source], false)];
        for (neighbours, outgoing) in sides {
            for &x in neighbours {
                for &j in &of_source[x] {
                    let y = candidates[j].transcribed;
                    let arc = if outgoing { (c.transcribed, y) } else { (y, c.transcribed) };
                    if assigned[x].is_none() && !taken[y] && x != c.source && arcs.contains(&arc) {
                        support[j] += 1;
                        queue.push((rank(j, support[j]), j));
                    }
                }
            }
        }
    }
    let pairs: HashSet<(usize, usize)> = candidates.iter().map(|c| (c.source, c.transcribed)).collect();
    improve(&mut assigned, transcribed.len(), &candidates, &pairs, &arcs, (&succ, &pred));
    assigned
}

/// Passes of [`improve`]; each one only ever adds reproduced edges, and
/// one or two settle every chart of the bank.
const PASSES: usize = 8;

/// Greedy commits can take a node its twin should have had (`'a' <= ch`
/// before the decision that tells the twins apart is matched). Moves each
/// candidate pair into the matching when that, with its former holder
/// taking the displaced node if it can, reproduces more edges (or as many
/// edges and more nodes).
fn improve(
    assigned: &mut [Option<usize>],
    transcribed_len: usize,
    candidates: &[Candidate],
    pairs: &HashSet<(usize, usize)>,
    arcs: &HashSet<(usize, usize)>,
    (succ, pred): (&[Vec<usize>], &[Vec<usize>]),
) {
    let mut owner = vec![None; transcribed_len];
    for (s, t) in assigned.iter().enumerate() {
        if let Some(t) = t {
            owner[*t] = Some(s);
        }
    }
    let kept = |assigned: &[Option<usize>], nodes: &[usize]| -> (usize, usize) {
        let mut edges = 0;
        for &n in nodes {
            let out = succ[n].iter().filter(|&&x| assigned[n].zip(assigned[x]).is_some_and(|arc| arcs.contains(&arc)));
            // An edge between two of `nodes` is counted once, from its source.
            let inward = pred[n].iter().filter(|&&x| {
                !nodes.contains(&x) && assigned[x].zip(assigned[n]).is_some_and(|arc| arcs.contains(&arc))
            });
            edges += out.count() + inward.count();
        }
        (edges, nodes.iter().filter(|&&n| assigned[n].is_some()).count())
    };
    for _ in 0..PASSES {
        let mut changed = false;
        for c in candidates {
            let (s, t) = (c.source, c.transcribed);
            if assigned[s] == Some(t) {
                continue;
            }
            let holder = owner[t];
            let freed = assigned[s];
            let nodes: Vec<usize> = std::iter::once(s).chain(holder).collect();
            let before = kept(assigned, &nodes);
            let mut trial = assigned.to_vec();
            trial[s] = Some(t);
            if let Some(h) = holder {
                trial[h] = freed.filter(|&f| pairs.contains(&(h, f)));
            }
            if kept(&trial, &nodes) > before {
                if let Some(f) = freed {
                    owner[f] = None;
                }
                if let Some(h) = holder
                    && let Some(f) = trial[h]
                {
                    owner[f] = Some(h);
                }
                owner[t] = Some(s);
                assigned.copy_from_slice(&trial);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// Each source node's successors and predecessors (one entry per edge).
fn neighbours(view: &View) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let (mut succ, mut pred) = (vec![Vec::new(); view.len()], vec![Vec::new(); view.len()]);
    for e in &view.edges {
        if let (Some(f), Some(t)) = (e.from, e.to) {
            succ[f].push(t);
            pred[t].push(f);
        }
    }
    (succ, pred)
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
