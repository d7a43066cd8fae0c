//! Legacy mode: run a problem's test *code* the way Code-Vision's vendored
//! human-eval does, inside the sandbox. Verdicts come from in-process
//! asserts, so a hostile candidate can forge them: results are labelled
//! [`LEGACY_NOTE`].
//!
//! Fidelity details that change verdicts or result strings (measured on the
//! recorded samples, see `docs/judge-disagreements.md`) are the sandbox's
//! `human_eval_compat` mode, which the judge turns on: the program is
//! `exec`'d from a string named `<string>` in an empty globals dict (so
//! `if __name__ == "__main__":` blocks do not run and error messages carry
//! human-eval's line numbers), `input()` raises `OSError`, and
//! `reliability_guard()`'s functions are disabled. The prelude's modules are
//! imported once by the sandbox's warm workers, so the per-sample
//! `from sympy import *` costs nothing against the time limit.

use std::time::Duration;

use flowbench_exec::{Job, Limits};

use super::problem::LegacyTest;

/// Label attached to every legacy verdict.
pub const LEGACY_NOTE: &str = "legacy: in-process asserts, not tamper-proof";

/// human-eval's per-sample timeout in Code-Vision.
pub const LEGACY_TIME_LIMIT: Duration = Duration::from_secs(3);

/// The import block Code-Vision's judge prepends to every program
/// (`package_import` in `human_eval/execution.py`), verbatim.
pub const CODEVISION_PRELUDE: &str = "from typing import List
from typing import List, Tuple
from typing import List, Optional
from typing import List, Any
import math
from collections import defaultdict
from functools import cache
from collections import deque
import collections
import heapq
from sortedcontainers import SortedList
from sortedcontainers import SortedDict
from itertools import accumulate
from collections import Counter
from math import floor
import bisect
import time
from datetime import datetime
from sympy import *
import hashlib";

/// The program human-eval executes: `prelude + "\n" + prompt + completion +
/// "\n" + test + "\n" + "check(entry_point)"` for HumanEval-style problems,
/// `prelude + "\n" + completion + "\n" + test` otherwise.
///
/// One departure: when the test code itself defines a function named like
/// the entry point (a problem whose function is `check`), human-eval would
/// hand the harness itself to `check`; the candidate's function is kept
/// under another name before the test code runs and handed over instead.
pub fn assemble_program(legacy: &LegacyTest, entry_point: &str, completion: &str) -> String {
    if legacy.check_entry_point {
        let prompt = legacy.prompt.as_deref().unwrap_or("");
        let test = &legacy.test;
        if test.contains(&format!("def {entry_point}(")) {
            return format!(
                "{CODEVISION_PRELUDE}\n{prompt}{completion}\n_flowbench_entry = globals().get({entry_point:?})\n{test}\ncheck(_flowbench_entry)"
            );
        }
        format!("{CODEVISION_PRELUDE}\n{prompt}{completion}\n{test}\ncheck({entry_point})")
    } else {
        format!("{CODEVISION_PRELUDE}\n{completion}\n{}", legacy.test)
    }
}

/// The sandbox job for one legacy sample.
pub fn legacy_job(legacy: &LegacyTest, entry_point: &str, completion: &str, limits: Limits) -> Job {
    Job::Script { source: assemble_program(legacy, entry_point, completion), limits }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn humaneval() -> LegacyTest {
        LegacyTest {
            test: "def check(c):\n    assert c(1) == 2".into(),
            prompt: Some("def f(x):\n".into()),
            check_entry_point: true,
        }
    }

    #[test]
    fn humaneval_assembly() {
        let p = assemble_program(&humaneval(), "f", "    return x + 1");
        assert!(p.starts_with(CODEVISION_PRELUDE));
        assert!(p.ends_with("\ndef f(x):\n    return x + 1\ndef check(c):\n    assert c(1) == 2\ncheck(f)"));
    }

    /// A function named `check` survives the harness's own `check`: the
    /// program (without the prelude, which needs sympy) passes a right
    /// answer and fails a wrong one under plain Python.
    #[test]
    fn an_entry_point_named_check_is_handed_to_the_harness() {
        let legacy = LegacyTest {
            test: "def check(candidate):\n    assert candidate(1) == 2".into(),
            prompt: Some("def check(x):\n".into()),
            check_entry_point: true,
        };
        let run = |completion: &str| {
            let program = assemble_program(&legacy, "check", completion);
            let program = program.strip_prefix(CODEVISION_PRELUDE).unwrap_or(&program).to_string();
            std::process::Command::new("python3").args(["-c", &program]).status().expect("python3 runs").success()
        };
        assert!(run("    return x + 1"));
        assert!(!run("    return x"));
    }

    #[test]
    fn leetcode_assembly_has_no_check_call() {
        let legacy =
            LegacyTest { test: "assert f(1) == 2".into(), prompt: Some("ignored".into()), check_entry_point: false };
        let p = assemble_program(&legacy, "f", "def f(x): return x + 1");
        assert_eq!(p, format!("{CODEVISION_PRELUDE}\ndef f(x): return x + 1\nassert f(1) == 2"));
    }
}
