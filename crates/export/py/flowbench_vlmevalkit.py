"""FlowBench for VLMEvalKit (written by `flowbench export --to vlmevalkit`).

Code generation from flowcharts: each row of FlowBench.tsv is a problem's
prompt (`question`), its flowchart image (base64) and its reference
(`answer`); a model's prediction is scored by `flowbench judge` (native
mode, in flowbench's sandbox): pass@1 per subset (`category`).

Registration:

1. Copy this file into VLMEvalKit as `vlmeval/dataset/flowbench.py`, and in
   `vlmeval/dataset/__init__.py` add `from .flowbench import FlowBench` and
   `FlowBench` to the `IMAGE_DATASET` list.
2. Copy `FlowBench.tsv` and `FlowBench.problems.jsonl` into VLMEvalKit's data
   root ($LMUData, default ~/LMUData).
3. Install flowbench (`cargo install --path .` in its repository); set
   $FLOWBENCH to the binary when it is not on PATH.
4. `python run.py --data FlowBench --model <model>`: inference, then
   `evaluate`, which writes `<prediction file>_score.csv`.

Without VLMEvalKit, `python flowbench_vlmevalkit.py PRED.xlsx` scores a
prediction file (also `.tsv`); `flowbench judge --samples PRED.xlsx` judges
one directly.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

try:
    from vlmeval.dataset.image_base import ImageBaseDataset
    from vlmeval.smp import LMUDataRoot
except ImportError:  # scoring a prediction file without VLMEvalKit
    ImageBaseDataset = object

    def LMUDataRoot():
        return os.environ.get("LMUData", os.path.expanduser("~/LMUData"))

NAME = "FlowBench"
# What `question` shows: flowchart (text and image), mermaid or text.
CONDITION = "{{CONDITION}}"


def flowbench_bin():
    return os.environ.get("FLOWBENCH", "flowbench")


def problems_file():
    """FlowBench.problems.jsonl: beside this file, else in $LMUData."""
    for folder in (Path(__file__).resolve().parent, Path(LMUDataRoot())):
        path = folder / f"{NAME}.problems.jsonl"
        if path.exists():
            return path
    raise FileNotFoundError(f"{NAME}.problems.jsonl: not beside {__file__} nor in {LMUDataRoot()}")


def read_predictions(eval_file):
    if str(eval_file).endswith(".xlsx"):
        return pd.read_excel(eval_file)
    return pd.read_csv(eval_file, sep="\t")


def evaluate_predictions(eval_file):
    """Judges a prediction file (`task_id`, `prediction` per row) and writes
    `<eval_file>_score.csv`: samples and pass@1 per category and overall."""
    data = read_predictions(eval_file)
    # VLMEvalKit names a prediction file `<model>_<dataset>.xlsx`.
    model = Path(eval_file).stem
    with tempfile.TemporaryDirectory(prefix="flowbench-judge-") as tmp:
        samples = Path(tmp) / "samples.jsonl"
        results = Path(tmp) / "results.jsonl"
        with open(samples, "w", encoding="utf-8") as f:
            for _, row in data.iterrows():
                prediction = "" if pd.isna(row["prediction"]) else str(row["prediction"])
                f.write(json.dumps({"task_id": row["task_id"], "response": prediction, "model": model}) + "\n")
        cmd = [flowbench_bin(), "judge", "--problems", str(problems_file()), "--samples", str(samples),
               "-o", str(results), "--mode", "native", "--quiet"]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if not results.exists():
            raise RuntimeError(f"flowbench judge failed (exit {done.returncode}): {done.stderr.strip()}")
        verdicts = {}
        for line in results.read_text().splitlines():
            r = json.loads(line)
            verdicts[r["task_id"]] = bool(r["passed"])
    data["passed"] = [verdicts.get(t, False) for t in data["task_id"]]
    rows = [{"category": c, "samples": len(g), "pass@1": g["passed"].mean()} for c, g in data.groupby("category")]
    rows.append({"category": "Overall", "samples": len(data), "pass@1": data["passed"].mean()})
    score = pd.DataFrame(rows)
    stem = str(eval_file).rsplit(".", 1)[0]
    score.to_csv(f"{stem}_score.csv", index=False)
    return score


class FlowBench(ImageBaseDataset):
    TYPE = "VQA"
    MODALITY = "IMAGE"
    DATASET_URL = {NAME: ""}
    # None: VLMEvalKit uses the local TSV in $LMUData as it is.
    DATASET_MD5 = {NAME: None}

    @classmethod
    def supported_datasets(cls):
        return [NAME]

    def build_prompt(self, line):
        """The row's prompt: its image (flowchart condition) then its text."""
        if isinstance(line, int):
            line = self.data.iloc[line]
        msgs = []
        if CONDITION == "flowchart":
            msgs.extend(dict(type="image", value=p) for p in self.dump_image(line))
        msgs.append(dict(type="text", value=line["question"]))
        return msgs

    def evaluate(self, eval_file, **judge_kwargs):
        return evaluate_predictions(eval_file)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python flowbench_vlmevalkit.py PREDICTIONS.xlsx|.tsv")
    print(evaluate_predictions(sys.argv[1]).to_string(index=False))
