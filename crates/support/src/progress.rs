//! Progress of long work. Library phases report it through [`Progress`];
//! the command line draws it (a bar on a terminal, nothing otherwise), so
//! no phase draws a bar of its own and every phase can run quietly.

/// Where a phase reports how far it is. Every method has a quiet default.
pub trait Progress: Send + Sync {
    /// `n` more units of work are expected.
    fn add_total(&self, _n: u64) {}
    /// One unit is done.
    fn advance(&self) {}
    /// What is being worked on now (a problem's name, say).
    fn working_on(&self, _what: &str) {}
    /// A line for the user, printed without breaking the bar.
    fn note(&self, line: &str) {
        eprintln!("{line}");
    }
    /// Runs `f`, a long step with nothing to count (a download, say),
    /// showing `what` meanwhile.
    fn busy(&self, what: &str, f: &mut dyn FnMut()) {
        self.note(what);
        f();
    }
}

/// Reports nothing but notes.
#[derive(Debug, Default, Clone, Copy)]
pub struct Silent;

impl Progress for Silent {}
