# job: calls f
# expect: call=completed unencodable
def f(x):
    a = [1]
    a.append(a)
    return a
