# job: calls f
# expect: call=completed value=["HOME","LANG","PATH","PYTHONHASHSEED","TMPDIR"]
import os

def f(x):
    return sorted(os.environ)
