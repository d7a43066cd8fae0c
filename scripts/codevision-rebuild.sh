#!/usr/bin/env bash
# Rebuilds Code-Vision (issue 31) from what its authors released: imports
# the three subsets of ../shared/codevision/problems.jsonl, chooses the
# references of Algorithm and MATH from the released samples (differential
# validation, `bank::references`), draws every chart, generates the tests
# and builds OUT/dist (images, Code-Vision-format records, Table 1).
# Everything goes under OUT and nothing of it is committed: LeetCode's
# statements are for research use only.
#
# Usage: scripts/codevision-rebuild.sh OUT
#   PROBLEMS=FILE  another problems.jsonl (e.g. a few problems per subset)
#   JOBS=N         sandbox workers and threads [default: all cores]
#   SHARDS=N       run `tests gen` and `build` as N local shards (`--shard I/N`,
#                  JOBS/N workers each) and merge the build shards (`build
#                  merge`): the dist is byte for byte the unsharded one; what
#                  deploy/bank-array.sh and deploy/bank-job.yaml do across machines
# Resumable: each phase skips the work already done (references read back
# from reference.json, charts drawn once, tests gen's and build's own
# stamps), so an interrupted run continues and a finished one is a no-op.
# OUT/timings.txt and the last lines printed give each phase's wall and CPU
# time; OUT/references/<subset>.md lists the problems left out and the
# probable wrong tests.
set -euo pipefail
OUT=${1:?usage: scripts/codevision-rebuild.sh OUT}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${FLOWBENCH_SHARED:-$ROOT/../shared}
PROBLEMS=${PROBLEMS:-$SHARED/codevision/problems.jsonl}
SAMPLES=$SHARED/codevision/samples
[ -f "$PROBLEMS" ] || { echo "codevision-rebuild: no $PROBLEMS" >&2; exit 2; }
[ -d "$SAMPLES" ] || { echo "codevision-rebuild: no $SAMPLES" >&2; exit 2; }
JOBS=${JOBS:-$(nproc)}
SHARDS=${SHARDS:-1}
[[ "$SHARDS" =~ ^[1-9][0-9]*$ ]] || { echo "codevision-rebuild: SHARDS=$SHARDS: need a positive number" >&2; exit 2; }
# Each local shard's share of the workers.
SHARD_JOBS=$(( JOBS / SHARDS > 0 ? JOBS / SHARDS : 1 ))
cargo build --release -q --manifest-path "$ROOT/Cargo.toml"
mkdir -p "$OUT/references" "$OUT/logs" "$OUT/charts"
OUT=$(cd "$OUT" && pwd)
# A copy: a rebuild during the long run must not change the binary half-way.
FB=$OUT/flowbench
cmp -s "$ROOT/target/release/flowbench" "$FB" 2>/dev/null || cp "$ROOT/target/release/flowbench" "$FB"
SUBSETS=(HumanEval-V Algorithm MATH)
: > "$OUT/timings.txt"

# Runs a phase, recording its wall and CPU (user+sys, children included) time.
phase() {
  local name=$1; shift
  local t0 c0 c1
  t0=$(date +%s.%N)
  c0=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat)
  "$@"
  c1=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat)
  printf '%-12s wall %7.1f s  cpu %7.1f s\n' "$name" "$(echo "$(date +%s.%N) - $t0" | bc)" \
    "$(echo "($c1 - $c0) / $(getconf CLK_TCK)" | bc -l)" | tee -a "$OUT/timings.txt"
}

# 1. Import and references. The import is redone only when the problems
#    file, the binary, the hand references or the specs changed (a stamp per subset); references already
#    chosen are read back from each problem's reference.json.
import_all() {
  local stamp s specs
  # Hand references count too: one added (or edited) later is picked up.
  stamp=$( (cat "$PROBLEMS" "$FB"; find "$ROOT/testgen/codevision-refs" "$ROOT/testgen/codevision-specs" \
    "$ROOT/testgen/humaneval-specs" -type f 2>/dev/null | sort | xargs -r cat) | sha256sum | cut -c1-16)
  for s in "${SUBSETS[@]}"; do
    [ "$(cat "$OUT/problems/$s/.imported" 2>/dev/null)" = "$stamp" ] && continue
    # HumanEval's specs serve HumanEval-V; Algorithm's and MATH's are
    # Code-Vision's own (trees, patterns, relations the examples cannot show).
    specs=(--specs "$ROOT/testgen/codevision-specs")
    [ "$s" = HumanEval-V ] && specs=(--specs "$ROOT/testgen/humaneval-specs")
    "$FB" import codevision "$PROBLEMS" --subset "$s" -o "$OUT/problems/$s" "${specs[@]}" \
      --references-from "$SAMPLES" --hand-refs "$ROOT/testgen/codevision-refs" \
      --report "$OUT/references/$s.json" -j "$JOBS" 2>&1 | tee "$OUT/logs/import-$s.log" | grep -E '^(imported|references|error)' || true
    echo "$stamp" > "$OUT/problems/$s/.imported"
  done
}

# The problems with a reference (the others are left out, with their
# reason in OUT/references/<subset>.md).
with_reference() {
  local d
  for d in "$OUT"/problems/*/*/; do
    [ -f "$d/solution.py" ] && echo "${d%/}"
  done
}

# 2. Charts: each solution drawn once (redrawn when solution.py is newer
#    than its chart), `class Solution` methods as the entry, every one in
#    one `draw` run.
draw_all() {
  local todo=() d name
  while read -r d; do
    [ "$d/flowchart.mmd" -nt "$d/solution.py" ] || todo+=("$d/solution.py")
  done < <(with_reference)
  [ ${#todo[@]} -eq 0 ] && return 0
  rm -rf "$OUT/charts" && mkdir -p "$OUT/charts"
  "$FB" draw -j "$JOBS" -O "$OUT/charts" "${todo[@]}" 2> "$OUT/logs/draw.log" || true
  for f in "${todo[@]}"; do
    d=$(dirname "$f"); name=$(basename "$d")
    [ -f "$OUT/charts/$name.mmd" ] && mv "$OUT/charts/$name.mmd" "$d/flowchart.mmd"
  done
  return 0
}

# 3. Tests for the problems whose inputs changed since their last `tests
#    gen` (.tests-inputs holds their hash, written whether the floors were
#    met or not, so a problem that cannot meet them is not retried for
#    nothing; its error stays in logs/tests.err).
inputs_hash() { cat "$1/solution.py" "$1/problem.toml" "$1/problem.json" | sha256sum | cut -c1-16; }
tests_all() {
  local todo=() d
  while read -r d; do
    [ "$(cat "$d/.tests-inputs" 2>/dev/null)" = "$(inputs_hash "$d")" ] || todo+=("$d")
  done < <(with_reference)
  [ ${#todo[@]} -eq 0 ] && return 0
  if [ "$SHARDS" -eq 1 ]; then
    "$FB" tests gen -j "$JOBS" "${todo[@]}" > "$OUT/logs/tests.log" 2> "$OUT/logs/tests.err" || true
  else
    # Each problem's tests go to its own directory: the shards need no merge.
    local i pids=()
    for ((i = 0; i < SHARDS; i++)); do
      "$FB" tests gen --shard "$i/$SHARDS" -j "$SHARD_JOBS" "${todo[@]}" \
        > "$OUT/logs/tests-$i.log" 2> "$OUT/logs/tests-$i.err" &
      pids+=($!)
    done
    for i in "${pids[@]}"; do wait "$i" || true; done
    cat "$OUT"/logs/tests-[0-9]*.log > "$OUT/logs/tests.log"
    cat "$OUT"/logs/tests-[0-9]*.err > "$OUT/logs/tests.err"
  fi
  for d in "${todo[@]}"; do
    inputs_hash "$d" > "$d/.tests-inputs"
    # Why a problem has no tests, kept beside it: a later run that does not
    # retry it rewrites logs/tests.err without it.
    if [ -f "$d/tests.jsonl" ]; then rm -f "$d/.tests-error"
    else grep -F "error: $d " "$OUT/logs/tests.err" | head -n 1 | sed 's/^error: [^:]*: //' > "$d/.tests-error" || true
    fi
  done
}

# 4. Every problem left out, with its reason: OUT/left-out.txt for people,
#    OUT/left-out.jsonl for `build --left-out` (the manifest and an
#    export's dataset card list them).
left_out_all() {
  local d why
  for d in "$OUT"/problems/*/*/; do
    d=${d%/}
    if [ ! -f "$d/solution.py" ]; then why="no reference (see references/$(basename "$(dirname "$d")").md)"
    elif [ ! -f "$d/flowchart.mmd" ]; then why="no chart (see logs/draw.log)"
    elif [ ! -f "$d/tests.jsonl" ]; then
      why=$(cut -c1-300 "$d/.tests-error" 2>/dev/null || true)
      why="no tests: ${why:-see logs/tests.err}"
    else continue
    fi
    printf '%s\t%s\n' "${d#"$OUT"/problems/}" "$why"
  done > "$OUT/left-out.tsv"
  sed 's/^\([^\t]*\)\t/left out: \1: /' "$OUT/left-out.tsv" > "$OUT/left-out.txt"
  python3 -c 'import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    task_id, reason = line.rstrip("\n").split("\t", 1)
    print(json.dumps({"task_id": task_id, "reason": reason}))' "$OUT/left-out.tsv" > "$OUT/left-out.jsonl"
  rm -f "$OUT/left-out.tsv"
}

# 5. Build: every subset's problems with a chart and tests into OUT/dist.
build_all() {
  local banks=() s
  for s in "${SUBSETS[@]}"; do
    mkdir -p "$OUT/bank/$s"
    # The bank holds links to the problems ready to build, so a problem
    # left out (no reference, chart or tests) is not built.
    find "$OUT/bank/$s" -mindepth 1 -maxdepth 1 -type l -delete
    for d in "$OUT/problems/$s"/*/; do
      d=${d%/}
      [ -f "$d/flowchart.mmd" ] && [ -f "$d/tests.jsonl" ] && ln -s "$d" "$OUT/bank/$s/$(basename "$d")"
    done
    banks+=(--problems "$OUT/bank/$s")
  done
  if [ "$SHARDS" -eq 1 ]; then
    "$FB" build "${banks[@]}" -o "$OUT/dist" -j "$JOBS" --allow-ambiguous --left-out "$OUT/left-out.jsonl" \
      > "$OUT/logs/build.log" 2>&1 || true
    return 0
  fi
  # Shard I into OUT/shards/build-I (each resumes from its own cache), then
  # the merge writes OUT/dist; exactly this run's N shards are merged.
  local i pids=() dirs=()
  for ((i = 0; i < SHARDS; i++)); do
    "$FB" build "${banks[@]}" --shard "$i/$SHARDS" -o "$OUT/shards/build-$i" -j "$SHARD_JOBS" --allow-ambiguous \
      --left-out "$OUT/left-out.jsonl" \
      > "$OUT/logs/build-$i.log" 2>&1 &
    pids+=($!)
    dirs+=("$OUT/shards/build-$i")
  done
  for i in "${pids[@]}"; do wait "$i" || true; done
  "$FB" build merge -o "$OUT/dist" "${dirs[@]}" > "$OUT/logs/build.log" 2>&1 || true
}

phase import+refs import_all
phase draw draw_all
phase tests tests_all
left_out_all
phase build build_all

# Summary: counts per subset, then Table 1 and the timings.
for s in "${SUBSETS[@]}"; do
  total=$(find "$OUT/problems/$s" -mindepth 1 -maxdepth 1 -type d | wc -l)
  refs=$(find "$OUT/problems/$s" -mindepth 2 -maxdepth 2 -name solution.py | wc -l)
  charts=$(find "$OUT/problems/$s" -mindepth 2 -maxdepth 2 -name flowchart.mmd | wc -l)
  tests=$(find "$OUT/problems/$s" -mindepth 2 -maxdepth 2 -name tests.jsonl | wc -l)
  printf '%-12s %4d problems, %4d with a reference, %4d charts, %4d with tests\n' "$s" "$total" "$refs" "$charts" "$tests"
done
grep -E '^references' "$OUT"/logs/import-*.log || true
cat "$OUT/left-out.txt"
tail -n 30 "$OUT/logs/build.log"
cat "$OUT/timings.txt"
printf 'cores %s; load: %s\n' "$(nproc)" "$(uptime | sed 's/.*load average: //')"
