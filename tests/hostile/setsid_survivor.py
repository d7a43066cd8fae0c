# job: calls f
# subprocess: yes
# expect: call=completed value=1
# Double-forks a child that starts a new session, ignores SIGTERM/SIGHUP and
# tries to outlive the call; it must not survive the verdict.
import ctypes
import os
import signal
import time

def f(x):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            ctypes.CDLL(None).prctl(15, b"fbsurv_setsid", 0, 0, 0)
            time.sleep(60)
        os._exit(0)
    return 1
