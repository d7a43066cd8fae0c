__fb_program__ = compile(__FB_LITERAL__, "solution.py", "exec")


def __FB_WRAPPER__(stdin):
    import io, sys
    saved = (sys.stdin, sys.stdout)
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\n")
    sys.stdout = out
    try:
        try:
            exec(__fb_program__, {"__name__": "__main__"})
        except SystemExit as e:
            if e.code not in (None, 0, False):
                raise RuntimeError("the program exited with status %r" % (e.code,))
        out.flush()
        text = out.buffer.getvalue().decode("utf-8", "replace")
    finally:
        sys.stdin, sys.stdout = saved
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return ["ok", "\n".join(lines) + "\n" if lines else ""]
