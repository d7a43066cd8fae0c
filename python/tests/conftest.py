"""Where the Python under test lives, for every test module: flowbench
embeds these files in its binary, so they sit beside the Rust that embeds
them. Run all of them with `scripts/pytest.sh` (or, with pytest installed,
`python3 -m pytest python/tests`)."""
import json
import pathlib
import struct
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTGEN_PY = ROOT / "crates/testgen/src/py"
sys.path.insert(0, str(TESTGEN_PY))


def source_file(path):
    """`path` (from the repository root), which must exist."""
    if not (ROOT / path).is_file():
        raise FileNotFoundError(path)
    return ROOT / path


RUNNER = source_file("crates/exec/src/runner.py")
FBJOB = source_file("crates/exec/src/fbjob.py")
CONVERTER = source_file("crates/judge/src/import/convert.py")
READ_AST = source_file("crates/author/src/read_ast.py")
RENAME = source_file("crates/variants/src/rename.py")


class Worker:
    """The sandbox runner as worker.rs starts it (`FBJOB_SOURCE` in front
    of runner.py, `-I`, a bare environment), speaking protocol.rs's frames:
    a 4-byte big-endian length, then JSON."""

    def __init__(self, config):
        source = "FBJOB_SOURCE = %s\n%s" % (json.dumps(FBJOB.read_text()), RUNNER.read_text())
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-c", source], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd="/", env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"})
        self.send(config)
        self.ready = self.receive()

    def send(self, frame):
        data = json.dumps(frame).encode()
        self.process.stdin.write(struct.pack(">I", len(data)) + data)
        self.process.stdin.flush()

    def receive(self):
        head = self.process.stdout.read(4)
        assert len(head) == 4, "the worker ended: %s" % self.process.stderr.read().decode()[-500:]
        return json.loads(self.process.stdout.read(struct.unpack(">I", head)[0]))

    def close(self):
        self.process.stdin.close()
        return self.process.wait(timeout=30)


# protocol.rs's config_frame, with its defaults.
WORKER_CONFIG = {
    "prelude": "", "memory_bytes": 1 << 30, "output_cap": 1 << 20, "file_size_cap": 1 << 20,
    "allow_subprocess": False, "max_processes": 2, "scratch_bytes": 1 << 20, "human_eval_compat": False,
    "coerce_numbers": False, "stop_after_timeout": True, "uid": 65534, "gid": 65534, "hide": [],
    "preload": [], "packages": [], "fail_step": None,
}


@pytest.fixture(scope="module")
def worker():
    w = Worker(WORKER_CONFIG)
    yield w
    w.close()
