//! Interned vertex names: the builder's hot look-up table.
//!
//! Every vertex mention needs two facts about its id: which node it is (to
//! refine the node) and a small key for the per-pair edge counter behind
//! mermaid's `L_a_b_n` ids. One hash look-up per mention answers both; on
//! large charts the look-ups miss the cache, so their number is what made
//! parse time grow faster than the chart.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// rustc's Fx hash: lookups only (never iterated), so order cannot leak
/// into output, and no DoS concern for a local parser; SipHash was a tenth
/// of the parse time on large charts.
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
    }
    fn write_u8(&mut self, b: u8) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with [`Fx`] hashing.
pub(super) type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// No node carries this name (yet).
const NO_NODE: u32 = u32::MAX;

/// Name → dense id, and id → node index.
///
/// The names live back to back in one string and the hash table holds
/// only their ids, so a look-up touches a few compact arrays instead of a
/// separate heap block per name scattered among the chart's allocations:
/// with `HashMap<String, _>` each hit on a 10,000-node chart was a cache
/// miss on the key, and that alone made per-node cost grow with size.
#[derive(Default)]
pub(super) struct Names {
    table: hashbrown::HashTable<u32>,
    text: String,
    /// End offset in `text` of each name (its start is the previous end).
    ends: Vec<u32>,
    node: Vec<u32>,
}

fn fx(s: &str) -> u64 {
    let mut h = Fx::default();
    h.write(s.as_bytes());
    h.finish()
}

/// Name `i` of an arena (free function so the table can be borrowed
/// mutably while the arena is read).
fn name<'a>(text: &'a str, ends: &[u32], i: u32) -> &'a str {
    let i = i as usize;
    let start = if i == 0 { 0 } else { ends[i - 1] as usize };
    &text[start..ends[i] as usize]
}

impl Names {
    fn find(&self, s: &str) -> Option<u32> {
        self.table.find(fx(s), |&i| name(&self.text, &self.ends, i) == s).copied()
    }

    /// The dense id of `s`, assigning the next one on first sight.
    pub(super) fn intern(&mut self, s: &str) -> u32 {
        let h = fx(s);
        if let Some(&i) = self.table.find(h, |&i| name(&self.text, &self.ends, i) == s) {
            return i;
        }
        let i = self.ends.len() as u32;
        self.text.push_str(s);
        self.ends.push(self.text.len() as u32);
        self.node.push(NO_NODE);
        let (text, ends) = (&self.text, &self.ends);
        self.table.insert_unique(h, i, |&j| fx(name(text, ends, j)));
        i
    }

    /// The node named `s`, without interning it.
    pub(super) fn node(&self, s: &str) -> Option<usize> {
        self.find(s).and_then(|i| self.node_of(i))
    }

    /// The node carrying interned name `id`.
    pub(super) fn node_of(&self, id: u32) -> Option<usize> {
        match self.node.get(id as usize) {
            Some(&n) if n != NO_NODE => Some(n as usize),
            _ => None,
        }
    }

    /// Record that interned name `id` is node `n`.
    pub(super) fn set_node(&mut self, id: u32, n: usize) {
        if let Some(slot) = self.node.get_mut(id as usize) {
            *slot = n as u32;
        }
    }
}
