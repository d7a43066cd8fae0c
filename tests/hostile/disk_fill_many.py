# job: calls f
# expect: call=raised:OSError
# Many files below the size cap: the private scratch tmpfs fills up (ENOSPC).
def f(x):
    i = 0
    while True:
        with open("fill%d.bin" % i, "wb") as out:
            out.write(b"\0" * (512 << 10))
        i += 1
