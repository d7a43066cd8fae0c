//! A report section as data (a heading, paragraphs, tables), so the
//! Markdown and the HTML report say the same thing from one source: the
//! paired sections (signature, reasoning first, coders, memorisation) are
//! built once and rendered twice.

use std::fmt::Write as _;

use htmlize::escape_text;

/// A section: its heading and its blocks in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub title: String,
    pub blocks: Vec<Block>,
}

/// A paragraph (with Markdown's inline `code` and *emphasis*) or a table.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Text(String),
    Table(Table),
}

/// A table: its header, which columns hold figures (right-aligned), rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub header: Vec<&'static str>,
    pub numeric: Vec<bool>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table whose header cells ending in `:` hold figures (`"problems:"`).
    pub fn new(header: &[&'static str]) -> Table {
        Table {
            header: header.iter().map(|h| h.strip_suffix(':').unwrap_or(h)).collect(),
            numeric: header.iter().map(|h| h.ends_with(':')).collect(),
            rows: Vec::new(),
        }
    }
}

impl Section {
    pub fn markdown(&self) -> String {
        let mut md = format!("\n## {}\n\n", self.title);
        for (i, block) in self.blocks.iter().enumerate() {
            match block {
                Block::Text(text) => {
                    let _ = write!(md, "{text}\n\n");
                }
                Block::Table(t) => {
                    let _ = writeln!(md, "| {} |", t.header.join(" | "));
                    let align: Vec<&str> = t.numeric.iter().map(|&n| if n { "---:" } else { "---" }).collect();
                    let _ = writeln!(md, "|{}|", align.join("|"));
                    for row in &t.rows {
                        let _ = writeln!(md, "| {} |", row.join(" | "));
                    }
                    if i + 1 < self.blocks.len() {
                        md.push('\n');
                    }
                }
            }
        }
        md
    }

    pub fn html(&self) -> String {
        let mut h = format!("<h2>{}</h2>", inline_html(&self.title));
        for block in &self.blocks {
            match block {
                Block::Text(text) => {
                    let _ = write!(h, "<p>{}</p>", inline_html(text));
                }
                Block::Table(t) => {
                    h.push_str("<table><tr>");
                    for cell in &t.header {
                        let _ = write!(h, "<th>{}</th>", inline_html(cell));
                    }
                    h.push_str("</tr>");
                    for row in &t.rows {
                        h.push_str("<tr>");
                        for (cell, &numeric) in row.iter().zip(&t.numeric) {
                            // The page right-aligns cells (figures); words read left.
                            let class = if numeric { "" } else { " class=\"txt\"" };
                            let _ = write!(h, "<td{class}>{}</td>", inline_html(cell));
                        }
                        h.push_str("</tr>");
                    }
                    h.push_str("</table>");
                }
            }
        }
        h
    }
}

/// Markdown's inline `code` and *emphasis* as HTML, the rest escaped.
fn inline_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut code, mut em) = (false, false);
    for piece in text.split_inclusive(['`', '*']) {
        let (body, mark) = match piece.chars().last() {
            Some(c @ ('`' | '*')) => (&piece[..piece.len() - 1], Some(c)),
            _ => (piece, None),
        };
        out.push_str(&escape_text(body));
        match mark {
            Some('`') => {
                out.push_str(if code { "</code>" } else { "<code>" });
                code = !code;
            }
            // Inside code a `*` is the text's own.
            Some('*') if code => out.push('*'),
            Some(_) => {
                out.push_str(if em { "</em>" } else { "<em>" });
                em = !em;
            }
            None => {}
        }
    }
    if code {
        out.push_str("</code>");
    }
    if em {
        out.push_str("</em>");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section() -> Section {
        let mut t = Table::new(&["model", "problems:"]);
        t.rows.push(vec!["m<1>".into(), "4".into()]);
        Section {
            title: "Reasoning first".into(),
            blocks: vec![Block::Text("A `+cot` run, *paired*.".into()), Block::Table(t), Block::Text("After.".into())],
        }
    }

    #[test]
    fn markdown_has_the_heading_text_and_aligned_table() {
        assert_eq!(
            section().markdown(),
            "\n## Reasoning first\n\nA `+cot` run, *paired*.\n\n| model | problems |\n|---|---:|\n| m<1> | 4 |\n\nAfter.\n\n"
        );
    }

    #[test]
    fn html_says_the_same_escaped() {
        assert_eq!(
            section().html(),
            "<h2>Reasoning first</h2><p>A <code>+cot</code> run, <em>paired</em>.</p>\
             <table><tr><th>model</th><th>problems</th></tr><tr><td class=\"txt\">m&lt;1&gt;</td><td>4</td></tr></table>\
             <p>After.</p>"
        );
        assert_eq!(inline_html("`a*b` and *c*"), "<code>a*b</code> and <em>c</em>");
    }
}
