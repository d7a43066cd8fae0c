"""Loads flowbench's exports in the real harness libraries (called by
tests/integration/export_harness.rs with the venv of
scripts/export-harness-venv.sh). Each mode prints one JSON line of what it
found; a failed check raises.

    hf OUT                 datasets.load_dataset("parquet", data_dir=OUT/data): rows, decoded images
    inspect-mock OUT LOGS  the task on mockllm/model (offline outputs with usage): scored, correct
    log-samples LOG JSONL  an eval log's samples written as the samples JSONL they stand for
    vlmevalkit OUT PRED    the TSV as VLMEvalKit's loader reads it; a prediction TSV written (half right)
    vlm-evaluate OUT PRED  the dataset class's evaluate on PRED: its score file
"""

import base64
import io
import json
import sys
from pathlib import Path


def hf(out):
    import datasets
    from PIL import Image

    ds = datasets.load_dataset("parquet", data_dir=str(Path(out) / "data"), split="train")
    assert isinstance(ds.features["image"], datasets.Image), ds.features
    sizes = []
    for row in ds:
        image = row["image"]
        assert isinstance(image, Image.Image), type(image)
        image.load()
        sizes.append(image.size)
    assert all(w > 0 and h > 0 for w, h in sizes)
    print(json.dumps({"rows": len(ds), "images": len(sizes), "columns": ds.column_names}))


def inspect_mock(out, logs):
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    sys.path.insert(0, out)
    import flowbench_inspect

    n = sum(1 for _ in open(Path(out) / "samples.jsonl"))
    outputs = []
    for _ in range(n):
        o = ModelOutput.from_content(model="mockllm/model", content="The chart is unclear to me.")
        # Usage set: inspect would otherwise count tokens with tiktoken, which downloads its encoding.
        o.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        outputs.append(o)
    model = get_model("mockllm/model", custom_outputs=outputs)
    [log] = inspect_eval(flowbench_inspect.flowbench(), model=model, log_dir=logs, display="none")
    print(json.dumps(summary(log)))


def summary(log):
    scores = [s.scores["flowbench_judge"] for s in log.samples if s.scores]
    return {
        "status": log.status,
        "samples": len(log.samples),
        "scored": len(scores),
        "correct": sum(1 for s in scores if s.value == "C"),
        "verdicts": sorted({str(s.metadata.get("verdict")) for s in scores}),
        "first_failures": sum(1 for s in scores if s.metadata.get("first_failure")),
    }


def log_samples(log_path, jsonl):
    from inspect_ai.log import read_eval_log

    log = read_eval_log(log_path)
    with open(jsonl, "w") as f:
        for s in log.samples:
            f.write(json.dumps({"task_id": str(s.id), "model": log.eval.model, "response": s.output.completion}) + "\n")
    print(json.dumps(summary(log)))


def vlmevalkit(out, pred):
    import pandas as pd
    from PIL import Image

    # VLMEvalKit's `load` for a .tsv, and `decode_base64_to_image`.
    data = pd.read_csv(Path(out) / "FlowBench.tsv", sep="\t")
    for column in ["index", "image", "question", "answer", "category", "split"]:
        assert column in data.columns, (column, list(data.columns))
    for b64 in data["image"]:
        image = Image.open(io.BytesIO(base64.b64decode(b64)))
        image.load()
        assert image.size[0] > 0
    # A prediction file as VLMEvalKit writes one (PRED_FORMAT=tsv): the even rows answer the reference.
    right = ["```python\n" + a + "\n```" if i % 2 == 0 else "I do not know." for i, a in enumerate(data["answer"])]
    pred_data = data.drop(columns=["image"]).assign(prediction=right)
    pred_data.to_csv(pred, sep="\t", index=False)
    # The same as VLMEvalKit's default prediction file: `dump` of an .xlsx.
    pred_data.to_excel(
        str(Path(pred).with_suffix(".xlsx")),
        index=False,
        engine="xlsxwriter",
        engine_kwargs={"options": {"strings_to_urls": False, "strings_to_formulas": False}},
    )
    # The samples JSONL the prediction file stands for (model: the file name's `<model>_FlowBench`).
    model = Path(pred).stem.rsplit("_FlowBench", 1)[0]
    with open(str(pred) + ".jsonl", "w") as f:
        for task_id, prediction in zip(pred_data["task_id"], pred_data["prediction"]):
            f.write(json.dumps({"task_id": task_id, "model": model, "response": prediction}) + "\n")
    print(json.dumps({"rows": len(data), "right": (len(data) + 1) // 2}))


def vlm_evaluate(out, pred):
    sys.path.insert(0, out)
    import flowbench_vlmevalkit

    score = flowbench_vlmevalkit.evaluate_predictions(pred)
    overall = score[score["category"] == "Overall"].iloc[0]
    print(json.dumps({"samples": int(overall["samples"]), "pass@1": float(overall["pass@1"])}))


if __name__ == "__main__":
    mode, *args = sys.argv[1:]
    {"hf": hf, "inspect-mock": inspect_mock, "log-samples": log_samples, "vlmevalkit": vlmevalkit,
     "vlm-evaluate": vlm_evaluate}[mode](*args)
