#!/usr/bin/env python3
"""Line counts of every label, flowbench against mermaid-cli.

For each chart NAME.mmd of an anchors folder that has mermaid-cli's
NAME.mmdc.svg (default: ../shared/anchors/codevision-style), renders the
chart to SVG with flowbench and compares, label by label, how many lines
each drew:

* mermaid-cli: every non-empty <foreignObject> (node, edge and subgraph
  labels); its height / (1.5 x 16 px) is the line count, its text (tags
  removed, entities decoded) identifies the label.
* flowbench: every run of adjacent <text> elements is one label, one
  <text> per line (the line count comes from the first and last baselines,
  so blank `<br>` lines count too).

Labels are paired by their text with all white space removed. Prints one
row per chart and the totals: labels paired, labels with more lines than
mermaid-cli ("more"), fewer ("fewer"), and labels that could not be
paired. With -v, lists every label whose count differs.

    scripts/wrap-compare.py [-v] [--bin target/release/flowbench] [DIR]
"""

import argparse
import html
import os
import re
import subprocess
import sys
from collections import defaultdict

LINE = 24.0  # mermaid: 16 px font, line-height 1.5


def key(text):
    return re.sub(r"\s+", "", text)


def mmdc_labels(svg):
    out = []
    for m in re.finditer(r'<foreignObject[^>]*\bheight="([\d.]+)"[^>]*>(.*?)</foreignObject>', svg, re.S):
        h = float(m.group(1))
        body = re.sub(r"<br\s*/?>", " ", m.group(2))
        text = html.unescape(re.sub(r"<[^>]+>", "", body))
        if h <= 0 or not text.strip():
            continue
        out.append((text.strip(), max(1, round(h / LINE))))
    return out


TEXT = re.compile(r'<text\b[^>]*\by="([-\d.]+)"[^>]*\bfont-size="([\d.]+)"[^>]*>(.*?)</text>', re.S)


def flowbench_labels(svg):
    out = []
    pos = 0
    group = []  # (y, font size, text) of adjacent <text>s

    def flush():
        if group:
            ys = [g[0] for g in group]
            fs = group[0][1]
            n = round((max(ys) - min(ys)) / (1.5 * fs)) + 1
            text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", g[2])) for g in group)
            out.append((text.strip(), n))
            group.clear()

    for m in TEXT.finditer(svg):
        if m.start() != pos:
            flush()
        group.append((float(m.group(1)), float(m.group(2)), m.group(3)))
        pos = m.end()
    flush()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", nargs="?", default=os.environ.get("FLOWBENCH_SHARED", "../shared") + "/anchors/codevision-style")
    ap.add_argument("--bin", default="target/release/flowbench")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    charts = sorted(f[:-4] for f in os.listdir(a.dir) if f.endswith(".mmd") and os.path.exists(os.path.join(a.dir, f[:-4] + ".mmdc.svg")))
    if not charts:
        sys.exit(f"no NAME.mmd with NAME.mmdc.svg in {a.dir}")
    tot = defaultdict(int)
    print(f"{'chart':<28}{'paired':>8}{'more':>6}{'fewer':>7}{'unpaired':>10}")
    details = []
    for name in charts:
        mmd = os.path.join(a.dir, name + ".mmd")
        ours_svg = subprocess.run([a.bin, "render", mmd, "-o", "-"], check=True, capture_output=True, text=True).stdout
        theirs = mmdc_labels(open(os.path.join(a.dir, name + ".mmdc.svg"), encoding="utf-8").read())
        pool = defaultdict(list)
        for text, n in flowbench_labels(ours_svg):
            pool[key(text)].append((text, n))
        row = defaultdict(int)
        for text, n in theirs:
            cand = pool.get(key(text))
            if not cand:
                row["unpaired"] += 1
                continue
            _, ours = cand.pop(0)
            row["paired"] += 1
            if ours > n:
                row["more"] += 1
            elif ours < n:
                row["fewer"] += 1
            if ours != n:
                details.append(f"{name}: {ours} vs {n} lines: {text}")
        print(f"{name:<28}{row['paired']:>8}{row['more']:>6}{row['fewer']:>7}{row['unpaired']:>10}")
        for k, v in row.items():
            tot[k] += v
    print(f"{'TOTAL':<28}{tot['paired']:>8}{tot['more']:>6}{tot['fewer']:>7}{tot['unpaired']:>10}")
    if a.verbose:
        print("\n".join(details))


if __name__ == "__main__":
    main()
