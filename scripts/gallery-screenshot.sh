#!/bin/sh
# Screenshots the gallery (dist/index.html) in headless Chromium, for the
# embedded bank and for a 500-problem synthetic bank (the "still usable at
# scale" check: page size, load time, screenshot). Needs `chromium`
# (Debian: apt-get install chromium). Writes docs/gallery/*.png, the last one
# filtered through the URL (subset=math, difficulty=hard) to show the filter
# script working. The first Chromium start on a machine can take minutes.
# Usage: scripts/gallery-screenshot.sh [SYNTHETIC_PROBLEMS=500]
set -eu
cd "$(dirname "$0")/.."
n=${1:-500}
command -v chromium >/dev/null || { echo "chromium not found (apt-get install chromium)" >&2; exit 1; }
cargo build --release --quiet
fb=$PWD/target/release/flowbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p docs/gallery
shot() { # shot HTML PNG HEIGHT
    chromium --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run \
        --user-data-dir="$(mktemp -d -p "$tmp")" --hide-scrollbars --window-size=1400,"$3" \
        --virtual-time-budget=5000 --screenshot="$2" "file://$1" 2>/dev/null
    echo "wrote $2"
}
"$fb" build -o "$tmp/dist" >/dev/null
shot "$tmp/dist/index.html" "$PWD/docs/gallery/embedded.png" 1100
python3 scripts/synthetic-bank.py "$n" "$tmp/bank"
"$fb" build --problems "$tmp/bank" -o "$tmp/synth" >/dev/null 2>&1
echo "$n-problem gallery: $(wc -c < "$tmp/synth/index.html") bytes of HTML, $(grep -c 'class="card' "$tmp/synth/index.html") cards"
start=$(date +%s.%N)
shot "$tmp/synth/index.html" "$PWD/docs/gallery/synthetic-$n.png" 1100
end=$(date +%s.%N)
shot "$tmp/synth/index.html#subset=math&difficulty=hard" "$PWD/docs/gallery/synthetic-$n-math-hard.png" 700
awk -v a="$start" -v b="$end" 'BEGIN { printf "headless load + screenshot of the %s-problem page: %.1f s\n", "'"$n"'", b - a }'
