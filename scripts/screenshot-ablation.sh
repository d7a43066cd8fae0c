#!/usr/bin/env bash
# Renders an ablation report in headless Chromium (Debian's `chromium`) and
# saves a screenshot, to check that the tables, SVG charts and images show.
# Without arguments it builds the report of Code-Vision's released samples
# of two models (recorded verdicts) first.
#
#   scripts/screenshot-ablation.sh [REPORT_DIR] [OUT.png]
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-}"
out="${2:-ablation-screenshot.png}"
if [ -z "$dir" ]; then
  s="${FLOWBENCH_SHARED:-../shared}/codevision"
  dir="$(mktemp -d)"
  cargo run --release --quiet -- ablation --recorded -q --bench "$s/problems.jsonl" -o "$dir" \
    --run "gpt-4o=$s/samples/HumanEval-V/gpt-4o.jsonl,$s/samples/Algorithm/gpt-4o.jsonl,$s/samples/MATH/gpt-4o.jsonl" \
    --run "gemini-pro=$s/samples/HumanEval-V/gemini-1.5-pro-latest.jsonl,$s/samples/Algorithm/gemini-1.5-pro-latest.jsonl,$s/samples/MATH/gemini-1.5-pro-latest.jsonl" >/dev/null
fi
chromium --headless --no-sandbox --disable-gpu --window-size=1300,2600 --screenshot="$(realpath -m "$out")" "file://$(realpath "$dir")/ablation.html" 2>/dev/null
echo "screenshot: $out (report: $dir/ablation.html)"
