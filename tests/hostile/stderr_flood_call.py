# job: calls f
# expect: call=output
import os

def f(x):
    while True:
        os.write(2, b"e" * 65536)
