def derangements(n: int) -> int:
    if n == 0:
        return 1
    before, current = 1, 0
    k = 2
    while k <= n:
        following = (k - 1) * (before + current)
        before, current = current, following
        k += 1
    return current
