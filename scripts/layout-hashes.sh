#!/usr/bin/env bash
# Fingerprint of everything layout and render draw: the SHA-256 of the SVG
# and the PNG of every anchor chart and every bank flowchart, plus a sweep of
# the small anchors through the other directions and spacings. Run it before
# and after a refactor that must not change the output, then compare:
#
#   scripts/layout-hashes.sh /tmp/before.sha256
#   ... change the code ...
#   scripts/layout-hashes.sh /tmp/after.sha256
#   diff /tmp/before.sha256 /tmp/after.sha256 && echo identical
#
# With --all it also hashes what the benchmark half writes, for a refactor of
# the whole pipeline: the bank built into a dist (`build`), the bank's tests
# generated again (`tests gen --score-originals`, each test's measured
# `reference_time_s` left out: a clock, not an output) and the offline
# ablation demo's directory (`ablation --demo`).
#
# OUTFILE gets one `sha256  path` line per output file, sorted by path (the
# paths are relative to the scratch directory, so runs compare line by line).
# Uses $FLOWBENCH_BIN, else $CARGO_TARGET_DIR/release/flowbench (built
# first); the anchors come from $FLOWBENCH_SHARED (default ../shared, as for
# the tests).
set -euo pipefail
ALL=0
if [ "${1:-}" = --all ]; then ALL=1; shift; fi
[ $# -eq 1 ] || { echo "usage: $0 [--all] OUTFILE" >&2; exit 2; }
OUTFILE=$(realpath -m "$1")
cd "$(dirname "$0")/.."
if [ -n "${FLOWBENCH_BIN:-}" ]; then
  BIN=$(realpath "$FLOWBENCH_BIN")
else
  export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}
  cargo build --release --quiet
  BIN=$(realpath "$CARGO_TARGET_DIR/release/flowbench")
fi
SHARED=${FLOWBENCH_SHARED:-../shared}
ANCH="$SHARED/anchors"
[ -d "$ANCH/charts" ] && [ -d "$ANCH/codevision-style" ] || { echo "no $ANCH: shared data absent" >&2; exit 1; }

SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT

anchors=("$ANCH"/codevision-style/*.mmd "$ANCH"/charts/*.mmd)
bank=(problems/*/flowchart.mmd)
# The sweep leaves out the generated large charts (random*, grid200): they
# take most of the time and add no code path the small ones miss.
small=("$ANCH"/codevision-style/*.mmd "$ANCH"/charts/{etl12,flow20,lis_with_helper,palindrome}.mmd)
cat > "$SCRATCH/sweep.toml" <<'EOF'
[grid]
direction = ["LR", "BT", "RL"]
node_spacing = [30, 50]
rank_spacing = [50, 80]
EOF

# flowbench render, its progress bar kept quiet unless it fails.
render() {
  "$BIN" render "$@" 2> "$SCRATCH/stderr" || { cat "$SCRATCH/stderr" >&2; exit 1; }
}

# With the SVGs, `--metrics` prints the layout's own numbers per chart
# (crossings, bends, overlaps...) in input order.
mkdir -p "$SCRATCH/out"
render --metrics -O "$SCRATCH/out/anchors.svg" --format svg "${anchors[@]}" > "$SCRATCH/out/anchors.metrics.jsonl"
render --metrics -O "$SCRATCH/out/bank.svg" --format svg "${bank[@]}" > "$SCRATCH/out/bank.metrics.jsonl"
render -O "$SCRATCH/out/anchors.png" --format png "${anchors[@]}"
render -O "$SCRATCH/out/bank.png" --format png "${bank[@]}"
render --sweep "$SCRATCH/sweep.toml" -O "$SCRATCH/out/sweep.svg" --format svg "${small[@]}"

if [ "$ALL" = 1 ]; then
  quietly() { "$@" > "$SCRATCH/stderr" 2>&1 || { cat "$SCRATCH/stderr" >&2; exit 1; }; }
  cp -r problems "$SCRATCH/bank"
  quietly "$BIN" build --problems "$SCRATCH/bank" -o "$SCRATCH/out/dist"
  # The gallery and the manifest name the binary's version and options, not
  # its path, so they compare as they are.
  rm -f "$SCRATCH"/bank/*/tests.jsonl
  quietly "$BIN" tests gen --score-originals "$SCRATCH"/bank/*/
  mkdir -p "$SCRATCH/out/tests"
  for t in "$SCRATCH"/bank/*/tests.jsonl; do
    name=$(basename "$(dirname "$t")")
    python3 -c 'import json, sys
for line in sys.stdin:
    test = json.loads(line)
    test.pop("reference_time_s", None)
    print(json.dumps(test, sort_keys=True))' < "$t" > "$SCRATCH/out/tests/$name.jsonl"
  done
  quietly "$BIN" ablation --demo -o "$SCRATCH/out/demo"
fi

(cd "$SCRATCH/out" && find . -type f ! -name index.html -print0 | sort -z | xargs -0 sha256sum) > "$OUTFILE"
echo "$(wc -l < "$OUTFILE") files hashed into $OUTFILE" >&2
