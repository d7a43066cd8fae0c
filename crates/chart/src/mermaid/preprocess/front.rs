//! YAML frontmatter and `%%{…}%%` directives, which mermaid strips before
//! parsing and turns into configuration.

use serde_json::{Map, Value};

use super::{Mapped, Mb, PreError, js_ws, merge};

/// `^-{3}\s*[\n\r](.*?)[\n\r]-{3}\s*[\n\r]+` (dotall) at the very start.
pub(super) fn frontmatter(m: Mapped) -> Result<(Mapped, Option<Value>), PreError> {
    let t = &m.text;
    if !t.starts_with("---") {
        return Ok((m, None));
    }
    let ws_run = |from: usize| -> usize { t[from..].len() - t[from..].trim_start_matches(js_ws).len() };
    let w1 = ws_run(3);
    // Candidate body starts: after each newline of the first run, last first.
    let nls: Vec<usize> = t[3..3 + w1].match_indices(['\n', '\r']).map(|(i, _)| 3 + i + 1).collect();
    for &body_start in nls.iter().rev() {
        let mut from = body_start;
        while let Some(off) = t[from..].find(['\n', '\r']) {
            let p = from + off;
            if t[p + 1..].starts_with("---") {
                let w2 = ws_run(p + 4);
                if let Some(last_nl) = t[p + 4..p + 4 + w2].rfind(['\n', '\r']) {
                    let end = p + 4 + last_nl + 1;
                    let body = &t[body_start..p];
                    let v = crate::mermaid::yaml::load_json(body).map_err(|e| PreError {
                        pos: m.orig_at(body_start),
                        message: format!("invalid YAML frontmatter: {e}"),
                        no_diagram: false,
                    })?;
                    let mut b = Mb::new(&m);
                    b.copy(end, t.len());
                    return Ok((b.finish(t.len()), v));
                }
            }
            from = p + 1;
        }
    }
    Ok((m, None))
}

/// Remove `%%{…}%%` directives; return the merged `init` config (and `wrap`).
pub(super) fn directives(m: Mapped) -> (Mapped, Value) {
    if !m.text.contains("%%{") {
        return (m, Value::Null);
    }
    let t = &m.text;
    let mut b = Mb::new(&m);
    let mut last = 0;
    let mut from = 0;
    let mut inits: Vec<String> = Vec::new();
    let mut wrap = false;
    while let Some(off) = t[from..].find("%%{") {
        let s = from + off;
        let mut i = s + 3;
        i += t[i..].len() - t[i..].trim_start_matches(js_ws).len();
        let wl = t[i..].bytes().take_while(|c| c.is_ascii_alphanumeric() || *c == b'_').count();
        if wl == 0 {
            from = s + 1;
            continue;
        }
        let name = &t[i..i + wl];
        i += wl;
        let after = t[i..].trim_start_matches(js_ws);
        if after.starts_with(':') {
            i = t.len() - after.len() + 1;
        }
        i += t[i..].len() - t[i..].trim_start_matches(js_ws).len();
        // Body: up to `}%%` or a line terminator other than `\n`.
        let body_end = t[i..].find("}%%").map_or(t.len(), |p| i + p);
        let stop = t[i..body_end].find(['\r', '\u{2028}', '\u{2029}']).map_or(body_end, |p| i + p);
        let body = t[i..stop].trim();
        let mut end = stop;
        end += t[end..].len() - t[end..].trim_start_matches(js_ws).len();
        if t[end..].starts_with("}%%") {
            end += 3;
        }
        if name == "init" || name == "initialize" {
            inits.push(body.replace('\'', "\""));
        } else if name == "wrap" {
            wrap = true;
        }
        b.copy(last, s);
        last = end;
        from = end.max(s + 1);
    }
    b.copy(last, t.len());
    let out = b.finish(t.len());
    let mut cfg = Value::Object(Map::new());
    // JSON.parse failures make mermaid ignore every init directive.
    let parsed: Result<Vec<Value>, _> = inits.iter().map(|s| serde_json::from_str::<Value>(s)).collect();
    if let Ok(vals) = parsed {
        for v in vals {
            merge(&mut cfg, &v);
        }
    }
    if wrap {
        merge(&mut cfg, &serde_json::json!({"wrap": true}));
    }
    (out, cfg)
}
