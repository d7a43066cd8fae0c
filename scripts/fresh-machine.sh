#!/usr/bin/env bash
# The README's two set-up commands, run as a new user would: a clean clone
# in a temporary directory, a fresh HOME (so no candidates' venv, no pip or
# cargo caches) and no ../shared/ beside the clone. Only the machine's Rust
# toolchain is kept (rustup's home), as a user's install would be.
# Fails if either command fails; prints the wall time of each.
#
#   scripts/fresh-machine.sh [REV]        # default: HEAD (committed work only)
#   KEEP=1 scripts/fresh-machine.sh       # keep the temporary directory
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:-HEAD}
rustup_home=${RUSTUP_HOME:-$HOME/.rustup}
cargo_bin=$(dirname "$(command -v cargo)")

work=$(mktemp -d "${TMPDIR:-/tmp}/flowbench-fresh.XXXXXX")
if [ "${KEEP:-0}" != 1 ]; then
    trap 'rm -rf "$work"' EXIT
fi
git clone --quiet --no-local "$repo" "$work/flowbench"
git -C "$work/flowbench" checkout --quiet "$(git -C "$repo" rev-parse "$rev")"
mkdir "$work/home"
[ ! -e "$work/shared" ] || { echo "fresh-machine: $work/shared exists" >&2; exit 1; }

# A clean environment: nothing of this session's flowbench, pip or cargo
# settings leaks in (pip's machine-wide config in /etc stays, as it would).
# python3 stays as the user has it on PATH (a pyenv shim needs its root).
path="$cargo_bin:/usr/local/bin:/usr/bin:/bin"
fresh_env=(env -i "HOME=$work/home" "RUSTUP_HOME=$rustup_home" "CARGO_HOME=$work/home/.cargo" "TERM=dumb"
    "LANG=C.UTF-8")
if py=$(command -v python3); then
    path="$cargo_bin:$(dirname "$py"):/usr/local/bin:/usr/bin:/bin"
    case "$py" in */shims/python3) fresh_env+=("PYENV_ROOT=${PYENV_ROOT:-${py%/shims/python3}}") ;; esac
fi
fresh_env+=("PATH=$path")

step() {
    local name=$1 log="$work/$2.log"
    shift 2
    local start=$SECONDS
    echo "== $name"
    if (cd "$work/flowbench" && "${fresh_env[@]}" "$@") >"$log" 2>&1; then
        echo "   ok in $((SECONDS - start)) s (log: $log)"
        tail -n 3 "$log" | sed 's/^/   | /'
    else
        echo "   FAILED after $((SECONDS - start)) s; the end of $log:" >&2
        tail -n 40 "$log" >&2
        KEEP=1
        trap - EXIT
        exit 1
    fi
}

step "cargo run --release -- build" build cargo run --release -- build
# How much of the first command was compiling (cargo's own figure).
grep -E '^ *Finished .*release' "$work/build.log" | sed 's/^ */   compile: /' || true
grep -E "first use|environment is ready" "$work/build.log" | sed 's/^/   venv: /' || true
step "cargo test --release" test cargo test --release
skips=$(grep -o 'skipping: shared data' "$work/test.log" | wc -l || true)
echo "   tests skipped for want of ../shared/: $skips messages"
grep -E '^test result:' "$work/test.log" | awk '{p+=$4; f+=$6; i+=$8} END {print "   passed " p ", failed " f ", ignored " i}'
echo "fresh machine: both set-up commands pass"
