# job: calls f
# expect: call=timeout
# Uses no CPU: only the wall-clock limit catches it.
import time

def f(x):
    time.sleep(3600)
