//! Writing outputs without losing anything: one place for the two rules
//! every command follows. An output that resolves to one of the command's
//! inputs (same path, symlink, hard link, or a directory overlapping a
//! source directory) is refused before anything is written; and every file
//! is written to a temporary file in its directory and renamed over the
//! target, so a killed run leaves the old file or the new one, never half.

use std::io::Write as _;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// `path` with symlinks followed: the canonical path when it exists, else
/// its canonical parent joined with its name (outputs often do not exist yet).
fn resolve(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let name = path.file_name().map(PathBuf::from).unwrap_or_default();
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::canonicalize(parent)
        .map_or_else(|_| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()), |p| p.join(name))
}

/// Whether two paths name the same file (also through hard links).
fn same_file(a: &Path, b: &Path) -> bool {
    if resolve(a) == resolve(b) {
        return true;
    }
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// An output refused before anything was written, because writing it would
/// destroy or mix with one of the command's inputs.
#[derive(Debug, thiserror::Error)]
pub enum RefusedOutput {
    /// The output file is one of the inputs.
    #[error(
        "{option} {} is the input {}: refusing to overwrite an input; choose another output path",
        output.display(),
        input.display()
    )]
    IsAnInput { option: String, output: PathBuf, input: PathBuf },
    /// The output directory is, contains or lies inside a source directory.
    #[error(
        "{option} {} overlaps the input directory {}: refusing to write into (or over) the sources; choose a separate output directory",
        output.display(),
        input_dir.display()
    )]
    OverlapsSources { option: String, output: PathBuf, input_dir: PathBuf },
}

/// Refuses an output file that is one of `inputs` (named `what` in the
/// message, e.g. `-o`).
pub fn refuse_overwrite(what: &str, output: &Path, inputs: &[&Path]) -> Result<(), RefusedOutput> {
    if output.as_os_str() == "-" {
        return Ok(());
    }
    if let Some(input) = inputs.iter().find(|i| i.as_os_str() != "-" && same_file(output, i)) {
        return Err(RefusedOutput::IsAnInput {
            option: what.to_string(),
            output: output.to_path_buf(),
            input: input.to_path_buf(),
        });
    }
    Ok(())
}

/// Refuses an output directory that is, contains or lies inside one of the
/// `sources` directories (writing there would replace or mix with them).
pub fn refuse_dir_overlap(what: &str, out_dir: &Path, sources: &[&Path]) -> Result<(), RefusedOutput> {
    let out = resolve(out_dir);
    for source in sources {
        let src = resolve(source);
        if out.starts_with(&src) || src.starts_with(&out) || same_file(out_dir, source) {
            return Err(RefusedOutput::OverlapsSources {
                option: what.to_string(),
                output: out_dir.to_path_buf(),
                input_dir: source.to_path_buf(),
            });
        }
    }
    Ok(())
}

/// Distinct names for a batch's outputs, without extension: each input's
/// `rel` name (relative to the directory it was found in, or its file name),
/// and where two would coincide (`gcd/flowchart.mmd`, `is_prime/flowchart.mmd`)
/// each of them prefixed by as many of its parent directories as it takes to
/// tell them apart (`gcd/flowchart`, `is_prime/flowchart`). Only the plain
/// directory names of `path` are used (never `..` or the root), so a name
/// stays inside the output directory; names that still coincide (the same
/// file twice, `x.mmd` beside `x.mermaid`) are left for the caller to refuse.
pub fn distinct_names(files: &[(PathBuf, PathBuf)]) -> Vec<PathBuf> {
    let parts: Vec<Vec<&std::ffi::OsStr>> = files.iter().map(|(path, _)| plain_tail(path)).collect();
    let mut depth: Vec<usize> =
        files.iter().zip(&parts).map(|((_, rel), p)| rel.components().count().min(p.len()).max(1)).collect();
    loop {
        let names: Vec<PathBuf> = parts.iter().zip(&depth).map(|(p, &d)| tail_name(p, d)).collect();
        let mut by_name: std::collections::HashMap<&Path, Vec<usize>> = std::collections::HashMap::new();
        for (i, name) in names.iter().enumerate() {
            by_name.entry(name).or_default().push(i);
        }
        let mut grew = false;
        for i in by_name.into_values().filter(|group| group.len() > 1).flatten() {
            if depth[i] < parts[i].len() {
                depth[i] += 1;
                grew = true;
            }
        }
        if !grew {
            return names;
        }
    }
}

/// The trailing run of plain names of `path` (`a/../b/c.mmd` → `b`, `c.mmd`).
fn plain_tail(path: &Path) -> Vec<&std::ffi::OsStr> {
    let mut tail: Vec<&std::ffi::OsStr> = path
        .components()
        .rev()
        .map_while(|c| match c {
            std::path::Component::Normal(name) => Some(name),
            _ => None,
        })
        .collect();
    tail.reverse();
    tail
}

/// The last `depth` names joined, the file's extension dropped.
fn tail_name(parts: &[&std::ffi::OsStr], depth: usize) -> PathBuf {
    parts[parts.len().saturating_sub(depth)..].iter().collect::<PathBuf>().with_extension("")
}

/// The process umask, read once (new files get `0o666 & !umask`, as with
/// a plain `File::create`).
fn umask() -> u32 {
    static MASK: OnceLock<u32> = OnceLock::new();
    *MASK.get_or_init(|| {
        std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines().find_map(|l| l.strip_prefix("Umask:").and_then(|v| u32::from_str_radix(v.trim(), 8).ok()))
            })
            .unwrap_or(0o022)
    })
}

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// directory renamed over the target. A symlink is followed (its target is
/// replaced, the link kept) and an existing file keeps its mode. Parent
/// directories are created.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let target = if is_link { resolve(path) } else { path.to_path_buf() };
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mode = std::fs::metadata(&target).map_or(0o666 & !umask(), |m| m.permissions().mode() & 0o7777);
    let mut tmp = tempfile::Builder::new().prefix(".flowbench-").tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().set_permissions(std::fs::Permissions::from_mode(mode))?;
    tmp.persist(&target).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_same_file_symlink_and_hard_link() {
        let dir = tempfile::tempdir().expect("tempdir");
        let input = dir.path().join("in.jsonl");
        std::fs::write(&input, "x").expect("write");
        let link = dir.path().join("link.jsonl");
        std::os::unix::fs::symlink(&input, &link).expect("symlink");
        let hard = dir.path().join("hard.jsonl");
        std::fs::hard_link(&input, &hard).expect("hard link");
        let dotted = dir.path().join(".").join("in.jsonl");
        for out in [&input, &link, &hard, &dotted] {
            assert!(refuse_overwrite("-o", out, &[input.as_path()]).is_err(), "{}", out.display());
        }
        assert!(refuse_overwrite("-o", &dir.path().join("new.jsonl"), &[input.as_path()]).is_ok());
        assert!(refuse_dir_overlap("-o", dir.path(), &[dir.path()]).is_err());
        assert!(refuse_dir_overlap("-o", &dir.path().join("sub"), &[dir.path()]).is_err());
        assert!(refuse_dir_overlap("-o", &dir.path().join("a"), &[&dir.path().join("b")]).is_ok());
    }

    #[test]
    fn same_named_outputs_take_just_enough_parent_directories() {
        let files = |list: &[(&str, &str)]| -> Vec<(PathBuf, PathBuf)> {
            list.iter().map(|(p, r)| (PathBuf::from(p), PathBuf::from(r))).collect()
        };
        let names = |list: &[(&str, &str)]| -> Vec<String> {
            distinct_names(&files(list)).iter().map(|n| n.display().to_string()).collect()
        };
        let bank = [("p/gcd/flowchart.mmd", "flowchart.mmd"), ("p/is_prime/flowchart.mmd", "flowchart.mmd")];
        assert_eq!(names(&bank), ["gcd/flowchart", "is_prime/flowchart"]);
        // Only the colliding names grow; a directory's tree is kept as found.
        let mixed =
            [("a/v1.2.mmd", "v1.2.mmd"), ("x/a/s/c.mmd", "c.mmd"), ("y/a/s/c.mmd", "c.mmd"), ("d/t/e.mmd", "t/e.mmd")];
        assert_eq!(names(&mixed), ["v1.2", "x/a/s/c", "y/a/s/c", "t/e"]);
        // `..` never enters a name; what nothing tells apart stays equal.
        assert_eq!(names(&[("../c.mmd", "c.mmd"), ("q/c.mmd", "c.mmd")]), ["c", "q/c"]);
        assert_eq!(names(&[("a/x.mmd", "x.mmd"), ("a/x.mermaid", "x.mermaid")]), ["a/x", "a/x"]);
    }

    #[test]
    fn atomic_write_keeps_mode_and_follows_symlinks() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("chart.mmd");
        std::fs::write(&file, "old").expect("write");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        let link = dir.path().join("link.mmd");
        std::os::unix::fs::symlink(&file, &link).expect("symlink");
        write_atomic(&link, b"new").expect("write");
        assert!(std::fs::symlink_metadata(&link).expect("meta").file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&file).expect("read"), "new");
        assert_eq!(std::fs::metadata(&file).expect("meta").permissions().mode() & 0o777, 0o640);
        write_atomic(&dir.path().join("sub/fresh.txt"), b"x").expect("write");
        let mode = std::fs::metadata(dir.path().join("sub/fresh.txt")).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !umask());
    }
}
