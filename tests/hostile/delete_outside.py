# job: calls f
# expect: call=completed value=0
# Tries to delete, truncate and overwrite a world-writable file outside its
# working directory (path given by the test); returns how many attempts
# succeeded.
import os

def f(path):
    ok = 0
    for attempt in (lambda: os.remove(path),
                    lambda: open(path, "w").write("owned"),
                    lambda: os.truncate(path, 0),
                    lambda: os.rename(path, path + ".moved"),
                    lambda: os.rmdir(os.path.dirname(path)),
                    lambda: open(os.path.join(os.path.dirname(path), "new"), "w").close()):
        try:
            attempt()
            ok += 1
        except OSError:
            pass
    return ok
