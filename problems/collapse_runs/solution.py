def collapse_runs(s: str) -> str:
    if not s:
        return ""
    kept = [s[0]]
    for ch in s[1:]:
        if ch != kept[-1]:
            kept.append(ch)
    result = "".join(kept)
    return result
