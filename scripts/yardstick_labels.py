"""OUT/labelled.jsonl for humaneval-labelled.sh: the HumanEval-V samples of
../shared/codevision/samples, each labelled correct or wrong for `tests
score --labelled`. The label is the verdict the authors recorded (HumanEval's
own tests), corrected by the hand checks in HAND_CHECKS (one JSON line per
checked sample: model, task_id, label, why), which cover every recorded
pass the generated tests fail as `wrong`. Prints what the labels rest on.
Usage: yardstick_labels.py SAMPLES_DIR HAND_CHECKS OUT/labelled.jsonl"""
import glob
import json
import os
import sys

samples_dir, checks_path, out = sys.argv[1:4]
checks = {}
for line in open(checks_path):
    if line.strip() and not line.startswith("//"):
        c = json.loads(line)
        if c["label"] not in ("correct", "wrong"):
            sys.exit("%s: %s/%s: label must be correct or wrong" % (checks_path, c["model"], c["task_id"]))
        checks[(c["model"], c["task_id"])] = c
lines, counts, used = [], {"recorded correct": 0, "recorded wrong": 0, "relabelled": 0}, set()
for path in sorted(glob.glob(os.path.join(samples_dir, "*.jsonl"))):
    model = os.path.basename(path)[: -len(".jsonl")]
    for line in open(path):
        if not line.strip():
            continue
        s = json.loads(line)
        label = "correct" if s.get("passed") else "wrong"
        counts["recorded " + label] += 1
        check = checks.get((model, s["task_id"]))
        if check:
            used.add((model, s["task_id"]))
            counts["relabelled"] += check["label"] != label
            label = check["label"]
        sample = {k: v for k, v in s.items() if k not in ("passed", "result")}
        lines.append(json.dumps(dict(sample, model=model, label=label), ensure_ascii=False))
unused = sorted(set(checks) - used)
if unused:
    sys.exit("%s: checks naming no sample: %s" % (checks_path, unused))
open(out, "w").write("\n".join(lines) + "\n")
print("labels: %d samples; recorded verdicts: %d correct, %d wrong; %d hand checks, %d of them changing the label"
      % (len(lines), counts["recorded correct"], counts["recorded wrong"], len(checks), counts["relabelled"]))
