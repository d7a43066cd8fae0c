#!/usr/bin/env bash
# Long fuzz run of the Mermaid parser with cargo-fuzz (libFuzzer).
# Usage: scripts/fuzz-parser.sh [SECONDS]   (default 600)
# Needs `cargo install cargo-fuzz`. Uses the nightly toolchain when rustup
# has one, else enables nightly features on stable with RUSTC_BOOTSTRAP=1.
# Seeds are the conformance corpus texts, written with the working corpus
# into a temporary directory outside the repo (FUZZ_WORK to choose it);
# FUZZ_TARGET_DIR sets cargo's target directory (keep it apart from the
# main build: the instrumented build is a different compilation).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
secs="${1:-600}"
work="${FUZZ_WORK:-$(mktemp -d /tmp/flowbench-fuzz.XXXXXX)}"
mkdir -p "$work/seeds" "$work/corpus"
corpus="../../shared/mermaid/conformance.jsonl"
if [ -f "$corpus" ]; then
  python3 - "$corpus" "$work/seeds" <<'PY'
import json, sys, hashlib, os
for line in open(sys.argv[1]):
    t = json.loads(line)["text"]
    open(os.path.join(sys.argv[2], hashlib.sha1(t.encode()).hexdigest()[:16]), "w").write(t)
PY
fi
echo "fuzz work dir: $work ($(ls "$work/seeds" | wc -l) seeds)"
toolchain=()
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  toolchain=(+nightly)
else
  export RUSTC_BOOTSTRAP=1
fi
target=()
if [ -n "${FUZZ_TARGET_DIR:-}" ]; then
  target=(--target-dir "$FUZZ_TARGET_DIR")
fi
exec cargo "${toolchain[@]}" fuzz run --sanitizer none "${target[@]}" parse "$work/corpus" "$work/seeds" \
  -- -max_total_time="$secs" -timeout=5 -max_len=4096 -print_final_stats=1
