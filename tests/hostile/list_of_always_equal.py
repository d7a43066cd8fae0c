# job: calls f
# expect: call=completed unencodable
class E(str):
    def __eq__(self, other):
        return True

def f(x):
    return [1, (2, {"k": E("v")})]
