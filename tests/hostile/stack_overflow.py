# job: calls f
# expect: call=crashed
# Lifts the recursion limit and overflows the C stack (repr of a deeply
# nested list recurses in C): a segfault in the
# child, not in the judge.
import resource
import sys

def f(x):
    resource.setrlimit(resource.RLIMIT_STACK, (1 << 20, resource.RLIM_INFINITY))
    sys.setrecursionlimit(10 ** 8)
    nested = []
    for _ in range(2 * 10 ** 5):
        nested = [nested]
    return len(repr(nested))
