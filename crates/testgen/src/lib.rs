//! Test generation: from a reference solution and its `problem.toml`, make
//! typical, edge and large inputs, keep those the reference (run in the
//! sandbox) answers the same way twice, and measure the suite's strength by
//! the mutants of the reference it kills.
//!
//! A crate beside the judge: it runs code through `flowbench-problem`'s
//! `Sandbox` (`flowbench-exec` behind it) and compares values as the judge
//! does (`flowbench_problem::compare`); the `flowbench` package's `bank`,
//! `variants` and `cli` call it, nothing below does. Signature reading,
//! generators and mutants are embedded Python helpers (`python`) that parse
//! the solution with `ast` and never run it. Its steps fail with typed
//! errors ([`Error`], [`SpecError`] for a fault in `problem.toml`,
//! `flowbench_problem::sandbox::SandboxFailure` when the machine failed).
//!
//! # How it works
//!
//! Makes and measures tests. Input: a `GenInput` (solution text, the `TestSpec` from `problem.toml`, original
//! tests); embedded Python helpers run with `python3`, resolved once to the interpreter itself so a version
//! manager's shim is not paid, in long-lived processes that answer a JSON request per line so start-up is not paid
//! per call either (`python.rs` runs the package `py/flowbench_testgen`, sent to the process and imported from
//! memory by `py/loader.py`: `signature.py` reads the signature with `ast`, `values.py`/`gen.py`/`main.py`
//! generate candidate inputs, `mutants.py` makes AST mutants, leaving out docstrings and any mutant whose bytecode
//! equals the reference's or an earlier mutant's, `serve.py` is the request loop and its schema; none of them runs
//! the solution; `py/sandbox` holds the Python that does run in the sandbox: the wrappers and the dispatcher).
//! The Python has tests of its own: `scripts/pytest.sh` (`python/tests`).
//! `reference` wraps the solution (plus its `valid()` check) and runs it on many inputs per `exec::Job::Calls`
//! through `flowbench_problem::sandbox::Sandbox`; `generate` validates candidates twice (large ones in rounds of growing size,
//! skipping those a smaller one's time, grown linearly (or as fast as two measured sizes show, past twice the
//! limit), puts past the limit), drops them by reason and checks the floors, returning the
//! `tests_file::GeneratedTest`s that `tests.jsonl` stores with a stamp; `kill` is the kill search: every mutant
//! runs its next step of tests (cheapest first, steps doubling in size, each limited by its own tests' reference
//! time, in CPU to the tick) in rounds, many mutants per sandbox job, each defined in fresh globals by a small
//! dispatcher, so a problem costs a handful of forks, and a job that a hanging mutant stops goes on at once without
//! it; `score` runs each mutant on one or more suites at once through it (a `score::Suite` is a list of tests, or
//! the alive mutants of one already run, which is how `tests gen --score` scores the suite it made (beside the
//! original tests with `--score-originals`, reusing each mutant's verdicts on the inputs the suites share,
//! `score::Known`) without running it again; compared with `flowbench_problem::compare`; a test the reference itself fails is
//! left out), sets aside likely-equivalent survivors by a separate random pool built only when some mutant survives
//! (smallest inputs first, up to a reference-time budget kept inside the sandboxed process,
//! `reference::run_within_budget`, so it is one round of jobs), and returns a `Score` per suite; `strengthen` adds,
//! for each mutant the generated suite leaves alive, the cheapest input of a second random pool (its own seed,
//! three times the size) that kills it, validated like the rest; `ship` picks, from what generation already knows
//! (each mutant's first killer, the edge kinds, the largest inputs, the floors), the tests `build` ships, the rest
//! staying in `tests.jsonl` for scoring; `differential` adds, for `tests score` only, higher-order mutants (a seeded
//! sample of pairs of first-order ones at disjoint sites) and alternative-algorithm mutants (`wrong_programs.py`,
//! operators imitating a whole wrong approach), scored by the same rule in the same run and reported as sets of their
//! own (`tests gen` never sees them). It calls `flowbench-exec` and `flowbench-problem`, and is called by `bank` (`bank::spec` reads `problem.toml`, `bank::import` writes
//! imported problem directories, `build` refuses stale `tests.jsonl`) and `cli`.

pub mod differential;
pub mod error;
pub mod generate;
pub mod generator_script;
pub mod kill;
pub mod python;
pub mod reference;
pub mod reviewed;
pub mod score;
pub mod ship;
pub mod spec;
pub mod stdin_format;
pub mod strengthen;
pub mod suite;
pub mod tests_file;

pub use error::Error;
pub use spec::SpecError;
