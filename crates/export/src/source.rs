//! The dist an export reads, checked before anything is written: built by
//! this flowbench version, every record readable, the chosen style drawn,
//! and every record's image in that style present.

use std::path::{Path, PathBuf};

use flowbench_dist::manifest::{Manifest, Summary, read_manifest, read_summary};
use flowbench_dist::{DistRecord, read_dist};

use crate::error::ExportError;

/// A checked dist: its manifest, summary and records, and the style whose
/// images the export carries.
#[derive(Debug, Clone)]
pub struct Source {
    pub dir: PathBuf,
    pub manifest: Manifest,
    pub summary: Summary,
    pub records: Vec<DistRecord>,
    pub style: String,
}

impl Source {
    /// Reads and checks `dir`; `style` is a style id of its manifest
    /// (`None`: the first, the records' primary image).
    pub fn load(dir: &Path, style: Option<&str>) -> Result<Source, ExportError> {
        let manifest = read_manifest(dir)?;
        let expected = env!("CARGO_PKG_VERSION");
        if manifest.flowbench_version != expected {
            return Err(ExportError::Version {
                file: dir.join("manifest.json"),
                found: manifest.flowbench_version.clone(),
                expected: expected.into(),
            });
        }
        let style = pick_style(&manifest, style)?;
        let (records, diags) = read_dist(dir)?;
        if let Some(bad) = diags.into_iter().next() {
            return Err(ExportError::BadRecord(bad));
        }
        if records.is_empty() {
            return Err(ExportError::NoRecords { dir: dir.into() });
        }
        let summary = read_summary(dir)?;
        let source = Source { dir: dir.into(), manifest, summary, records, style };
        for r in &source.records {
            source.image_path(r)?;
        }
        Ok(source)
    }

    /// The file of `record`'s image in the export's style, which exists.
    pub fn image_path(&self, record: &DistRecord) -> Result<PathBuf, ExportError> {
        let missing = |file: PathBuf| ExportError::MissingImage {
            task_id: record.task_id.clone(),
            style: self.style.clone(),
            file,
        };
        let path = record
            .raster_path(&self.dir, Some(&self.style))
            .ok_or_else(|| missing(self.dir.join("images").join(&self.style)))?;
        if path.is_file() { Ok(path) } else { Err(missing(path)) }
    }

    /// `record`'s image: its file name (unique within a subset: the task id
    /// made a file name) and its bytes.
    pub fn image(&self, record: &DistRecord) -> Result<(String, Vec<u8>), ExportError> {
        let path = self.image_path(record)?;
        let bytes = std::fs::read(&path).map_err(crate::error::io(&path))?;
        Ok((image_name(record, &path), bytes))
    }

    /// Subsets in the manifest's order, each with its records in file order.
    pub fn subsets(&self) -> Vec<(&str, Vec<&DistRecord>)> {
        let mut out: Vec<(&str, Vec<&DistRecord>)> = Vec::new();
        for r in &self.records {
            match out.iter_mut().find(|(s, _)| *s == r.subset) {
                Some((_, rs)) => rs.push(r),
                None => out.push((&r.subset, vec![r])),
            }
        }
        out
    }
}

/// The style id `wanted`, or the first one; an unknown id lists them.
fn pick_style(manifest: &Manifest, wanted: Option<&str>) -> Result<String, ExportError> {
    match wanted {
        None => manifest
            .styles
            .first()
            .cloned()
            .ok_or_else(|| ExportError::UnknownStyle { style: String::new(), styles: Vec::new() }),
        Some(id) if manifest.styles.iter().any(|s| s == id) => Ok(id.to_string()),
        Some(id) => Err(ExportError::UnknownStyle { style: id.into(), styles: manifest.styles.clone() }),
    }
}

/// An image's exported file name: the task id with `/` made `__`, and the
/// extension of its file (PNG or JPEG).
pub fn image_name(record: &DistRecord, path: &Path) -> String {
    let ext = path.extension().map_or_else(|| "png".into(), |e| e.to_string_lossy().into_owned());
    format!("{}.{ext}", record.task_id.replace(['/', '\\'], "__"))
}
