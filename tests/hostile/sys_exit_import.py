# job: calls f
# expect: status=raised:SystemExit
import sys
sys.exit(0)

def f(x):
    return x
