#!/usr/bin/env bash
# Drawn-picture defects (layout::metrics on the curves as drawn) of
# flowbench and of mermaid-cli, counted by the same code, on every chart of
# an anchors folder with mermaid-cli SVGs (default: the 24 Code-Vision-style
# charts), then flowbench's alone on the problem bank's charts (no
# mermaid-cli SVGs there: `-`). One row per chart, `flowbench/mermaid-cli`
# per counter, totals. `<10°` counts flat arrowheads, `<25°` grazing ones.
#
#   scripts/anchor-defects.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${FLOWBENCH_SHARED:-../shared}
DIR=${1:-$SHARED/anchors/codevision-style}
[ -d "$DIR" ] || { echo "no $DIR: shared data absent" >&2; exit 1; }
cargo run --release --quiet --example anchor_defects -- "$DIR"
echo
echo "problem bank (problems/*/flowchart.mmd):"
cargo run --release --quiet --example anchor_defects -- problems
