# job: calls f
# expect: call=completed unencodable
class AlwaysEqual:
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    def __hash__(self):
        return 0

def f(x):
    return AlwaysEqual()
