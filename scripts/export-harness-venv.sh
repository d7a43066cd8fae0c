#!/usr/bin/env bash
# The harness libraries the export tests load their exports with (datasets,
# inspect_ai, pandas + Pillow as VLMEvalKit's loader uses them, xlsxwriter and
# openpyxl for its .xlsx prediction files), in a scratch
# venv under the user cache. Prints the venv's python on success; exits 3
# (after one line on stderr) when the package index cannot be reached, so
# the caller can skip.
set -euo pipefail
cache="${XDG_CACHE_HOME:-$HOME/.cache}/flowbench/export-harness-venv"
stamp="$cache/.flowbench-ready-2"
# One maker at a time: test runners that start each test in its own process
# (cargo nextest) would otherwise build the venv twice over one another.
mkdir -p "$(dirname "$cache")"
exec 9>"$cache.lock"
flock 9
if [[ -f "$stamp" ]]; then
    echo "$cache/bin/python"
    exit 0
fi
python="${PYTHON:-python3}"
if ! "$python" -m pip download --no-deps --quiet --dest "$(mktemp -d)" six >/dev/null 2>&1; then
    echo "the Python package index is unreachable: cannot install datasets and inspect_ai" >&2
    exit 3
fi
rm -rf "$cache"
"$python" -m venv "$cache"
"$cache/bin/python" -m pip install --quiet --upgrade pip >&2
# Versions pinned so the tests see the loaders they were written against.
"$cache/bin/python" -m pip install --quiet \
    "datasets==5.2.0" "pillow>=10" "pandas>=2" "inspect_ai==0.3.285" \
    "xlsxwriter>=3" "openpyxl>=3" >&2
touch "$stamp"
echo "$cache/bin/python"
