#!/bin/sh
# Runs the Python helpers' own tests (python/tests) with pytest, from a
# virtual environment made on first use under $FLOWBENCH_PYTEST_VENV
# (default: the user's cache), so the system Python stays as it is.
# Arguments go to pytest. Exits non-zero when a test fails, and when no
# test was collected (pytest's exit 5), which would otherwise pass silently.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
venv=${FLOWBENCH_PYTEST_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/flowbench/pytest-venv}
if ! "$venv/bin/python" -c "import pytest" 2>/dev/null; then
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet "pytest>=8,<10"
fi
cd "$root"
status=0
PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider python/tests "$@" || status=$?
if [ "$status" -eq 5 ]; then
    echo "scripts/pytest.sh: pytest collected no tests" >&2
fi
exit "$status"
