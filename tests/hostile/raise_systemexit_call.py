# job: calls f
# expect: call=raised:SystemExit second=completed
def f(x):
    if x == 0:
        raise SystemExit(0)
    return x
