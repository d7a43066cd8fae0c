//! libFuzzer target: any UTF-8 text must parse or fail without panicking,
//! with error spans inside the text. Seeds: the conformance corpus, which
//! `scripts/fuzz-parser.sh` writes to a temporary directory.
#![no_main]

use flowbench::mermaid::{ParseOptions, parse, parse_with};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse(text) {
        Ok(fc) => {
            // Walk every field of the model, so a value that only a later
            // phase would touch (a bad slice, a dangling index) is reached.
            let _ = debug_len(&fc);
        }
        Err(e) => {
            assert!(e.span.start <= e.span.end && e.span.end <= text.len());
            assert!(e.span.line >= 1 && e.span.col >= 1);
        }
    }
    let _ = parse_with(text, &ParseOptions { max_edges: 3, max_text_size: Some(400) });
});

fn debug_len(fc: &flowbench::mermaid::Flowchart) -> usize {
    format!("{fc:?}").len()
}
