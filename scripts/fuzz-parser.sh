#!/usr/bin/env bash
# Long fuzz run of the Mermaid parser with cargo-fuzz (libFuzzer).
# Usage: scripts/fuzz-parser.sh [SECONDS]   (default 600)
# Needs `cargo install cargo-fuzz`; nightly features are enabled on a stable
# toolchain with RUSTC_BOOTSTRAP=1. Seeds come from the conformance corpus.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
secs="${1:-600}"
mkdir -p seeds corpus
corpus="../../shared/mermaid/conformance.jsonl"
if [ -f "$corpus" ]; then
  python3 - "$corpus" <<'PY'
import json, sys, hashlib
for line in open(sys.argv[1]):
    t = json.loads(line)["text"]
    open("seeds/" + hashlib.sha1(t.encode()).hexdigest()[:16], "w").write(t)
PY
fi
export RUSTC_BOOTSTRAP=1
exec cargo fuzz run --sanitizer none parse corpus seeds -- -max_total_time="$secs" -timeout=5 -max_len=4096
