# job: calls f
# expect: status=crashed
import os
os._exit(0)

def f(x):
    return x
