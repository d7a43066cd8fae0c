# job: calls f
# expect: call=timeout
import signal

def f(x):
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGXCPU):
        signal.signal(sig, signal.SIG_IGN)
    while True:
        pass
