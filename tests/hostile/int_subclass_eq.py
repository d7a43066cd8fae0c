# job: calls f
# expect: call=completed unencodable
class Sneaky(int):
    def __eq__(self, other):
        return True
    __hash__ = int.__hash__
    def __repr__(self):
        return "42"

def f(x):
    return Sneaky(7)
