# job: calls f
# expect: call=completed unencodable
# Replaces builtins and library functions a naive runner would use to encode
# or check the result, then returns an always-equal object.
import builtins
import json

class Liar:
    def __eq__(self, other):
        return True

def f(x):
    builtins.type = lambda *a: int
    builtins.isinstance = lambda *a: True
    builtins.repr = lambda o: "1"
    builtins.str = lambda o="": "1"
    builtins.len = lambda o: 0
    builtins.all = lambda it: True
    json.dumps = lambda *a, **k: "1"
    json.encoder.encode_basestring_ascii = lambda s: '"1"'
    return Liar()
