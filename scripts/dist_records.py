"""The function records of a built dist (`flowbench build`'s OUT/dist), read
once for the scripts that check or re-judge it: every subset file its
manifest lists, in subset order, without the whole-program (stdio) records
(no function to call, no starter to stub; `flowbench judge` judges them).

As a script: `python3 dist_records.py DIST OUT.jsonl` writes the records'
lines to OUT.jsonl (one problems file for `flowbench judge`) and prints how
many there are.
"""
import json
import os
import sys

# Generated tests hold integers far beyond 4300 digits.
sys.set_int_max_str_digits(0)


def function_records(dist):
    """(line, record) of every function record of DIST, in manifest order."""
    manifest_path = os.path.join(dist, "manifest.json")
    if not os.path.exists(manifest_path):
        sys.exit(f"error: {manifest_path} is missing (run `flowbench build` first)")
    with open(manifest_path) as f:
        manifest = json.load(f)
    out = []
    for subset, name in sorted(manifest["subsets"].items()):
        with open(os.path.join(dist, name)) as f:
            for line in f:
                if line.strip():
                    record = json.loads(line)
                    if record.get("call_style") != "stdio":
                        out.append((line.strip(), record))
    return out


def bare_starter(record):
    """The record's starter code with `pass` for a body, one level in from
    its last line (`def`, or a `class Solution` method's `def`)."""
    starter = record["starter_code"].rstrip()
    last = starter.splitlines()[-1]
    return starter + "\n" + last[: len(last) - len(last.lstrip())] + "    pass\n"


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: dist_records.py DIST OUT.jsonl")
    records = function_records(sys.argv[1])
    with open(sys.argv[2], "w") as f:
        f.write("".join(line + "\n" for line, _ in records))
    print("%d records" % len(records))
