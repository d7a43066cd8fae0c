//! Tab-separated values as pandas writes and reads them (`to_csv(sep="\t")`,
//! `read_csv(sep="\t")`: VLMEvalKit's `dump` and `load`): a field holding a
//! tab, a line break or a quote is quoted, its quotes doubled.

/// One field, quoted when it must be.
pub fn field(value: &str) -> String {
    if value.contains(['\t', '\n', '\r', '"']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_string()
    }
}

/// One line (ending in `\n`) of the fields.
pub fn line<S: AsRef<str>>(fields: &[S]) -> String {
    let mut out = fields.iter().map(|f| field(f.as_ref())).collect::<Vec<_>>().join("\t");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_with_tabs_breaks_or_quotes_are_quoted() {
        assert_eq!(
            line(&["a", "b c", "x\ty", "l1\nl2", "say \"hi\""]),
            "a\tb c\t\"x\ty\"\t\"l1\nl2\"\t\"say \"\"hi\"\"\"\n"
        );
    }
}
