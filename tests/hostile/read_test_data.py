# job: calls f
# expect: call=completed value=[]
# Looks for test data and sources where they usually live; all of it is
# hidden behind empty directories.
import glob
import os
import sys

def f(x):
    found = []
    for pattern in ("/work/*", "/work/shared/*", "/root/*", "/home/*", "/mnt/*", "/tmp/*", "/run/*", "/opt/*", "/srv/*"):
        found.extend(glob.glob(pattern))
    # The interpreter's own directories stay visible (re-exposed inside the
    # empty cover); nothing else may be.
    inside = lambda p: any(q == p or q.startswith(p + "/") for q in (sys.prefix, sys.base_prefix))
    return [p for p in found if p != os.getcwd() and not inside(p)]
