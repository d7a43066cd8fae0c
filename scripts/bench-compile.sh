#!/bin/sh
# Incremental release build after touching one file of the test-generation
# phase: in this tree (the flowbench-testgen crate, so only it and the crates
# above it recompile) and in BASE (one crate: everything recompiles).
# Called by `scripts/bench-build.sh --compile [BASE]`.
set -eu
cd "$(dirname "$0")/.."
base=${1:?usage: bench-compile.sh BASE}
base_target=${BENCH_BASE_TARGET:-$PWD/target/bench-base}
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# Time `cargo build --release` in tree $1 after touching file $2 of it.
touched_build() {
    (cd "$1" && cargo build --release --quiet)
    touch "$1/$2"
    t0=$(now)
    (cd "$1" && cargo build --release --quiet)
    t1=$(now)
    elapsed "$t0" "$t1"
}

file_here=crates/testgen/src/generate.rs
[ -f "$file_here" ] || file_here=src/testgen/generate.rs
tree=$(mktemp -d)
trap 'git worktree remove --force "$tree/base" >/dev/null 2>&1 || true; rm -rf "$tree"' EXIT
git worktree add --quiet --detach "$tree/base" "$base"

echo "load before: $(uptime)"
here=$(touched_build "$PWD" "$file_here")
echo "this tree: touch $file_here, release build: $here s"
there=$(export CARGO_TARGET_DIR="$base_target"; touched_build "$tree/base" src/testgen/generate.rs)
echo "$base: touch src/testgen/generate.rs, release build: $there s"
echo "load after: $(uptime)"
awk -v a="$here" -v b="$there" 'BEGIN { printf "ratio (this tree / %s): %.2f\n", "'"$base"'", a / b }'
