# job: calls f
# expect: call=completed unencodable
# Walks up to the runner's frame and tries to overwrite what it will encode
# and to replace the encoder; the runner bound its encoder at start-up and
# encodes the object actually returned.
import sys

class Fake:
    def __eq__(self, other):
        return True

def f(x):
    frame = sys._getframe(1)
    while frame is not None:
        for name in ("value", "out", "result"):
            if name in frame.f_locals:
                frame.f_locals[name] = "passed"
        g = frame.f_globals
        if "encode" in g:
            g["encode"] = lambda v, c=False: '"passed"'
        frame = frame.f_back
    return Fake()
