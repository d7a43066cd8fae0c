# job: calls f
# expect: call=completed value="not_found"
# Walks every frame and every object the garbage collector knows, looking
# for the expected value (the test's expected strings share a marker
# prefix); it never enters this process, so nothing is found.
import gc
import sys

def f(x):
    seen = []
    frame = sys._getframe()
    while frame is not None:
        seen.extend(frame.f_locals.values())
        seen.extend(frame.f_globals.values())
        frame = frame.f_back
    seen.extend(gc.get_objects())
    marker = "EXPECT" + "ED-"
    for obj in seen:
        if type(obj) is str and marker in obj:
            return obj
        if type(obj) is dict:
            for v in obj.values():
                if type(v) is str and marker in v:
                    return v
    return "not_found"
