#!/usr/bin/env bash
# Speed figure of the transcription scorer (issue 29): 1,000 transcriptions
# (the bank's charts with one seeded misreading each) scored on the graph,
# ≤ 2 s on 2 cores. Take the figure on a quiet machine; the load is printed.
#
#   scripts/bench-transcription.sh
set -euo pipefail
cd "$(dirname "$0")/.."
echo "load: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
cargo bench --quiet --bench transcription_speed
