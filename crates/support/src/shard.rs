//! `--shard I/N`: the one rule by which `judge`, `tests gen` and `build`
//! split their work across machines. Item `i` of a list every shard sees in
//! the same order belongs to shard `i mod N` (0-based), so shards are
//! balanced, disjoint, together cover the list, and which shard owns an item
//! depends only on the list, never on the machine or on scheduling.

use std::fmt;
use std::str::FromStr;

/// A deterministic slice `index` of `count` (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Whether the item at position `i` is in this shard.
    pub fn contains(&self, i: usize) -> bool {
        i % self.count == self.index
    }

    /// The items this shard owns, in their given order. Positions are
    /// counted in `key` order, not the given one, so a list a shell expands
    /// in its locale's collation splits the same way on every machine.
    pub fn owned<'a, T, K: Ord>(&self, items: &'a [T], key: impl Fn(&T) -> K) -> Vec<&'a T> {
        let mut by_key: Vec<usize> = (0..items.len()).collect();
        by_key.sort_by_key(|&i| key(&items[i]));
        let mut mine: Vec<usize> =
            by_key.into_iter().enumerate().filter(|(p, _)| self.contains(*p)).map(|(_, i)| i).collect();
        mine.sort_unstable();
        mine.into_iter().map(|i| &items[i]).collect()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A `--shard` value that is not `I/N` with `0 <= I < N`, as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("shard {0:?}: expected I/N, e.g. 0/4")]
    NoSlash(String),
    #[error("shard {0:?}: I is not a number")]
    IndexNotANumber(String),
    #[error("shard {0:?}: N is not a number")]
    CountNotANumber(String),
    #[error("shard {0:?}: need 0 <= I < N")]
    OutOfRange(String),
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let written = || s.to_string();
        let (i, n) = s.split_once('/').ok_or_else(|| ShardError::NoSlash(written()))?;
        let index: usize = i.trim().parse().map_err(|_| ShardError::IndexNotANumber(written()))?;
        let count: usize = n.trim().parse().map_err(|_| ShardError::CountNotANumber(written()))?;
        if count == 0 || index >= count {
            return Err(ShardError::OutOfRange(written()));
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition() {
        let shards: Vec<Shard> = (0..3).map(|i| format!("{i}/3").parse().expect("shard")).collect();
        for i in 0..10 {
            assert_eq!(shards.iter().filter(|s| s.contains(i)).count(), 1);
        }
        assert_eq!("3/3".parse::<Shard>(), Err(ShardError::OutOfRange("3/3".into())));
        assert_eq!("1".parse::<Shard>(), Err(ShardError::NoSlash("1".into())));
        assert_eq!("0/0".parse::<Shard>(), Err(ShardError::OutOfRange("0/0".into())));
        assert_eq!("x/2".parse::<Shard>().unwrap_err().to_string(), r#"shard "x/2": I is not a number"#);
        assert_eq!(shards[2].to_string(), "2/3");
    }

    #[test]
    fn ownership_follows_the_key_order_not_the_given_one() {
        let given = ["d", "a", "c", "b", "e"];
        let first: Shard = "0/2".parse().unwrap();
        let second: Shard = "1/2".parse().unwrap();
        // In key order a b c d e: shard 0 owns a, c, e; shard 1 owns b, d,
        // each returned in the given order.
        assert_eq!(first.owned(&given, |s| *s), vec![&"a", &"c", &"e"]);
        assert_eq!(second.owned(&given, |s| *s), vec![&"d", &"b"]);
        let mut reversed = given;
        reversed.reverse();
        assert_eq!(first.owned(&reversed, |s| *s), vec![&"e", &"c", &"a"]);
    }
}
