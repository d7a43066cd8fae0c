#!/usr/bin/env bash
# Whole-process render timings and peak memory for `flowbench render`.
#
#   scripts/bench-render.sh [RUNS]        (default 5 runs; best and median printed)
#
# Charts: the anchors in ../shared/anchors/charts when present (12/13/20/200/1,000
# nodes), plus generated 100/1,000/10,000-node charts. Every figure is the wall
# time of a complete `flowbench render IN -o OUT.png` process at scale 1 (PNG
# encode included), followed by the PNG's pixel size and one run's phase
# breakdown (FLOWBENCH_TIMINGS=1: fonts, parse, layout, svg, usvg,
# raster+png, write). Peak RSS comes from `/usr/bin/time -v` on the 1,000-node
# render. If `merman-cli` is on PATH (cargo install merman-cli), it is timed
# on the same charts in the same run. On a shared machine take the best of
# several runs and say so (the load average is printed).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}
cargo build --release --quiet
BIN="$CARGO_TARGET_DIR/release/flowbench"
SHARED=${FLOWBENCH_SHARED:-../shared}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# Generated layered charts: N nodes, about 1.3 N edges, some labels and back edges.
gen() {
  python3 - "$1" > "$WORK/gen$1.mmd" <<'PY'
import random, sys
n = int(sys.argv[1]); r = random.Random(n)
print("flowchart TD")
for i in range(n):
    print(f"  n{i}[Step {i}]" if i % 7 else f"  n{i}{{Check {i}?}}")
for i in range(1, n):
    print(f"  n{r.randrange(max(0, i - 30), i)} --> n{i}")
for _ in range(n // 4):
    a = r.randrange(n); b = r.randrange(n)
    if a != b:
        print(f"  n{a} -->|x| n{b}")
PY
}
for n in 100 1000 10000; do gen $n; done

now() { date +%s%N; }
# time_cmd NAME -- CMD...: best and median wall time of $RUNS runs, in ms,
# plus the best CPU time (user+sys, which the machine's load inflates less).
# Timed in Python around fork/exec/wait so no helper process is counted.
time_cmd() {
  local name=$1; shift; shift
  python3 - "$name" "$RUNS" "$WORK/err" "$@" <<'PY'
import os, subprocess, sys, time
name, runs, err, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
walls, cpus = [], []
for _ in range(runs):
    with open(err, "wb") as e:
        t = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=e)
        _, status, ru = os.wait4(p.pid, 0)
        walls.append((time.perf_counter() - t) * 1e3)
    cpus.append((ru.ru_utime + ru.ru_stime) * 1e3)
    if status != 0:
        print(f"{name}: FAILED: {open(err, errors='replace').read()[:300].strip()}")
        sys.exit(0)
walls.sort()
print(f"{name:<44} best {walls[0]:8.1f} ms   median {walls[len(walls) // 2]:8.1f} ms   cpu best {min(cpus):7.1f} ms   ({runs} runs)")
PY
}

CHARTS=()
for c in etl12 palindrome flow20 random200 grid200 random1000; do
  [ -f "$SHARED/anchors/charts/$c.mmd" ] && CHARTS+=("$SHARED/anchors/charts/$c.mmd")
done
CHARTS+=("$WORK/gen100.mmd" "$WORK/gen1000.mmd")

# breakdown CHART OUT: pixel size and per-phase times of one more run.
breakdown() {
  rm -f "$2"
  local phases; phases=$(FLOWBENCH_TIMINGS=1 "$BIN" render "$1" -o "$2" 2>&1 >/dev/null \
    | awk '/^timing/ {printf "%s %.1f  ", $2, $3} /^error/ {print "refused"}' || true)
  local size="-"
  [ -f "$2" ] && size=$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); w,h=struct.unpack(">II",d[16:24]); print(f"{w}x{h} px ({w*h/1e6:.1f} Mpx)")' "$2")
  printf '    %s | %s\n' "$size" "$phases"
}

echo "== flowbench render → PNG, scale 1 (whole process; load $(cut -d' ' -f1 /proc/loadavg))"
for c in "${CHARTS[@]}"; do
  time_cmd "$(basename "$c" .mmd) → png" -- "$BIN" render "$c" -o "$WORK/out.png"
  breakdown "$c" "$WORK/out.png"
done
for c in "${CHARTS[@]:0:2}"; do
  time_cmd "$(basename "$c" .mmd) → svg" -- "$BIN" render "$c" -o "$WORK/out.svg"
done
echo "== 10,000 nodes (SVG; PNG if within --max-pixels)"
RUNS_SAVE=$RUNS; RUNS=1
time_cmd "gen10000 → svg" -- "$BIN" render "$WORK/gen10000.mmd" -o "$WORK/big.svg"
{ FLOWBENCH_TIMINGS=1 "$BIN" render "$WORK/gen10000.mmd" -o "$WORK/big.svg" 2>&1 >/dev/null || true; } | awk '/^timing/ {printf "%s %.1f  ", $2, $3} END {print ""}' | sed 's/^/    /'
ls -l "$WORK/big.svg" | awk '{printf "    SVG %.1f MB\n", $5/1e6}'
# Refused up front (node boxes alone exceed --max-pixels), refused after layout, or rendered.
t0=$(now); { "$BIN" render "$WORK/gen10000.mmd" -o "$WORK/big.png" 2>&1 || true; } | head -c 300 | sed 's/^/    /'
echo "    gen10000 → png finished in $(( ($(now) - t0) / 1000000 )) ms"
RUNS=$RUNS_SAVE

echo "== peak RSS (1,000 nodes → PNG, default limits)"
for BIG in "$SHARED/anchors/charts/random1000.mmd" "$WORK/gen1000.mmd"; do
  [ -f "$BIG" ] || continue
  { /usr/bin/time -v "$BIN" render "$BIG" -o "$WORK/rss.png" 2>&1 >/dev/null || true; } \
    | awk -F: '/Maximum resident/ {printf "%-44s %8.1f MB\n", "'"$(basename "$BIG" .mmd)"' peak RSS", $2/1024} /Elapsed/ {print "    wall " $0}'
done

if command -v merman-cli >/dev/null; then
  echo "== competitor: merman-cli (same charts)"
  for c in "${CHARTS[@]:0:3}"; do
    time_cmd "merman $(basename "$c" .mmd) → svg" -- merman-cli render -f svg -o "$WORK/m.svg" "$c"
    time_cmd "merman $(basename "$c" .mmd) → png" -- merman-cli render -f png -o "$WORK/m.png" "$c"
  done
else
  echo "(merman-cli not on PATH: competitor not timed; cargo install merman-cli to include it)"
fi
