def derangements(n: int) -> int:
    if n == 0:
        return 1
    before, current = 1, 0
    for k in range(2, n + 1):
        following = (k - 1) * (before + current)
        before, current = current, following
    return current
