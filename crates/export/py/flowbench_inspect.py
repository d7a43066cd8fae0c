"""flowbench as an inspect_ai task (written by `flowbench export --to inspect`).

Each sample shows a model what `flowbench prompts` would send under a
condition (`flowchart`: the text and the flowchart image; `mermaid`: the
Mermaid text; `text`: the description alone) and asks for the code. The
scorer runs `flowbench judge` on the answers (those scored at once share
one run): native mode, in flowbench's sandbox, the verdict class and the
first failing test in the score's metadata. The judge binary is $FLOWBENCH, else `flowbench` on PATH.

    inspect eval flowbench_inspect.py --model openai/gpt-4o
    inspect eval flowbench_inspect.py -T condition=mermaid --model ...
    inspect eval flowbench_inspect.py -T solver=reference --model mockllm/model

`solver=reference` answers with each record's reference solution (no model
is asked): every sample scores correct when the export and the judge work.
"""

import json
import os
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import anyio
from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, ContentImage, ContentText, ModelOutput, ModelUsage
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, scorer, stderr
from inspect_ai.solver import Generate, TaskState, generate
from inspect_ai.solver import solver as inspect_solver

HERE = Path(__file__).resolve().parent
# The image style this export carries and its default condition.
STYLE = "{{STYLE}}"
CONDITION = "{{CONDITION}}"
CONDITIONS = ("flowchart", "mermaid", "text")
SOLVERS = ("generate", "reference")


def flowbench_bin():
    return os.environ.get("FLOWBENCH", "flowbench")


def judge_batch(answers, problems=HERE / "problems.jsonl"):
    """The results lines `flowbench judge` writes for `answers` (pairs of
    task id and response), in their order: one judge process, and so one
    sandbox start-up, for the whole batch."""
    with tempfile.TemporaryDirectory(prefix="flowbench-judge-") as tmp:
        samples = Path(tmp) / "samples.jsonl"
        results = Path(tmp) / "results.jsonl"
        samples.write_text("".join(
            json.dumps({"task_id": task_id, "response": response, "model": "inspect"}) + "\n"
            for task_id, response in answers))
        cmd = [flowbench_bin(), "judge", "--problems", str(problems), "--samples", str(samples),
               "-o", str(results), "--mode", "native", "--quiet"]
        done = subprocess.run(cmd, capture_output=True, text=True)
        lines = results.read_text().splitlines() if results.exists() else []
        by_index = {row["sample_index"]: row for row in map(json.loads, lines)}
        missing = [task_id for i, (task_id, _) in enumerate(answers) if i not in by_index]
        if missing:
            raise RuntimeError(f"flowbench judge gave no verdict for {', '.join(missing)} "
                               f"(exit {done.returncode}): {done.stderr.strip()}")
        return [by_index[i] for i in range(len(answers))]


class Batcher:
    """Judges the answers inspect scores concurrently in batches.

    inspect calls the scorer once per sample, many at a time. Each call
    queues its answer and waits; the first waiting call becomes the leader,
    lets the queue fill for `window` seconds, judges everything queued in
    one `flowbench judge` run (which uses every core itself) and hands each
    caller its line, then judges what arrived meanwhile, until the queue is
    empty. A failed run fails every answer of its batch, never a later one.
    """

    def __init__(self, judge=judge_batch, window=0.2, limit=256):
        self._judge, self._window, self._limit = judge, window, limit
        self._lock = threading.Lock()
        self._queue = []
        self._leading = False

    def judge(self, task_id, response):
        entry = {"answer": (task_id, response), "done": threading.Event()}
        with self._lock:
            self._queue.append(entry)
            lead = not self._leading
            self._leading = True
        if lead:
            time.sleep(self._window)
            self._drain()
        entry["done"].wait()
        if "error" in entry:
            raise entry["error"]
        return entry["line"]

    def _drain(self):
        while True:
            with self._lock:
                batch, self._queue = self._queue[:self._limit], self._queue[self._limit:]
                if not batch:
                    self._leading = False
                    return
            try:
                for entry, line in zip(batch, self._judge([e["answer"] for e in batch])):
                    entry["line"] = line
            except Exception as error:  # the batch's callers raise it, each in its own sample
                for entry in batch:
                    entry["error"] = error
            for entry in batch:
                entry["done"].set()


BATCHER = Batcher()


def judge(task_id, response):
    """The results line `flowbench judge` writes for one answer (batched)."""
    return BATCHER.judge(task_id, response)


def read_samples(condition):
    samples = []
    with open(HERE / "samples.jsonl", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            content = [ContentText(text=row["prompts"][condition])]
            if condition == "flowchart":
                content.append(ContentImage(image=str(HERE / row["image"])))
            metadata = dict(row["metadata"], reference=row["reference"])
            samples.append(Sample(id=row["id"], input=[ChatMessageUser(content=content)], metadata=metadata))
    return samples


@inspect_solver
def reference():
    """Answers with the record's reference solution, as a model would."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        answer = "```python\n" + state.metadata["reference"] + "\n```\n"
        state.output = ModelOutput.from_content(model="reference", content=answer)
        state.output.usage = ModelUsage(input_tokens=0, output_tokens=0, total_tokens=0)
        state.messages.append(state.output.message)
        state.completed = True
        return state

    return solve


@scorer(metrics=[accuracy(), stderr()])
def flowbench_judge():
    """Correct when every test passes under `flowbench judge`."""

    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion
        if not answer.strip():
            return Score(value=INCORRECT, answer=answer, explanation="no answer",
                         metadata={"verdict": "no answer", "first_failure": None})
        verdict = await anyio.to_thread.run_sync(judge, str(state.sample_id), answer)
        return Score(
            value=CORRECT if verdict["passed"] else INCORRECT,
            answer=answer,
            explanation=verdict.get("result"),
            metadata={
                "verdict": "passed" if verdict["passed"] else verdict.get("error_class"),
                "first_failure": verdict.get("first_failure"),
                "tests_passed": verdict.get("tests_passed"),
                "tests_total": verdict.get("tests_total"),
            },
        )

    return score


@task
def flowbench(style: str = STYLE, condition: str = CONDITION, solver: str = "generate") -> Task:
    if style != STYLE:
        raise ValueError(f"this export carries the images of style {STYLE!r}: export again with --style {style}")
    if condition not in CONDITIONS:
        raise ValueError(f"condition {condition!r}: expected one of {', '.join(CONDITIONS)}")
    if solver not in SOLVERS:
        raise ValueError(f"solver {solver!r}: expected one of {', '.join(SOLVERS)}")
    return Task(
        dataset=MemoryDataset(read_samples(condition), name="flowbench"),
        solver=reference() if solver == "reference" else generate(),
        scorer=flowbench_judge(),
    )
