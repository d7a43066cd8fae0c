//! The invariance section of the reports ([`super::invariance`]) as
//! Markdown and HTML: per model the all / some / none counts, each style's
//! paired difference against the default rendering, and the
//! render-sensitive problems — in the HTML with the images of every
//! rendering side by side, as the build drew them, so a reader sees what
//! the model was shown when it failed.

use std::fmt::Write as _;

use htmlize::escape_text;

use super::invariance::{ModelInvariance, Section};
use super::report::{p_value, signed};

/// The Markdown heading of the section.
pub const HEADING: &str = "## Renderings: which problems survive every rendering";

const INTRO: &str = "Per model, its code runs under the default rendering (`flowchart`) and under other styles \
(`flowchart@STYLE`): only the picture changes, never the chart. *Solved* is the first sample's verdict. Each \
factor's Δ is style − default in percentage points, paired over the problems both runs have, with a 95 % \
bootstrap interval and the exact McNemar p-value. A problem is *render-sensitive* when it is solved under one \
rendering and failed under another.";

const INTRO_HTML: &str = "<p>Per model, its code runs under the default rendering (<code>flowchart</code>) and under \
other styles (<code>flowchart@STYLE</code>): only the picture changes, never the chart. <em>Solved</em> is the first \
sample's verdict. Each factor's Δ is style − default in percentage points, paired over the problems both runs have, \
with a 95 % bootstrap interval and the exact McNemar p-value. A problem is <em>render-sensitive</em> when it is solved \
under one rendering and failed under another; below, the images of every rendering the model was shown.</p>";

/// One render-sensitive problem's images, one per rendering of its model
/// (`None`: the build has no image in that style).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SensitiveImages {
    pub model: String,
    pub task_id: String,
    /// `data:` URLs in [`ModelInvariance::renderings`] order.
    pub images: Vec<Option<String>>,
}

fn tick(solved: bool) -> &'static str {
    if solved { "✓" } else { "✗" }
}

/// The Markdown section; empty without style runs.
pub fn markdown(section: &Section) -> String {
    if section.is_empty() {
        return String::new();
    }
    let mut md = format!("\n{HEADING}\n\n{INTRO}\n\n");
    for line in &section.omitted {
        let _ = writeln!(md, "*Omitted:* {line}\n");
    }
    if section.models.is_empty() {
        return md;
    }
    md.push_str("| model | renderings | problems | solved under all | some | none |\n|---|---|---:|---:|---:|---:|\n");
    for m in &section.models {
        let names: Vec<&str> = m.renderings.iter().map(|r| r.condition.as_str()).collect();
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} |",
            m.model,
            names.join(", "),
            m.problems,
            m.solved_under_all,
            m.solved_under_some,
            m.solved_under_none
        );
    }
    md.push_str(
        "\n| model | style | run | problems | Δ style − default pp [95 % CI] | McNemar p | only default | only style |\n\
         |---|---|---|---:|---|---:|---:|---:|\n",
    );
    for m in &section.models {
        for f in &m.factors {
            let d = &f.delta;
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} [{}, {}] | {} | {} | {} |",
                m.model,
                f.style,
                f.run,
                d.tasks,
                signed(d.delta),
                signed(d.ci_low),
                signed(d.ci_high),
                p_value(d.mcnemar_p),
                d.only_baseline,
                d.only_condition
            );
        }
    }
    for m in &section.models {
        sensitive_table(&mut md, m);
    }
    md
}

/// Per model, its render-sensitive problems with ✓/✗ per rendering.
fn sensitive_table(md: &mut String, m: &ModelInvariance) {
    if m.render_sensitive.is_empty() {
        let _ = writeln!(md, "\n{}: no render-sensitive problem.", m.model);
        return;
    }
    let _ = write!(md, "\n{}: render-sensitive problems ({}).\n\n| problem |", m.model, m.render_sensitive.len());
    for r in &m.renderings {
        let _ = write!(md, " {} |", r.condition);
    }
    md.push_str("\n|---|");
    md.push_str(&"---|".repeat(m.renderings.len()));
    md.push('\n');
    for p in m.per_problem.iter().filter(|p| m.render_sensitive.contains(&p.task_id)) {
        let _ = write!(md, "| {} |", p.task_id);
        for s in &p.solved {
            let _ = write!(md, " {} |", tick(*s));
        }
        md.push('\n');
    }
}

fn esc(s: &str) -> String {
    escape_text(s).into_owned()
}

/// Style rules the section adds to the page.
const STYLE: &str = ".renderings{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start;margin:.5em 0 1.5em}\
.renderings figure{margin:0}.renderings img{max-width:540px;max-height:420px;border:1px solid #ddd;background:#fff}\
.renderings figcaption{font-size:90%}.missing{color:#888;width:200px}";

/// The HTML section, with each render-sensitive problem's images (those
/// in `images`) side by side; empty without style runs.
pub fn html(section: &Section, images: &[SensitiveImages]) -> String {
    if section.is_empty() {
        return String::new();
    }
    let mut h =
        format!("<style>{STYLE}</style><h2 id=\"invariance\">{}</h2>", esc(HEADING.trim_start_matches('#').trim()));
    h.push_str(INTRO_HTML);
    for line in &section.omitted {
        let _ = write!(h, "<p><em>omitted:</em> {}</p>", esc(line));
    }
    for m in &section.models {
        model_html(&mut h, m, images);
    }
    h
}

fn model_html(h: &mut String, m: &ModelInvariance, images: &[SensitiveImages]) {
    let _ = write!(
        h,
        "<h3>{}</h3><p>{} problems under {} renderings: solved under all <b>{}</b>, some <b>{}</b>, none <b>{}</b>.</p>",
        esc(&m.model),
        m.problems,
        m.renderings.len(),
        m.solved_under_all,
        m.solved_under_some,
        m.solved_under_none
    );
    h.push_str(
        "<table><tr><th>style</th><th>run</th><th>problems</th><th>Δ style − default pp</th><th>95 % CI</th>\
         <th>McNemar p</th><th>only default</th><th>only style</th></tr>",
    );
    for f in &m.factors {
        let d = &f.delta;
        let class = if d.mcnemar_p < 0.05 { " class=\"fail\"" } else { "" };
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td{class}>{:+.1}</td><td>[{:+.1}, {:+.1}]</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&f.style),
            esc(&f.run),
            d.tasks,
            d.delta,
            d.ci_low,
            d.ci_high,
            p_value(d.mcnemar_p),
            d.only_baseline,
            d.only_condition
        );
    }
    h.push_str("</table>");
    if m.render_sensitive.is_empty() {
        h.push_str("<p>No render-sensitive problem.</p>");
        return;
    }
    let _ = write!(h, "<h4>Render-sensitive problems ({})</h4>", m.render_sensitive.len());
    for p in m.per_problem.iter().filter(|p| m.render_sensitive.contains(&p.task_id)) {
        let verdicts: Vec<String> =
            m.renderings.iter().zip(&p.solved).map(|(r, s)| format!("{} {}", esc(&r.condition), tick(*s))).collect();
        let _ = write!(h, "<p><b>{}</b> — {}</p>", esc(&p.task_id), verdicts.join(" · "));
        let Some(shown) = images.iter().find(|i| i.model == m.model && i.task_id == p.task_id) else { continue };
        h.push_str("<div class=\"renderings\">");
        for ((r, solved), image) in m.renderings.iter().zip(&p.solved).zip(&shown.images) {
            let verdict = if *solved {
                "<span class=\"pass\">✓ solved</span>"
            } else {
                "<span class=\"fail\">✗ failed</span>"
            };
            let caption = format!("{} {verdict}", esc(&r.condition));
            match image {
                Some(url) => {
                    let _ = write!(
                        h,
                        "<figure><img alt=\"{} as {}\" src=\"{}\"><figcaption>{caption}</figcaption></figure>",
                        esc(&p.task_id),
                        esc(&r.condition),
                        esc(url)
                    );
                }
                None => {
                    let _ = write!(
                        h,
                        "<figure><p class=\"missing\">no image in this style in the bench</p><figcaption>{caption}</figcaption></figure>"
                    );
                }
            }
        }
        h.push_str("</div>");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_style_runs_the_reports_say_nothing() {
        let empty = Section::default();
        assert_eq!((markdown(&empty), html(&empty, &[])), (String::new(), String::new()));
        let omitted = Section { models: Vec::new(), omitted: vec!["model m: no default run".into()] };
        let md = markdown(&omitted);
        assert!(md.contains(HEADING) && md.contains("*Omitted:* model m") && !md.contains("| model |"), "{md}");
        assert!(html(&omitted, &[]).contains("<em>omitted:</em> model m"));
    }
}
