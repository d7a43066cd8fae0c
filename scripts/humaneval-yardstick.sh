#!/usr/bin/env bash
# HumanEval as the yardstick for generated tests (issue 9): import the 164
# HumanEval problems of ../shared/codevision/problems.jsonl, generate tests
# for each, score HumanEval's own tests and the generated ones against the
# same mutants (first-order, higher-order and alternative-algorithm), and
# write OUT/problems.jsonl (native, generated tests) and OUT/report.md.
# Usage: scripts/humaneval-yardstick.sh OUT
set -euo pipefail
OUT=${1:?usage: scripts/humaneval-yardstick.sh OUT}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${FLOWBENCH_SHARED:-$ROOT/../shared}
FB=${CARGO_TARGET_DIR:-$ROOT/target}/release/flowbench
cargo build --release -q --manifest-path "$ROOT/Cargo.toml"
rm -rf "$OUT/problems"
mkdir -p "$OUT"
start=$(date +%s)
"$FB" import codevision "$SHARED/codevision/problems.jsonl" --subset HumanEval-V \
  --specs "$ROOT/testgen/humaneval-specs" -o "$OUT/problems"
# Failing problems are reported in the logs and the report; the others go on.
# `--score-originals` scores the generated tests and HumanEval's own against
# the same mutants, in the same run, and records both in each tests.jsonl header.
"$FB" tests gen --score-originals "$OUT"/problems/* > "$OUT/gen.log" 2> "$OUT/gen.err" || true
# Differential strength beyond first-order mutants: both suites against the
# higher-order and alternative-algorithm mutants too (`tests score`; the
# tests.jsonl headers hold first-order figures only). It scores every
# mutant again (about as long as generation): DIFFERENTIAL=0 skips it.
rm -f "$OUT/score.jsonl" "$OUT/score.seconds"
if [ "${DIFFERENTIAL:-1}" != 0 ]; then
  score_start=$(date +%s)
  "$FB" tests score --json --tests problem.json --tests tests.jsonl "$OUT"/problems/* \
    > "$OUT/score.jsonl" 2> "$OUT/score.err" || true
  echo "$(( $(date +%s) - score_start ))" > "$OUT/score.seconds"
fi
python3 "$ROOT/scripts/yardstick_report.py" "$OUT" "$(( $(date +%s) - start ))"
