//! The dist an export reads, checked before anything is written: built by
//! this flowbench version, every record readable, the chosen style drawn,
//! and every record's image in that style present.
//!
//! Records are streamed, never held together: the check reads each record
//! file once and keeps only where each record starts (and per subset what
//! the card needs), and the writers read the records back one at a time.
//! A 436-problem dist's records parse to about ten times their file size,
//! so holding them all would put memory far above the dist's own size.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use flowbench_dist::manifest::{Manifest, Summary, read_manifest, read_summary};
use flowbench_dist::{DistRecord, record_files};
use flowbench_judge::problems_file::Diagnostic;

use crate::error::{ExportError, io};

/// A checked dist: its manifest, summary, the style whose images the
/// export carries, and where its records are.
#[derive(Debug, Clone)]
pub struct Source {
    pub dir: PathBuf,
    pub manifest: Manifest,
    pub summary: Summary,
    pub style: String,
    files: Vec<PathBuf>,
    /// Every record's place, in file order.
    places: Vec<Place>,
    subsets: Vec<Subset>,
}

/// Where a record's line starts.
#[derive(Debug, Clone, Copy)]
struct Place {
    file: usize,
    offset: u64,
    /// The line's length in bytes.
    len: u64,
    /// 1-based, for a diagnostic.
    line: usize,
    subset: usize,
}

/// One subset of the dist, as the card describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subset {
    pub name: String,
    pub records: usize,
    /// The records' `source` and `licence` fields, distinct, non-empty.
    pub sources: BTreeSet<String>,
    pub licences: BTreeSet<String>,
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
        let summary = read_summary(dir)?;
        let files = record_files(dir)?;
        let mut source =
            Source { dir: dir.into(), manifest, summary, style, files, places: Vec::new(), subsets: Vec::new() };
        for file in 0..source.files.len() {
            source.index_file(file)?;
        }
        if source.places.is_empty() {
            return Err(ExportError::NoRecords { dir: dir.into() });
        }
        Ok(source)
    }

    /// Reads one record file, checking each record and its image, and
    /// notes where each starts.
    fn index_file(&mut self, file: usize) -> Result<(), ExportError> {
        let path = self.files[file].clone();
        let mut reader = BufReader::new(File::open(&path).map_err(io(&path))?);
        let mut line = Vec::new();
        let mut offset = 0u64;
        for number in 1.. {
            line.clear();
            let read = reader.read_until(b'\n', &mut line).map_err(io(&path))?;
            if read == 0 {
                break;
            }
            let place = Place { file, offset, len: read as u64, line: number, subset: 0 };
            offset += read as u64;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let record = self.parse(place, &line)?;
            self.image_path(&record)?;
            let subset = self.note_subset(&record);
            self.places.push(Place { subset, ..place });
        }
        Ok(())
    }

    fn parse(&self, place: Place, line: &[u8]) -> Result<DistRecord, ExportError> {
        serde_json::from_slice(line).map_err(|e| {
            ExportError::BadRecord(Diagnostic {
                file: self.files[place.file].clone(),
                line: place.line,
                message: format!("not a dist record: {e}"),
            })
        })
    }

    /// Counts `record` in its subset (added in order of first appearance);
    /// the subset's index.
    fn note_subset(&mut self, record: &DistRecord) -> usize {
        let index = match self.subsets.iter().position(|s| s.name == record.subset) {
            Some(i) => i,
            None => {
                self.subsets.push(Subset {
                    name: record.subset.clone(),
                    records: 0,
                    sources: BTreeSet::new(),
                    licences: BTreeSet::new(),
                });
                self.subsets.len() - 1
            }
        };
        let subset = &mut self.subsets[index];
        subset.records += 1;
        for (set, value) in [(&mut subset.sources, &record.source), (&mut subset.licences, &record.licence)] {
            if !value.trim().is_empty() {
                set.insert(value.trim().to_string());
            }
        }
        index
    }

    /// How many records the dist has.
    pub fn len(&self) -> usize {
        self.places.len()
    }

    /// Whether it has none (a loaded source never has: `load` refuses it).
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }

    /// Subsets in order of first appearance.
    pub fn subsets(&self) -> &[Subset] {
        &self.subsets
    }

    /// Every record, in file order, read one at a time.
    pub fn records(&self) -> Records<'_> {
        Records { source: self, subset: None, next: 0, readers: Vec::new() }
    }

    /// The records of one subset, in file order.
    pub fn subset_records(&self, subset: &str) -> Records<'_> {
        let index = self.subsets.iter().position(|s| s.name == subset);
        Records { source: self, subset: Some(index.unwrap_or(usize::MAX)), next: 0, readers: Vec::new() }
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
        let bytes = std::fs::read(&path).map_err(io(&path))?;
        Ok((image_name(record, &path), bytes))
    }
}

/// Records read back from their files, one at a time (each file opened
/// once, read forward).
pub struct Records<'a> {
    source: &'a Source,
    /// Only this subset's records (an index of `source.subsets`).
    subset: Option<usize>,
    next: usize,
    /// An open reader and its position, by file.
    readers: Vec<Option<(BufReader<File>, u64)>>,
}

impl Records<'_> {
    /// The length in bytes of the record `next` returns, `None` at the end.
    /// (A parsed record takes several times its line, so a writer that
    /// holds records together bounds them by this.)
    pub fn next_len(&self) -> Option<u64> {
        self.source.places[self.next..].iter().find(|p| self.wanted(p)).map(|p| p.len)
    }

    fn wanted(&self, place: &Place) -> bool {
        self.subset.is_none_or(|s| s == place.subset)
    }

    fn read(&mut self, place: Place) -> Result<DistRecord, ExportError> {
        let path = &self.source.files[place.file];
        if self.readers.len() <= place.file {
            self.readers.resize_with(place.file + 1, || None);
        }
        let slot = &mut self.readers[place.file];
        let open = match slot.take() {
            Some(open) => open,
            None => (BufReader::new(File::open(path).map_err(io(path))?), 0),
        };
        let (reader, position) = slot.insert(open);
        if *position != place.offset {
            reader.seek(SeekFrom::Start(place.offset)).map_err(io(path))?;
        }
        let mut line = Vec::new();
        let read = reader.read_until(b'\n', &mut line).map_err(io(path))?;
        *position = place.offset + read as u64;
        self.source.parse(place, &line)
    }
}

impl Iterator for Records<'_> {
    type Item = Result<DistRecord, ExportError>;

    fn next(&mut self) -> Option<Self::Item> {
        let place = loop {
            let place = *self.source.places.get(self.next)?;
            self.next += 1;
            if self.wanted(&place) {
                break place;
            }
        };
        Some(self.read(place))
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
