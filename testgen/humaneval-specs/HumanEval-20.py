def valid(numbers):
    """One closest pair (by value): with a tie the statement names no answer."""
    s = sorted(numbers)
    gaps = [(b - a, a, b) for a, b in zip(s, s[1:])]
    if len(gaps) < 2:
        return True
    least = min(g[0] for g in gaps)
    return len({g[1:] for g in gaps if g[0] == least}) == 1
