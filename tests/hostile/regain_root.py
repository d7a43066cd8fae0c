# job: calls f
# expect: call=raised:PermissionError
import os

def f(x):
    os.setuid(0)
    return 1
