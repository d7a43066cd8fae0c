# job: calls f
# subprocess: yes
# expect: call=timeout
# Bounded fork bomb: every process forks as fast as it can (limited by
# RLIMIT_NPROC) and sleeps; all of them die with the verdict.
import ctypes
import os
import time

def f(x):
    libc = ctypes.CDLL(None)
    libc.prctl(15, b"fbsurv_bomb", 0, 0, 0)
    for _ in range(200):
        try:
            os.fork()
        except OSError:
            pass
    time.sleep(30)
