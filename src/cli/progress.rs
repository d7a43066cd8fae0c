//! The one progress bar of the command line: a bar (or a spinner) on a
//! terminal, hidden when stderr is not one or with `--quiet`; it implements
//! the library's [`Progress`] so phases report into it.

use std::io::IsTerminal as _;
use std::time::Duration;

use crate::progress::Progress;

/// A bar of `len` units named `unit` ("samples", "problems"), or hidden.
pub fn bar(len: u64, unit: &str, quiet: bool) -> Bar {
    if quiet || !std::io::stderr().is_terminal() {
        return Bar(indicatif::ProgressBar::hidden());
    }
    let bar = indicatif::ProgressBar::new(len);
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit}, {{elapsed}} (eta {{eta}}) {{msg}}");
    if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    Bar(bar)
}

/// No bar: notes are printed and long steps get a spinner on a terminal.
pub fn lines() -> Bar {
    Bar(indicatif::ProgressBar::hidden())
}

/// A spinner with a message and the time so far, or hidden.
pub fn spinner(quiet: bool) -> Bar {
    if quiet || !std::io::stderr().is_terminal() {
        return Bar(indicatif::ProgressBar::hidden());
    }
    let bar = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(120));
    Bar(bar)
}

/// The command line's bar; cheap to clone (clones draw the same bar).
#[derive(Clone)]
pub struct Bar(indicatif::ProgressBar);

impl Bar {
    /// Runs `f` (which prints) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.0.suspend(f)
    }

    pub fn set_message(&self, message: impl Into<String>) {
        self.0.set_message(message.into());
    }

    /// Removes the bar from the terminal.
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

impl Progress for Bar {
    fn add_total(&self, n: u64) {
        self.0.inc_length(n);
    }

    fn advance(&self) {
        self.0.inc(1);
    }

    fn working_on(&self, what: &str) {
        self.0.set_message(what.to_string());
    }

    fn note(&self, line: &str) {
        self.0.suspend(|| eprintln!("{line}"));
    }

    fn busy(&self, what: &str, f: &mut dyn FnMut()) {
        self.0.suspend(|| {
            let spinner = spinner(false);
            spinner.set_message(what);
            if spinner.0.is_hidden() {
                eprintln!("{what}");
            }
            f();
            spinner.finish();
        });
    }
}
