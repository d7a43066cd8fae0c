//! The escape hatch for inputs `[stdin] format` cannot state: a `gen.py`
//! beside a whole-program problem, run as `gen.py SEED CATEGORY` (the
//! category `typical`, `edge` or `large`), printing one standard input.
//! It is the author's code, so it runs in the sandbox like the reference,
//! many seeds per job; what it prints is a candidate like a generated one,
//! validated by the reference the same way.

use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use flowbench_problem::problem::Category;
use flowbench_problem::sandbox::Sandbox;

use super::Error;
use super::generate::{Candidate, Candidates, GenInput, Wanted, validate_limits};
use super::reference::{Run, WRAPPER, run_all};

/// Edge inputs asked of a generator.
const EDGE: usize = 10;

/// Random inputs of a pool per unit of scale: fewer than the format's
/// 300, as every one is a run of the author's program.
const POOL: usize = 100;

/// The generator of a problem directory, when it has one.
pub fn path(dir: &Path) -> Option<PathBuf> {
    Some(dir.join(flowbench_problem::dir::File::Generator.name())).filter(|p| p.is_file())
}

/// The candidates `wanted` from the generator at `script`: seeds
/// `seed * 1000 + i`, in order; a seed the generator fails on is an error
/// naming the file, the seed and why.
pub fn candidates(
    sandbox: &dyn Sandbox,
    input: &GenInput,
    script: &Path,
    wanted: Wanted,
    seed: u64,
) -> Result<Candidates, Error> {
    let source = std::fs::read_to_string(script)
        .map_err(|error| Error::ReadGenerator { script: script.to_path_buf(), error })?;
    let counts = &input.spec.counts;
    let plan: Vec<(Category, usize)> = match wanted {
        Wanted::Tests => {
            vec![(Category::Typical, counts.typical), (Category::Edge, EDGE), (Category::Large, counts.large)]
        }
        Wanted::Pool { scale } => vec![(Category::Typical, POOL * scale)],
        Wanted::Large => vec![(Category::Large, counts.large)],
    };
    let mut asked: Vec<(Category, u64)> = Vec::new();
    for (category, n) in plan {
        let base = asked.len() as u64;
        asked.extend((0..n as u64).map(|i| (category, seed.wrapping_mul(1000).wrapping_add(base + i))));
    }
    let inputs: Vec<Vec<Json>> =
        asked.iter().map(|(c, s)| vec![Json::from(*s), Json::from(category_name(*c))]).collect();
    let runs = run_all(sandbox, &wrap_generator(&source), &inputs, validate_limits(&input.spec))?;
    let mut list = Vec::new();
    for ((category, s), run) in asked.into_iter().zip(runs) {
        let failed = |why: String| Error::GeneratorFailed {
            script: script.to_path_buf(),
            seed: s,
            category: category_name(category),
            why,
        };
        match run {
            Run::Value(Json::String(stdin), _) => list.push(Candidate {
                category,
                args: vec![stdin.into()],
                how: format!("gen.py seed {s}"),
                expected: None,
                widened: None,
            }),
            Run::Raised(why) => return Err(failed(why)),
            Run::TimedOut => return Err(failed("timed out".into())),
            other => return Err(failed(format!("{other:?}"))),
        }
    }
    Ok(Candidates { has_valid: false, outside_spec: 0, domains: [("stdin".into(), "gen.py".into())].into(), list })
}

fn category_name(c: Category) -> &'static str {
    match c {
        Category::Typical => "typical",
        Category::Edge => "edge",
        Category::Large => "large",
    }
}

/// The generator as a function of (seed, category) returning what it
/// printed, run as `__main__` with `sys.argv = ["gen.py", SEED, CATEGORY]`.
fn wrap_generator(script: &str) -> String {
    let literal = serde_json::to_string(script).unwrap_or_default();
    GENERATOR_WRAPPER.replace("__FB_LITERAL__", &literal).replace("__FB_WRAPPER__", WRAPPER)
}

const GENERATOR_WRAPPER: &str = r#"__fb_generator__ = compile(__FB_LITERAL__, "gen.py", "exec")


def __FB_WRAPPER__(seed, category):
    import io, sys
    saved = (sys.argv, sys.stdout)
    sys.argv = ["gen.py", str(seed), category]
    out = io.StringIO()
    sys.stdout = out
    try:
        try:
            exec(__fb_generator__, {"__name__": "__main__"})
        except SystemExit as e:
            if e.code not in (None, 0, False):
                raise RuntimeError("gen.py exited with status %r" % (e.code,))
    finally:
        sys.argv, sys.stdout = saved
    return ["ok", out.getvalue()]
"#;
