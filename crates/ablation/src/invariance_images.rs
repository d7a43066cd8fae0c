//! The ablation's invariance images: for each render-sensitive problem of
//! the invariance section (`ablation::invariance`), the PNG of every
//! rendering its model was run under, read from the built `dist/` as the
//! model was shown it, for the HTML's side-by-side view.

use std::collections::BTreeMap;

use super::bench::Bench;
use super::invariance::Section;
use super::invariance_report::SensitiveImages;
use flowbench_bank::dist_record::DistRecord;

/// Render-sensitive problems shown with images per model (every one is
/// listed; the page stays small).
const IMAGES_PER_MODEL: usize = 8;

/// The images of the section's render-sensitive problems (none when the
/// bench is a problems file without images).
pub fn images(bench: &Bench, section: &Section) -> Vec<SensitiveImages> {
    let Some(dir) = &bench.dir else { return Vec::new() };
    let records: BTreeMap<&str, &DistRecord> = bench.records.iter().map(|r| (r.task_id.as_str(), r)).collect();
    let mut out = Vec::new();
    for m in &section.models {
        for task_id in m.render_sensitive.iter().take(IMAGES_PER_MODEL) {
            let Some(record) = records.get(task_id.as_str()) else { continue };
            let images = m
                .renderings
                .iter()
                .map(|r| {
                    let path = record.raster_path(dir, r.style.as_deref())?;
                    let bytes = std::fs::read(&path).ok()?;
                    Some(flowbench_bank::dist_record::data_url(&path, &bytes))
                })
                .collect();
            out.push(SensitiveImages { model: m.model.clone(), task_id: task_id.clone(), images });
        }
    }
    out
}
