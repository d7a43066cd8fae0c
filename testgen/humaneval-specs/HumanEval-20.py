def valid(numbers):
    """One closest pair (by value): with a tie the statement names no answer."""
    s = sorted(numbers)
    gaps = sorted((b - a, a, b) for a, b in zip(s, s[1:]))
    return len(gaps) < 2 or gaps[0][0] < gaps[1][0] or gaps[0][1:] == gaps[1][1:]
