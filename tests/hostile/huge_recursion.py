# job: calls f
# expect: call=raised:RecursionError
def f(x):
    return f(x + 1)
