//! The problem model every benchmark phase shares, below all of them: a
//! problem and its tests ([`problem`]), Python values as the judge decodes
//! them ([`value`]) and compares them ([`compare`]), the verdict on a sample
//! and its error taxonomy ([`verdict`]), the [`sandbox::Sandbox`] through
//! which code runs, and a problem directory's files read once ([`dir`]).
//!
//! Test generation, the bank, authoring, variants and the judge read and
//! write these types; none of them needs another phase to do so.

pub mod compare;
pub mod dir;
pub mod problem;
pub mod sandbox;
pub mod value;
pub mod verdict;
