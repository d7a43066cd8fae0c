//! Links: FlowDB `addLink`/`addSingleLink` (edge ids, the edge limit),
//! `linkStyle` by index, and `destructLink` (stroke, heads, length).

use super::*;

impl Builder<'_> {
    /// FlowDB `addLink` over the cartesian product of two groups.
    /// `from`/`to` pair each id with its interned name.
    pub(super) fn add_link(&mut self, from: &[(&str, u32)], to: &[(&str, u32)], link: &ast::Link) -> Res<()> {
        let info = destruct_link(&link.token, link.start.as_deref());
        let user_id = link.id.as_ref().map(|s| s.replacen('@', "", 1));
        for (i, a) in from.iter().enumerate() {
            for (j, b) in to.iter().enumerate() {
                let id = if i == from.len() - 1 && j == 0 { user_id.clone() } else { None };
                self.add_single_link(*a, *b, &info, link, id)?;
            }
        }
        Ok(())
    }

    pub(super) fn add_single_link(
        &mut self,
        (a, na): (&str, u32),
        (b, nb): (&str, u32),
        info: &LinkInfo,
        link: &ast::Link,
        id: Option<String>,
    ) -> Res<()> {
        let (label, label_type) = match &link.text {
            Some(l) => {
                let mut t = decode(l.text.trim());
                if t.len() >= 2 && t.starts_with('"') && t.ends_with('"') {
                    t = t[1..t.len() - 1].to_string();
                }
                (Some(t), l.kind)
            }
            None => (None, LabelType::Text),
        };
        if self.fc.edges.len() >= self.max_edges {
            return Err(sem(
                crate::mermaid::ErrorKind::EdgeLimit,
                format!(
                    "Edge limit exceeded. {} edges found, but the limit is {}.",
                    self.fc.edges.len() + 1,
                    self.max_edges
                ),
                link.range,
            ));
        }
        let count = self.pair_count.entry((na, nb)).or_insert(0);
        let existing = *count;
        *count += 1;
        let (id, user_id) = match id {
            Some(id) if !id.is_empty() && self.edge_by_id(&id).is_none() => (id, true),
            _ => {
                let counter = if existing == 0 { 0 } else { existing + 1 };
                (format!("L_{a}_{b}_{counter}"), false)
            }
        };
        if user_id || self.eindex_full {
            self.eindex.entry(id.clone()).or_insert(self.fc.edges.len());
        }
        self.fc.edges.push(Edge {
            id,
            from: a.to_string(),
            to: b.to_string(),
            label: label.filter(|l| !l.is_empty()),
            label_type,
            stroke: info.stroke,
            head_start: info.head_start,
            head_end: info.head_end,
            length: info.length.min(10) as u8,
            styles: Vec::new(),
            classes: Vec::new(),
            interpolate: self.fc.default_interpolate.clone(),
            animation: None,
            user_id,
            span: (self.span)(link.range),
        });
        Ok(())
    }

    pub(super) fn link_style(
        &mut self,
        targets: &LinkTargets,
        interpolate: Option<&str>,
        styles: Option<&[String]>,
        range: ast::Range,
    ) -> Res<()> {
        match targets {
            LinkTargets::Default => {
                if let Some(i) = interpolate {
                    self.fc.default_interpolate = Some(i.to_string());
                }
                if let Some(s) = styles {
                    self.fc.default_link_styles = s.to_vec();
                }
            }
            LinkTargets::Indices(list) => {
                for (text, r) in list {
                    // mermaid indexes `edges[text]`: "01" is not index 1.
                    let idx = text.parse::<usize>().ok().filter(|n| n.to_string() == *text);
                    let Some(e) = idx.and_then(|n| self.fc.edges.get_mut(n)) else {
                        let n = self.fc.edges.len();
                        return Err(sem(
                            crate::mermaid::ErrorKind::LinkStyleIndex,
                            format!(
                                "The index {text} for linkStyle is out of bounds. Valid indices for linkStyle are between 0 and {}. (Help: Ensure that the index is within the range of existing edges.)",
                                n as i64 - 1
                            ),
                            if r.0 == r.1 { range } else { *r },
                        ));
                    };
                    if let Some(i) = interpolate {
                        e.interpolate = Some(i.to_string());
                    }
                    if let Some(s) = styles {
                        e.styles = s.to_vec();
                        if !e.styles.is_empty() && !e.styles.iter().any(|s| s.starts_with("fill")) {
                            e.styles.push("fill:none".into());
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// What `destructLink` extracts from the link tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkInfo {
    pub stroke: Stroke,
    pub head_start: ArrowHead,
    pub head_end: ArrowHead,
    pub length: usize,
}

fn head_of(c: char) -> ArrowHead {
    match c {
        'x' => ArrowHead::Cross,
        'o' => ArrowHead::Circle,
        '>' | '<' => ArrowHead::Arrow,
        _ => ArrowHead::None,
    }
}

/// FlowDB `destructLink(link, startLink)`.
pub fn destruct_link(token: &str, start: Option<&str>) -> LinkInfo {
    let s = token.trim();
    let last = s.chars().last().unwrap_or('-');
    let first = s.chars().next().unwrap_or('-');
    let mut line: &str = if s.is_empty() { s } else { &s[..s.len() - last.len_utf8()] };
    let mut end = ArrowHead::None;
    let mut begin = ArrowHead::None;
    let double_of = match last {
        'x' => Some('x'),
        '>' => Some('<'),
        'o' => Some('o'),
        _ => None,
    };
    if let Some(d) = double_of {
        end = head_of(last);
        if first == d && !line.is_empty() {
            begin = end;
            line = &line[1..];
        }
    }
    let mut stroke = Stroke::Normal;
    let mut length = line.chars().count().saturating_sub(1);
    if line.starts_with('=') {
        stroke = Stroke::Thick;
    }
    if line.starts_with('~') {
        stroke = Stroke::Invisible;
    }
    let dots = line.matches('.').count();
    if dots > 0 {
        stroke = Stroke::Dotted;
        length = dots;
    }
    let Some(st) = start else {
        return LinkInfo { stroke, head_start: begin, head_end: end, length };
    };
    // Inline-label form: the start token decides the start head.
    let st = st.trim();
    let sfirst = st.chars().next().unwrap_or('-');
    let shead = match sfirst {
        '<' | 'x' | 'o' => head_of(sfirst),
        _ => ArrowHead::None,
    };
    let sstroke = if st.contains('.') {
        Stroke::Dotted
    } else if st.contains('=') {
        Stroke::Thick
    } else {
        Stroke::Normal
    };
    if sstroke != stroke || (shead != ArrowHead::None && shead != end) {
        // mermaid's 'INVALID' type: drawn without heads.
        return LinkInfo { stroke, head_start: ArrowHead::None, head_end: ArrowHead::None, length };
    }
    LinkInfo { stroke, head_start: shead, head_end: end, length }
}
