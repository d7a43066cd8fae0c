# job: calls f
# expect: call=raised:KeyboardInterrupt
def f(x):
    raise KeyboardInterrupt
