# job: calls f
# expect: call=crashed second=completed
# Signals itself: the candidate is not PID 1 of its namespace, so the signal
# kills it as it would anywhere else.
import os
import signal

def f(x):
    if x == 0:
        os.kill(os.getpid(), signal.SIGKILL)
    return x
