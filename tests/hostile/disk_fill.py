# job: calls f
# expect: call=output
# Writes one ever-growing file in the scratch directory: stopped at the
# file-size cap (nothing reaches the host's disk).
def f(x):
    with open("fill.bin", "wb") as out:
        while True:
            out.write(b"\0" * (1 << 20))
