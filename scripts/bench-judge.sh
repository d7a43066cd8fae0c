#!/usr/bin/env bash
# Speed benchmark of `flowbench judge` in legacy mode over every Code-Vision
# sample in ../shared/codevision/samples (the "Fast" target: ≤ 45 s on the
# project's 2-core machine). Prints wall time, CPU time, load and agreement
# with the recorded verdicts for each run; take the best of several runs on
# a quiet machine.
#
#   scripts/bench-judge.sh [RUNS] [extra judge args, e.g. --clock cpu or -j 6]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
shift || true
shared="${FLOWBENCH_SHARED:-../shared}/codevision"
[ -f "$shared/problems.jsonl" ] || { echo "no Code-Vision data at $shared" >&2; exit 1; }
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/flowbench"
# The candidates' venv is provisioned on first use if absent.
mapfile -t samples < <(ls "$shared"/samples/HumanEval-V/*.jsonl "$shared"/samples/Algorithm/*.jsonl "$shared"/samples/MATH/*.jsonl)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "samples: ${#samples[@]} files, $(cat "${samples[@]}" | wc -l) samples; cores: $(nproc); args: ${*:-(defaults)}"
for i in $(seq 1 "$runs"); do
  out="$tmp/run$i.jsonl"
  load="$(cut -d' ' -f1 /proc/loadavg)"
  start="$(date +%s.%N)"
  /usr/bin/time -f "%U %S" -o "$tmp/cpu" "$bin" judge --mode legacy -q --problems "$shared/problems.jsonl" \
    --samples "${samples[@]}" -o "$out" "$@" >/dev/null 2>"$tmp/err" || true
  end="$(date +%s.%N)"
  read -r user sys < "$tmp/cpu"
  agree="$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["agreement"]; print("%d/%d (%.2f %%), disagreements: %s" % (a["agree"], a["compared"], a["percent"], "; ".join("%s %s: %s -> %s" % (d["model"], d["task_id"], d["recorded"][:30], d["judged"][:40]) for d in a["disagreements"]) or "none"))' "$tmp/run$i.summary.json")"
  printf 'run %d: %.1f s wall, %.1f s user + %.1f s sys, load before %s; agreement %s\n' \
    "$i" "$(echo "$end - $start" | bc)" "$user" "$sys" "$load" "$agree"
done
