//! Small, allocation-light helpers for writing SVG text deterministically:
//! fixed-precision numbers (so the bytes never depend on float printing
//! quirks) and XML escaping.

use std::fmt;

/// A coordinate printed with at most two decimals, trailing zeros trimmed,
/// and never `-0`. Two decimals is 1/100 px — far below what rasterising can
/// show — and keeps SVGs small.
#[derive(Clone, Copy)]
pub struct N(pub f32);

impl fmt::Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if !v.is_finite() {
            return f.write_str("0");
        }
        let scaled = (f64::from(v) * 100.0).round() as i64;
        if scaled == 0 {
            return f.write_str("0");
        }
        let (sign, abs) = if scaled < 0 { ("-", -scaled) } else { ("", scaled) };
        let int = abs / 100;
        let frac = abs % 100;
        if frac == 0 {
            write!(f, "{sign}{int}")
        } else if frac % 10 == 0 {
            write!(f, "{sign}{int}.{}", frac / 10)
        } else {
            write!(f, "{sign}{int}.{frac:02}")
        }
    }
}

/// Escape text for use in element content or a double-quoted attribute.
pub fn esc(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains(['&', '<', '>', '"']) && !s.chars().any(is_bad_char) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if is_bad_char(c) => {}
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Control characters are not allowed in XML 1.0 at all; dropping them keeps
/// the SVG parseable whatever the label contained.
fn is_bad_char(c: char) -> bool {
    (c as u32) < 0x20 && c != '\t' && c != '\n' && c != '\r'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_compact_and_stable() {
        let s: Vec<String> = [0.0, -0.001, 1.5, 2.25, -3.0, 10.004, 7.1].iter().map(|v| N(*v).to_string()).collect();
        assert_eq!(s, ["0", "0", "1.5", "2.25", "-3", "10", "7.1"]);
        assert_eq!(N(f32::NAN).to_string(), "0");
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(esc("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;");
        assert!(matches!(esc("plain"), std::borrow::Cow::Borrowed(_)));
    }
}
