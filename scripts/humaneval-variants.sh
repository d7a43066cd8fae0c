#!/usr/bin/env bash
# Variants on problems flowbench was not tuned for (issue 30): imports
# Code-Vision's 164 HumanEval-V problems from ../shared/codevision/ without
# hand specs, draws each solution's chart, generates its tests, then runs
# `flowbench variants` (every kind, one each) and prints the run's summary:
# problems with >= 2 and >= 1 variants, kept per kind, and the reason for
# each problem left without. Usage:
#   scripts/humaneval-variants.sh [OUT]      (default: a temporary directory)
# OUT keeps problems/, variants/ (with variants.json) and the logs.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${FLOWBENCH_SHARED:-$ROOT/../shared}
OUT=${1:-$(mktemp -d)}
[ -f "$SHARED/codevision/problems.jsonl" ] || { echo "humaneval-variants: no $SHARED/codevision/problems.jsonl" >&2; exit 2; }
cargo build --release -q --manifest-path "$ROOT/Cargo.toml"
rm -rf "$OUT/problems" "$OUT/variants"
mkdir -p "$OUT"
# A copy: a rebuild during the long run must not change the binary half-way.
FB=$OUT/flowbench
cp "$ROOT/target/release/flowbench" "$FB"
t0=$SECONDS
"$FB" import codevision "$SHARED/codevision/problems.jsonl" --subset HumanEval-V -o "$OUT/problems" > "$OUT/import.log" 2>&1
for d in "$OUT"/problems/*/; do
  [ -f "$d/flowchart.mmd" ] || "$FB" draw "$d/solution.py" -o "$d/flowchart.mmd" 2>> "$OUT/draw.log" || true
done
t1=$SECONDS
# A problem the generator cannot meet the floors for gets no tests (its
# reason is in tests.log) and so no variants: counted below.
(cd "$OUT/problems" && "$FB" tests gen -- */ > "$OUT/tests.log" 2>&1) || true
t2=$SECONDS
with_tests=()
for d in "$OUT"/problems/*/; do
  [ -f "$d/tests.jsonl" ] && with_tests+=("$d")
done
"$FB" variants "${with_tests[@]}" --kinds rename,constants,logic --count 1 -q -o "$OUT/variants" \
  > "$OUT/variants.txt" 2> "$OUT/variants.log" || true
t3=$SECONDS
total=$(ls -d "$OUT"/problems/*/ | wc -l)
echo "imported $total problems; ${#with_tests[@]} with generated tests (the rest get no variants)"
grep -v '^  ' "$OUT/variants.txt" | tail -n 1
grep '^  no variant' "$OUT/variants.txt" || true
printf 'import+draw %d s, tests gen %d s, variants %d s; cores %s; load: %s\n' $((t1 - t0)) $((t2 - t1)) $((t3 - t2)) \
  "$(nproc)" "$(uptime | sed 's/.*load average: //')"
echo "problems in $OUT/problems, variants and variants.json in $OUT/variants"
