# job: calls f
# expect: call=completed value=1
# Signals every process it can name; the judge and other jobs live
# outside its PID namespace and uid, so only the candidate is affected.
import os
import signal

def f(judge_pid):
    for target in (-1, judge_pid, os.getppid()):
        try:
            os.kill(target, signal.SIGKILL)
        except OSError:
            pass
    return 1
