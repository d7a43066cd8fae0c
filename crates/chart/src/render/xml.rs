//! Small, allocation-light helpers for writing SVG text deterministically:
//! fixed-precision numbers (so the bytes never depend on float printing
//! quirks) and XML escaping.

use std::fmt;

/// A coordinate printed with at most two decimals, trailing zeros trimmed,
/// and never `-0`. Two decimals is 1/100 px — far below what rasterising can
/// show — and keeps SVGs small.
#[derive(Clone, Copy)]
pub struct N(pub f32);

impl N {
    /// Appends the number to `out`, without the formatting machinery: the
    /// fast path for path data, which is most of a large SVG.
    pub fn push(self, out: &mut String) {
        let mut buf = [0u8; 24];
        out.push_str(self.digits(&mut buf));
    }

    /// Appends `cmd` and then `values` separated by commas (`C1,2,3,4,5,6`).
    pub fn push_cmd(out: &mut String, cmd: char, values: &[f32]) {
        out.push(cmd);
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            N(*v).push(out);
        }
    }

    /// The digits, written backwards into `buf` (at most 24 bytes: an
    /// `i64` of hundredths with sign and point).
    fn digits(self, buf: &mut [u8; 24]) -> &str {
        let v = self.0;
        if !v.is_finite() {
            return "0";
        }
        let scaled = (f64::from(v) * 100.0).round() as i64;
        if scaled == 0 {
            return "0";
        }
        let neg = scaled < 0;
        let mut abs = scaled.unsigned_abs();
        let mut i = buf.len();
        let frac = (abs % 100) as u8;
        abs /= 100;
        if frac != 0 {
            let (tens, ones) = (frac / 10, frac % 10);
            if ones != 0 {
                i -= 1;
                buf[i] = b'0' + ones;
            }
            i -= 1;
            buf[i] = b'0' + tens;
            i -= 1;
            buf[i] = b'.';
        }
        loop {
            i -= 1;
            buf[i] = b'0' + (abs % 10) as u8;
            abs /= 10;
            if abs == 0 {
                break;
            }
        }
        if neg {
            i -= 1;
            buf[i] = b'-';
        }
        std::str::from_utf8(&buf[i..]).unwrap_or("0")
    }
}

impl fmt::Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 24];
        f.write_str(self.digits(&mut buf))
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
        let t: Vec<String> = [0.05, -0.5, 123.07, 4096.9, -0.01, 99.999].iter().map(|v| N(*v).to_string()).collect();
        assert_eq!(t, ["0.05", "-0.5", "123.07", "4096.9", "-0.01", "100"]);
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(esc("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;");
        assert!(matches!(esc("plain"), std::borrow::Cow::Borrowed(_)));
    }
}
