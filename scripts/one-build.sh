#!/usr/bin/env bash
# The binary (`cargo run --release`, the README's first command) and the tests
# (`cargo test --release`) must share one build of every library. A
# dev-dependency that turns on one more feature of a shared dependency (insta
# does so for once_cell) makes Cargo build that dependency, and everything
# above it, twice: minutes of a clean CI. Run after both are built; fails
# naming the libraries built twice.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each library unit as "package file" (its hashed file under deps/).
libraries() {
    cargo "$@" --release --message-format=json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and not m["profile"]["test"] and "bin" not in m["target"]["kind"]:
        for f in m["filenames"]:
            if "/deps/" in f:
                print(m["package_id"].rsplit("#", 1)[-1], f.rsplit("/", 1)[-1])
' | sort -u
}
bin=$(libraries build)
# A library the binary uses that the tests built again under another hash.
twice=$(comm -23 <(echo "$bin") <(libraries test --no-run) | cut -d' ' -f1 | sort -u)
if [[ -n "$twice" ]]; then
    echo "built twice, once for the binary and once for the tests (a dev-dependency turns on other features):" >&2
    echo "$twice" >&2
    exit 1
fi
echo "one build: the binary and the tests share all $(cut -d' ' -f1 <<<"$bin" | sort -u | wc -l) libraries"
