"""The sandbox runner (src/exec/runner.py with fbjob.py) over its wire
protocol (src/exec/protocol.rs): a ready frame, then one reply per job."""


def calls_job(source, calls, entry_point="f", seq=1):
    return {"kind": "calls", "source": source, "entry_point": entry_point, "call_style": "function",
            "calls": calls, "wall": 5.0, "cpu": 5.0, "seq": seq}


def test_the_worker_reports_ready_with_its_python_and_confinement(worker):
    ready = worker.ready
    assert ready["ready"] is True
    assert ready["python"].count(".") == 2
    assert {"network", "filesystem", "processes", "user", "rlimits"} <= set(ready["confinement"])
    assert ready["packages"] == {}


def test_a_calls_job_answers_each_call_in_tagged_json(worker):
    worker.send(calls_job("def f(a, b):\n    return [a + b, (a, b)]\n",
                          ['{"args": [1, 2]}', '{"args": ["x", "y"], "kwargs": {}}']))
    reply = worker.receive()
    assert reply["status"] == {"k": "completed"}
    assert [c["status"] for c in reply["calls"]] == [{"k": "completed"}, {"k": "completed"}]
    assert [c["value"] for c in reply["calls"]] == [[3, {"__tuple__": [1, 2]}], ["xy", {"__tuple__": ["x", "y"]}]]


def test_a_call_that_raises_is_reported_and_the_next_one_still_runs(worker):
    worker.send(calls_job("def f(n):\n    return 10 // n\n", ['{"args": [0]}', '{"args": [5]}'], seq=2))
    first, second = worker.receive()["calls"]
    assert first["status"]["k"] == "raised" and first["status"]["class"] == "ZeroDivisionError"
    assert second["value"] == 2


def test_a_missing_entry_point_is_a_name_error_per_call(worker):
    worker.send(calls_job("def g():\n    return 1\n", ['{"args": []}'], seq=3))
    [call] = worker.receive()["calls"]
    assert call["status"] == {"k": "raised", "class": "NameError", "message": "name 'f' is not defined"}


def test_a_program_job_runs_once_per_standard_input(worker):
    worker.send({"kind": "program", "source": "print(input()[::-1])", "stdins": ["abc\n", "xy\n"],
                 "wall": 5.0, "cpu": 5.0, "seq": 4})
    reply = worker.receive()
    assert [r["stdout"] for r in reply["runs"]] == ["cba\n", "yx\n"]
    assert all(r["status"] == {"k": "completed"} for r in reply["runs"])


def test_a_call_past_its_time_limit_times_out(worker):
    job = calls_job("def f():\n    while True:\n        pass\n", ['{"args": []}'], seq=5)
    job.update(wall=0.5, cpu=0.3)
    worker.send(job)
    reply = worker.receive()
    # The job completes: the call that ran away is the one timed out.
    assert reply["status"] == {"k": "completed"}
    assert [c["status"] for c in reply["calls"]] == [{"k": "timeout"}]
    assert reply["calls"][0]["wall"] >= 0.3
