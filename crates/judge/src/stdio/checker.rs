//! The built-in output checkers: the candidate's standard output against
//! the expected one, in the judge.

/// How a run's output is compared with the expected output.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Checker {
    /// Whitespace-separated tokens equal (APPS's comparison).
    Tokens,
    /// Line by line, trailing whitespace of each line and trailing blank
    /// lines ignored.
    Lines,
    /// Byte for byte.
    Exact,
    /// Tokens equal, except that two numbers match within `tolerance`,
    /// absolute or relative (`|a − e| ≤ tol` or `|a − e| ≤ tol · |e|`).
    Float { tolerance: f64 },
    /// The problem's `checker_program` decides (see [`super::custom`]).
    Custom,
}

/// A problem's choice of checker that names none the judge has, or
/// contradicts its `checker_program`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckerChoiceError {
    #[error("unknown checker {0:?} (tokens, lines, exact, float or custom)")]
    Unknown(String),
    #[error("checker `custom` needs a `checker_program`")]
    CustomWithoutProgram,
    /// A built-in checker named beside a `checker_program` (its name).
    #[error("checker {0:?} and a `checker_program`: say one")]
    BuiltInAndProgram(String),
}

impl Checker {
    /// The checker a problem names; `has_program` says whether it carries
    /// a `checker_program` (which is what `custom` means, and nothing else).
    pub fn named(name: Option<&str>, has_program: bool, tolerance: f64) -> Result<Checker, CheckerChoiceError> {
        let checker = match name {
            None if has_program => Checker::Custom,
            None | Some("tokens") => Checker::Tokens,
            Some("lines") => Checker::Lines,
            Some("exact") => Checker::Exact,
            Some("float") => Checker::Float { tolerance },
            Some("custom") => Checker::Custom,
            Some(other) => return Err(CheckerChoiceError::Unknown(other.to_string())),
        };
        match (checker == Checker::Custom, has_program) {
            (true, false) => Err(CheckerChoiceError::CustomWithoutProgram),
            (false, true) => Err(CheckerChoiceError::BuiltInAndProgram(name.unwrap_or("tokens").to_string())),
            _ => Ok(checker),
        }
    }

    /// Whether `actual` passes for `expected`; `None` for [`Checker::Custom`],
    /// which only a program can say.
    pub fn accepts(&self, actual: &str, expected: &str) -> Option<bool> {
        Some(match self {
            Checker::Tokens => actual.split_whitespace().eq(expected.split_whitespace()),
            Checker::Lines => trimmed_lines(actual).eq(trimmed_lines(expected)),
            Checker::Exact => actual == expected,
            Checker::Float { tolerance } => {
                let (a, e): (Vec<&str>, Vec<&str>) =
                    (actual.split_whitespace().collect(), expected.split_whitespace().collect());
                a.len() == e.len() && a.iter().zip(&e).all(|(a, e)| tokens_match(a, e, *tolerance))
            }
            Checker::Custom => return None,
        })
    }
}

/// The lines of `text` without trailing whitespace, trailing blank lines
/// dropped.
fn trimmed_lines(text: &str) -> impl Iterator<Item = &str> {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let keep = lines.iter().rposition(|l| !l.is_empty()).map_or(0, |i| i + 1);
    lines.into_iter().take(keep)
}

/// Two tokens under the `float` checker: equal text, or two finite numbers
/// close enough. Infinities and NaN only match their own spelling.
fn tokens_match(actual: &str, expected: &str, tolerance: f64) -> bool {
    if actual == expected {
        return true;
    }
    match (actual.parse::<f64>(), expected.parse::<f64>()) {
        (Ok(a), Ok(e)) if a.is_finite() && e.is_finite() => {
            let diff = (a - e).abs();
            diff <= tolerance || diff <= tolerance * e.abs()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_ignore_all_whitespace_layout() {
        let c = Checker::Tokens;
        assert_eq!(c.accepts("1  2\n3 \n\n", "1 2 3\n"), Some(true));
        assert_eq!(c.accepts("1 2", "1 2 3"), Some(false));
        assert_eq!(c.accepts("", ""), Some(true));
        assert_eq!(c.accepts("1.0", "1"), Some(false));
    }

    #[test]
    fn lines_ignore_trailing_whitespace_only() {
        let c = Checker::Lines;
        assert_eq!(c.accepts("a b  \nc\r\n\n\n", "a b\nc\n"), Some(true));
        assert_eq!(c.accepts("a  b\n", "a b\n"), Some(false));
        assert_eq!(c.accepts("a\nb\n", "a b\n"), Some(false));
        assert_eq!(c.accepts(" a\n", "a\n"), Some(false));
    }

    #[test]
    fn exact_is_bytes() {
        assert_eq!(Checker::Exact.accepts("a\n", "a\n"), Some(true));
        assert_eq!(Checker::Exact.accepts("a", "a\n"), Some(false));
    }

    #[test]
    fn float_absolute_or_relative() {
        let c = Checker::Float { tolerance: 1e-6 };
        assert_eq!(c.accepts("0.3333333", "0.333333333"), Some(true));
        assert_eq!(c.accepts("3.3e-1 x", "0.33 x"), Some(true));
        assert_eq!(c.accepts("1000000.5", "1000000.0"), Some(true), "relative error 5e-7");
        assert_eq!(c.accepts("1.001", "1.0"), Some(false));
        assert_eq!(c.accepts("nan", "nan"), Some(true));
        assert_eq!(c.accepts("nan", "NaN"), Some(false));
        assert_eq!(c.accepts("inf", "1e308"), Some(false));
        assert_eq!(c.accepts("yes", "YES"), Some(false));
        assert_eq!(c.accepts("1 2", "1"), Some(false));
    }

    #[test]
    fn names() {
        assert_eq!(Checker::named(None, false, 0.0), Ok(Checker::Tokens));
        assert_eq!(Checker::named(None, true, 0.0), Ok(Checker::Custom));
        assert_eq!(Checker::named(Some("custom"), false, 0.0), Err(CheckerChoiceError::CustomWithoutProgram));
        assert_eq!(
            Checker::named(Some("exact"), true, 0.0),
            Err(CheckerChoiceError::BuiltInAndProgram("exact".into()))
        );
        assert_eq!(Checker::named(Some("Tokens"), false, 0.0), Err(CheckerChoiceError::Unknown("Tokens".into())));
        assert_eq!(Checker::Custom.accepts("", ""), None);
    }
}
