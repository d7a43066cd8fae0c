//! Bad input is refused before anything is written, naming the file, the
//! style or the directory at fault.

use flowbench_export::{ExportError, Target, export};

use super::{options, write_dist, write_manifest};

#[test]
fn a_dist_of_another_version_is_refused_naming_its_manifest() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_dist(dir.path(), 2);
    write_manifest(dir.path(), "0.0.1-other");
    let out = dir.path().join("out");
    let err = export(&options(dir.path(), &out, Target::Hf)).expect_err("refused");
    assert!(matches!(&err, ExportError::Version { found, .. } if found == "0.0.1-other"), "{err}");
    assert!(err.to_string().contains(&dir.path().join("manifest.json").display().to_string()), "{err}");
    assert!(!out.exists(), "nothing written");
}

#[test]
fn a_missing_image_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_dist(dir.path(), 3);
    let gone = dir.path().join("images/default/more__add_1.png");
    std::fs::remove_file(&gone).expect("rm");
    let err = export(&options(dir.path(), &dir.path().join("out"), Target::Inspect)).expect_err("refused");
    assert!(matches!(&err, ExportError::MissingImage { task_id, .. } if task_id == "more/add_1"), "{err}");
    assert!(err.to_string().contains(&gone.display().to_string()), "{err}");
}

#[test]
fn an_unknown_style_lists_the_styles_there_are() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_dist(dir.path(), 2);
    let mut opts = options(dir.path(), &dir.path().join("out"), Target::Vlmevalkit);
    opts.style = Some("neon".into());
    let err = export(&opts).expect_err("refused");
    assert_eq!(err.to_string(), "unknown style \"neon\": the dist has default, dark");
}

#[test]
fn a_non_empty_output_needs_force() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_dist(dir.path(), 2);
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).expect("mkdir");
    std::fs::write(out.join("keep.txt"), "mine").expect("write");
    let err = export(&options(dir.path(), &out, Target::Hf)).expect_err("refused");
    assert!(matches!(err, ExportError::OutNotEmpty { .. }), "{err}");
    assert!(!out.join("README.md").exists());
    let mut opts = options(dir.path(), &out, Target::Hf);
    opts.force = true;
    export(&opts).expect("forced");
    assert!(out.join("README.md").is_file());
}

#[test]
fn a_bad_record_line_is_refused_naming_file_and_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_dist(dir.path(), 2);
    let file = dir.path().join("basic.jsonl");
    let text = std::fs::read_to_string(&file).expect("read") + "{\"task_id\": 1}\n";
    std::fs::write(&file, text).expect("write");
    let err = export(&options(dir.path(), &dir.path().join("out"), Target::Hf)).expect_err("refused");
    assert!(err.to_string().starts_with(&format!("{}:2: not a dist record", file.display())), "{err}");
}

#[test]
fn a_directory_without_a_manifest_is_refused_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let err = export(&options(dir.path(), &dir.path().join("out"), Target::Hf)).expect_err("refused");
    assert!(err.to_string().contains(&dir.path().join("manifest.json").display().to_string()), "{err}");
}
