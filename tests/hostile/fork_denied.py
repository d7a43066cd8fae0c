# job: calls f
# expect: call=raised:BlockingIOError
import os

def f(x):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    return pid
