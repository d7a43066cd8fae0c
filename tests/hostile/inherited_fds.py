# job: calls f
# expect: call=completed value=[]
# Looks for file descriptors inherited from the judge or the worker beyond
# stdin/stdout/stderr and the result channel.
import os

def f(x):
    return [fd for fd in range(4, 1024) if _isopen(fd)]

def _isopen(fd):
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False
