def running_max(values):
    out = []
    best = None
    for v in values:
        if best is None or v > best:
            best = v
        out.append(best)
    return out
