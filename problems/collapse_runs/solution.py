def collapse_runs(s: str) -> str:
    kept = []
    for ch in s:
        if not kept or kept[-1] != ch:
            kept.append(ch)
    return "".join(kept)
