# job: calls f
# expect: call=crashed
import ctypes

def f(x):
    return ctypes.c_long.from_address(8).value
