# job: calls f
# expect: call=completed value=0
# Tries to read the judge's (and every visible root process's) memory and
# environment through /proc; returns how many reads succeeded.
import os

def f(judge_pid):
    ok = 0
    pids = [judge_pid, os.getppid()] + [int(p) for p in os.listdir("/proc") if p.isdigit()][:200]
    for pid in pids:
        if pid == int(os.readlink("/proc/self")):
            continue
        for name in ("mem", "environ", "cmdline", "maps"):
            try:
                with open("/proc/%d/%s" % (pid, name), "rb") as fh:
                    if name == "mem":
                        fh.seek(0x400000)
                    if fh.read(64) and name in ("mem", "environ", "maps"):
                        ok += 1
            except (OSError, ValueError, OverflowError):
                pass
    return ok
