//! libFuzzer target: any UTF-8 text must parse or fail without panicking,
//! with error spans inside the text. Seeds: `fuzz/seeds/` (copied from the
//! conformance corpus by `scripts/fuzz-parser.sh`).
#![no_main]

use flowbench::mermaid::{ParseOptions, parse, parse_with};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse(text) {
        Ok(fc) => {
            // The JSON model must always serialize.
            let _ = serde_json_len(&fc);
        }
        Err(e) => {
            assert!(e.span.start <= e.span.end && e.span.end <= text.len());
            assert!(e.span.line >= 1 && e.span.col >= 1);
        }
    }
    let _ = parse_with(text, &ParseOptions { max_edges: 3, max_text_size: Some(400) });
});

fn serde_json_len(fc: &flowbench::mermaid::Flowchart) -> usize {
    format!("{fc:?}").len()
}
