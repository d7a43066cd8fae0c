#!/usr/bin/env bash
# Stronger tests catch more (issue 9): re-judge the released HumanEval-V
# samples of ../shared/codevision/samples against the yardstick's generated
# tests (OUT/problems.jsonl from humaneval-yardstick.sh) and report, per
# model, how many of the authors' recorded passes now fail, with the first
# failing test of each catch for checking by hand.
# Each failed sample has a class (wrong, slow, widened), and the report
# gives pass@1 three ways; the models' results merged (OUT/rejudge/all)
# list the disputed tests: failed alike by samples of three or more models
# that pass every other test.
# Usage: scripts/humaneval-rejudge.sh OUT
set -euo pipefail
OUT=${1:?usage: scripts/humaneval-rejudge.sh OUT}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${FLOWBENCH_SHARED:-$ROOT/../shared}
FB=${CARGO_TARGET_DIR:-$ROOT/target}/release/flowbench
test -s "$OUT/problems.jsonl" || { echo "error: $OUT/problems.jsonl is missing; run scripts/humaneval-yardstick.sh $OUT first" >&2; exit 2; }
cargo build --release -q --manifest-path "$ROOT/Cargo.toml"
mkdir -p "$OUT/rejudge"
for f in "$SHARED"/codevision/samples/HumanEval-V/*.jsonl; do
  m=$(basename "$f" .jsonl)
  # CPU-time limits (`--clock cpu`): a correct but memory-hungry sample that
  # a loaded machine slows past a wall-clock limit is no catch (MiniCPM's
  # HumanEval-46 was one, 2026-12-04); an endless loop still is.
  # Resumes: a finished model is skipped by the judge itself.
  # Exit 1 = judged, with diagnostics (e.g. samples of problems that have no
  # generated tests, listed in the log); anything else is a failure.
  rc=0
  "$FB" judge --problems "$OUT/problems.jsonl" --samples "$f" --mode native --coerce-numbers --clock cpu -o "$OUT/rejudge/$m.jsonl" > "$OUT/rejudge/$m.log" 2>&1 || rc=$?
  if [ "$rc" -gt 1 ]; then echo "error: judging $m failed (exit $rc); see $OUT/rejudge/$m.log" >&2; exit "$rc"; fi
done
# One results file of every model, for the tests the crowd disputes.
mkdir -p "$OUT/rejudge/all"
models=()
for f in "$OUT"/rejudge/*.jsonl; do case "$f" in *.disputed.jsonl) ;; *) models+=("$f") ;; esac; done
rc=0
"$FB" judge merge "${models[@]}" --problems "$OUT/problems.jsonl" -o "$OUT/rejudge/all/all.jsonl" \
  > "$OUT/rejudge/all/merge.log" 2>&1 || rc=$?
if [ "$rc" -gt 1 ]; then echo "error: merging failed (exit $rc); see $OUT/rejudge/all/merge.log" >&2; exit "$rc"; fi
python3 "$ROOT/scripts/rejudge_report.py" "$OUT"
