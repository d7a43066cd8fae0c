//! `dist/index.html`: one self-contained page (inline CSS and script, no
//! network) to look through a built bank — each problem's image, canonical
//! Mermaid, description, tests per category, lint status and mutation score,
//! filtered by subset, difficulty and text (also from the URL:
//! `index.html#subset=math&difficulty=hard&style=dark`, a style by id or
//! name). Images are linked relative to `dist/` and load lazily, so a
//! 500-problem bank stays quick to open.

use std::fmt::Write as _;

use flowbench_chart::render::damage::RasterFormat;
use flowbench_chart::render::xml::esc;

use super::build::{Built, ProblemReport};
use super::meta::subset_order;
use super::styles::BuildStyle;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0;background:#f6f6f8;color:#222}
header{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;padding:8px 16px;display:flex;gap:12px;align-items:center;flex-wrap:wrap;z-index:1}
header h1{font-size:18px;margin:0 12px 0 0}
main{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:12px;padding:12px}
.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px;min-width:0}
.card.failed{border-color:#c33}
.card h2{font-size:15px;margin:0 0 4px}
.tags span{display:inline-block;font-size:12px;border-radius:3px;padding:1px 6px;margin-right:4px;background:#eef}
.tags .easy{background:#dfd}.tags .medium{background:#ffd}.tags .hard{background:#fdd}
.img{height:320px;display:flex;align-items:center;justify-content:center;background:#fafafa;margin:6px 0;overflow:hidden}
.img img{max-width:100%;max-height:320px}
table{font-size:12px;border-collapse:collapse}td,th{padding:1px 6px;text-align:right}th{text-align:left}
pre{font-size:11px;max-height:260px;overflow:auto;background:#f4f4f4;padding:6px;white-space:pre-wrap}
.lint-ok{color:#080}.lint-warn{color:#a60}.lint-fail{color:#c33}
summary{cursor:pointer;font-size:13px}";

const SCRIPT: &str = "function apply(){var s=document.getElementById('subset').value,d=document.getElementById('difficulty').value,q=document.getElementById('q').value.toLowerCase(),n=0;
document.querySelectorAll('.card').forEach(function(c){var ok=(!s||c.dataset.subset===s)&&(!d||c.dataset.difficulty===d)&&(!q||c.dataset.text.indexOf(q)>=0);c.style.display=ok?'':'none';if(ok)n++;});
document.getElementById('count').textContent=n+' shown';}
function style(id){document.querySelectorAll('img[data-task]').forEach(function(i){i.src='images/'+id+'/'+i.dataset.task+'.'+(EXT[id]||'png');});}
document.querySelectorAll('header select,header input').forEach(function(e){e.addEventListener('input',apply);});
document.getElementById('style').addEventListener('input',function(e){style(e.target.value);});
location.hash.slice(1).split('&').forEach(function(kv){var i=kv.indexOf('='),k=kv.slice(0,i),
v=decodeURIComponent(kv.slice(i+1)),e=document.getElementById(k);if(!e||i<0)return;
if(k!=='style'){e.value=v;return;}
var o=[].filter.call(e.options,function(o){return o.value===v||o.text===v;})[0];
if(o){e.value=o.value;style(o.value);}});
apply();";

/// A filter `<select>` over `values`, each a `(value, text shown)` pair.
fn options(id: &str, label: &str, values: &[(String, String)]) -> String {
    let mut s = format!("<label>{label} <select id=\"{id}\">");
    if id != "style" {
        s.push_str("<option value=\"\">all</option>");
    }
    for (v, text) in values {
        if v == text {
            let _ = write!(s, "<option>{}</option>", esc(v));
        } else {
            let _ = write!(s, "<option value=\"{}\">{}</option>", esc(v), esc(text));
        }
    }
    s.push_str("</select></label>");
    s
}

/// The gallery page for `built` (in bank order).
pub fn gallery(built: &[Built], styles: &[BuildStyle]) -> String {
    let mut subsets: Vec<String> = built.iter().filter_map(|b| b.record.as_ref().map(|r| r.subset.clone())).collect();
    subsets.sort_by(|a, b| subset_order(a).cmp(&subset_order(b)));
    subsets.dedup();
    let same = |v: &String| (v.clone(), v.clone());
    let subsets: Vec<(String, String)> = subsets.iter().map(same).collect();
    let difficulties: Vec<(String, String)> = ["easy", "medium", "hard"].map(|d| same(&d.to_string())).to_vec();
    // Styles by id (their image directory), shown by name.
    let style_options: Vec<(String, String)> =
        styles.iter().map(|s| (s.id.clone(), if s.name.is_empty() { s.id.clone() } else { s.name.clone() })).collect();
    let ok = built.iter().filter(|b| b.record.is_some()).count();
    let mut html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>flowbench gallery</title><style>{STYLE}</style></head><body>\n<header><h1>flowbench: {ok} of {} problems</h1>{}{}{}<label>search <input id=\"q\" type=\"search\"></label><span id=\"count\"></span></header>\n<main>\n",
        built.len(),
        options("subset", "subset", &subsets),
        options("difficulty", "difficulty", &difficulties),
        options("style", "style", &style_options),
    );
    // Each style's picture extension (`jpg` for a scan), for the switcher.
    let ext = |s: &BuildStyle| s.format().unwrap_or(RasterFormat::Png).extension();
    let exts: std::collections::BTreeMap<&str, &str> = styles.iter().map(|s| (s.id.as_str(), ext(s))).collect();
    let first = styles.first().map_or(("default", "png"), |s| (s.id.as_str(), ext(s)));
    for b in built {
        card(&mut html, b, first);
    }
    let exts = serde_json::to_string(&exts).unwrap_or_else(|_| "{}".into());
    let _ = write!(html, "</main>\n<script>var EXT={exts};\n{SCRIPT}</script>\n</body></html>\n");
    html
}

/// Both sizes of a generated suite: the tests shipped in the record and
/// all that `tests.jsonl` keeps for scoring.
fn suite_row(r: &ProblemReport) -> String {
    let Some(generated) = r.generated_tests else { return String::new() };
    let shipped = r.tests.total();
    format!("<tr><th>suite</th><td colspan=\"2\">{shipped} shipped</td><td>of {generated} generated</td></tr>")
}

/// `b`'s card, its picture that of `style` (id, picture extension).
fn card(html: &mut String, b: &Built, (style, ext): (&str, &str)) {
    let r = &b.report;
    let Some(rec) = &b.record else {
        let _ = writeln!(
            html,
            "<div class=\"card failed\" data-subset=\"\" data-difficulty=\"\" data-text=\"{}\"><h2>{}</h2><p class=\"lint-fail\">failed to build</p><pre>{}</pre></div>",
            esc(&r.name.to_lowercase()),
            esc(&r.name),
            esc(&r.diagnostics.join("\n"))
        );
        return;
    };
    let lint = match r.warnings {
        0 => "<span class=\"lint-ok\">lint clean</span>".to_string(),
        n => format!("<span class=\"lint-warn\">{n} lint warning{}</span>", if n == 1 { "" } else { "s" }),
    };
    let mutation = match (r.mutation_score, r.mutation_score_at_least) {
        (Some(m), _) => format!("{:.0} %", m * 100.0),
        (None, Some(m)) => format!("≥ {:.0} %", m * 100.0),
        (None, None) => "—".to_string(),
    };
    let text = format!("{} {} {}", rec.task_id, rec.title, rec.entry_point).to_lowercase();
    let _ = writeln!(
        html,
        "<div class=\"card\" data-subset=\"{s}\" data-difficulty=\"{d}\" data-text=\"{text}\"><h2>{title}</h2>\
<div class=\"tags\"><span>{task}</span><span>{s}</span><span class=\"{d}\">{d}</span></div>\
<div class=\"img\"><img loading=\"lazy\" data-task=\"{task}\" src=\"images/{style}/{task}.{ext}\" alt=\"flowchart of {task}\"></div>\
<table><tr><th>tests</th><td>typical {ty}</td><td>edge {ed}</td><td>large {la}</td></tr>\
{suite}<tr><th>chart</th><td>{n} nodes</td><td>{e} edges</td><td>{dec} decision{plural}</td></tr>\
<tr><th>status</th><td colspan=\"2\">{lint}</td><td>mutation {mutation}</td></tr></table>\
<details><summary>description</summary><pre>{desc}</pre></details>\
<details><summary>Mermaid</summary><pre>{mmd}</pre></details></div>",
        s = esc(&rec.subset),
        d = esc(&rec.difficulty),
        text = esc(&text),
        title = esc(&rec.title),
        task = esc(&rec.task_id),
        style = esc(style),
        ty = r.tests.typical,
        ed = r.tests.edge,
        la = r.tests.large,
        suite = suite_row(r),
        n = rec.nodes,
        e = rec.edges,
        dec = rec.decisions,
        plural = if rec.decisions == 1 { "" } else { "s" },
        desc = esc(&rec.description),
        mmd = esc(&rec.mermaid_canonical),
    );
}
