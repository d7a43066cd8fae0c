#!/usr/bin/env bash
# Speed figures of the ablation tooling (issue 12): the chat-completions
# client against a scripted server on 127.0.0.1 with -j 64 (≥ 200 requests/s,
# order and answers checked) and `flowbench prompts` for 500 problems with
# images (≤ 2 s). Take the figures on a quiet machine; the load is printed.
#
#   scripts/bench-ablation.sh
set -euo pipefail
cd "$(dirname "$0")/.."
echo "load: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
cargo bench --quiet --bench ablation_speed
