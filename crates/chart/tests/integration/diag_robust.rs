//! Nothing in the diagnostics/fix/lint/fmt path panics, whatever the input:
//! arbitrary strings and corpus texts with random edits (the kind of broken
//! Mermaid the fixer and hints must cope with).

use crate::corpus;

use flowbench_chart::mermaid::{
    diagnostic::render,
    fix::fix,
    fmt::format,
    lint::{Checked, check},
    parse,
    pitfall::findings,
};
use proptest::prelude::*;

/// Source files of the parser: a panic there is the parser's bug (its own
/// fuzz target covers it); this test is about the diagnostics/fix/fmt code.
const PARSER_FILES: &[&str] = &[
    "lexer.rs",
    "parser.rs",
    "builder.rs",
    "preprocess.rs",
    "entities.rs",
    "yaml.rs",
    "shapes.rs",
    "unicode.rs",
    "mermaid/mod.rs",
];

thread_local! {
    /// Where the last panic on this thread happened (set by the hook).
    static PANIC_AT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    /// Whether this thread is inside `exercise_guarded`: the hook is the
    /// whole test binary's, and other tests' panics must still be reported.
    static GUARDED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Run `exercise`, failing on any panic outside the parser's files.
fn exercise_guarded(text: &str) {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !GUARDED.get() {
                return previous(info);
            }
            let at = info.location().map(|l| l.file().to_string()).unwrap_or_default();
            PANIC_AT.with(|p| *p.borrow_mut() = format!("{at}\u{0}{info}"));
        }));
    });
    let t = text.to_string();
    GUARDED.set(true);
    let outcome = std::panic::catch_unwind(move || exercise(&t));
    GUARDED.set(false);
    if let Err(e) = outcome {
        let at = PANIC_AT.with(|p| p.borrow().clone());
        let file = at.split('\u{0}').next().unwrap_or("");
        if !PARSER_FILES.iter().any(|p| file.ends_with(p)) {
            eprintln!("panic in diag code on input {text:?}: {at}");
            std::panic::resume_unwind(e);
        }
    }
}

fn exercise(text: &str) {
    let _ = findings(text);
    match check(text) {
        Checked::Ok { chart, .. } => {
            let f = format(&chart);
            assert!(parse(&f).is_ok(), "formatted text must parse:\n{f}\nfrom:\n{text}");
        }
        Checked::Err(_) => {}
    }
    if let Err(e) = parse(text) {
        let _ = render("x.mmd", text, &e);
    }
    let _ = fix(text);
}

/// The corpus texts, read once; `None` (after one skip message) when the
/// shared data is absent.
static CORPUS_TEXTS: std::sync::LazyLock<Option<Vec<String>>> = std::sync::LazyLock::new(|| {
    corpus::load().map(|c| c.into_iter().map(|c| c.text).filter(|t| t.len() < 3000).collect())
});

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(200);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_text_never_panics(body in "[ -~\\n\u{a7}\u{1F600}\u{2014}\u{3000}é]{0,120}") {
        exercise_guarded(&format!("flowchart TD\n{body}"));
        exercise_guarded(&body);
    }
}

/// Corpus texts with random edits. A plain test running proptest's runner,
/// so an absent corpus skips the test once instead of rejecting every case.
#[test]
fn mutated_corpus_texts_never_panic() {
    let Some(texts) = CORPUS_TEXTS.as_ref() else { return };
    assert!(!texts.is_empty(), "the conformance corpus has texts");
    let edit = (any::<prop::sample::Index>(), "[\\[\\](){}|\"%;:&@<>#\\-=. \\nx\u{1F600}]{0,3}", 0usize..3);
    let strategy = (any::<prop::sample::Index>(), proptest::collection::vec(edit, 1..4));
    let mut runner = proptest::test_runner::TestRunner::new(config());
    let result = runner.run(&strategy, |(pick, edits)| {
        let mut t = texts[pick.index(texts.len())].clone();
        for (at, ins, del) in edits {
            let mut p = at.index(t.len() + 1);
            while !t.is_char_boundary(p) {
                p -= 1;
            }
            let mut q = (p + del).min(t.len());
            while !t.is_char_boundary(q) {
                q += 1;
            }
            t.replace_range(p..q, &ins);
        }
        exercise_guarded(&t);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
