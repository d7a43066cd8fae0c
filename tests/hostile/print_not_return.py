# job: calls f
# expect: call=completed value=null
def f(x):
    print(x * 2)
